import FoundationEssentials

/// The addresses visited, shared by all windows, for the visited-link colour (CSS `:visited`). The newest
/// `capacity` are kept, in order, so the session can save them.
public final class VisitedLinks {
    public let capacity: Int
    private var order: [String] = []
    private var set: Set<String> = []

    public init(capacity: Int = SessionState.maxVisited, restoring urls: [URL] = []) {
        self.capacity = capacity
        for url in urls { insert(url) }
    }

    /// Visiting `url#part` visits `url#part`: links compare by their whole address, as browsers do.
    public func insert(_ url: URL) {
        let key = url.absoluteString
        if set.contains(key) {
            order.removeAll { $0 == key }
        } else {
            set.insert(key)
        }
        order.append(key)
        if order.count > capacity {
            let dropped = order.removeFirst()
            set.remove(dropped)
        }
    }

    public func contains(_ url: URL) -> Bool { set.contains(url.absoluteString) }

    /// Oldest first.
    public var urls: [URL] { order.compactMap(URL.init(string:)) }
}
