internal import CGtk

/// The theme's colours as the page reads them, and the reader's text size.
extension TextView {
    /// The colours the theme gives links and visited links (the `:link` and `:link:visited` states of the text
    /// view's style context, as GtkLabel colours its links), so they keep their contrast in light and dark themes.
    package var themeLinkColors: (link: RGBA, visited: RGBA) {
        let context = gtk_widget_get_style_context(widget)
        func color(_ state: GtkStateFlags) -> RGBA {
            gtk_style_context_save(context)
            gtk_style_context_set_state(context, state)
            var rgba = GdkRGBA()
            gtk_style_context_get_color(context, state, &rgba)
            gtk_style_context_restore(context)
            return RGBA(red: rgba.red, green: rgba.green, blue: rgba.blue, alpha: rgba.alpha)
        }
        return (color(GTK_STATE_FLAG_LINK),
                color(GtkStateFlags(rawValue: GTK_STATE_FLAG_LINK.rawValue | GTK_STATE_FLAG_VISITED.rawValue)))
    }

    /// The theme's link colours, each moved just far enough to keep 4.5:1 contrast on the view's background
    /// where the theme falls short (Adwaita's dark link blue has 3.6:1 on its dark base).
    package var readableLinkColors: (link: RGBA, visited: RGBA) {
        let theme = themeLinkColors
        let background = (themeTextColors.background ?? RGBA(red: 1, green: 1, blue: 1)).contrastColor
        return (RGBA(Contrast.readable(theme.link.contrastColor, on: background)),
                RGBA(Contrast.readable(theme.visited.contrastColor, on: background)))
    }

    /// The background of code: the view's background with 7% of its text colour over it (in a dark theme,
    /// lighter; in a light one, darker), which keeps the text's contrast on it well above 4.5:1.
    package var codeTint: RGBA {
        let colors = themeTextColors
        let background = colors.background ?? RGBA(red: 1, green: 1, blue: 1)
        let amount = 0.07
        func mix(_ a: Double, _ b: Double) -> Double { a * (1 - amount) + b * amount }
        return RGBA(red: mix(background.red, colors.text.red), green: mix(background.green, colors.text.green),
                    blue: mix(background.blue, colors.text.blue))
    }

    /// The theme's text and background colours of the view, for tests that check contrast.
    package var themeTextColors: (text: RGBA, background: RGBA?) {
        let context = gtk_widget_get_style_context(widget)
        var rgba = GdkRGBA()
        gtk_style_context_get_color(context, gtk_style_context_get_state(context), &rgba)
        return (RGBA(red: rgba.red, green: rgba.green, blue: rgba.blue, alpha: rgba.alpha),
                themeColor("theme_base_color"))
    }

    /// Makes the text `factor` times the theme's size. Through CSS on the view, so every line is laid out again
    /// by GTK in idle time, and tags that scale text (headings) scale with it.
    package func setFontScale(_ factor: Double) {
        let css = factor == 1 ? "" : "textview { font-size: \(Int((factor * 100).rounded()))%; }"
        let context = gtk_widget_get_style_context(widget)
        if let old = fontProvider {
            gtk_style_context_remove_provider(context, OpaquePointer(old))
            g_object_unref(old)
        }
        fontProvider = nil
        guard !css.isEmpty else { return }
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider(context, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        // The view keeps this reference until the scale changes again (the style context holds its own).
        fontProvider = UnsafeMutableRawPointer(provider)
    }

    private var fontProvider: UnsafeMutableRawPointer? {
        get { g_object_get_data(object, "gtkprogress-font-provider") }
        set { g_object_set_data(object, "gtkprogress-font-provider", newValue) }
    }
}
