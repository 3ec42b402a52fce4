internal import CGtk

/// The desktop's clipboard (Ctrl+C / Ctrl+V), not the X primary selection.
@MainActor
package enum Clipboard {
    package static func setText(_ text: String) {
        let clipboard = gtk_clipboard_get(gdk_atom_intern("CLIPBOARD", 0))
        gtk_clipboard_set_text(clipboard, text, -1)
        // Kept after the viewer exits, where a clipboard manager runs.
        gtk_clipboard_store(clipboard)
    }
}
