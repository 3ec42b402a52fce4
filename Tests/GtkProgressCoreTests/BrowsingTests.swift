import Foundation
import GtkProgressCore
import XCTest

/// The browser's decisions that need no display: keys, what the chrome shows, when a page still arriving is
/// rendered again.
final class BrowsingTests: XCTestCase {
    func testKeysAndTheirCommands() {
        let expected: [(KeyChord, BrowserCommand?)] = [
            (KeyChord("Left", alt: true), .back), (KeyChord("Right", alt: true), .forward),
            (KeyChord("F5"), .reload), (KeyChord("F5", control: true), .reload), (KeyChord("r", control: true), .reload),
            (KeyChord("Escape"), .stopOrRestoreAddress), (KeyChord("l", control: true), .focusAddress),
            (KeyChord("w", control: true), .closeWindow), (KeyChord("q", control: true), .closeWindow),
            (KeyChord("s", control: true), .save),
            // Keys the focused widget keeps: typing, plain arrows, Alt+F5.
            (KeyChord("r"), nil), (KeyChord("Left"), nil), (KeyChord("F5", alt: true), nil), (KeyChord("l"), nil),
        ]
        for (chord, command) in expected {
            XCTAssertEqual(BrowserCommand.command(for: chord), command, "\(chord)")
        }
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
}
