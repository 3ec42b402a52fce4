internal import CGtk

/// A rectangle in a widget's coordinates.
package struct Rect: Equatable, Sendable {
    package var x, y, width, height: Double
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// What reading a page with the keyboard needs from the text view: the caret (which screen readers follow),
/// ranges of characters and where they are on screen, the part of the buffer in view, and the focus chain.
extension TextView {
    private var textView: UnsafeMutablePointer<GtkTextView> { cast(GtkTextView.self) }

    private func iter(at offset: Int) -> GtkTextIter {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &iter, Int32(clamping: offset))
        return iter
    }

    /// Moves the insertion mark (the caret, invisible here) to character `offset`, clearing any selection.
    /// GTK's accessible for the text view reports it through AT-SPI (`text-caret-moved`), so a screen reader
    /// reads the text there.
    package func placeCursor(atCharacter offset: Int) {
        var at = iter(at: offset)
        gtk_text_buffer_place_cursor(buffer, &at)
    }

    /// The insertion mark's character offset.
    package var cursorOffset: Int {
        var at = GtkTextIter()
        gtk_text_buffer_get_iter_at_mark(buffer, &at, gtk_text_buffer_get_insert(buffer))
        return Int(gtk_text_iter_get_offset(&at))
    }

    /// Removes `tag` from the characters from `start` up to `end`.
    package func removeTag(_ tag: TextTag, fromCharacter start: Int, to end: Int) {
        var first = iter(at: start), last = iter(at: end)
        gtk_text_buffer_remove_tag(buffer, tag.tag, &first, &last)
    }

    /// Selects characters `start ..< end` (the text Ctrl+C copies).
    package func select(fromCharacter start: Int, to end: Int) {
        var first = iter(at: start), last = iter(at: end)
        gtk_text_buffer_select_range(buffer, &first, &last)
    }

    /// The selected text, if any.
    package var selectedText: String? {
        var start = GtkTextIter(), end = GtkTextIter()
        guard gtk_text_buffer_get_selection_bounds(buffer, &start, &end) != 0,
              let text = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Characters `start ..< end`, one per buffer character (GTK counts Unicode scalars).
    package func text(fromCharacter start: Int, to end: Int) -> String {
        var first = iter(at: start), last = iter(at: end)
        guard let text = gtk_text_buffer_get_slice(buffer, &first, &last, 1) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Scrolls as little as needed for character `offset` to be on screen, at least `margin` (a fraction of the
    /// view's height) from its edges. Through a mark, so lines not yet measured are measured first.
    package func scrollIntoView(character offset: Int, margin: Double) {
        var at = iter(at: offset)
        let mark: UnsafeMutablePointer<GtkTextMark>
        if let existing = gtk_text_buffer_get_mark(buffer, "reveal-target") {
            mark = existing
            gtk_text_buffer_move_mark(buffer, mark, &at)
        } else {
            mark = gtk_text_buffer_create_mark(buffer, "reveal-target", &at, 1)!
        }
        gtk_text_view_scroll_to_mark(textView, mark, margin, 0, 0, 0)
    }

    /// The characters on screen: from the first character of the top line to the end of the bottom line.
    package var visibleCharacters: Range<Int> {
        var rect = GdkRectangle()
        gtk_text_view_get_visible_rect(textView, &rect)
        var top = GtkTextIter(), bottom = GtkTextIter()
        gtk_text_view_get_line_at_y(textView, &top, rect.y, nil)
        gtk_text_view_get_line_at_y(textView, &bottom, rect.y + rect.height, nil)
        gtk_text_iter_forward_line(&bottom)
        let start = Int(gtk_text_iter_get_offset(&top)), end = Int(gtk_text_iter_get_offset(&bottom))
        return start..<max(start, end)
    }

    /// The character at the top left of the view: the place to keep when the text is laid out again.
    package var topCharacter: Int {
        var rect = GdkRectangle()
        gtk_text_view_get_visible_rect(textView, &rect)
        var at = GtkTextIter()
        gtk_text_view_get_iter_at_location(textView, &at, rect.x, rect.y)
        // The whole display line, so the text above it stays out of view.
        gtk_text_view_backward_display_line_start(textView, &at)
        return Int(gtk_text_iter_get_offset(&at))
    }

    /// The rectangles (one per display line) that characters `start ..< end` cover, in the widget's coordinates,
    /// for drawing over them.
    package func rectangles(fromCharacter start: Int, to end: Int) -> [Rect] {
        guard end > start else { return [] }
        var rects: [Rect] = []
        var lineStart = iter(at: start)
        var last = iter(at: end)
        while gtk_text_iter_compare(&lineStart, &last) < 0 && rects.count < 500 {
            var lineEnd = lineStart
            if gtk_text_view_forward_display_line_end(textView, &lineEnd) == 0 || gtk_text_iter_compare(&lineEnd, &last) > 0 {
                lineEnd = last
            }
            var a = GdkRectangle(), b = GdkRectangle()
            gtk_text_view_get_iter_location(textView, &lineStart, &a)
            var lastCharacter = lineEnd
            if gtk_text_iter_compare(&lastCharacter, &lineStart) > 0 { gtk_text_iter_backward_char(&lastCharacter) }
            gtk_text_view_get_iter_location(textView, &lastCharacter, &b)
            let left = min(a.x, b.x), right = max(a.x + a.width, b.x + b.width)
            let top = min(a.y, b.y), bottom = max(a.y + a.height, b.y + b.height)
            var wx: Int32 = 0, wy: Int32 = 0
            gtk_text_view_buffer_to_window_coords(textView, GTK_TEXT_WINDOW_WIDGET, left, top, &wx, &wy)
            rects.append(Rect(x: Double(wx), y: Double(wy), width: Double(max(right - left, 1)),
                              height: Double(bottom - top)))
            // On to the start of the next display line.
            guard gtk_text_view_forward_display_line(textView, &lineStart) != 0 else { break }
        }
        return rects
    }

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

/// Which way the keyboard moves the focus (Tab, Shift+Tab, arrows).
package enum FocusDirection: Sendable, Equatable {
    case forward, backward, other
}

/// A button press: where, which button, and the modifiers held.
package struct ButtonPress: Sendable {
    package let x: Double, y: Double
    package let button: UInt32
    package let control: Bool, shift: Bool
    /// A second or third press of a double or triple click.
    package let isRepeat: Bool
}

extension Widget {
    /// The keyboard focus is moving into or within this widget (GtkWidget::focus). Return true when the widget
    /// keeps it (it moved to a part of it), false to let it move on to the next widget.
    @discardableResult
    package func onFocusMove(_ handler: @escaping (FocusDirection) -> Bool) -> SignalConnection {
        connect(.focus) { (direction: GtkDirectionType) in
            handler(direction == GTK_DIR_TAB_FORWARD ? .forward : direction == GTK_DIR_TAB_BACKWARD ? .backward : .other)
        }
    }

    /// The context-menu key or Shift+F10 (GtkWidget::popup-menu). Return true when a menu was shown.
    @discardableResult
    package func onPopupMenuKey(_ handler: @escaping () -> Bool) -> SignalConnection {
        connect(.popupMenu, handler)
    }

    /// Paints over what the widget drew itself, in its coordinates.
    @discardableResult
    package func onPaintAbove(_ handler: @escaping (CairoContext) -> Void) -> SignalConnection {
        connect(.draw, after: true) { (cr: CairoContext) in handler(cr); return false }
    }

    /// Button presses before the widget's own handling; return true to keep the press from it.
    @discardableResult
    package func onButtonPress(_ handler: @escaping (ButtonPress) -> Bool) -> SignalConnection {
        connect(.buttonPressEvent) { event in
            var x = 0.0, y = 0.0, button: UInt32 = 0
            var state = GdkModifierType(rawValue: 0)
            gdk_event_get_coords(event, &x, &y)
            gdk_event_get_button(event, &button)
            gdk_event_get_state(event, &state)
            return handler(ButtonPress(x: x, y: y, button: button,
                                       control: state.rawValue & GDK_CONTROL_MASK.rawValue != 0,
                                       shift: state.rawValue & GDK_SHIFT_MASK.rawValue != 0,
                                       isRepeat: gdk_event_get_event_type(event) != GDK_BUTTON_PRESS))
        }
    }

    /// The modifiers held during the event being handled (for button releases, which report only the button).
    package static var currentEventHasControl: Bool {
        var state = GdkModifierType(rawValue: 0)
        guard gtk_get_current_event_state(&state) != 0 else { return false }
        return state.rawValue & GDK_CONTROL_MASK.rawValue != 0
    }

    /// Scroll-wheel steps with Ctrl held, as -1 (towards the reader: up) … +1 (down), fractional for touchpads.
    /// The handler returns true to keep the scroll from scrolling.
    @discardableResult
    package func onControlScroll(_ handler: @escaping (Double) -> Bool) -> SignalConnection {
        connect(.scrollEvent) { event in
            var state = GdkModifierType(rawValue: 0)
            gdk_event_get_state(event, &state)
            guard state.rawValue & GDK_CONTROL_MASK.rawValue != 0 else { return false }
            var direction = GDK_SCROLL_UP
            if gdk_event_get_scroll_direction(event, &direction) != 0 {
                switch direction {
                case GDK_SCROLL_UP: return handler(-1)
                case GDK_SCROLL_DOWN: return handler(1)
                default: return false
                }
            }
            var dx = 0.0, dy = 0.0
            guard gdk_event_get_scroll_deltas(event, &dx, &dy) != 0 else { return false }
            return handler(dy)
        }
    }

    /// The widget gained (true) or lost (false) the keyboard focus; one connection for both signals.
    @discardableResult
    package func onFocusChange(_ handler: @escaping (Bool) -> Void) -> SignalConnection {
        let gained = connect(.focusInEvent) { (_: UnsafeMutablePointer<GdkEvent>) in handler(true); return false }
        let lost = connect(.focusOutEvent) { (_: UnsafeMutablePointer<GdkEvent>) in handler(false); return false }
        return SignalConnection(object: object, ids: gained.ids + lost.ids)
    }

    /// The theme changed (GtkWidget::style-updated): colours read from it must be read again.
    @discardableResult
    package func onStyleUpdated(_ handler: @escaping () -> Void) -> SignalConnection { connect(.styleUpdated, handler) }
}

extension CairoContext {
    /// Strokes the outline of a rectangle, `lineWidth` wide, centred on its edges.
    package func strokeRectangle(x: Double, y: Double, width: Double, height: Double, lineWidth: Double) {
        cairo_set_line_width(cr, lineWidth)
        cairo_rectangle(cr, x, y, width, height)
        cairo_stroke(cr)
    }
}

extension ScrolledWindow {
    /// The vertical scroll position changed (by the reader, a key, or the program).
    @discardableResult
    package func onVerticalScroll(_ handler: @escaping () -> Void) -> SignalConnection {
        let adjustment = GObjectHandle(retaining: UnsafeMutableRawPointer(
            gtk_scrolled_window_get_vadjustment(cast(GtkScrolledWindow.self))!))
        return adjustment.connect(.valueChanged, handler)
    }
}
