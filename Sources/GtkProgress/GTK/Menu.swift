internal import CGtk

/// A context menu built for one popup: labelled items that run a closure, and separators.
package final class Menu: Widget {
    package init() { super.init(retaining: gtk_menu_new()) }

    /// Adds an item; `mnemonic` labels use `_` before the access key ("Open Link in New _Window").
    package func addItem(_ mnemonic: String, sensitive: Bool = true, action: @escaping () -> Void) {
        let item = gtk_menu_item_new_with_mnemonic(mnemonic)!
        gtk_widget_set_sensitive(item, sensitive ? 1 : 0)
        let wrapper: Widget = Widget(retaining: UnsafeMutableRawPointer(item))
        wrapper.connect(.activate, action)
        withExtendedLifetime(wrapper) { gtk_menu_shell_append(cast(GtkMenuShell.self), item) }
    }

    package func addSeparator() {
        gtk_menu_shell_append(cast(GtkMenuShell.self), gtk_separator_menu_item_new())
    }

    /// The labels of the items, in order (separators are "-"), for tests.
    package var itemLabels: [String] {
        var labels: [String] = []
        var list = gtk_container_get_children(cast(GtkContainer.self))
        let head = list
        while let node = list {
            let child = node.pointee.data.assumingMemoryBound(to: GtkWidget.self)
            if let label = gtk_menu_item_get_label(UnsafeMutableRawPointer(child).assumingMemoryBound(to: GtkMenuItem.self)) {
                labels.append(String(String(cString: label).filter { $0 != "_" }))
            } else {
                labels.append("-")
            }
            list = node.pointee.next
        }
        g_list_free(head)
        return labels
    }

    /// Pops up at the pointer (a click) or, with no pointer event, at `rect` of `widget` (the menu key).
    /// The owner keeps the menu until the next one and then `destroy()`s it.
    package func popup(over widget: Widget, at rect: Rect?) {
        gtk_widget_show_all(self.widget)
        gtk_menu_attach_to_widget(cast(GtkMenu.self), widget.widget, nil)
        let event = gtk_get_current_event()
        defer { if let event { gdk_event_free(event) } }
        if let rect, event == nil || gdk_event_get_event_type(event) == GDK_KEY_PRESS {
            var area = GdkRectangle(x: Int32(rect.x), y: Int32(rect.y), width: Int32(max(rect.width, 1)),
                                    height: Int32(max(rect.height, 1)))
            gtk_menu_popup_at_rect(cast(GtkMenu.self), gtk_widget_get_window(widget.widget), &area,
                                   GDK_GRAVITY_SOUTH_WEST, GDK_GRAVITY_NORTH_WEST, event)
        } else {
            gtk_menu_popup_at_pointer(cast(GtkMenu.self), event)
        }
    }
}

/// The desktop's clipboard (Ctrl+C / Ctrl+V), not the X primary selection.
package enum Clipboard {
    package static func setText(_ text: String) {
        let clipboard = gtk_clipboard_get(gdk_atom_intern("CLIPBOARD", 0))
        gtk_clipboard_set_text(clipboard, text, -1)
        // Kept after the viewer exits, where a clipboard manager runs.
        gtk_clipboard_store(clipboard)
    }
}

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
package final class SearchEntry: Widget {
    package init() { super.init(retaining: gtk_search_entry_new()) }
    package var text: String {
        get { String(cString: gtk_entry_get_text(cast(GtkEntry.self))) }
        set { gtk_entry_set_text(cast(GtkEntry.self), newValue) }
    }
    package var placeholder: String {
        get { String(cString: gtk_entry_get_placeholder_text(cast(GtkEntry.self))) }
        set { gtk_entry_set_placeholder_text(cast(GtkEntry.self), newValue) }
    }
    package func selectAll() { gtk_editable_select_region(OpaquePointer(object), 0, -1) }
    @discardableResult
    package func onSearchChanged(_ handler: @escaping () -> Void) -> SignalConnection { connect(.searchChanged, handler) }
}

