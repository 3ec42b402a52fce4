import FoundationEssentials

/// A table kept as the monospace grid (`PageGrid`: spans, paragraphs in cells, or past `PageTable`'s bounds) that is
/// wider than the view when it goes in, shown in a sideways-scrolling area of its own (`TableArea`, as a table
/// the view lays out itself is when too wide: `PageView+TableArea.swift`), so the page never scrolls sideways for
/// it: a line of GtkTextView that does not wrap makes the whole view as wide as itself.
///
/// A grid can be tens of megabytes (a table of 100,000 rows): it goes into the area's buffer *instead of* the
/// page's, in the same slices (`insertSlice`), so it is never held twice and no turn copies it; the page holds one
/// character in its place, the area's child anchor. The page's offsets after the grid are then smaller than the
/// document's by the grid's characters but one. Find, the images' and controls' places and `#fragment` scrolls
/// count in the document's characters, "reading" offsets here; `readingPieces` maps them to the page's buffer and
/// the areas'. A grid taller than the page's view scrolls up and down in its area too, its rows laid out a screen
/// at a time as the page's are (an anchored widget as tall as a 100,000-row grid would have GTK lay all its rows
/// out in one turn, as all of it would be on its screen), and the wheel goes on to the page at its ends.
///
/// A grid that fitted goes into the page's text, and moves into an area when the window narrows (or the text
/// grows) until it no longer fits (`gridsNeedRoom`), the way a table the view lays out itself does
/// (`placeArea`): its characters stay in the page's buffer, hidden, the area's anchor in place of the first of
/// them, and a copy of them goes into the area; every offset of the page stays. That copy is made in one
/// main-loop turn, so only grids of at most `PageViewGrids.moveLimit` characters go into the page's text: a larger
/// one goes into an area as it goes in, fitting or not, its text going there in the page's slices.
///
/// A grid stays in its area when the window widens: the area is then as wide as the grid, with no bar, and reads
/// as the grid did in the page; moving it back would put up to megabytes into the page's buffer and take them
/// out of the area's again, on the main loop, for no change in what the reader sees (and a grid that moved would
/// move again at the next narrowing).
struct GridArea {
    /// The grid's index in `Document.grids`, its area, and the page character the area stands in place of.
    let grid: Int
    let area: TableArea
    let anchor: Int
    /// Whether the grid's characters stay in the page's buffer, hidden, the anchor in place of the first of them
    /// (it moved into its area from the page's text), and whether the line break after them is hidden too. Else
    /// the page holds the anchor alone in their place.
    var hidden = false
    var hiddenLineBreak = false
    /// The grid's characters in the area's buffer so far (all of them once it has gone in).
    var characters = 0
    /// The height of the area's text, in pixels: estimated from the lines, then as GTK lays them out.
    var textHeight: Int
    /// Which of the area's characters belong to which link, in order (`PageView.linkRanges` for the page's).
    var links: [(start: Int, end: Int, link: Int)] = []

    /// How many more characters the page as read has than the page's buffer for this grid: none when its
    /// characters stay in the buffer, hidden.
    var removed: Int { hidden ? 0 : characters - 1 }
    /// The end of the page's characters the grid stands in place of: the anchor, or the hidden characters.
    var pageEnd: Int { hidden ? anchor + characters + (hiddenLineBreak ? 1 : 0) : anchor + 1 }
}

struct PageViewGrids {
    /// The grids shown in areas, in page order.
    var areas: [GridArea] = []
    /// The next of the document's grids insertion has not reached, and whether insertion is inside the last of
    /// `areas`.
    var next = 0
    var filling = false
    /// An area resize waits for the main loop.
    var resizePending = false
    /// The grids that went into the page's text (they fitted), by index in `Document.grids` and first character in
    /// the page, in page order: each moves into an area once it no longer fits (`gridsNeedRoom`). How far the
    /// look at them has got, and whether a look waits for the main loop.
    var inText: [(grid: Int, start: Int)] = []
    var cursor = 0
    var movePending = false

    /// Grids past this many in one page stay in its text: GTK 3's text view walks every anchored widget at each
    /// allocation (`PageViewImages.widgetLimit`).
    static let areaLimit = 50
    /// The most characters a grid going into the page's text may have. Moving it into an area copies its
    /// characters and hides them in one main-loop turn (gtk_text_buffer_insert_range, the `invisible` tag's
    /// application, the area's lines laid out), work that grows with the grid, so a larger grid goes into an area
    /// as it goes in, whether it fits or not (at worst an area as wide as the grid, with no bar, as when a window
    /// widens): the bound a table the view puts in an area has (`PageView.areaCharacterLimit`).
    static let moveLimit = PageView.areaCharacterLimit
    /// Grids in the page's text looked at per main-loop turn for one that no longer fits.
    static let looksPerTurn = 1000
}

extension PageView {
    // MARK: Reading offsets

    /// The page's characters as read: the page's buffer with each area's grid in place of its anchor.
    var readingCharacterCount: Int {
        grids.areas.reduce(textView.characterCount) { $0 + $1.removed }
    }

    /// The reading offset of page character `offset` (an anchor's: its grid's first character).
    func readingOffset(ofPage offset: Int) -> Int {
        var shift = 0
        for grid in grids.areas {
            guard grid.anchor < offset else { break }
            shift += grid.removed
        }
        return offset + shift
    }

    /// The page character holding reading character `offset`: the anchor for a character of a grid in an area.
    func pageOffset(ofReading offset: Int) -> Int {
        var shift = 0
        for grid in grids.areas {
            let start = grid.anchor + shift
            if offset < start { break }
            if offset < start + max(grid.characters, 1) { return grid.anchor }
            shift += grid.removed
        }
        return offset - shift
    }

    /// Reading characters `range` as they lie in the page's buffer and in the areas' buffers, in order.
    func readingPieces(_ range: Range<Int>) -> [(view: TextView, range: Range<Int>)] {
        guard !grids.areas.isEmpty else { return range.isEmpty ? [] : [(textView, range)] }
        var pieces: [(view: TextView, range: Range<Int>)] = []
        var at = range.lowerBound, shift = 0
        for grid in grids.areas {
            let start = grid.anchor + shift, end = start + grid.characters
            if start >= range.upperBound { break }
            if end > at {
                if at < start { pieces.append((textView, (at - shift)..<(start - shift))) }
                let from = max(at, start), to = min(range.upperBound, end)
                if to > from { pieces.append((grid.area.view, (from - start)..<(to - start))) }
                at = max(at, to)
            }
            shift += grid.removed
        }
        if at < range.upperBound { pieces.append((textView, (at - shift)..<(range.upperBound - shift))) }
        return pieces
    }

    /// Reading characters `start ..< end`, one per character (`TextView.text(fromCharacter:to:)`).
    func readingText(from start: Int, to end: Int) -> String {
        guard !grids.areas.isEmpty else { return textView.text(fromCharacter: start, to: end) }
        return readingPieces(start..<max(start, end)).map { $0.view.text(fromCharacter: $0.range.lowerBound,
                                                                           to: $0.range.upperBound) }.joined()
    }

    /// Puts `tag` on (or takes it off) reading characters `range`, wherever they lie.
    func tagReading(_ tag: TextTag, _ range: Range<Int>, on: Bool) {
        for piece in readingPieces(range) {
            if on {
                piece.view.applyTag(tag, fromCharacter: piece.range.lowerBound, to: piece.range.upperBound)
            } else {
                piece.view.removeTag(tag, fromCharacter: piece.range.lowerBound, to: piece.range.upperBound)
            }
        }
    }

    /// The reading characters on screen: the page's, and of an area on screen the rows it shows.
    var visibleReadingCharacters: Range<Int> {
        let visible = textView.visibleCharacters
        guard !grids.areas.isEmpty else { return visible }
        var lower = readingOffset(ofPage: visible.lowerBound), upper = readingOffset(ofPage: visible.upperBound)
        var shift = 0
        for grid in grids.areas {
            defer { shift += grid.removed }
            guard visible.contains(grid.anchor) else { continue }
            let start = grid.anchor + shift, shown = grid.area.view.visibleCharacters
            // The anchor's line shows the anchor alone (its other characters, if any, hidden): at the top of the
            // screen, the rows the area shows are where the screen starts; at its bottom, where it ends.
            if grid.anchor == visible.lowerBound { lower = start + shown.lowerBound }
            if visible.upperBound <= grid.pageEnd + 1 { upper = start + min(shown.upperBound, grid.characters) }
        }
        return lower..<max(lower, upper)
    }

    /// The grid in an area holding reading character `offset`, with the offset in its area.
    func gridArea(containing offset: Int) -> (area: TableArea, offset: Int, anchor: Int)? {
        var shift = 0
        for grid in grids.areas {
            let start = grid.anchor + shift
            if offset < start { return nil }
            if offset < start + grid.characters { return (grid.area, offset - start, grid.anchor) }
            shift += grid.removed
        }
        return nil
    }

    // MARK: Inserting

    /// Where the next slice goes: the page's text up to the next grid's first byte, or the area of the grid
    /// going in up to its last (`limit`, a byte of the document).
    func sliceTarget(_ document: Document) -> (view: TextView, limit: Int, anchor: Int?) {
        if grids.filling, let last = grids.areas.last, last.grid < document.grids.count {
            return (last.area.view, document.grids[last.grid].bytes.upperBound, last.anchor)
        }
        let limit = grids.next < document.grids.count ? document.grids[grids.next].bytes.lowerBound
            : document.storage.bytes.count
        return (textView, limit, nil)
    }

    /// Insertion stands at `byte` of `document`: a grid begins or ends there. A grid wider than the view, or of more
    /// than `PageViewGrids.moveLimit` characters, goes into an area standing at a character appended to the page;
    /// one that fits goes into the page's text, noted to move into an area if it stops fitting.
    func gridBoundary(at byte: Int, of document: Document) {
        let all = document.grids
        if grids.filling, let last = grids.areas.last {
            guard byte >= all[last.grid].bytes.upperBound else { return }
            grids.filling = false
            grids.next = last.grid + 1
            return
        }
        while grids.next < all.count, all[grids.next].bytes.lowerBound <= byte {
            let grid = all[grids.next]
            let begins = grid.bytes.lowerBound == byte && !grid.bytes.isEmpty
                && grids.areas.count < PageViewGrids.areaLimit
            guard begins, gridWidth(grid) > gridRoom || grid.characters > PageViewGrids.moveLimit else {
                if begins { grids.inText.append((grids.next, textView.characterCount)) }
                grids.next += 1
                continue
            }
            showGridInArea(grids.next, grid)
            return
        }
    }

    /// The width in pixels a grid's lines take in an area: its columns in the monospace face, its indentation
    /// and the area's margins.
    private func gridWidth(_ grid: PageGrid) -> Int {
        let text = Double(grid.columns) * textView.monospaceCharacterWidth
        let indent = grid.indent > 0 ? Indentation.pixels(level: min(grid.indent, 12)) : 0
        return Int(text.rounded(.up)) + indent + 16 + 16 + 4
    }

    /// The room for an area: the text's width between the page's margins; before the view has its width, that
    /// of the dump's reading width (`Document.defaultLayoutWidth`) in the monospace face.
    private var gridRoom: Int {
        guard scrolledWindow.width > 100 else {
            return Int(Double(Document.defaultLayoutWidth) * textView.monospaceCharacterWidth) + 36
        }
        // A grid widens the reading measure to its own width (`fitMeasure`): the room is the view's.
        return max(min(textView.width, scrolledWindow.width) - 32, 40)
    }

    /// The widest an area may be made without widening the page: its line has no left margin
    /// (`tableAreaLineTag`), but the page's right margin (16 px), the space the measure leaves beside the text
    /// (`fitMeasure`), and the pixel GtkTextView adds to its widest line for the cursor (`SPACE_FOR_CURSOR` in
    /// gtktextview.c). The measure takes in the grid's columns, and an area as wide as the grid takes all of it
    /// (its margins and the page's against the code padding and the page's): one pixel more scrolled the page.
    private var gridLineRoom: Int {
        let side = textView.sideSpace
        return min(textView.width, scrolledWindow.width) - side.left - side.right - 16 - 1
    }

    /// The tallest an area is made: most of the page's view, so that a long grid scrolls up and down in it, its
    /// rows laid out a screen at a time.
    private var gridAreaMaximumHeight: Int {
        max(scrolledWindow.height > 100 ? scrolledWindow.height - 48 : 600, 120)
    }

    /// Makes grid `index`'s area at the page's end and starts filling it.
    private func showGridInArea(_ index: Int, _ grid: PageGrid) {
        let area = TableArea(sharingTagsOf: textView)
        connectGridArea(area)
        let anchor = textView.characterCount
        textView.appendUTF8(Self.objectCharacter, tagging: [])
        // The anchor's line has no margin of its own: the area's text keeps the page's (`setLeftMargin`) and
        // the grid's indentation.
        let line = tableAreaLineTag
        textView.raise(line)
        textView.applyTag(line, fromCharacter: anchor, to: anchor + 1)
        textView.replaceCharacter(at: anchor, withWidget: area.frame)
        let height = area.view.monospaceLineHeight * max(grid.lines, 1)
        grids.areas.append(GridArea(grid: index, area: area, anchor: anchor, textHeight: height))
        grids.filling = true
        sizeGridArea(grids.areas.count - 1, relayout: false)
    }

    /// What a grid's area has, whichever way its grid went in: the page's margin and text size, find's highlights
    /// following its rows, its links followed, its height taken from its text once laid out.
    private func connectGridArea(_ area: TableArea) {
        area.setLeftMargin(16)
        area.view.setFontScale(zoom)
        prepareArea(area)
        // Find's highlights follow the area's rows as they follow the page's.
        _ = area.frame.onVerticalScroll { [weak self] in self?.finder.areaScrolled() }
        // Its links are followed as the page's are (`PageView.buttonReleased`).
        area.view.onMotion { [weak self, weak area] x, y in
            guard let self, let area else { return false }
            let link = self.gridLink(in: area, x: x, y: y)
            area.view.setPointer(hand: link != nil)
            self.setHovered(link)
            return false
        }
        area.view.onLeave { [weak self, weak area] in
            area?.view.setPointer(hand: false)
            self?.setHovered(nil)
        }
        area.view.onButtonRelease { [weak self, weak area] x, y, button in
            guard let self, let area else { return false }
            return self.linkReleased(self.gridLink(in: area, x: x, y: y), button: button,
                                     selecting: area.view.hasSelection)
        }
        area.onTextTallerThanShown { [weak self, weak area] measured in
            self?.sources.idle { [weak self, weak area] in
                guard let self, let area,
                      let k = self.grids.areas.firstIndex(where: { $0.area === area }),
                      self.grids.areas[k].textHeight < measured, !area.scrollsVertically else { return }
                self.grids.areas[k].textHeight = measured
                self.sizeGridArea(k, relayout: true)
            }
        }
    }

    /// The first of the page's link ranges that ends after character `offset` (a binary search).
    private func firstLinkRange(endingAfter offset: Int) -> Int {
        var low = 0, high = linkRanges.count
        while low < high {
            let middle = (low + high) / 2
            if linkRanges[middle].end <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The page's link ranges over characters `range`, cut to it.
    private func linkRanges(within range: Range<Int>) -> [(start: Int, end: Int, link: Int)] {
        var low = firstLinkRange(endingAfter: range.lowerBound)
        var found: [(start: Int, end: Int, link: Int)] = []
        while low < linkRanges.count, linkRanges[low].start < range.upperBound {
            let link = linkRanges[low]
            found.append((max(link.start, range.lowerBound), min(link.end, range.upperBound), link.link))
            low += 1
        }
        return found
    }

    /// Characters `start ..< end` of the grid going in belong to `link`.
    func addGridLink(_ start: Int, _ end: Int, _ link: Int) {
        guard let k = grids.areas.indices.last else { return }
        if let last = grids.areas[k].links.last, last.link == link, last.end == start {
            grids.areas[k].links[grids.areas[k].links.count - 1].end = end
        } else {
            grids.areas[k].links.append((start, end, link))
        }
    }

    /// The link under (x, y) in `area`'s view.
    private func gridLink(in area: TableArea, x: Double, y: Double) -> Int? {
        guard let entry = grids.areas.first(where: { $0.area === area }), !entry.links.isEmpty,
              let offset = area.view.characterOffset(atWindowX: x, y: y) else { return nil }
        return Self.link(at: offset, in: entry.links)
    }

    /// U+FFFC, the character a child anchor takes the place of.
    private static let objectCharacter: UnsafeBufferPointer<UInt8> = {
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 3)
        _ = bytes.initialize(from: [0xEF, 0xBF, 0xBC])
        return UnsafeBufferPointer(bytes)
    }()

    /// Sets area `k`'s size from the room there is and its text's height; with `relayout`, has GTK lay its line
    /// out again, since it takes an anchored widget's size when it lays the widget's line out.
    private func sizeGridArea(_ k: Int, relayout: Bool) {
        guard let document, grids.areas[k].grid < document.grids.count else { return }
        let entry = grids.areas[k]
        let wanted = gridWidth(document.grids[entry.grid])
        let width = min(wanted, gridRoom, scrolledWindow.width > 100 ? gridLineRoom : wanted)
        let tall = entry.textHeight > gridAreaMaximumHeight
        if tall && !entry.area.scrollsVertically { entry.area.allowVerticalScrolling() }
        entry.area.setSize(width: width, textHeight: entry.area.scrollsVertically ? gridAreaMaximumHeight : entry.textHeight,
                           bar: wanted > width)
        guard relayout, entry.anchor < textView.characterCount else { return }
        let line = tableAreaLineTag
        textView.removeTag(line, fromCharacter: entry.anchor, to: entry.anchor + 1)
        textView.applyTag(line, fromCharacter: entry.anchor, to: entry.anchor + 1)
    }

    /// The view's width or text size changed: each area is sized again at the next main-loop turn (not inside
    /// the size allocation that told of it, where a new size request would be lost).
    func gridAreasNeedSize() {
        guard !grids.areas.isEmpty, !grids.resizePending else { return }
        grids.resizePending = true
        let current = generation
        sources.idle { [weak self] in
            guard let self, self.generation == current else { return }
            self.grids.resizePending = false
            for k in self.grids.areas.indices {
                self.grids.areas[k].area.view.setFontScale(self.zoom)
                self.sizeGridArea(k, relayout: true)
            }
        }
    }

    /// Whether the page's text from character `cut` on may be replaced in place (`showProgressive`): not when an
    /// area's grid stands there or is going in.
    func gridsReplaceable(from cut: Int) -> Bool {
        !grids.filling && !grids.areas.contains { $0.pageEnd > cut }
    }

    /// The page's text from character `cut` on is replaced: the grids that went into it from there go in again.
    func gridsCut(at cut: Int) {
        grids.inText.removeAll { $0.start >= cut }
        grids.cursor = 0
    }

    // MARK: Moving into an area

    /// The room for grids may have shrunk (the view's width or text size changed) or a grid finished going into
    /// the page's text: the grids there are looked at from the main loop, a bounded number a turn, and those that
    /// no longer fit move into areas, one a turn (`moveLimit`).
    func gridsNeedRoom() {
        guard !grids.inText.isEmpty else { return }
        grids.cursor = 0
        guard !grids.movePending else { return }
        grids.movePending = true
        let current = generation
        func step() {
            sources.idle { [weak self] in
                guard let self, self.generation == current else { return }
                if self.moveGridStep() { self.grids.movePending = false } else { step() }
            }
        }
        step()
    }

    /// Looks at up to `looksPerTurn` grids in the page's text and moves the first that no longer fits into an
    /// area. True when no grid is left to look at.
    private func moveGridStep() -> Bool {
        guard let document, scrolledWindow.width > 100 else { return true }
        var looks = 0
        while grids.cursor < grids.inText.count, grids.areas.count < PageViewGrids.areaLimit {
            guard looks < PageViewGrids.looksPerTurn else { return false }
            looks += 1
            let (index, start) = grids.inText[grids.cursor]
            guard index < document.grids.count else { return true }
            let grid = document.grids[index]
            // The rest are still going in: the last slice looks again (`insertSlice`).
            guard start + grid.characters <= textView.characterCount else { return true }
            guard grid.characters <= PageViewGrids.moveLimit, grid.characters > 0, gridWidth(grid) > gridRoom else {
                grids.cursor += 1
                continue
            }
            grids.inText.remove(at: grids.cursor)
            moveGridIntoArea(index, grid, at: start)
            return false
        }
        return true
    }

    /// Moves grid `index`, whose characters start at page character `start`, from the page's text into an area, as
    /// a table is (`placeArea`): a copy of them in the area, they hidden in the page with the line break after them
    /// (the anchor's own line ends the area's), the anchor in place of the first.
    private func moveGridIntoArea(_ index: Int, _ grid: PageGrid, at start: Int) {
        let end = start + grid.characters
        let lineBreak = end < textView.characterCount && textView.text(fromCharacter: end, to: end + 1) == "\n"
        // The lines the area takes the place of are no longer laid out: the reader's line stays at the top (the
        // area's, when it was one of the grid's).
        let top = textView.topCharacter
        let area = TableArea(copying: textView, from: start, to: end)
        connectGridArea(area)
        var entry = GridArea(grid: index, area: area, anchor: start,
                             textHeight: area.view.monospaceLineHeight * max(grid.lines, 1))
        entry.hidden = true
        entry.hiddenLineBreak = lineBreak
        entry.characters = grid.characters
        entry.links = linkRanges(within: start..<end).map { ($0.start - start, $0.end - start, $0.link) }
        // The anchor belongs to no link of the page: the pointer over the area is over it too, and the page would
        // follow the link of the grid's first character wherever the area is clicked.
        let linked = firstLinkRange(endingAfter: start)
        if linked < linkRanges.count, linkRanges[linked].start <= start {
            let link = linkRanges[linked]
            replaceLinkRanges(linked..<(linked + 1), with: [(link.start, start, link.link), (start + 1, link.end, link.link)]
                .filter { $0.0 < $0.1 })
        }
        placeArea(area, over: start..<(lineBreak ? end + 1 : end), anchor: start, line: start..<(start + 1))
        let k = grids.areas.firstIndex { $0.anchor > start } ?? grids.areas.count
        grids.areas.insert(entry, at: k)
        sizeGridArea(k, relayout: false)
        if top > start {
            let target = top < entry.pageEnd ? start : top
            textView.scroll(toCharacter: target)
            sources.idle { [weak self] in self?.textView.scroll(toCharacter: target) }
        }
        // A search under way reads the grid from its area now, where its matches are shown.
        finder.pageChanged()
    }

    // MARK: Copy and find

    /// The text of the page's characters `range` as a copy gives it when it takes in areas' anchors: each
    /// anchor's grid from its area, the rest as `pageText` gives it. Nil when the range takes in no anchor.
    func selectedTextAcrossGrids(_ range: Range<Int>, pageText: (Range<Int>) -> String) -> String? {
        let anchors = grids.areas.filter { range.contains($0.anchor) }
        guard !anchors.isEmpty else { return nil }
        var text = "", at = range.lowerBound
        for grid in anchors {
            if grid.anchor > at { text += pageText(at..<grid.anchor) }
            text += grid.area.view.text(fromCharacter: 0, to: grid.area.view.characterCount)
            // A grid whose characters stay in the page, hidden: past them, with the line break hidden after them.
            at = grid.hidden ? grid.anchor + grid.characters : grid.anchor + 1
            if grid.hiddenLineBreak && range.upperBound > at {
                text += "\n"
                at += 1
            }
        }
        if range.upperBound > at { text += pageText(at..<range.upperBound) }
        return text
    }

    /// Shows reading characters `range` in the grid area holding them: the page scrolled to the area, the area to
    /// the characters, which are selected there. False when they are in no area.
    func revealInGridArea(_ range: Range<Int>, highlight: TextTag?) -> Bool {
        guard let found = gridArea(containing: range.lowerBound) else { return false }
        let end = min(found.offset + range.count, found.area.view.characterCount)
        reveal(found.offset..<end, in: found.area, anchor: found.anchor, margin: 0.1, highlight: highlight)
        return true
    }
}
