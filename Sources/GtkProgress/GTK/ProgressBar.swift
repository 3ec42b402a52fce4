internal import CGtk

/// A `GtkProgressBar` whose look the owner paints itself.
///
/// It is a progress bar rather than a drawing area for its accessible: GTK's implements AtkValue with the role
/// progress bar, so screen readers read the fraction through AT-SPI with nothing more to write.
package final class ProgressBar: Widget {
    /// Hidden until its owner shows it: a window's `showAll()` must not reveal an idle bar.
    package init() {
        super.init(retaining: gtk_progress_bar_new())
        gtk_widget_set_no_show_all(widget, 1)
    }

    private var bar: UnsafeMutablePointer<GtkProgressBar> { cast(GtkProgressBar.self) }
    /// The style provider of `setExactHeight`, replaced when the height changes. The widget holds it as object
    /// data, which drops the reference when it is replaced or the widget is finalized.
    /// <https://docs.gtk.org/gobject/method.Object.set_data_full.html>
    private var heightProvider: OpaquePointer? {
        get { g_object_get_data(object, "gtkprogress-height-provider").map(OpaquePointer.init) }
        set {
            g_object_set_data_full(object, "gtkprogress-height-provider", newValue.map(UnsafeMutableRawPointer.init),
                                   { g_object_unref($0) })
        }
    }

    /// The value assistive technologies read, 0…1. Setting it announces the change (see `setFractionQuietly`).
    var fraction: Double {
        get { gtk_progress_bar_get_fraction(bar) }
        set { gtk_progress_bar_set_fraction(bar, newValue) }
    }

    /// Sets the value without announcing it. GTK's accessible turns every change of the fraction into an
    /// accessible-value event (`gtkprogressbaraccessible.c`), which a screen reader may speak at every percent;
    /// the load is announced once instead, by the page's busy state. The handlers GTK's accessibility connects to
    /// the widget's `notify` carry no data, so those are held back for the call; a screen reader that asks still
    /// reads the value, live.
    func setFractionQuietly(_ value: Double) {
        let notify = g_signal_lookup("notify", gtk_widget_get_type())
        let match = GSignalMatchType(rawValue: G_SIGNAL_MATCH_ID.rawValue | G_SIGNAL_MATCH_DATA.rawValue)
        let instance = UnsafeMutableRawPointer(object)
        g_signal_handlers_block_matched(instance, match, notify, 0, nil, nil, nil)
        gtk_progress_bar_set_fraction(bar, value)
        g_signal_handlers_unblock_matched(instance, match, notify, 0, nil, nil, nil)
    }

    /// Makes the widget exactly `height` logical pixels tall and as narrow as its container allows: the theme's
    /// trough and progress nodes carry minimum sizes, borders and margins that would otherwise win. The trough keeps
    /// non-zero minimums because GTK falls back to the deprecated `min-horizontal-bar-*` style properties (150 × 6)
    /// when the CSS ones are zero.
    package func setExactHeight(_ height: Int) {
        if let heightProvider {
            gtk_style_context_remove_provider(gtk_widget_get_style_context(widget), heightProvider)
        }
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
        heightProvider = OpaquePointer(provider)
        setSizeRequest(width: -1, height: height)
    }

    /// Paints with `handler` in place of the theme: returning TRUE from "draw" stops GTK's own drawing.
    @discardableResult
    package func onPaint(_ handler: @escaping (CairoContext) -> Void) -> SignalConnection {
        connect(.draw) { (cr: CairoContext) in handler(cr); return true }
    }
}
