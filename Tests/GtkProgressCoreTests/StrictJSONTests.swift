import XCTest
@testable import GtkProgressCore

/// The strict JSON check in front of curve decoding accepts exactly RFC 8259 JSON.
final class StrictJSONTests: XCTestCase {
    func problem(_ text: String) -> CurveFileError.Problem? { StrictJSON.problem(in: Array(text.utf8)) }

    func testWellFormedDocumentsPass() {
        for text in [#"{}"#, #"[]"#, #" {"a": [1, -0.5e+3, 2E-2, 0, -0], "b": {"c": null, "d": true, "e": false}} "#,
                     #"{"s": "tab\tquote\" slash\/ \u00e9 日本"}"#, "\n[\n1\n,\n2\n]\n", #""text""#, "12", "4.9e-324"] {
            XCTAssertNil(problem(text), text)
        }
    }

    func testMalformedDocumentsFailWithAPosition() {
        let cases: [(String, Int, Int)] = [
            ("", 1, 1), ("{", 1, 2), (#"{"a" 1}"#, 1, 6), (#"{a: 1}"#, 1, 2), (#"{'a': 1}"#, 1, 2), ("[01]", 1, 2),
            ("[1.]", 1, 4), ("[.5]", 1, 2), ("[+1]", 1, 2), ("[tru]", 1, 2), ("[1 2]", 1, 4), ("[1,]", 1, 3),
            ("{\"a\": 1,}", 1, 8), ("[\"a\nb\"]", 1, 4), (#"["\x"]"#, 1, 3), (#"["\u12"]"#, 1, 3), ("[1] x", 1, 5),
            ("[\"open", 1, 2), ("{\"a\": 1} {}", 1, 10), ("[NaN]", 1, 2), ("[1, // note\n2]", 1, 5),
        ]
        for (text, line, column) in cases {
            guard case let .badJSON(l?, c?, detail) = problem(text) else {
                XCTFail("\(text.debugDescription) must be refused, got \(String(describing: problem(text)))")
                continue
            }
            XCTAssertEqual([l, c], [line, column], "\(text.debugDescription): \(detail)")
            XCTAssertFalse(detail.isEmpty)
        }
    }

    func testDeepNestingIsRefusedWithoutRecursingForEver() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        guard case let .badJSON(_, _, detail) = problem(deep) else { return XCTFail() }
        XCTAssertTrue(detail.contains("nested more than"), detail)
    }

    func testNumbersOutOfRangeNameTheirField() {
        XCTAssertEqual(problem(#"{"a": [{"b": 1}, {"b": -2e999}]}"#),
                       .numberOutOfRange(field: "a[1].b", text: "-2e999", tooLarge: true))
        XCTAssertEqual(problem("[1e-400]"), .numberOutOfRange(field: "[0]", text: "1e-400", tooLarge: false))
    }
}
