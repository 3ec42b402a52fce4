/// When a page that is still arriving is rendered again. Each render parses everything that has arrived, so
/// rendering at a fixed interval costs the square of the page size; rendering only when the arrived bytes have
/// doubled keeps the sum of all renders under twice the final parse (1 + 1/2 + 1/4 + … < 2). A page that
/// trickles in slowly still shows its first screenfuls (and its `<title>`) within a second: while what has
/// arrived is small, it is rendered at most once a second whenever it grew.
package struct ProgressiveSchedule: Sendable, Equatable {
    /// Growth factor between renders.
    package static let factor = 2
    /// Below this size a render costs little: it may repeat once a second as bytes trickle in.
    package static let smallBytes = 64 * 1024
    package static let smallInterval = 1.0

    /// Bytes the last render saw, and when it ran.
    package private(set) var renderedBytes = 0
    package private(set) var renderedAt: Double?
    /// The total size of all renders so far, for tests and the benchmark.
    package private(set) var totalRenderedBytes = 0

    package init() {}

    /// Whether to render now that `arrived` bytes have come, at time `now` (seconds, any monotonic scale).
    package func isDue(arrived: Int, now: Double) -> Bool {
        guard arrived > renderedBytes else { return false }
        if arrived >= max(renderedBytes * Self.factor, 1) && renderedBytes > 0 { return true }
        guard arrived <= Self.smallBytes else { return renderedBytes == 0 }
        guard let renderedAt else { return true }
        return now - renderedAt >= Self.smallInterval
    }

    /// A render of `bytes` bytes started at `now`.
    package mutating func rendered(_ bytes: Int, at now: Double) {
        renderedBytes = bytes
        renderedAt = now
        totalRenderedBytes += bytes
    }
}
