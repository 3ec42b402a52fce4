import FoundationEssentials

/// The reader's bookmarks, in the order they were added: Ctrl+D (or the star in the header bar) adds the page
/// shown or takes it away; the menu lists them; words typed in the address entry are looked up in them. Kept in
/// XBEL by GLib's GBookmarkFile (`BookmarkFile`).
package struct Bookmarks: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package var url: URL
        package var title: String

        package init(url: URL, title: String) {
            self.url = url
            self.title = title
        }
    }

    package private(set) var entries: [Entry]
    /// The most bookmarks kept; adding past it is refused with a message rather than losing the oldest.
    package static let maxEntries = 5000

    package init(entries: [Entry] = []) {
        var seen = Set<URL>()
        self.entries = entries.filter { seen.insert($0.url).inserted }.prefix(Self.maxEntries).map { $0 }
    }

    package func contains(_ url: URL) -> Bool { entries.contains { $0.url == Self.key(url) } }

    /// Adds `url` (titled as the window is) or, bookmarked already, removes it. Returns whether it is now
    /// bookmarked; nil when it could not be added (too many, or an address too long to keep).
    @discardableResult
    package mutating func toggle(_ url: URL, title: String?) -> Bool? {
        let key = Self.key(url)
        if let index = entries.firstIndex(where: { $0.url == key }) {
            entries.remove(at: index)
            return false
        }
        guard entries.count < Self.maxEntries, key.absoluteString.utf8.count <= BrowsingHistory.maxURLBytes else {
            return nil
        }
        entries.append(Entry(url: key, title: SessionState.cutTitle(ChromeState.windowTitle(url: key, title: title))))
        return true
    }

    /// The bookmarks whose title or address holds every word of `query`, case ignored.
    package func matches(_ query: String, limit: Int = .max) -> [Entry] {
        let words = query.lowercased().split(whereSeparator: { $0.isWhitespace })
        var found: [Entry] = []
        for entry in entries where found.count < limit {
            let haystack = (entry.title + " " + AddressInput.displayString(entry.url)).lowercased()
            if words.allSatisfy({ haystack.contains($0) }) { found.append(entry) }
        }
        return found
    }

    /// A bookmark is for the page, not for a place in it, and never holds a password.
    static func key(_ url: URL) -> URL {
        let stored = SessionState.stored(url)
        return URL(string: stored) ?? url
    }
}
