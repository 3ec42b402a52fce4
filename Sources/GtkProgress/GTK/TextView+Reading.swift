internal import CGtk

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

    /// Whether `tag` is on the character at `offset`.
    package func hasTag(_ tag: TextTag, atCharacter offset: Int) -> Bool {
        var at = iter(at: offset)
        return gtk_text_iter_has_tag(&at, tag.tag) != 0
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
        gtk_text_view_scroll_to_mark(textView, placeMark("reveal-target", atCharacter: offset), margin, 0, 0, 0)
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

    /// The characters on screen and within `above` screens above and `below` screens below it, measured in pixels
    /// where GTK has laid the lines out; nil before the lines on screen are laid out. GTK lays lines out in idle
    /// time, on screen first, and a line not laid out yet is 0 px high, so every height below the laid-out part
    /// falls on the buffer's last line: there the reach is as many characters a screen as the view holds.
    package func charactersNearView(screensAbove above: Int, screensBelow below: Int) -> Range<Int>? {
        var rect = GdkRectangle()
        gtk_text_view_get_visible_rect(textView, &rect)
        let height = max(Int(rect.height), 1)
        var top = GtkTextIter(), bottom = GtkTextIter()
        gtk_text_view_get_line_at_y(textView, &top, rect.y, nil)
        gtk_text_view_get_line_at_y(textView, &bottom, Int32(clamping: Int(rect.y) + height), nil)
        guard isLaidOut(&top), isLaidOut(&bottom) else { return nil }
        gtk_text_iter_forward_line(&bottom)
        let start = Int(gtk_text_iter_get_offset(&top))
        let end = max(start, Int(gtk_text_iter_get_offset(&bottom)))
        let perScreen = max(end - start, 1)
        var first = GtkTextIter(), last = GtkTextIter()
        gtk_text_view_get_line_at_y(textView, &first, Int32(clamping: max(Int(rect.y) - above * height, 0)), nil)
        gtk_text_view_get_line_at_y(textView, &last, Int32(clamping: Int(rect.y) + (below + 1) * height), nil)
        let from = isLaidOut(&first) ? Int(gtk_text_iter_get_offset(&first)) : max(start - above * perScreen, 0)
        let lastIsLaidOut = isLaidOut(&last)
        gtk_text_iter_forward_line(&last)
        let to = lastIsLaidOut ? Int(gtk_text_iter_get_offset(&last)) : end + below * perScreen
        return min(from, start)..<max(to, end)
    }

    /// Whether GTK has laid out the line holding `iter` (it has a height).
    private func isLaidOut(_ iter: inout GtkTextIter) -> Bool {
        var y: Int32 = 0, height: Int32 = 0
        gtk_text_view_get_line_yrange(textView, &iter, &y, &height)
        return height > 0
    }

    /// The character at the top left of the view: the place to keep when the text is laid out again.
    package var topCharacter: Int {
        var rect = GdkRectangle()
        gtk_text_view_get_visible_rect(textView, &rect)
        // At the top of the page the answer is the first character, laid out or not: before GTK has laid out
        // the lines (it does so in idle time), it places every height on the last line of the buffer.
        if rect.y <= 0 { return 0 }
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
}
