import Foundation
import GtkProgressCore
import XCTest

/// The browser's decisions that need no display: keys, what the chrome shows, when a page still arriving is
/// rendered again.
final class BrowsingTests: XCTestCase {
    func testKeysAndTheirCommands() {
        let everywhere: [(KeyChord, BrowserCommand?)] = [
            (KeyChord("Left", alt: true), .back), (KeyChord("Right", alt: true), .forward),
            (KeyChord("F5"), .reload), (KeyChord("F5", control: true), .reload), (KeyChord("r", control: true), .reload),
            (KeyChord("Escape"), .stopOrRestoreAddress), (KeyChord("l", control: true), .focusAddress),
            (KeyChord("w", control: true), .closeWindow), (KeyChord("q", control: true), .quit),
            (KeyChord("n", control: true), .newWindow), (KeyChord("s", control: true), .save),
            (KeyChord("f", control: true), .find), (KeyChord("F3"), .findNext), (KeyChord("F3", shift: true), .findPrevious),
            (KeyChord("g", control: true), .findNext), (KeyChord("G", control: true, shift: true), .findPrevious),
            (KeyChord("plus", control: true, shift: true), .zoomIn), (KeyChord("equal", control: true), .zoomIn),
            (KeyChord("KP_Add", control: true), .zoomIn), (KeyChord("minus", control: true), .zoomOut),
            (KeyChord("KP_Subtract", control: true), .zoomOut), (KeyChord("0", control: true), .zoomReset),
            (KeyChord("KP_0", control: true), .zoomReset),
            // Keys the focused widget keeps: typing, plain arrows, Alt+F5.
            (KeyChord("r"), nil), (KeyChord("Left"), nil), (KeyChord("F5", alt: true), nil), (KeyChord("l"), nil),
            (KeyChord("0"), nil), (KeyChord("plus"), nil), (KeyChord("f"), nil),
        ]
        for focus in [BrowserCommand.Focus.page, .address, .other] {
            for (chord, command) in everywhere {
                XCTAssertEqual(BrowserCommand.command(for: chord, focus: focus), command, "\(chord) in \(focus)")
            }
        }
    }

    /// Keys a reader uses on the page; in the address entry the same keys edit the text.
    func testPageKeysActOnlyWhenThePageHasTheKeyboard() {
        let page: [(KeyChord, BrowserCommand)] = [
            (KeyChord("Tab"), .nextLink), (KeyChord("ISO_Left_Tab", shift: true), .previousLink),
            (KeyChord("Tab", shift: true), .previousLink),
            (KeyChord("Return"), .activateLink), (KeyChord("KP_Enter"), .activateLink),
            (KeyChord("Return", shift: true), .activateLinkInNewWindow),
            (KeyChord("Return", control: true), .activateLinkInNewWindow),
            (KeyChord("space"), .pageDown), (KeyChord("space", shift: true), .pageUp),
            (KeyChord("Home"), .scrollToTop), (KeyChord("End"), .scrollToBottom),
        ]
        for (chord, command) in page {
            XCTAssertEqual(BrowserCommand.command(for: chord, focus: .page), command, "\(chord)")
            XCTAssertNil(BrowserCommand.command(for: chord, focus: .address), "\(chord) edits the address")
            XCTAssertNil(BrowserCommand.command(for: chord, focus: .other), "\(chord) belongs to the button")
        }
        XCTAssertNil(BrowserCommand.command(for: KeyChord("Tab", control: true), focus: .page))
        XCTAssertNil(BrowserCommand.command(for: KeyChord("Home", control: true), focus: .page))
        XCTAssertNil(BrowserCommand.command(for: KeyChord("space", alt: true), focus: .page))
    }

    func testFindBarKeys() {
        XCTAssertEqual(BrowserCommand.command(for: KeyChord("Return"), focus: .find), .findNext)
        XCTAssertEqual(BrowserCommand.command(for: KeyChord("Return", shift: true), focus: .find), .findPrevious)
        XCTAssertEqual(BrowserCommand.command(for: KeyChord("Escape"), focus: .find), .closeFind)
        XCTAssertEqual(BrowserCommand.command(for: KeyChord("F3"), focus: .find), .findNext)
        XCTAssertEqual(BrowserCommand.command(for: KeyChord("g", control: true), focus: .find), .findNext)
        XCTAssertNil(BrowserCommand.command(for: KeyChord("space"), focus: .find), "typed into the entry")
        XCTAssertNil(BrowserCommand.command(for: KeyChord("Home"), focus: .find))
        XCTAssertEqual(BrowserCommand.command(for: KeyChord("Escape"), focus: .page), .stopOrRestoreAddress)
    }

    func testZoomSteps() {
        var zoom = ZoomLevel.normal
        var seen: [String] = []
        for _ in 0..<3 { zoom = zoom.zoomedIn; seen.append(zoom.description) }
        XCTAssertEqual(seen, ["110%", "120%", "133%"])
        for _ in 0..<20 { zoom = zoom.zoomedIn }
        XCTAssertTrue(zoom.isLargest)
        XCTAssertEqual(zoom.factor, 3)
        for _ in 0..<30 { zoom = zoom.zoomedOut }
        XCTAssertTrue(zoom.isSmallest)
        XCTAssertEqual(zoom.description, "30%")
        XCTAssertEqual(ZoomLevel(factor: 1.19).factor, 1.2, "a saved value lands on the nearest step")
        XCTAssertEqual(ZoomLevel(factor: 40).factor, 3)
        XCTAssertEqual(ZoomLevel(factor: .nan), .normal)
        XCTAssertEqual(ZoomLevel.normal.zoomedOut.description, "90%")
    }

    // MARK: Find in page

    /// Searches `text` in slices of `slice` characters as the view does; returns every match found.
    private func find(_ needle: String, in text: String, slice: Int) -> [Int] {
        guard var scanner = FindScanner(needle) else { return [] }
        let scalars = Array(text.unicodeScalars)
        var found: [Int] = []
        while scanner.position < scalars.count {
            let sliceEnd = min(scanner.position + slice, scalars.count)
            let end = min(sliceEnd + scanner.length - 1, scalars.count)
            let piece = String(String.UnicodeScalarView(scalars[scanner.position..<end]))
            found += scanner.scan(piece[...].unicodeScalars, sliceEnd: sliceEnd)
        }
        return found
    }

    func testFindIgnoresCaseAndFindsMatchesAcrossSlices() {
        let text = "Café and CAFÉ and café; Straße STRASSE straße. ΣΟΦΊΑ σοφία"
        for slice in [1, 2, 3, 5, 7, 64] {
            XCTAssertEqual(find("café", in: text, slice: slice), [0, 9, 18], "slice \(slice)")
            XCTAssertEqual(find("STRAßE", in: text, slice: slice), [24, 39], "ß is not SS, scalar by scalar")
            XCTAssertEqual(find("σοφία", in: text, slice: slice).count, 2)
        }
        XCTAssertEqual(find("aa", in: "aaaaa", slice: 2), [0, 2], "matches do not overlap")
        XCTAssertEqual(find("x", in: "", slice: 4), [])
        XCTAssertNil(FindScanner(""))
        // Offsets count scalars, as GtkTextBuffer does: an emoji is one, a combining accent another.
        XCTAssertEqual(find("b", in: "😀e\u{301}b", slice: 2), [3])
    }

    func testFindResultsCountFromTheAnchorAndWrap() {
        var results = FindResults(length: 3, anchor: 500)
        XCTAssertEqual(results.label, "Searching…")
        XCTAssertFalse(results.append([10, 200]), "no match after the top of the view yet")
        XCTAssertEqual(results.label, "– of 2…")
        XCTAssertTrue(results.append([600, 900]))
        XCTAssertEqual(results.currentRange, 600..<603)
        XCTAssertEqual(results.label, "3 of 4…")
        results.finish()
        XCTAssertEqual(results.label, "3 of 4")
        results.move(forward: true); results.move(forward: true)
        XCTAssertEqual(results.label, "1 of 4", "past the last match, the first")
        results.move(forward: false)
        XCTAssertEqual(results.currentRange, 900..<903)
        XCTAssertEqual(Array(results.matches(startingIn: 150..<700)), [200, 600])
        XCTAssertEqual(Array(results.matches(startingIn: 901..<2000)), [])

        var wraps = FindResults(length: 1, anchor: 1000)
        wraps.append([5, 6])
        XCTAssertNil(wraps.current)
        XCTAssertTrue(wraps.finish())
        XCTAssertEqual(wraps.label, "1 of 2", "nothing below the view: the first match")
        var none = FindResults(length: 1, anchor: 0)
        none.finish()
        XCTAssertEqual(none.label, "No matches")
        none.move(forward: true)
        XCTAssertNil(none.current)
    }

    // MARK: Session

    func testSessionRoundTripsWindowsHistoryScrollAndZoom() throws {
        let model = NavigationModel<String>()
        let a = URL(string: "https://example.org/a")!, b = URL(string: "http://127.0.0.1:8000/b?q=1")!
        guard case .load(let first) = model.navigate(to: a, kind: .typed) else { return XCTFail() }
        model.commit(first, finalURL: a, title: "A “quoted”", page: "a")
        model.saveScroll(120)
        guard case .load(let second) = model.navigate(to: b, kind: .link) else { return XCTFail() }
        model.commit(second, finalURL: b, title: nil, page: "b")
        _ = model.navigate(to: URL(string: "http://127.0.0.1:8000/b?q=1#part")!, kind: .link)
        model.saveScroll(2400.5)
        _ = model.goBack()

        let window = SessionState.Window(model: model, zoom: ZoomLevel(factor: 1.2), width: 800, height: 600,
                                         images: false)
        let state = SessionState(windows: [window, SessionState.Window(entries: [
            .init(url: URL(fileURLWithPath: "/tmp/x y.html"), title: "local", scroll: 0, document: 1)], currentIndex: 0)],
                                 visited: [a, b], zoom: ZoomLevel(factor: 1.5))
        let decoded = try SessionState.decode(state.encoded()).get()
        XCTAssertEqual(decoded, state)
        XCTAssertEqual(decoded.zoom.description, "150%", "the text size chosen last")
        let older = try SessionState.decode(Data(#"{"version": 1, "windows": []}"#.utf8)).get()
        XCTAssertEqual(older.zoom, .normal, "a file without one starts at 100%")
        XCTAssertEqual(decoded.windows[0].currentIndex, 1)
        XCTAssertEqual(decoded.windows[0].entries.map(\.scroll), [120, 0, 2400.5])
        XCTAssertEqual(decoded.windows[0].entries[1].document, decoded.windows[0].entries[2].document)
        XCTAssertEqual(decoded.windows[0].zoom.description, "120%")
        XCTAssertEqual(decoded.windows.map(\.images), [false, true], "images turned off in the first window only")
        XCTAssertTrue(String(decoding: state.encoded(), as: UTF8.self).contains(#""images" : false"#))
        XCTAssertEqual(state.encoded(), decoded.encoded(), "the same state is the same bytes")

        let restored = NavigationModel<String>()
        guard case .load(let nav) = restored.restore(decoded.windows[0].historyEntries(), currentIndex: 1) else {
            return XCTFail()
        }
        XCTAssertEqual(nav.url, b)
        XCTAssertEqual(restored.list.entries.map(\.url), model.list.entries.map(\.url))
    }

    func testAWindowStillLoadingItsFirstPageIsKept() {
        let model = NavigationModel<String>()
        _ = model.navigate(to: URL(string: "https://example.org/slow")!, kind: .commandLine)
        let window = SessionState.Window(model: model)
        XCTAssertEqual(window.entries.map(\.url.absoluteString), ["https://example.org/slow"])
        XCTAssertTrue(SessionState.Window(model: NavigationModel<String>()).entries.isEmpty)
    }

    /// A damaged file gives a message; a sound file with odd parts loses only those parts.
    func testSessionFilesThatAreDamagedOrOdd() throws {
        for (bytes, expected) in [("", "not valid JSON"), ("{\"version\": 1, \"windows\": [", "not valid JSON"),
                                  ("[1, 2]", "not a session"), ("{\"windows\": []}", "not a session"),
                                  ("{\"version\": 1, \"windows\": 3}", "not a session"),
                                  ("{\"version\": 99, \"windows\": []}", "newer version")] {
            guard case .failure(let failure) = SessionState.decode(Data(bytes.utf8)) else { return XCTFail(bytes) }
            XCTAssertTrue(failure.description.contains(expected), "\(bytes): \(failure)")
        }
        let odd = """
            {"version": 1, "visited": ["javascript:alert(1)", "https://example.org/"], "windows": [
              {"current": 2, "zoom": 7, "width": 5, "entries": [
                {"url": "https://example.org/1", "scroll": -5},
                {"url": "javascript:alert(1)", "scroll": 0},
                {"url": "https://example.org/3", "scroll": 12.5, "title": "three"}]},
              {"current": 0, "entries": [{"url": "data:text/html,hi", "scroll": 0}]}
            ]}
            """
        let state = try SessionState.decode(Data(odd.utf8)).get()
        XCTAssertEqual(state.windows.count, 1, "a window with nothing usable is dropped")
        let window = state.windows[0]
        XCTAssertEqual(window.entries.map(\.url.absoluteString), ["https://example.org/1", "https://example.org/3"])
        XCTAssertEqual(window.currentIndex, 1, "still the third page")
        XCTAssertEqual(window.entries.map(\.scroll), [0, 12.5], "a negative position is the top")
        XCTAssertEqual(window.zoom.factor, 3)
        XCTAssertNil(window.width)
        XCTAssertEqual(state.visited.map(\.absoluteString), ["https://example.org/"])
    }

    func testChromeFollowsTheModel() {
        let model = NavigationModel<String>()
        var state = ChromeState(model: model)
        XCTAssertEqual(state.windowTitle, "GtkProgress")
        XCTAssertFalse(state.canGoBack || state.canGoForward || state.isLoading)

        let a = URL(string: "https://example.org/a")!, b = URL(string: "https://example.org/b")!
        guard case .load(let first) = model.navigate(to: a, kind: .typed) else { return XCTFail() }
        state = ChromeState(model: model, partialTitle: "A, arriving")
        XCTAssertTrue(state.isLoading)
        XCTAssertEqual(state.address, a, "the address being loaded")
        XCTAssertEqual(state.windowTitle, "A, arriving", "the title shows as soon as it has arrived")
        model.commit(first, finalURL: a, title: "  ", page: "a")
        state = ChromeState(model: model, partialTitle: "ignored once loaded")
        XCTAssertEqual(state.windowTitle, "example.org", "a blank title falls back to the host")

        guard case .load(let second) = model.navigate(to: b, kind: .link) else { return XCTFail() }
        model.commit(second, finalURL: b, title: "B", page: "b")
        _ = model.goBack()
        state = ChromeState(model: model)
        XCTAssertEqual(state.windowTitle, "example.org")
        XCTAssertFalse(state.canGoBack)
        XCTAssertTrue(state.canGoForward)
        XCTAssertEqual(ChromeState.windowTitle(url: URL(fileURLWithPath: "/tmp/notes.txt"), title: nil), "notes.txt")
    }

    /// A page arriving in 1 KB pieces: the renders together parse less than twice the final page, the first
    /// comes early, and nothing is rendered twice at the same size.
    func testProgressiveRendersCostLessThanTwoFinalParses() {
        for total in [10_000, 1_000_000, 6_000_000] {
            var schedule = ProgressiveSchedule()
            var renders: [Int] = []
            var arrived = 0
            var now = 0.0
            while arrived < total {
                arrived = min(total, arrived + 1024)
                now += 0.01
                if schedule.isDue(arrived: arrived, now: now) {
                    schedule.rendered(arrived, at: now)
                    renders.append(arrived)
                }
            }
            XCTAssertEqual(renders.first, 1024, "the first piece is shown at once")
            XCTAssertEqual(renders, renders.sorted())
            XCTAssertEqual(Set(renders).count, renders.count)
            let large = renders.filter { $0 > ProgressiveSchedule.smallBytes }.reduce(0, +)
            XCTAssertLessThanOrEqual(large, 2 * total, "\(total): geometric growth")
            XCTAssertLessThan(renders.count, 40, "\(total): \(renders.count) renders")
        }
    }

    /// A page trickling in slowly still shows what came (its title first of all) about once a second.
    func testTrickleIsRenderedOnceASecond() {
        var schedule = ProgressiveSchedule()
        var renders: [Double] = []
        for second in 0..<20 {
            for tenth in 0..<10 {
                let now = Double(second) + Double(tenth) / 10
                let arrived = 100 * (second * 10 + tenth + 1)
                if schedule.isDue(arrived: arrived, now: now) {
                    schedule.rendered(arrived, at: now)
                    renders.append(now)
                }
            }
        }
        XCTAssertEqual(renders.first, 0)
        XCTAssertGreaterThanOrEqual(renders.count, 15)
        // Once a second for 20 s, plus the doublings of the first second (100 → 200 → 400 → 800 bytes).
        XCTAssertLessThanOrEqual(renders.count, 20 + 4)
        XCTAssertFalse(schedule.isDue(arrived: schedule.renderedBytes, now: 100), "nothing new, no render")
    }

    /// Numbers in a session file are the file's to choose: a document number of Int.max once made the next
    /// navigation's number overflow. They come back renumbered, still telling which entries share a page.
    func testHostileNumbersInASessionAreRenumbered() throws {
        let json = #"{"version": 1, "zoom": 1e308, "windows": [{"current": 9223372036854775807, "zoom": -1e308, "#
            + #""width": -9223372036854775808, "entries": ["#
            + #"{"url": "http://127.0.0.1/a", "scroll": 1e308, "document": 9223372036854775807},"#
            + #"{"url": "http://127.0.0.1/a#x", "scroll": -5, "document": 9223372036854775807},"#
            + #"{"url": "javascript:alert(1)", "scroll": 0, "document": -9223372036854775808},"#
            + #"{"url": "http://127.0.0.1/b", "scroll": 0, "document": -9223372036854775808}]}]}"#
        let state = try SessionState.decode(Data(json.utf8)).get()
        let entries = state.windows[0].entries
        XCTAssertEqual(entries.map(\.url.absoluteString), ["http://127.0.0.1/a", "http://127.0.0.1/a#x",
                                                           "http://127.0.0.1/b"], "the script is dropped")
        XCTAssertEqual(entries.map(\.document), [1, 1, 2])
        XCTAssertEqual(state.windows[0].currentIndex, 2)
        let model = NavigationModel<String>()
        _ = model.restore(state.windows[0].historyEntries(), currentIndex: state.windows[0].currentIndex)
        guard case .load = model.navigate(to: URL(string: "http://127.0.0.1/c")!, kind: .typed) else {
            return XCTFail("the next navigation gets a number")
        }
    }

    /// A password in an address lives only in the request: the session file never holds it.
    func testPasswordsAreNotStored() throws {
        let url = URL(string: "http://user:secret@127.0.0.1:8000/private")!
        let state = SessionState(windows: [SessionState.Window(entries: [
            .init(url: url, title: "private", scroll: 0, document: 1)], currentIndex: 0)], visited: [url])
        let bytes = String(decoding: state.encoded(), as: UTF8.self)
        XCTAssertFalse(bytes.contains("secret"), bytes)
        XCTAssertTrue(bytes.contains("http://user@127.0.0.1:8000/private"), bytes)
        let decoded = try SessionState.decode(state.encoded()).get()
        XCTAssertEqual(decoded.windows[0].entries[0].url.absoluteString, "http://user@127.0.0.1:8000/private")
    }

    func testFindPassesOverTheZeroWidthSpacesOfTableCells() {
        var scanner = FindScanner("東京都")!
        let page = "表: 東\u{200B}京\u{200B}都 と 東京都"
        let found = scanner.scan(page[...].unicodeScalars, sliceEnd: page.unicodeScalars.count)
        XCTAssertEqual(found, [3, 11])
        XCTAssertEqual(scanner.stretched, [3: 5], "the first match covers its two marks")
        var results = FindResults(length: scanner.length, anchor: 0)
        results.stretched = scanner.stretched
        results.append(found)
        XCTAssertEqual(results.currentRange, 3..<8)
        XCTAssertEqual(results.length(at: 11), 3)
        var pasted = FindScanner("東\u{200B}京")!
        XCTAssertEqual(pasted.scan(page[...].unicodeScalars, sliceEnd: page.unicodeScalars.count), [3, 11],
                       "a mark in the text looked for is passed over too")
        XCTAssertNil(FindScanner("\u{200B}"))
    }
}
