import FoundationEssentials

/// The text of `gtkprogress --print-curve`: what the bar shows at each 0.1 s tick of a simulated navigation, so a
/// curve can be checked and plotted with no display.
public enum CurveTimeline {
    /// The tracker's tick (the WeChat article's timer fires every 0.1 s).
    public static let step = 0.1
    /// How long to print when the load never finishes: past the end of both articles' curves.
    public static let defaultUntil = 20.0

    /// Lines of `t<TAB>fraction<TAB>opacity`, `t` with one decimal from 0.0, the values with three; a hidden bar
    /// prints as fraction 0 and opacity 0.
    ///
    /// - Parameters:
    ///   - finishAt: when the simulated load finishes (the tracker's `finish`); nil for a load that never ends.
    ///   - until: the last instant printed (inclusive). Default: 20 s, or when the bar resets after `finishAt`.
    public static func render(curve: ProgressCurve, finishAt: Double? = nil, until: Double? = nil) -> String {
        let end = until ?? finishAt.map { $0 + curve.finish.reset } ?? defaultUntil
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
}
