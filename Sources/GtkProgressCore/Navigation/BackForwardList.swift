import FoundationEssentials

/// One page in the history. `page` is the cached rendered document, shown again by Back and Forward without a
/// network request (the UIWebView analysis, §3.1.4: the page cache).
public struct HistoryEntry<Page> {
    public var url: URL
    public var title: String?
    public var scrollOffset: Double
    public var page: Page?
    /// The entry shows an error page: Reload retries `url`.
    public var isError: Bool

    public init(url: URL, title: String? = nil, scrollOffset: Double = 0, page: Page? = nil, isError: Bool = false) {
        self.url = url; self.title = title; self.scrollOffset = scrollOffset; self.page = page; self.isError = isError
    }
}

/// The back/forward list: entries and the current index, with the rules of a browser.
public struct BackForwardList<Page> {
    public private(set) var entries: [HistoryEntry<Page>] = []
    /// -1 while the list is empty.
    public private(set) var currentIndex = -1
    /// Oldest entries are dropped beyond this many.
    public let capacity: Int

    public init(capacity: Int = 50) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    public var current: HistoryEntry<Page>? { entries.indices.contains(currentIndex) ? entries[currentIndex] : nil }
    public var canGoBack: Bool { currentIndex > 0 }
    public var canGoForward: Bool { currentIndex + 1 < entries.count }

    /// A new page from the middle of the history drops the forward entries, as every browser does.
    public mutating func push(_ entry: HistoryEntry<Page>) {
        if currentIndex + 1 < entries.count { entries.removeSubrange((currentIndex + 1)...) }
        entries.append(entry)
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        currentIndex = entries.count - 1
    }

    /// Replaces the current entry (redirect, meta refresh, reload); pushes when the list is empty.
    public mutating func replaceCurrent(_ entry: HistoryEntry<Page>) {
        guard current != nil else { push(entry); return }
        entries[currentIndex] = entry
    }

    /// Makes `index` current; returns false when there is no such entry.
    @discardableResult
    public mutating func move(to index: Int) -> Bool {
        guard entries.indices.contains(index) else { return false }
        currentIndex = index
        return true
    }

    /// Replaces the entry at `index`, which must exist.
    public mutating func update(at index: Int, _ change: (inout HistoryEntry<Page>) -> Void) {
        guard entries.indices.contains(index) else { return }
        change(&entries[index])
    }
}
