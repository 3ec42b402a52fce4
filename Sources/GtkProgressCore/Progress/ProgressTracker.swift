/// The bar's state machine for one navigation at a time, with the clock passed in (seconds on any monotonic scale)
/// so it can be tested at exact instants.
///
/// idle → loading → finishing → fading → idle, and from loading also failed or cancelled. `start` from any phase
/// begins a new navigation. Within one navigation the shown fraction never moves backwards.
///
/// A failed load must not look like a success, so `fail` never fills the bar: it stops where it is and fades out at
/// once, taking the curve's fade time, and is hidden as long after as the curve's reset follows its fade start.
/// `cancel` (Stop, or a new navigation replacing this one) hides the bar at once: nothing more is coming.
public struct ProgressTracker: Sendable {
    public enum Phase: Equatable, Sendable {
        case idle, loading, finishing, fading, failed, cancelled
    }

    /// The curve for the next navigation; changing it never disturbs the one under way (no jumps).
    public var curve: ProgressCurve
    /// Off when the desktop asks for no animations (`gtk-enable-animations`): the bar stays opaque and vanishes
    /// when the fade would have ended, so the WeChat article's timing holds.
    public var fadesEnabled: Bool

    public private(set) var phase: Phase = .idle
    public private(set) var snapshot: ProgressSnapshot = .hidden

    private var active: ProgressCurve
    private var startTime = 0.0
    private var lastTick = 0.0
    private var endTime = 0.0
    private var endFraction = 0.0
    private var real: Double?

    /// Comparisons of instants allow for 0.1 s steps not adding up exactly.
    private static let epsilon = 1e-9

    public init(curve: ProgressCurve, fadesEnabled: Bool = true) {
        self.curve = curve
        self.active = curve
        self.fadesEnabled = fadesEnabled
    }

    /// Seconds since the current navigation started.
    public var elapsed: Double { max(0, lastTick - startTime) }

    /// A navigation starts; any earlier one is forgotten.
    public mutating func start(at time: Double) {
        active = curve
        phase = .loading
        startTime = time
        lastTick = time
        real = nil
        snapshot = ProgressSnapshot(fraction: active.value(at: 0), opacity: 1, visible: true)
    }

    /// Bytes arrived. `expected` nil (chunked, close-delimited, 204/304) is normal: then the curve alone decides.
    /// Only a value above the curve's hold counts (the WeChat article); without a rate limit it shows at once.
    public mutating func realProgress(received: Int64, expected: Int64?) {
        guard phase == .loading, let expected, expected > 0 else { return }
        let value = min(max(Double(received) / Double(expected), 0), 1)
        real = value
        if active.realProgressRate == nil, counts(value) {
            snapshot.fraction = max(snapshot.fraction, value)
        }
    }

    /// The clock moved on: follow the curve, catch up with real progress, finish, fade or reset.
    public mutating func tick(now: Double) {
        let delta = max(0, now - lastTick)
        lastTick = max(lastTick, now)
        switch phase {
        case .idle, .cancelled:
            break
        case .loading:
            var fraction = max(snapshot.fraction, active.value(at: now - startTime))
            if let real, counts(real) {
                if let rate = active.realProgressRate {
                    fraction = max(fraction, min(real, snapshot.fraction + rate * delta))
                } else {
                    fraction = max(fraction, real)
                }
            }
            snapshot.fraction = min(fraction, 1)
        case .finishing, .fading:
            updateFinish(now: now)
        case .failed:
            updateFailure(now: now)
        }
    }

    /// The page loaded: go to 1.0 as the curve's finish says, stay, fade, reset.
    public mutating func finish(at time: Double) {
        guard phase == .loading else { return }
        tick(now: time)
        phase = .finishing
        endTime = time
        endFraction = snapshot.fraction
        updateFinish(now: time)
    }

    /// The main document failed: the bar stops where it is and fades out at once.
    public mutating func fail(at time: Double) {
        guard phase == .loading else { return }
        tick(now: time)
        phase = .failed
        endTime = time
        updateFailure(now: time)
    }

    /// The load was stopped or replaced: the bar goes at once.
    public mutating func cancel(at time: Double) {
        guard phase != .idle else { return }
        lastTick = max(lastTick, time)
        phase = .cancelled
        snapshot = .hidden
    }

    private func counts(_ value: Double) -> Bool {
        guard let hold = active.hold else { return true }
        return value > hold
    }

    private mutating func updateFinish(now: Double) {
        let rules = active.finish
        let e = now - endTime + Self.epsilon
        if e >= rules.reset {
            phase = .idle
            snapshot = .hidden
            return
        }
        let share = rules.duration > 0 ? rules.easing((now - endTime) / rules.duration) : 1
        let fraction = max(snapshot.fraction, endFraction + (1 - endFraction) * share)
        if e >= rules.fadeStart { phase = .fading }
        snapshot = ProgressSnapshot(fraction: min(fraction, 1),
                                    opacity: opacity(elapsed: now - endTime, fadeStart: rules.fadeStart,
                                                     fadeEnd: rules.fadeEnd),
                                    visible: true)
    }

    private mutating func updateFailure(now: Double) {
        let rules = active.finish
        let e = now - endTime
        if e + Self.epsilon >= rules.reset - rules.fadeStart {
            snapshot = .hidden
            return
        }
        snapshot.opacity = opacity(elapsed: e, fadeStart: 0, fadeEnd: rules.fadeEnd - rules.fadeStart)
        snapshot.visible = true
    }

    private func opacity(elapsed e: Double, fadeStart: Double, fadeEnd: Double) -> Double {
        if e + Self.epsilon >= fadeEnd { return 0 }
        if !fadesEnabled || e - Self.epsilon <= fadeStart { return 1 }
        return min(max(1 - (e - fadeStart) / (fadeEnd - fadeStart), 0), 1)
    }
}
