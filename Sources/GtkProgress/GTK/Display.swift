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
}
