internal import CGtk

/// A button that opens a menu (`GtkMenuButton`): the header bar's primary menu.
package final class MenuButton: Widget {
    /// The menu it opens; rebuilt by its owner before each opening when items change.
    package private(set) var menu: Menu?

    package init(iconName: String, tooltip: String, accessibleName: String) {
        super.init(retaining: gtk_menu_button_new())
        gtk_button_set_image(cast(GtkButton.self), gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        self.tooltip = tooltip
        setAccessible(name: accessibleName)
        gtk_widget_set_focus_on_click(widget, 0)
    }

    package func setMenu(_ menu: Menu) {
        self.menu = menu
        gtk_widget_show_all(menu.widget)
        gtk_menu_button_set_popup(cast(GtkMenuButton.self), menu.widget)
    }

    /// Whether the menu is open; setting it opens or closes the menu (F10).
    package var isOpen: Bool {
        get { gtk_toggle_button_get_active(cast(GtkToggleButton.self)) != 0 }
        set { gtk_toggle_button_set_active(cast(GtkToggleButton.self), newValue ? 1 : 0) }
    }

    /// Runs `handler` just before the menu opens (a click, a key, F10), so it can show what is true now.
    @discardableResult
    package func onOpening(_ handler: @escaping () -> Void) -> SignalConnection {
        connect(.toggled) { [weak self] in
            guard let self, self.isOpen else { return }
            handler()
        }
    }
}
