internal import CGtk

/// What arrived in a drop: the selection's target name and its bytes.
package struct DroppedData: Sendable {
    package let target: String
    package let bytes: [UInt8]
    /// `text/uri-list` parsed by GTK, when the target carried URIs.
    package let uris: [String]
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

        typealias Box = ClosureBox<(DroppedData) -> Bool>
        let thunk: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, Int32, Int32, OpaquePointer?, UInt32,
                                   UInt32, UnsafeMutableRawPointer?) -> Void = { _, context, _, _, selection, _, time, data in
            guard let selection else { return }
            let targetAtom = gtk_selection_data_get_target(selection)
            let namePointer = gdk_atom_name(targetAtom)
            let target = namePointer.map { String(cString: $0) } ?? ""
            g_free(namePointer)
            var length: Int32 = 0
            var bytes: [UInt8] = []
            if let raw = gtk_selection_data_get_data_with_length(selection, &length), length > 0 {
                bytes = Array(UnsafeBufferPointer(start: raw, count: Int(length)))
            }
            var uris: [String] = []
            if let list = gtk_selection_data_get_uris(selection) {
                var i = 0
                while let uri = list[i] { uris.append(String(cString: uri)); i += 1 }
                g_strfreev(list)
            }
            _ = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
                .call(DroppedData(target: target, bytes: bytes, uris: uris))
            _ = context; _ = time
        }
        return connect("drag-data-received", thunk: unsafeBitCast(thunk, to: GCallback.self), box: Box(handler))
    }

    /// Stops this widget from taking drops itself, so they reach the window's handler (a read-only text view and
    /// an entry would otherwise swallow or insert them).
    package func refuseOwnDrops() { gtk_drag_dest_unset(widget) }
}
