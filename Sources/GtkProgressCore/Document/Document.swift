import FoundationEssentials

/// How a run of text looks. The text view turns each field into a tag; the dump turns indentation and list
/// markers into spaces.
package struct TextStyle: Hashable, Sendable {
    /// 1 to 6 inside `<h1>` … `<h6>`, 0 for body text.
    package var heading = 0
    package var bold = false
    package var italic = false
    package var monospace = false
    /// Whitespace and line breaks kept as written (`<pre>`, plain text pages); never wrapped.
    package var preformatted = false
    /// Nesting of lists, block quotes and definitions.
    package var indent = 0
    /// The bullet or number that starts a list item; it hangs in the indentation before the item's text.
    package var listMarker = false
    /// Index into `Document.links` when the text is part of a link.
    package var link: Int?
    /// How the lines of the paragraph sit between the margins (`align`, `<center>`, `text-align`).
    package var alignment: TextAlignment = .left
    /// A horizontal rule (`<hr>`): one line that spans the text width, whatever its characters.
    package var rule = false
    /// Struck through: removed text (`<del>`) or text no longer accurate (`<s>`, `<strike>`).
    package var strikethrough = false
    /// Underlined: inserted text (`<ins>`) or an unarticulated annotation (`<u>`).
    package var underline = false
    /// Marked as relevant (`<mark>`): highlighted.
    package var highlight = false
    /// Lowered (`<sub>`) or raised (`<sup>`) and smaller.
    package var baseline: Baseline = .normal
    /// Code, keyboard input or program output (`<code>`, `<kbd>`, `<samp>`, `<pre>`): drawn on a tint.
    package var code = false
    /// A row of a table the window lays out with tab stops: the index of its table in `Document.tables`.
    package var table: Int?
    /// The caption of such a table (its index): centred over the table's width, which the view measures.
    package var caption: Int?
    /// The page's `color` and `background-color` (`0xrrggbb`), opaque. The view paints them only where the text
    /// keeps 4.5:1 on what is behind it in the reader's theme (`CSSColor.readableColors`); `--dump` has no colour.
    package var color: UInt32?
    package var background: UInt32?
    /// The link's own rules take its underline away (`a.toc-backref { text-decoration: none }`), or give it a
    /// colour (`a:link { color: … }`): the view then draws it so, instead of in the theme's link colours with an
    /// underline. Rules on what holds the link do neither, as a browser's own `a:link` rule keeps them out.
    package var linkPlain = false
    package var linkColored = false
    /// `background` was set on a block (a heading, a paragraph, a list, a `div`), not an inline element: the view
    /// paints it across the block's lines, as a box, rather than behind its text alone.
    package var blockBackground = false

    /// The fields hashed in a few words (the synthesized hash fed each of the twenty to the hasher; run styles
    /// are looked up in a dictionary for every run). Equal styles have equal words, so `==` stays consistent.
    package func hash(into hasher: inout Hasher) {
        func bit(_ on: Bool, _ position: UInt64) -> UInt64 { on ? 1 << position : 0 }
        var flags = UInt64(truncatingIfNeeded: heading) & 0xFF
        flags |= bit(bold, 8) | bit(italic, 9) | bit(monospace, 10) | bit(preformatted, 11) | bit(listMarker, 12)
        flags |= bit(rule, 13) | bit(strikethrough, 14) | bit(underline, 15) | bit(highlight, 16) | bit(code, 17)
        flags |= bit(linkPlain, 18) | bit(linkColored, 19) | bit(blockBackground, 24)
        switch alignment {
        case .left: break
        case .center: flags |= 1 << 20
        case .right: flags |= 2 << 20
        }
        switch baseline {
        case .normal: break
        case .lowered: flags |= 1 << 22
        case .raised: flags |= 2 << 22
        }
        hasher.combine(flags)
        hasher.combine(indent)
        hasher.combine(link)
        hasher.combine(table)
        hasher.combine(caption)
        hasher.combine(color)
        hasher.combine(background)
    }

    package init(heading: Int = 0, bold: Bool = false, italic: Bool = false, monospace: Bool = false,
                preformatted: Bool = false, indent: Int = 0, listMarker: Bool = false, link: Int? = nil,
                alignment: TextAlignment = .left, rule: Bool = false) {
        self.heading = heading
        self.bold = bold
        self.italic = italic
        self.monospace = monospace
        self.preformatted = preformatted
        self.indent = indent
        self.listMarker = listMarker
        self.link = link
        self.alignment = alignment
        self.rule = rule
    }
}

/// A window table's rows as the document wrote them (one line each, cells separated by tabs) and each cell's
/// words: what the view needs before it measures anything.
package struct TabbedTableRows: Sendable {
    /// Each row's cells (indices into `PageTable.cells`), and where each row starts, in characters from the
    /// table's first.
    package var rows: [Range<Int>] = []
    package var rowOffsets: [Int] = []
    /// The table's characters, its last row's newline included.
    package var length = 0
    /// Each cell's first character, from its row's start.
    package var cellOffsets: [Int] = []
    /// Rows holding an image or a form control (U+FFFC): how many of their first cells, up to the last one holding
    /// one, are never broken.
    package var keptWhole: [Int: Int] = [:]
    /// Rows with a centred or right-aligned cell.
    package var alignedRows: Set<Int> = []
    package var words: [CellWords] = []

    init() {}

    init(_ cells: [PageTable.Cell]) {
        var offset = 0
        var k = 0
        while k < cells.count {
            let row = cells[k].row
            let first = k
            var length = 0
            var kept = 0
            while k < cells.count && cells[k].row == row {
                cellOffsets.append(length + cells[k].column)
                length += cells[k].text.unicodeScalars.count
                if cells[k].text.unicodeScalars.contains("\u{FFFC}") { kept = k - first + 1 }
                k += 1
            }
            length += cells[k - 1].column
            if kept > 0 { keptWhole[rows.count] = kept }
            if cells[first..<k].contains(where: { $0.alignment != .left }) { alignedRows.insert(rows.count) }
            rows.append(first..<k)
            rowOffsets.append(offset)
            offset += length + 1
        }
        self.length = offset
        words = cells.map { CellWords($0.text) }
    }
}

/// Where a run of text sits against its line: HTML's `<sub>` and `<sup>`.
package enum Baseline: Hashable, Sendable {
    case normal, lowered, raised
}

/// Where a paragraph's lines sit: HTML's `align` attribute and CSS `text-align` (`justify` reads as left).
package enum TextAlignment: Hashable, Sendable {
    case left, center, right
}

/// A piece of text in one style. Line breaks are part of the text.
package struct TextRun: Equatable, Sendable {
    package var text: String
    package var style: TextStyle

    package init(text: String, style: TextStyle) {
        self.text = text
        self.style = style
    }
}

/// A page as styled text: what the text view shows and `--dump` prints.
///
/// Built from HTML by gumbo's HTML5 tree construction, so misnested and unclosed markup reads as it does in a
/// browser. The text is kept as one UTF-8 buffer with run boundaries, because a 5 MB page has hundreds of
/// thousands of runs and the views want bytes, not strings.
package struct Document: Sendable {
    /// The page's `<title>`, whitespace collapsed; nil when absent or blank.
    package var title: String?
    /// Link targets, resolved against `<base href>` and the page's URL, each URL once, in order of appearance.
    package var links: LinkTable
    /// `<meta http-equiv="refresh">`: after `delay` seconds the page asks to be replaced by `url`.
    package var metaRefresh: (delay: Double, url: URL)?

    /// The images, in document order; empty in a document parsed for the dump (`PageImage`).
    package var images: [PageImage] = []
    /// What the page's stylesheets lost to the bounds on hostile CSS, one line each (`DocumentStyles`).
    package var styleNotes: [String] = []
    /// Linked stylesheets the build had no bytes for (`PageStyleOptions.sheets`); the window fetches them.
    package var missingStyleSheets: [URL] = []
    /// The widths (CSS pixels) at which the page's media queries change their answer, sorted: a window resized
    /// across one builds the page again for its new width (`Browser+Styles.swift`).
    package var mediaWidths: [Double] = []
    /// The page's forms and their controls, in document order (`PageForm`, `FormControl`).
    package var forms: [PageForm] = []
    package var controls: [FormControl] = []
    /// What relative addresses resolve against: `<base href>`, or the page's own address.
    package var baseURL: URL?
    /// Columns of the longest line that keeps its shape (preformatted text, a table's rows): the window's
    /// reading measure is never narrower, so no such line is cut (`widestPreformattedLine`).
    package var widestPreformattedColumns = 0
    /// The tables written as rows of tab-separated cells for the window (`PageTable`); empty in a dump.
    package var tables: [PageTable] = []
    /// The tables the window keeps as the monospace grid, in page order (`PageGrid`); empty in a dump.
    package var grids: [PageGrid] = []

    /// Counts the columns of each line of preformatted runs (wide characters two), once, where the document
    /// is built (off the main loop).
    static func widestPreformattedLine(in storage: RunStorage) -> Int {
        // Only preformatted runs add columns: a page without any has none to measure, and its text is not read.
        guard storage.styles.contains(where: { $0.preformatted }) else { return 0 }
        var widest = 0, columns = 0
        storage.bytes.withUnsafeBufferPointer { bytes in
            for run in 0..<storage.runCount {
                let preformatted = storage.styles[Int(storage.runStyles[run])].preformatted
                let range = storage.range(ofRun: run)
                var segmentStart = range.lowerBound
                for k in range where bytes[k] == 0x0A {
                    if preformatted {
                        columns += TextColumns.columns(UnsafeBufferPointer(rebasing: bytes[segmentStart..<k]))
                    }
                    widest = max(widest, columns)
                    columns = 0
                    segmentStart = k + 1
                }
                if preformatted {
                    columns += TextColumns.columns(UnsafeBufferPointer(rebasing: bytes[segmentStart..<range.upperBound]))
                }
                widest = max(widest, columns)
            }
        }
        return widest
    }

    package let storage: RunStorage
    /// Places in the page by `id` (or `<a name>`), as byte offsets into the text.
    let anchors: [String: Int]

    init(title: String?, links: LinkTable, metaRefresh: (delay: Double, url: URL)?, storage: RunStorage,
         anchors: [String: Int] = [:]) {
        self.title = title
        self.links = links
        self.metaRefresh = metaRefresh
        self.storage = storage
        self.anchors = anchors
    }

    /// Where the element with this `id` (or `<a name>`) starts, in characters of `text`; nil when the page has
    /// no such place. Fragment links (`#name`) scroll there.
    package func characterOffset(ofAnchor name: String) -> Int? {
        let key = name.removingPercentEscapes ?? name
        guard let byteOffset = anchors[key] ?? anchors[name] else { return nil }
        var characters = 0
        for byte in storage.bytes[..<min(byteOffset, storage.bytes.count)] where byte & 0xC0 != 0x80 { characters += 1 }
        return characters
    }

    /// Columns tables are fitted to when no width is given: a classic terminal's.
    package static let defaultLayoutWidth = 80

    /// Parses HTML. `baseURL` is where the page came from; relative links resolve against it. Tables are laid
    /// out in monospace columns fitted to `layoutWidth` character cells.
    /// With `images`, each image is a U+FFFC the window replaces with its picture (`PageImage`); without, its
    /// alt text in brackets, as `--dump` prints it.
    /// `styles` says whether and how the page's author stylesheets apply (by default: the ones in the page).
    /// With `textMarks`, edits, strike-through and sub- and superscripts are marked in the text as `--dump`
    /// prints them (`[DEL:…:DEL]`, `x^2`; `InlineMarks`); without, they are only looks, for the window.
    package static func parse(html: String, baseURL: URL?, layoutWidth: Int = defaultLayoutWidth,
                              images: ImageSelection? = nil, styles: PageStyleOptions = PageStyleOptions(),
                              textMarks: Bool = false, tabbedTables: Bool = false) -> Document {
        var html = html
        return html.withUTF8 {
            DocumentBuilder.build(source: $0, baseURL: baseURL, layoutWidth: layoutWidth, images: images,
                                  styles: styles, textMarks: textMarks, tabbedTables: tabbedTables)
        }
    }

    /// With `tabbedTables` (the window), a data table is written as one line per row, its cells separated by
    /// tabs and styled with their table's index (`TextStyle.table`, `Document.tables`), for the view to place at
    /// tab stops measured in its own font; without, as the monospace grid `--dump` prints.
    /// Parses HTML given as bytes; invalid UTF-8 becomes U+FFFD first, since gumbo reads only UTF-8.
    package static func parse(bytes: [UInt8], baseURL: URL?, layoutWidth: Int = defaultLayoutWidth,
                              textMarks: Bool = false) -> Document {
        parse(html: String(decoding: bytes, as: UTF8.self), baseURL: baseURL, layoutWidth: layoutWidth,
              textMarks: textMarks)
    }

    /// A `text/plain` page: one monospace run, line breaks kept, as browsers show it.
    package static func plainText(_ text: String) -> Document {
        var writer = RunWriter()
        writer.style = TextStyle(monospace: true, preformatted: true)
        var text = text
        text.withUTF8 { writer.appendPreformatted($0) }
        var document = Document(title: nil, links: LinkTable(), metaRefresh: nil, storage: writer.finish())
        document.widestPreformattedColumns = widestPreformattedLine(in: document.storage)
        return document
    }

    /// The runs in order. Each call builds the strings; views iterate the storage instead.
    package var runs: [TextRun] {
        (0..<storage.runCount).map { TextRun(text: storage.text(ofRun: $0), style: storage.style(ofRun: $0)) }
    }

    /// All the text, without link numbers.
    package var text: String { String(decoding: storage.bytes, as: UTF8.self) }

    package var isEmpty: Bool { storage.bytes.isEmpty }
}

/// The text of a document and its runs: run `i` covers `bytes[runEnds[i - 1] ..< runEnds[i]]`, in the style
/// `styles[runStyles[i]]` with the link `runLinks[i]` (-1 for none). The link is kept apart from the style, so a
/// page with 100,000 links has a handful of distinct styles, not 100,000.
package final class RunStorage: Sendable {
    package let bytes: [UInt8]
    package let runEnds: [Int]
    package let runStyles: [Int32]
    package let runLinks: [Int32]
    package let styles: [TextStyle]

    init(bytes: [UInt8], runEnds: [Int], runStyles: [Int32], runLinks: [Int32], styles: [TextStyle]) {
        self.bytes = bytes
        self.runEnds = runEnds
        self.runStyles = runStyles
        self.runLinks = runLinks
        self.styles = styles
    }

    package var runCount: Int { runEnds.count }

    /// Bytes the text and its runs take (not counting spare capacity): the text, 16 bytes a run, and the styles.
    /// A run changes style or link, so a page of plain paragraphs is about its text, and a page of links about
    /// 16 bytes more a link.
    package var modelBytes: Int {
        bytes.count + runEnds.count * (MemoryLayout<Int>.stride + 2 * MemoryLayout<Int32>.stride)
            + styles.count * MemoryLayout<TextStyle>.stride
    }

    package func range(ofRun index: Int) -> Range<Int> { (index == 0 ? 0 : runEnds[index - 1])..<runEnds[index] }

    package func style(ofRun index: Int) -> TextStyle {
        var style = styles[Int(runStyles[index])]
        let link = runLinks[index]
        if link >= 0 { style.link = Int(link) }
        return style
    }

    /// The run that holds the byte at `offset` (the last run when `offset` is at the end).
    package func run(containing offset: Int) -> Int {
        var low = 0, high = runEnds.count
        while low < high {
            let mid = (low + high) / 2
            if runEnds[mid] <= offset { low = mid + 1 } else { high = mid }
        }
        return min(low, max(runEnds.count - 1, 0))
    }

    package func text(ofRun index: Int) -> String { String(decoding: bytes[range(ofRun: index)], as: UTF8.self) }

    /// The text with the three bytes at each of `replacements`' offsets (a U+FFFC, in increasing order) replaced
    /// by its text, which takes that character's run; and where an offset of this text is in the new one.
    func replacing(_ replacements: [(offset: Int, text: [UInt8])]) -> (RunStorage, (Int) -> Int) {
        var newBytes: [UInt8] = []
        newBytes.reserveCapacity(bytes.count)
        var copied = 0
        for (offset, text) in replacements where offset >= copied && offset + 3 <= bytes.count {
            newBytes += bytes[copied..<offset]
            newBytes += text
            copied = offset + 3
        }
        newBytes += bytes[copied...]
        let offsets = replacements.map(\.offset)
        var shifts: [Int] = []
        var shift = 0
        for (_, text) in replacements {
            shift += text.count - 3
            shifts.append(shift)
        }
        // An offset moves by what the replacements wholly before it added.
        let map = { (offset: Int) -> Int in
            var low = 0, high = offsets.count
            while low < high {
                let middle = (low + high) / 2
                if offsets[middle] + 3 <= offset { low = middle + 1 } else { high = middle }
            }
            return offset + (low == 0 ? 0 : shifts[low - 1])
        }
        return (RunStorage(bytes: newBytes, runEnds: runEnds.map(map), runStyles: runStyles, runLinks: runLinks,
                           styles: styles), map)
    }
}

/// A table written for the window as the dump's monospace grid (one the window does not lay out itself: spans,
/// paragraphs in its cells, or past `PageTable`'s bounds): where its lines are in the document's text, so that the
/// view can show a grid wider than itself in a sideways-scrolling area of its own (`PageView+GridArea.swift`).
package struct PageGrid: Sendable, Equatable {
    /// The grid's bytes: from the first byte of its first line to the end of its last line, without the line
    /// break that ends it.
    package var bytes: Range<Int>
    /// How many characters (Unicode scalars, as GTK counts them) and lines `bytes` hold.
    package var characters: Int
    package var lines: Int
    /// The widest line in terminal columns (`TextColumns`), and the nesting depth its lines are indented by.
    package var columns: Int
    package var indent: Int
}

/// A table the window lays out itself: the text of each cell and its column, for the view to measure in its font
/// (`PageView+Tables.swift`). Its rows are in the document's text, one line each, cells separated by tabs.
package struct PageTable: Sendable {
    package struct Cell: Sendable {
        /// The row (counting the rows written: one line each in the document) and the column.
        package var row: Int
        package var column: Int
        package var text: String
        /// A header cell (`<th>`): drawn and measured bold.
        package var bold: Bool
        /// Where the cell's text sits in its column: the cell's CSS `text-align`, else its `align`, else its
        /// row's, else centred for a header cell (HTML § 15.3.8, "Tables") and left for a data cell.
        package var alignment: TextAlignment = .left
    }
    package var columnCount: Int
    package var cells: [Cell]
    /// `border` set on the table.
    package var border: Bool
    /// `cellpadding` in pixels (1 when absent, as browsers take it).
    package var padding: Int
    /// The depth of indentation the rows have (a table in a list item or a block quote).
    package var indent = 0
    /// `width="N%"` on the table, and on each column's cells (the largest; empty when none has one): the window
    /// shares its room as the dump's grid does (`TableLayout.columnWidths`).
    package var widthPercent: Int?
    package var columnPercents: [Int?] = []

    /// The table's rows and each cell's words, worked out with the document (off the main loop): the view starts
    /// from them (`PageView+Tables.swift`).
    package private(set) var rows = TabbedTableRows()

    package init(columnCount: Int, cells: [Cell], border: Bool, padding: Int, indent: Int = 0) {
        self.columnCount = columnCount
        self.cells = cells
        self.border = border
        self.padding = padding
        self.indent = indent
        rows = TabbedTableRows(cells)
    }

    /// Past these, a table stays the monospace grid. The view measures every cell with Pango on the main loop
    /// (GTK objects cannot be used off it), a slice at a time; the bound keeps the whole fit to about a second
    /// and the cells' measures to a few megabytes.
    package static let maximumCells = 20000
    package static let maximumColumns = 64
    /// Longer cells mean a table that lays out a page, not data.
    package static let maximumCellBytes = 1024
}
