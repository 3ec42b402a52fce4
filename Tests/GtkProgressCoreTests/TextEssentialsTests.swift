@testable import GtkProgressCore
import XCTest

/// The standard-library stand-ins for Foundation's text helpers behave as the Foundation calls they replace.
final class TextEssentialsTests: XCTestCase {
    func testTrimmedRemovesWhiteSpaceAndLineBreaksAtBothEnds() {
        XCTAssertEqual("  a b \n\t".trimmed(), "a b")
        XCTAssertEqual("\u{00A0}Title\u{3000}".trimmed(), "Title")
        XCTAssertEqual(" \n ".trimmed(), "")
        XCTAssertEqual("x".trimmed(), "x")
    }

    func testPercentEscapesDecodeAsUTF8AndRejectMalformedOnes() {
        XCTAssertEqual("caf%C3%A9%20bar".removingPercentEscapes, "café bar")
        XCTAssertEqual("no escapes".removingPercentEscapes, "no escapes")
        XCTAssertNil("bad%2".removingPercentEscapes)
        XCTAssertNil("bad%zz".removingPercentEscapes)
        XCTAssertNil("%FF%FE".removingPercentEscapes, "bytes that are not UTF-8")
    }

    func testEscapingKeepsFragmentCharactersAndEscapesTheRest() {
        XCTAssertEqual("a-b_c.d~e/f?g=h&i".escapingForURLFragment, "a-b_c.d~e/f?g=h&i")
        XCTAssertEqual("a b#é".escapingForURLFragment, "a%20b%23%C3%A9")
        XCTAssertEqual("a b#é".escapingForURLFragment.removingPercentEscapes, "a b#é")
    }

    func testFixedDecimalsPrintAsPrintfDoes() {
        XCTAssertEqual(2.25.formatted(decimals: 1), "2.3")
        XCTAssertEqual(3.0.formatted(decimals: 3), "3.000")
        XCTAssertEqual(0.05.formatted(decimals: 3), "0.050")
        XCTAssertEqual((-1.5).formatted(decimals: 1), "-1.5")
        XCTAssertEqual((-0.01).formatted(decimals: 1), "0.0")
        XCTAssertEqual(1234.0.formatted(decimals: 0), "1234")
        XCTAssertEqual(9.96.formatted(decimals: 1), "10.0")
    }
}
