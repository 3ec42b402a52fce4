internal import CGtk

/// The application's About window (`GtkAboutDialog`). <https://docs.gtk.org/gtk3/class.AboutDialog.html>
@MainActor
package enum AboutDialog {
    /// What the window says; nil fields are left out.
    package struct Content {
        package var name: String
        package var version: String?
        package var comments: String?
        package var website: String?
        /// Text of the licence (or of its absence).
        package var license: String?
        package var iconName: String
        package var authors: [String]

        package init(name: String, version: String?, comments: String?, website: String?, license: String?,
                     iconName: String, authors: [String]) {
            self.name = name
            self.version = version
            self.comments = comments
            self.website = website
            self.license = license
            self.iconName = iconName
            self.authors = authors
        }
    }

    /// Opens the window over `parent`; it goes when closed.
    @discardableResult
    package static func present(_ content: Content, over parent: Window) -> Window {
        let dialog = gtk_about_dialog_new()!
        let about = UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: GtkAboutDialog.self)
        gtk_about_dialog_set_program_name(about, content.name)
        if let version = content.version { gtk_about_dialog_set_version(about, version) }
        if let comments = content.comments { gtk_about_dialog_set_comments(about, comments) }
        if let website = content.website { gtk_about_dialog_set_website(about, website) }
        if let license = content.license {
            gtk_about_dialog_set_license(about, license)
            gtk_about_dialog_set_wrap_license(about, 1)
        }
        gtk_about_dialog_set_logo_icon_name(about, content.iconName)
        // A NULL-terminated array of C strings.
        var authors: [UnsafePointer<gchar>?] = content.authors.map { UnsafePointer(strdup($0)) } + [nil]
        authors.withUnsafeMutableBufferPointer { gtk_about_dialog_set_authors(about, $0.baseAddress) }
        for author in authors { free(UnsafeMutableRawPointer(mutating: author)) }
        let window = Window(wrapping: UnsafeMutableRawPointer(dialog))
        gtk_window_set_transient_for(window.cast(GtkWindow.self), parent.cast(GtkWindow.self))
        gtk_window_set_modal(window.cast(GtkWindow.self), 1)
        // GtkDialog's "response" (the Close button, Escape, the window's close button) ends it.
        window.connect(.response) { [weak window] (_: Int) in window?.destroy() }
        window.present()
        return window
    }
}
