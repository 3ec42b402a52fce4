import Foundation
@testable import GtkProgress
import XCTest

/// Every way a link can be opened, from a web page and from a local page, against the one navigation policy: a web
/// page never opens a local file, whether the link opens here or in a new window, by mouse, keyboard or menu; a
/// local page and the person at the screen may.
/// `@MainActor` with async tests: the GTK layer is main-actor isolated, and XCTest on Linux runs async tests of a
/// main-actor class on the main thread (DESIGN.md, "Swift over GTK").
@MainActor
final class LinkPolicyTests: XCTestCase {
    let server = TestServer.shared
    private var folder: URL!

    override func setUp() async throws {
        try requireDisplay()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gtkprogress-links-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "<title>Target</title><p>A local file.</p>".write(to: localTarget, atomically: true, encoding: .utf8)
    }

    override func tearDown() async throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    private var localTarget: URL { folder.appendingPathComponent("target.html") }

    /// A page, on the web or on this computer, whose one link goes to `target`.
    private func opener(local: Bool, linkingTo target: URL) throws -> URL {
        guard local else {
            var parts = URLComponents(url: server.url("/link"), resolvingAgainstBaseURL: false)!
            parts.queryItems = [URLQueryItem(name: "to", value: target.absoluteString)]
            return parts.url!
        }
        let page = folder.appendingPathComponent("opener-\(UUID()).html")
        try "<title>Links</title><p>Go <a href=\"\(target.absoluteString)\">there</a>.</p>"
            .write(to: page, atomically: true, encoding: .utf8)
        return page
    }

    /// One way of opening the page's link; `newWindow` ways hand the address to the window opener.
    struct Way {
        let name: String
        let newWindow: Bool
        let open: (Browser, URL) -> Void
    }

    let ways: [Way] = [
        Way(name: "click", newWindow: false) { browser, url in browser.page.onLinkActivated?(url) },
        Way(name: "Return on the focused link", newWindow: false) { browser, _ in
            XCTAssertTrue(browser.page.focusLink(forward: true))
            XCTAssertTrue(browser.page.activateFocusedLink(newWindow: false))
        },
        Way(name: "Shift+Return or Ctrl+Return on the focused link", newWindow: true) { browser, _ in
            XCTAssertTrue(browser.page.focusLink(forward: true))
            XCTAssertTrue(browser.page.activateFocusedLink(newWindow: true))
        },
        // The middle button, Ctrl with the first and the link menu's "Open Link in New Window" all end here.
        Way(name: "middle click, Ctrl+click or the link's menu", newWindow: true) { browser, url in
            browser.page.openInNewWindow(url)
        },
    ]

    private func wait(_ condition: () -> Bool) -> Bool { MainLoop.run(until: condition, timeout: 10) }

    /// Opens the link one way from `openerURL`; returns the window that ends up showing something new, or nil
    /// when nothing opened (and then checks that the refusal was said and nothing moved).
    private func follow(_ way: Way, from openerURL: URL, to target: URL) -> Browser? {
        let browser = Browser(window: Window(), curve: .builtInWeChat, loaderOptions: LoaderOptions())
        var asked: [(URL, NavigationKind)] = []
        browser.onOpenInNewWindow = { asked.append(($0, $1)) }
        browser.open(openerURL, kind: .typed)
        XCTAssertTrue(wait { !browser.model.isLoading && browser.model.current?.title == "Links" }, way.name)
        way.open(browser, target)
        _ = wait { !browser.model.isLoading }
        if way.newWindow {
            XCTAssertEqual(browser.model.current?.title, "Links", "\(way.name): the opener stays")
            guard let (url, kind) = asked.first else { return nil }
            XCTAssertEqual(url, target)
            // The new window, as the viewer makes it: its first navigation carries the opener's decision.
            let window = Browser(window: Window(), curve: .builtInWeChat, loaderOptions: LoaderOptions())
            window.open(url, kind: kind)
            _ = wait { !window.model.isLoading }
            return window.model.current?.url == target ? window : nil
        }
        XCTAssertTrue(asked.isEmpty, way.name)
        return browser.model.current?.url == target ? browser : nil
    }

    func testEveryWayFromAWebPageAndFromALocalPage() async throws {
        let webTarget = server.url("/page?title=Web")
        // (opener is local, target, expected to open)
        let table: [(Bool, URL, Bool)] = [
            (false, webTarget, true),
            (false, localTarget, false),
            (true, webTarget, true),
            (true, localTarget, true),
        ]
        var cases = 0
        for (local, target, opens) in table {
            let openerURL = try opener(local: local, linkingTo: target)
            for way in ways {
                let label = "\(way.name) from a \(local ? "local" : "web") page to \(target.absoluteString)"
                let shown = follow(way, from: openerURL, to: target)
                XCTAssertEqual(shown != nil, opens, label)
                if opens, let shown {
                    XCTAssertEqual(shown.model.current?.url, target, label)
                }
                cases += 1
            }
        }
        XCTAssertEqual(cases, 16)
    }

    /// Refused from a web page: the status line says why, no window opens, and the link is not marked visited.
    func testARefusedNewWindowSaysWhyAndIsNotVisited() async throws {
        let openerURL = try opener(local: false, linkingTo: localTarget)
        let browser = Browser(window: Window(), curve: .builtInWeChat, loaderOptions: LoaderOptions())
        var asked = 0
        browser.onOpenInNewWindow = { _, _ in asked += 1 }
        browser.open(openerURL, kind: .typed)
        XCTAssertTrue(wait { !browser.model.isLoading })
        browser.page.openInNewWindow(localTarget)
        XCTAssertEqual(asked, 0)
        XCTAssertEqual(browser.chrome.statusText, "Blocked a link to a local file (\(localTarget.path)): web pages "
            + "may only open web addresses.")
        XCTAssertFalse(browser.visited.contains(localTarget), "a refused link was not visited")
        browser.followLink(localTarget)
        XCTAssertFalse(browser.visited.contains(localTarget), "nor when clicked")
        XCTAssertEqual(browser.model.current?.url, openerURL)
    }

    /// A person may still open the file by hand: dropped, typed, or from the command line or a second launch.
    func testThePersonMayOpenALocalFile() async {
        for kind in [NavigationKind.dropped, .typed, .commandLine] {
            let browser = Browser(window: Window(), curve: .builtInWeChat, loaderOptions: LoaderOptions())
            browser.open(server.url("/page?title=Web"), kind: .typed)
            XCTAssertTrue(wait { !browser.model.isLoading })
            browser.open(localTarget, kind: kind)
            XCTAssertTrue(wait { !browser.model.isLoading && browser.model.current?.title == "Target" }, "\(kind)")
        }
    }

    /// An address over 2 MB is refused wherever it comes from, with its size, and the page shown stays.
    func testAnAddressOverTwoMegabytesIsRefusedEverywhere() async {
        let long = URL(string: "http://127.0.0.1/" + String(repeating: "a", count: 8_000_100))!
        let browser = Browser(window: Window(), curve: .builtInWeChat, loaderOptions: LoaderOptions())
        browser.open(server.url("/page?title=Here"), kind: .typed)
        XCTAssertTrue(wait { !browser.model.isLoading })
        for kind in [NavigationKind.commandLine, .dropped, .link, .typed] {
            browser.open(long, kind: kind)
            XCTAssertFalse(browser.model.isLoading, "\(kind)")
            XCTAssertEqual(browser.chrome.statusText, "Not opened: the address is 7.6 MB long, and addresses longer "
                + "than 2.0 MB are not opened; no web server accepts one.", "\(kind)")
            XCTAssertEqual(browser.model.current?.title, "Here")
        }
        var asked = 0
        browser.onOpenInNewWindow = { _, _ in asked += 1 }
        browser.page.openInNewWindow(long)
        XCTAssertEqual(asked, 0, "no window for it")
    }
}
