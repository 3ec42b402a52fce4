import XCTest
@testable import GtkProgressCore

/// Find stops counting at `FindResults.matchLimit`: the label says so, the scan stops, and the reader's place is
/// still found below that many matches.
final class FindLimitTests: XCTestCase {
    /// Searches `text` slice by slice as the page's finder does; returns the results and the slices scanned.
    private func search(_ needle: String, in text: String, anchor: Int, slice: Int = 64 * 1024)
        -> (results: FindResults, slices: Int) {
        var scanner = FindScanner(needle)!
        var results = FindResults(length: scanner.length, anchor: anchor)
        let scalars = Array(text.unicodeScalars)
        var slices = 0
        while !results.isComplete {
            guard scanner.position < scalars.count else {
                results.finish()
                break
            }
            let sliceEnd = min(scanner.position + slice, scalars.count)
            let window = String(String.UnicodeScalarView(
                scalars[scanner.position..<min(sliceEnd + scanner.length - 1, scalars.count)]))
            results.append(scanner.scan(window[...].unicodeScalars, sliceEnd: sliceEnd))
            slices += 1
        }
        return (results, slices)
    }

    /// 26,000 matches: 10,000 are counted, the label says there are more, and the scan ends early.
    func testCountingStopsAtTenThousand() {
        let text = String(repeating: "find me, ", count: 26_000)
        let (results, slices) = search("ME", in: text, anchor: 0, slice: 9_000)
        XCTAssertEqual(results.matches.count, 10_000)
        XCTAssertEqual(FindResults.matchLimit, 10_000)
        XCTAssertTrue(results.isCapped)
        XCTAssertTrue(results.isComplete)
        XCTAssertEqual(results.label, "More than 10,000 matches")
        XCTAssertEqual(results.currentRange, 5..<7)
        XCTAssertEqual(results.matches.last, 9 * 9_999 + 5)
        XCTAssertLessThan(slices, 12, "the scan stops near the 10,000th match, not at the end of 234,000 characters")
    }

    /// Exactly the limit is counted as usual; one more is "more than".
    func testTheLimitItselfIsCountedExactly() {
        let exact = search("x", in: String(repeating: "x.", count: 10_000), anchor: 0).results
        XCTAssertFalse(exact.isCapped)
        XCTAssertEqual(exact.label, "1 of 10000")
        let over = search("x", in: String(repeating: "x.", count: 10_001), anchor: 0).results
        XCTAssertTrue(over.isCapped)
        XCTAssertEqual(over.label, "More than 10,000 matches")
    }

    /// A reader deep in the page keeps their place: matches before it give way to those after it.
    func testTheCurrentMatchIsFoundPastTheLimit() {
        let text = String(repeating: "ab ", count: 26_000)
        let anchor = 3 * 20_000
        let results = search("ab", in: text, anchor: anchor, slice: 1_000).results
        XCTAssertEqual(results.currentRange, anchor..<(anchor + 2))
        XCTAssertEqual(results.matches.count, 10_000)
        XCTAssertTrue(results.isCapped)
        XCTAssertEqual(results.matches.first, 3 * 16_000, "matches before the current one gave way")
        XCTAssertEqual(results.matches.last, 3 * 25_999, "from the anchor on, the rest of the page fits")
        XCTAssertEqual(Array(results.matches(startingIn: anchor..<(anchor + 7))), [anchor, anchor + 3, anchor + 6])

        // Every match before the anchor: the last 10,000 of them are kept, and the first of those is current.
        let past = search("ab", in: text, anchor: 3 * 26_000, slice: 5_000).results
        XCTAssertEqual(past.matches.count, 10_000)
        XCTAssertEqual(past.matches.first, 3 * 16_000)
        XCTAssertEqual(past.current, 0)
        XCTAssertEqual(past.label, "More than 10,000 matches")
    }
}
