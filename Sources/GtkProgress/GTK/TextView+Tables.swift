internal import CGtk

extension TextView {
    /// Sets `tag`'s tab stops at `positions`, pixels from the paragraph's start.
    package func setTabStops(_ tag: TextTag, at positions: [Int]) {
        let stops = positions.map { Int32(clamping: $0) }
        stops.withUnsafeBufferPointer {
            cgtk_text_tag_set_tab_stops(UnsafeMutableRawPointer(tag.tag), Int32(clamping: $0.count), $0.baseAddress)
        }
    }

    /// Tab stops at `positions` (pixels from the left margin) whose text sits left of, centred on or right of
    /// its stop (Pango's tab alignments, <https://docs.gtk.org/Pango/enum.TabAlign.html>).
    package enum TabAlignment: Hashable, Sendable { case left, right, center }

    package func setTabStops(_ tag: TextTag, at positions: [(x: Int, alignment: TabAlignment)]) {
        let stops = positions.map { Int32(clamping: $0.x) }
        let alignments: [Int32] = positions.map {
            switch $0.alignment { case .left: 0; case .right: 1; case .center: 2 }
        }
        stops.withUnsafeBufferPointer { stops in
            alignments.withUnsafeBufferPointer {
                cgtk_text_tag_set_aligned_tab_stops(UnsafeMutableRawPointer(tag.tag), Int32(clamping: stops.count),
                                                    stops.baseAddress, $0.baseAddress)
            }
        }
    }
}

extension TextView {
    /// Each word's left and right edge in pixels, for each text laid out on one line in the view's font at its
    /// current size (`bold` ones in bold); words are UTF-8 byte ranges of their text. `objects`: the UTF-8 index
    /// and width in pixels of each U+FFFC that stands for a picture or a widget, laid out as a box of that width
    /// (a shape attribute, as GtkTextLayout lays out the text's own pictures and children:
    /// <https://docs.gtk.org/Pango/func.attr_shape_new.html>). One PangoLayout for them all; the edges are Pango's
    /// positions of the words' first and end indexes (<https://docs.gtk.org/Pango/method.Layout.index_to_pos.html>).
    package func measureWords(_ texts: [(text: String, bold: Bool, words: [Range<Int>], objects: [(index: Int, width: Int)])])
        -> [(starts: [Int], ends: [Int])] {
        guard let layout = gtk_widget_create_pango_layout(widget, "") else {
            return texts.map { ([Int](repeating: 0, count: $0.words.count), [Int](repeating: 0, count: $0.words.count)) }
        }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let boldAttributes = pango_attr_list_new()
        defer { pango_attr_list_unref(boldAttributes) }
        pango_attr_list_insert(boldAttributes, pango_attr_weight_new(PANGO_WEIGHT_BOLD))
        pango_layout_set_width(layout, -1)
        var results: [(starts: [Int], ends: [Int])] = []
        results.reserveCapacity(texts.count)
        for (text, bold, words, objects) in texts {
            var list: OpaquePointer? = nil
            if objects.isEmpty {
                pango_layout_set_attributes(layout, bold ? boldAttributes : nil)
            } else {
                list = pango_attr_list_new()
                if bold { pango_attr_list_insert(list, pango_attr_weight_new(PANGO_WEIGHT_BOLD)) }
                for object in objects {
                    let width = Int32(clamping: object.width) * Int32(PANGO_SCALE)
                    var rect = PangoRectangle(x: 0, y: -width, width: width, height: width)
                    guard let shape = pango_attr_shape_new(&rect, &rect) else { continue }
                    shape.pointee.start_index = guint(clamping: object.index)
                    shape.pointee.end_index = guint(clamping: object.index + 3)
                    pango_attr_list_insert(list, shape)
                }
                pango_layout_set_attributes(layout, list)
            }
            defer { if let list { pango_attr_list_unref(list) } }
            pango_layout_set_text(layout, text, -1)
            var starts: [Int] = [], ends: [Int] = []
            starts.reserveCapacity(words.count)
            ends.reserveCapacity(words.count)
            func x(_ index: Int) -> Int {
                var rect = PangoRectangle()
                pango_layout_index_to_pos(layout, Int32(clamping: index), &rect)
                return Int(rect.x) / Int(PANGO_SCALE)
            }
            for word in words {
                // Right-to-left text has its start to the right of its end.
                let a = x(word.lowerBound), b = x(word.upperBound)
                starts.append(min(a, b))
                ends.append(max(a, b))
            }
            results.append((starts, ends))
        }
        pango_layout_set_attributes(layout, nil)
        return results
    }

    /// Where a line may break in `text` by Pango's rules (UAX #14): for each character, whether a break is allowed
    /// before it (<https://docs.gtk.org/Pango/func.get_log_attrs.html>, `is_line_break`).
    package func lineBreaks(_ text: String) -> [Bool] {
        let count = text.unicodeScalars.count
        var attributes = [PangoLogAttr](repeating: PangoLogAttr(), count: count + 1)
        text.withCString { pointer in
            pango_get_log_attrs(pointer, Int32(clamping: strlen(pointer)), -1, pango_language_get_default(),
                                &attributes, Int32(clamping: count + 1))
        }
        return attributes.prefix(count).map { $0.is_line_break != 0 }
    }

    /// The width in pixels of the picture or widget at character `offset` as the text lays it out (a buffer
    /// picture's width; an anchored widget's minimum width, what GtkTextLayout gives it); nil when neither is there.
    package func objectWidth(atCharacter offset: Int) -> Int? {
        guard offset >= 0, offset < characterCount else { return nil }
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &iter, Int32(offset))
        if let pixbuf = gtk_text_iter_get_pixbuf(&iter) { return Int(gdk_pixbuf_get_width(pixbuf)) }
        guard let anchor = gtk_text_iter_get_child_anchor(&iter) else { return nil }
        let widgets = gtk_text_child_anchor_get_widgets(anchor)
        defer { g_list_free(widgets) }
        guard let child = widgets?.pointee.data else { return nil }
        var minimum = GtkRequisition()
        gtk_widget_get_preferred_size(child.assumingMemoryBound(to: GtkWidget.self), &minimum, nil)
        return Int(minimum.width)
    }

    /// What `rewrite` puts in place of a stretch of the buffer, in order.
    package enum RewritePiece {
        /// A copy of characters `from ..< from + count` of the stretch as it is, with their tags.
        case copy(from: Int, count: Int)
        /// One character with `tags`, and the tags of the character at `tagsFrom` (of the stretch as it is).
        case character(Unicode.Scalar, tagsFrom: Int?)
    }

    /// Replaces characters `start ..< start + length` with `pieces`: copies of its own text (tags, pictures and
    /// all, through gtk_text_buffer_insert_range) and characters tagged `tags`. The copies go in after the
    /// stretch, which then goes, so the offsets they are copied from stay valid.
    package func rewrite(fromCharacter start: Int, length: Int, as pieces: [RewritePiece], tags: [TextTag]) {
        func iter(_ offset: Int) -> GtkTextIter {
            var at = GtkTextIter()
            gtk_text_buffer_get_iter_at_offset(buffer, &at, Int32(clamping: offset))
            return at
        }
        var at = start + length
        for piece in pieces {
            var destination = iter(at)
            switch piece {
            case .copy(let from, let count):
                guard count > 0 else { continue }
                var first = iter(from), last = iter(from + count)
                gtk_text_buffer_insert_range(buffer, &destination, &first, &last)
                at += count
            case .character(let scalar, let tagsFrom):
                var text = Array(String(Character(scalar)).utf8CString)
                gtk_text_buffer_insert(buffer, &destination, &text, Int32(text.count - 1))
                var first = iter(at), last = iter(at + 1)
                for tag in tags { gtk_text_buffer_apply_tag(buffer, tag.tag, &first, &last) }
                if let tagsFrom {
                    var source = iter(tagsFrom)
                    var list = gtk_text_iter_get_tags(&source)
                    let head = list
                    while let node = list {
                        if let tag = node.pointee.data {
                            gtk_text_buffer_apply_tag(buffer, tag.assumingMemoryBound(to: GtkTextTag.self), &first, &last)
                        }
                        list = node.pointee.next
                    }
                    g_slist_free(head)
                }
                at += 1
            }
        }
        var first = iter(start), last = iter(start + length)
        gtk_text_buffer_delete(buffer, &first, &last)
    }

    /// Puts `tag` above every tag made before it, so its paragraph settings (margin, tab stops, spacing) win.
    package func raise(_ tag: TextTag) {
        let size = gtk_text_tag_table_get_size(gtk_text_buffer_get_tag_table(buffer))
        gtk_text_tag_set_priority(tag.tag, max(size - 1, 0))
    }
}

extension TextView {
    /// Where the lines holding characters `start ..< end` are, in the widget's coordinates: the left edge of
    /// character `start`, the top of its line and the bottom of the line of `end` (each line's spacing above and
    /// below included, gtk_text_view_get_line_yrange).
    package func lineBand(fromCharacter start: Int, to end: Int) -> (x: Double, top: Double, bottom: Double) {
        let view = cast(GtkTextView.self)
        var first = GtkTextIter(), last = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &first, Int32(clamping: start))
        gtk_text_buffer_get_iter_at_offset(buffer, &last, Int32(clamping: end))
        var location = GdkRectangle()
        gtk_text_view_get_iter_location(view, &first, &location)
        var top: Int32 = 0, height: Int32 = 0, lastTop: Int32 = 0, lastHeight: Int32 = 0
        gtk_text_view_get_line_yrange(view, &first, &top, &height)
        gtk_text_view_get_line_yrange(view, &last, &lastTop, &lastHeight)
        var x: Int32 = 0, y: Int32 = 0, bottom: Int32 = 0
        gtk_text_view_buffer_to_window_coords(view, GTK_TEXT_WINDOW_WIDGET, location.x, top, &x, &y)
        gtk_text_view_buffer_to_window_coords(view, GTK_TEXT_WINDOW_WIDGET, location.x, lastTop + lastHeight,
                                              &x, &bottom)
        return (Double(x), Double(y), Double(bottom))
    }
}

extension TextView {
    /// The text of characters `start ..< end` as GTK copies it: hidden text and pictures' and widgets' U+FFFC
    /// left out (<https://docs.gtk.org/gtk3/method.TextBuffer.get_text.html>).
    package func visibleText(fromCharacter start: Int, to end: Int) -> String? {
        var first = GtkTextIter(), last = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &first, Int32(clamping: start))
        gtk_text_buffer_get_iter_at_offset(buffer, &last, Int32(clamping: end))
        guard let text = gtk_text_buffer_get_text(buffer, &first, &last, 0) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Copying the selection (Ctrl+C, the menu) puts its text on the clipboard without `scalar`: after GTK's own
    /// copy (`copy-clipboard`'s class handler), the plain text replaces it when the selection holds one. The
    /// zero width spaces of a window table's cells (`BreakMarks`) are where a cell may break, not the page's text.
    /// `selected`, given the selection's character range, may give its text in place of the buffer's visible text.
    /// Line separators standing for the page's line breaks (`LineJoins`) are copied as the newlines they are.
    package func copyLeavingOut(_ scalar: Unicode.Scalar, selected: ((Range<Int>) -> String?)? = nil) {
        connect(.copyClipboard, after: true) { [weak self] in
            guard let self else { return }
            var start = GtkTextIter(), end = GtkTextIter()
            guard gtk_text_buffer_get_selection_bounds(self.buffer, &start, &end) != 0 else { return }
            let range = Int(gtk_text_iter_get_offset(&start))..<Int(gtk_text_iter_get_offset(&end))
            let given = selected?(range)
            guard let copied = given ?? self.visibleText(fromCharacter: range.lowerBound, to: range.upperBound)
            else { return }
            let separator = LineJoins.separatorScalar
            guard given != nil || copied.unicodeScalars.contains(where: { $0 == scalar || $0 == separator })
            else { return }
            var kept = String.UnicodeScalarView()
            kept.append(contentsOf: copied.unicodeScalars.lazy.filter { $0 != scalar })
            Clipboard.setText(LineJoins.newlines(String(kept)))
        }
    }
}
