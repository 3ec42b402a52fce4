import Foundation
@testable import GtkProgress
@testable import GtkProgressLoading
import XCTest

/// Hostile pages (issue 29): each message says what happened, and an error status shows as an error.
/// `@MainActor` with async tests: the GTK layer is main-actor isolated, and XCTest on Linux runs async tests of a
/// main-actor class on the main thread (DESIGN.md, "Swift over GTK").
@MainActor
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

    // MARK: Gzip in several members

    /// RFC 1952 lets a gzip body hold several members; libcurl 7.88 decodes the first and fails the transfer with
    /// CURLE_WRITE_ERROR at the second, which was reported as "could not be kept in memory".
    func testGzipOfTwoMembersSaysWhatHappened() async {
        let single = record(server.url("/gzip-members?count=1"))
        XCTAssertEqual(single.shape, "response progress… finished")
        XCTAssertEqual(single.page?.text, "<p>Member 1 of 1.</p>\n", "one member decodes")

        let run = record(server.url("/gzip-members?count=2"))
        XCTAssertEqual(run.shape, "response progress… failed")
        XCTAssertEqual(run.error?.kind, .badResponse)
        assertFacts(run.error, ["127.0.0.1"])
    }

    // MARK: Stalls and trickles

    /// A byte every 1.5 s is under one a second: the load is stopped, and the message counts what came within the
    /// stall time instead of saying the server stopped.
    func testTrickleIsNotCalledAStop() async throws {
        let run = record(server.url("/drip?interval=1.5&after=0&length=100000"), options: LoaderOptions(stallTimeout: 3))
        XCTAssertEqual(run.error?.kind, .stalled)
        let message = try XCTUnwrap(run.error?.message)
        let counts = try XCTUnwrap(numbers(in: message, "The server at 127\\.0\\.0\\.1 sent only (\\d+) bytes? in the "
            + "last 3 seconds \\(([\\d,]+) of 100,000 bytes so far\\), too slowly to load the page\\. The page is "
            + "incomplete\\."), message)
        XCTAssertEqual(counts.count, 2)
        XCTAssertGreaterThan(counts[0], 0, "bytes came: not a stop")
        XCTAssertLessThan(counts[0], 3, "under one a second")
        XCTAssertLessThanOrEqual(counts[0], counts[1])
        XCTAssertEqual(run.progress.last?.received, counts[1], "the total is what was reported as progress")
    }

    /// Nothing at all within the stall time is still "stopped sending".
    func testSilenceIsStillAStop() async {
        let run = record(server.url("/drip?interval=30&after=500&length=100000"), options: LoaderOptions(stallTimeout: 1))
        XCTAssertEqual(run.error?.kind, .stalled)
        assertFacts(run.error, ["127.0.0.1", "1 second", "100,000 bytes", "500"])
    }

    func testTrickleMessagesFromFacts() async {
        let url = URL(string: "http://example.org/")!
        var facts = TransferFacts(url: url, currentURL: url, code: 42, osErrno: 0, didConnect: true, didRespond: true,
                                  received: 2_000, expected: 1_000_000, redirects: [], exceededSizeLimit: false,
                                  stalled: true, recentBytes: 14, detail: "", summary: "", options: LoaderOptions())
        XCTAssertEqual(facts.error().message, "The server at example.org sent only 14 bytes in the last 30 seconds "
            + "(2,000 of 1,000,000 bytes so far), too slowly to load the page. The page is incomplete.")
        facts.expected = nil
        facts.recentBytes = 1
        XCTAssertEqual(facts.error().message, "The server at example.org sent only 1 byte in the last 30 seconds "
            + "(2,000 bytes so far), too slowly to load the page. The page is incomplete.")
        facts.recentBytes = 0
        XCTAssertEqual(facts.error().message, "The server at example.org stopped sending for 30 seconds, after "
            + "2,000 bytes. The page is incomplete.")
        // libcurl's own low-speed backstop (CURLE_OPERATION_TIMEDOUT) says the same as the loader's watch.
        facts.stalled = false
        facts.code = 28
        facts.recentBytes = 7
        XCTAssertEqual(facts.error().message, "The server at example.org sent only 7 bytes in the last 30 seconds "
            + "(2,000 bytes so far), too slowly to load the page. The page is incomplete.")
    }

    // MARK: The deadline

    func testDeadlineSaysHowMuchCameInHowLong() async {
        let run = record(server.url("/stall?after=1000&length=100000"), options: LoaderOptions(deadline: 2))
        XCTAssertEqual(run.shape, "response progress… failed")
        XCTAssertEqual(run.error?.kind, .tooSlow)
        assertFacts(run.error, ["127.0.0.1", "2 seconds", "1000 bytes", "97.7 KB"])
    }

    /// A drip fast enough for the stall watch never ends by itself: the deadline ends it.
    func testDripIsEndedByTheDeadline() async throws {
        let run = record(server.url("/drip?interval=0.1&after=0&length=100000"), options: LoaderOptions(deadline: 2))
        XCTAssertEqual(run.error?.kind, .tooSlow)
        let message = try XCTUnwrap(run.error?.message)
        let counts = try XCTUnwrap(numbers(in: message, "The page from 127\\.0\\.0\\.1 was still arriving after 2 "
            + "seconds, the longest a page may take to load: only (\\d+) bytes of 97\\.7 KB came in that time\\. The page "
            + "is incomplete\\."), message)
        XCTAssertEqual(run.progress.last?.received, counts.first)
    }

    func testDeadlineMessagesFromFacts() async {
        let url = URL(string: "http://example.org/")!
        var options = LoaderOptions()
        XCTAssertEqual(options.deadline, 600, "ten minutes for a page document")
        var facts = TransferFacts(url: url, currentURL: url, code: 42, osErrno: 0, didConnect: true, didRespond: true,
                                  received: 600, expected: nil, redirects: [], exceededSizeLimit: false,
                                  overDeadline: true, detail: "", summary: "", options: options)
        XCTAssertEqual(facts.error().kind, .tooSlow)
        XCTAssertEqual(facts.error().message, "The page from example.org was still arriving after 10 minutes, the "
            + "longest a page may take to load: only 600 bytes came in that time. The page is incomplete.")
        facts.received = 9_437_185
        facts.expected = 67_108_864
        XCTAssertEqual(facts.error().message, "The page from example.org was still arriving after 10 minutes, the "
            + "longest a page may take to load: only 9.0 MB of 64.0 MB came in that time. The page is incomplete.")
        options.deadline = 90
        facts.options = options
        facts.didRespond = false
        XCTAssertEqual(facts.error().message, "The server at example.org had still not sent the page after 90 "
            + "seconds, the longest a page may take to load.")
    }

    // MARK: Sizes

    func testSizesAreTrue() async {
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

    func testSizeLimitMessageIsTrue() async {
        let run = record(server.url("/slow?size=20000000&rate=0"), options: LoaderOptions(maxDocumentBytes: 9_437_185))
        XCTAssertEqual(run.error?.kind, .tooLarge)
        assertFacts(run.error, ["127.0.0.1", "9.0 MB"])
    }

    // MARK: Error statuses

    func testErrorStatusWithoutABodyFails() async {
        let run = record(server.url("/status?code=500&body=empty"))
        XCTAssertTrue(run.shape.hasPrefix("response") && run.shape.hasSuffix("failed"), run.shape)
        XCTAssertEqual(run.response?.status, 500)
        XCTAssertEqual(run.error?.kind, .errorStatus)
        assertFacts(run.error, ["127.0.0.1", "500 Internal Server Error"])
        let blank = record(server.url("/status?code=404&body=blank"))
        XCTAssertEqual(blank.error?.kind, .errorStatus, "whitespace shows nothing either")
        assertFacts(blank.error, ["127.0.0.1", "404 Not Found"])
    }

    func testErrorStatusWithABodyShowsTheBody() async {
        let run = record(server.url("/status?code=500"))
        XCTAssertEqual(run.shape, "response progress… finished")
        XCTAssertEqual(run.page?.status, 500)
        XCTAssertTrue(run.page?.text.contains("The server says: status 500.") ?? false)
        let empty = record(server.url("/status?code=200&body=empty"))
        XCTAssertEqual(empty.page?.status, 200, "an empty 200 is an empty page, not an error")
        XCTAssertEqual(empty.page?.byteCount, 0)
    }

    func testErrorStatusWithoutABodyShowsAnErrorPageAndFailsTheBar() async throws {
        try requireDisplay()
        let browser = Browser(window: Window(), curve: .builtInWeChat)
        browser.open(server.url("/status?code=503&body=empty"), kind: .typed)
        XCTAssertTrue(MainLoop.run(until: { !browser.model.isLoading }, timeout: 10))
        XCTAssertEqual(browser.model.current?.isError, true)
        XCTAssertTrue(browser.page.text.contains("The server at 127.0.0.1 answered 503 Service Unavailable, with no "
            + "page to show."), browser.page.text)
        XCTAssertEqual(browser.indicator.phase, .failed, "the bar ends in the failure colour, not as a success")
        XCTAssertEqual(browser.chrome.statusText, "The server at 127.0.0.1 answered 503 Service Unavailable, with no "
            + "page to show.")
    }

    // MARK: Visited links

    func testRefusedLinksAreNotVisited() async throws {
        try requireDisplay()
        let visited = VisitedLinks()
        let browser = Browser(window: Window(), curve: .builtInWeChat, visited: visited)
        var opened: [URL] = []
        browser.onOpenInNewWindow = { url, _ in opened.append(url) }
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

    // MARK: Long addresses

    /// 3 MB is over the 2 MB browsers accept; 9 MB is over libcurl's 8,000,000-byte limit on strings, which used to
    /// trap in the option wrapper.
    func testOverlongAddressesAreRefused() async {
        server.resetCounts()
        for length in [3_000_000, 9_000_000] {
            let url = server.url("/page?q=" + String(repeating: "a", count: length))
            let run = record(url)
            XCTAssertEqual(run.shape, "failed")
            XCTAssertEqual(run.error?.kind, .addressTooLong)
            assertFacts(run.error, [ByteCount.size(Int64(url.absoluteString.utf8.count)), "2.0 MB"])
        }
        XCTAssertEqual(server.requestCount(for: "/page"), 0, "nothing was sent")
        let longest = server.url("/page?title=Long&q=" + String(repeating: "a", count: 100_000))
        XCTAssertEqual(record(longest).shape, "response progress… finished", "a long address under the bound loads")
    }

    /// An option libcurl refuses makes a failure to report, never a trap.
    func testRefusedOptionIsAFailureNotATrap() async throws {
        XCTAssertEqual(record(server.url("/page")).shape, "response progress… finished", "libcurl is loaded")
        let url = URL(string: "http://127.0.0.1/?q=" + String(repeating: "a", count: 8_100_000))!
        let transfer = Transfer(request: LoadRequest(url: url), options: LoaderOptions())
        let failure = try XCTUnwrap(transfer.setupFailure)
        XCTAssertEqual(failure.kind, .other)
        // The reason in brackets is libcurl's own (curl_easy_strerror), worded as the installed libcurl words it.
        let prefix = "This address could not be loaded: libcurl did not accept it ("
        XCTAssertTrue(failure.message.hasPrefix(prefix) && failure.message.hasSuffix(").")
                      && failure.message.count > prefix.count + 2, failure.message)
    }
}
