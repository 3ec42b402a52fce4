import FoundationEssentials
import Glibc

/// What the bar paints at each frame, from the tracker's latest state (the model, ticked every 0.1 s): the
/// fraction glides to the model's (`ProgressGlide`), the finish runs to 1.0 from where the bar is painted, the
/// fade falls frame by frame, and a stalled load pulses quietly. All of it is a function of the time passed in,
/// so a frame callback asks `frame(at:)` and tests ask at exact instants.
///
/// With animations off (`animated` false: reduced motion) the model's snapshot is painted as it is.
package struct ProgressMotion: Sendable {
    /// The stall pulse: the bar's opacity breathes down to 1 − depth and back once per period, slow and shallow
    /// enough to say "still waiting" without drawing the eye.
    package static let pulsePeriod = 2.0
    package static let pulseDepth = 0.4

    /// False paints the model directly: no glide, no pulse, no frames.
    package var animated: Bool

    private var navigation = -1
    private var model: ProgressSnapshot = .hidden
    private var fadesEnabled = true
    private var glide = ProgressGlide(at: 0, now: 0)
    private var lastAim = -Double.infinity
    private var ending: ProgressTracker.Ending?
    /// Where the bar was painted when the load ended.
    private var endFrom = 0.0
    private var pulse: Pulse?
    /// When `frameDue` last said yes.
    private var lastPainted = -Double.infinity

    private struct Pulse: Sendable {
        var start: Double
        /// When the pulse ends: at the end of the cycle in which the stall ended, where it is back at full.
        var end: Double?
    }

    package init(animated: Bool = true) { self.animated = animated }

    /// Takes the tracker's state at `time` (after every tick and every call that changed it).
    package mutating func follow(_ tracker: ProgressTracker, at time: Double) {
        let shown = tracker.snapshot
        fadesEnabled = tracker.fadesEnabled
        defer { model = shown }
        guard shown.visible else {
            navigation = tracker.navigation
            ending = nil
            pulse = nil
            return
        }
        if tracker.navigation != navigation || !model.visible {
            // A new navigation, or the bar appearing: it shows where the model is, with no glide from elsewhere.
            navigation = tracker.navigation
            glide = ProgressGlide(at: shown.fraction, now: time)
            lastAim = time
            ending = nil
            pulse = nil
        } else if ending == nil, tracker.ending == nil, shown.fraction > glide.to {
            glide.aim(at: shown.fraction, now: time)
            lastAim = time
        }
        if ending == nil, let end = tracker.ending {
            ending = end
            endFrom = glide.value(at: min(time, end.start))
        }
        followStall(tracker.stalledSince, at: time)
    }

    private mutating func followStall(_ stalledSince: Double?, at time: Double) {
        let period = Self.pulsePeriod
        if let stalledSince, ending == nil {
            if let current = pulse, current.end.map({ time < $0 }) ?? true {
                pulse?.end = nil
            } else {
                pulse = Pulse(start: stalledSince, end: nil)
            }
        } else if let current = pulse, current.end == nil {
            pulse?.end = current.start + (max(0, time - current.start) / period).rounded(.up) * period
        }
    }

    /// What to paint at `time`.
    package func frame(at time: Double) -> ProgressSnapshot {
        guard model.visible else { return .hidden }
        guard animated else { return model }
        var fraction = glide.value(at: time)
        var opacity = 1.0
        if let ending {
            if time + ProgressTracker.epsilon >= ending.reset { return .hidden }
            fraction = ending.fraction(from: endFrom, at: time)
            opacity = ending.opacity(at: time, fadesEnabled: fadesEnabled)
        }
        opacity *= pulseFactor(at: time)
        return ProgressSnapshot(fraction: min(fraction, 1), opacity: opacity, visible: true, tone: model.tone)
    }

    /// Whether frames at `time` still change what is painted (or will within a tick): the frame callback runs
    /// only while this holds.
    package func isMoving(at time: Double) -> Bool {
        guard animated, model.visible else { return false }
        if let ending { return time < ending.reset }
        // Within a tick and a half of the last aim the next one is due: the callback stays rather than going and
        // coming back ten times a second.
        if !glide.isSettled(at: time) || time - lastAim < ProgressGlide.shortest * 1.5 { return true }
        if let pulse, pulse.end.map({ time < $0 }) ?? true { return true }
        return false
    }

    /// While a load stalls the bar only breathes and creeps along the curve's slow end: half the frame rate is as
    /// smooth to the eye there, and halves what waiting on a silent server costs (each painted frame also repaints
    /// the page under the strip). Everywhere else every frame is painted.
    package static let stalledFrameInterval = 1.0 / 30

    /// Whether the frame at `time` is to be painted; a frame skipped while stalled leaves the last one on screen.
    package mutating func frameDue(at time: Double) -> Bool {
        guard isPulsing(at: time), ending == nil else {
            lastPainted = time
            return true
        }
        // A frame a little early (frame clocks jitter) counts as on time: a quarter frame at 60 Hz of slack.
        guard time - lastPainted >= Self.stalledFrameInterval - 0.004 else { return false }
        lastPainted = time
        return true
    }

    /// Whether the stall pulse runs at `time`.
    package func isPulsing(at time: Double) -> Bool {
        guard animated, let pulse else { return false }
        return time >= pulse.start && pulse.end.map { time < $0 } ?? true
    }

    private func pulseFactor(at time: Double) -> Double {
        guard let pulse, time >= pulse.start, pulse.end.map({ time < $0 }) ?? true else { return 1 }
        let phase = (time - pulse.start) / Self.pulsePeriod
        return 1 - Self.pulseDepth * (1 - cos(2 * Double.pi * phase)) / 2
    }
}
