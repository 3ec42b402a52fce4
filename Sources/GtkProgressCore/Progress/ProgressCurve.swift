/// What the progress bar shows over time while a page loads, and how it leaves when the load ends.
///
/// A curve is data, not a code path (the presets ship as `data/curves/*.json`): a chain of segments the bar follows
/// from the start of a navigation, a hold level above which real progress takes over, and the finish rules.
/// The WeChat article's curve is `segments` 0.10 → 0.60 (3 s) → 0.80 (4 s) → 0.90 (8 s) with `hold` 0.90; the UIWebView progress article's
/// is 0 → 0.60 (4 s, ease-out) → 0.85 (10 s) → 0.95 (10 s) with a 0.5 s ease-in finish.
public struct ProgressCurve: Equatable, Sendable {
    /// One step of the curve. The UIWebView progress article's continuity rule: each starts exactly where the previous one ended.
    public struct Segment: Equatable, Sendable {
        /// Seconds the step takes; 0 makes it a jump.
        public var duration: Double
        /// Where the step starts, 0…1 of the bar's width.
        public var from: Double
        /// Where the step ends, at least `from`.
        public var to: Double
        /// How the step moves between them.
        public var easing: Easing

        /// A step of `duration` seconds from `from` to `to`.
        public init(duration: Double, from: Double, to: Double, easing: Easing = .linear) {
            self.duration = duration; self.from = from; self.to = to; self.easing = easing
        }
    }

    /// What happens once the page has loaded. Every time is in seconds after the finish.
    public struct Finish: Equatable, Sendable {
        /// Time to go from wherever the bar is to 1.0; 0 means at once (the WeChat article).
        public var duration: Double
        /// How the run to 1.0 moves.
        public var easing: Easing
        /// Opacity is 1 until `fadeStart` and falls linearly to 0 at `fadeEnd`.
        public var fadeStart: Double
        /// When the bar is fully transparent.
        public var fadeEnd: Double
        /// The bar is hidden and its width set back to 0.
        public var reset: Double

        /// Finish rules; every instant in seconds after the load finished, in the order duration ≤ fadeStart ≤ fadeEnd ≤ reset.
        public init(duration: Double, easing: Easing = .linear, fadeStart: Double, fadeEnd: Double, reset: Double) {
            self.duration = duration; self.easing = easing
            self.fadeStart = fadeStart; self.fadeEnd = fadeEnd; self.reset = reset
        }
    }

    /// A short name for messages and the plot legend.
    public var name: String
    /// The steps the bar follows from the start, each beginning where the previous one ended.
    public var segments: [Segment]
    /// Real progress is shown only once it is above this level; below it the curve alone decides (the WeChat article:
    /// "before 0.9 the bar follows the load time, after 0.9 the real progress"). `nil`: real progress always counts.
    public var hold: Double?
    /// The most the bar may move per second to catch up with real progress; `nil` jumps at once. The real curve sets
    /// it because `estimatedProgress`-style values arrive unevenly (the WeChat article: first 0.5, then 0.1), and a bar that
    /// leaps and stalls is what that article complains about.
    public var realProgressRate: Double?
    /// How far each milestone of the load lifts the bar at least (GeckoView's progress milestones): a fast server
    /// shows as fast before its bytes arrive. A milestone also moves the curve's clock forward to where the curve
    /// reaches that level, so the bar keeps the curve's pace from there instead of waiting flat for it.
    public var milestones: [LoadMilestone: Double]
    /// Seconds after the start before the bar may appear; a load that ends sooner never shows it (Turbo waits
    /// 500 ms: "the bar makes fast requests feel slower"). 0 shows it at once.
    public var appearAfter: Double
    /// Once it has appeared, the bar stays at least this long before its fade begins, so a load that ends just
    /// after it appeared still reads as a finish rather than a flicker.
    public var minimumVisible: Double
    /// How the bar leaves once the load has ended.
    public var finish: Finish

    /// A curve from its parts; call `validate()` before trusting values from elsewhere.
    public init(name: String, segments: [Segment], hold: Double?, realProgressRate: Double? = nil,
                milestones: [LoadMilestone: Double] = [:], appearAfter: Double = 0, minimumVisible: Double = 0,
                finish: Finish) {
        self.name = name; self.segments = segments; self.hold = hold
        self.realProgressRate = realProgressRate; self.milestones = milestones
        self.appearAfter = appearAfter; self.minimumVisible = minimumVisible; self.finish = finish
    }

    /// The curve's value `t` seconds after the navigation started. Before the first segment it is the first
    /// segment's start ("0.10 at once"); after the last one it rests at the last segment's end.
    public func value(at t: Double) -> Double {
        guard !segments.isEmpty else { return 0 }
        let t = max(t, 0)
        var start = 0.0
        for segment in segments {
            let end = start + segment.duration
            if t < end {
                let share = segment.easing((t - start) / segment.duration)
                return segment.from + (segment.to - segment.from) * share
            }
            start = end
        }
        return segments[segments.count - 1].to
    }

    /// When the last segment ends (the curve is flat from then on).
    public var totalDuration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// The first instant at which the curve reaches `level`, or nil when it never does. The curve never goes
    /// down (validation sees to it), so this inverts `value(at:)`.
    package func time(reaching level: Double) -> Double? {
        var start = 0.0
        for segment in segments {
            if segment.from >= level { return start }
            if segment.to >= level, segment.to > segment.from {
                // Bisection on the step's own easing: 50 halvings are below a nanosecond for any real duration.
                var low = 0.0, high = 1.0
                for _ in 0..<50 {
                    let mid = (low + high) / 2
                    if segment.from + (segment.to - segment.from) * segment.easing(mid) >= level { high = mid } else { low = mid }
                }
                return start + high * segment.duration
            }
            start += segment.duration
        }
        return nil
    }
}
