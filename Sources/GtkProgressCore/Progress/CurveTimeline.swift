import FoundationEssentials

/// The text of `gtkprogress --print-curve`: what the bar shows at each 0.1 s tick of a simulated navigation, so a
/// curve can be checked and plotted with no display.
package enum CurveTimeline {
    /// The tracker's tick (the WeChat article's timer fires every 0.1 s).
    package static let step = 0.1
    /// How long to print when the load never finishes: past the end of both articles' curves.
    package static let defaultUntil = 20.0
    /// A 60 Hz display's frame, for `frames: true`.
    package static let frameStep = 1.0 / 60
    /// The latest instant printed: an hour, far past any curve's interest, and at most 216,000 lines (about 4 MB)
    /// with `frames`. `--until` and `--finish-at` above it are refused; a curve file whose finish resets later
    /// is printed up to it.
    package static let longest = 3600.0

    /// Lines of `t<TAB>fraction<TAB>opacity`, `t` with one decimal from 0.0, the values with three; a hidden bar
    /// prints as fraction 0 and opacity 0.
    ///
    /// - Parameters:
    ///   - finishAt: when the simulated load finishes (the tracker's `finish`); nil for a load that never ends.
    ///   - until: the last instant printed (inclusive). Default: 20 s, or when the bar resets after `finishAt`; never
    ///     past `longest`.
    ///   - frames: print what is painted at each frame of a 60 Hz display (`ProgressMotion`: the glide, the run,
    ///     the fade), `t` with three decimals, instead of the model at its ticks.
    package static func render(curve: ProgressCurve, finishAt: Double? = nil, until: Double? = nil,
                              frames: Bool = false) -> String {
        let end = min(until ?? finishAt.map { $0 + curve.finish.reset } ?? defaultUntil, longest)
        if frames { return renderFrames(curve: curve, finishAt: finishAt, end: end) }
        var tracker = ProgressTracker(curve: curve)
        tracker.start(at: 0)
        var finished = false
        var text = ""
        var index = 0
        // Counting ticks as integers keeps t exact; adding 0.1 repeatedly drifts.
        while Double(index) * step <= end + 1e-9 {
            let t = Double(index) * step
            if let finishAt, !finished, t + 1e-9 >= finishAt {
                tracker.finish(at: finishAt)
                finished = true
            }
            tracker.tick(now: t)
            let shown = tracker.snapshot.visible ? tracker.snapshot : .hidden
            text += t.formatted(decimals: 1) + "\t" + shown.fraction.formatted(decimals: 3) + "\t" + shown.opacity.formatted(decimals: 3) + "\n"
            index += 1
        }
        return text
    }

    /// The model ticked every 0.1 s (and finished at `finishAt`), painted by `ProgressMotion` at every frame. Bytes
    /// of unknown length keep arriving at every tick, so the load is slow but never stalled (a stall would pulse).
    private static func renderFrames(curve: ProgressCurve, finishAt: Double?, end: Double) -> String {
        var tracker = ProgressTracker(curve: curve)
        var motion = ProgressMotion()
        tracker.start(at: 0)
        motion.follow(tracker, at: 0)
        var nextTick = 1
        var finished = false
        var text = ""
        var index = 0
        while Double(index) * frameStep <= end + 1e-9 {
            let t = Double(index) * frameStep
            // The model's events up to this frame, in their order.
            while true {
                let tick = Double(nextTick) * step
                if let finishAt, !finished, finishAt <= t + 1e-9, finishAt <= tick {
                    tracker.finish(at: finishAt)
                    motion.follow(tracker, at: finishAt)
                    finished = true
                } else if tick <= t + 1e-9 {
                    tracker.realProgress(received: Int64(nextTick), expected: nil, at: tick)
                    tracker.tick(now: tick)
                    motion.follow(tracker, at: tick)
                    nextTick += 1
                } else {
                    break
                }
            }
            let shown = motion.frame(at: t)
            text += [t, shown.fraction, shown.opacity].map { $0.formatted(decimals: 3) }.joined(separator: "\t") + "\n"
            index += 1
        }
        return text
    }
}
