import FoundationEssentials

/// The History window (Ctrl+H), as GNOME Web's: a search entry over the pages visited, newest first, each its title
/// over its address and time; typing narrows the list (title and address), Return or a click opens the page in the
/// window that asked, and "Clear History" forgets it all.
@MainActor
package final class HistoryWindow {
    package let window: Window
    package let search = SearchEntry()
    package let list = ListBox()
    package let clear = Button(label: L("_Clear History"))
    private let store: HistoryStore
    /// The entries the list shows, in its order.
    private var shown: [BrowsingHistory.Entry] = []
    /// At most this many rows: the search narrows further.
    static let rowLimit = 500

    package init(store: HistoryStore, parent: Window, open: @escaping (URL) -> Void) {
        self.store = store
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
            open(self.shown[index].url)
            self.window.close()
        }
        clear.onClicked { [weak self] in self?.store.clear() }
        store.onChange.append { [weak self] in self?.fill() }
        fill()
    }

    package func present() {
        window.showAll()
        window.present()
        search.grabFocus()
    }

    private func fill() {
        shown = store.history.matches(search.text, limit: Self.rowLimit)
        list.setRows(shown.map { entry in
            (entry.title, AddressInput.displayString(entry.url, limit: BrowserWindow.statusLimit) + " · "
                + Self.timeString(entry.time))
        })
        clear.isSensitive = !store.history.entries.isEmpty
    }

    /// "2026-11-24 05:12", in local time.
    static func timeString(_ seconds: Double) -> String { LocalTime.string(seconds) }
}
