import Foundation
@testable import GtkProgress
@testable import GtkProgressLoading
import XCTest

/// Hostile pages (issue 29): each message says what happened, and an error status shows as an error.
final class LoaderHostileTests: XCTestCase {
    let server = TestServer.shared

    /// The numbers of `pattern`'s capture groups in `text`, or nil when it does not match the whole text.
    func numbers(in text: String, _ pattern: String) -> [Int64]? {
        guard let regex = try? NSRegularExpression(pattern: "^" + pattern + "$"),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        return (1..<match.numberOfRanges).compactMap {
            Range(match.range(at: $0), in: text).flatMap { Int64(text[$0].replacingOccurrences(of: ",", with: "")) }
        }
    }

    // MARK: Sizes

    func testSizesAreTrue() {
        XCTAssertEqual(ByteCount.size(9_437_185), "9.0 MB", "9 MB and a byte is not 9 MB")
        XCTAssertEqual(ByteCount.size(9_900_000), "9.4 MB")
        XCTAssertEqual(ByteCount.size(64 << 20), "64.0 MB")
        XCTAssertEqual(ByteCount.size(1_048_575), "1.0 MB", "not 1024.0 KB")
        XCTAssertEqual(ByteCount.size(4096), "4.0 KB")
        XCTAssertEqual(ByteCount.size(1), "1 byte")
        XCTAssertEqual(GeneratedPages.formatBytes(9_437_185), ByteCount.size(9_437_185), "one way of writing sizes")
        XCTAssertEqual(ByteCount.seconds(600), "10 minutes")
        XCTAssertEqual(ByteCount.seconds(90), "90 seconds")
    }

    func testSizeLimitMessageIsTrue() {
        let run = record(server.url("/slow?size=20000000&rate=0"), options: LoaderOptions(maxDocumentBytes: 9_437_185))
        XCTAssertEqual(run.error?.message, "The document from 127.0.0.1 is larger than 9.0 MB, the most this viewer "
            + "loads, so it was not loaded.")
    }

    // MARK: Visited links

    func testRefusedLinksAreNotVisited() throws {
        guard Display.initialize() else { throw XCTSkip("no display") }
        let visited = VisitedLinks()
        let browser = Browser(window: Window(), curve: .builtInWeChat, visited: visited)
        var opened: [URL] = []
        browser.onOpenInNewWindow = { opened.append($0) }
        browser.open(server.url("/page?title=Links"), kind: .typed)
        XCTAssertTrue(MainLoop.run(until: { !browser.model.isLoading }, timeout: 10))
        let refused = ["file:///etc/passwd", "mailto:someone@example.org", "data:text/html,hello",
                       "javascript:alert(1)"].map { URL(string: $0)! }
        for url in refused {
            browser.followLink(url)
            XCTAssertFalse(browser.model.isLoading, "\(url) is refused")
            XCTAssertFalse(visited.contains(url), "\(url) was refused, so never visited")
            browser.openLinkInNewWindow(url)
            XCTAssertFalse(visited.contains(url), "\(url) in a new window was refused too")
        }
        XCTAssertEqual(opened, [], "no window opens for a refused link")
        XCTAssertEqual(browser.chrome.statusText, "Blocked a javascript: link: scripts are not run.")

        let page = server.url("/page?title=Next")
        browser.followLink(page)
        XCTAssertTrue(visited.contains(page), "a link followed is visited")
        let other = server.url("/page?title=Other")
        browser.openLinkInNewWindow(other)
        XCTAssertEqual(opened, [other])
        XCTAssertTrue(visited.contains(other))

        let list = VisitedLinks()
        list.insert(URL(string: "data:text/html,hello")!)
        list.insert(URL(string: "mailto:someone@example.org")!)
        XCTAssertEqual(list.urls, [], "the list keeps only addresses pages load from")
    }
}
