import CGtk

/// The desktop's save dialog.
public enum FileChooser {
    /// Asks where to save; returns the chosen path, or nil when cancelled.
    public static func save(parent: Window, suggestedName: String) -> String? {
        let chooser = gtk_file_chooser_native_new("Save File", parent.cast(GtkWindow.self),
                                                  GTK_FILE_CHOOSER_ACTION_SAVE, "_Save", "_Cancel")!
        defer { g_object_unref(UnsafeMutableRawPointer(chooser)) }
        let asChooser = OpaquePointer(chooser)
        gtk_file_chooser_set_do_overwrite_confirmation(asChooser, 1)
        gtk_file_chooser_set_current_name(asChooser, suggestedName)
        let response = gtk_native_dialog_run(UnsafeMutablePointer<GtkNativeDialog>(OpaquePointer(chooser)))
        guard response == GTK_RESPONSE_ACCEPT.rawValue, let path = gtk_file_chooser_get_filename(asChooser) else { return nil }
        defer { g_free(path) }
        return String(cString: path)
    }
}
