import Foundation
import GtkProgressCore
import TestSupport
import XCTest

/// Large generated pages go through the whole model. How long that takes is measured by `make bench` (the
/// Rendering rows), never asserted here.
final class DocumentTimingTests: XCTestCase {
    func testLargeGeneratedPagesAreRenderedWhole() {
        for textHeavy in [false, true] {
            let html = GeneratedPage.html(bytes: 2_000_000, textHeavy: textHeavy)
            let document = Document.parse(html: html, baseURL: URL(string: "http://example.org/"))
            let dump = document.dumpText()
            XCTAssertGreaterThan(dump.utf8.count, html.utf8.count / 4, "the text of the page survived")
            if !textHeavy {
                XCTAssertFalse(document.links.isEmpty, "links were found")
                XCTAssertTrue(dump.contains("References"), "and listed")
            }
        }
    }
}
