internal import CGtk

/// A table's own sideways-scrolling area in the page: a scrolled window (horizontal bar only) holding a second,
/// unwrapped text view whose buffer shares the page buffer's tag table, so the table's rows are copied into it with
/// their tags (tab stops, margins, sizes, bold headers) by gtk_text_buffer_insert_range
/// (<https://docs.gtk.org/gtk3/method.TextBuffer.insert_range.html>: the two buffers must share a tag table).
@MainActor
package final class TableArea {
    package let frame: ScrolledWindow
    package let view: TextView

    /// An area showing characters `start ..< end` of `page`, copied with their tags.
    package convenience init(copying page: TextView, from start: Int, to end: Int) {
        self.init(sharingTagsOf: page)
        var first = GtkTextIter(), last = GtkTextIter(), end_ = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(page.buffer, &first, Int32(clamping: start))
        gtk_text_buffer_get_iter_at_offset(page.buffer, &last, Int32(clamping: end))
        gtk_text_buffer_get_end_iter(view.buffer, &end_)
        gtk_text_buffer_insert_range(view.buffer, &end_, &first, &last)
    }

    /// An empty area whose text takes `page`'s tags: its text is appended to it (`view.appendUTF8`).
    package init(sharingTagsOf page: TextView) {
        view = TextView(sharingTagsOf: page)
        frame = ScrolledWindow()
        let scrolled = frame.cast(GtkScrolledWindow.self)
        // The area's height is set from the rows' (`setSize`), not taken from its text view: GtkTextView lays an
        // anchored widget out at the size it asks for when its line is laid out, and a text view knows its own
        // height only once it has laid out all its lines, in idle time. EXTERNAL: no vertical bar, and the
        // child's height is not asked for.
        gtk_scrolled_window_set_policy(scrolled, GTK_POLICY_AUTOMATIC, GTK_POLICY_EXTERNAL)
        // A bar that always takes its room under the table says that the table goes on to the right.
        gtk_scrolled_window_set_overlay_scrolling(scrolled, 0)
        frame.add(view)
        // A press in the table is the table's: after its view's own handling (which starts a selection) it goes
        // no further, to the page's view, which would take the keyboard and start a selection of its own. The
        // table's view keeps the keyboard, so Ctrl+C copies what is selected there.
        let view = view
        view.connect(.buttonPressEvent, after: true) { [weak view] (_: UnsafeMutablePointer<GdkEvent>) -> Bool in
            view?.grabFocus()
            return true
        }
    }

    /// The area's size in pixels: `width`, and the height of its text and (unless `bar` is false: the text is
    /// no wider than the area, and GTK_POLICY_AUTOMATIC shows none) of the horizontal bar under it.
    package func setSize(width: Int, textHeight: Int, bar: Bool = true) {
        var minimum: Int32 = 0, natural: Int32 = 0
        if bar, let scrollbar = gtk_scrolled_window_get_hscrollbar(frame.cast(GtkScrolledWindow.self)) {
            gtk_widget_get_preferred_height(scrollbar, &minimum, &natural)
        }
        frame.setSizeRequest(width: max(width, 40), height: textHeight + Int(natural))
    }

    /// `handler` gets the height of the area's text once its view has laid it out, when that is more than the
    /// area shows (the view's vertical adjustment reaches past its page; <https://docs.gtk.org/gtk3/class.Adjustment.html>).
    package func onTextTallerThanShown(_ handler: @escaping (Int) -> Void) {
        guard let pointer = gtk_scrolled_window_get_vadjustment(frame.cast(GtkScrolledWindow.self)) else { return }
        // The handler goes with the adjustment, which lives as long as the area's scrolled window.
        let adjustment = GObjectHandle(retaining: UnsafeMutableRawPointer(pointer))
        adjustment.connect(.changed) { () -> Void in
            let upper = gtk_adjustment_get_upper(pointer), page = gtk_adjustment_get_page_size(pointer)
            if page > 0 && upper > page + 0.5 { handler(Int(upper.rounded(.up))) }
        }
    }

    /// The mouse wheel turned up or down over the area (Shift not held) scrolls `page` instead, as over the rest
    /// of the text: the area only scrolls sideways (Shift with the wheel, a sideways wheel or touchpad swipe, or
    /// its bar). An area that scrolls up and down too (`scrollsVertically`) takes the wheel itself until it is
    /// at its top or bottom, then passes it on, as browsers chain scrolling from a scrolling box to the page.
    package func passVerticalScroll(to page: Widget) {
        let vertical = gtk_scrolled_window_get_vadjustment(frame.cast(GtkScrolledWindow.self))
        frame.connect(.scrollEvent) { [weak self, weak page] (event: UnsafeMutablePointer<GdkEvent>) -> Bool in
            guard let self, let page else { return false }
            var state = GdkModifierType(rawValue: 0)
            gdk_event_get_state(event, &state)
            guard state.rawValue & GDK_SHIFT_MASK.rawValue == 0 else { return false }
            var direction = GDK_SCROLL_SMOOTH, dx = 0.0, dy = 0.0
            let down: Bool?
            if gdk_event_get_scroll_direction(event, &direction) != 0 {
                down = direction == GDK_SCROLL_DOWN ? true : direction == GDK_SCROLL_UP ? false : nil
            } else if gdk_event_get_scroll_deltas(event, &dx, &dy) != 0 {
                down = abs(dy) > abs(dx) ? dy > 0 : nil
            } else {
                down = nil
            }
            guard let down else { return false }
            if self.scrollsVertically, let vertical {
                let value = gtk_adjustment_get_value(vertical), lower = gtk_adjustment_get_lower(vertical)
                let end = gtk_adjustment_get_upper(vertical) - gtk_adjustment_get_page_size(vertical)
                if down ? value < end - 0.5 : value > lower + 0.5 { return false }
            }
            gtk_widget_event(page.widget, event)
            return true
        }
    }

    /// Whether the area scrolls up and down as well as sideways (`allowVerticalScrolling`).
    package private(set) var scrollsVertically = false

    /// Lets the area scroll up and down with a bar of its own, for text taller than the area is made
    /// (GTK_POLICY_AUTOMATIC: <https://docs.gtk.org/gtk3/method.ScrolledWindow.set_policy.html>).
    package func allowVerticalScrolling() {
        scrollsVertically = true
        gtk_scrolled_window_set_policy(frame.cast(GtkScrolledWindow.self), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC)
    }

    /// The left margin of the area's text, for lines no tag gives one.
    package func setLeftMargin(_ pixels: Int) {
        gtk_text_view_set_left_margin(view.cast(GtkTextView.self), Int32(clamping: pixels))
    }

    /// Scrolls the area sideways to show character `offset` of its text.
    package func reveal(character offset: Int) {
        view.scrollIntoView(character: offset, margin: 0.1)
    }
}

extension TextView {
    /// A read-only text view that never wraps, with a new buffer made on `page`'s tag table
    /// (<https://docs.gtk.org/gtk3/ctor.TextBuffer.new.html>).
    package convenience init(sharingTagsOf page: TextView) {
        self.init()
        let buffer = gtk_text_buffer_new(gtk_text_buffer_get_tag_table(page.buffer))
        gtk_text_view_set_buffer(cast(GtkTextView.self), buffer)
        g_object_unref(UnsafeMutableRawPointer(buffer))
        gtk_text_view_set_wrap_mode(cast(GtkTextView.self), GTK_WRAP_NONE)
        gtk_text_view_set_left_margin(cast(GtkTextView.self), 0)
        gtk_text_view_set_right_margin(cast(GtkTextView.self), 16)
        gtk_text_view_set_top_margin(cast(GtkTextView.self), 0)
        gtk_text_view_set_bottom_margin(cast(GtkTextView.self), 0)
    }
}

extension TextView {
    /// The height in pixels of one line of text in the view's font at `scale` times its size, as Pango sets it
    /// (<https://docs.gtk.org/Pango/method.Layout.get_pixel_size.html>).
    package func lineHeight(scale: Double) -> Int {
        guard let layout = gtk_widget_create_pango_layout(widget, "Ag") else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let description = pango_font_description_copy(pango_context_get_font_description(
            pango_layout_get_context(layout)))
        defer { pango_font_description_free(description) }
        let size = Double(pango_font_description_get_size(description)) * scale
        if pango_font_description_get_size_is_absolute(description) != 0 {
            pango_font_description_set_absolute_size(description, size)
        } else {
            pango_font_description_set_size(description, Int32(size.rounded()))
        }
        pango_layout_set_font_description(layout, description)
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return Int(height)
    }
}

extension TextTag {
    /// Hides the text it is on (GtkTextTag's `invisible`).
    package func setInvisible(_ invisible: Bool) {
        cgtk_object_set_int(UnsafeMutableRawPointer(tag), "invisible", invisible ? 1 : 0)
    }
}
