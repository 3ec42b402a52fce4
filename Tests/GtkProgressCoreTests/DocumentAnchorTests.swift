import XCTest
@testable import GtkProgressCore

final class DocumentAnchorTests: XCTestCase {
    func testIdsAndNamedAnchorsGiveCharacterOffsets() {
        let html = """
        <title>A</title><p>Ünïcode first.</p><h2 id="second">Second</h2><p>x</p><a name="third">Third</a>
        """
        let document = Document.parse(html: html, baseURL: nil)
        let text = document.text
        let second = try! XCTUnwrap(document.characterOffset(ofAnchor: "second"))
        let third = try! XCTUnwrap(document.characterOffset(ofAnchor: "third"))
        XCTAssertTrue(Array(text)[second...].starts(with: Array("Second")) || Array(text)[second...].drop(while: \.isNewline).starts(with: Array("Second")),
                      "offset \(second) points at the heading in \(text.debugDescription)")
        XCTAssertTrue(String(Array(text)[third...]).trimmingCharacters(in: .newlines).hasPrefix("Third"))
        XCTAssertLessThan(second, third)
        XCTAssertNil(document.characterOffset(ofAnchor: "missing"))
    }

    /// Inline elements whose plain text the prefilter hands to gumbo as a placeholder kept their anchors out of
    /// the document: `<span id=x>`, `<a href id=x>`, `<a name=x>` inside a paragraph.
    func testAnchorsOnInlineElementsSurviveThePrefilter() throws {
        let html = "<p>one <span id=s>span text</span> two <a href=/x id=l>link text</a> three "
            + "<a name=n>named text</a> <span id=e>emphasis</span> end</p>"
        let document = Document.parse(html: html, baseURL: URL(string: "http://example.org/"))
        let text = Array(document.text)
        for (anchor, expected) in [("s", "span text"), ("l", "link text"), ("n", "named text"), ("e", "emphasis")] {
            let offset = try XCTUnwrap(document.characterOffset(ofAnchor: anchor), anchor)
            XCTAssertTrue(String(text[offset...]).hasPrefix(expected), "#\(anchor) at \(offset) in \(document.text)")
        }
    }
}
