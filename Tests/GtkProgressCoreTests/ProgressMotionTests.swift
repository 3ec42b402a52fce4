import TestSupport
import XCTest
@testable import GtkProgressCore

/// What is painted between the model's 0.1 s ticks, at the display's frame rate, checked at exact instants.
final class ProgressMotionTests: XCTestCase {
    let wechat = ProgressCurve.builtInWeChat
    /// A 60 Hz display.
    let frame = 1.0 / 60

    // MARK: - The glide

    func testAGlideIsLinearAndStopsAtItsTarget() {
        var glide = ProgressGlide(at: 0.10, now: 10)
        XCTAssertTrue(glide.isSettled(at: 10))
        glide.aim(at: 0.12, now: 10)
        XCTAssertEqual(glide.duration, ProgressGlide.shortest, "a curve step takes one tick")
        XCTAssertEqual(glide.value(at: 10), 0.10, accuracy: 1e-12)
        XCTAssertEqual(glide.value(at: 10.05), 0.11, accuracy: 1e-12)
        XCTAssertFalse(glide.isSettled(at: 10.05))
        XCTAssertEqual(glide.value(at: 10.1), 0.12, accuracy: 1e-12)
        XCTAssertEqual(glide.value(at: 11), 0.12, "never past its target")
        XCTAssertTrue(glide.isSettled(at: 10.1))
        XCTAssertEqual(glide.value(at: 9), 0.10, "nothing before it began")
    }

    func testALongCatchUpTakesCoreAnimationsQuarterSecondAtMost() {
        var glide = ProgressGlide(at: 0.3, now: 0)
        glide.aim(at: 0.95, now: 0)
        XCTAssertEqual(glide.duration, 0.25, "0.65 at 2 widths a second would take 0.325 s")
        glide.aim(at: 0.45, now: 1)
        XCTAssertEqual(glide.value(at: 1.2), 0.95, "a lower target never pulls the bar back")
        var medium = ProgressGlide(at: 0.3, now: 0)
        medium.aim(at: 0.6, now: 0)
        XCTAssertEqual(medium.duration, 0.15, accuracy: 1e-12, "between the limits: distance at 2 widths a second")
    }

    func testReaimingMidGlideStartsFromWhereTheBarIs() {
        var glide = ProgressGlide(at: 0.2, now: 0)
        glide.aim(at: 0.3, now: 0)
        glide.aim(at: 0.4, now: 0.05)
        XCTAssertEqual(glide.from, 0.25, accuracy: 1e-12)
        XCTAssertEqual(glide.value(at: 0.05), 0.25, accuracy: 1e-12, "no jump at the re-aim")
    }

    // MARK: - Following the tracker

    /// Runs `tracker` on its 0.1 s tick and paints frames at 60 Hz from `from` to `to`, returning (t, snapshot).
    func frames(_ tracker: inout ProgressTracker, _ motion: inout ProgressMotion, from: Double, to: Double,
                events: [Double: (inout ProgressTracker) -> Void] = [:]) -> [(Double, ProgressSnapshot)] {
        var out: [(Double, ProgressSnapshot)] = []
        var nextTick = from
        var n = 0
        var pending = events.sorted { $0.key < $1.key }
        while true {
            let t = from + Double(n) * frame
            if t > to + 1e-9 { break }
            while let first = pending.first, first.key <= t + 1e-9 {
                first.value(&tracker)
                motion.follow(tracker, at: first.key)
                pending.removeFirst()
            }
            while nextTick <= t + 1e-9 {
                tracker.tick(now: nextTick)
                motion.follow(tracker, at: nextTick)
                nextTick += 0.1
            }
            out.append((t, motion.frame(at: t)))
            n += 1
        }
        return out
    }

    func testTheRampIsPaintedSmoothlyOneTickBehindTheCurve() {
        var tracker = ProgressTracker(curve: wechat)
        var motion = ProgressMotion()
        tracker.start(at: 0)
        motion.follow(tracker, at: 0)
        let painted = frames(&tracker, &motion, from: 0, to: 2.9)
        var steps: [Double] = []
        for ((t0, a), (t1, b)) in zip(painted, painted.dropFirst()) {
            XCTAssertGreaterThanOrEqual(b.fraction, a.fraction, "never backwards at \(t1)")
            XCTAssertLessThanOrEqual(b.fraction, wechat.value(at: t1) + 1e-9, "never ahead of the curve at \(t1)")
            XCTAssertGreaterThanOrEqual(b.fraction, wechat.value(at: t1 - 0.1) - 1e-9, "at most a tick behind at \(t1)")
            if t0 >= 0.1 { steps.append(b.fraction - a.fraction) }
        }
        // 0.5 over 3 s at 60 frames a second: every frame moves the bar by the same amount, with no stop at ticks.
        let expected = 0.5 / 3 / 60
        for step in steps { XCTAssertEqual(step, expected, accuracy: expected * 0.05) }
        XCTAssertTrue(motion.isMoving(at: 2.9))
    }

    func testFramesStopAtTheHoldAndComeBackForRealProgress() {
        var tracker = ProgressTracker(curve: wechat)
        var motion = ProgressMotion()
        tracker.start(at: 0)
        // A byte every second, so the load is slow but not stalled.
        var bytes: [Double: (inout ProgressTracker) -> Void] = [:]
        for second in 1...16 { bytes[Double(second)] = { $0.realProgress(received: Int64(second), expected: nil, at: Double(second)) } }
        _ = frames(&tracker, &motion, from: 0, to: 16, events: bytes)
        XCTAssertFalse(tracker.isStalled)
        XCTAssertEqual(motion.frame(at: 16).fraction, 0.90, accuracy: 1e-9)
        XCTAssertFalse(motion.isMoving(at: 16), "held at 0.90: nothing moves, no frames")
        tracker.realProgress(received: 96, expected: 100, at: 16.01)
        motion.follow(tracker, at: 16.01)
        XCTAssertTrue(motion.isMoving(at: 16.01))
        XCTAssertEqual(motion.frame(at: 16.01).fraction, 0.90, accuracy: 1e-9, "glides, does not jump")
        XCTAssertEqual(motion.frame(at: 16.11).fraction, 0.96, accuracy: 1e-9, "0.06 takes one tick")
    }

    func testTheFinishRunsFromWhereTheBarIsPaintedThenStaysAndFades() {
        var tracker = ProgressTracker(curve: wechat)
        var motion = ProgressMotion()
        tracker.start(at: 0)
        _ = frames(&tracker, &motion, from: 0, to: 1.45)
        let before = motion.frame(at: 1.45).fraction
        XCTAssertLessThan(before, tracker.snapshot.fraction + 1e-9)
        tracker.finish(at: 1.45)
        motion.follow(tracker, at: 1.45)
        XCTAssertEqual(motion.frame(at: 1.45).fraction, before, accuracy: 1e-9, "no jump at the finish")
        XCTAssertEqual(motion.frame(at: 1.575).fraction, before + (1 - before) * 0.3153568126, accuracy: 1e-6,
                       "halfway through the run at a frame between ticks")
        XCTAssertEqual(motion.frame(at: 1.7), ProgressSnapshot(fraction: 1, opacity: 1, visible: true), "full at +0.25 s")
        XCTAssertEqual(motion.frame(at: 1.85).opacity, 1, "stays until +0.4 s")
        XCTAssertEqual(motion.frame(at: 1.9).opacity, 0.8, accuracy: 1e-9, "fades frame by frame")
        XCTAssertEqual(motion.frame(at: 1.975).opacity, 0.5, accuracy: 1e-9)
        XCTAssertEqual(motion.frame(at: 2.1).opacity, 0, "opacity 0 at +0.65 s")
        XCTAssertTrue(motion.isMoving(at: 2.1))
        XCTAssertEqual(motion.frame(at: 2.15), .hidden, "reset at +0.7 s")
        XCTAssertFalse(motion.isMoving(at: 2.15))
    }

    func testAFailureFreezesInTheErrorToneAndFades() {
        var tracker = ProgressTracker(curve: wechat)
        var motion = ProgressMotion()
        tracker.start(at: 0)
        _ = frames(&tracker, &motion, from: 0, to: 2.02)
        let before = motion.frame(at: 2.02)
        tracker.fail(at: 2.02)
        motion.follow(tracker, at: 2.02)
        for t in [2.02, 2.2, 2.42] {
            XCTAssertEqual(motion.frame(at: t), ProgressSnapshot(fraction: before.fraction, opacity: 1, visible: true,
                                                                 tone: .failure), "at \(t)")
        }
        XCTAssertEqual(motion.frame(at: 2.545).opacity, 0.5, accuracy: 1e-9)
        XCTAssertEqual(motion.frame(at: 2.545).tone, .failure)
        XCTAssertEqual(motion.frame(at: 2.72), .hidden)
    }

    /// Frames at 60 Hz: all painted while the bar moves, every other one while the load stalls and the bar only
    /// breathes, and all again once bytes come and the cycle ends.
    func testAStalledBarIsPaintedAtHalfTheFrameRate() {
        var tracker = ProgressTracker(curve: wechat)
        var motion = ProgressMotion()
        tracker.start(at: 0)
        tracker.realProgress(received: 100, expected: nil, at: 0.5)
        func painted(from start: Double, seconds: Double) -> Int {
            var count = 0
            for frame in 0..<Int(seconds * 60) {
                let t = start + Double(frame) / 60
                if frame % 6 == 0 { tracker.tick(now: t); motion.follow(tracker, at: t) }
                if motion.frameDue(at: t) { count += 1 }
            }
            return count
        }
        XCTAssertEqual(painted(from: 1, seconds: 1), 60, "moving: every frame")
        XCTAssertFalse(motion.isPulsing(at: 2))
        let stalled = painted(from: 4, seconds: 2)
        XCTAssertTrue(motion.isPulsing(at: 5))
        XCTAssertEqual(stalled, 60, "stalled: 30 a second")
        tracker.realProgress(received: 200, expected: nil, at: 6.0)
        motion.follow(tracker, at: 6.0)
        _ = painted(from: 6.0, seconds: 1.6)
        XCTAssertFalse(motion.isPulsing(at: 7.6), "the cycle under way ended at 7.5")
        XCTAssertEqual(painted(from: 7.6, seconds: 1), 60, "bytes again, the cycle over: every frame")
    }

    func testAStallPulsesQuietlyAndEndsAtTheEndOfItsCycle() {
        var tracker = ProgressTracker(curve: wechat)
        var motion = ProgressMotion()
        tracker.start(at: 0)
        tracker.realProgress(received: 100, expected: nil, at: 20)
        _ = frames(&tracker, &motion, from: 0, to: 22.9)
        XCTAssertFalse(motion.isPulsing(at: 22.9))
        XCTAssertFalse(motion.isMoving(at: 22.9), "held, bytes still fresh: still")
        _ = frames(&tracker, &motion, from: 22.9, to: 23.05)
        XCTAssertEqual(tracker.stalledSince, 23)
        XCTAssertTrue(motion.isPulsing(at: 23.05))
        XCTAssertTrue(motion.isMoving(at: 23.05))
        XCTAssertEqual(motion.frame(at: 23).opacity, 1, accuracy: 1e-9, "starts from full: no blink")
        XCTAssertEqual(motion.frame(at: 24).opacity, 1 - ProgressMotion.pulseDepth, accuracy: 1e-9,
                       "at most 0.4 down, half a period in")
        XCTAssertEqual(motion.frame(at: 24).fraction, 0.90, accuracy: 1e-9, "the width stays")
        XCTAssertEqual(motion.frame(at: 25).opacity, 1, accuracy: 1e-9)
        tracker.realProgress(received: 200, expected: nil, at: 25.5)
        motion.follow(tracker, at: 25.5)
        XCTAssertTrue(motion.isPulsing(at: 26.9), "a byte came: the cycle under way completes")
        XCTAssertLessThan(motion.frame(at: 26.5).opacity, 1)
        XCTAssertEqual(motion.frame(at: 27).opacity, 1, "back at full at the end of the cycle")
        XCTAssertFalse(motion.isPulsing(at: 27))
        XCTAssertFalse(motion.isMoving(at: 27))
    }

    func testWithoutAnimationsTheModelIsPaintedAsItIs() {
        var tracker = ProgressTracker(curve: wechat, fadesEnabled: false)
        var motion = ProgressMotion(animated: false)
        tracker.start(at: 0)
        tracker.tick(now: 1)
        motion.follow(tracker, at: 1)
        XCTAssertEqual(motion.frame(at: 1.05), tracker.snapshot)
        XCTAssertFalse(motion.isMoving(at: 1.05), "no frames at all")
        tracker.tick(now: 10)
        motion.follow(tracker, at: 10)
        XCTAssertFalse(motion.isPulsing(at: 10), "no pulse for a stall")
        XCTAssertEqual(motion.frame(at: 10).opacity, 1)
    }

    func testANewNavigationJumpsRatherThanGlidingBack() {
        var tracker = ProgressTracker(curve: wechat)
        var motion = ProgressMotion()
        tracker.start(at: 0)
        _ = frames(&tracker, &motion, from: 0, to: 2)
        tracker.start(at: 2)
        motion.follow(tracker, at: 2)
        XCTAssertEqual(motion.frame(at: 2).fraction, 0.10, accuracy: 1e-12)
        XCTAssertFalse(motion.frame(at: 2.01).fraction > 0.11, "no glide down from the old load")
        tracker.cancel(at: 2.5)
        motion.follow(tracker, at: 2.5)
        XCTAssertEqual(motion.frame(at: 2.5), .hidden, "Stop retracts it at once")
        XCTAssertFalse(motion.isMoving(at: 2.5))
    }

    /// Random loads with random events between ticks and frames at random instants: within a navigation the
    /// painted bar never moves backwards and never passes the model.
    func testPaintedBarNeverMovesBackwardsNorPassesTheModel() {
        let curves: [ProgressCurve] = [wechat, {
            var c = wechat; c.appearAfter = 0.3; c.minimumVisible = 0.5; return c
        }()]
        for seed in 0..<300 as Range<UInt64> {
            var rng = SeededRandom(seed: seed)
            var tracker = ProgressTracker(curve: curves[Int(seed) % 2])
            var motion = ProgressMotion()
            var now = 50.0
            tracker.start(at: now)
            motion.follow(tracker, at: now)
            var previous = motion.frame(at: now)
            var received: Int64 = 0
            for step in 0..<300 {
                switch rng.next(12) {
                case 0...4:
                    now += Double(rng.next(30)) / 1000
                    let shown = motion.frame(at: now)
                    if shown.visible, previous.visible {
                        XCTAssertGreaterThanOrEqual(shown.fraction, previous.fraction - 1e-12, "seed \(seed) step \(step)")
                        XCTAssertLessThanOrEqual(shown.opacity, previous.opacity + 1e-12, "seed \(seed) step \(step)")
                    }
                    if shown.visible, tracker.phase == .loading {
                        XCTAssertLessThanOrEqual(shown.fraction, tracker.snapshot.fraction + 1e-12,
                                                 "seed \(seed) step \(step): past the model")
                    }
                    XCTAssertTrue((0...1).contains(shown.fraction))
                    previous = shown
                case 5...7:
                    tracker.tick(now: now)
                case 8:
                    received += Int64(rng.next(40))
                    tracker.realProgress(received: received, expected: 1000, at: now)
                case 9:
                    tracker.milestone(LoadMilestone.allCases[rng.next(4)], at: now)
                case 10:
                    if step > 100, rng.next(10) == 0 { tracker.finish(at: now) }
                default:
                    if step > 100, rng.next(20) == 0 { tracker.fail(at: now) }
                }
                motion.follow(tracker, at: now)
            }
        }
    }
}
