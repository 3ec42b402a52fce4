internal import CGtk

/// A read-only, word-wrapping text view and its buffer.
package final class TextView: Widget {
    package init() {
        super.init(retaining: gtk_text_view_new())
        let view = cast(GtkTextView.self)
        gtk_text_view_set_editable(view, 0)
        gtk_text_view_set_cursor_visible(view, 0)
        gtk_text_view_set_wrap_mode(view, GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_left_margin(view, 16)
        gtk_text_view_set_right_margin(view, 16)
        gtk_text_view_set_top_margin(view, 12)
        gtk_text_view_set_bottom_margin(view, 12)
        // A closing window destroys its text view, and gtk_text_view_destroy lets the buffer go in one piece:
        // freeing a huge page would stall every window of the process. The buffer leaves first, to be emptied a
        // slice at a time (`DetachedBuffers`). GtkWidget's own "destroy" handler runs after this one (it is a
        // G_SIGNAL_RUN_CLEANUP signal).
        let textView = view
        connect(.destroy) { Self.detachBuffer(of: textView) }
    }

    private var view: UnsafeMutablePointer<GtkTextView> { cast(GtkTextView.self) }
    var buffer: UnsafeMutablePointer<GtkTextBuffer> { gtk_text_view_get_buffer(view) }

    /// A new tag named `name` in the buffer's table, looking as `look` says.
    package func createTag(_ name: String, look: TextTag.Look = TextTag.Look()) -> TextTag {
        TextTag(buffer: buffer, name: name, look: look)
    }

    package var text: String {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        let p = gtk_text_buffer_get_text(buffer, &start, &end, 0)!
        defer { g_free(p) }
        return String(cString: p)
    }

    /// Empties the view by giving it a new buffer, with a tag table of its own: tags made before (`createTag`)
    /// belong to the old buffer and must not be used again. The old buffer goes to `DetachedBuffers`.
    ///
    /// Deleting a very large page from the buffer the view shows runs GTK's handlers over all of it for many
    /// seconds (DESIGN.md, "Traps found when the viewer was tried on large and hostile pages").
    /// `gtk_text_view_set_buffer` instead drops the view's layout of the old buffer and disconnects the view,
    /// its accessible and its selection clipboard from it; the old text then goes with no view listening.
    package func replaceBuffer() { Self.detachBuffer(of: view) }

    private static func detachBuffer(of view: UnsafeMutablePointer<GtkTextView>) {
        guard let old = gtk_text_view_get_buffer(view) else { return }
        g_object_ref(UnsafeMutableRawPointer(old))
        let fresh = gtk_text_buffer_new(nil)
        gtk_text_view_set_buffer(view, fresh)
        // The view holds its own reference (gtk_text_view_set_buffer).
        g_object_unref(UnsafeMutableRawPointer(fresh))
        DetachedBuffers.release(old)
    }

    /// Characters of inserted text (counted from the start of the insertion) and the tags they get.
    package struct TaggedRange {
        package var start: Int
        package var length: Int
        package var tags: [TextTag]
        package init(start: Int, length: Int, tags: [TextTag]) {
            self.start = start
            self.length = length
            self.tags = tags
        }
    }

    /// Appends valid UTF-8 in one insertion and tags its ranges, which must be in order. One insertion per page
    /// slice instead of one per run keeps large pages fast; applying a tag leaves iterators valid, so one iterator
    /// walks forward through the ranges.
    package func appendUTF8(_ bytes: UnsafeBufferPointer<UInt8>, tagging ranges: [TaggedRange]) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var end = GtkTextIter()
        gtk_text_buffer_get_end_iter(buffer, &end)
        let startOffset = gtk_text_iter_get_offset(&end)
        base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { p in
            gtk_text_buffer_insert(buffer, &end, p, Int32(bytes.count))
        }
        var start = GtkTextIter(), stop = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &start, startOffset)
        var position = 0
        for range in ranges where range.length > 0 {
            gtk_text_iter_forward_chars(&start, Int32(range.start - position))
            position = range.start
            stop = start
            gtk_text_iter_forward_chars(&stop, Int32(range.length))
            for tag in range.tags { gtk_text_buffer_apply_tag(buffer, tag.tag, &start, &stop) }
        }
    }

    /// The character offset of the text at window coordinates (x, y), if the point is over text: the character
    /// under the point, its right half included (`gtk_text_view_get_iter_at_location` moves past a character
    /// whose right half is hit, the caret's place, which misses a picture's right half).
    /// <https://docs.gtk.org/gtk3/method.TextView.get_iter_at_position.html>
    package func characterOffset(atWindowX x: Double, y: Double) -> Int? {
        var bx: Int32 = 0, by: Int32 = 0
        gtk_text_view_window_to_buffer_coords(view, GTK_TEXT_WINDOW_WIDGET, Int32(x), Int32(y), &bx, &by)
        var iter = GtkTextIter()
        var trailing: Int32 = 0
        guard gtk_text_view_get_iter_at_position(view, &iter, &trailing, bx, by) != 0 else { return nil }
        return Int(gtk_text_iter_get_offset(&iter))
    }

    /// Applies `tag` to the characters from `start` up to `end`.
    package func applyTag(_ tag: TextTag, fromCharacter start: Int, to end: Int) {
        var first = GtkTextIter(), last = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &first, Int32(start))
        gtk_text_buffer_get_iter_at_offset(buffer, &last, Int32(end))
        gtk_text_buffer_apply_tag(buffer, tag.tag, &first, &last)
    }

    /// Selects all the text, as Ctrl+A does.
    package func selectAll() {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        gtk_text_buffer_select_range(buffer, &start, &end)
    }

    /// The number of characters in the buffer.
    package var characterCount: Int { Int(gtk_text_buffer_get_char_count(buffer)) }
    /// The buffer's lines (its newlines and one), as the B-tree counts them: no walk of the text.
    package var lineCount: Int { Int(gtk_text_buffer_get_line_count(buffer)) }

    /// Deletes everything from character `offset` on.
    package func deleteToEnd(fromCharacter offset: Int) {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &start, Int32(offset))
        gtk_text_buffer_get_end_iter(buffer, &end)
        gtk_text_buffer_delete(buffer, &start, &end)
    }

    /// Acts as the user moving the pointer to window coordinates (x, y): the event goes through GTK to every
    /// handler of the text view, as a real one would.
    package func simulatePointerMotion(x: Double, y: Double) {
        sendEvent(GDK_MOTION_NOTIFY) { event in
            event.pointee.motion.x = x
            event.pointee.motion.y = y
        }
    }

    /// Acts as the user releasing a mouse button at window coordinates (x, y).
    package func simulateButtonRelease(x: Double, y: Double, button: UInt32 = 1) {
        sendEvent(GDK_BUTTON_RELEASE) { event in
            event.pointee.button.x = x
            event.pointee.button.y = y
            event.pointee.button.button = button
        }
    }

    private func sendEvent(_ type: GdkEventType, _ fill: (UnsafeMutablePointer<GdkEvent>) -> Void) {
        guard let window = gtk_text_view_get_window(view, GTK_TEXT_WINDOW_TEXT), let event = gdk_event_new(type)
        else { return }
        // The event owns a reference to its window; gdk_event_free drops it.
        event.pointee.any.window = window
        g_object_ref(UnsafeMutableRawPointer(window))
        event.pointee.any.send_event = 1
        if let seat = gdk_display_get_default_seat(gdk_window_get_display(window)) {
            gdk_event_set_device(event, gdk_seat_get_pointer(seat))
        }
        fill(event)
        gtk_widget_event(widget, event)
        gdk_event_free(event)
    }

    /// The mark named `name`, made or moved to character `offset`. Scrolling goes to a mark, not an iter: the view
    /// scrolls to a mark once the lines above it are measured, which a long page only does in idle time.
    func placeMark(_ name: String, atCharacter offset: Int) -> UnsafeMutablePointer<GtkTextMark> {
        var at = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &at, Int32(clamping: offset))
        if let existing = gtk_text_buffer_get_mark(buffer, name) {
            gtk_text_buffer_move_mark(buffer, existing, &at)
            return existing
        }
        return gtk_text_buffer_create_mark(buffer, name, &at, 1)!
    }

    /// Scrolls so that character `offset` is at the top of the view; false if the buffer is not that long yet.
    @discardableResult
    package func scroll(toCharacter offset: Int) -> Bool {
        guard offset <= Int(gtk_text_buffer_get_char_count(buffer)) else { return false }
        let mark = placeMark("scroll-target", atCharacter: offset)
        // yalign 0 puts the place at the top. xalign 1 asks for the least horizontal scroll that shows it, which
        // for a place on the first screen width is none: with xalign 0 GTK would scroll sideways by the place's
        // indentation whenever a wide preformatted line makes the page scrollable sideways
        // (gtk_text_view_scroll_to_iter: the x destination is the place minus xalign times the view's width).
        gtk_text_view_scroll_to_mark(view, mark, 0, 1, 1, 0)
        return true
    }

    package var hasSelection: Bool {
        var start = GtkTextIter(), end = GtkTextIter()
        return gtk_text_buffer_get_selection_bounds(buffer, &start, &end) != 0
    }

    /// The names of the tags on the character at window coordinates (x, y), if the point is over text.
    package func tagNames(atWindowX x: Double, y: Double) -> [String] {
        var bx: Int32 = 0, by: Int32 = 0
        gtk_text_view_window_to_buffer_coords(view, GTK_TEXT_WINDOW_WIDGET, Int32(x), Int32(y), &bx, &by)
        var iter = GtkTextIter()
        guard gtk_text_view_get_iter_at_location(view, &iter, bx, by) != 0 else { return [] }
        return tagNames(at: &iter)
    }

    /// The names of the tags on the character at `offset`.
    package func tagNames(atCharacter offset: Int) -> [String] {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &iter, Int32(clamping: offset))
        return tagNames(at: &iter)
    }

    private func tagNames(at iter: inout GtkTextIter) -> [String] {
        var names: [String] = []
        var list = gtk_text_iter_get_tags(&iter)
        let head = list
        while let node = list {
            let tag = node.pointee.data.assumingMemoryBound(to: GtkTextTag.self)
            if let name = cgtk_text_tag_dup_name(tag) { names.append(String(cString: name)); g_free(name) }
            list = node.pointee.next
        }
        g_slist_free(head)
        return names
    }

    /// Window coordinates of the first character of the first range carrying `tagName`, for tests that click.
    package func windowLocation(ofTag tagName: String) -> (x: Int, y: Int)? {
        guard let tag = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(buffer), tagName) else { return nil }
        var iter = GtkTextIter()
        gtk_text_buffer_get_start_iter(buffer, &iter)
        if gtk_text_iter_starts_tag(&iter, tag) == 0 {
            guard gtk_text_iter_forward_to_tag_toggle(&iter, tag) != 0 else { return nil }
        }
        var rect = GdkRectangle()
        gtk_text_view_get_iter_location(view, &iter, &rect)
        var wx: Int32 = 0, wy: Int32 = 0
        gtk_text_view_buffer_to_window_coords(view, GTK_TEXT_WINDOW_WIDGET, rect.x + 2, rect.y + rect.height / 2,
                                              &wx, &wy)
        return (Int(wx), Int(wy))
    }

    /// Shows a hand pointer over links and the text cursor elsewhere.
    package func setPointer(hand: Bool) {
        guard let window = gtk_text_view_get_window(view, GTK_TEXT_WINDOW_TEXT) else { return }
        let cursor = gdk_cursor_new_from_name(gdk_window_get_display(window), hand ? "pointer" : "text")
        gdk_window_set_cursor(window, cursor)
        if let cursor { g_object_unref(UnsafeMutableRawPointer(cursor)) }
    }

    package func scrollToStart() {
        var iter = GtkTextIter()
        gtk_text_buffer_get_start_iter(buffer, &iter)
        gtk_text_buffer_place_cursor(buffer, &iter)
    }
}
