internal import CGtk

/// The desktop's save dialog, opened in the Downloads folder.
@MainActor
package enum FileChooser {
    /// Asks where to save; returns the chosen path, or nil when cancelled.
    package static func save(parent: Window, suggestedName: String) -> String? {
        guard let native = gtk_file_chooser_native_new(L("Save File"), parent.cast(GtkWindow.self),
                                                       GTK_FILE_CHOOSER_ACTION_SAVE, L("_Save"), L("_Cancel")) else { return nil }
        let raw = UnsafeMutableRawPointer(native)
        defer { g_object_unref(raw) }
        let chooser = OpaquePointer(raw)
        gtk_file_chooser_set_do_overwrite_confirmation(chooser, 1)
        // The desktop's Downloads folder (xdg-user-dirs), as browsers save there, rather than the working directory.
        // <https://docs.gtk.org/glib/func.get_user_special_dir.html>
        if let downloads = g_get_user_special_dir(G_USER_DIRECTORY_DOWNLOAD) {
            gtk_file_chooser_set_current_folder(chooser, downloads)
        }
        gtk_file_chooser_set_current_name(chooser, suggestedName)
        let response = gtk_native_dialog_run(raw.assumingMemoryBound(to: GtkNativeDialog.self))
        guard response == GTK_RESPONSE_ACCEPT.rawValue, let path = gtk_file_chooser_get_filename(chooser) else { return nil }
        defer { g_free(path) }
        return String(cString: path)
    }
}
