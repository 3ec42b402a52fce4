internal import CGtk

/// Display checks that need no window.
@MainActor
package enum Display {
    /// Initialises GTK if a display can be opened; false when there is none.
    ///
    /// Nothing here draws with OpenGL, yet GDK on X11 probes the GL visuals when it opens the display, which loads
    /// Mesa (and LLVM with it): about 50 MB of memory and tens of milliseconds at startup. GDK_GL=disable skips
    /// the probe; a user who sets GDK_GL keeps their choice.
    package static func initialize() -> Bool {
        setenv("GDK_GL", "disable", 0)
        return gtk_init_check(nil, nil) != 0
    }

    /// Turns the desktop's animations on or off for this process (GtkSettings `gtk-enable-animations`), as a
    /// user asking for reduced motion does.
    static func setAnimationsEnabled(_ enabled: Bool) {
        cgtk_object_set_bool(UnsafeMutableRawPointer(gtk_settings_get_default()), "gtk-enable-animations", enabled ? 1 : 0)
    }

    /// Asks the theme for its dark variant or not (GtkSettings `gtk-application-prefer-dark-theme`), as a reader
    /// switching the desktop's style does; widgets get `style-updated`.
    static func setPreferDarkTheme(_ dark: Bool) {
        cgtk_object_set_bool(UnsafeMutableRawPointer(gtk_settings_get_default()), "gtk-application-prefer-dark-theme",
                             dark ? 1 : 0)
    }

    /// The reader's languages, most wanted first, as GLib reads them from the environment (`LANGUAGE`, `LC_ALL`,
    /// `LC_MESSAGES`, `LANG`): "ja_JP.UTF-8", "ja_JP", "ja", …, "C". <https://docs.gtk.org/glib/func.get_language_names.html>
    package static var languageNames: [String] {
        var names: [String] = []
        guard var cursor = g_get_language_names() else { return names }
        while let name = cursor.pointee {
            names.append(String(cString: name))
            cursor += 1
        }
        return names
    }
}

/// Times as a person reads them, in the local time zone (GLib's GDateTime).
@MainActor
package enum LocalTime {
    /// "2026-11-24 05:12".
    package static func string(_ secondsSince1970: Double) -> String {
        let seconds = secondsSince1970.isFinite ? gint64(min(max(secondsSince1970, 0), 253_402_300_799)) : 0
        guard let time = g_date_time_new_from_unix_local(seconds) else { return "" }
        defer { g_date_time_unref(time) }
        guard let text = g_date_time_format(time, "%Y-%m-%d %H:%M") else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }
}
