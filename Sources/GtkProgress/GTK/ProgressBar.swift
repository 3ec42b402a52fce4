internal import CGtk

/// A `GtkProgressBar` whose look the owner paints itself.
///
/// It is a progress bar rather than a drawing area for its accessible: GTK's implements AtkValue with the role
/// progress bar, so screen readers read the fraction through AT-SPI with nothing more to write.
public final class ProgressBar: Widget {
    /// Hidden until its owner shows it: a window's `showAll()` must not reveal an idle bar.
    public init() {
        super.init(retaining: gtk_progress_bar_new())
        gtk_widget_set_no_show_all(widget, 1)
    }

    private var bar: UnsafeMutablePointer<GtkProgressBar> { cast(GtkProgressBar.self) }

    /// The value assistive technologies read, 0…1.
    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(bar) }
        set { gtk_progress_bar_set_fraction(bar, newValue) }
    }

    /// Makes the widget exactly `height` logical pixels tall and as narrow as its container allows: the theme's
    /// trough and progress nodes carry minimum sizes, borders and margins that would otherwise win. The trough keeps
    /// non-zero minimums because GTK falls back to the deprecated `min-horizontal-bar-*` style properties (150 × 6)
    /// when the CSS ones are zero.
    public func setExactHeight(_ height: Int) {
        let provider = gtk_css_provider_new()
        let css = """
            progressbar, progressbar progress {
                min-height: 0; min-width: 0; margin: 0; padding: 0; border-width: 0;
            }
            progressbar trough {
                min-height: \(height)px; min-width: 1px; margin: 0; padding: 0; border-width: 0;
            }
            """
        gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider(gtk_widget_get_style_context(widget), OpaquePointer(provider),
                                       UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
        setSizeRequest(width: -1, height: height)
    }

    /// Paints with `handler` in place of the theme: returning TRUE from "draw" stops GTK's own drawing.
    @discardableResult
    public func onPaint(_ handler: @escaping (CairoContext) -> Void) -> SignalConnection {
        onDraw { cr in handler(cr); return true }
    }
}

extension Widget {
    /// The accessible's role as AT-SPI reports it ("progress bar", "push button", …).
    public var accessibleRoleName: String {
        String(cString: atk_role_get_name(atk_object_get_role(gtk_widget_get_accessible(widget))))
    }

    public var accessibleName: String? {
        atk_object_get_name(gtk_widget_get_accessible(widget)).map { String(cString: $0) }
    }

    /// The value a screen reader reads, for accessibles that implement AtkValue (nil otherwise).
    public var accessibleValue: Double? {
        let accessible = gtk_widget_get_accessible(widget)
        guard g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(accessible)), atk_value_get_type()) != 0
        else { return nil }
        var value = 0.0
        var text: UnsafeMutablePointer<gchar>?
        atk_value_get_value_and_text(OpaquePointer(accessible), &value, &text)
        g_free(text)
        return value
    }

    /// Whether the desktop wants animations (GtkSettings `gtk-enable-animations`); off for reduced motion.
    public var animationsEnabled: Bool {
        cgtk_settings_get_boolean(gtk_widget_get_settings(widget), "gtk-enable-animations") != 0
    }

    /// Lays the widget out right-to-left or left-to-right regardless of the locale (tests and mixed UIs).
    public func setRightToLeft(_ rightToLeft: Bool) {
        gtk_widget_set_direction(widget, rightToLeft ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR)
    }
}
