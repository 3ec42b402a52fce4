import XCTest
@testable import GtkProgressCore

final class NavigationModelTests: XCTestCase {
    private func url(_ s: String) -> URL { URL(string: "http://127.0.0.1/\(s)")! }

    /// Navigates and commits at once, as a finished load does; returns the committed navigation.
    @discardableResult
    private func visit(_ model: NavigationModel<String>, _ name: String, kind: NavigationKind = .link) -> PendingNavigation {
        guard case .load(let nav) = model.navigate(to: url(name), kind: kind) else {
            XCTFail("expected a load for \(name)"); fatalError()
        }
        XCTAssertTrue(model.commit(nav, finalURL: nav.url, title: name, page: "page " + name))
        return nav
    }

    private func names(_ model: NavigationModel<String>) -> [String] {
        model.list.entries.map { $0.url.lastPathComponent }
    }

    func testNewNavigationFromTheMiddleDropsForwardEntries() {
        let model = NavigationModel<String>()
        visit(model, "a", kind: .typed); visit(model, "b"); visit(model, "c")
        guard case .showCached(let b) = model.goBack() else { return XCTFail() }
        XCTAssertEqual(b.title, "b")
        XCTAssertTrue(model.canGoForward)
        visit(model, "d")
        XCTAssertEqual(names(model), ["a", "b", "d"])
        XCTAssertFalse(model.canGoForward)
        XCTAssertTrue(model.canGoBack)
    }

    /// The UIWebView analysis (§3.1): A → meta refresh to B → link to C → Back shows B, never A.
    func testMetaRefreshReplacesTheCurrentEntry() {
        let model = NavigationModel<String>()
        visit(model, "a", kind: .typed)
        visit(model, "b", kind: .replace)
        visit(model, "c", kind: .link)
        XCTAssertEqual(names(model), ["b", "c"])
        guard case .showCached(let entry) = model.goBack() else { return XCTFail("Back must use the page cache") }
        XCTAssertEqual(entry.url.lastPathComponent, "b")
        XCTAssertEqual(entry.page, "page b")
        XCTAssertFalse(model.canGoBack, "A must not be reachable")
    }

    func testRedirectCommitsTheFinalURLOnly() {
        let model = NavigationModel<String>()
        guard case .load(let nav) = model.navigate(to: url("start"), kind: .typed) else { return XCTFail() }
        model.commit(nav, finalURL: url("final"), title: nil, page: "x")
        XCTAssertEqual(names(model), ["final"])
    }

    func testReplaceAtTheFirstEntry() {
        let model = NavigationModel<String>()
        visit(model, "b", kind: .replace)
        XCTAssertEqual(names(model), ["b"])
        visit(model, "c", kind: .replace)
        XCTAssertEqual(names(model), ["c"])
        XCTAssertFalse(model.canGoBack)
    }

    func testHistoryCapDropsTheOldest() {
        let model = NavigationModel<String>(capacity: 5)
        for i in 0..<8 { visit(model, "p\(i)") }
        XCTAssertEqual(names(model), ["p3", "p4", "p5", "p6", "p7"])
        XCTAssertEqual(model.list.currentIndex, 4)
    }

    func testBackAndForwardRestoreScrollWithoutALoad() {
        let model = NavigationModel<String>()
        visit(model, "a"); model.saveScroll(420)
        visit(model, "b"); model.saveScroll(10)
        guard case .showCached(let a) = model.goBack() else { return XCTFail() }
        XCTAssertEqual(a.scrollOffset, 420)
        XCTAssertFalse(model.isLoading)
        guard case .showCached(let b) = model.goForward() else { return XCTFail() }
        XCTAssertEqual(b.scrollOffset, 10)
        if case .none = model.goForward() {} else { XCTFail("nothing forward of the last entry") }
    }

    func testReloadGoesToTheNetworkAndReplaces() {
        let model = NavigationModel<String>()
        visit(model, "a"); visit(model, "b")
        guard case .load(let nav) = model.reload() else { return XCTFail("reload must load") }
        XCTAssertEqual(nav.url, url("b"))
        XCTAssertEqual(nav.kind, .reload)
        model.commit(nav, finalURL: nav.url, title: "b2", page: "new b")
        XCTAssertEqual(names(model), ["a", "b"])
        XCTAssertEqual(model.current?.page, "new b")
    }

    func testStopKeepsTheEntryShownBefore() {
        let model = NavigationModel<String>()
        visit(model, "a")
        guard case .load(let nav) = model.navigate(to: url("slow"), kind: .link) else { return XCTFail() }
        XCTAssertTrue(model.isLoading)
        model.cancel()
        XCTAssertFalse(model.isLoading)
        XCTAssertFalse(model.commit(nav, finalURL: nav.url, title: nil, page: "late"), "a cancelled load is stale")
        XCTAssertEqual(names(model), ["a"])
        XCTAssertEqual(model.current?.page, "page a")
    }

    func testANewNavigationMakesTheOldOneStale() {
        let model = NavigationModel<String>()
        guard case .load(let first) = model.navigate(to: url("one"), kind: .typed),
              case .load(let second) = model.navigate(to: url("two"), kind: .typed) else { return XCTFail() }
        XCTAssertFalse(model.isCurrent(first.id))
        XCTAssertFalse(model.commit(first, finalURL: first.url, title: nil, page: "1"))
        XCTAssertTrue(model.commit(second, finalURL: second.url, title: nil, page: "2"))
        XCTAssertEqual(names(model), ["two"])
    }

    func testErrorPageKeepsTheFailedURLForReloadAndBackReturns() {
        let model = NavigationModel<String>()
        visit(model, "a")
        guard case .load(let nav) = model.navigate(to: url("down"), kind: .link) else { return XCTFail() }
        model.commit(nav, finalURL: nav.url, title: "Problem loading page", page: "error", isError: true)
        XCTAssertEqual(model.current?.isError, true)
        guard case .load(let retry) = model.reload() else { return XCTFail() }
        XCTAssertEqual(retry.url, url("down"))
        model.cancel()
        guard case .showCached(let a) = model.goBack() else { return XCTFail() }
        XCTAssertEqual(a.url, url("a"))
    }

    func testHistoryEntryWithoutCacheLoadsAndLandsAtItsIndex() {
        let model = NavigationModel<String>()
        for name in ["a", "b", "c"] { visit(model, name) }
        model.trimCache(keeping: 1)
        XCTAssertNil(model.list.entries[0].page)
        XCTAssertNotNil(model.list.entries[1].page)
        _ = model.goBack()
        guard case .load(let nav) = model.goBack() else { return XCTFail("no cache: load") }
        XCTAssertEqual(nav.kind, .history(index: 0))
        model.commit(nav, finalURL: nav.url, title: nil, page: "a")
        XCTAssertEqual(model.list.currentIndex, 0)
        XCTAssertEqual(model.list.entries.count, 3)
    }

    // MARK: Places in a page

    /// WHATWG HTML "navigate to a fragment": a jump within the page shown is an entry of its own, with no
    /// request; Back returns to where the reader was on the same page.
    func testFragmentLinkIsAnEntryOfItsOwnAndBackReturnsToThePlaceLeft() {
        let model = NavigationModel<String>()
        visit(model, "doc", kind: .typed)
        model.saveScroll(300)
        guard case .sameDocument(let jump, let scroll) = model.navigate(to: URL(string: "http://127.0.0.1/doc#intro")!,
                                                                         kind: .link) else {
            return XCTFail("a fragment of the page shown is a same-document navigation")
        }
        XCTAssertEqual(scroll, .fragment("intro"))
        XCTAssertEqual(jump.url.absoluteString, "http://127.0.0.1/doc#intro", "the address shows the fragment")
        XCTAssertEqual(jump.page, "page doc", "the same document")
        XCTAssertFalse(model.isLoading, "no request")
        XCTAssertEqual(model.list.entries.count, 2)
        XCTAssertEqual(model.current?.url.fragment, "intro")
        model.saveScroll(900)

        guard case .sameDocument(let back, .offset(let offset)) = model.goBack() else {
            return XCTFail("Back within the page only scrolls")
        }
        XCTAssertEqual(back.url, url("doc"))
        XCTAssertEqual(offset, 300, "where the reader was before the jump")
        guard case .sameDocument(_, .offset(let forward)) = model.goForward() else { return XCTFail() }
        XCTAssertEqual(forward, 900)
    }

    func testFragmentOfTheAddressShownReplacesAndOtherPagesLoad() {
        let model = NavigationModel<String>()
        visit(model, "doc", kind: .typed)
        let intro = URL(string: "http://127.0.0.1/doc#intro")!
        _ = model.navigate(to: intro, kind: .link)
        guard case .sameDocument(_, .fragment("intro")) = model.navigate(to: intro, kind: .link) else { return XCTFail() }
        XCTAssertEqual(model.list.entries.count, 2, "the same address again replaces its entry")
        // Another document, with or without a fragment, loads.
        guard case .load = model.navigate(to: URL(string: "http://127.0.0.1/other#intro")!, kind: .link) else {
            return XCTFail()
        }
        model.cancel()
        // The same document without a fragment is a load too (a link to the page itself reloads it).
        guard case .load = model.navigate(to: url("doc"), kind: .link) else { return XCTFail() }
        model.cancel()
        // Reload of a fragment entry goes to the network.
        guard case .load(let reload) = model.reload() else { return XCTFail() }
        XCTAssertEqual(reload.url, intro)
    }

    func testFragmentJumpAbandonsALoadInFlight() {
        let model = NavigationModel<String>()
        visit(model, "doc", kind: .typed)
        guard case .load(let slow) = model.navigate(to: url("slow"), kind: .link) else { return XCTFail() }
        guard case .sameDocument = model.navigate(to: URL(string: "http://127.0.0.1/doc#end")!, kind: .link) else {
            return XCTFail()
        }
        XCTAssertFalse(model.isLoading)
        XCTAssertFalse(model.commit(slow, finalURL: slow.url, title: nil, page: "late"), "the load was abandoned")
    }

    func testErrorPageAndPageInFlightHaveNoPlacesToJumpTo() {
        let model = NavigationModel<String>()
        guard case .load(let nav) = model.navigate(to: url("down"), kind: .typed) else { return XCTFail() }
        guard case .load = model.navigate(to: URL(string: "http://127.0.0.1/down#x")!, kind: .link) else {
            return XCTFail("nothing is shown yet: load")
        }
        XCTAssertFalse(model.commit(nav, finalURL: nav.url, title: nil, page: "e"))
        guard case .load(let again) = model.navigate(to: url("down"), kind: .typed) else { return XCTFail() }
        model.commit(again, finalURL: again.url, title: nil, page: "error", isError: true)
        guard case .load = model.navigate(to: URL(string: "http://127.0.0.1/down#x")!, kind: .link) else {
            return XCTFail("an error page is not the document: load")
        }
    }

    /// WHATWG Fetch: a redirect without a fragment keeps the one asked for.
    func testRedirectKeepsTheRequestedFragment() {
        let model = NavigationModel<String>()
        guard case .load(let nav) = model.navigate(to: URL(string: "http://127.0.0.1/old#part-2")!, kind: .typed) else {
            return XCTFail()
        }
        model.commit(nav, finalURL: url("new"), title: nil, page: "x")
        XCTAssertEqual(model.current?.url.absoluteString, "http://127.0.0.1/new#part-2")
        guard case .load(let other) = model.navigate(to: URL(string: "http://127.0.0.1/a#one")!, kind: .typed) else {
            return XCTFail()
        }
        model.commit(other, finalURL: URL(string: "http://127.0.0.1/b#two")!, title: nil, page: "y")
        XCTAssertEqual(model.current?.url.fragment, "two", "the redirect's own fragment wins")
    }

    /// An entry loaded again (no cache, or Reload) keeps its place, and its places in the page share the new page.
    func testReloadedDocumentIsSharedByItsPlaces() {
        let model = NavigationModel<String>()
        visit(model, "doc", kind: .typed)
        _ = model.navigate(to: URL(string: "http://127.0.0.1/doc#a")!, kind: .link)
        model.saveScroll(500)
        guard case .load(let nav) = model.reload() else { return XCTFail() }
        model.commit(nav, finalURL: url("doc"), title: "doc", page: "fresh")
        XCTAssertEqual(model.current?.scrollOffset, 500)
        XCTAssertEqual(model.list.entries.map(\.page), ["fresh", "fresh"])
        guard case .sameDocument = model.goBack() else { return XCTFail("still one document") }
    }

    // MARK: Restoring

    func testRestoreLoadsTheCurrentEntryInItsPlaceAndKeepsTheOthersUncached() {
        let model = NavigationModel<String>()
        let saved = [HistoryEntry<String>(url: url("a"), title: "A", scrollOffset: 10, documentID: 1),
                     HistoryEntry<String>(url: url("b"), title: "B", scrollOffset: 20, documentID: 2),
                     HistoryEntry<String>(url: URL(string: "http://127.0.0.1/b#x")!, title: "B", scrollOffset: 640,
                                          documentID: 2),
                     HistoryEntry<String>(url: url("c"), title: "C", scrollOffset: 30, documentID: 3)]
        guard case .load(let nav) = model.restore(saved, currentIndex: 2) else { return XCTFail("the current page loads") }
        XCTAssertEqual(nav.kind, .history(index: 2))
        XCTAssertEqual(nav.url.fragment, "x")
        XCTAssertTrue(model.canGoBack && model.canGoForward)
        XCTAssertTrue(model.list.entries.allSatisfy { $0.page == nil }, "nothing stale is cached")
        model.commit(nav, finalURL: url("b"), title: "B", page: "b now")
        XCTAssertEqual(model.list.currentIndex, 2)
        XCTAssertEqual(model.current?.url.absoluteString, "http://127.0.0.1/b#x")
        guard case .sameDocument(let top, .offset(let offset)) = model.goBack() else {
            return XCTFail("the page's other place shares the page loaded")
        }
        XCTAssertEqual(top.url, url("b"))
        XCTAssertEqual(offset, 20)
        guard case .load(let a) = model.goBack() else { return XCTFail("other pages load when visited") }
        XCTAssertEqual(a.kind, .history(index: 0))
        // New documents never share a number with restored ones.
        model.cancel()
        visit(model, "d")
        XCTAssertEqual(Set(model.list.entries.map(\.documentID)).count, 3)
    }

    func testRestoreClampsAndEmptyRestoresNothing() {
        let model = NavigationModel<String>(capacity: 3)
        let saved = (0..<6).map { HistoryEntry<String>(url: url("p\($0)"), documentID: $0 + 1) }
        guard case .load(let nav) = model.restore(saved, currentIndex: 99) else { return XCTFail() }
        XCTAssertEqual(names(model), ["p3", "p4", "p5"])
        XCTAssertEqual(nav.url, url("p5"))
        if case .none = NavigationModel<String>().restore([], currentIndex: 0) {} else { XCTFail() }
    }

    /// 30 quick Backs from entry 1000, most of whose pages have left the page cache: each press moves one entry
    /// further even while the entry before is still loading, so they end on entry 970.
    func testQuickBackPressesEachMoveOneEntryWhileLoading() {
        let model = NavigationModel<String>(capacity: 2000)
        for i in 1...1000 { visit(model, "p\(i)") }
        model.trimCache(keeping: 10)
        var last: NavigationDecision<String> = .none
        for press in 1...30 {
            XCTAssertTrue(model.canGoBack, "press \(press)")
            last = model.goBack()
            if case .none = last { return XCTFail("press \(press) was lost") }
        }
        guard case .load(let nav) = last else { return XCTFail("entry 970 is not cached: it loads") }
        XCTAssertEqual(nav.kind, .history(index: 969))
        XCTAssertEqual(nav.url, url("p970"))
        XCTAssertEqual(model.list.currentIndex, 989, "the last cached entry shown stays current until the load ends")
        model.commit(nav, finalURL: nav.url, title: nil, page: "p970 again")
        XCTAssertEqual(model.list.currentIndex, 969)
        XCTAssertEqual(model.current?.url, url("p970"))
    }

    func testForwardWhileABackLoadIsInFlight() {
        let model = NavigationModel<String>()
        for name in ["a", "b", "c", "d"] { visit(model, name) }
        model.trimCache(keeping: 0)
        guard case .load(let toC) = model.goBack(), case .load(let toB) = model.goBack() else {
            return XCTFail("uncached entries load")
        }
        XCTAssertEqual(toC.kind, .history(index: 2))
        XCTAssertEqual(toB.kind, .history(index: 1))
        XCTAssertFalse(model.isCurrent(toC.id), "the second press replaced the first load")
        guard case .load(let backToC) = model.goForward() else { return XCTFail() }
        XCTAssertEqual(backToC.kind, .history(index: 2), "Forward counts from the entry being loaded")
        guard case .showCached(let d) = model.goForward() else { return XCTFail("the current entry is shown at once") }
        XCTAssertEqual(d.url, url("d"))
        XCTAssertFalse(model.isLoading, "going back to the page shown ends the load")
        XCTAssertEqual(model.list.currentIndex, 3)
    }

    func testBackIsInsensitiveWhenTheLoadInFlightGoesToTheFirstEntry() {
        let model = NavigationModel<String>()
        for name in ["a", "b"] { visit(model, name) }
        model.trimCache(keeping: 0)
        guard case .load = model.goBack() else { return XCTFail() }
        XCTAssertFalse(model.canGoBack)
        XCTAssertTrue(model.canGoForward)
        if case .none = model.goBack() {} else { XCTFail("nothing before the first entry") }
        XCTAssertTrue(model.isLoading, "a Back with nowhere to go leaves the load alone")
    }

    // MARK: Automatic refreshes

    func testRefreshesComeAtMostOncePerIntervalAndAChainStops() {
        let model = NavigationModel<String>()
        visit(model, "loop", kind: .typed)
        var now = 100.0
        XCTAssertEqual(model.refreshes.decide(requested: 0, now: now), .after(0), "the first refresh is not held back")
        for run in 1...model.refreshes.limit {
            guard case .after(let wait) = model.refreshes.decide(requested: 0, now: now) else {
                return XCTFail("refresh \(run) stopped early")
            }
            if run > 1 { XCTAssertEqual(wait, 0.99, accuracy: 1e-9, "at most one refresh a second") }
            now += wait
            guard case .load(let nav) = model.refresh(to: url("loop"), requestedDelay: 0, now: now) else {
                return XCTFail()
            }
            XCTAssertEqual(nav.kind, .replace)
            now += 0.01
            model.commit(nav, finalURL: nav.url, title: nil, page: "loop \(run)")
        }
        guard case .stopped(let message) = model.refreshes.decide(requested: 0, now: now) else {
            return XCTFail("a chain of \(model.refreshes.limit) quick refreshes stops")
        }
        XCTAssertTrue(message.contains("20 times in a row"), message)
        XCTAssertEqual(names(model), ["loop"], "the page stays, one entry")
        XCTAssertEqual(model.refreshes.decide(requested: 30, now: now), .after(30),
                       "a page on a slow timer keeps refreshing")
        _ = model.reload()
        XCTAssertEqual(model.refreshes.chain, 0, "the person reloading starts a new chain")
        XCTAssertEqual(model.refreshes.decide(requested: 0, now: now), .after(0))
    }

    func testAnyNavigationByThePersonStartsANewChain() {
        let model = NavigationModel<String>()
        visit(model, "a", kind: .typed)
        visit(model, "b", kind: .link)
        for _ in 0..<3 {
            guard case .load(let nav) = model.refresh(to: url("b"), requestedDelay: 0, now: 0) else { return XCTFail() }
            model.commit(nav, finalURL: nav.url, title: nil, page: "b")
        }
        XCTAssertEqual(model.refreshes.chain, 3)
        _ = model.goBack()
        XCTAssertEqual(model.refreshes.chain, 0, "Back")
        _ = model.refresh(to: url("a"), requestedDelay: 1, now: 5)
        XCTAssertEqual(model.refreshes.chain, 1)
        _ = model.refresh(to: url("a"), requestedDelay: 10, now: 16)
        XCTAssertEqual(model.refreshes.chain, 0, "a slow refresh ends the chain of quick ones")
        _ = model.refresh(to: url("a"), requestedDelay: 0, now: 17)
        _ = model.navigate(to: url("c"), kind: .link)
        XCTAssertEqual(model.refreshes.chain, 0, "a link")
    }

    func testLinkPolicyRefusesNonWebSchemesFromPages() {
        let model = NavigationModel<String>()
        visit(model, "a")
        for bad in ["javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "gopher://x/", "mailto:a@b"] {
            guard case .refused(let message) = model.navigate(to: URL(string: bad)!, kind: .link) else {
                return XCTFail("\(bad) must be refused")
            }
            XCTAssertFalse(message.isEmpty)
            XCTAssertFalse(model.isLoading)
        }
        XCTAssertEqual(names(model), ["a"])
        if case .load(let nav) = model.navigate(to: URL(string: "file:///tmp/x.html")!, kind: .dropped) {
            model.commit(nav, finalURL: nav.url, title: nil, page: "local")
        } else {
            XCTFail("the user may open files")
        }
        if case .load = model.navigate(to: URL(string: "file:///tmp/y.html")!, kind: .link) {} else {
            XCTFail("a local page may link to a local file")
        }
    }
}

final class AddressInputTests: XCTestCase {
    private func parse(_ s: String) -> String? { try? AddressInput.url(from: s).get().absoluteString }

    func testBareHostBecomesHTTPS() {
        XCTAssertEqual(parse("example.org"), "https://example.org/")
        XCTAssertEqual(parse("  example.org/a?b=1 "), "https://example.org/a?b=1")
        XCTAssertEqual(parse("example.org:8443/x"), "https://example.org:8443/x")
        XCTAssertEqual(parse("10.example.org"), "https://10.example.org/")
    }

    /// Development servers on this machine speak plain http: `localhost`, `*.localhost` and IP literals.
    func testLocalHostsAndAddressesBecomeHTTP() {
        XCTAssertEqual(parse("localhost"), "http://localhost/")
        XCTAssertEqual(parse("localhost:8080/x"), "http://localhost:8080/x")
        XCTAssertEqual(parse("LocalHost:8000"), "http://LocalHost:8000/")
        XCTAssertEqual(parse("app.localhost:3000/a?b=1"), "http://app.localhost:3000/a?b=1")
        XCTAssertEqual(parse("127.0.0.1:8000/x"), "http://127.0.0.1:8000/x")
        XCTAssertEqual(parse("127.0.0.1"), "http://127.0.0.1/")
        XCTAssertEqual(parse("192.168.1.20/admin"), "http://192.168.1.20/admin")
        XCTAssertEqual(parse("[::1]:8000/x"), "http://[::1]:8000/x")
        XCTAssertEqual(parse("[::1]"), "http://[::1]/")
        XCTAssertEqual(parse("[fe80::1]:80"), "http://[fe80::1]:80/")
        // Not addresses: out-of-range numbers and look-alike names stay on https.
        XCTAssertEqual(parse("300.1.1.1"), "https://300.1.1.1/")
        XCTAssertEqual(parse("localhost.example.org"), "https://localhost.example.org/")
        XCTAssertEqual(parse("mylocalhost"), nil)
        // An explicit scheme is kept.
        XCTAssertEqual(parse("https://localhost:8443/"), "https://localhost:8443/")
    }

    func testSchemesAndPaths() {
        XCTAssertEqual(parse("http://127.0.0.1:9/a"), "http://127.0.0.1:9/a")
        XCTAssertEqual(parse("/tmp/a b.html"), "file:///tmp/a%20b.html")
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        XCTAssertEqual(try AddressInput.url(from: "~/x.html").get().path, home + "/x.html")
    }

    func testGarbageGetsAMessage() {
        for text in ["hello world", "just-words", "ftp://x.org/", "", "   "] {
            guard case .failure(let failure) = AddressInput.url(from: text) else { return XCTFail(text) }
            XCTAssertFalse(failure.description.isEmpty)
        }
    }
}

/// Once the first part of a page is on screen it is the current entry; before that, the page shown before is.
final class FirstPartCommitTests: XCTestCase {
    private let a = URL(string: "https://example.org/a")!
    private let b = URL(string: "https://example.org/b")!
    private let c = URL(string: "https://example.org/c")!

    private func loaded(_ model: NavigationModel<String>, _ url: URL) {
        guard case .load(let navigation) = model.navigate(to: url, kind: .link) else { return XCTFail() }
        model.commit(navigation, finalURL: url, title: url.lastPathComponent, page: url.lastPathComponent)
    }

    func testTheFirstPartMakesTheEntryAndTheWholePageCompletesIt() {
        let model = NavigationModel<String>()
        loaded(model, a)
        guard case .load(let toB) = model.navigate(to: b, kind: .link) else { return XCTFail() }
        XCTAssertEqual(model.current?.url, a, "nothing of b on screen yet")
        XCTAssertTrue(model.commitFirstPart(toB, finalURL: b, title: "B, part", page: "b part"))
        XCTAssertFalse(model.commitFirstPart(toB, finalURL: b, title: "again", page: "again"), "once")
        XCTAssertEqual(model.current?.url, b)
        XCTAssertEqual(model.current?.title, "B, part")
        XCTAssertTrue(model.isLoading, "the rest still arrives")
        XCTAssertTrue(model.canGoBack)
        model.updateFirstPart(toB, title: "B, more", page: "b more")
        XCTAssertEqual(model.current?.page, "b more")
        XCTAssertTrue(model.commit(toB, finalURL: b, title: "B", page: "b"))
        XCTAssertEqual(model.list.entries.map(\.url), [a, b], "one entry for b, not two")
        XCTAssertEqual(model.current?.page, "b")
        XCTAssertFalse(model.isLoading)
    }

    /// Stop after the first part: the entry stays with what arrived; Reload loads b again.
    func testStopKeepsWhatArrived() {
        let model = NavigationModel<String>()
        loaded(model, a)
        guard case .load(let toB) = model.navigate(to: b, kind: .link) else { return XCTFail() }
        model.commitFirstPart(toB, finalURL: b, title: "B", page: "b part")
        model.cancel()
        XCTAssertEqual(model.current?.url, b)
        XCTAssertEqual(model.current?.page, "b part")
        guard case .load(let again) = model.reload() else { return XCTFail() }
        XCTAssertEqual(again.url, b)
    }

    /// From a, b's first part shows, then c is asked for and never answers; Stop: b is what the reader sees and
    /// what the address, title and Reload speak of.
    func testANewNavigationLeavesTheFirstPartAsTheCurrentEntry() {
        let model = NavigationModel<String>()
        loaded(model, a)
        guard case .load(let toB) = model.navigate(to: b, kind: .link) else { return XCTFail() }
        model.commitFirstPart(toB, finalURL: b, title: "B", page: "b part")
        guard case .load(let toC) = model.navigate(to: c, kind: .typed) else { return XCTFail() }
        XCTAssertFalse(model.hasCommittedFirstPart(of: toB))
        XCTAssertFalse(model.commit(toB, finalURL: b, title: "late", page: "late"), "b's load is over")
        model.cancel()
        XCTAssertFalse(model.isCurrent(toC.id))
        XCTAssertEqual(model.current?.url, b)
        XCTAssertEqual(model.current?.title, "B")
        guard case .load(let again) = model.reload() else { return XCTFail() }
        XCTAssertEqual(again.url, b)
        XCTAssertEqual(model.list.entries.map(\.url), [a, b])
    }
}
