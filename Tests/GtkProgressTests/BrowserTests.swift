import Foundation
@testable import GtkProgress
import XCTest

/// The whole window against the loopback server: what the person sees after hostile or odd answers.
/// `@MainActor` with async tests: the GTK layer is main-actor isolated, and XCTest on Linux runs async tests of a
/// main-actor class on the main thread (DESIGN.md, "Swift over GTK").
@MainActor
final class BrowserTests: XCTestCase {
    let server = TestServer.shared

    override func setUp() async throws {
        try requireDisplay()
    }

    func makeBrowser(options: LoaderOptions = LoaderOptions()) -> Browser {
        Browser(window: Window(), curve: .builtInWeChat, loaderOptions: options)
    }

    /// Runs the main loop until `condition` holds; false on timeout.
    @discardableResult
    func wait(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
        MainLoop.run(until: condition, timeout: timeout)
    }

    /// Opens `path` as if typed and waits until it is shown.
    func load(_ browser: Browser, _ path: String, file: StaticString = #filePath, line: UInt = #line) {
        browser.open(server.url(path), kind: .typed)
        XCTAssertTrue(wait { !browser.model.isLoading }, "\(path) loads", file: file, line: line)
    }

    /// Media queries read the window's width (the whole page area, not the reading measure) and are read again
    /// when the window is resized across one of their widths: the page is built again from what arrived, without a
    /// request, and Back comes to the page built for the last width; a width between two breakpoints builds nothing.
    func testMediaQueriesFollowTheWindowsWidth() async throws {
        let browser = makeBrowser()
        browser.chrome.window.setDefaultSize(width: 1000, height: 600)
        browser.chrome.window.showAll()
        XCTAssertTrue(wait { browser.page.textView.width > 900 }, "the window is 1000 px wide")
        var parts = URLComponents(url: server.url("/page"), resolvingAgainstBaseURL: false)!
        parts.queryItems = [URLQueryItem(name: "title", value: "Responsive"), URLQueryItem(name: "body", value: """
            <style>@media (max-width: 849px) { .wide { display: none } }
            @media (min-width: 850px) { .narrow { display: none } }</style>
            <p class=wide>wide-layout</p><p class=narrow>narrow-layout</p><p>always</p>
            """)]
        server.resetCounts()
        browser.open(parts.url!, kind: .typed)
        XCTAssertTrue(wait { !browser.model.isLoading && browser.session == nil })
        XCTAssertTrue(browser.page.text.contains("wide-layout"), "a 1000 px window reads min-width: 850px")
        XCTAssertFalse(browser.page.text.contains("narrow-layout"))
        let shown = browser.page.shows
        browser.chrome.window.resize(width: 920, height: 600)
        XCTAssertTrue(wait { browser.page.textView.width < 950 })
        // Past the restyle delay: no width was crossed, nothing is built again.
        let until = MainLoop.monotonicSeconds() + Double(Browser.restyleDelay) / 1000 + 0.3
        _ = wait(timeout: 2) { MainLoop.monotonicSeconds() > until }
        XCTAssertEqual(browser.page.shows, shown, "920 px: the same layout, nothing built again")
        // The window's chrome keeps it wider than about 700 px.
        browser.chrome.window.resize(width: 760, height: 600)
        XCTAssertTrue(wait { browser.page.text.contains("narrow-layout") && !browser.page.text.contains("wide-layout") },
                      "760 px: the narrow layout (\(browser.page.text.prefix(80)))")
        XCTAssertEqual(server.requestCount(for: "/page"), 1, "built again from what arrived, not fetched")
        XCTAssertEqual(browser.model.current?.page?.document.text.contains("narrow-layout"), true,
                       "the history keeps the page built for this width")
        browser.chrome.window.resize(width: 1000, height: 600)
        XCTAssertTrue(wait { browser.page.text.contains("wide-layout") }, "and wide again")
    }

    /// The viewer's first address starts loading before its window is built (`EarlyNavigation`): the window made
    /// afterwards takes over the model and the load, gets every event that came meanwhile, and shows the page
    /// without asking for it again.
    func testAWindowTakesOverALoadStartedBeforeIt() async {
        server.resetCounts()
        let early = EarlyNavigation(opening: server.url("/page?title=Early"), kind: .commandLine,
                                    loaderOptions: LoaderOptions())
        XCTAssertTrue(early.isLoading, "the load starts with no window")
        XCTAssertTrue(wait { !early.isLoading }, "and ends with none: its events wait")
        let browser = Browser(window: Window(), curve: .builtInWeChat, starting: early)
        XCTAssertTrue(browser.model.isLoading, "the window's model is the one that started the navigation")
        browser.resume(early)
        XCTAssertTrue(wait { !browser.model.isLoading && browser.session == nil })
        XCTAssertEqual(browser.model.current?.title, "Early")
        XCTAssertEqual(browser.chrome.window.title, "Early")
        XCTAssertTrue(browser.page.text.contains("This is a test page."), browser.page.text)
        XCTAssertEqual(server.requestCount(for: "/page"), 1, "taken over, not asked for again")
        browser.resume(early)
        XCTAssertEqual(browser.model.list.entries.count, 1, "a navigation is taken over once")
    }

    /// A first address the navigation model refuses starts no load, and its window says why.
    func testARefusedFirstAddressIsSaidInItsWindow() async {
        let url = URL(string: "ftp://127.0.0.1/file")!
        guard case .refused(let message) = NavigationModel<ShownPage>().navigate(to: url, kind: .commandLine) else {
            return XCTFail("ftp: is not opened")
        }
        let early = EarlyNavigation(opening: url, kind: .commandLine, loaderOptions: LoaderOptions())
        XCTAssertFalse(early.isLoading)
        let browser = Browser(window: Window(), curve: .builtInWeChat, starting: early)
        browser.resume(early)
        XCTAssertEqual(browser.chrome.statusText, message)
        XCTAssertNil(browser.model.current)
        XCTAssertNil(browser.session)
    }

    func testNoContentKeepsThePageShown() async {
        let browser = makeBrowser()
        load(browser, "/page?title=Kept")
        browser.followLink(server.url("/empty"))
        XCTAssertTrue(wait { !browser.model.isLoading })
        XCTAssertEqual(browser.chrome.statusText,
                       "The server at 127.0.0.1 sent nothing to show (204 No Content). The page shown before stays.")
        XCTAssertEqual(browser.model.list.entries.count, 1, "no entry for nothing")
        XCTAssertEqual(browser.model.current?.title, "Kept")
        XCTAssertEqual(browser.chrome.window.title, "Kept")
        XCTAssertTrue(browser.page.text.contains("This is a test page."), browser.page.text)
        XCTAssertEqual(browser.chrome.address.text, server.url("/page?title=Kept").absoluteString)
    }

    func testNotModifiedWithNothingCachedIsAnError() async {
        let browser = makeBrowser()
        load(browser, "/not-modified")
        XCTAssertEqual(browser.model.current?.isError, true)
        XCTAssertTrue(browser.page.text.contains("304 Not Modified"), browser.page.text)
    }

    /// `<meta http-equiv="refresh" content="0">` on itself asked for the page about 320 times a second, for ever.
    func testAPageThatRefreshesItselfIsHeldBackAndStopped() async {
        for path in ["/refresh-self", "/refresh-self?url=1"] {
            let browser = makeBrowser()
            browser.model.refreshes.limit = 3
            browser.model.refreshes.minimumInterval = 0.3
            server.resetCounts()
            browser.open(server.url(path), kind: .typed)
            let start = MainLoop.monotonicSeconds()
            XCTAssertTrue(wait(timeout: 15) { browser.chrome.statusText.hasPrefix("Stopped") }, path)
            let elapsed = MainLoop.monotonicSeconds() - start
            XCTAssertEqual(browser.chrome.statusText, "Stopped this page from refreshing itself: it did so 3 times "
                + "in a row without you doing anything. Press F5 to load it again.")
            XCTAssertEqual(server.requestCount(for: "/refresh-self"), 4, "\(path): the page and 3 refreshes")
            XCTAssertGreaterThanOrEqual(elapsed, 0.6, "the refreshes after the first waited 0.3 s each")
            wait(timeout: 1) { false }
            XCTAssertEqual(server.requestCount(for: "/refresh-self"), 4, "\(path): no more once stopped")
            XCTAssertEqual(browser.model.current?.title, "Refreshes itself", "the page stays")
            XCTAssertEqual(browser.model.list.entries.count, 1, "each refresh replaced the entry")
            XCTAssertFalse(browser.model.isLoading)

            browser.reload()
            XCTAssertTrue(wait { server.requestCount(for: "/refresh-self") >= 6 }, "F5 starts a new chain")
        }
    }

    /// Two addresses dropped together, or given on the command line: the first opens, and the status line says
    /// the other was not (this window shows one page at a time).
    func testSeveralAddressesOpenTheFirstAndSaySo() async {
        let browser = makeBrowser()
        browser.open([server.url("/page?title=First"), server.url("/page?title=Second")], kind: .dropped)
        XCTAssertTrue(wait { !browser.model.isLoading })
        XCTAssertEqual(browser.model.current?.title, "First")
        XCTAssertEqual(browser.model.list.entries.count, 1)
        XCTAssertEqual(browser.chrome.statusText, "Opened the first of 2 addresses; this window shows one page at a "
            + "time, so the other one was not opened.")
    }

    /// With windows to open (the viewer), each address after the first gets a window of its own, and no notice.
    func testSeveralAddressesOpenAWindowEachWhenWindowsCanBeOpened() async {
        let browser = makeBrowser()
        var others: [URL] = []
        browser.onOpenInNewWindow = { url, _ in others.append(url) }
        let urls = [server.url("/page?title=First"), server.url("/page?title=Second"), server.url("/page?title=Third")]
        browser.open(urls, kind: .commandLine)
        XCTAssertTrue(wait { !browser.model.isLoading })
        XCTAssertEqual(browser.model.current?.title, "First")
        XCTAssertEqual(others, Array(urls.dropFirst()))
        XCTAssertFalse(browser.chrome.statusText.contains("not opened"), browser.chrome.statusText)
    }

    /// GTK cuts a paste to the 65,535 characters its entry holds, and Enter then loaded what was left.
    /// Six hundred addresses dropped at once: twenty windows, and the status line says how many were left.
    func testAHugeDropOpensTwentyWindowsAndSaysSo() async {
        let browser = makeBrowser()
        var others: [URL] = []
        browser.onOpenInNewWindow = { url, kind in
            XCTAssertEqual(kind, .dropped)
            others.append(url)
        }
        let urls = (0..<600).map { server.url("/page?title=P\($0)") }
        browser.open(urls, kind: .dropped)
        XCTAssertTrue(wait { !browser.model.isLoading })
        XCTAssertEqual(others, Array(urls[1..<20]))
        XCTAssertTrue(browser.chrome.statusText.contains("Opened the first 20 of 600 addresses, a window each; the "
            + "other 580 were not opened."), browser.chrome.statusText)
    }

    func testAnAddressTooLongForTheEntryIsRefusedWhole() async {
        let browser = makeBrowser()
        load(browser, "/page?title=Here")
        let shown = browser.chrome.address.text
        browser.chrome.address.insertAtCursor("http://127.0.0.1/" + String(repeating: "a", count: 70_000))
        XCTAssertEqual(browser.chrome.address.text, shown, "nothing was pasted")
        let total = ByteCount.grouped(Int64(shown.count + 70_017))
        XCTAssertEqual(browser.chrome.statusText, "Not pasted: the address would be \(total) characters long, and "
            + "the address entry holds at most 65,535. No web server accepts an address that long.")
        browser.chrome.address.insertAtCursor("/more")
        XCTAssertEqual(browser.chrome.address.characterCount, shown.count + 5, "input that fits goes in")
        browser.chrome.address.text = String(repeating: "b", count: 10)
        XCTAssertEqual(browser.chrome.address.characterCount, 10, "the program's own text is not input")
    }

    func testThrottleSaysItLeavesLocalFilesAlone() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gtkprogress-throttle-\(UUID()).html")
        try Data("<title>Local</title><p>Here.</p>".utf8).write(to: file)
        addTeardownBlock { try? FileManager.default.removeItem(at: file) }
        let browser = makeBrowser(options: LoaderOptions(throttleBytesPerSecond: 1000))
        browser.open(file, kind: .commandLine)
        XCTAssertTrue(wait { !browser.model.isLoading })
        XCTAssertEqual(browser.chrome.statusText, "Done: 32 bytes. Not throttled: --throttle slows down web "
            + "addresses only, and this is a local file.")
        load(browser, "/page?title=Web")
        XCTAssertFalse(browser.chrome.statusText.contains("throttled"), browser.chrome.statusText)
    }

    /// A message too long for the status line ends in "…"; the whole of it is the label's tooltip.
    func testTheWholeStatusIsInTheTooltip() async {
        let browser = makeBrowser()
        let message = String(repeating: "A long status message. ", count: 40)
        browser.chrome.statusText = message
        XCTAssertEqual(browser.chrome.status.tooltip, message)
        browser.chrome.statusText = ""
        XCTAssertNil(browser.chrome.status.tooltip)
    }

    /// 12 quick Backs from the 15th page, most of whose pages have left the page cache, end on the 3rd page: no
    /// press is lost while the one before it is loading.
    func testQuickBackPressesAreNotLost() async {
        let browser = makeBrowser()
        for n in 1...15 {
            browser.followLink(server.url("/page?title=P\(n)"))
            XCTAssertTrue(wait { !browser.model.isLoading })
        }
        XCTAssertEqual(browser.model.current?.title, "P15")
        for _ in 0..<12 { browser.goBack() }
        XCTAssertTrue(wait { !browser.model.isLoading })
        XCTAssertEqual(browser.model.current?.title, "P3")
        XCTAssertEqual(browser.model.list.currentIndex, 2)
        XCTAssertEqual(browser.chrome.window.title, "P3")
        XCTAssertTrue(browser.chrome.back.isSensitive)
    }
}
