import FoundationEssentials

/// Tables laid out at the view's width in the page's own font.
///
/// A row is one paragraph of the buffer, its cells separated by tabs, with one tag per table whose tab stops sit at
/// the column edges. Tab stops and not a grid of widgets embedded in the text (child anchors): text in a widget
/// is outside the buffer, so find in page, a selection dragged across rows, copying and the text view's
/// accessible text (what screen readers read) would all stop at a table; as tab-separated text the cells are
/// read, found, selected and copied in order like the rest of the page, and copy gives rows of tab-separated
/// cells that paste into a spreadsheet.
///
/// Column widths follow `TableLayout`'s rules in pixels: each column's minimum is its widest word, its preferred
/// width its longest cell on one line; preferred widths are used when they fit, otherwise every column gets its
/// minimum and the rest of the room is shared out in proportion to what each column lacks. Each cell text is
/// measured once, with one PangoLayout (`TextView.measureCells`), when the table's tag is made, and again only
/// when the text size changes; a resize only recomputes the tab stops from those widths, and GTK lays out again
/// just the paragraphs that carry the tag. `PageTable`'s bounds keep the measuring to a few milliseconds.
///
/// What this does not do: a cell longer than its column does not wrap inside it; Pango wraps the row's paragraph
/// at the right margin, and a cell that overruns its tab stop pushes the next cell to the following stop. With
/// preferred widths that fit (the table fits the window on one line per row) this never happens.
struct PageViewTables {
    /// Per table: its tag, each column's minimum and preferred width in pixels, and the character width they were
    /// measured at.
    var tags: [Int: TextTag] = [:]
    var widths: [Int: (minimum: [Int], preferred: [Int])] = [:]
    var measuredAt = 0.0
    /// The tab stops each table has now.
    var stops: [Int: [Int]] = [:]
}

extension PageView {
    /// Pixels between the text of two columns.
    static let tableGap = 24

    /// The tag of table `index`'s rows, made and fitted on first use.
    func tableTag(_ index: Int) -> TextTag {
        if let tag = tables.tags[index] { return tag }
        // `cellpadding` as space above and below each row (and beside each cell, in `columnWidths`).
        let padding = min(table(index)?.padding ?? 0, 20)
        let tag = textView.createTag("table\(index)", look: TextTag.Look(pixelsAboveLines: padding,
                                                                          pixelsBelowLines: padding))
        tables.tags[index] = tag
        fitTable(index)
        // The reading measure may have to widen for it.
        scheduleFitMeasure()
        return tag
    }

    private func table(_ index: Int) -> PageTable? {
        guard let tables = document?.tables, tables.indices.contains(index) else { return nil }
        return tables[index]
    }

    /// Each column's minimum and preferred width, measured once per text size.
    private func columnWidths(_ index: Int) -> (minimum: [Int], preferred: [Int])? {
        guard let table = table(index) else { return nil }
        if let known = tables.widths[index] { return known }
        if tables.measuredAt == 0 { tables.measuredAt = textView.averageCharacterWidth }
        var minimum = [Int](repeating: 0, count: table.columnCount), preferred = minimum
        let measured = textView.measureCells(table.cells.map { ($0.text, $0.bold) })
        for (cell, size) in zip(table.cells, measured) where cell.column < table.columnCount {
            minimum[cell.column] = max(minimum[cell.column], size.minimum + 2 * min(table.padding, 40))
            preferred[cell.column] = max(preferred[cell.column], size.preferred + 2 * min(table.padding, 40))
        }
        tables.widths[index] = (minimum, preferred)
        return (minimum, preferred)
    }

    /// The widest table's preferred width in pixels: the reading measure takes it in (`fitMeasure`).
    var widestTable: Int {
        tables.widths.values.map { $0.preferred.reduce(0, +) + Self.tableGap * max($0.preferred.count - 1, 0) }
            .max() ?? 0
    }

    /// Sets table `index`'s tab stops for the room the text has now; true when they moved.
    @discardableResult
    func fitTable(_ index: Int) -> Bool {
        guard let tag = tables.tags[index], let (minimum, preferred) = columnWidths(index) else { return false }
        let side = textView.sideSpace
        let room = max(0, textView.width - side.left - side.right - 32) - Self.tableGap * max(preferred.count - 1, 0)
        let widths = Self.share(room, minimum: minimum, preferred: preferred)
        var positions: [Int] = []
        var x = 0
        for width in widths.dropLast() {
            x += width + Self.tableGap
            positions.append(x)
        }
        guard tables.stops[index] != positions else { return false }
        tables.stops[index] = positions
        textView.setTabStops(tag, at: positions)
        return true
    }

    /// Preferred widths when they fit `room`; else minimums plus the rest of the room in proportion to what each
    /// column lacks of its preferred width; else (too wide even at its narrowest) minimums.
    static func share(_ room: Int, minimum: [Int], preferred: [Int]) -> [Int] {
        let wanted = preferred.reduce(0, +), least = minimum.reduce(0, +)
        if wanted <= room { return preferred }
        if least >= room { return minimum }
        let spare = Double(room - least), lack = Double(wanted - least)
        return zip(minimum, preferred).map { $0 + Int((Double($1 - $0) * spare / lack).rounded(.down)) }
    }

    /// After a resize or a change of text size: the tab stops again, the cells measured again only when the
    /// text size changed.
    func refitTables() {
        guard !tables.tags.isEmpty else { return }
        let characterWidth = textView.averageCharacterWidth
        if characterWidth != tables.measuredAt {
            tables.widths = [:]
            tables.measuredAt = characterWidth
        }
        let top = textView.topCharacter
        var moved = false
        for index in tables.tags.keys where fitTable(index) { moved = true }
        // Rows that wrap differently change the page's height above the reader: the top line stays, as the
        // text size does it (`setZoom`), once GTK has laid the rows out again.
        guard moved, top > 0, isComplete else { return }
        textView.scroll(toCharacter: top)
        MainLoop.idle { [weak self] in self?.textView.scroll(toCharacter: top) }
    }
}
