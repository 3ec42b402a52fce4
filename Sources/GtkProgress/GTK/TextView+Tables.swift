internal import CGtk

extension TextView {
    /// Each text's narrowest width (its widest word, where Pango may break the line) and its width on one line,
    /// in pixels of the view's font at its current size; `bold` ones in bold. One PangoLayout for them all.
    package func measureCells(_ texts: [(text: String, bold: Bool)]) -> [(minimum: Int, preferred: Int)] {
        guard let layout = gtk_widget_create_pango_layout(widget, "") else {
            return texts.map { _ in (0, 0) }
        }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let boldAttributes = pango_attr_list_new()
        defer { pango_attr_list_unref(boldAttributes) }
        pango_attr_list_insert(boldAttributes, pango_attr_weight_new(PANGO_WEIGHT_BOLD))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD)
        var results: [(minimum: Int, preferred: Int)] = []
        results.reserveCapacity(texts.count)
        for (text, bold) in texts {
            pango_layout_set_attributes(layout, bold ? boldAttributes : nil)
            pango_layout_set_text(layout, text, -1)
            var width: Int32 = 0, height: Int32 = 0
            pango_layout_set_width(layout, -1)
            pango_layout_get_pixel_size(layout, &width, &height)
            let preferred = Int(width)
            // At a width of one Pango unit every line holds one word, which PANGO_WRAP_WORD never breaks: the
            // widest line is the widest word.
            pango_layout_set_width(layout, 1)
            pango_layout_get_pixel_size(layout, &width, &height)
            results.append((min(Int(width), preferred), preferred))
        }
        return results
    }

    /// Sets `tag`'s tab stops at `positions`, pixels from the paragraph's start.
    package func setTabStops(_ tag: TextTag, at positions: [Int]) {
        let stops = positions.map { Int32(clamping: $0) }
        stops.withUnsafeBufferPointer {
            cgtk_text_tag_set_tab_stops(UnsafeMutableRawPointer(tag.tag), Int32(clamping: $0.count), $0.baseAddress)
        }
    }
}
