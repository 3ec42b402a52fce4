import FoundationEssentials

/// The addresses visited, shared by all windows, for the visited-link colour (CSS `:visited`). The newest
/// `capacity` are kept, in order, so the session can save them.
package final class VisitedLinks {
    package let capacity: Int
    private var order: [String] = []
    private var set: Set<String> = []

    package init(capacity: Int = SessionState.maxVisited, restoring urls: [URL] = []) {
        self.capacity = capacity
        for url in urls { insert(url) }
    }

    /// Visiting `url#part` visits `url#part`: links compare by their whole address, as browsers do. Only
    /// addresses a page can be loaded from are kept (http, https, file): a `mailto:` or `data:` link is never
    /// visited, and a `data:` address can be megabytes the saved session would carry.
    package func insert(_ url: URL) {
        guard AddressShape.isOpenable(url) else { return }
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

    package func contains(_ url: URL) -> Bool { set.contains(url.absoluteString) }

    /// Oldest first.
    package var urls: [URL] { order.compactMap(URL.init(string:)) }
}
