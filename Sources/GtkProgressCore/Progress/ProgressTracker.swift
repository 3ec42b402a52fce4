/// The bar's state machine for one navigation at a time, with the clock passed in (seconds on any monotonic scale)
/// so it can be tested at exact instants. It is the model: it moves on the 0.1 s tick, and `ProgressMotion` turns
/// it into what is painted at the display's frame rate.
///
/// idle → loading → finishing → fading → idle, and from loading also failed (→ idle) or cancelled. `start` from any
/// phase begins a new navigation. Within one navigation the fraction never moves backwards.
///
/// While loading, the fraction is the highest of: the curve at the time elapsed, the levels of the milestones
/// reached, and real progress once it is above the curve's hold. A load that ends before the curve's
/// `appearAfter` never shows the bar. A failed load must not look like a success, so `fail` never fills the bar:
/// it turns the error tone where it stands and fades as a finish would. `cancel` (Stop, or a new navigation
/// replacing this one) hides the bar at once: nothing more is coming.
package struct ProgressTracker: Sendable {
    package enum Phase: Equatable, Sendable {
        case idle, loading, finishing, fading, failed, cancelled
    }

    /// How the bar leaves once the load is over, as instants on the clock's scale, so a painter can evaluate it
    /// at its own frame times: the run to 1.0 (none for a failure), the fade, and the reset.
    package struct Ending: Equatable, Sendable {
        /// When the load finished or failed.
        package var start: Double
        package var failed: Bool
        package var runDuration: Double
        package var runEasing: Easing
        /// Opacity is 1 until `fadeStart` and falls linearly to 0 at `fadeEnd`.
        package var fadeStart: Double
        package var fadeEnd: Double
        /// The bar is hidden and its width back to 0.
        package var reset: Double

        /// The run from `fraction` (where the bar stood at `start`) at `time`; a failure stays where it stood.
        package func fraction(from fraction: Double, at time: Double) -> Double {
            guard !failed else { return fraction }
            let share = runDuration > 0 ? runEasing((time - start) / runDuration) : 1
            return min(1, fraction + (1 - fraction) * share)
        }

        /// Without fades (`gtk-enable-animations` off) the bar stays opaque and vanishes when the fade would have
        /// ended, so the timing holds.
        package func opacity(at time: Double, fadesEnabled: Bool) -> Double {
            if time + epsilon >= fadeEnd { return 0 }
            if !fadesEnabled || time - epsilon <= fadeStart { return 1 }
            return min(max(1 - (time - fadeStart) / (fadeEnd - fadeStart), 0), 1)
        }
    }

    /// A local load (a file) appears only if it is still running after this long, whatever the curve says: it
    /// waits for no network, and a bar for it would only flash.
    package static let localAppearAfter = 0.25

    /// Real progress shows no higher until the load is over: 1.0 only when the document and every subresource
    /// are done (WebKit's `ProgressTracker`), so a bar full before its images are in never looks finished.
    package static let unfinishedCeiling = 0.99
    /// The part of the bar the document's own bytes fill once the page is known to have subresources (Blink's
    /// `progress_tracker.cc` gives loading bytes half the bar); the subresources' estimate fills the rest.
    package static let documentShare = 0.5

    /// Seconds without a byte (or a milestone) after which the load counts as stalled: the window says whom it
    /// is waiting for and the bar pulses quietly.
    package static let stallAfter = 3.0

    /// The curve for the next navigation; changing it never disturbs the one under way (no jumps).
    package var curve: ProgressCurve
    /// Off when the desktop asks for no animations (`gtk-enable-animations`).
    package var fadesEnabled: Bool

    package private(set) var phase: Phase = .idle
    package private(set) var snapshot: ProgressSnapshot = .hidden
    /// Counts navigations, so a painter knows when one began anew (and jumps rather than gliding back).
    package private(set) var navigation = 0
    /// Set once the load is over, until the bar is reset.
    package private(set) var ending: Ending?
    /// When the load stalled (no byte for `stallAfter` seconds); nil while it moves.
    package private(set) var stalledSince: Double?
    /// When the bar appeared in this navigation; nil while `appearAfter` has not passed.
    package private(set) var appearedAt: Double?

    private var active: ProgressCurve
    /// The curve's own clock starts here; a milestone moves it earlier.
    private var curveStart = 0.0
    private var navigationStart = 0.0
    /// Seconds after the start before the bar may appear, for this navigation.
    private var appearAfter = 0.0
    private var lastTick = 0.0
    private var lastActivity = 0.0
    private var lastReceived: Int64 = 0
    /// The model's fraction while loading, shown or not.
    private var fraction = 0.0
    /// Where the bar stood when the load ended: the finish's run starts there.
    private var endFraction = 0.0
    private var real: Double?
    /// What the document's bytes weigh: 1 until `expectSubresources`, then `documentShare`.
    private var documentWeight = 1.0

    /// Comparisons of instants allow for 0.1 s steps not adding up exactly.
    static let epsilon = 1e-9
    private var epsilon: Double { Self.epsilon }

    package init(curve: ProgressCurve, fadesEnabled: Bool = true) {
        self.curve = curve
        self.active = curve
        self.fadesEnabled = fadesEnabled
    }

    /// Seconds since the current navigation started.
    package var elapsed: Double { max(0, lastTick - navigationStart) }

    /// Whether the tracker needs its tick: from the start until the bar is reset.
    package var isActive: Bool {
        switch phase {
        case .loading, .finishing, .fading, .failed: return true
        case .idle, .cancelled: return false
        }
    }

    package var isStalled: Bool { stalledSince != nil }

    /// A navigation starts; any earlier one is forgotten. `isLocal` (a file) delays the bar by at least
    /// `localAppearAfter`.
    package mutating func start(at time: Double, isLocal: Bool = false) {
        active = curve
        phase = .loading
        navigation += 1
        curveStart = time
        navigationStart = time
        lastTick = time
        lastActivity = time
        lastReceived = 0
        real = nil
        documentWeight = 1
        ending = nil
        stalledSince = nil
        fraction = active.value(at: 0)
        appearAfter = isLocal ? max(active.appearAfter, Self.localAppearAfter) : active.appearAfter
        appearedAt = appearAfter <= epsilon ? time : nil
        showLoading()
    }

    /// Bytes arrived at `time`. `expected` nil (chunked, close-delimited, 204/304) is normal: then the curve alone
    /// decides. Only a value above the curve's hold counts (the WeChat article); without a rate limit it shows at once.
    package mutating func realProgress(received: Int64, expected: Int64?, at time: Double) {
        guard phase == .loading else { return }
        if received > lastReceived {
            lastReceived = received
            noteActivity(at: time)
        }
        guard let expected, expected > 0 else { return }
        let value = min(max(Double(received) / Double(expected), 0), 1) * documentWeight
        setReal(value)
    }

    /// The page has subresources (its images) to wait for: from now on the document's bytes fill
    /// `documentShare` of the bar and `subresourceProgress` the rest.
    package mutating func expectSubresources() {
        guard phase == .loading else { return }
        documentWeight = Self.documentShare
    }

    /// The subresources' estimate (`ResourceProgress.value`, 0 … 1) at `time`, after the document is in. It is
    /// never shown backwards, and never full before `finish`.
    package mutating func subresourceProgress(_ estimate: Double, at time: Double) {
        guard phase == .loading else { return }
        expectSubresources()
        let value = documentWeight + (1 - documentWeight) * min(max(estimate, 0), 1)
        if value > (real ?? 0) + Self.epsilon { noteActivity(at: time) }
        setReal(max(real ?? 0, value))
    }

    private mutating func setReal(_ proposed: Double) {
        let value = min(proposed, Self.unfinishedCeiling)
        real = value
        if active.realProgressRate == nil, counts(value) {
            fraction = max(fraction, value)
            showLoading()
        }
    }

    /// The load reached `milestone` at `time`: the bar rises at least to the curve's level for it, and the curve's
    /// clock moves forward to where the curve reaches that level, so the bar goes on at the curve's pace.
    package mutating func milestone(_ milestone: LoadMilestone, at time: Double) {
        guard phase == .loading else { return }
        noteActivity(at: time)
        guard let level = active.milestones[milestone] else { return }
        if let reached = active.time(reaching: level), time - curveStart < reached {
            curveStart = time - reached
        }
        fraction = min(max(fraction, level), 1)
        showLoading()
    }

    /// The clock moved on: follow the curve, catch up with real progress, appear, notice a stall, finish, fade or
    /// reset.
    package mutating func tick(now: Double) {
        let delta = max(0, now - lastTick)
        lastTick = max(lastTick, now)
        switch phase {
        case .idle, .cancelled:
            break
        case .loading:
            var next = max(fraction, active.value(at: now - curveStart))
            if let real, counts(real) {
                if let rate = active.realProgressRate {
                    next = max(next, min(real, fraction + rate * delta))
                } else {
                    next = max(next, real)
                }
            }
            fraction = min(next, 1)
            if appearedAt == nil, now - navigationStart + epsilon >= appearAfter { appearedAt = now }
            if stalledSince == nil, now - lastActivity + epsilon >= Self.stallAfter {
                stalledSince = lastActivity + Self.stallAfter
            }
            showLoading()
        case .finishing, .fading, .failed:
            showEnding(now: now)
        }
    }

    /// The page loaded: go to 1.0 as the curve's finish says, stay, fade, reset. A bar that has not appeared yet
    /// never does.
    package mutating func finish(at time: Double) {
        end(at: time, failed: false)
    }

    /// The main document failed: the bar stops where it is in the error tone, stays, and fades as a finish would.
    package mutating func fail(at time: Double) {
        end(at: time, failed: true)
    }

    /// The load was stopped or replaced: the bar goes at once.
    package mutating func cancel(at time: Double) {
        guard phase != .idle else { return }
        lastTick = max(lastTick, time)
        phase = .cancelled
        ending = nil
        stalledSince = nil
        snapshot = .hidden
    }

    private mutating func end(at time: Double, failed: Bool) {
        guard phase == .loading else { return }
        tick(now: time)
        stalledSince = nil
        guard let appearedAt else {
            phase = .idle
            snapshot = .hidden
            return
        }
        endFraction = fraction
        let rules = active.finish
        // The fade waits until the bar has been on screen for `minimumVisible`.
        let shift = max(0, appearedAt + active.minimumVisible - (time + rules.fadeStart))
        ending = Ending(start: time, failed: failed, runDuration: rules.duration, runEasing: rules.easing,
                        fadeStart: time + rules.fadeStart + shift, fadeEnd: time + rules.fadeEnd + shift,
                        reset: time + rules.reset + shift)
        phase = failed ? .failed : .finishing
        showEnding(now: time)
    }

    private mutating func noteActivity(at time: Double) {
        lastActivity = max(lastActivity, time)
        stalledSince = nil
    }

    private func counts(_ value: Double) -> Bool {
        guard let hold = active.hold else { return true }
        return value > hold
    }

    private mutating func showLoading() {
        snapshot = appearedAt == nil ? .hidden : ProgressSnapshot(fraction: fraction, opacity: 1, visible: true)
    }

    private mutating func showEnding(now: Double) {
        guard let ending else { return }
        if now + epsilon >= ending.reset {
            phase = .idle
            self.ending = nil
            snapshot = .hidden
            return
        }
        if !ending.failed {
            fraction = max(fraction, ending.fraction(from: endFraction, at: now))
            if now + epsilon >= ending.fadeStart { phase = .fading }
        }
        snapshot = ProgressSnapshot(fraction: fraction, opacity: ending.opacity(at: now, fadesEnabled: fadesEnabled),
                                    visible: true, tone: ending.failed ? .failure : .normal)
    }
}
