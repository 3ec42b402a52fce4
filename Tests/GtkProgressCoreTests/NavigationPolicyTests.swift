import Foundation
import GtkProgressCore
import XCTest

/// The table in `NavigationPolicy`'s documentation, row by row, and the model applying it.
final class NavigationPolicyTests: XCTestCase {
    private let web = URL(string: "https://example.org/a.html")!
    private let local = URL(fileURLWithPath: "/usr/share/gtkprogress/welcome.html")
    private let targets = ["https://example.org/b", "http://127.0.0.1:8000/x", "file:///usr/share/doc/a.html",
                           "javascript:alert(1)", "data:text/html,hi", "gopher://x/", "mailto:a@b", "http:///nohost"]

    /// Which targets a source may reach, in `targets` order.
    private func allowed(_ source: NavigationPolicy.Source) -> [Bool] {
        targets.map { NavigationPolicy.refusal(for: URL(string: $0)!, source: source) == nil }
    }

    func testTheTable() {
        XCTAssertEqual(allowed(.user), [true, true, true, false, false, false, false, false])
        XCTAssertEqual(allowed(.localPage), [true, true, true, false, false, false, false, false])
        XCTAssertEqual(allowed(.webPage), [true, true, false, false, false, false, false, false])
        XCTAssertEqual(NavigationPolicy.redirectSchemes, ["http", "https"], "a redirect never reaches file:")
    }

    func testSourceOfEachKind() {
        for kind in [NavigationKind.typed, .dropped, .commandLine, .reload, .history(index: 0)] {
            XCTAssertEqual(NavigationPolicy.source(of: kind, on: web), .user, "\(kind)")
            XCTAssertEqual(NavigationPolicy.source(of: kind, on: local), .user, "\(kind)")
        }
        for kind in [NavigationKind.link, .replace] {
            XCTAssertEqual(NavigationPolicy.source(of: kind, on: web), .webPage, "\(kind)")
            XCTAssertEqual(NavigationPolicy.source(of: kind, on: local), .localPage, "\(kind)")
            XCTAssertEqual(NavigationPolicy.source(of: kind, on: nil), .webPage, "no page shown: trust nothing")
        }
    }

    /// A link opened in a new window carries its opener's source; the new window's empty page is never asked.
    func testANewWindowMayReachWhatItsOpenerMay() {
        XCTAssertEqual(NavigationPolicy.source(of: .openedFrom(.webPage), on: nil), .webPage)
        XCTAssertEqual(NavigationPolicy.source(of: .openedFrom(.localPage), on: nil), .localPage)
        XCTAssertEqual(NavigationPolicy.source(of: .openedFrom(.webPage), on: local), .webPage)
        XCTAssertEqual(NavigationPolicy.source(of: .openedFrom(.user), on: nil), .webPage, "not a person's choice")
        let passwd = URL(string: "file:///etc/passwd")!
        let fromWeb = NavigationModel<String>()
        guard case .load(let first) = fromWeb.navigate(to: web, kind: .typed) else { return XCTFail() }
        fromWeb.commit(first, finalURL: web, title: nil, page: "web")
        guard case .failure(let refusal) = fromWeb.linkInNewWindow(passwd) else {
            return XCTFail("a web page may not open a file in a new window")
        }
        XCTAssertEqual(refusal.message, NavigationPolicy.refusal(for: passwd, source: .webPage))
        guard case .success(let kind) = fromWeb.linkInNewWindow(URL(string: "https://example.org/b")!) else {
            return XCTFail()
        }
        XCTAssertEqual(kind, .openedFrom(.webPage))
        guard case .refused = NavigationModel<String>().navigate(to: passwd, kind: kind) else {
            return XCTFail("and the new window refuses it too")
        }
        let fromLocal = NavigationModel<String>()
        guard case .load(let second) = fromLocal.navigate(to: local, kind: .commandLine) else { return XCTFail() }
        fromLocal.commit(second, finalURL: local, title: nil, page: "welcome")
        guard case .success(let localKind) = fromLocal.linkInNewWindow(passwd),
              case .load = NavigationModel<String>().navigate(to: passwd, kind: localKind) else {
            return XCTFail("a local page may")
        }
    }

    /// Addresses over 2 MiB are refused for every source, and a history entry or Reload of one (a saved session)
    /// is refused as well, before anything in flight is touched.
    func testAddressesOverTwoMegabytesAreRefused() {
        let fits = URL(string: "https://example.org/" + String(repeating: "a", count: NavigationPolicy.longestAddress - 20))!
        let long = URL(string: "https://example.org/" + String(repeating: "a", count: NavigationPolicy.longestAddress))!
        for source in [NavigationPolicy.Source.user, .localPage, .webPage] {
            XCTAssertNil(NavigationPolicy.refusal(for: fits, source: source))
            XCTAssertEqual(NavigationPolicy.refusal(for: long, source: source), "Not opened: the address is 2.0 MB "
                + "long, and addresses longer than 2.0 MB are not opened; no web server accepts one.")
        }
    }

    func testRefusalsSayWhy() {
        let file = NavigationPolicy.refusal(for: URL(string: "file:///etc/passwd")!, source: .webPage)
        XCTAssertEqual(file, "Blocked a link to a local file (/etc/passwd): web pages may only open web addresses.")
        let script = NavigationPolicy.refusal(for: URL(string: "javascript:void(0)")!, source: .localPage)
        XCTAssertEqual(script, "Blocked a javascript: link: scripts are not run.")
    }

    /// The model is where the table is applied: the welcome page (a local file) may open its bundled pages; a web
    /// page may not, by link or by refresh.
    func testModelAppliesThePolicyToTheCurrentPage() {
        let model = NavigationModel<String>()
        guard case .load(let first) = model.navigate(to: local, kind: .commandLine) else { return XCTFail() }
        model.commit(first, finalURL: local, title: nil, page: "welcome")
        let bundled = local.deletingLastPathComponent().appendingPathComponent("pages/keys.html")
        guard case .load(let link) = model.navigate(to: bundled, kind: .link) else {
            return XCTFail("a local page opens a local page")
        }
        model.commit(link, finalURL: bundled, title: nil, page: "keys")
        guard case .load(let out) = model.navigate(to: web, kind: .link) else { return XCTFail("and the web") }
        model.commit(out, finalURL: web, title: nil, page: "web")
        for kind in [NavigationKind.link, .replace] {
            guard case .refused = model.navigate(to: bundled, kind: kind) else {
                return XCTFail("a web page may not open a file by \(kind)")
            }
        }
        XCTAssertFalse(model.isLoading)
        guard case .load = model.navigate(to: bundled, kind: .typed) else { return XCTFail("the user may") }
    }
}

/// A drop or command line of hundreds of addresses opens a window for the first twenty and says so.
final class ManyAddressesTests: XCTestCase {
    func testTheFirstTwentyOpenAndTheRestAreCounted() {
        let many = ManyAddresses(Array(1...600))
        XCTAssertEqual(many.opened, Array(1...20))
        XCTAssertEqual(many.notice, "Opened the first 20 of 600 addresses, a window each; the other 580 were not opened.")
        XCTAssertEqual(ManyAddresses(Array(1...21)).notice,
                       "Opened the first 20 of 21 addresses, a window each; the other one was not opened.")
        XCTAssertNil(ManyAddresses(Array(1...20)).notice)
        XCTAssertEqual(ManyAddresses(Array(1...20)).opened.count, 20)
        XCTAssertNil(ManyAddresses([Int]()).notice)
    }
}
