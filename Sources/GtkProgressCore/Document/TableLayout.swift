/// A table as the document builder collects it: each cell's text and its place in the grid, following HTML's
/// table model (rows, `colspan`, `rowspan`; a cell skips the slots that a `rowspan` from a row above still
/// covers). The cells' text is written one cell after the other by one `RunWriter` (`cellWriter`), so a cell
/// is a range of that writer's bytes and 20 bytes of place: a table of 100,000 rows of 50 cells is held as its
/// text and 100 MB, not as five million buffers of its own.
struct TableModel {
    struct Cell {
        fileprivate var start: Int32
        fileprivate var end: Int32
        private var rowNumber: Int32
        private var columnNumber: UInt16
        private var columnSpan: UInt16
        private var rowSpan: UInt16
        /// `width="N%"`, 1 to 100, or 0 when the cell asks for no share.
        private var percent: UInt8
        /// `alignment` in the low bits, `verticalAlignment` above.
        private var alignments: UInt8

        /// `row` and `column` are below `TableModel`'s caps (columns below `maximumColumns`, spans within
        /// `maximumRowspan`); offsets within the table's text, which is far below 2 GiB (documents are capped).
        init(bytes: Range<Int>, row: Int, column: Int, colspan: Int, rowspan: Int, alignment: TextAlignment,
             widthPercent: Int? = nil, verticalAlignment: VerticalAlignment = .middle) {
            start = Int32(clamping: bytes.lowerBound)
            end = Int32(clamping: bytes.upperBound)
            rowNumber = Int32(clamping: row)
            columnNumber = UInt16(clamping: column)
            columnSpan = UInt16(clamping: colspan)
            rowSpan = UInt16(clamping: rowspan)
            percent = UInt8(clamping: min(max(widthPercent ?? 0, 0), 100))
            let horizontal: UInt8 = switch alignment { case .left: 0; case .center: 1; case .right: 2 }
            let vertical: UInt8 = switch verticalAlignment { case .top: 0; case .middle: 1; case .bottom: 2 }
            alignments = horizontal | vertical << 2
        }

        /// The cell's text in the table's `cellWriter`.
        var bytes: Range<Int> { Int(start)..<Int(end) }
        var row: Int { Int(rowNumber) }
        var column: Int { Int(columnNumber) }
        var colspan: Int { Int(columnSpan) }
        var rowspan: Int { Int(rowSpan) }
        var alignment: TextAlignment { [.left, .center, .right][Int(alignments & 3)] }
        /// `width="N%"`: the share of the table's width the cell's column asks for.
        var widthPercent: Int? { percent == 0 ? nil : Int(percent) }
        var verticalAlignment: VerticalAlignment { [.top, .middle, .bottom][Int(alignments >> 2)] }
    }

    /// Moves every cell's text by `map` (the table's text was rewritten, `RunStorage.replacing`).
    mutating func moveCells(_ map: (Int) -> Int) {
        for k in cells.indices {
            let bytes = cells[k].bytes
            cells[k].start = Int32(clamping: map(bytes.lowerBound))
            cells[k].end = Int32(clamping: map(bytes.upperBound))
        }
        if let bytes = caption { caption = map(bytes.lowerBound)..<map(bytes.upperBound) }
    }

    /// `valign`: w3m, like browsers, centres cells vertically unless told otherwise.
    enum VerticalAlignment {
        case top, middle, bottom
    }

    /// The current row's `align` and `valign`, which its cells inherit.
    private(set) var rowAlignment: TextAlignment?
    private(set) var rowVerticalAlignment: VerticalAlignment?

    /// w3m's `MAXCOL` (table.h): wider tables read as flowing text.
    static let maximumColumns = 256
    /// HTML caps `rowspan` at 65534.
    static let maximumRowspan = 65534
    /// `cellpadding` and `cellspacing` past this many pixels make no difference (the gap is capped at 4 columns);
    /// holding them here keeps the arithmetic below from overflowing.
    static let largestPixels = 10_000

    let border: Bool
    /// `cellpadding` in pixels, for the window (`PageTable`).
    let paddingPixels: Int
    /// Columns of padding inside each side of a bordered cell.
    let padding: Int
    /// Columns between two cells: the rule of a bordered table, or the space between cells of a borderless one.
    let spacing: Int
    /// `width="N%"` on the table: it stretches to that share of the room.
    let widthPercent: Int?
    /// In blocks, so a long table's cells are never copied into an array twice their size as it grows.
    private(set) var cells = BlockArray<Cell>()
    /// Writes the cells' text, one cell after the other (`RunWriter.startCell`); nil while a cell is being written
    /// (the document builder holds it then).
    var cellWriter: RunWriter? = RunWriter(capacity: 0)
    /// The text of the table's `<caption>` in `cellWriter`, when it has one: laid out over the table, centred on
    /// its width.
    var caption: Range<Int>?
    private(set) var rowCount = 0
    private(set) var columnCount = 0
    /// The last row each column is taken up to, by cells with a `rowspan`.
    private var takenUntil: [Int] = []
    private var nextColumn = 0
    /// A cell fell past `maximumColumns`.
    private(set) var tooWide = false

    /// `cellpadding` and `cellspacing` in pixels turn into columns as w3m's `begin_table` turns them, at its
    /// 8 pixels a character: a bordered cell gets a column of padding on each side from 3 pixels of padding on,
    /// a borderless table a wider gap once spacing and padding pass 8 pixels.
    init(border: Bool, widthPercent: Int? = nil, cellpadding: Int? = nil, cellspacing: Int? = nil) {
        self.border = border
        self.widthPercent = widthPercent
        let paddingPixels = min(max(cellpadding ?? 1, 0), Self.largestPixels)
        self.paddingPixels = paddingPixels
        let spacingPixels = min(max(cellspacing ?? 2, 0), Self.largestPixels)
        let pixels = border ? paddingPixels - 2 : spacingPixels + 2 * paddingPixels - 8
        let columns = pixels >= 8 ? min(pixels / 8, 4) : pixels > 0 ? 1 : 0
        padding = border ? columns : 0
        spacing = border ? 1 : 1 + columns
    }

    mutating func startRow(alignment: TextAlignment? = nil, verticalAlignment: VerticalAlignment? = nil) {
        rowCount += 1
        nextColumn = 0
        rowAlignment = alignment
        rowVerticalAlignment = verticalAlignment
    }

    /// Places the next cell of the current row, with its finished text (a range of `cellWriter`'s bytes).
    mutating func placeCell(colspan: Int, rowspan: Int, alignment: TextAlignment, widthPercent: Int? = nil,
                            verticalAlignment: VerticalAlignment = .middle, content: Range<Int>) {
        if rowCount == 0 { startRow() }
        let row = rowCount - 1
        while nextColumn < takenUntil.count && takenUntil[nextColumn] >= row { nextColumn += 1 }
        let column = nextColumn
        guard column < Self.maximumColumns else {
            tooWide = true
            cells.append(Cell(bytes: content, row: row, column: column, colspan: 1, rowspan: 1, alignment: alignment))
            return
        }
        let span = max(1, min(colspan, Self.maximumColumns - column))
        let rows = rowspan <= 0 ? Self.maximumRowspan : min(rowspan, Self.maximumRowspan)
        if takenUntil.count < column + span { takenUntil += repeatElement(-1, count: column + span - takenUntil.count) }
        for c in column..<(column + span) { takenUntil[c] = row + rows - 1 }
        nextColumn = column + span
        columnCount = max(columnCount, column + span)
        cells.append(Cell(bytes: content, row: row, column: column, colspan: span, rowspan: rows,
                          alignment: alignment, widthPercent: widthPercent, verticalAlignment: verticalAlignment))
    }
}

/// One piece of a laid-out line: text in one style.
struct LaidOutPiece {
    var bytes: [UInt8]
    var style: TextStyle
}

/// Lays tables out in monospace columns, the way w3m's `table.c` does: each column has a minimum width (its
/// longest word, or longest preformatted line) and a preferred width (its longest unwrapped line); when the
/// preferred widths fit they are used, otherwise every column gets its minimum and the rest of the room is shared
/// out (`share`), and cells wrap inside their columns. `width="N%"` on the table and its cells counts as in w3m.
/// Cells are centred vertically unless `valign` says otherwise, as in w3m, and header cells horizontally. A table that cannot fit even at its
/// minimum widths, one with a single column, and one that lays out a page read as flowing text instead.
package enum TableLayout {
    /// Lays `table` out and hands each line to `emit` with the table's width; false when the table reads as
    /// flowing text instead (then nothing was emitted). `text` is what the table's `cellWriter` wrote.
    ///
    /// Three passes over the cells, none of which keeps a cell's measure or its wrapped lines: the first takes
    /// each column's minimum and preferred width (w3m's `check_minimum_width` and `check_maximum_width`, table.c,
    /// per column), the second each row's height at the widths chosen, the third wraps the cells of one row at a
    /// time and emits its lines; only cells that span rows stay wrapped until their last row. Lines go out as
    /// they are made, so a long table never exists twice.
    static func layout(_ table: TableModel, text: RunStorage, width: Int, base: TextStyle,
                       emit: ([LaidOutPiece], Int) -> Void) -> Bool {
        let columns = table.columnCount
        let spacing = table.spacing, inset = table.padding
        guard columns >= 2, !table.tooWide, table.rowCount > 0 else { return false }
        // A grid far larger than its cells (a huge colspan on a long table) is not worth drawing.
        guard table.rowCount * columns <= 16 * table.cells.count + 4096 else { return false }

        // Minimum and preferred widths per column: single-column cells first, then spanning ones, narrowest span
        // first, spreading what they lack over the columns they span. A table of a few rows whose cells hold
        // headings or several paragraphs lays out a page (a navigation column beside the text); so does any
        // table with a cell as long as an article.
        var minimum = [Int](repeating: 0, count: columns), preferred = minimum
        var spanning: [(index: Int, minimum: Int, preferred: Int)] = []
        for (index, cell) in table.cells.enumerated() {
            if cell.bytes.count > 4096 { return false }
            let measured = CellText(storage: text, bytes: cell.bytes)
            if table.rowCount <= 3 && measured.isPageLayout { return false }
            if cell.colspan == 1 {
                minimum[cell.column] = max(minimum[cell.column], measured.minimumWidth + 2 * inset)
                preferred[cell.column] = max(preferred[cell.column], measured.preferredWidth + 2 * inset)
            } else {
                spanning.append((index, measured.minimumWidth, measured.preferredWidth))
            }
        }
        spanning.sort { table.cells[$0.index].colspan < table.cells[$1.index].colspan }
        for span in spanning {
            let cell = table.cells[span.index]
            let range = cell.column..<(cell.column + cell.colspan)
            let inside = (cell.colspan - 1) * spacing
            spread(span.minimum + 2 * inset - inside, over: range, into: &minimum)
            spread(span.preferred + 2 * inset - inside, over: range, into: &preferred)
        }
        spanning = []
        for c in 0..<columns { preferred[c] = max(preferred[c], minimum[c]) }

        let frame = table.border ? 2 : 0
        let available = width - (columns - 1) * spacing - frame
        guard minimum.reduce(0, +) <= available else { return false }
        let widths = columnWidths(table, available: available, minimum: minimum, preferred: preferred)
        func cellWidth(_ cell: TableModel.Cell) -> Int {
            widths[cell.column..<(cell.column + cell.colspan)].reduce(0, +) + (cell.colspan - 1) * spacing
        }

        // Row heights: each row as tall as its tallest single-row cell; a cell spanning rows adds what it still
        // lacks to its last row.
        let rows = table.rowCount
        let separator = table.border ? 1 : 0
        var heights = [Int](repeating: 0, count: rows)
        var spanningRows: [(index: Int, lines: Int)] = []
        for (index, cell) in table.cells.enumerated() {
            let count = CellText(storage: text, bytes: cell.bytes).wrap(width: cellWidth(cell) - 2 * inset).count
            if cell.rowspan == 1 {
                heights[cell.row] = max(heights[cell.row], count)
            } else {
                spanningRows.append((index, count))
            }
        }
        for (index, count) in spanningRows {
            let cell = table.cells[index]
            let last = min(rows, cell.row + cell.rowspan) - 1
            let have = heights[cell.row...last].reduce(0, +) + (last - cell.row) * separator
            if count > have { heights[last] += count - have }
        }
        spanningRows = []

        // Which cell covers each slot of the grid.
        var grid = [Int32](repeating: -1, count: rows * columns)
        for (index, cell) in table.cells.enumerated() {
            let lastRow = min(rows, cell.row + cell.rowspan) - 1
            for r in cell.row...lastRow {
                for c in cell.column..<(cell.column + cell.colspan) where grid[r * columns + c] < 0 {
                    grid[r * columns + c] = Int32(index)
                }
            }
        }
        // The first line of each row, counting the rules between rows.
        var rowTop = [Int](repeating: 0, count: rows + 1)
        for r in 0..<rows { rowTop[r + 1] = rowTop[r] + heights[r] + separator }
        heights = []

        // The cells of the rows being emitted, wrapped: a cell is wrapped when its first row comes and let go
        // after its last.
        var wrapped: [Int32: (cell: CellText, lines: [WrappedLine])] = [:]
        func cellLines(_ index: Int) -> (cell: CellText, lines: [WrappedLine]) {
            if let done = wrapped[Int32(index)] { return done }
            let cell = table.cells[index]
            let measured = CellText(storage: text, bytes: cell.bytes)
            let done = (measured, measured.wrap(width: cellWidth(cell) - 2 * inset))
            wrapped[Int32(index)] = done
            return done
        }

        // Padding and rules: monospace like the cells, so that the columns line up in the view as in a dump.
        var plain = TextStyle(monospace: true, preformatted: true, indent: base.indent)
        plain.italic = base.italic
        let tableWidth = widths.reduce(0, +) + (columns - 1) * spacing + frame
        var writer = LineWriter(plain: plain, spacing: spacing, inset: inset)
        if let caption = table.caption {
            // The caption as wide as the table (CSS 2.1 § 17.4), its lines centred; a word longer than the table
            // is as wide as the table is not cut (w3m wraps it the same way).
            let measured = CellText(storage: text, bytes: caption)
            for line in measured.wrap(width: tableWidth) {
                writer.addCaption(line, measured, width: tableWidth, base: base)
                emit(writer.finishLine(), tableWidth)
            }
        }
        if table.border { emit(writer.rule(grid: grid, columns: columns, widths: widths, above: nil, below: 0), tableWidth) }
        for r in 0..<rows {
            if !wrapped.isEmpty {
                wrapped = wrapped.filter { index, _ in
                    let cell = table.cells[Int(index)]
                    return min(rows, cell.row + cell.rowspan) > r
                }
            }
            let lineCount = rowTop[r + 1] - rowTop[r] - separator + (table.border && r + 1 < rows ? 1 : 0)
            for i in 0..<lineCount {
                let isRule = i == rowTop[r + 1] - rowTop[r] - separator
                let y = rowTop[r] + i
                if isRule {
                    emit(writer.rule(grid: grid, columns: columns, widths: widths, above: r, below: r + 1) {
                        into, index, cellWidth in
                        let cell = table.cells[index]
                        let (measured, lines) = cellLines(index)
                        let text = Self.line(of: cell, lines, at: y, rowTop: rowTop, rows: rows,
                                             separator: separator)
                        into.addCell(text, measured, width: cellWidth, alignment: cell.alignment, base: base)
                    }, tableWidth)
                    continue
                }
                if table.border { writer.add(vertical: true) }
                var c = 0
                while c < columns {
                    let index = Int(grid[r * columns + c])
                    if c > 0 { writer.add(vertical: table.border) }
                    guard index >= 0 else {
                        writer.pad(widths[c])
                        c += 1
                        continue
                    }
                    let cell = table.cells[index]
                    let span = cell.colspan
                    let cellWidth = widths[c..<min(columns, c + span)].reduce(0, +) + (span - 1) * spacing
                    let (measured, lines) = cellLines(index)
                    let line = Self.line(of: cell, lines, at: y, rowTop: rowTop, rows: rows,
                                         separator: separator)
                    writer.addCell(line, measured, width: cellWidth, alignment: cell.alignment, base: base)
                    c += span
                }
                if table.border { writer.add(vertical: true) }
                emit(writer.finishLine(), tableWidth)
            }
        }
        if table.border {
            emit(writer.rule(grid: grid, columns: columns, widths: widths, above: rows - 1, below: nil), tableWidth)
        }
        return true
    }

    /// The cell's line shown at line `y` of the table, placed vertically in the rows it spans.
    private static func line(of cell: TableModel.Cell, _ lines: [WrappedLine], at y: Int, rowTop: [Int], rows: Int,
                             separator: Int) -> WrappedLine? {
        let lastRow = min(rows, cell.row + cell.rowspan) - 1
        let top = rowTop[cell.row]
        let height = rowTop[lastRow + 1] - separator - top
        let room = max(0, height - lines.count)
        let offset: Int
        switch cell.verticalAlignment {
        case .top: offset = 0
        case .middle: offset = room / 2
        case .bottom: offset = room
        }
        let k = y - top - offset
        return k >= 0 && k < lines.count ? lines[k] : nil
    }

    /// Widens the columns in `range` so that together they are at least `width`, evenly.
    private static func spread(_ width: Int, over range: Range<Int>, into widths: inout [Int]) {
        let have = widths[range].reduce(0, +)
        guard width > have else { return }
        let extra = width - have
        for (k, c) in range.enumerated() { widths[c] += extra / range.count + (k < extra % range.count ? 1 : 0) }
    }

    private static func columnWidths(_ table: TableModel, available: Int, minimum: [Int], preferred: [Int]) -> [Int] {
        var percents = [Int?](repeating: nil, count: minimum.count)
        for cell in table.cells where cell.colspan == 1 {
            if let percent = cell.widthPercent { percents[cell.column] = max(percents[cell.column] ?? 0, percent) }
        }
        return columnWidths(available: available, minimum: minimum, preferred: preferred,
                            tablePercent: table.widthPercent, columnPercents: percents, spacing: table.spacing,
                            frame: table.border ? 2 : 0)
    }

    /// The preferred widths when they fit, else w3m's sharing. Percentages, as w3m reads them: a table's
    /// `width="N%"` (`tablePercent`) stretches it to that share of the room, and a cell's (the largest in its
    /// column, `columnPercents`) fixes its column's share of the table. In any unit: the dump's grid measures in
    /// columns, the window's tables in pixels (`PageView+Tables.swift`). `available` is the room for the columns
    /// alone; `spacing` goes between two columns and `frame` around them.
    package static func columnWidths(available: Int, minimum: [Int], preferred: [Int], tablePercent: Int?,
                                     columnPercents: [Int?], spacing: Int, frame: Int) -> [Int] {
        let columns = minimum.count
        let leastTotal = minimum.reduce(0, +)
        var target: Int?
        if let percent = tablePercent {
            let full = available + (columns - 1) * spacing + frame
            target = min(available, max(leastTotal, full * min(percent, 100) / 100 - (columns - 1) * spacing - frame))
        }
        var wanted = [Int?](repeating: nil, count: columns)
        for (column, percent) in columnPercents.enumerated() where column < columns {
            if let percent {
                let share = (target ?? available) * min(percent, 100) / 100
                wanted[column] = max(share, minimum[column])
            }
        }
        let fixedTotal = wanted.compactMap { $0 }.reduce(0, +)
        let freeMinimum = (0..<columns).filter { wanted[$0] == nil }.map { minimum[$0] }.reduce(0, +)
        if target == nil && fixedTotal == 0 || fixedTotal + freeMinimum > available {
            return preferred.reduce(0, +) <= available
                ? preferred : share(available, minimum: minimum, preferred: preferred)
        }
        var widths = (0..<columns).map { wanted[$0] ?? minimum[$0] }
        let free = (0..<columns).filter { wanted[$0] == nil }
        let freePreferred = free.map { preferred[$0] }.reduce(0, +)
        let room = (target ?? min(available, fixedTotal + freePreferred)) - fixedTotal
        if !free.isEmpty && room > 0 {
            // With a table width the free columns fill it; without, they take at most their preference.
            let shared = share(room, minimum: free.map { minimum[$0] }, preferred: free.map { preferred[$0] })
            for (k, c) in free.enumerated() { widths[c] = shared[k] }
        }
        return widths
    }

    /// Shares `available` out: every column gets its minimum, and what is left goes to the columns in
    /// proportion to how much they lack of their preference, so short columns reach theirs and long text takes
    /// the rest (the outcome of w3m's width solver on ordinary tables; CSS 2.1's automatic table layout as
    /// browsers implement it). Room beyond every preference (a table stretched by its `width`) goes in
    /// proportion to the preferences.
    private static func share(_ available: Int, minimum: [Int], preferred: [Int], weights: [Int]? = nil) -> [Int] {
        let count = minimum.count
        let least = minimum.reduce(0, +)
        guard available > least, count > 0 else { return minimum }
        let lacking = (0..<count).map { max(0, preferred[$0] - minimum[$0]) }
        let totalLacking = lacking.reduce(0, +)
        let extra = available - least
        var shares = [Double](repeating: 0, count: count)
        if extra <= totalLacking, totalLacking > 0 {
            for c in 0..<count { shares[c] = Double(minimum[c]) + Double(extra) * Double(lacking[c]) / Double(totalLacking) }
        } else {
            let base = (0..<count).map { max(minimum[$0], preferred[$0]) }
            let weights = (weights ?? base).map { max($0, 1) }
            let totalWeight = weights.reduce(0, +)
            let beyond = extra - totalLacking
            for c in 0..<count { shares[c] = Double(base[c]) + Double(beyond) * Double(weights[c]) / Double(totalWeight) }
        }
        return roundKeepingSum(shares, sum: available)
    }

    /// Whole numbers that add up to `sum`, each within one of its share (largest remainders first).
    private static func roundKeepingSum(_ shares: [Double], sum: Int) -> [Int] {
        var result = shares.map { Int($0.rounded(.down)) }
        var left = sum - result.reduce(0, +)
        let order = shares.indices.sorted { shares[$0] - Double(result[$0]) > shares[$1] - Double(result[$1]) }
        for index in order where left > 0 {
            result[index] += 1
            left -= 1
        }
        return result
    }
}

/// A line of a cell after wrapping: a range of the cell's bytes, and the columns it takes with its indentation.
struct WrappedLine {
    var range: Range<Int>
    var indent: Int
    var columns: Int
}

/// A cell's text split into its lines, measured for the table's column widths and wrapped to them.
struct CellText {
    let storage: RunStorage
    /// The cell's text in `storage`.
    let bytes: Range<Int>
    /// Each line of the cell, its indentation, and the columns of a list marker that starts it, which hangs in
    /// that indentation as in the rest of the page (the first line of an item stands out by its marker).
    private(set) var lines: [(range: Range<Int>, indent: Int, marker: Int, preformatted: Bool)] = []
    private(set) var minimumWidth = 0
    private(set) var preferredWidth = 0
    /// The cell holds what lays out a page rather than a datum: headings, or several paragraphs.
    private(set) var isPageLayout = false

    init(storage: RunStorage, bytes: Range<Int>) {
        self.storage = storage
        self.bytes = bytes
        var paragraphs = 0
        var start = bytes.lowerBound
        var run = storage.run(containing: bytes.lowerBound)
        let end = bytes.upperBound
        storage.bytes.withUnsafeBufferPointer { buffer in
            for k in bytes.lowerBound...end where k == end || buffer[k] == 0x0A {
                if k == start {
                    if k < end {
                        // An empty line between paragraphs stays, as w3m keeps it.
                        paragraphs += 1
                        lines.append((start..<k, 0, 0, false))
                    }
                    start = k + 1
                    continue
                }
                while run < storage.runCount - 1 && storage.runEnds[run] <= start { run += 1 }
                let style = storage.style(ofRun: run)
                if style.heading > 0 { isPageLayout = true }
                let indent = Indentation.columns(level: style.indent)
                let marker = style.listMarker
                    ? TextColumns.columns(UnsafeBufferPointer(rebasing: buffer[start..<min(storage.runEnds[run], k)])) : 0
                let line = UnsafeBufferPointer(rebasing: buffer[start..<k])
                let columns = TextColumns.columns(line)
                var longest = columns
                if !style.preformatted {
                    longest = 0
                    TextColumns.forEachBreakablePiece(line) { _, pieceColumns, _ in longest = max(longest, pieceColumns) }
                }
                lines.append((start..<k, indent, min(marker, indent), style.preformatted))
                minimumWidth = max(minimumWidth, indent + longest)
                preferredWidth = max(preferredWidth, indent - min(marker, indent) + columns)
                start = k + 1
            }
        }
        if paragraphs >= 3 { isPageLayout = true }
    }

    /// The lines wrapped at `width` columns (`TextColumns.wrap`); preformatted lines stay whole.
    func wrap(width: Int) -> [WrappedLine] {
        var wrapped: [WrappedLine] = []
        storage.bytes.withUnsafeBufferPointer { buffer in
            for line in lines {
                var indent = line.indent - line.marker
                let text = UnsafeBufferPointer(rebasing: buffer[line.range])
                let total = TextColumns.columns(text)
                if line.preformatted || total <= width - indent {
                    wrapped.append(WrappedLine(range: line.range, indent: indent, columns: indent + total))
                    continue
                }
                let base = line.range.lowerBound
                TextColumns.wrap(text, firstLine: max(1, width - indent), otherLines: max(1, width - line.indent)) {
                    range, columns in
                    wrapped.append(WrappedLine(range: (base + range.lowerBound)..<(base + range.upperBound),
                                               indent: indent, columns: indent + columns))
                    indent = line.indent
                }
            }
        }
        return wrapped
    }

    /// The styled pieces of `range`.
    func pieces(_ range: Range<Int>, into line: inout [LaidOutPiece], restyle: (TextStyle) -> TextStyle) {
        guard !range.isEmpty else { return }
        var run = storage.run(containing: range.lowerBound)
        var position = range.lowerBound
        while position < range.upperBound && run < storage.runCount {
            let end = min(storage.runEnds[run], range.upperBound)
            if end > position {
                line.append(LaidOutPiece(bytes: Array(storage.bytes[position..<end]),
                                         style: restyle(storage.style(ofRun: run))))
            }
            position = end
            run += 1
        }
    }
}

/// Builds the table's lines piece by piece.
private struct LineWriter {
    let plain: TextStyle
    let spacing: Int
    /// Padding inside each side of a cell.
    let inset: Int
    private var pieces: [LaidOutPiece] = []

    init(plain: TextStyle, spacing: Int, inset: Int) {
        self.plain = plain
        self.spacing = spacing
        self.inset = inset
    }

    mutating func pad(_ count: Int) {
        guard count > 0 else { return }
        text(Array(repeating: 0x20, count: count))
    }

    mutating func add(vertical: Bool) {
        if vertical { text(Array("│".utf8)) } else { pad(spacing) }
    }

    private mutating func text(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if let last = pieces.last, last.style == plain {
            pieces[pieces.count - 1].bytes += bytes
        } else {
            pieces.append(LaidOutPiece(bytes: bytes, style: plain))
        }
    }

    mutating func addCell(_ line: WrappedLine?, _ cell: CellText, width: Int, alignment: TextAlignment,
                          base: TextStyle) {
        guard let line else { pad(width); return }
        let room = max(0, width - 2 * inset - line.columns)
        let before = inset + (alignment == .center ? room / 2 : alignment == .right ? room : 0)
        pad(before + line.indent)
        addPieces(line, cell, base: base)
        pad(width - before - line.columns)
    }

    /// A line of the table's caption, centred on the table's `width` as w3m centres it (an odd column of room
    /// goes on the left), with no cell padding: the caption box is as wide as the table's border box.
    mutating func addCaption(_ line: WrappedLine, _ cell: CellText, width: Int, base: TextStyle) {
        pad((max(0, width - line.columns) + 1) / 2)
        addPieces(line, cell, base: base)
    }

    private mutating func addPieces(_ line: WrappedLine, _ cell: CellText, base: TextStyle) {
        cell.pieces(line.range, into: &pieces) { style in
            var style = style
            // Inside the grid every cell is monospace text of the table's own indentation; headings and list
            // markers would change the line's height or its hanging indent.
            style.monospace = true
            style.preformatted = true
            style.indent = base.indent
            style.heading = 0
            style.listMarker = false
            style.alignment = .left
            style.rule = false
            return style
        }
    }

    /// A border line between rows `above` and `below` (nil at the top and bottom). Where a cell spans both rows
    /// the rule stops and the cell's text continues (`spanning` draws it, given the cell and its width).
    mutating func rule(grid: [Int32], columns: Int, widths: [Int], above: Int?, below: Int?,
                       spanning: ((inout LineWriter, Int, Int) -> Void)? = nil) -> [LaidOutPiece] {
        func cell(_ row: Int?, _ c: Int) -> Int32 {
            guard let row, c >= 0, c < columns else { return -2 }
            return grid[row * columns + c]
        }
        func spans(_ c: Int) -> Bool {
            spanning != nil && above != nil && below != nil && cell(above, c) >= 0 && cell(above, c) == cell(below, c)
        }
        // Whether a vertical rule between columns c-1 and c runs through the row.
        func boundary(_ row: Int?, _ c: Int) -> Bool {
            guard row != nil else { return false }
            return c == 0 || c == columns || cell(row, c - 1) != cell(row, c) || cell(row, c) < 0
        }
        var ruleBytes: [UInt8] = []
        var c = 0
        while c <= columns {
            let left = c > 0 && !spans(c - 1), right = c < columns && !spans(c)
            ruleBytes += Array(Self.junction(up: boundary(above, c), down: boundary(below, c), left: left,
                                             right: right).utf8)
            guard c < columns else { break }
            if spans(c), let spanning {
                let index = cell(above, c)
                var end = c + 1
                while end < columns && cell(above, end) == index { end += 1 }
                let width = widths[c..<end].reduce(0, +) + (end - c - 1) * spacing
                text(ruleBytes)
                ruleBytes = []
                spanning(&self, Int(index), width)
                c = end
                continue
            }
            for _ in 0..<widths[c] { ruleBytes += Self.horizontal }
            c += 1
        }
        if !ruleBytes.isEmpty { text(ruleBytes) }
        return finishLine()
    }

    private static let horizontal: [UInt8] = Array("─".utf8)

    private static func junction(up: Bool, down: Bool, left: Bool, right: Bool) -> String {
        switch (up, down, left, right) {
        case (false, true, false, true): return "┌"
        case (false, true, true, false): return "┐"
        case (true, false, false, true): return "└"
        case (true, false, true, false): return "┘"
        case (true, true, false, true): return "├"
        case (true, true, true, false): return "┤"
        case (false, true, true, true): return "┬"
        case (true, false, true, true): return "┴"
        case (true, true, true, true): return "┼"
        case (true, true, false, false), (true, false, false, false), (false, true, false, false): return "│"
        case (false, false, _, _): return left || right ? "─" : " "
        }
    }

    mutating func finishLine() -> [LaidOutPiece] {
        defer { pieces = [] }
        return pieces
    }
}

/// An array in blocks of 65,536 elements: appending never copies more than the first block, and the memory it
/// holds is the elements' and at most one block more. The first block grows as an array does, so a small table
/// costs what its cells take.
struct BlockArray<Element>: RandomAccessCollection, MutableCollection {
    private static var blockShift: Int { 16 }
    private var blocks: [[Element]] = []
    private(set) var count = 0

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "index out of range")
            return blocks[index >> Self.blockShift][index & ((1 << Self.blockShift) - 1)]
        }
        set {
            precondition(index >= 0 && index < count, "index out of range")
            blocks[index >> Self.blockShift][index & ((1 << Self.blockShift) - 1)] = newValue
        }
    }

    mutating func append(_ element: Element) {
        if count & ((1 << Self.blockShift) - 1) == 0 {
            var block: [Element] = []
            if !blocks.isEmpty { block.reserveCapacity(1 << Self.blockShift) }
            blocks.append(block)
        }
        blocks[blocks.count - 1].append(element)
        count += 1
    }
}
