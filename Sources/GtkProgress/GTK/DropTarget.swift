internal import CGtk

/// What arrived in a drop: the selection's target name and its bytes.
package struct DroppedData: Sendable {
    package let target: String
    package let bytes: [UInt8]
    /// `text/uri-list` parsed by GTK, when the target carried URIs.
    package let uris: [String]

    /// Reads the target, the bytes and the URIs out of a `GtkSelectionData *`.
    init(_ selection: OpaquePointer) {
        let namePointer = gdk_atom_name(gtk_selection_data_get_target(selection))
        target = namePointer.map { String(cString: $0) } ?? ""
        g_free(namePointer)
        var length: Int32 = 0
        if let raw = gtk_selection_data_get_data_with_length(selection, &length), length > 0 {
            bytes = Array(UnsafeBufferPointer(start: raw, count: Int(length)))
        } else {
            bytes = []
        }
        var uris: [String] = []
        if let list = gtk_selection_data_get_uris(selection) {
            var i = 0
            while let uri = list[i] { uris.append(String(cString: uri)); i += 1 }
            g_strfreev(list)
        }
        self.uris = uris
    }
}

extension Widget {
    /// Makes this widget take drops of links, files and text. The handler returns whether the drop was used.
    /// GTK asks the source for the data, calls the handler and finishes the drag (GTK_DEST_DEFAULT_ALL).
    @discardableResult
    package func acceptDrops(_ handler: @escaping (DroppedData) -> Bool) -> SignalConnection {
        // Preferred first: the source hands over the first of these it offers.
        let targets = ["text/uri-list", "text/x-moz-url", "_NETSCAPE_URL", "text/plain;charset=utf-8",
                       "UTF8_STRING", "text/plain", "STRING", "TEXT"]
        let list = gtk_target_list_new(nil, 0)
        for (index, name) in targets.enumerated() {
            gtk_target_list_add(list, gdk_atom_intern(name, 0), 0, UInt32(index))
        }
        gtk_drag_dest_set(widget, GTK_DEST_DEFAULT_ALL, nil, 0,
                          GdkDragAction(rawValue: GDK_ACTION_COPY.rawValue | GDK_ACTION_LINK.rawValue
                                        | GDK_ACTION_MOVE.rawValue))
        gtk_drag_dest_set_target_list(widget, list)
        gtk_target_list_unref(list)

        return connect(.dragDataReceived) { (selection: OpaquePointer) in _ = handler(DroppedData(selection)) }
    }

    /// Stops this widget from taking drops itself, so they reach the window's handler (a read-only text view and
    /// an entry would otherwise swallow or insert them).
    ///
    /// The widget stays a drop site, with no targets and none of GTK's default handling: a text view sets its own
    /// target list whenever it gets a buffer (a new page, or the one GTK makes as the view is disposed), and on a
    /// widget that is no drop site that prints "Can't set a target list…". Its "drag-motion" and "drag-drop" are
    /// answered FALSE before its class handlers run, and GTK then looks for a drop site further up, as
    /// `gtk_drag_find_widget` does for a site that declines (gtk/gtkdnd.c): the window's.
    package func refuseOwnDrops() {
        gtk_drag_dest_set(widget, GtkDestDefaults(rawValue: 0), nil, 0, GdkDragAction(rawValue: 0))
        // The handlers hold the instance as a pointer, not the wrapper: a wrapper in a closure the object keeps
        // would keep the object alive.
        let instance = UnsafeMutableRawPointer(object)
        for signal in [Signal.dragMotion, .dragDrop] {
            connect(signal) { (_: Int, _: Int) in
                g_signal_stop_emission_by_name(instance, signal.rawValue)
                return false
            }
        }
    }
}
