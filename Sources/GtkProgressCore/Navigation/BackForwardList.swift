import FoundationEssentials

/// One page in the history. `page` is the cached rendered document, shown again by Back and Forward without a
/// network request (the UIWebView analysis, §3.1.4: the page cache).
package struct HistoryEntry<Page> {
    package var url: URL
    package var title: String?
    package var scrollOffset: Double
    package var page: Page?
    /// The entry shows an error page: Reload retries `url`.
    package var isError: Bool
    /// Entries with the same number show one document: a jump to a place in the page (`#fragment`) makes an entry
    /// of its own that shares the document it jumped in (WHATWG HTML, "navigate to a fragment").
    package var documentID: Int
    /// The form data the page was the answer to, sent by POST: loading it again sends the form again, which
    /// only the reader may ask for (`NavigationModel.reload`).
    package var formBody: [UInt8]?

    package init(url: URL, title: String? = nil, scrollOffset: Double = 0, page: Page? = nil, isError: Bool = false,
                documentID: Int = 0) {
        self.url = url; self.title = title; self.scrollOffset = scrollOffset; self.page = page; self.isError = isError
        self.documentID = documentID
    }
}

/// The back/forward list: entries and the current index, with the rules of a browser.
package struct BackForwardList<Page> {
    package private(set) var entries: [HistoryEntry<Page>] = []
    /// -1 while the list is empty.
    package private(set) var currentIndex = -1
    /// Oldest entries are dropped beyond this many.
    package let capacity: Int

    package init(capacity: Int = 50) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// A list as it was saved: the newest `capacity` entries, `currentIndex` clamped into them.
    package init(capacity: Int = 50, entries: [HistoryEntry<Page>], currentIndex: Int) {
        self.init(capacity: capacity)
        let dropped = max(entries.count - capacity, 0)
        self.entries = Array(entries.suffix(capacity))
        self.currentIndex = self.entries.isEmpty ? -1 : min(max(currentIndex - dropped, 0), self.entries.count - 1)
    }

    package var current: HistoryEntry<Page>? { entries.indices.contains(currentIndex) ? entries[currentIndex] : nil }
    package var canGoBack: Bool { currentIndex > 0 }
    package var canGoForward: Bool { currentIndex + 1 < entries.count }

    /// A new page from the middle of the history drops the forward entries, as every browser does.
    package mutating func push(_ entry: HistoryEntry<Page>) {
        if currentIndex + 1 < entries.count { entries.removeSubrange((currentIndex + 1)...) }
        entries.append(entry)
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        currentIndex = entries.count - 1
    }

    /// Replaces the current entry (redirect, meta refresh, reload); pushes when the list is empty.
    package mutating func replaceCurrent(_ entry: HistoryEntry<Page>) {
        guard current != nil else { push(entry); return }
        entries[currentIndex] = entry
    }

    /// Makes `index` current; returns false when there is no such entry.
    @discardableResult
    package mutating func move(to index: Int) -> Bool {
        guard entries.indices.contains(index) else { return false }
        currentIndex = index
        return true
    }

    /// Replaces the entry at `index`, which must exist.
    package mutating func update(at index: Int, _ change: (inout HistoryEntry<Page>) -> Void) {
        guard entries.indices.contains(index) else { return }
        change(&entries[index])
    }
}
