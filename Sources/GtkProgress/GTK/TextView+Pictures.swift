internal import CGtk

/// One image of the page in the text view: a widget at a child anchor (one character, the U+FFFC the image
/// stands as) of the picture's size, painting the decoded picture, or nothing while it is on its way or let go.
///
/// A widget rather than a pixbuf in the buffer (`gtk_text_buffer_insert_pixbuf`) for two reasons. A screen
/// reader reaches it: GTK 3's text view accessible exposes its anchored widgets as its children but a pixbuf only
/// as U+FFFC in its AtkText, with no name; the widget's accessible (ATK role image) is named by the alt text, as
/// HTML-AAM maps `alt` to the accessible name. And it paints a cairo surface with a device scale, so on a HiDPI
/// screen a picture decoded at twice its size shows its pixels one for one, where a buffer pixbuf is always drawn
/// one pixel per logical pixel, doubled.
///
/// A drawing area and not a `GtkImage`: its size is its size request, set once from the reserved size, so a
/// picture arriving at that size only repaints it. A `GtkImage` asks for a new size at every change, and each such
/// request makes the text view allocate all its anchored children again (`gtk_text_view_allocate_children` walks
/// them all). The walk still comes with every slice and size change, so pages of many images do without these
/// widgets (`PageViewImages.widgetLimit`).
/// <https://www.w3.org/TR/html-aam-1.0/#img-element-accessible-name-computation>
@MainActor
package final class PictureWidget: Widget {
    /// The picture shown; nil while empty.
    package private(set) var picture: Picture?
    private var size = (width: 0, height: 0)

    package init(alt: String?) {
        super.init(retaining: gtk_drawing_area_new())
        let accessible = gtk_widget_get_accessible(widget)
        atk_object_set_role(accessible, ATK_ROLE_IMAGE)
        if let alt, !alt.isEmpty { atk_object_set_name(accessible, alt) }
        onPaintAbove { [weak self] context in
            guard let self, let picture = self.picture, let surface = picture.surface else { return }
            // Shown at another size than decoded (the same picture at two sizes on a page): scaled as drawn.
            if self.size != (picture.width, picture.height), picture.width > 0, picture.height > 0 {
                cairo_scale(context.cr, Double(self.size.width) / Double(picture.width),
                            Double(self.size.height) / Double(picture.height))
            }
            cairo_set_source_surface(context.cr, surface, 0, 0)
            cairo_paint(context.cr)
        }
    }

    /// Shows `picture` at its size on the page, or at `size` (logical pixels) when given.
    package func show(_ picture: Picture, size: (width: Int, height: Int)? = nil) {
        let size = size ?? (picture.width, picture.height)
        guard picture !== self.picture || (max(size.width, 1), max(size.height, 1)) != self.size else { return }
        self.picture = picture
        resize(width: size.width, height: size.height)
        gtk_widget_queue_draw(widget)
    }

    /// Empty, holding `width` × `height` logical pixels.
    package func showBlank(width: Int, height: Int) {
        if picture != nil {
            picture = nil
            gtk_widget_queue_draw(widget)
        }
        resize(width: width, height: height)
    }

    /// A new size request only when the size changes: each one lays out the text view's children again.
    private func resize(width: Int, height: Int) {
        let new = (max(width, 1), max(height, 1))
        guard new != size else { return }
        size = new
        gtk_widget_set_size_request(widget, Int32(new.0), Int32(new.1))
    }

    /// Whether it is still in a text view (its anchor not deleted).
    package var isPlaced: Bool { gtk_widget_get_parent(widget) != nil }
}

extension TextView {
    /// Puts a buffer picture in place of the one character at `offset` (the U+FFFC an image stands as, or an
    /// earlier picture): a pixbuf is one character too (`gtk_text_buffer_insert_pixbuf`), so no other offset moves.
    /// <https://docs.gtk.org/gtk3/method.TextBuffer.insert_pixbuf.html>
    package func replaceCharacter(at offset: Int, with picture: Picture) {
        guard let pixbuf = picture.pixbuf else { return }
        replaceCharacter(at: offset) { gtk_text_buffer_insert_pixbuf(buffer, &$0, pixbuf) }
    }

    /// Puts a thin frame holding `text` in place of the character at `offset`, through a child anchor (one
    /// character as well): an image's alt text when the image cannot be shown.
    /// <https://docs.gtk.org/gtk3/method.TextView.add_child_at_anchor.html>
    package func replaceCharacter(at offset: Int, withFramedText text: String, tooltip: String?) {
        var made: UnsafeMutablePointer<GtkTextChildAnchor>?
        replaceCharacter(at: offset) { made = gtk_text_buffer_create_child_anchor(buffer, &$0) }
        guard let anchor = made else { return }
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

    /// Deletes the character at `offset`, lets `insert` put one character (a picture or a child anchor) where it
    /// stood, and gives that one the tags the old one had. GTK gives an inserted picture or anchor no tags, and a
    /// line takes its margins, tab stops and justification from the tags of its first character
    /// (<https://docs.gtk.org/gtk3/class.TextTag.html>, "paragraph" properties): a picture starting a table's row,
    /// a list item or a centred paragraph would otherwise set its line at the page's bare margin and tabs.
    /// Nothing happens past the end of the buffer.
    func replaceCharacter(at offset: Int, inserting insert: (inout GtkTextIter) -> Void) {
        guard offset >= 0, offset < characterCount else { return }
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &start, Int32(offset))
        let tags = gtk_text_iter_get_tags(&start)
        defer { g_slist_free(tags) }
        gtk_text_buffer_get_iter_at_offset(buffer, &end, Int32(offset + 1))
        gtk_text_buffer_delete(buffer, &start, &end)
        insert(&start)
        gtk_text_buffer_get_iter_at_offset(buffer, &start, Int32(offset))
        gtk_text_buffer_get_iter_at_offset(buffer, &end, Int32(offset + 1))
        var node = tags
        while let link = node {
            if let tag = link.pointee.data?.assumingMemoryBound(to: GtkTextTag.self), !Self.decorates(tag) {
                gtk_text_buffer_apply_tag(buffer, tag, &start, &end)
            }
            node = link.pointee.next
        }
    }

    /// Whether `tag` draws a line under or through text (`underline-set`, `strikethrough-set`): a picture or a
    /// widget has no text to decorate (CSS Text Decoration 3 §2.1: decorations are not propagated into replaced
    /// elements), so a picture link is not underlined.
    private static func decorates(_ tag: UnsafeMutablePointer<GtkTextTag>) -> Bool {
        TextTag.flag(tag, "underline-set") || TextTag.flag(tag, "strikethrough-set")
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
              g_type_check_instance_is_a(frame.assumingMemoryBound(to: GTypeInstance.self), gtk_bin_get_type()) != 0,
              let label = gtk_bin_get_child(frame.assumingMemoryBound(to: GtkBin.self)),
              let text = gtk_label_get_text(UnsafeMutableRawPointer(label).assumingMemoryBound(to: GtkLabel.self)) else {
            return nil
        }
        return String(cString: text)
    }
}
