internal import CGtk

/// A vertical list of rows a person can pick from (`GtkListBox`): each row here is a title over a line of
/// detail. <https://docs.gtk.org/gtk3/class.ListBox.html>
package final class ListBox: Widget {
    package init() {
        super.init(retaining: gtk_list_box_new())
        gtk_list_box_set_selection_mode(cast(GtkListBox.self), GTK_SELECTION_BROWSE)
        gtk_list_box_set_activate_on_single_click(cast(GtkListBox.self), 1)
    }

    /// Replaces every row: a row for each (title, detail), in order. The rows go in one pass, without a
    /// relayout for each.
    package func setRows(_ rows: [(title: String, detail: String)]) {
        var list = gtk_container_get_children(cast(GtkContainer.self))
        let head = list
        while let node = list {
            gtk_widget_destroy(node.pointee.data.assumingMemoryBound(to: GtkWidget.self))
            list = node.pointee.next
        }
        g_list_free(head)
        for row in rows {
            let title = Label(row.title)
            let detail = Label(row.detail)
            detail.addCSSClass("dim-label")
            let column = Box(vertical: true, spacing: 2)
            column.setMargins(horizontal: 12, vertical: 6)
            column.pack(title)
            column.pack(detail)
            let accessible = row.title + ", " + row.detail
            column.setAccessible(name: accessible)
            gtk_list_box_insert(cast(GtkListBox.self), column.widget, -1)
            if let parent = column.parentPointer {
                Widget(retaining: parent).setAccessible(name: accessible)
            }
        }
        gtk_widget_show_all(widget)
    }

    /// How many rows there are.
    package var rowCount: Int {
        let list = gtk_container_get_children(cast(GtkContainer.self))
        defer { g_list_free(list) }
        return Int(g_list_length(list))
    }

    /// A row was activated (clicked, or Return on it): its index.
    @discardableResult
    package func onRowActivated(_ handler: @escaping (Int) -> Void) -> SignalConnection {
        connect(.rowActivated) { (row: UnsafeMutableRawPointer?) in
            guard let row else { return }
            handler(Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self))))
        }
    }

    /// Activates row `index`, as a click would.
    package func activateRow(_ index: Int) {
        guard let row = gtk_list_box_get_row_at_index(cast(GtkListBox.self), Int32(index)) else { return }
        gtk_widget_activate(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self))
    }
}

extension ScrolledWindow {
    package func addChild(_ child: Widget) { add(child) }
}

extension Window {
    /// A plain top-level window kept above `parent` (a tool window: History).
    package static func transient(for parent: Window, title: String, width: Int, height: Int) -> Window {
        let window = Window()
        window.title = title
        window.setDefaultSize(width: width, height: height)
        gtk_window_set_transient_for(window.cast(GtkWindow.self), parent.cast(GtkWindow.self))
        gtk_window_set_destroy_with_parent(window.cast(GtkWindow.self), 1)
        return window
    }
}
