import XCTest
@testable import GtkProgressCore

/// What the tracker makes of the load's signals besides bytes: the delay before the bar appears, the least time it
/// stays, the connection's milestones, and a stall.
final class ProgressSignalsTests: XCTestCase {
    let wechat = ProgressCurve.builtInWeChat

    /// WeChat's curve shown only if the load still runs at 0.25 s, then for at least 0.5 s.
    var delayed: ProgressCurve {
        var curve = wechat
        curve.appearAfter = 0.25
        curve.minimumVisible = 0.5
        return curve
    }

    func testAFastLoadNeverShowsADelayedBar() {
        var tracker = ProgressTracker(curve: delayed)
        tracker.start(at: 100)
        XCTAssertEqual(tracker.snapshot, .hidden)
        XCTAssertTrue(tracker.isActive, "it ticks, to know when to appear")
        tracker.tick(now: 100.1)
        tracker.tick(now: 100.2)
        XCTAssertEqual(tracker.snapshot, .hidden)
        XCTAssertEqual(tracker.phase, .loading)
        tracker.finish(at: 100.24)
        XCTAssertEqual(tracker.snapshot, .hidden, "done before the bar was due: nothing to see")
        XCTAssertNil(tracker.ending)
        XCTAssertEqual(tracker.phase, .idle)
        XCTAssertFalse(tracker.isActive)

        tracker.start(at: 200)
        tracker.fail(at: 200.1)
        XCTAssertEqual(tracker.snapshot, .hidden, "nor a quick failure: the error page says it")
    }

    func testADelayedBarAppearsWhereTheCurveIs() {
        var tracker = ProgressTracker(curve: delayed)
        tracker.start(at: 100)
        tracker.tick(now: 100.2)
        XCTAssertNil(tracker.appearedAt)
        tracker.tick(now: 100.3)
        XCTAssertEqual(tracker.appearedAt, 100.3)
        XCTAssertEqual(tracker.snapshot.fraction, 0.15, accuracy: 1e-9, "not from zero: where the curve is at 0.3 s")
        XCTAssertTrue(tracker.snapshot.visible)
    }

    func testMinimumVisibleHoldsTheFadeBack() throws {
        var tracker = ProgressTracker(curve: delayed)
        tracker.start(at: 100)
        tracker.tick(now: 100.3)
        tracker.finish(at: 100.35)
        let ending = try XCTUnwrap(tracker.ending)
        XCTAssertEqual(ending.fadeStart, 100.8, accuracy: 1e-9, "on screen from 100.3 for at least 0.5 s")
        XCTAssertEqual(ending.fadeEnd, 101.05, accuracy: 1e-9, "the fade keeps its 0.25 s")
        XCTAssertEqual(ending.reset, 101.1, accuracy: 1e-9)
        tracker.tick(now: 100.6)
        XCTAssertEqual(tracker.snapshot, ProgressSnapshot(fraction: 1, opacity: 1, visible: true),
                       "the run is not delayed, only the fade")
        tracker.tick(now: 100.8)
        XCTAssertEqual(tracker.snapshot.opacity, 1)
        tracker.tick(now: 100.925)
        XCTAssertEqual(tracker.snapshot.opacity, 0.5, accuracy: 1e-9)
        tracker.tick(now: 101.1)
        XCTAssertEqual(tracker.snapshot, .hidden)

        var late = ProgressTracker(curve: delayed)
        late.start(at: 100)
        late.tick(now: 100.3)
        late.finish(at: 105)
        XCTAssertEqual(late.ending?.fadeStart ?? 0, 105.4, accuracy: 1e-9, "a long load fades as usual")
    }

    func testMilestonesLiftTheBarAndMoveTheCurvesClockOn() {
        var tracker = ProgressTracker(curve: wechat)
        tracker.start(at: 100)
        tracker.milestone(.nameResolved, at: 100.01)
        XCTAssertEqual(tracker.snapshot.fraction, 0.15, accuracy: 1e-9, "at once, without waiting for a tick")
        tracker.milestone(.connected, at: 100.05)
        XCTAssertEqual(tracker.snapshot.fraction, 0.20, accuracy: 1e-9)
        tracker.tick(now: 100.1)
        // The curve reaches 0.20 at 0.6 s; its clock now counts from 100.05 − 0.6, so at 100.1 it is at 0.65 s.
        XCTAssertEqual(tracker.snapshot.fraction, 0.10 + 0.5 * 0.65 / 3, accuracy: 1e-9,
                       "the bar goes on at the curve's pace, not flat")
        tracker.milestone(.firstByte, at: 100.2)
        XCTAssertEqual(tracker.snapshot.fraction, 0.30, accuracy: 1e-9)
        tracker.tick(now: 101)
        XCTAssertEqual(tracker.snapshot.fraction, 0.10 + 0.5 * 2 / 3, accuracy: 1e-9, "1.2 s ahead of the clock")
        tracker.milestone(.secured, at: 101)
        XCTAssertEqual(tracker.snapshot.fraction, 0.10 + 0.5 * 2 / 3, accuracy: 1e-9,
                       "a milestone below the bar changes nothing")
        tracker.realProgress(received: 95, expected: 100, at: 101.1)
        XCTAssertEqual(tracker.snapshot.fraction, 0.95, accuracy: 1e-9, "bytes above the hold still take over")
    }

    func testMilestonesOnACurveWithoutSegmentsAreAFloor() {
        var curve = ProgressCurve(name: "real", segments: [], hold: nil, realProgressRate: 2,
                                  milestones: [.firstByte: 0.3], finish: wechat.finish)
        var tracker = ProgressTracker(curve: curve)
        tracker.start(at: 0)
        tracker.milestone(.connected, at: 0.1)
        XCTAssertEqual(tracker.snapshot.fraction, 0, "no level for this one")
        tracker.milestone(.firstByte, at: 0.2)
        XCTAssertEqual(tracker.snapshot.fraction, 0.3)
        tracker.tick(now: 5)
        XCTAssertEqual(tracker.snapshot.fraction, 0.3)
        tracker.realProgress(received: 10, expected: 100, at: 5.1)
        tracker.tick(now: 6)
        XCTAssertEqual(tracker.snapshot.fraction, 0.3, "real progress below the floor does not pull it down")
        curve.milestones = [:]
        tracker.curve = curve
        tracker.start(at: 10)
        tracker.milestone(.firstByte, at: 10.1)
        XCTAssertEqual(tracker.snapshot.fraction, 0, "a curve without milestones ignores them")
    }

    func testThreeSecondsWithoutAByteIsAStall() {
        var tracker = ProgressTracker(curve: wechat)
        tracker.start(at: 100)
        tracker.tick(now: 102.9)
        XCTAssertFalse(tracker.isStalled)
        tracker.tick(now: 103)
        XCTAssertEqual(tracker.stalledSince, 103, "nothing at all for 3 s from the start")
        tracker.milestone(.connected, at: 103.2)
        XCTAssertFalse(tracker.isStalled, "the server answered")
        tracker.realProgress(received: 500, expected: nil, at: 104)
        tracker.tick(now: 106.9)
        XCTAssertFalse(tracker.isStalled)
        tracker.realProgress(received: 500, expected: nil, at: 106.95)
        tracker.tick(now: 107.05)
        XCTAssertEqual(tracker.stalledSince ?? 0, 107, accuracy: 1e-9, "the same count again is no byte")
        tracker.realProgress(received: 501, expected: nil, at: 107.1)
        XCTAssertNil(tracker.stalledSince)
        tracker.tick(now: 111)
        XCTAssertTrue(tracker.isStalled)
        tracker.finish(at: 111)
        XCTAssertFalse(tracker.isStalled, "a finished load is not waiting")
        tracker.start(at: 120)
        XCTAssertFalse(tracker.isStalled)
    }

    func testEachStartIsANewNavigation() {
        var tracker = ProgressTracker(curve: wechat)
        XCTAssertEqual(tracker.navigation, 0)
        tracker.start(at: 1)
        tracker.start(at: 2)
        XCTAssertEqual(tracker.navigation, 2)
    }
}
