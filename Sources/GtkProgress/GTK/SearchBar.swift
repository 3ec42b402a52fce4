internal import CGtk

/// A GtkSearchBar holding a search entry, a "3 of 17" label, Previous/Next buttons and a close button: it
/// slides in above the page while searching.
package final class SearchBar: Widget {
    package let entry: SearchEntry
    package let matchLabel = Label()
    package let previous = Button(iconName: "go-up-symbolic", tooltip: L("Previous match (Shift+Return)"),
                                 accessibleName: L("Previous match"))
    package let next = Button(iconName: "go-down-symbolic", tooltip: L("Next match (Return)"),
                              accessibleName: L("Next match"))

    package init(placeholder: String) {
        entry = SearchEntry()
        super.init(retaining: gtk_search_bar_new())
        entry.placeholder = placeholder
        entry.setAccessible(name: L("Find in page"))
        entry.setSizeRequest(width: 280, height: -1)
        matchLabel.setAccessible(name: L("Matches"))
        matchLabel.setMargins(horizontal: 6, vertical: 0)
        let row = Box(vertical: false, spacing: 0)
        row.addCSSClass("linked")
        row.pack(entry)
        row.pack(previous)
        row.pack(next)
        let outer = Box(vertical: false, spacing: 6)
        outer.pack(row)
        outer.pack(matchLabel)
        add(outer)
        gtk_search_bar_connect_entry(cast(GtkSearchBar.self), entry.cast(GtkEntry.self))
        gtk_search_bar_set_show_close_button(cast(GtkSearchBar.self), 1)
    }

    /// Whether the bar is shown (GtkSearchBar's search mode).
    package var isOpen: Bool {
        get { gtk_search_bar_get_search_mode(cast(GtkSearchBar.self)) != 0 }
        set { gtk_search_bar_set_search_mode(cast(GtkSearchBar.self), newValue ? 1 : 0) }
    }

    /// The bar opened or closed (by us, its close button, or Escape in its entry).
    @discardableResult
    package func onOpenChanged(_ handler: @escaping () -> Void) -> SignalConnection {
        connect(.searchModeEnabledChanged) { (_: UnsafeMutableRawPointer?) in handler() }
    }
}

/// A GtkSearchEntry: reports the text after typing pauses (`search-changed`), as GTK's search entries do.
package final class SearchEntry: Entry {
    package init() { super.init(entry: gtk_search_entry_new()) }
    @discardableResult
    package func onSearchChanged(_ handler: @escaping () -> Void) -> SignalConnection { connect(.searchChanged, handler) }
}
