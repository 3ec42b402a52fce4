internal import CGtk

/// A context menu built for one popup: labelled items that run a closure, and separators.
package final class Menu: Widget {
    package init() { super.init(retaining: gtk_menu_new()) }

    /// Adds an item; `mnemonic` labels use `_` before the access key ("Open Link in New _Window").
    /// An `accelerator` (GTK's syntax, "<Primary>n") is shown beside the label; the window's key table handles it.
    @discardableResult
    package func addItem(_ mnemonic: String, accelerator: String? = nil, sensitive: Bool = true,
                         action: @escaping () -> Void) -> Widget {
        let item = gtk_menu_item_new_with_mnemonic(mnemonic)!
        if let accelerator, let child = gtk_bin_get_child(UnsafeMutableRawPointer(item).assumingMemoryBound(to: GtkBin.self)),
           g_type_check_instance_is_a(UnsafeMutableRawPointer(child).assumingMemoryBound(to: GTypeInstance.self),
                                      gtk_accel_label_get_type()) != 0 {
            var key: guint = 0
            var modifiers = GdkModifierType(rawValue: 0)
            gtk_accelerator_parse(accelerator, &key, &modifiers)
            gtk_accel_label_set_accel(UnsafeMutableRawPointer(child).assumingMemoryBound(to: GtkAccelLabel.self),
                                      key, modifiers)
        }
        gtk_widget_set_sensitive(item, sensitive ? 1 : 0)
        let wrapper: Widget = Widget(retaining: UnsafeMutableRawPointer(item))
        wrapper.connect(.activate, action)
        gtk_menu_shell_append(cast(GtkMenuShell.self), item)
        return wrapper
    }

    /// An item that opens a submenu, given later with `setSubmenu(_:)` (the bookmarks, filled as the menu opens).
    package func addSubmenuItem(_ mnemonic: String) -> MenuItem {
        let item = gtk_menu_item_new_with_mnemonic(mnemonic)!
        gtk_menu_shell_append(cast(GtkMenuShell.self), item)
        return MenuItem(retaining: UnsafeMutableRawPointer(item))
    }

    /// Adds a check item showing `active`; choosing it calls `action` with the new state.
    @discardableResult
    package func addCheckItem(_ mnemonic: String, active: Bool, action: @escaping (Bool) -> Void) -> CheckMenuItem {
        let item = gtk_check_menu_item_new_with_mnemonic(mnemonic)!
        let check = UnsafeMutableRawPointer(item).assumingMemoryBound(to: GtkCheckMenuItem.self)
        gtk_check_menu_item_set_active(check, active ? 1 : 0)
        let wrapper = CheckMenuItem(retaining: UnsafeMutableRawPointer(item))
        // `activate` runs after GtkCheckMenuItem has flipped its state (gtk/gtkcheckmenuitem.c); setting the
        // state from the program (`isActive`) emits only `toggled`, so it never calls `action`.
        wrapper.connect(.activate) { action(gtk_check_menu_item_get_active(check) != 0) }
        gtk_menu_shell_append(cast(GtkMenuShell.self), item)
        return wrapper
    }

    package func addSeparator() {
        gtk_menu_shell_append(cast(GtkMenuShell.self), gtk_separator_menu_item_new())
    }

    /// The labels of the items, in order (separators are "-"), for tests.
    package var itemLabels: [String] {
        var labels: [String] = []
        var list = gtk_container_get_children(cast(GtkContainer.self))
        let head = list
        while let node = list {
            let child = node.pointee.data.assumingMemoryBound(to: GtkWidget.self)
            if let label = gtk_menu_item_get_label(UnsafeMutableRawPointer(child).assumingMemoryBound(to: GtkMenuItem.self)) {
                labels.append(String(String(cString: label).filter { $0 != "_" }))
            } else {
                labels.append("-")
            }
            list = node.pointee.next
        }
        g_list_free(head)
        return labels
    }

    /// Pops up at the pointer (a click) or, with no pointer event, at `rect` of `widget` (the menu key).
    /// The owner keeps the menu until the next one and then `destroy()`s it.
    package func popup(over widget: Widget, at rect: Rect?) {
        gtk_widget_show_all(self.widget)
        gtk_menu_attach_to_widget(cast(GtkMenu.self), widget.widget, nil)
        let event = gtk_get_current_event()
        defer { if let event { gdk_event_free(event) } }
        if let rect, event == nil || gdk_event_get_event_type(event) == GDK_KEY_PRESS {
            var area = GdkRectangle(x: Int32(rect.x), y: Int32(rect.y), width: Int32(max(rect.width, 1)),
                                    height: Int32(max(rect.height, 1)))
            gtk_menu_popup_at_rect(cast(GtkMenu.self), gtk_widget_get_window(widget.widget), &area,
                                   GDK_GRAVITY_SOUTH_WEST, GDK_GRAVITY_NORTH_WEST, event)
        } else {
            gtk_menu_popup_at_pointer(cast(GtkMenu.self), event)
        }
    }
}

/// A check item of a `Menu`: its tick follows the state it shows.
package final class CheckMenuItem: Widget {
    package var isActive: Bool {
        get { gtk_check_menu_item_get_active(cast(GtkCheckMenuItem.self)) != 0 }
        set { gtk_check_menu_item_set_active(cast(GtkCheckMenuItem.self), newValue ? 1 : 0) }
    }
}

/// An item of a `Menu` that holds a submenu.
package final class MenuItem: Widget {
    package func setSubmenu(_ menu: Menu) {
        gtk_widget_show_all(menu.widget)
        gtk_menu_item_set_submenu(cast(GtkMenuItem.self), menu.widget)
    }
}
