internal import CGtk
import GtkProgressFiles

/// The keyboard shortcuts window (`GtkShortcutsWindow`), built from GtkBuilder XML the core generates from the key
/// table (`ShortcutsSheet`). <https://docs.gtk.org/gtk3/class.ShortcutsWindow.html>
@MainActor
package enum ShortcutsWindow {
    /// Makes the window for `parent`. Escape or its close button hides it, to be shown again: destroying a
    /// GtkShortcutsWindow that a screen reader has looked through makes GTK 3.24's accessibility objects ask
    /// their finalized widgets for parents (a critical warning for each).
    package static func make(for parent: Window) -> Window? {
        guard let builder = gtk_builder_new() else { return nil }
        defer { g_object_unref(builder) }
        var error: UnsafeMutablePointer<GError>?
        guard gtk_builder_add_from_string(builder, ShortcutsSheet.builderXML, gsize.max, &error) != 0 else {
            // The XML is the program's own: a failure here is a bug, said on stderr rather than crashing.
            if let error {
                StandardStreams.error("gtkprogress: shortcuts window: " + String(cString: error.pointee.message) + "\n")
                g_error_free(error)
            }
            return nil
        }
        guard let object = gtk_builder_get_object(builder, ShortcutsSheet.windowID) else { return nil }
        let window = Window(wrapping: UnsafeMutableRawPointer(object))
        gtk_window_set_transient_for(window.cast(GtkWindow.self), parent.cast(GtkWindow.self))
        window.title = L("Keyboard Shortcuts")
        window.connect(.deleteEvent) { [weak window] (_: UnsafeMutablePointer<GdkEvent>) -> Bool in
            window?.hide()
            return true
        }
        return window
    }
}
