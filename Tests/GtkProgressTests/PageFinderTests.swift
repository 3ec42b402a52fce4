import Foundation
@testable import GtkProgress
@testable import GtkProgressCore
import XCTest

/// Find in page on the text view: counting stops at `FindResults.matchLimit`, and the bar says so.
/// `@MainActor` with async tests: the GTK layer is main-actor isolated, and XCTest on Linux runs async tests of a
/// main-actor class on the main thread (DESIGN.md, "Swift over GTK").
@MainActor
final class PageFinderTests: XCTestCase {
    private var window: Window!
    private var page: PageView!

    override func setUp() async throws {
        try requireDisplay()
        window = Window()
        window.setDefaultSize(width: 640, height: 480)
        page = PageView()
        window.add(page.root)
        window.showAll()
        XCTAssertTrue(MainLoop.run(until: { self.page.textView.width > 1 }, timeout: 5), "the window is laid out")
    }

    override func tearDown() async throws {
        window?.destroy()
        window = nil
        page = nil
        while MainLoop.iterate() {}
    }

    /// 26,000 matches in 520 paragraphs: the search ends at 10,000 with "More than 10,000 matches", the first match
    /// current, and what the bar was told is what the finder holds.
    func testASearchPastTheLimitStopsCounting() async {
        let paragraph = "<p>" + String(repeating: "a needle, ", count: 50) + "</p>"
        let document = Document.parse(html: String(repeating: paragraph, count: 520), baseURL: nil)
        page.show(document, scrollTo: nil)
        XCTAssertTrue(MainLoop.run(until: { self.page.isComplete }, timeout: 60), "the whole document goes in")
        var reported: [String] = []
        page.finder.onChange = { reported.append($0?.label ?? "") }
        page.finder.search("Needle")
        XCTAssertTrue(MainLoop.run(until: { self.page.finder.results?.isComplete == true }, timeout: 60))
        let results = page.finder.results
        XCTAssertEqual(results?.matches.count, 10_000)
        XCTAssertEqual(results?.label, "More than 10,000 matches")
        XCTAssertEqual(results?.currentRange, 2..<8)
        XCTAssertEqual(reported.last, "More than 10,000 matches")
        page.finder.move(forward: false)
        XCTAssertEqual(page.finder.results?.current, 9_999, "back from the first match: the last one kept")
    }
}
