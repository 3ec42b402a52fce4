import Foundation
@testable import GtkProgressCore
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
        let fits = URL(string: "https://example.org/" + String(repeating: "a", count: AddressShape.longestAddress - 20))!
        let long = URL(string: "https://example.org/" + String(repeating: "a", count: AddressShape.longestAddress))!
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

/// What the reader sees of an address: no password, and no host that passes for another.
final class HostDisplayTests: XCTestCase {
    private func shown(_ text: String) -> String { AddressInput.displayString(URL(string: text)!) }

    func testThePasswordIsNeverShown() {
        XCTAssertEqual(shown("http://user:secret@example.org/a?b#c"), "http://user@example.org/a?b#c")
        XCTAssertEqual(shown("https://user:pa%20ss@example.org:8443/"), "https://user@example.org:8443/")
        XCTAssertEqual(shown("http://:secret@example.org/"), "http://@example.org/")
        XCTAssertEqual(shown("http://user@example.org/"), "http://user@example.org/")
        XCTAssertFalse(shown("http://a:b:c@example.org/x").contains("b"))
    }

    /// Chrome's and Firefox's rule: one script per label (or Latin with CJK) in Unicode; mixed scripts as punycode.
    func testMixedScriptHostsAreShownAsPunycode() {
        XCTAssertEqual(shown("http://аpple.com/"), "http://xn--pple-43d.com/", "Cyrillic а among Latin letters")
        XCTAssertEqual(shown("http://%D0%B0pple.com/"), "http://xn--pple-43d.com/", "the same, percent-escaped")
        XCTAssertEqual(shown("http://xn--pple-43d.com/"), "http://xn--pple-43d.com/")
        XCTAssertEqual(shown("http://bücher.de/"), "http://bücher.de/")
        XCTAssertEqual(shown("http://xn--bcher-kva.de/"), "http://bücher.de/")
        XCTAssertEqual(shown("http://пример.рф/"), "http://пример.рф/", "all Cyrillic")
        XCTAssertEqual(shown("http://日本語.jp/"), "http://日本語.jp/")
        XCTAssertEqual(shown("http://xn--r8jz45g.jp/"), "http://例え.jp/", "Han with Hiragana")
        XCTAssertEqual(shown("http://127.0.0.1:8000/p"), "http://127.0.0.1:8000/p")
        XCTAssertEqual(shown("http://[::1]:8000/p"), "http://[::1]:8000/p")
        XCTAssertEqual(shown("http://example.org/caf%C3%A9"), "http://example.org/café")
    }

    /// Cut for the status line, a long address still shows no password, and a file URL stays as it is.
    func testACutAddressShowsNoPasswordEither() {
        let long = URL(string: "http://user:secret@example.org/" + String(repeating: "a%20", count: 1000))!
        let cut = AddressInput.displayString(long, limit: 200)
        XCTAssertFalse(cut.contains("secret"), cut)
        XCTAssertTrue(cut.hasPrefix("http://user@example.org/a a a"), cut)
        XCTAssertTrue(cut.hasSuffix("…"))
        XCTAssertLessThanOrEqual(cut.count, 201)
        XCTAssertEqual(AddressInput.displayString(URL(string: "http://example.org/short")!, limit: 200),
                       "http://example.org/short")
        XCTAssertEqual(shown("file:///tmp/a%20b.html"), "file:///tmp/a%20b.html")
    }

    /// RFC 3492 §7.1's sample strings, both ways.
    func testPunycodeAgainstTheRFCSamples() {
        let samples = [("他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),
                       ("\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}"
                        + "\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}", "egbpdaj6bu4bxfgehfvwxn"),
                       ("3年B組金八先生", "3B-ww4c5e180e575a65lsy2b"),
                       ("bücher", "bcher-kva")]
        for (unicode, code) in samples {
            XCTAssertEqual(Punycode.decode(code), unicode)
            XCTAssertEqual(Punycode.encode(unicode)?.lowercased(), code.lowercased())
        }
        XCTAssertNil(Punycode.decode("99999999999999999999"), "overflow is no label")
        XCTAssertNil(Punycode.decode("a-!"))
    }
}
