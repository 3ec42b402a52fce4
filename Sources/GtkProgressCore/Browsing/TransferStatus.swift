/// How much of a document has arrived, for the status while it is received: "1.2 MB of 3.4 MB, 240.0 KB/s", or
/// without a length "1.2 MB so far, 240.0 KB/s". Sizes are written as everywhere else (`ByteCount.size`).
package struct TransferStatus: Sendable, Equatable {
    /// Transfer bytes so far, and the length announced (`Content-Length`), if any.
    package var received: Int64
    package var expected: Int64?
    /// Bytes per second over the last few seconds; nil until there is enough to say.
    package var bytesPerSecond: Double?

    package init(received: Int64, expected: Int64?, bytesPerSecond: Double?) {
        self.received = received
        self.expected = expected
        self.bytesPerSecond = bytesPerSecond
    }

    package var description: String {
        let got = ByteCount.size(max(received, 0))
        // Clamped: a rate is a Double, and Int64(_:) traps outside its range.
        let rate = bytesPerSecond.map { ByteCount.size($0.isFinite ? Int64(min(max($0, 0), 9e18).rounded()) : 0) }
        // An announced length the transfer has passed (a lying server) is no longer said.
        if let expected, expected > 0, expected >= received {
            let total = ByteCount.size(expected)
            return rate.map { L("%@ of %@, %@/s", got, total, $0) } ?? L("%@ of %@", got, total)
        }
        return rate.map { L("%@ so far, %@/s", got, $0) } ?? L("%@ so far", got)
    }
}

/// The rate of a transfer, from samples of its byte count over a sliding window of time, so that it follows a
/// connection that speeds up or stalls instead of averaging over the whole load.
package struct TransferRate: Sendable {
    /// Seconds of samples kept.
    package static let window = 3.0
    /// Under this span of samples there is no rate to tell yet.
    package static let minimumSpan = 0.5
    private var samples: [(time: Double, bytes: Int64)] = []

    package init() {}

    /// Notes `bytes` received by `time` (seconds, monotonic). Samples older than the window go, so the count
    /// kept is bounded by the events of three seconds.
    package mutating func note(bytes: Int64, at time: Double) {
        if let last = samples.last, time < last.time || bytes < last.bytes { samples.removeAll() }
        samples.append((time, bytes))
        let cutoff = time - Self.window
        if let keep = samples.firstIndex(where: { $0.time >= cutoff }), keep > 0 {
            // One sample older than the window is kept as the start, so the span is the whole window.
            samples.removeFirst(keep - 1)
        }
    }

    /// Bytes per second over the window up to `time`, or nil when the samples span less than `minimumSpan`. A
    /// stall counts: the span runs to now, not to the last byte.
    package func bytesPerSecond(at time: Double) -> Double? {
        guard let last = samples.last else { return nil }
        let cutoff = max(time, last.time) - Self.window
        let start = samples.last { $0.time <= cutoff } ?? samples[0]
        let span = max(time, last.time) - start.time
        guard span >= Self.minimumSpan else { return nil }
        return Double(last.bytes - start.bytes) / span
    }
}
