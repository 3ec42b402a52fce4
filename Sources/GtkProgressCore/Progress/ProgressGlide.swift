/// The painted fraction between two model ticks. Every 0.1 s the tracker's fraction moves on; the painted one
/// glides to it at the display's frame rate, as Core Animation's implicit animation smooths each 0.1 s assignment
/// to the WeChat bar's frame (the WeChat article). Stepped progress feels slower than smooth progress (Harrison et al.,
/// UIST 2007), and a 1600 px window would otherwise see the bar jump 27 px ten times a second.
///
/// A glide is linear from where the bar is painted to the target. It never moves backwards and never passes its
/// target, and it is a value: every question takes the time as an argument.
package struct ProgressGlide: Equatable, Sendable {
    /// A glide toward the curve's next step takes one model tick, so a steadily rising curve is painted at a
    /// steady speed one tick behind, with no pause at each tick.
    package static let shortest = 0.1
    /// Core Animation's implicit animation lasts 0.25 s: the longest a glide takes, however far it goes.
    package static let longest = 0.25
    /// Bar widths per second for a long catch-up (real progress or a milestone jumping ahead): between the two
    /// limits, a glide covers its distance at this speed.
    package static let cruise = 2.0

    package private(set) var from: Double
    /// The target: the model's fraction at its last tick.
    package private(set) var to: Double
    package private(set) var start: Double
    package private(set) var duration: Double

    /// A glide at rest at `value`.
    package init(at value: Double, now: Double) {
        from = value; to = value; start = now; duration = 0
    }

    /// The painted fraction at `time`.
    package func value(at time: Double) -> Double {
        guard duration > 0, time < start + duration else { return to }
        let share = max(0, (time - start) / duration)
        return from + (to - from) * share
    }

    /// Whether the glide has arrived at `time`.
    package func isSettled(at time: Double) -> Bool {
        duration <= 0 || from == to || time >= start + duration
    }

    /// Glides from wherever the bar is at `time` to `target`. A target below the painted value stops the bar
    /// where it is: it never moves back.
    package mutating func aim(at target: Double, now time: Double) {
        let current = value(at: time)
        from = current
        start = time
        guard target > current else {
            to = current
            duration = 0
            return
        }
        to = target
        duration = min(Self.longest, max(Self.shortest, (target - current) / Self.cruise))
    }
}
