import TestSupport
import XCTest
@testable import GtkProgressCore

final class ProgressTrackerTests: XCTestCase {
    let wechat = ProgressCurve.builtInWeChat
    lazy var smooth = try! preset("smooth")
    lazy var real = try! preset("real")

    /// A tracker started at clock time 100, so nothing depends on the clock starting at 0.
    func loading(_ curve: ProgressCurve, fadesEnabled: Bool = true) -> ProgressTracker {
        var tracker = ProgressTracker(curve: curve, fadesEnabled: fadesEnabled)
        tracker.start(at: 100)
        return tracker
    }

    func testIdleUntilStarted() {
        var tracker = ProgressTracker(curve: wechat)
        XCTAssertEqual(tracker.phase, .idle)
        XCTAssertEqual(tracker.snapshot, .hidden)
        tracker.tick(now: 5)
        tracker.finish(at: 5)
        tracker.realProgress(received: 10, expected: 10, at: 100 + tracker.elapsed)
        XCTAssertEqual(tracker.snapshot, .hidden)
        XCTAssertEqual(tracker.phase, .idle)
    }

    func testWeChatShowsTheCurveAtTheArticlesInstants() {
        var tracker = loading(wechat)
        XCTAssertEqual(tracker.snapshot, ProgressSnapshot(fraction: 0.10, opacity: 1, visible: true), "0.10 at once")
        for (t, value) in [(1.5, 0.35), (3, 0.60), (5, 0.70), (7, 0.80), (11, 0.85), (15, 0.90), (20, 0.90)] {
            tracker.tick(now: 100 + t)
            XCTAssertEqual(tracker.snapshot.fraction, value, accuracy: 1e-9, "at \(t) s")
            XCTAssertEqual(tracker.snapshot.opacity, 1)
            XCTAssertEqual(tracker.phase, .loading)
        }
    }

    func testSmoothShowsTheCurveAtTheArticlesInstants() {
        var tracker = loading(smooth)
        XCTAssertEqual(tracker.snapshot.fraction, 0)
        for (t, value) in [(2.0, 0.410786), (4, 0.60), (9, 0.725), (14, 0.85), (19, 0.90), (24, 0.95)] {
            tracker.tick(now: 100 + t)
            XCTAssertEqual(tracker.snapshot.fraction, value, accuracy: 1e-6, "at \(t) s")
        }
    }

    func testRealProgressAtOrBelowTheHoldIsIgnored() {
        var tracker = loading(wechat)
        tracker.tick(now: 101)
        tracker.realProgress(received: 90, expected: 100, at: 100 + tracker.elapsed)
        tracker.tick(now: 101.5)
        XCTAssertEqual(tracker.snapshot.fraction, 0.35, accuracy: 1e-9, "0.90 is not above the hold")
    }

    func testRealProgressAboveTheHoldTakesOverAtOnce() {
        var tracker = loading(wechat)
        tracker.tick(now: 102)
        tracker.realProgress(received: 95, expected: 100, at: 100 + tracker.elapsed)
        XCTAssertEqual(tracker.snapshot.fraction, 0.95, accuracy: 1e-9, "without waiting for a tick")
        tracker.tick(now: 102.1)
        XCTAssertEqual(tracker.snapshot.fraction, 0.95, accuracy: 1e-9)
        tracker.realProgress(received: 92, expected: 100, at: 100 + tracker.elapsed)
        tracker.tick(now: 102.2)
        XCTAssertEqual(tracker.snapshot.fraction, 0.95, accuracy: 1e-9, "never backwards")
        tracker.realProgress(received: 99, expected: 100, at: 100 + tracker.elapsed)
        XCTAssertEqual(tracker.snapshot.fraction, 0.99, accuracy: 1e-9)
    }

    func testUnknownLengthLeavesTheCurveInCharge() {
        var tracker = loading(wechat)
        tracker.realProgress(received: 1_000_000, expected: nil, at: 100 + tracker.elapsed)
        tracker.realProgress(received: 10, expected: 0, at: 100 + tracker.elapsed)
        tracker.tick(now: 103)
        XCTAssertEqual(tracker.snapshot.fraction, 0.60, accuracy: 1e-9)
    }

    func testWeChatFinishRunsStaysFadesAndResets() throws {
        var tracker = loading(wechat)
        tracker.tick(now: 102)
        XCTAssertEqual(tracker.snapshot.fraction, 0.10 + 0.5 * 2 / 3, accuracy: 1e-9)
        tracker.finish(at: 102)
        XCTAssertEqual(tracker.phase, .finishing)
        XCTAssertEqual(tracker.snapshot.fraction, 0.10 + 0.5 * 2 / 3, accuracy: 1e-9, "a run, not a jump")
        let ending = try XCTUnwrap(tracker.ending)
        XCTAssertEqual(ending, ProgressTracker.Ending(start: 102, failed: false, runDuration: 0.25, runEasing: .easeIn,
                                                      fadeStart: 102.4, fadeEnd: 102.65, reset: 102.7))
        tracker.tick(now: 102.125)
        XCTAssertEqual(tracker.snapshot.fraction, 0.4333333 + 0.5666667 * 0.3153568126, accuracy: 1e-6,
                       "halfway through the run, Core Animation's ease-in")
        tracker.tick(now: 102.25)
        XCTAssertEqual(tracker.snapshot, ProgressSnapshot(fraction: 1, opacity: 1, visible: true), "1.0 at +0.25 s")
        tracker.tick(now: 102.4)
        XCTAssertEqual(tracker.snapshot.opacity, 1, accuracy: 1e-9, "stays until +0.4 s")
        XCTAssertEqual(tracker.phase, .fading)
        tracker.tick(now: 102.525)
        XCTAssertEqual(tracker.snapshot.opacity, 0.5, accuracy: 1e-9, "fades over 0.25 s")
        tracker.tick(now: 102.65)
        XCTAssertEqual(tracker.snapshot.opacity, 0, "opacity 0 at +0.65 s")
        XCTAssertEqual(tracker.snapshot.fraction, 1)
        XCTAssertTrue(tracker.snapshot.visible)
        XCTAssertTrue(tracker.isActive)
        tracker.tick(now: 102.7)
        XCTAssertEqual(tracker.snapshot, .hidden, "width 0, hidden at +0.7 s")
        XCTAssertEqual(tracker.phase, .idle)
        XCTAssertNil(tracker.ending)
        XCTAssertFalse(tracker.isActive)
    }

    func testSmoothFinishEasesInOverHalfASecond() {
        var tracker = loading(smooth)
        tracker.tick(now: 104)
        tracker.finish(at: 104)
        XCTAssertEqual(tracker.snapshot.fraction, 0.60, accuracy: 1e-9)
        tracker.tick(now: 104.25)
        XCTAssertEqual(tracker.snapshot.fraction, 0.60 + 0.40 * 0.3153568126, accuracy: 1e-6, "ease-in")
        tracker.tick(now: 104.5)
        XCTAssertEqual(tracker.snapshot.fraction, 1)
        XCTAssertEqual(tracker.snapshot.opacity, 1)
        tracker.tick(now: 104.675)
        XCTAssertEqual(tracker.snapshot.opacity, 0.5, accuracy: 1e-9)
        tracker.tick(now: 104.85)
        XCTAssertEqual(tracker.snapshot, .hidden, "then disappears")
    }

    func testFadesDisabledKeepsTheBarOpaqueUntilTheFadeWouldEnd() {
        var tracker = loading(wechat, fadesEnabled: false)
        tracker.finish(at: 101)
        tracker.tick(now: 101.6)
        XCTAssertEqual(tracker.snapshot.opacity, 1)
        tracker.tick(now: 101.65)
        XCTAssertEqual(tracker.snapshot.opacity, 0)
        tracker.tick(now: 101.7)
        XCTAssertEqual(tracker.snapshot, .hidden)
    }

    func testFailTurnsTheErrorToneWhereItStandsThenFades() {
        var tracker = loading(wechat)
        tracker.tick(now: 103)
        tracker.fail(at: 103)
        XCTAssertEqual(tracker.phase, .failed)
        XCTAssertEqual(tracker.snapshot, ProgressSnapshot(fraction: 0.60, opacity: 1, visible: true, tone: .failure),
                       "a failure never fills the bar")
        tracker.realProgress(received: 100, expected: 100, at: 103.05)
        tracker.milestone(.firstByte, at: 103.05)
        tracker.tick(now: 103.3)
        XCTAssertEqual(tracker.snapshot, ProgressSnapshot(fraction: 0.60, opacity: 1, visible: true, tone: .failure),
                       "it stays in the error tone, where it stood")
        tracker.tick(now: 103.525)
        XCTAssertEqual(tracker.snapshot.opacity, 0.5, accuracy: 1e-9, "then fades as a finish would")
        XCTAssertEqual(tracker.snapshot.tone, .failure)
        tracker.tick(now: 103.65)
        XCTAssertEqual(tracker.snapshot.opacity, 0)
        tracker.tick(now: 103.7)
        XCTAssertEqual(tracker.snapshot, .hidden)
        XCTAssertEqual(tracker.phase, .idle)
        tracker.start(at: 104)
        XCTAssertEqual(tracker.snapshot.tone, .normal, "the next load is not red")
    }

    func testCancelHidesAtOnce() {
        var tracker = loading(wechat)
        tracker.tick(now: 105)
        tracker.cancel(at: 105)
        XCTAssertEqual(tracker.phase, .cancelled)
        XCTAssertEqual(tracker.snapshot, .hidden)
        tracker.tick(now: 106)
        tracker.finish(at: 106)
        XCTAssertEqual(tracker.snapshot, .hidden, "a late finish for a cancelled load shows nothing")
    }

    func testRestartMidLoadBeginsTheCurveAgain() {
        var tracker = loading(wechat)
        tracker.tick(now: 105)
        tracker.realProgress(received: 95, expected: 100, at: 100 + tracker.elapsed)
        XCTAssertEqual(tracker.snapshot.fraction, 0.95, accuracy: 1e-9)
        tracker.start(at: 105.5)
        XCTAssertEqual(tracker.snapshot, ProgressSnapshot(fraction: 0.10, opacity: 1, visible: true))
        tracker.tick(now: 107)
        XCTAssertEqual(tracker.snapshot.fraction, 0.35, accuracy: 1e-9, "the old real progress is forgotten")
        tracker.finish(at: 107)
        tracker.tick(now: 107.45)
        tracker.start(at: 107.45)
        XCTAssertEqual(tracker.phase, .loading, "a start during the fade")
        tracker.tick(now: 108)
        XCTAssertEqual(tracker.snapshot.opacity, 1)
        XCTAssertTrue(tracker.snapshot.visible)
    }

    func testCurveChangeWaitsForTheNextNavigation() {
        var tracker = loading(wechat)
        tracker.tick(now: 103)
        tracker.curve = smooth
        tracker.tick(now: 104)
        XCTAssertEqual(tracker.snapshot.fraction, 0.65, accuracy: 1e-9, "still wechat")
        tracker.start(at: 110)
        XCTAssertEqual(tracker.snapshot.fraction, 0)
        tracker.tick(now: 114)
        XCTAssertEqual(tracker.snapshot.fraction, 0.60, accuracy: 1e-9, "smooth now")
    }

    func testRealCurveCatchesUpAtALimitedRate() {
        var shownAtOnce = real
        shownAtOnce.appearAfter = 0
        var tracker = loading(shownAtOnce)
        XCTAssertEqual(tracker.snapshot.fraction, 0)
        tracker.realProgress(received: 80, expected: 100, at: 100 + tracker.elapsed)
        XCTAssertEqual(tracker.snapshot.fraction, 0, "waits for the tick")
        tracker.tick(now: 100.1)
        XCTAssertEqual(tracker.snapshot.fraction, 0.2, accuracy: 1e-9, "2.0 per second is 0.2 per tick")
        tracker.tick(now: 100.2)
        XCTAssertEqual(tracker.snapshot.fraction, 0.4, accuracy: 1e-9)
        tracker.realProgress(received: 30, expected: 100, at: 100 + tracker.elapsed)
        tracker.tick(now: 100.3)
        XCTAssertEqual(tracker.snapshot.fraction, 0.4, accuracy: 1e-9, "never backwards")
        tracker.realProgress(received: 50, expected: 100, at: 100 + tracker.elapsed)
        tracker.tick(now: 100.4)
        XCTAssertEqual(tracker.snapshot.fraction, 0.5, accuracy: 1e-9, "reaches the target without passing it")
        tracker.finish(at: 100.4)
        tracker.tick(now: 100.6)
        XCTAssertEqual(tracker.snapshot.fraction, 1)
    }

    /// Many random loads: whatever real progress arrives, and whenever, the bar never moves backwards within
    /// one navigation, and stays within 0…1.
    func testFractionNeverMovesBackwardsUnderRandomRealProgress() {
        let curves = [wechat, smooth, real]
        for seed in 0..<500 as Range<UInt64> {
            var rng = SeededRandom(seed: seed)
            let curve = curves[Int(seed) % curves.count]
            var tracker = ProgressTracker(curve: curve, fadesEnabled: Bool.random(using: &rng))
            var now = Double.random(in: 0...1000, using: &rng)
            tracker.start(at: now)
            var previous = tracker.snapshot
            var expected: Int64? = Bool.random(using: &rng) ? Int64.random(in: 1...5_000_000, using: &rng) : nil
            for step in 0..<200 {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0...3:
                    now += Double.random(in: 0...0.5, using: &rng)
                    tracker.tick(now: now)
                case 4...7:
                    let received = Int64.random(in: 0...(expected.map { $0 + $0 / 10 } ?? 5_000_000), using: &rng)
                    tracker.realProgress(received: received, expected: expected, at: now)
                    if let expected, curve.realProgressRate == nil, tracker.phase == .loading, tracker.snapshot.visible {
                        let value = min(Double(received) / Double(expected), ProgressTracker.unfinishedCeiling)
                        if value > (curve.hold ?? 0) {
                            XCTAssertGreaterThanOrEqual(tracker.snapshot.fraction, value - 1e-12,
                                                        "seed \(seed): above the hold shows at once")
                        }
                    }
                case 8:
                    if Int.random(in: 0..<6, using: &rng) == 0 { expected = nil }
                default:
                    if step > 20, Int.random(in: 0..<8, using: &rng) == 0 { tracker.finish(at: now) }
                }
                let shown = tracker.snapshot
                XCTAssertTrue((0...1).contains(shown.fraction), "seed \(seed) step \(step)")
                XCTAssertTrue((0...1).contains(shown.opacity), "seed \(seed) step \(step)")
                if shown.visible && previous.visible {
                    XCTAssertGreaterThanOrEqual(shown.fraction, previous.fraction,
                                                "seed \(seed) step \(step): moved backwards")
                    XCTAssertLessThanOrEqual(shown.opacity, previous.opacity, "seed \(seed) step \(step)")
                }
                XCTAssertFalse(!shown.visible && previous.visible && tracker.phase == .loading,
                               "seed \(seed): hidden while loading")
                if !shown.visible { XCTAssertEqual(shown, .hidden) }
                previous = shown
            }
        }
    }
}
