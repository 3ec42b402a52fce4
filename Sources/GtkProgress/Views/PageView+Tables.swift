import FoundationEssentials

/// Tables laid out at the view's width in the page's own font.
///
/// A row is one or more paragraphs of the buffer, its cells separated by tabs, with one tag per table whose tab
/// stops sit at the column edges. Tab stops and not a grid of widgets embedded in the text (child anchors): text
/// in a widget is outside the buffer, so find in page, a selection dragged across rows, copying and the text
/// view's accessible text (what screen readers read) would all stop at a table; as tab-separated text the cells
/// are read, found, selected and copied in order like the rest of the page, and copy gives rows of tab-separated
/// cells that paste into a spreadsheet.
///
/// Column widths are `TableLayout.columnWidths`, the dump's rules, in pixels: each column's minimum is its widest
/// stretch no line may break inside, its preferred width its longest cell on one line; preferred widths are used
/// when they fit, otherwise every column gets its minimum and the rest of the room is shared out in proportion to
/// what each column lacks; a table's `width="N%"` stretches it to that share of the room. A cell longer than its column continues on the lines below, in its column (`TabbedRows`): the
/// row's first line holds every cell's first line, each further line the parts of the cells that go on that far,
/// placed by a tag of its own (`continuationTag`) whose margin is its first part's column and whose tab stops are
/// the others'. Re-breaking a row moves its characters inside it but keeps their number, so offsets elsewhere in
/// the page (anchors, images, form controls, links) never move.
///
/// The words of each cell are measured once per text size (`TextView.measureWords`); a resize recomputes the
/// widths and re-breaks the rows from those figures. Both run in slices of bounded work (`fitStep`), the rows on
/// screen first, and the top line stays where it was.
///
/// A `border` table gets its grid drawn over the text for the rows on screen (`paintTableRules`). A table too wide
/// for the window even at its narrowest gets smaller text, down to `smallestTableScale`, rather than the page
/// scrolling sideways; past that it is shown in a sideways-scrolling area of its own (`PageView+TableArea.swift`).
struct PageViewTables {
    var fitted: [Int: FittedTable] = [:]
    /// Where each table's caption stands in the buffer, by table: a caption holding a picture or a widget is at
    /// least as wide as the widest of them.
    var captionCharacters: [Int: Range<Int>] = [:]
    /// The tables in the buffer, by where they start (in page order, as they go in): the ones on screen are found
    /// by a binary search, whatever the number of tables.
    var placed: [(start: Int, index: Int)] = []
    /// The tables the refit under way still has to look at, in page order, and how far it has got.
    var queue: [Int] = []
    var queueCursor = 0
    /// The character width the measures were taken at.
    var measuredAt = 0.0
    /// Bumped by each refit: slices of an older one stop.
    var job = 0
    /// Whether any row was re-broken since the last refit started.
    var rewrote = false
    /// Whether a refit is under way, and what the refits' main-loop turns did since the page was shown: how many,
    /// and the most cells measured and rows re-broken in one (tests read these to see the work go in slices).
    var pending = false
    var steps = 0
    var mostCellsInAStep = 0
    var mostRowsInAStep = 0
    /// The character at the top of the view when the refit started: kept there through all its slices (read
    /// again between slices, it would be wherever GTK has got to in laying out the rows above).
    var top = 0
    /// Whether the refit changed rows above `top`; then, once it is done, the view goes back to `top` until GTK
    /// has laid the rows out and it stays there.
    var movedAbove = false
    var keepTop: MainLoopTimer?
    /// The character at the top when the view's width changed, before GTK laid the rows out at the new width
    /// (which moves what is at the top when rows above take more lines).
    var widthChangeTop: Int?
    /// The tags of tables shown in an area of their own (`PageView+TableArea.swift`), and the area holding the
    /// current find match's highlight.
    var hiddenTag: TextTag?
    var areaLineTag: TextTag?
    var highlightedArea: (area: TableArea, range: Range<Int>)?
    /// The tags of the tables' captions, by table: their margins put each caption over its table.
    var captionTags: [Int: TextTag] = [:]
    /// The refit waiting for pictures that changed width in tables (`tableObjectChanged`).
    var objectRefit: MainLoopTimer?
}

/// One table's state in the view.
struct FittedTable {
    let tag: TextTag
    /// The first row's character offset (the document's, which the buffer keeps).
    var start: Int?
    /// Each row's cells (indices into `PageTable.cells`) and where each row starts, from the table's start.
    var rows: [Range<Int>] = []
    var rowOffsets: [Int] = []
    /// The table's characters, its last row's newline included.
    var length = 0
    /// Each cell's first character, from its row's start as the builder wrote the row (on one line).
    var cellOffsets: [Int] = []
    /// Rows holding an image or a form control (U+FFFC): how many of their first cells, up to the last one holding
    /// one, are never broken. The picture or widget stays on the row's first line, where the document has it
    /// (image and control offsets do not move), and a re-broken row is put back from after those cells.
    var keptWhole: [Int: Int] = [:]
    /// Measured while a picture or widget was not in the buffer yet: measured again at the next refit.
    var provisional = false
    /// The width each picture or widget was measured at, by its character from the table's start: one that
    /// changes size (a picture of no declared size arriving) has the table measured again.
    var objectWidths: [Int: Int] = [:]
    var words: [CellWords] = []
    /// Per cell, its words' edges in pixels; `measured` cells so far at `PageViewTables.measuredAt`.
    var starts: [[Int]] = []
    var ends: [[Int]] = []
    var measured = 0
    var minimum: [Int] = []
    var preferred: [Int] = []
    /// The minimum and preferred widths wait for the cells to be measured (again); the old ones hold meanwhile.
    var needsWidths = true
    /// The room the columns were shared out for, each column's width and its left edge from the rows' margin.
    var room = -1
    var widths: [Int] = []
    var columnX: [Int] = []
    /// The size of the table's text, a factor of the page's (below 1 for a table too wide at its narrowest), and
    /// whether the columns fit the room at that size.
    var scale = 1.0
    var fits = true
    /// Per cell, where its continuation lines start as the buffer has it now.
    var breaks: [[Int]] = []
    /// The rows still to look at in this refit, in order, and how far it has got.
    var order: [Int]?
    var cursor = 0
    /// Tags of continuation lines by their columns and place, and the tag of a wrapped row's first line.
    var continuationTags: [String: (tag: TextTag, columns: [Int], last: Bool)] = [:]
    var firstLineTag: TextTag?
    /// Set when a row's text is not what the table says (it is then left as it is).
    var broken = false
    /// Rows with a centred or right-aligned cell (`alignRow`), and the column layout each was last aligned for
    /// (`layout` counts the layouts `setColumns` made).
    var alignedRows: Set<Int> = []
    var layout = 0
    var alignedFor: [Int: Int] = [:]
    /// The tags of aligned lines by their look, those of earlier layouts free to take another look, the ones each
    /// row carries, and how far right of its column the first cell of each aligned row starts (the grid's left
    /// edge is found from that character).
    var alignTags: [String: TextTag] = [:]
    var spareAlignTags: [TextTag] = []
    var rowAlignTags: [Int: [TextTag]] = [:]
    var leadOffset: [Int: Int] = [:]
    /// Tag applications made by `alignRow` since the last slice looked (the slice's work counts them).
    var alignWork = 0
    /// A table too wide even at `smallestTableScale`, shown in its own sideways-scrolling area
    /// (`PageView+TableArea.swift`).
    var area: ScrolledTable?
    /// The height of the area's text as its view laid it out, for the column widths it was laid out at: an area
    /// made again at those widths takes it rather than the estimate.
    var areaTextHeight: (widths: [Int], height: Int)?
}

extension PageView {
    /// Pixels between the text of two columns.
    static let tableGap = 24
    /// The smallest the text of a table too wide for the window gets, as a factor of the page's; a table still too
    /// wide at that size goes into a sideways-scrolling area of its own (`PageView+TableArea.swift`).
    static let smallestTableScale = 0.75
    /// Work per main-loop turn when fitting tables: a cell measured costs 1, a row re-broken 2 and 3 for each
    /// piece of it put back in the buffer (each a buffer edit that GTK and its accessible report), a row looked
    /// at and left as it is 0.1, a table looked at 0.5.
    static let fitBudget = 400.0
    /// Tables of up to this many cells are measured when their tag is made.
    static let tableMeasuredAtOnce = 200

    /// The tag of table `index`'s rows, made and fitted on first use.
    func tableTag(_ index: Int) -> TextTag {
        if let fitted = tables.fitted[index] { return fitted.tag }
        let table = table(index)
        let indent = table?.indent ?? 0
        // The indentation's tag first, so the table's own margin (made after it) wins.
        if indent > 0 { _ = shared(.indent(depth: min(indent, 12))) }
        let padding = rowSpacing(table)
        let tag = textView.createTag("table\(index)", look: TextTag.Look(leftMargin: tableMargin(index),
                                                                          pixelsAboveLines: padding,
                                                                          pixelsBelowLines: padding))
        var fitted = FittedTable(tag: tag)
        if let table { prepare(&fitted, table) }
        // A small table gets its columns at once, so it never shows at the default tab stops; a larger one waits
        // for the refit (in slices) that the reading measure's fitting starts.
        if let table, table.cells.count <= Self.tableMeasuredAtOnce {
            var budget = Double(Self.tableMeasuredAtOnce)
            if measure(&fitted, table, budget: &budget) { setColumns(&fitted, table, index: index) }
        }
        tables.fitted[index] = fitted
        // The reading measure may have to widen for it, and the table is fitted with the others.
        scheduleFitMeasure()
        return tag
    }

    /// The tag of table `index`'s caption. Its left margin is the table's left edge; its right margin, set with
    /// the columns (`placeCaption`), makes it as wide as the table, so its centred lines sit over the table and
    /// wrap at its width (CSS 2.1 § 17.4).
    func captionTag(_ index: Int) -> TextTag {
        if let tag = tables.captionTags[index] { return tag }
        let indent = table(index)?.indent ?? 0
        if indent > 0 { _ = shared(.indent(depth: min(indent, 12))) }
        let tag = textView.createTag("caption\(index)", look: TextTag.Look())
        tables.captionTags[index] = tag
        placeCaption(index, tables.fitted[index])
        return tag
    }

    /// Sets table `index`'s caption over the table as its columns are now; until they are measured the caption
    /// starts at the table's edge and is centred on the page's width.
    private func placeCaption(_ index: Int, _ fitted: FittedTable?) {
        guard let tag = tables.captionTags[index], let table = table(index) else { return }
        let left = tableMargin(index) - tableInset(table)
        var look = TextTag.Look(leftMargin: left)
        if let fitted, let last = fitted.columnX.indices.last,
           fitted.widths.count == fitted.columnX.count {
            let width = max(fitted.columnX[last] + fitted.widths[last] + (table.border ? Self.tableGap : 0),
                            widestObject(inCaption: index))
            let side = textView.sideSpace
            let text = textView.width - side.left - side.right
            look.rightMargin = max(16, text - left - width)
        }
        tag.apply(look)
    }

    /// The widest picture or widget in table `index`'s caption, in pixels (0 for none).
    private func widestObject(inCaption index: Int) -> Int {
        guard let range = tables.captionCharacters[index], range.upperBound <= textView.characterCount else { return 0 }
        var widest = 0
        for (k, character) in textView.text(fromCharacter: range.lowerBound, to: range.upperBound).unicodeScalars
            .enumerated() where character == "\u{FFFC}" {
            widest = max(widest, textView.objectWidth(atCharacter: range.lowerBound + k) ?? 0)
        }
        return widest
    }

    /// Characters `range` of the buffer belong to table `index`'s caption.
    func captionInserted(_ index: Int, characters range: Range<Int>) {
        let known = tables.captionCharacters[index]
        tables.captionCharacters[index] = min(known?.lowerBound ?? range.lowerBound, range.lowerBound)
            ..< max(known?.upperBound ?? range.upperBound, range.upperBound)
    }

    func table(_ index: Int) -> PageTable? {
        guard let tables = document?.tables, tables.indices.contains(index) else { return nil }
        return tables[index]
    }

    /// The text's left edge in table `index`'s rows: the table's indentation and, with borders, room for the
    /// frame and the first cell's padding.
    private func tableMargin(_ index: Int) -> Int {
        guard let table = table(index) else { return 16 }
        let base = table.indent > 0 ? PageTag.indent(depth: min(table.indent, 12)).look.leftMargin ?? 16 : 16
        return base + tableInset(table)
    }

    /// Space between a rule and the text beside it: the cell's padding and half the gap between columns.
    func tableInset(_ table: PageTable) -> Int {
        table.border ? cellPadding(table) + Self.tableGap / 2 : 0
    }

    func cellPadding(_ table: PageTable) -> Int { min(table.padding, 40) }

    /// Space above and below each row: `cellpadding` (at most 20 px); with borders at least 3 px, so no text
    /// touches a rule.
    func rowSpacing(_ table: PageTable?) -> Int {
        guard let table else { return 0 }
        return table.border ? max(min(table.padding, 20), 3) : min(table.padding, 20)
    }

    /// The rows, their offsets and the cells' words, from the document's table.
    private func prepare(_ fitted: inout FittedTable, _ table: PageTable) {
        let rows = table.rows
        fitted.rows = rows.rows
        fitted.rowOffsets = rows.rowOffsets
        fitted.length = rows.length
        fitted.cellOffsets = rows.cellOffsets
        fitted.keptWhole = rows.keptWhole
        fitted.alignedRows = rows.alignedRows
        fitted.words = rows.words
        fitted.breaks = [[Int]](repeating: [], count: table.cells.count)
    }

    /// A partly arrived page is shown again from character `cut` on: the tables from there are taken from the
    /// new document. False when a table there has rows broken across lines, which only a new insertion undoes.
    func tablesReplaced(from cut: Int) -> Bool {
        for fitted in tables.fitted.values {
            guard fitted.start.map({ $0 + fitted.length >= cut }) ?? true else { continue }
            if fitted.breaks.contains(where: { !$0.isEmpty }) { return false }
        }
        return true
    }

    /// After `tablesReplaced`: the tables from `cut` on, prepared again from the new document; their tags stay.
    func tablesUpdated(from cut: Int) {
        for (index, fitted) in tables.fitted {
            guard fitted.start.map({ $0 + fitted.length >= cut }) ?? true else { continue }
            var fresh = FittedTable(tag: fitted.tag)
            fresh.continuationTags = fitted.continuationTags
            fresh.firstLineTag = fitted.firstLineTag
            fresh.scale = fitted.scale
            fresh.spareAlignTags = Array(fitted.alignTags.values) + fitted.spareAlignTags
            if let start = fitted.start, start < cut { fresh.start = start }
            if let table = table(index) { prepare(&fresh, table) }
            tables.fitted[index] = fresh
        }
        tables.placed.removeAll { $0.start >= cut }
    }

    /// The widest table's preferred width in pixels: the reading measure takes it in (`fitMeasure`).
    var widestTable: Int {
        tables.fitted.compactMap { index, fitted -> Int? in
            guard !fitted.preferred.isEmpty, let table = table(index) else { return nil }
            return fitted.preferred.reduce(0, +) + Self.tableGap * max(fitted.preferred.count - 1, 0)
                + 2 * tableInset(table)
        }.max() ?? 0
    }

    /// The row whose offset (from its table's start) is the last at or before `offset`; 0 before the first.
    static func row(at offset: Int, in rowOffsets: [Int]) -> Int {
        var low = 0, high = rowOffsets.count
        while low < high {
            let middle = (low + high) / 2
            if rowOffsets[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return max(low - 1, 0)
    }

    /// The tables placed in the buffer from the one holding or last before `offset`, in page order.
    func placedTables(from offset: Int) -> ArraySlice<(start: Int, index: Int)> {
        var low = 0, high = tables.placed.count
        while low < high {
            let middle = (low + high) / 2
            if tables.placed[middle].start <= offset { low = middle + 1 } else { high = middle }
        }
        return tables.placed[max(low - 1, 0)...]
    }

    /// The table's first character went into the buffer at `offset`.
    func tableInserted(_ index: Int, at offset: Int) {
        guard tables.fitted[index] != nil, tables.fitted[index]?.start == nil else { return }
        tables.fitted[index]?.start = offset
        if let last = tables.placed.last, last.start >= offset {
            // Not in page order (never expected): kept sorted all the same.
            tables.placed.append((offset, index))
            tables.placed.sort { $0.start < $1.start }
        } else {
            tables.placed.append((offset, index))
        }
    }

    /// The picture at character `offset` was placed or changed: if it is in a table measured without it or at
    /// another width (a picture of no declared size took its own), the table's cells are measured again and the
    /// table refitted, once the pictures arriving together are in (at most one refit every 100 ms, whatever their
    /// number).
    func tableObjectChanged(atCharacter offset: Int) {
        // The last table starting at or before `offset` (a binary search: a page's pictures times its tables
        // would add up).
        var low = 0, high = tables.placed.count
        while low < high {
            let middle = (low + high) / 2
            if tables.placed[middle].start <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return }
        let index = tables.placed[low - 1].index
        guard let fitted = tables.fitted[index], let start = fitted.start, offset < start + fitted.length else { return }
        if let measured = fitted.objectWidths[offset - start], measured != textView.objectWidth(atCharacter: offset) {
            tables.fitted[index]?.provisional = true
        }
        guard tables.fitted[index]?.provisional == true, tables.objectRefit == nil else { return }
        let generation = generation
        tables.objectRefit = sources.timer(milliseconds: 100, name: "gtkprogress table refit") { [weak self] in
            guard let self else { return false }
            self.tables.objectRefit = nil
            if self.generation == generation { self.refitTables() }
            return false
        }
    }

    /// After a resize, a change of text size or the page's last slice: every table fitted again, in slices.
    /// The words are measured again only when the text size changed.
    func refitTables() {
        guard !tables.fitted.isEmpty else { return }
        let characterWidth = textView.averageCharacterWidth
        let sizeChanged = characterWidth != tables.measuredAt
        tables.measuredAt = characterWidth
        // Measured again at another text size, or once the pictures and widgets of its cells are in.
        for index in tables.fitted.keys where sizeChanged || tables.fitted[index]?.provisional == true {
            tables.fitted[index]?.provisional = false
            tables.fitted[index]?.measured = 0
            tables.fitted[index]?.objectWidths = [:]
            tables.fitted[index]?.starts = []
            tables.fitted[index]?.ends = []
            tables.fitted[index]?.needsWidths = true
        }
        tables.job += 1
        tables.rewrote = false
        // A refit that takes over from one under way keeps its place: the view may not be there yet.
        if !tables.pending {
            tables.top = isComplete ? rowStart(containing: tables.widthChangeTop ?? textView.topCharacter) : 0
            tables.movedAbove = false
        }
        tables.keepTop = nil
        tables.widthChangeTop = nil
        tables.pending = true
        for index in tables.fitted.keys { tables.fitted[index]?.order = nil }
        tables.queue = tables.fitted.keys.sorted()
        tables.queueCursor = 0
        if fitStep() { return }
        scheduleFitStep(job: tables.job, generation: generation)
    }

    private func scheduleFitStep(job: Int, generation: Int) {
        sources.idle { [weak self] in
            guard let self, self.tables.job == job, self.generation == generation else { return }
            if !self.fitStep() { self.scheduleFitStep(job: job, generation: generation) }
        }
    }

    /// One slice of fitting: measuring cells, then setting each table's tab stops, then re-breaking rows (those
    /// on screen first). True when every table is done.
    private func fitStep() -> Bool {
        var budget = Self.fitBudget
        let top = tables.top
        var movedAbove = false
        var cells = 0, rows = 0
        var widened = false
        tables.steps += 1
        defer {
            tables.mostCellsInAStep = max(tables.mostCellsInAStep, cells)
            tables.mostRowsInAStep = max(tables.mostRowsInAStep, rows)
            // Columns measured anew may change the reading measure (`widestTable`).
            if widened { scheduleFitMeasure() }
            // Rows above the reader changed height: the top line stays, as the text size does it (`setZoom`),
            // once GTK has laid the rows out again.
            if movedAbove && top > 0 {
                textView.scroll(toCharacter: top)
                sources.idle { [weak self] in self?.textView.scroll(toCharacter: top) }
            }
        }
        while tables.queueCursor < tables.queue.count {
            guard budget > 0 else { return false }
            let index = tables.queue[tables.queueCursor]
            // Looking at a table costs a little, so a page of many small tables is gone through in slices too.
            budget -= 0.5
            guard var fitted = tables.fitted.removeValue(forKey: index) else {
                tables.queueCursor += 1
                continue
            }
            defer { tables.fitted[index] = fitted }
            guard let table = table(index), fitted.words.count == table.cells.count else {
                tables.queueCursor += 1
                continue
            }
            let before = fitted.measured, hadWidths = !fitted.needsWidths
            let measured = measure(&fitted, table, budget: &budget)
            cells += fitted.measured - before
            if !hadWidths && !fitted.needsWidths { widened = true }
            guard measured else { return false }
            setColumns(&fitted, table, index: index)
            guard isComplete, !fitted.broken, let start = fitted.start else {
                tables.queueCursor += 1
                continue
            }
            // A table in its own area stays there while it is still too wide at the same column widths; else its
            // rows go back into the page to be broken again.
            if fitted.area != nil {
                if keepArea(&fitted, index: index) {
                    tables.queueCursor += 1
                    continue
                }
                budget -= 2
            }
            if fitted.order == nil {
                let first = Self.row(at: textView.visibleCharacters.lowerBound - start, in: fitted.rowOffsets)
                fitted.order = Array(first..<fitted.rows.count) + Array((0..<first).reversed())
                fitted.cursor = 0
            }
            while let order = fitted.order, fitted.cursor < order.count {
                guard budget > 0 else { return false }
                let row = order[fitted.cursor]
                fitted.cursor += 1
                let pieces = rebreak(row, of: &fitted, table, index: index, start: start)
                budget -= Double(fitted.alignWork)
                fitted.alignWork = 0
                if pieces > 0 {
                    budget -= 2 + 3 * Double(pieces)
                    rows += 1
                    tables.rewrote = true
                    if start + fitted.rowOffsets[row] < top {
                        movedAbove = true
                        tables.movedAbove = true
                    }
                } else {
                    budget -= 0.1
                }
                if fitted.broken { break }
            }
            if !fitted.fits && !fitted.broken && fitted.area == nil { scheduleArea(index) }
            tables.queueCursor += 1
        }
        tables.pending = false
        if tables.movedAbove && top > 0 { keepTopLine(top) }
        // A search under way finds its matches again in the rows' new order.
        if tables.rewrote {
            tables.rewrote = false
            finder.pageChanged()
        }
        return true
    }

    /// The view's width is changing: where the reader is, for the refit that follows.
    func tablesWidthChanging() {
        guard !tables.fitted.isEmpty, isComplete, !tables.pending, tables.widthChangeTop == nil else { return }
        tables.widthChangeTop = textView.topCharacter
    }

    /// The start of the table row that holds character `offset`, or `offset` itself outside tables: a row's
    /// characters move inside it when it is broken again, its start stays.
    private func rowStart(containing offset: Int) -> Int {
        guard let placed = placedTables(from: offset).first, let fitted = tables.fitted[placed.index],
              let start = fitted.start, offset >= start, offset < start + fitted.length,
              !fitted.rowOffsets.isEmpty else { return offset }
        return start + fitted.rowOffsets[Self.row(at: offset - start, in: fitted.rowOffsets)]
    }

    /// Scrolls back to character `top` every 15 ms until the view has stayed there for two looks (at most 40):
    /// GTK lays out the rows above in idle time, a part at a time, and a scroll made before then lands by the
    /// heights it guessed.
    private func keepTopLine(_ top: Int) {
        var ticks = 0, still = 0
        tables.keepTop = sources.timer(milliseconds: 15) { [weak self] in
            guard let self else { return false }
            ticks += 1
            if self.textView.topCharacter == top { still += 1 } else { still = 0 }
            guard still < 2, ticks < 40 else {
                self.tables.keepTop = nil
                return false
            }
            if still == 0 { self.textView.scroll(toCharacter: top) }
            return true
        }
    }

    /// Measures the cells still to measure, within `budget`; true when all are.
    private func measure(_ fitted: inout FittedTable, _ table: PageTable, budget: inout Double) -> Bool {
        while fitted.measured < table.cells.count {
            guard budget > 0 else { return false }
            let end = min(table.cells.count, fitted.measured + max(1, Int(budget)))
            let cells = fitted.measured..<end
            let measured = textView.measureWords(cells.map {
                (table.cells[$0].text, table.cells[$0].bold, fitted.words[$0].bytes, objects(ofCell: $0, &fitted, table))
            })
            for (edges) in measured {
                fitted.starts.append(edges.starts)
                fitted.ends.append(edges.ends)
            }
            // A mark the builder left is a place to break only where Pango's rules allow one.
            for k in cells where !fitted.words[k].marked.isEmpty {
                let text = table.cells[k].text
                var plain = String.UnicodeScalarView()
                var plainIndex: [Int] = []
                plainIndex.reserveCapacity(fitted.words[k].scalarCount)
                var marks = 0
                for character in text.unicodeScalars {
                    plainIndex.append(plainIndex.count - marks)
                    if character == BreakMarks.mark { marks += 1 } else { plain.append(character) }
                }
                let allowed = textView.lineBreaks(String(plain))
                for word in fitted.words[k].marked {
                    let at = plainIndex[fitted.words[k].scalars[word]]
                    fitted.words[k].breakable[word] = at < allowed.count && allowed[at]
                }
            }
            budget -= Double(cells.count)
            fitted.measured = end
        }
        if fitted.needsWidths {
            fitted.needsWidths = false
            fitted.room = -1
            let padding = 2 * cellPadding(table)
            var minimum = [Int](repeating: 0, count: table.columnCount), preferred = minimum
            for (k, cell) in table.cells.enumerated() where cell.column < table.columnCount {
                let starts = fitted.starts[k], ends = fitted.ends[k]
                let whole = (ends.last ?? 0) - (starts.first ?? 0)
                let narrowest = isKeptWhole(k, fitted, table) ? whole : fitted.words[k].narrowest(starts: starts, ends: ends)
                minimum[cell.column] = max(minimum[cell.column], narrowest + padding)
                preferred[cell.column] = max(preferred[cell.column], whole + padding)
            }
            fitted.minimum = minimum
            fitted.preferred = preferred
        }
        return true
    }

    /// The pictures and widgets (U+FFFC) of cell `k`: each one's UTF-8 index in the cell's text and its width as
    /// the buffer has it. One not in the buffer yet is measured as its character, and the table again later.
    private func objects(ofCell k: Int, _ fitted: inout FittedTable, _ table: PageTable) -> [(index: Int, width: Int)] {
        let text = table.cells[k].text
        guard text.utf8.contains(0xEF) else { return [] }
        var objects: [(index: Int, width: Int)] = []
        var byte = 0, scalar = 0
        let row = table.cells[k].row
        for character in text.unicodeScalars {
            defer {
                byte += character.utf8.count
                scalar += 1
            }
            guard character == "\u{FFFC}" else { continue }
            if let start = fitted.start, row < fitted.rowOffsets.count, k < fitted.cellOffsets.count,
               let width = textView.objectWidth(atCharacter: start + fitted.rowOffsets[row] + fitted.cellOffsets[k] + scalar) {
                objects.append((byte, width))
                fitted.objectWidths[fitted.rowOffsets[row] + fitted.cellOffsets[k] + scalar] = width
            } else {
                fitted.provisional = true
            }
        }
        return objects
    }

    /// Whether cell `k` is one of its row's first cells that hold or come before a picture or widget (`keptWhole`).
    private func isKeptWhole(_ k: Int, _ fitted: FittedTable, _ table: PageTable) -> Bool {
        let row = table.cells[k].row
        guard row < fitted.rows.count, let kept = fitted.keptWhole[row] else { return false }
        return k - fitted.rows[row].lowerBound < kept
    }

    /// Shares the room the text has now among the columns; the tab stops follow, and every row is looked at again.
    private func setColumns(_ fitted: inout FittedTable, _ table: PageTable, index: Int) {
        let side = textView.sideSpace
        let inset = tableInset(table)
        let gaps = Self.tableGap * max(fitted.minimum.count - 1, 0)
        let room = max(0, textView.width - side.left - side.right - 32 - 2 * inset
                       - (tableMargin(index) - inset - 16)) - gaps
        guard room != fitted.room else { return }
        fitted.room = room
        // Aligned lines get the tags of this layout as their rows are looked at again.
        fitted.layout += 1
        fitted.spareAlignTags += fitted.alignTags.values
        fitted.alignTags = [:]
        // Too wide even at its narrowest: the table's text gets smaller, down to `smallestTableScale`, rather than
        // the page scrolling sideways. The cells' padding keeps its size.
        let padding = 2 * cellPadding(table)
        let least = fitted.minimum.reduce(0, +), paddings = padding * fitted.minimum.count
        let scale = least > room && least > paddings
            ? max(Self.smallestTableScale, Double(max(room - paddings, 0)) / Double(least - paddings)) : 1
        func scaled(_ width: Int) -> Int { Int((Double(width - padding) * scale).rounded(.down)) + padding }
        let minimum = fitted.minimum.map(scaled)
        fitted.widths = TableLayout.columnWidths(available: room, minimum: minimum,
                                                 preferred: zip(fitted.preferred.map(scaled), minimum).map(max),
                                                 tablePercent: table.widthPercent,
                                                 columnPercents: table.columnPercents, spacing: Self.tableGap, frame: 0)
        fitted.fits = fitted.widths.reduce(0, +) <= room
        if scale != fitted.scale {
            fitted.scale = scale
            fitted.tag.apply(TextTag.Look(scale: scale))
        }
        var x = 0
        fitted.columnX = fitted.widths.map { width in
            defer { x += width + Self.tableGap }
            return x
        }
        textView.setTabStops(fitted.tag, at: Array(fitted.columnX.dropFirst()))
        placeCaption(index, fitted)
        for (key, entry) in fitted.continuationTags {
            lookContinuation(entry.tag, columns: entry.columns, last: entry.last, fitted, index: index)
            fitted.continuationTags[key] = entry
        }
        fitted.order = nil
    }

    private func lookContinuation(_ tag: TextTag, columns: [Int], last: Bool, _ fitted: FittedTable, index: Int) {
        guard let first = columns.first, first < fitted.columnX.count else { return }
        let left = fitted.columnX[first]
        tag.apply(TextTag.Look(leftMargin: tableMargin(index) + left, pixelsAboveLines: 0,
                               pixelsBelowLines: last ? rowSpacing(table(index)) : 0))
        textView.setTabStops(tag, at: columns.dropFirst().compactMap {
            $0 < fitted.columnX.count ? fitted.columnX[$0] - left : nil
        })
    }

    private func continuationTag(_ columns: [Int], last: Bool, _ fitted: inout FittedTable, index: Int) -> TextTag {
        let key = columns.map(String.init).joined(separator: ",") + (last ? "." : "")
        if let entry = fitted.continuationTags[key] { return entry.tag }
        let tag = textView.createTag("table\(index)-\(fitted.continuationTags.count)")
        textView.raise(tag)
        lookContinuation(tag, columns: columns, last: last, fitted, index: index)
        fitted.continuationTags[key] = (tag, columns, last)
        return tag
    }

    /// Breaks row `row`'s cells at their columns' widths and puts the row in the buffer that way if that changes
    /// it: the number of pieces it was put back from (copies and tabs or newlines, what the work goes by), 0 when
    /// nothing changed.
    private func rebreak(_ row: Int, of fitted: inout FittedTable, _ table: PageTable, index: Int,
                         start: Int) -> Int {
        let cellIndices = fitted.rows[row]
        let padding = 2 * cellPadding(table)
        var newBreaks: [[Int]] = []
        for k in cellIndices {
            let column = table.cells[k].column
            guard !isKeptWhole(k, fitted, table), column < fitted.widths.count else {
                newBreaks.append([])
                continue
            }
            let words = fitted.words[k]
            // The words were measured at the page's size.
            let width = Int(Double(fitted.widths[column] - padding) / fitted.scale)
            let breaks = TabbedRows.breakWords(starts: fitted.starts[k], ends: fitted.ends[k],
                                               breakable: words.breakable, width: width)
            newBreaks.append(breaks.map { words.scalars[$0] })
        }
        let oldBreaks = cellIndices.map { fitted.breaks[$0] }
        let oldCells = zip(cellIndices, oldBreaks).map {
            TabbedRows.Cell(column: table.cells[$0].column, length: fitted.words[$0].scalarCount, breaks: $1)
        }
        guard newBreaks != oldBreaks else {
            // The same lines in columns of another width: centred and right-aligned cells move.
            if fitted.alignedFor[row] != fitted.layout, fitted.alignedRows.contains(row) || fitted.rowAlignTags[row] != nil {
                let arrangement = TabbedRows.arrange(oldCells)
                alignRow(row, cellIndices: Array(cellIndices), cells: oldCells, arrangement,
                         rowStart: start + fitted.rowOffsets[row], length: TabbedRows.length(arrangement.pieces),
                         &fitted, table, index: index)
            }
            return 0
        }
        let newCells = zip(cellIndices, newBreaks).map {
            TabbedRows.Cell(column: table.cells[$0].column, length: fitted.words[$0].scalarCount, breaks: $1)
        }
        let old = TabbedRows.arrange(oldCells), new = TabbedRows.arrange(newCells)
        let rowStart = start + fitted.rowOffsets[row]
        let length = TabbedRows.length(old.pieces)
        // The buffer must hold the row as the table says, or nothing is moved.
        let scalars = cellIndices.map { Array(table.cells[$0].text.unicodeScalars) }
        var expected = String.UnicodeScalarView()
        for piece in old.pieces {
            switch piece {
            case .text(let cell, let range): expected.append(contentsOf: scalars[cell][range])
            case .tab: expected.append("\t")
            case .newline: expected.append("\n")
            }
        }
        guard TabbedRows.length(new.pieces) == length, rowStart + length < textView.characterCount,
              textView.text(fromCharacter: rowStart, to: rowStart + length) == String(expected) else {
            fitted.broken = true
            return 0
        }
        let oldPositions = TabbedRows.positions(oldCells, old.pieces)
        var pieces: [TextView.RewritePiece] = []
        for piece in new.pieces {
            switch piece {
            case .tab: pieces.append(.character("\t", tagsFrom: nil))
            case .newline: pieces.append(.character("\n", tagsFrom: nil))
            case .text(let cell, let range):
                // The scalars as they stand now, in stretches that are together in the buffer.
                var k = range.lowerBound
                while k < range.upperBound {
                    guard let from = oldPositions[cell][k] else {
                        // A space an old break took comes back.
                        let before = k > 0 ? oldPositions[cell][k - 1] : nil
                        pieces.append(.character(scalars[cell][k], tagsFrom: before.map { rowStart + $0 }))
                        k += 1
                        continue
                    }
                    var end = k + 1
                    while end < range.upperBound, let next = oldPositions[cell][end], next == from + (end - k) {
                        end += 1
                    }
                    pieces.append(.copy(from: rowStart + from, count: end - k))
                    k = end
                }
            }
        }
        // What stays where it is at the row's start is left alone: only the rest is put back. The pictures and
        // widgets of the row are in that part (`keptWhole`): a copy would lose a widget (gtk_text_buffer_insert_range
        // skips child anchors) and move the offsets the page's images and controls are found by.
        let oldText = Array(expected)
        var kept = 0, keptPieces = 0
        same: for piece in pieces {
            switch piece {
            case .copy(let from, let count) where from == rowStart + kept:
                kept += count
            case .character(let scalar, _) where kept < oldText.count && oldText[kept] == scalar:
                kept += 1
            default:
                break same
            }
            keptPieces += 1
        }
        if let last = oldText.lastIndex(of: "\u{FFFC}"), last >= kept { return 0 }
        pieces.removeFirst(keptPieces)
        var structureTags = [fitted.tag]
        if table.indent > 0 { structureTags.append(shared(.indent(depth: min(table.indent, 12)))) }
        textView.rewrite(fromCharacter: rowStart + kept, length: length - kept, as: pieces, tags: structureTags)
        for (k, breaks) in zip(cellIndices, newBreaks) { fitted.breaks[k] = breaks }
        tagLines(of: new, rowStart: rowStart, length: length, &fitted, index: index)
        alignRow(row, cellIndices: Array(cellIndices), cells: newCells, new, rowStart: rowStart, length: length,
                 &fitted, table, index: index)
        moveLinks(rowStart: rowStart, length: length, from: oldPositions,
                  to: TabbedRows.positions(newCells, new.pieces))
        return pieces.count
    }

    /// The tags of a row's lines: none but the table's on an unbroken row; on a broken one, the first line's
    /// (no space below it) and each continuation line's.
    private func tagLines(of row: (pieces: [TabbedRows.Piece], continuations: [[Int]]), rowStart: Int, length: Int,
                          _ fitted: inout FittedTable, index: Int) {
        for entry in fitted.continuationTags.values {
            textView.removeTag(entry.tag, fromCharacter: rowStart, to: rowStart + length)
        }
        if let first = fitted.firstLineTag {
            textView.removeTag(first, fromCharacter: rowStart, to: rowStart + length)
        }
        guard !row.continuations.isEmpty else { return }
        var lineStarts = [rowStart]
        var offset = rowStart
        for piece in row.pieces {
            if case .text(_, let range) = piece { offset += range.count } else { offset += 1 }
            if case .newline = piece { lineStarts.append(offset) }
        }
        let firstTag: TextTag
        if let tag = fitted.firstLineTag {
            firstTag = tag
        } else {
            firstTag = textView.createTag("table\(index)-first", look: TextTag.Look(pixelsBelowLines: 0))
            textView.raise(firstTag)
            fitted.firstLineTag = firstTag
        }
        textView.applyTag(firstTag, fromCharacter: rowStart, to: max(rowStart, lineStarts[1] - 1))
        for (line, columns) in row.continuations.enumerated() {
            let lineStart = lineStarts[line + 1]
            let lineEnd = line + 2 < lineStarts.count ? lineStarts[line + 2] - 1 : rowStart + length
            let tag = continuationTag(columns, last: line == row.continuations.count - 1, &fitted, index: index)
            textView.applyTag(tag, fromCharacter: lineStart, to: max(lineStart, lineEnd))
        }
    }

    /// Places the centred and right-aligned cells of row `row`, arranged as `arrangement`. Each line holding one
    /// gets a tag of its own look: Pango's centre and right tab stops (<https://docs.gtk.org/Pango/enum.TabAlign.html>)
    /// at the middle or right edge of each column's text after the first on the line; the line's first part has
    /// no tab before it, so the line's left margin moves right by what its measured width leaves of its column
    /// (half of it when centred). The tag's look says the margin, the stops and the row's spacing in full, and it
    /// is raised over the table's and the continuation lines' tags. In a table too wide for the window (`fits`
    /// false), whose rows wrap at its edge, and in rows holding an image or a form control, every cell stays at the
    /// left of its column.
    private func alignRow(_ row: Int, cellIndices: [Int], cells: [TabbedRows.Cell],
                          _ arrangement: (pieces: [TabbedRows.Piece], continuations: [[Int]]),
                          rowStart: Int, length: Int, _ fitted: inout FittedTable, _ table: PageTable, index: Int) {
        fitted.alignedFor[row] = fitted.layout
        for tag in fitted.rowAlignTags.removeValue(forKey: row) ?? [] {
            textView.removeTag(tag, fromCharacter: rowStart, to: rowStart + length)
            fitted.alignWork += 1
        }
        fitted.leadOffset[row] = nil
        guard fitted.alignedRows.contains(row), fitted.fits, !fitted.columnX.isEmpty,
              fitted.widths.count == fitted.columnX.count else { return }
        var lineStarts = [rowStart]
        var offset = rowStart
        for piece in arrangement.pieces {
            if case .text(_, let range) = piece { offset += range.count } else { offset += 1 }
            if case .newline = piece { lineStarts.append(offset) }
        }
        let padding = cellPadding(table)
        let spacing = rowSpacing(table)
        let columns = fitted.columnX.count
        func content(_ column: Int) -> Int { max(fitted.widths[column] - 2 * padding, 0) }
        /// The width in pixels of line `line` of the row's cell `cell`, from its words' measured edges.
        func partWidth(_ cell: Int, line: Int) -> Int {
            let k = cellIndices[cell]
            let words = fitted.words[k]
            guard let segment = cells[cell].segment(line), !segment.isEmpty, !words.scalars.isEmpty,
                  fitted.starts[k].count == words.scalars.count else { return 0 }
            // The words from the one starting the segment to the last starting inside it.
            var low = 0, high = words.scalars.count
            while low < high {
                let middle = (low + high) / 2
                if words.scalars[middle] < segment.lowerBound { low = middle + 1 } else { high = middle }
            }
            let first = min(low, words.scalars.count - 1)
            var last = first
            while last + 1 < words.scalars.count && words.scalars[last + 1] < segment.upperBound { last += 1 }
            return Int((Double(fitted.ends[k][last] - fitted.starts[k][first]) * fitted.scale).rounded(.up))
        }
        var applied: [TextTag] = []
        let lineCount = lineStarts.count
        for line in 0..<lineCount {
            // The cells with a part on this line, by column, and the column the line starts at.
            var parts: [(column: Int, cell: Int?)] = []
            if line == 0 {
                let lastColumn = min(cells.last?.column ?? 0, columns - 1)
                var cell = 0
                for column in 0...lastColumn {
                    while cell < cells.count && cells[cell].column < column { cell += 1 }
                    parts.append((column, cell < cells.count && cells[cell].column == column ? cell : nil))
                }
            } else {
                for (cell, entry) in cells.enumerated() where entry.segment(line) != nil && entry.column < columns {
                    parts.append((entry.column, cell))
                }
            }
            guard let origin = parts.first?.column,
                  parts.contains(where: { $0.cell.map { table.cells[cellIndices[$0]].alignment != .left } ?? false })
            else { continue }
            var lead = 0
            if let cell = parts[0].cell {
                let room = max(content(origin) - partWidth(cell, line: line), 0)
                switch table.cells[cellIndices[cell]].alignment {
                case .left: lead = 0
                case .center: lead = room / 2
                case .right: lead = room
                }
            }
            let left = fitted.columnX[origin] + lead
            let stops: [(x: Int, alignment: TextView.TabAlignment)] = parts.dropFirst().map { part in
                let x = fitted.columnX[part.column] - left
                switch part.cell.map({ table.cells[cellIndices[$0]].alignment }) ?? .left {
                case .left: return (x, .left)
                case .center: return (x + content(part.column) / 2, .center)
                case .right: return (x + content(part.column), .right)
                }
            }
            let margin = tableMargin(index) + left
            let above = line == 0 ? spacing : 0, below = line == lineCount - 1 ? spacing : 0
            let key = "\(margin) \(above) \(below)" + stops.map { " \($0.x)\($0.alignment)" }.joined()
            let tag: TextTag
            if let known = fitted.alignTags[key] {
                tag = known
            } else {
                tag = fitted.spareAlignTags.popLast()
                    ?? textView.createTag("table\(index)-aligned-\(fitted.alignTags.count + fitted.spareAlignTags.count)-\(fitted.layout)")
                tag.apply(TextTag.Look(leftMargin: margin, pixelsAboveLines: above, pixelsBelowLines: below))
                textView.setTabStops(tag, at: stops)
                fitted.alignTags[key] = tag
            }
            textView.raise(tag)
            let lineEnd = line + 1 < lineCount ? lineStarts[line + 1] - 1 : rowStart + length
            textView.applyTag(tag, fromCharacter: lineStarts[line], to: max(lineStarts[line], lineEnd))
            fitted.alignWork += 2
            applied.append(tag)
            if line == 0 && lead > 0 { fitted.leadOffset[row] = lead }
        }
        if !applied.isEmpty { fitted.rowAlignTags[row] = applied }
    }

    /// Link ranges inside a re-broken row follow their characters.
    private func moveLinks(rowStart: Int, length: Int, from old: [[Int?]], to new: [[Int?]]) {
        let rowEnd = rowStart + length
        var first = 0, high = linkRanges.count
        while first < high {
            let middle = (first + high) / 2
            if linkRanges[middle].end <= rowStart { first = middle + 1 } else { high = middle }
        }
        var last = first
        while last < linkRanges.count && linkRanges[last].start < rowEnd { last += 1 }
        guard last > first else { return }
        var linkAt = [Int?](repeating: nil, count: length)
        var outside: [(start: Int, end: Int, link: Int)] = []
        for range in linkRanges[first..<last] {
            // Parts of a range outside the row stay as they are.
            if range.start < rowStart { outside.append((range.start, rowStart, range.link)) }
            if range.end > rowEnd { outside.append((rowEnd, range.end, range.link)) }
            for offset in max(range.start, rowStart)..<min(range.end, rowEnd) { linkAt[offset - rowStart] = range.link }
        }
        var characters: [(offset: Int, link: Int)] = []
        for (cellOld, cellNew) in zip(old, new) {
            for k in cellNew.indices {
                guard let to = cellNew[k] else { continue }
                // A space a break took and that comes back belongs to the link of the character before it.
                let from = cellOld[k] ?? (k > 0 ? cellOld[k - 1] : nil)
                if let from, let link = linkAt[from] { characters.append((rowStart + to, link)) }
            }
        }
        characters.sort { $0.offset < $1.offset }
        var ranges: [(start: Int, end: Int, link: Int)] = []
        for character in characters {
            if let previous = ranges.last, previous.link == character.link, previous.end == character.offset {
                ranges[ranges.count - 1].end += 1
            } else {
                ranges.append((character.offset, character.offset + 1, character.link))
            }
        }
        ranges += outside
        ranges.sort { $0.start < $1.start }
        replaceLinkRanges(first..<last, with: ranges)
    }
}

extension PageView {
    /// The grid of each `border` table on screen, drawn over the text: the frame, a rule between rows at the line
    /// where one row's space below meets the next one's space above, and a rule between columns in the middle of
    /// the gap between their texts (each cell's padding and half the gap on either side). Only the rows in view
    /// are looked at, so a frame costs what is on screen, not the table's length.
    func paintTableRules(on cr: CairoContext) {
        guard !tables.placed.isEmpty else { return }
        let visible = textView.visibleCharacters
        cr.setColor(ruleColor)
        for (_, index) in placedTables(from: visible.lowerBound) {
            guard let fitted = tables.fitted[index] else { continue }
            if let start = fitted.start, start >= visible.upperBound { break }
            // Rows longer than the window wrap at its edge, past any grid: a grid would say the wrong columns. A
            // table in an area of its own has its grid drawn there (`paintAreaRules`).
            guard let table = table(index), table.border, fitted.fits, fitted.area == nil, let start = fitted.start,
                  start + fitted.length <= textView.characterCount else { continue }
            paintRules(of: fitted, table, in: textView, from: start, visible: visible, on: cr)
        }
    }

    var ruleColor: RGBA {
        textView.themeColor("borders") ?? textView.themeColor("theme_fg_color")
            ?? RGBA(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
    }

    /// The grid of a `border` table whose rows start at character `start` of `view`, for its rows in `visible`.
    func paintRules(of fitted: FittedTable, _ table: PageTable, in view: TextView, from start: Int,
                    visible: Range<Int>, on cr: CairoContext) {
        guard !fitted.columnX.isEmpty, fitted.widths.count == fitted.columnX.count, !fitted.rowOffsets.isEmpty,
              start < visible.upperBound, start + fitted.length > visible.lowerBound else { return }
        let first = Self.row(at: visible.lowerBound - start, in: fitted.rowOffsets)
        var edges: [Double] = []
        var left = 0.0
        var row = first
        while row < fitted.rowOffsets.count && start + fitted.rowOffsets[row] < visible.upperBound {
            let rowStart = start + fitted.rowOffsets[row]
            let rowEnd = start + (row + 1 < fitted.rowOffsets.count ? fitted.rowOffsets[row + 1] : fitted.length) - 1
            let band = view.lineBand(fromCharacter: rowStart, to: min(rowEnd, view.characterCount))
            if edges.isEmpty {
                left = band.x - Double(tableInset(table)) - Double(fitted.leadOffset[row] ?? 0)
                edges.append(band.top)
            }
            edges.append(band.bottom)
            row += 1
        }
        guard let top = edges.first, let bottom = edges.last else { return }
        let last = fitted.columnX.count - 1
        var xs = fitted.columnX.map { left + Double($0) }
        xs.append(left + Double(fitted.columnX[last] + fitted.widths[last] + Self.tableGap))
        // Lines one pixel wide on the pixel grid.
        for y in edges { cr.strokeLine(x0: xs[0], y0: y.rounded() + 0.5, x1: xs[xs.count - 1] + 1, y1: y.rounded() + 0.5, lineWidth: 1) }
        for x in xs { cr.strokeLine(x0: x.rounded() + 0.5, y0: top, x1: x.rounded() + 0.5, y1: bottom + 1, lineWidth: 1) }
    }
}
