internal import CGtk

extension TextView {
    /// Puts `picture` in place of the one character at `offset` (the U+FFFC an image stands as, or an earlier
    /// picture): a pixbuf is one character too (`gtk_text_buffer_insert_pixbuf`), so no other offset moves.
    /// <https://docs.gtk.org/gtk3/method.TextBuffer.insert_pixbuf.html>
    package func replaceCharacter(at offset: Int, with picture: Picture) {
        guard var start = replaceableCharacter(at: offset) else { return }
        gtk_text_buffer_insert_pixbuf(buffer, &start, picture.pixbuf)
    }

    /// Puts a thin frame holding `text` in place of the character at `offset`, through a child anchor (one
    /// character as well): an image's alt text when the image cannot be shown.
    /// <https://docs.gtk.org/gtk3/method.TextView.add_child_at_anchor.html>
    package func replaceCharacter(at offset: Int, withFramedText text: String, tooltip: String?) {
        guard var start = replaceableCharacter(at: offset) else { return }
        guard let anchor = gtk_text_buffer_create_child_anchor(buffer, &start) else { return }
        let frame = gtk_frame_new(nil)!
        let label = gtk_label_new(text)!
        // One line, cut with "…" past 60 characters (the tooltip says why the image is missing): a wrapping label
        // in a text view is given its narrowest width, a word a line.
        let gtkLabel = UnsafeMutableRawPointer(label).assumingMemoryBound(to: GtkLabel.self)
        gtk_label_set_ellipsize(gtkLabel, PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(gtkLabel, 60)
        gtk_label_set_width_chars(gtkLabel, Int32(min(text.count, 60)))
        gtk_widget_set_margin_start(label, 3)
        gtk_widget_set_margin_end(label, 3)
        if let tooltip { gtk_widget_set_tooltip_text(frame, tooltip) }
        gtk_container_add(UnsafeMutableRawPointer(frame).assumingMemoryBound(to: GtkContainer.self), label)
        gtk_widget_show_all(frame)
        gtk_text_view_add_child_at_anchor(cast(GtkTextView.self), frame, anchor)
    }

    /// Deletes the character at `offset` and returns where it stood; nil past the end of the buffer.
    private func replaceableCharacter(at offset: Int) -> GtkTextIter? {
        guard offset >= 0, offset < characterCount else { return nil }
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &start, Int32(offset))
        gtk_text_buffer_get_iter_at_offset(buffer, &end, Int32(offset + 1))
        gtk_text_buffer_delete(buffer, &start, &end)
        return start
    }

    /// The width text can take, in pixels: the view's less its margins; at least 64.
    package var textWidth: Int {
        let view = cast(GtkTextView.self)
        let side = sideSpace
        let width = Int(gtk_widget_get_allocated_width(widget)) - Int(gtk_text_view_get_left_margin(view))
            - Int(gtk_text_view_get_right_margin(view)) - 8 - side.left - side.right
        return max(width, 64)
    }
}

extension TextView {
    /// The text of the framed label at `offset`, nil when no frame stands there (tests, and what a screen reader
    /// is given as the image's name).
    package func framedText(atCharacter offset: Int) -> String? {
        guard offset >= 0, offset < characterCount else { return nil }
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &iter, Int32(offset))
        guard let anchor = gtk_text_iter_get_child_anchor(&iter) else { return nil }
        let widgets = gtk_text_child_anchor_get_widgets(anchor)
        defer { g_list_free(widgets) }
        guard let frame = widgets?.pointee.data,
              let label = gtk_bin_get_child(frame.assumingMemoryBound(to: GtkBin.self)),
              let text = gtk_label_get_text(UnsafeMutableRawPointer(label).assumingMemoryBound(to: GtkLabel.self)) else {
            return nil
        }
        return String(cString: text)
    }
}
