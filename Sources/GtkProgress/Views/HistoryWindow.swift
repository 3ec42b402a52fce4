import FoundationEssentials

/// The History window (Ctrl+H), as GNOME Web's: a search entry over the pages visited, newest first, each its title
/// over its address and time; typing narrows the list (title and address), Return or a click opens the page in the
/// window that asked, and "Clear History" forgets it all. A search lists the matching bookmarks first.
@MainActor
package final class HistoryWindow {
    package let window: Window
    package let search = SearchEntry()
    package let list = ListBox()
    package let clear = Button(label: L("_Clear History"))
    private let store: HistoryStore
    private let bookmarks: BookmarkStore?
    /// The addresses the list shows, in its order.
    private var shown: [URL] = []
    /// At most this many rows: the search narrows further.
    static let rowLimit = 500

    /// With `bookmarks`, a search lists the bookmarks that match above the history's matches.
    package init(store: HistoryStore, bookmarks: BookmarkStore?, parent: Window, open: @escaping (URL) -> Void) {
        self.store = store
        self.bookmarks = bookmarks
        window = Window.transient(for: parent, title: L("History"), width: 640, height: 560)
        let header = HeaderBar()
        let title = Label(L("History"))
        title.addCSSClass("title")
        header.setCustomTitle(title)
        header.packEnd(clear)
        clear.addCSSClass("destructive-action")
        window.setTitlebar(header)
        // The title again once the header bar is in: GTK gives the window's accessible name from it then.
        window.title = L("History")
        window.setAccessible(name: L("History"))

        search.placeholder = L("Search history")
        search.setAccessible(name: L("Search history"))
        search.setMargins(horizontal: 12, vertical: 6)
        list.setAccessible(name: L("History"))
        let scrolled = ScrolledWindow()
        scrolled.add(list)
        scrolled.setExpand(horizontal: true, vertical: true)
        let column = Box(vertical: true)
        column.pack(search)
        column.pack(scrolled, expand: true)
        window.add(column)

        search.onSearchChanged { [weak self] in self?.fill() }
        // Return in the search entry opens the first match.
        search.onActivate { [weak self] in
            guard let self, !self.shown.isEmpty else { return }
            self.list.activateRow(0)
        }
        list.onRowActivated { [weak self] index in
            guard let self, self.shown.indices.contains(index) else { return }
            open(self.shown[index])
            self.window.close()
        }
        clear.onClicked { [weak self] in self?.store.clear() }
        store.onChange.append { [weak self] in self?.fill() }
        bookmarks?.onChange.append { [weak self] in self?.fill() }
        fill()
    }

    /// Shows the matches of `query` (words typed in the address entry that are no address).
    package func search(for query: String) {
        search.text = query
        fill()
    }

    package func present() {
        window.showAll()
        window.present()
        search.grabFocus()
    }

    private func fill() {
        let query = search.text
        let marked = query.trimmed().isEmpty ? [] : bookmarks?.bookmarks.matches(query, limit: 50) ?? []
        let visits = store.history.matches(query, limit: Self.rowLimit)
        shown = marked.map(\.url) + visits.map(\.url)
        let address = { (url: URL) in AddressInput.displayString(url, limit: BrowserWindow.statusLimit) }
        list.setRows(marked.map { ($0.title, L("Bookmark") + " · " + address($0.url)) }
            + visits.map { ($0.title, address($0.url) + " · " + Self.timeString($0.time)) })
        clear.isSensitive = !store.history.entries.isEmpty
    }

    /// "2026-11-24 05:12", in local time.
    static func timeString(_ seconds: Double) -> String { LocalTime.string(seconds) }
}
