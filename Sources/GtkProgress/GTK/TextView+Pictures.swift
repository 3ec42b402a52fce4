internal import CGtk

/// One image of the page in the text view: a `GtkImage` at a child anchor (one character, the U+FFFC the image
/// stands as), showing a decoded picture, or empty at a reserved size while the picture is on its way or let go.
///
/// A widget rather than a pixbuf in the buffer (`gtk_text_buffer_insert_pixbuf`) for two reasons. A screen
/// reader reaches it: GTK 3's text view accessible exposes its anchored widgets as its children but a pixbuf only
/// as U+FFFC in its AtkText, with no name; the image's accessible (ATK role image) is named by its alt text, as
/// HTML-AAM maps `alt` to the accessible name. And it draws a cairo surface with a device scale
/// (`gtk_image_set_from_surface`), so on a HiDPI screen a picture decoded at twice its size shows its pixels
/// one for one, where a buffer pixbuf is always drawn one pixel per logical pixel, doubled.
/// <https://www.w3.org/TR/html-aam-1.0/#img-element-accessible-name-computation>
/// <https://docs.gtk.org/gtk3/method.Image.set_from_surface.html>
@MainActor
package final class PictureWidget: Widget {
    /// The picture shown; nil while empty.
    package private(set) var picture: Picture?

    package init(alt: String?) {
        super.init(retaining: gtk_image_new())
        let accessible = gtk_widget_get_accessible(widget)
        atk_object_set_role(accessible, ATK_ROLE_IMAGE)
        if let alt, !alt.isEmpty {
            atk_object_set_name(accessible, alt)
            atk_image_set_image_description(OpaquePointer(accessible), alt)
        }
    }

    private var image: UnsafeMutablePointer<GtkImage> { cast(GtkImage.self) }

    /// Shows `picture` at its size on the page.
    package func show(_ picture: Picture) {
        guard picture !== self.picture else { return }
        self.picture = picture
        gtk_image_set_from_surface(image, picture.surface)
        gtk_widget_set_size_request(widget, -1, -1)
    }

    /// Empty, holding `width` × `height` logical pixels.
    package func showBlank(width: Int, height: Int) {
        if picture != nil {
            picture = nil
            gtk_image_clear(image)
        }
        gtk_widget_set_size_request(widget, Int32(max(width, 1)), Int32(max(height, 1)))
    }

    /// Whether it is still in a text view (its anchor not deleted).
    package var isPlaced: Bool { gtk_widget_get_parent(widget) != nil }
}

extension TextView {
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
              g_type_check_instance_is_a(frame.assumingMemoryBound(to: GTypeInstance.self), gtk_bin_get_type()) != 0,
              let label = gtk_bin_get_child(frame.assumingMemoryBound(to: GtkBin.self)),
              let text = gtk_label_get_text(UnsafeMutableRawPointer(label).assumingMemoryBound(to: GtkLabel.self)) else {
            return nil
        }
        return String(cString: text)
    }
}
