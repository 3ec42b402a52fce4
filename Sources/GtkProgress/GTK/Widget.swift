internal import CGtk

/// A GTK widget. Subclasses add what their widget type offers.
public class Widget: GObjectHandle {
    var widget: UnsafeMutablePointer<GtkWidget> { cast(GtkWidget.self) }

    /// Makes the widget visible (its window too, if it is one).
    public func show() { gtk_widget_show(widget) }
    /// Shows the widget and everything in it. A `LoadIndicator`'s bar stays hidden until a load shows it.
    public func showAll() { gtk_widget_show_all(widget) }
    /// Hides the widget.
    public func hide() { gtk_widget_hide(widget) }
    package func grabFocus() { gtk_widget_grab_focus(widget) }
    /// Creates the widget's window now (and its parents'), before it is first drawn: GTK hands key events only to
    /// realized widgets (`gtk_widget_event`), and a widget given the focus while a revealer is still sliding it in
    /// is not realized until the next frame.
    package func realize() { gtk_widget_realize(widget) }
    package var hasFocus: Bool { gtk_widget_has_focus(widget) != 0 }
    package func queueDraw() { gtk_widget_queue_draw(widget) }
    package func queueDraw(x: Int, y: Int, width: Int, height: Int) {
        gtk_widget_queue_draw_area(widget, Int32(x), Int32(y), Int32(width), Int32(height))
    }
    package var isVisible: Bool { gtk_widget_get_visible(widget) != 0 }
    package var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }
    package var tooltip: String? {
        get { gtk_widget_get_tooltip_text(widget).map { p in defer { g_free(p) }; return String(cString: p) } }
        set { gtk_widget_set_tooltip_text(widget, newValue) }
    }
    package var width: Int { Int(gtk_widget_get_allocated_width(widget)) }
    package var height: Int { Int(gtk_widget_get_allocated_height(widget)) }
    package var scaleFactor: Int { Int(gtk_widget_get_scale_factor(widget)) }
    package var isRightToLeft: Bool { gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL }
    package func setSizeRequest(width: Int, height: Int) {
        gtk_widget_set_size_request(widget, Int32(width), Int32(height))
    }
    /// Where a widget sits in space larger than it needs.
    package enum Alignment {
        case fill, start, end, center
        var gtk: GtkAlign {
            switch self {
            case .fill: return GTK_ALIGN_FILL
            case .start: return GTK_ALIGN_START
            case .end: return GTK_ALIGN_END
            case .center: return GTK_ALIGN_CENTER
            }
        }
    }

    package func setAlignment(horizontal: Alignment? = nil, vertical: Alignment? = nil) {
        if let horizontal { gtk_widget_set_halign(widget, horizontal.gtk) }
        if let vertical { gtk_widget_set_valign(widget, vertical.gtk) }
    }
    /// Whether the widget takes extra space in each direction; nil leaves that direction as it is.
    public func setExpand(horizontal: Bool? = nil, vertical: Bool? = nil) {
        if let horizontal { gtk_widget_set_hexpand(widget, horizontal ? 1 : 0) }
        if let vertical { gtk_widget_set_vexpand(widget, vertical ? 1 : 0) }
    }
    package func setName(_ name: String) { gtk_widget_set_name(widget, name) }
    /// Empty space around the widget, in logical pixels.
    public func setMargins(horizontal: Int, vertical: Int) {
        gtk_widget_set_margin_start(widget, Int32(horizontal))
        gtk_widget_set_margin_end(widget, Int32(horizontal))
        gtk_widget_set_margin_top(widget, Int32(vertical))
        gtk_widget_set_margin_bottom(widget, Int32(vertical))
    }
    /// Style rules for this widget alone (a GtkCssProvider on its style context, at application priority).
    package func setStyle(_ css: String) {
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider(gtk_widget_get_style_context(widget), OpaquePointer(provider),
                                       UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
    }
    /// Left out when its window is shown with `showAll()`: it is shown when its owner says so.
    package func setNoShowAll(_ value: Bool) { gtk_widget_set_no_show_all(widget, value ? 1 : 0) }
    package func addCSSClass(_ name: String) {
        gtk_style_context_add_class(gtk_widget_get_style_context(widget), name)
    }

    /// The accessible object's name, role and description, read by screen readers through AT-SPI.
    func setAccessible(name: String, role: AtkRole? = nil, description: String? = nil) {
        let accessible = gtk_widget_get_accessible(widget)
        atk_object_set_name(accessible, name)
        if let role { atk_object_set_role(accessible, role) }
        if let description { atk_object_set_description(accessible, description) }
    }
    package func setAccessibleDescription(_ description: String) {
        atk_object_set_description(gtk_widget_get_accessible(widget), description)
    }

    /// The container the widget is in, as a `GtkWidget *`; nil when it is in none.
    package var parentPointer: UnsafeMutableRawPointer? { gtk_widget_get_parent(widget).map { UnsafeMutableRawPointer($0) } }

    /// Takes the widget out of its container, if it is in one.
    func removeFromParent() {
        guard let parent = gtk_widget_get_parent(widget) else { return }
        gtk_container_remove(UnsafeMutableRawPointer(parent).assumingMemoryBound(to: GtkContainer.self), widget)
    }

    /// Destroys the widget (a window closes); the Swift wrapper keeps its reference until it goes.
    package func destroy() { gtk_widget_destroy(widget) }

    /// The colour a theme gives for a named colour (`theme_selected_bg_color`, …), if any.
    package func themeColor(_ name: String) -> RGBA? {
        var color = GdkRGBA()
        guard gtk_style_context_lookup_color(gtk_widget_get_style_context(widget), name, &color) != 0 else { return nil }
        return RGBA(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }
}

extension Widget {
    /// Adds `child` to this widget, which must be a `GtkContainer`.
    public func add(_ child: Widget) {
        gtk_container_add(cast(GtkContainer.self), child.widget)
    }
}

extension Widget {
    /// Whether the desktop wants animations (GtkSettings `gtk-enable-animations`); off for reduced motion.
    package var animationsEnabled: Bool {
        cgtk_settings_get_boolean(gtk_widget_get_settings(widget), "gtk-enable-animations") != 0
    }

    /// Lays the widget out right-to-left or left-to-right regardless of the locale (tests and mixed UIs).
    package func setRightToLeft(_ rightToLeft: Bool) {
        gtk_widget_set_direction(widget, rightToLeft ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR)
    }
}

extension Widget {
    /// The widget's width changed (its allocation): `handler` gets the new width in pixels.
    @discardableResult
    package func onWidthChange(_ handler: @escaping (Int) -> Void) -> SignalConnection {
        var last = -1
        return connect(.sizeAllocate) { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self else { return }
            let width = Int(gtk_widget_get_allocated_width(self.widget))
            guard width != last else { return }
            last = width
            handler(width)
        }
    }
}
