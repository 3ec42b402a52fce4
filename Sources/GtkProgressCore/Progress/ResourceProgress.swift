/// The estimated progress of a page's subresources (its images), as WebKit's `ProgressTracker` estimates a
/// load's (`Source/WebCore/loader/ProgressTracker.cpp`): each request not yet answered, and each response of unknown
/// length, counts as 16 KiB; a resource that overruns its estimate is re-estimated at twice what has arrived; each
/// chunk moves the value by `(ceiling − value) × bytes / remaining`, so it approaches the ceiling and never passes
/// it; the value is 1.0 only once every request is done (finished, failed or refused).
///
/// WebKit's value starts at 0.1 and its ceiling is 0.9; here the value runs from 0 to `ceiling` (1 − 0.1/0.9 of
/// the way, the same share), because the tracker places it on the part of the bar left after the document.
package struct ResourceProgress: Sendable, Equatable {
    /// `progressItemDefaultEstimatedLength` in WebKit.
    package static let defaultEstimate: Int64 = 16 * 1024
    /// Below 1 until everything is done (WebKit's `finalProgressValue` of 0.9 over its 0.1 … 1.0 range).
    package static let ceiling = 0.875

    private struct Item: Equatable, Sendable {
        var received: Int64 = 0
        var estimate: Int64 = ResourceProgress.defaultEstimate
    }

    private var items: [Int: Item] = [:]
    private var totalToLoad: Int64 = 0
    private var totalReceived: Int64 = 0
    /// The estimate, 0 … `ceiling` while requests are pending, 1 once all are done.
    package private(set) var value = 0.0

    package init() {}

    package var isComplete: Bool { items.isEmpty }

    /// A request starts; until its response says a length it counts as `defaultEstimate`.
    package mutating func begin(_ id: Int) {
        guard items[id] == nil else { return }
        items[id] = Item()
        totalToLoad += Self.defaultEstimate
        if value >= 1 { value = 0 }
    }

    /// The response's length (transfer bytes), nil when unknown: it replaces the estimate.
    package mutating func response(_ id: Int, expected: Int64?) {
        guard var item = items[id] else { return }
        let estimate = expected.flatMap { $0 > 0 ? $0 : nil } ?? Self.defaultEstimate
        totalToLoad += max(estimate, item.received) - item.estimate
        item.estimate = max(estimate, item.received)
        items[id] = item
    }

    /// `bytes` more arrived for request `id`.
    package mutating func received(_ id: Int, bytes: Int64) {
        guard bytes > 0, var item = items[id] else { return }
        item.received += bytes
        if item.received > item.estimate {
            // WebKit: "If we are going to receive more bytes than we estimated, adjust the estimate."
            totalToLoad += item.received * 2 - item.estimate
            item.estimate = item.received * 2
        }
        items[id] = item
        let remaining = totalToLoad - totalReceived
        let share = remaining > 0 ? min(Double(bytes) / Double(remaining), 1) : 1
        value += (Self.ceiling - value) * share
        totalReceived += bytes
    }

    /// Request `id` is done, whatever its outcome. The value reaches 1.0 when the last one is.
    package mutating func complete(_ id: Int) {
        guard let item = items.removeValue(forKey: id) else { return }
        // What was estimated and never came no longer waits to be received.
        totalToLoad -= item.estimate - item.received
        if items.isEmpty { value = 1 }
    }
}
