import Foundation
import GtkProgressCore
import TestSupport
import XCTest

/// Large generated pages go through the whole model, and what comes out grows in step with what goes in: twice the
/// page gives twice the links and about twice the text, and the larger page's text begins with the whole of the
/// smaller one's. A step of the model that dropped, repeated or reordered content past some size (a cut at a
/// buffer's end, a limit reached) breaks that. How long parsing takes is measured by `make bench` (the Rendering
/// rows), never here: a count of what was produced does not depend on the machine's load.
final class DocumentTimingTests: XCTestCase {
    /// GeneratedPage draws every page from the same seed, so a larger page is a smaller one with more sections.
    private func parse(bytes: Int, textHeavy: Bool) -> (html: String, document: Document) {
        let html = GeneratedPage.html(bytes: bytes, textHeavy: textHeavy)
        return (html, Document.parse(html: html, baseURL: URL(string: "http://example.org/")))
    }

    private func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    func testLinksAreFoundInProportionToThePage() {
        for bytes in [500_000, 1_000_000, 2_000_000] {
            let (html, document) = parse(bytes: bytes, textHeavy: false)
            // Each section has one link in its paragraph and one in each of its three list items.
            let sections = occurrences(of: "<h2>", in: html)
            XCTAssertGreaterThan(sections, 100)
            XCTAssertEqual(document.links.count, 4 * sections, "\(bytes) bytes, \(sections) sections")
            XCTAssertTrue(document.dumpText().contains("References"), "the links are listed")
        }
    }

    func testTextGrowsInStepWithThePage() {
        for textHeavy in [false, true] {
            let (smallHTML, small) = parse(bytes: 1_000_000, textHeavy: textHeavy)
            let (largeHTML, large) = parse(bytes: 2_000_000, textHeavy: textHeavy)
            XCTAssertTrue(largeHTML.hasPrefix(String(smallHTML.dropLast("</body></html>\n".count))),
                          "the generator extends the smaller page")
            let smallText = small.text.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertGreaterThan(smallText.utf8.count, smallHTML.utf8.count / 4, "the text of the page survived")
            XCTAssertTrue(large.text.hasPrefix(smallText), "textHeavy \(textHeavy): the larger page's text begins "
                          + "with all of the smaller one's")
            let ratio = Double(large.text.utf8.count) / Double(small.text.utf8.count)
            XCTAssertEqual(ratio, 2, accuracy: 0.05, "textHeavy \(textHeavy): twice the page, twice the text")
        }
    }
}
