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
}
