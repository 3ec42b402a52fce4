internal import CGtk

/// The width lines of prose may take: space beside the text, in the view's side windows
/// (`gtk_text_view_set_border_window_size`), so every margin and indentation of the text's tags stays as it is,
/// measured from the text's own left edge. <https://docs.gtk.org/gtk3/method.TextView.set_border_window_size.html>
extension TextView {
    /// Pixels of empty space left and right of the text.
    package var sideSpace: (left: Int, right: Int) {
        (Int(gtk_text_view_get_border_window_size(cast(GtkTextView.self), GTK_TEXT_WINDOW_LEFT)),
         Int(gtk_text_view_get_border_window_size(cast(GtkTextView.self), GTK_TEXT_WINDOW_RIGHT)))
    }

    package func setSideSpace(left: Int, right: Int) {
        guard sideSpace != (left, right) else { return }
        gtk_text_view_set_border_window_size(cast(GtkTextView.self), GTK_TEXT_WINDOW_LEFT, Int32(clamping: left))
        gtk_text_view_set_border_window_size(cast(GtkTextView.self), GTK_TEXT_WINDOW_RIGHT, Int32(clamping: right))
    }

    /// The average width of a character of running text in the view's font at its current size, in pixels:
    /// a pangram laid out by Pango, divided by its characters. (Pango's "approximate character width" counts
    /// wide characters in and comes out near twice a Latin letter.)
    package var averageCharacterWidth: Double {
        let sample = "The quick brown fox jumps over the lazy dog."
        guard let layout = gtk_widget_create_pango_layout(widget, sample) else { return 7 }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return max(Double(width) / Double(sample.count), 1)
    }

    /// The width of a character of the monospace face at the view's text size, in pixels.
    package var monospaceCharacterWidth: Double {
        let sample = "0123456789"
        guard let (width, _) = monospacePixelSize(sample) else { return 8 }
        return max(Double(width) / Double(sample.count), 1)
    }

    /// The height in pixels of one line of text in the monospace face at the view's text size.
    package var monospaceLineHeight: Int {
        guard let (_, height) = monospacePixelSize("Ag") else { return 0 }
        return Int(height)
    }

    /// The size in pixels of `sample` set in the monospace face at the view's text size.
    private func monospacePixelSize(_ sample: String) -> (width: Int32, height: Int32)? {
        guard let layout = gtk_widget_create_pango_layout(widget, sample) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let description = pango_font_description_copy(pango_context_get_font_description(
            pango_layout_get_context(layout)))
        defer { pango_font_description_free(description) }
        pango_font_description_set_family(description, "monospace")
        pango_layout_set_font_description(layout, description)
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return (width, height)
    }

    /// Paints the space beside the text as the text's own background: GTK draws a text view's side windows in
    /// the theme's colour for a border (its `border` node), a strip of another grey.
    package func blendSideSpace() {
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, "textview border { background-color: @theme_base_color; }", -1, nil)
        gtk_style_context_add_provider(gtk_widget_get_style_context(widget), OpaquePointer(provider),
                                       UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }

}
