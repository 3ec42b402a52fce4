import FoundationEssentials

/// A table too wide for the window even at `smallestTableScale`, shown in a sideways-scrolling area of its own, so
/// the page never scrolls sideways for it and the text around it stays where it is.
///
/// GtkTextView cannot scroll some of its paragraphs sideways on their own: a tag that stops wrapping makes the whole
/// view as wide as its longest line. So the table's rows, laid out by the refit at their columns' narrowest widths
/// (each cell broken inside its column), are copied with their tags into a second, unwrapped text view
/// (`TableArea`) whose buffer shares the page's tag table, in a scrolled window with a horizontal bar only, put in
/// the page at a child anchor. Every offset of the page stays: the rows stay in the page's buffer, hidden by an
/// `invisible` tag, and the anchor takes the place of one of their characters, the first tab of the first row. Find
/// goes on scanning the page's buffer; a match inside such a table is selected in the area, which is scrolled to it
/// (`revealInTableArea`). Selection and copy inside the table are the area's own; a screen reader reaches the area's
/// text view as a child of the page's (whose accessible text leaves hidden text out).
///
/// The area is given back to the page when a refit finds the table fits, or its columns change (a new text size),
/// or the window's width changes (then made anew at the new width):
/// the tab goes back in place of the anchor and the rows are shown and broken again as for any table.
struct ScrolledTable {
    let area: TableArea
    /// The page's character the area stands in place of, and the column widths its rows were copied at.
    let anchor: Int
    let widths: [Int]
    let width: Int
}

extension PageView {
    /// The longest table, in characters, put in an area: its copy is made in one main-loop turn.
    nonisolated static let areaCharacterLimit = 64 * 1024

    /// The continuation lines of a table's rows as they are broken now: a row's cells continue on as many lines
    /// as its longest cell has breaks (`TabbedRows.arrange`).
    private func continuationLines(_ fitted: FittedTable) -> Int {
        fitted.rows.reduce(0) { total, cells in total + (cells.map { fitted.breaks[$0].count }.max() ?? 0) }
    }

    /// The tag hiding the rows of tables shown in an area, and the one giving the line holding an area no margin
    /// (the rows in the area keep the table's own margin).
    /// The tag giving the line holding an area no margin.
    var tableAreaLineTag: TextTag { areaTags().line }

    private func areaTags() -> (hidden: TextTag, line: TextTag) {
        if let hidden = tables.hiddenTag, let line = tables.areaLineTag { return (hidden, line) }
        let hidden = textView.createTag("table-area-hidden")
        hidden.setInvisible(true)
        let line = textView.createTag("table-area-line", look: TextTag.Look(leftMargin: 0))
        tables.hiddenTag = hidden
        tables.areaLineTag = line
        return (hidden, line)
    }

    /// The room an area has: the text's width between the page's margins (the area's rows keep the table's own
    /// margin inside it), in the page's scrolled window (the text view itself is at least as wide as the area it
    /// holds).
    private var areaWidth: Int {
        let side = textView.sideSpace
        return min(textView.width, scrolledWindow.width) - side.left - side.right - 32
    }

    /// Puts table `index` in an area of its own at the next main-loop turn, if it is still too wide then and no
    /// other refit has begun: a refit may run inside the text view's size allocation (`fitMeasure`), where a
    /// widget added to it would not be allocated.
    func scheduleArea(_ index: Int) {
        let job = tables.job, generation = generation
        sources.idle { [weak self] in
            guard let self, self.tables.job == job, self.generation == generation, !self.tables.pending,
                  var fitted = self.tables.fitted.removeValue(forKey: index) else { return }
            // The rows the area takes the place of are no longer laid out: the reader's line stays at the top.
            let top = self.textView.topCharacter
            if !fitted.fits && !fitted.broken && fitted.area == nil { self.showInArea(&fitted, index: index) }
            if let start = fitted.start, fitted.area != nil, start < top, top > 0 {
                self.textView.scroll(toCharacter: top)
                sources.idle { [weak self] in self?.textView.scroll(toCharacter: top) }
            }
            self.tables.fitted[index] = fitted
        }
    }

    /// Puts a table whose rows are too long for the window in an area of its own. Tables holding pictures or form
    /// controls stay in the page (a copy would lose the widgets, gtk_text_buffer_insert_range skips child
    /// anchors), and so do tables of one column (no tab to stand in for).
    private func showInArea(_ fitted: inout FittedTable, index: Int) {
        guard fitted.area == nil, fitted.keptWhole.isEmpty, let start = fitted.start, fitted.length > 1,
              fitted.length <= Self.areaCharacterLimit, start + fitted.length <= textView.characterCount
        else { return }
        let firstRowEnd = start + (fitted.rowOffsets.count > 1 ? fitted.rowOffsets[1] : fitted.length)
        var anchor: Int?, lineEnd: Int?
        for (k, character) in textView.text(fromCharacter: start, to: firstRowEnd).unicodeScalars.enumerated() {
            if character == "\n" {
                lineEnd = start + k
                break
            }
            if character == "\t" && anchor == nil { anchor = start + k }
        }
        // Before the view has its width, the area would be laid out at a wrong one: a later refit makes it.
        guard let anchor, let lineEnd, scrolledWindow.width > 100 else { return }
        let area = TableArea(copying: textView, from: start, to: start + fitted.length - 1)
        prepareArea(area)
        area.view.onPaintAbove { [weak self, weak view = area.view] cr in
            guard let self, let view else { return }
            self.paintAreaRules(index, in: view, on: cr)
        }
        // The rows' lines (the rows and their continuation lines) and the space above and below each row.
        // An estimate, the text in the page's font at the table's size (a line holding a raised or larger
        // run is taller); once the area's view has laid its text out taller, the area is made again at that height.
        let lines = fitted.rows.count + continuationLines(fitted)
        var textHeight = textView.lineHeight(scale: fitted.scale) * lines
            + 2 * rowSpacing(table(index)) * fitted.rows.count
        if let measured = fitted.areaTextHeight, measured.widths == fitted.widths {
            textHeight = max(textHeight, measured.height)
        }
        let width = areaWidth
        area.setSize(width: width, textHeight: textHeight)
        placeArea(area, over: start..<(start + fitted.length), anchor: anchor, line: start..<lineEnd)
        fitted.area = ScrolledTable(area: area, anchor: anchor, widths: fitted.widths, width: width)
        let widths = fitted.widths
        area.onTextTallerThanShown { [weak self, weak area] height in
            self?.sources.idle { [weak self, weak area] in
                guard let self, let area, var fitted = self.tables.fitted[index], fitted.area?.area === area,
                      fitted.widths == widths, (fitted.areaTextHeight?.height ?? 0) < height else { return }
                fitted.areaTextHeight = (widths, height)
                self.leaveArea(&fitted, index: index)
                self.showInArea(&fitted, index: index)
                self.tables.fitted[index] = fitted
            }
        }
    }

    /// What every area in the page has, a table's or a grid's: a copy leaves out the cells' break marks, a screen
    /// reader reaches its text as a child of the page's by the name "Table", and the mouse wheel goes on to the page.
    func prepareArea(_ area: TableArea) {
        area.view.copyLeavingOut(BreakMarks.mark)
        area.view.setAccessible(name: L("Table"))
        area.passVerticalScroll(to: scrolledWindow)
    }

    /// Shows page characters `range`, copied into `area`, in the area instead of the page: they stay in the page's
    /// buffer (every offset of the page stays), hidden by an `invisible` tag, and the area's child anchor takes the
    /// place of character `anchor`, on a line (`line`) given no margin of its own. A table in an area
    /// (`showInArea`) and a grid that moved into one after going into the page's text
    /// (`PageView+GridArea.swift`) are placed so.
    func placeArea(_ area: TableArea, over range: Range<Int>, anchor: Int, line: Range<Int>) {
        let tags = areaTags()
        textView.raise(tags.line)
        textView.applyTag(tags.line, fromCharacter: line.lowerBound, to: line.upperBound)
        textView.applyTag(tags.hidden, fromCharacter: range.lowerBound, to: range.upperBound)
        textView.replaceCharacter(at: anchor, withWidget: area.frame)
        // The anchor went in inside the hidden stretch and took its tags: shown, its line is laid out at its height
        // (a line GtkTextLayout takes as all hidden gets none, and the area would lie over the text after it).
        textView.removeTag(tags.hidden, fromCharacter: anchor, to: anchor + 1)
    }

    /// The grid of table `index`, drawn over its area's text as over the page's (`paintRules`): the area's
    /// text is the table's rows from its first character.
    private func paintAreaRules(_ index: Int, in view: TextView, on cr: CairoContext) {
        guard let fitted = tables.fitted[index], let table = table(index), table.border,
              fitted.area?.area.view === view else { return }
        cr.setColor(ruleColor)
        paintRules(of: fitted, table, in: view, from: 0, visible: view.visibleCharacters, on: cr)
    }

    /// Whether a table in an area stays there after its columns were set again: while it is still too wide at
    /// the same widths and the area's width is still the room there is. Else the area goes (`leaveArea`), and
    /// the refit makes another at its end if the table is still too wide.
    func keepArea(_ fitted: inout FittedTable, index: Int) -> Bool {
        guard let scrolled = fitted.area else { return false }
        // GtkTextView lays an anchored widget out at the size it asked for when its line was laid out: an area
        // of another width is made anew.
        if !fitted.fits && scrolled.widths == fitted.widths && (scrolled.width == areaWidth || scrolledWindow.width <= 100) {
            return true
        }
        leaveArea(&fitted, index: index)
        return false
    }

    /// Gives a table's rows back to the page: the tab in place of the area's anchor, the rows shown.
    private func leaveArea(_ fitted: inout FittedTable, index: Int) {
        guard let scrolled = fitted.area, let start = fitted.start else { return }
        fitted.area = nil
        var structureTags = [fitted.tag]
        if let table = table(index), table.indent > 0 {
            structureTags.append(shared(.indent(depth: min(table.indent, 12))))
        }
        textView.rewrite(fromCharacter: scrolled.anchor, length: 1,
                         as: [.character("\t", tagsFrom: scrolled.anchor > start ? scrolled.anchor - 1 : nil)],
                         tags: structureTags)
        let tags = areaTags()
        textView.removeTag(tags.hidden, fromCharacter: start, to: start + fitted.length)
        textView.removeTag(tags.line, fromCharacter: start, to: start + fitted.length)
    }

    /// The area showing page character `offset`, with that character's offset in the area's text.
    func tableArea(containing offset: Int) -> (area: TableArea, offset: Int, anchor: Int)? {
        guard let placed = placedTables(from: offset).first, let fitted = tables.fitted[placed.index],
              let scrolled = fitted.area, let start = fitted.start,
              offset >= start, offset < start + fitted.length - 1 else { return nil }
        return (scrolled.area, offset - start, scrolled.anchor)
    }

    /// The text of the page's characters `range` as a copy gives it when the range takes in a table shown in an
    /// area (whose rows are hidden in the page): the page's visible text, and each such table's rows from its
    /// area. Nil when the range takes in no such table.
    func selectedTextAcrossAreas(_ range: Range<Int>) -> String? {
        guard !range.isEmpty, tables.fitted.values.contains(where: { $0.area != nil }) else { return nil }
        var text = "", at = range.lowerBound, touched = false
        for (_, index) in placedTables(from: range.lowerBound) {
            guard let fitted = tables.fitted[index], let start = fitted.start else { continue }
            if start >= range.upperBound { break }
            let end = start + fitted.length
            guard let scrolled = fitted.area, end > range.lowerBound else { continue }
            if start > at { text += textView.visibleText(fromCharacter: at, to: start) ?? "" }
            // The area holds the rows without the last one's newline.
            let from = max(range.lowerBound, start) - start, to = min(range.upperBound, end - 1) - start
            if to > from { text += scrolled.area.view.text(fromCharacter: from, to: to) }
            if range.upperBound >= end { text += "\n" }
            at = max(at, end)
            touched = true
        }
        guard touched else { return nil }
        if range.upperBound > at { text += textView.visibleText(fromCharacter: at, to: range.upperBound) ?? "" }
        return text
    }

    /// Takes the current match's highlight off the area that has it.
    func clearTableAreaHighlight() {
        if let (area, range) = tables.highlightedArea {
            area.view.removeTag(shared(.findCurrent), fromCharacter: range.lowerBound, to: range.upperBound)
        }
        tables.highlightedArea = nil
    }

    /// Shows page characters `range` where a table in an area has them: the page scrolled to the area, the
    /// characters selected in it and the area scrolled sideways to them. False when they are not in such a table.
    /// `range` counts reading characters (`PageView+GridArea.swift`): a match in a grid shown in an area is shown
    /// there too.
    @discardableResult
    func revealInTableArea(_ range: Range<Int>, highlight: TextTag?) -> Bool {
        clearTableAreaHighlight()
        if revealInGridArea(range, highlight: highlight) { return true }
        let start = pageOffset(ofReading: range.lowerBound), range = start..<(start + range.count)
        guard let found = tableArea(containing: range.lowerBound) else { return false }
        reveal(found.offset..<(found.offset + range.count), in: found.area, anchor: found.anchor, margin: 0.25,
               highlight: highlight)
        return true
    }

    /// Characters `characters` of `area` shown: the page scrolled to the area's `anchor`, the area to them, and
    /// them selected (and highlighted with `highlight`) there.
    func reveal(_ characters: Range<Int>, in area: TableArea, anchor: Int, margin: Double, highlight: TextTag?) {
        textView.scrollIntoView(character: anchor, margin: margin)
        area.view.select(fromCharacter: characters.lowerBound, to: characters.upperBound)
        if let highlight {
            area.view.applyTag(highlight, fromCharacter: characters.lowerBound, to: characters.upperBound)
            tables.highlightedArea = (area, characters)
        }
        area.reveal(character: characters.lowerBound)
        // Once the area's text is laid out, the scroll lands where it should.
        sources.idle { [weak area] in area?.reveal(character: characters.lowerBound) }
    }
}
