internal import CGtk

/// The window's title bar with its controls (`GtkHeaderBar`), as GNOME's applications have it: buttons at the start
/// and the end, a title widget in the middle, and the window's close button.
/// <https://developer.gnome.org/hig/patterns/containers/header-bars.html>
package final class HeaderBar: Widget {
    package init() {
        super.init(retaining: gtk_header_bar_new())
        gtk_header_bar_set_show_close_button(cast(GtkHeaderBar.self), 1)
    }
    package func packStart(_ child: Widget) { gtk_header_bar_pack_start(cast(GtkHeaderBar.self), child.widget) }
    package func packEnd(_ child: Widget) { gtk_header_bar_pack_end(cast(GtkHeaderBar.self), child.widget) }
    /// The widget in the middle, in place of the window's title (which stays the window's name for the desktop).
    package func setCustomTitle(_ child: Widget) {
        gtk_header_bar_set_custom_title(cast(GtkHeaderBar.self), child.widget)
    }
}

extension Window {
    /// Puts `bar` in place of the window manager's title bar (client-side decorations).
    package func setTitlebar(_ bar: Widget) { gtk_window_set_titlebar(cast(GtkWindow.self), bar.widget) }
    /// Whether the window has the desktop's keyboard focus.
    package var isActive: Bool { gtk_window_is_active(cast(GtkWindow.self)) != 0 }
}

/// Buttons shown as one linked group (Back and Forward), with GTK's `linked` style class.
package final class LinkedButtons: Widget {
    package init(_ buttons: [Widget]) {
        super.init(retaining: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0))
        addCSSClass("linked")
        for button in buttons {
            gtk_box_pack_start(cast(GtkBox.self), button.widget, 0, 1, 0)
        }
    }
}
