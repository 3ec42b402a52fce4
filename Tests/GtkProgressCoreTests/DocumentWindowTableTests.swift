import Foundation
@testable import GtkProgressCore
import XCTest

/// Tables as the window gets them (`tabbedTables`): one line per row, cells separated by tabs, each piece styled
/// with its table's index, and the cells' texts for the view to measure. `--dump` keeps its monospace grid.
final class DocumentWindowTableTests: XCTestCase {
    private static let twelve: String = {
        var rows = "<tr>" + (1...12).map { "<th>Head \($0)</th>" }.joined() + "</tr>"
        for r in 1...3 { rows += "<tr>" + (1...12).map { "<td>r\(r)c\($0)</td>" }.joined() + "</tr>" }
        return "<p>Before</p><table border=1 cellpadding=5>\(rows)</table><p>After</p>"
    }()

    func testRowsAreTabSeparatedLinesOfTheirTable() throws {
        let document = Document.parse(html: Self.twelve, baseURL: nil, tabbedTables: true)
        let lines = document.text.components(separatedBy: "\n")
        let header = try XCTUnwrap(lines.first { $0.hasPrefix("Head 1\t") })
        XCTAssertEqual(header, (1...12).map { "Head \($0)" }.joined(separator: "\t"), "a row is one line of cells")
        XCTAssertEqual(lines.filter { $0.hasPrefix("r2c1\t") }.first,
                       (1...12).map { "r2c\($0)" }.joined(separator: "\t"))
        XCTAssertEqual(document.tables.count, 1)
        let table = try XCTUnwrap(document.tables.first)
        XCTAssertEqual(table.columnCount, 12)
        XCTAssertEqual(table.cells.count, 48)
        XCTAssertTrue(table.border)
        XCTAssertEqual(table.padding, 5)
        XCTAssertEqual(table.cells[0].text, "Head 1")
        XCTAssertTrue(table.cells[0].bold, "a header cell is bold")
        XCTAssertEqual(table.cells[12].text, "r1c1")
        XCTAssertFalse(table.cells[12].bold)
        XCTAssertEqual(table.cells[13].column, 1)
        // Every piece of a row, tabs included, carries the table; the text around it does not.
        for run in document.runs where run.text.contains("r1c") || run.text == "\t" {
            XCTAssertEqual(run.style.table, 0, "\(run.text) is styled as a row of table 0")
        }
        for run in document.runs where run.text.contains("Before") || run.text.contains("After") {
            XCTAssertNil(run.style.table)
        }
        XCTAssertTrue(document.runs.contains { $0.text.contains("Head 1") && $0.style.bold })
    }

    func testCellsKeepTheirAlignment() throws {
        let html = "<style>td.n { text-align: right }</style><table>"
            + "<tr><th>Item</th><th align=left>Count</th></tr>"
            + "<tr><td>a</td><td class=n align=left>1</td></tr>"
            + "<tr align=center><td>b</td><td align=right>2</td></tr>"
            + "<tr><td style='text-align: center'>c</td><td>3</td></tr></table>"
        let table = try XCTUnwrap(Document.parse(html: html, baseURL: nil, tabbedTables: true).tables.first)
        XCTAssertEqual(table.cells.map(\.text), ["Item", "Count", "a", "1", "b", "2", "c", "3"])
        XCTAssertEqual(table.cells.map(\.alignment), [.center, .left, .left, .right, .center, .right, .center, .left],
                       "header cells centred unless said otherwise, the style sheet over align, the row's align")
    }

    func testTheCaptionIsCentredOverItsTable() throws {
        let html = "<p>Before</p><table><caption>Figures</caption><tr><td>a</td><td>b</td></tr></table>"
        let document = Document.parse(html: html, baseURL: nil, tabbedTables: true)
        let window = try XCTUnwrap(document.runs.first { $0.text.contains("Figures") })
        XCTAssertEqual(window.style.alignment, .center)
        XCTAssertEqual(window.style.caption, 0, "the view gives it its table's width")
        XCTAssertNil(window.style.table, "not one of the rows")
        XCTAssertEqual(document.text, "Before\n\nFigures\na\tb\n")

        // The dump: CSS 2.1 § 17.4's caption box is as wide as the table; its lines are centred on the grid and
        // wrap at the grid's width (as w3m lays them out), and move with a centred table.
        let dump = Document.parse(html: "<table border=1><caption>Quarterly figures for the shops</caption>"
                                  + "<tr><td>North</td><td>12</td></tr></table>", baseURL: nil).text
        XCTAssertEqual(dump.components(separatedBy: "\n"),
                       [" Quarterly", "  figures", "  for the", "   shops", "┌─────┬──┐", "│North│12│", "└─────┴──┘", ""])
        let centred = Document.parse(html: "<center><table border=1><caption>Cap</caption><tr><td>a</td><td>b</td>"
                                     + "</tr></table></center>", baseURL: nil, layoutWidth: 25).text
        XCTAssertEqual(centred.components(separatedBy: "\n"), ["           Cap", "          ┌─┬─┐", "          │a│b│",
                                                                "          └─┴─┘", ""])
        // A table read as flowing text keeps its caption first.
        let flowing = Document.parse(html: "<table><caption>Cap</caption><tr><td><h1>Big</h1><p>para</p></td>"
                                     + "<td>nav</td></tr></table>", baseURL: nil).text
        XCTAssertTrue(flowing.hasPrefix("Cap\n\nBig"), flowing)
        XCTAssertEqual(Document.parse(html: "<table><caption>Cap</caption><tr><td><h1>Big</h1><p>para</p></td>"
                                      + "<td>nav</td></tr></table>", baseURL: nil).runs.first?.style.alignment, .center)
    }

    func testRowsAndWordsComeWithTheDocument() throws {
        // The view starts from these (off the main loop): each row's cells, where rows and cells start in the
        // table's characters, and each cell's words.
        let html = "<p>Before</p><table><tr><th>Name</th><th>Note</th></tr><tr><td>Ann Lee</td>"
            + "<td align=right>a b c</td></tr><tr><td>x</td></tr></table>"
        let document = Document.parse(html: html, baseURL: nil, tabbedTables: true)
        let table = try XCTUnwrap(document.tables.first)
        let rows = table.rows
        XCTAssertEqual(rows.rows, [0..<2, 2..<4, 4..<5])
        XCTAssertEqual(rows.cellOffsets, [0, 5, 0, 8, 0])
        XCTAssertEqual(rows.rowOffsets, [0, 10, 24])
        XCTAssertEqual(rows.length, 26)
        let start = try XCTUnwrap(document.text.range(of: "Name"))
        let tableText = document.text[start.lowerBound...].unicodeScalars
        XCTAssertEqual(String(String.UnicodeScalarView(tableText.prefix(rows.length))), "Name\tNote\nAnn Lee\ta b c\nx\n")
        XCTAssertEqual(rows.alignedRows, [0, 1], "header cells are centred, one cell right-aligned")
        XCTAssertEqual(rows.words.count, table.cells.count)
        XCTAssertEqual(rows.words[3].bytes.count, 3, "a b c")
        XCTAssertTrue(rows.keptWhole.isEmpty)
    }

    func testATableLayingOutAPageKeepsItsPicturesAndControls() throws {
        // A layout table (a cell holding a heading and paragraphs) is read as flowing text; its logo and its
        // search field stay a picture and a widget where they stand, as anywhere else in the page.
        let selection = ImageSelection(scale: 1, viewportWidth: 1000, types: ["image/png"])
        let html = """
            <p>Top <img src=top.png alt=Top></p>
            <table><tr><td><img src=logo.png alt=Logo width=40 height=20></td>
            <td><h1>The library</h1><p>An introduction.</p></td></tr>
            <tr><td><form action=/search><input name=q></form></td><td><p>More text.</p></td></tr></table>
            <p>After <img src=end.png alt=End></p>
            """
        let document = Document.parse(html: html, baseURL: URL(string: "https://example.org/")!,
                                      images: selection, tabbedTables: true)
        XCTAssertTrue(document.tables.isEmpty, "read as flowing text")
        XCTAssertFalse(document.text.contains("[Logo]"), document.text)
        let marker = Array("\u{FFFC}".utf8)
        XCTAssertEqual(document.images.count, 3)
        XCTAssertEqual(document.images.map(\.offset), document.images.map(\.offset).sorted())
        for image in document.images {
            XCTAssertEqual(Array(document.storage.bytes[image.offset..<image.offset + 3]), marker)
        }
        XCTAssertEqual(document.images[1].width, 40)
        let field = try XCTUnwrap(document.controls.first?.offset, "the field is placed")
        XCTAssertEqual(Array(document.storage.bytes[field..<field + 3]), marker)
        XCTAssertEqual(document.text.unicodeScalars.filter { $0 == "\u{FFFC}" }.count, 4)
        let text = document.text
        let logo = try XCTUnwrap(text.range(of: "\u{FFFC}", range: text.range(of: "Top")!.upperBound..<text.endIndex))
        XCTAssertLessThan(logo.lowerBound, try XCTUnwrap(text.range(of: "The library")).lowerBound)
    }

    func testNestedTablesHandTheirPicturesAndControlsOutward() throws {
        // A search form in a menu table inside a layout table, a logo beside it, and a small data grid with a
        // picture: the layout tables read as flowing text and keep their objects; the grid shows its own as text.
        let selection = ImageSelection(scale: 1, viewportWidth: 1000, types: ["image/png"])
        let html = """
            <table><tr><td><img src=logo.png alt=Logo width=40 height=20></td>
            <td><h1>Library</h1><p>Intro.</p></td></tr>
            <tr><td><table><tr><td><b>Menu</b></td></tr><tr><td><form action=/s><input name=q>
            <input type=submit value=Go></form></td></tr><tr><td><p>Home</p><p>News</p></td></tr></table></td>
            <td><table border=1><tr><td><img src=dot.png alt=dot></td><td>1</td></tr>
            <tr><td>b</td><td>2</td></tr></table><p>Text.</p></td></tr></table>
            <p>After <img src=end.png alt=End></p>
            """
        let document = Document.parse(html: html, baseURL: URL(string: "https://example.org/")!,
                                      images: selection, tabbedTables: true)
        let marker = Array("\u{FFFC}".utf8)
        XCTAssertEqual(document.images.map(\.alt), ["Logo", "End"], "the grid's picture is its alt text")
        XCTAssertTrue(document.text.contains("[dot]"), document.text)
        for image in document.images {
            XCTAssertEqual(Array(document.storage.bytes[image.offset..<image.offset + 3]), marker)
        }
        let placed = document.controls.compactMap(\.offset)
        XCTAssertEqual(placed.count, 2, "the field and its button")
        for offset in placed { XCTAssertEqual(Array(document.storage.bytes[offset..<offset + 3]), marker) }
        XCTAssertEqual(document.text.unicodeScalars.filter { $0 == "\u{FFFC}" }.count, 4)
        XCTAssertEqual((document.images.map(\.offset) + placed).sorted().count, 4)
    }

    func testACaptionsPictureAndTheCellsPicturesAreAllPictures() throws {
        // A picture in the caption is a picture, as the cells' own pictures are in their cells.
        let html = "<table><caption><img src=logo.png alt=Logo> Prices</caption>"
            + "<tr><td><img src=a.png alt=A width=16 height=16> Apple</td><td>1.20</td></tr></table>"
        let document = Document.parse(html: html, baseURL: URL(string: "https://example.org/")!,
                                      images: ImageSelection(scale: 1, viewportWidth: 1000, types: ["image/png"]),
                                      tabbedTables: true)
        XCTAssertTrue(document.text.hasPrefix("\u{FFFC} Prices\n\u{FFFC} Apple\t1.20"), document.text)
        XCTAssertEqual(document.images.count, 2, "the caption's picture and the cell's")
        for image in document.images {
            XCTAssertEqual(Array(document.storage.bytes[image.offset..<image.offset + 3]), Array("\u{FFFC}".utf8))
        }
        XCTAssertEqual(document.images.map(\.alt), ["Logo", "A"])
        XCTAssertEqual(document.tables.first?.cells.map(\.text), ["\u{FFFC} Apple", "1.20"])
    }

    func testDumpKeepsTheMonospaceGrid() {
        let document = Document.parse(html: Self.twelve, baseURL: nil)
        XCTAssertTrue(document.tables.isEmpty)
        XCTAssertFalse(document.text.contains("\t"))
        let small = Document.parse(html: "<table border=1><tr><td>a</td><td>b</td></tr></table>", baseURL: nil)
        XCTAssertTrue(small.tables.isEmpty)
        XCTAssertTrue(small.text.contains("│a│b│"), "the dump draws its grid: \(small.text)")
    }

    func testAMissingCellLeavesItsColumnEmpty() throws {
        let html = "<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td>d</td></tr></table>"
        let lines = Document.parse(html: html, baseURL: nil, tabbedTables: true).text.components(separatedBy: "\n")
        XCTAssertTrue(lines.contains("a\tb\tc"))
        XCTAssertTrue(lines.contains("d"), "a short row ends early")
    }

    func testWhatTabStopsCannotShowKeepsTheGrid() {
        for html in ["<table><tr><td colspan=2>wide</td></tr><tr><td>a</td><td>b</td></tr></table>",
                     "<table><tr><td rowspan=2>tall</td><td>a</td></tr><tr><td>b</td></tr></table>",
                     "<table><tr><td><p>one</p><p>two</p></td><td>b</td></tr></table>"] {
            let document = Document.parse(html: html, baseURL: nil, tabbedTables: true)
            XCTAssertTrue(document.tables.isEmpty, html)
            XCTAssertFalse(document.text.contains("\t"), html)
        }
        var big = "<table>"
        for _ in 0..<(PageTable.maximumCells / 2 + 1) { big += "<tr><td>x</td><td>y</td></tr>" }
        XCTAssertTrue(Document.parse(html: big + "</table>", baseURL: nil, tabbedTables: true).tables.isEmpty,
                      "past the bound on cells measured on the main loop")
    }

    /// A table past the cells measured on the main loop and too wide for the page stays a grid in the window,
    /// a line a row, rather than a line a cell (GTK's text buffer costs about a hundred bytes a line); the dump
    /// reads it as flowing text at its width, as before.
    func testALongWideTableStaysAGridInTheWindow() {
        let rows = PageTable.maximumCells / 40 + 1
        var html = "<p>before</p><table>"
        for r in 0..<rows { html += "<tr>" + (0..<40).map { "<td>\(r)-\($0)</td>" }.joined() + "</tr>" }
        html += "</table><p>after</p>"
        let window = Document.parse(html: html, baseURL: nil, tabbedTables: true)
        XCTAssertTrue(window.tables.isEmpty, "past the bound on cells measured on the main loop")
        let lines = window.text.split(separator: "\n")
        let gridLines = lines.filter { $0.contains("-0 ") && $0.contains("-39") }
        XCTAssertEqual(gridLines.count, rows, "a line a row")
        XCTAssertTrue(lines.contains { $0.hasPrefix("0-0") && $0.contains(" 0-20 ") && $0.contains(" 0-39") }, String(lines[1]))
        XCTAssertGreaterThan(window.widestPreformattedColumns, Document.defaultLayoutWidth, "wider than the page")
        XCTAssertLessThan(window.widestPreformattedColumns, RunWriter.longestLine)
        XCTAssertEqual(lines.first, "before")
        XCTAssertEqual(lines.last, "after")
        let dump = Document.parse(html: html, baseURL: nil, textMarks: true)
        XCTAssertTrue(dump.text.contains("\n0-1\n0-2\n"), "the dump reads it cell after cell")
    }

    /// The window is told where each grid's lines are (`PageGrid`), so it can show one wider than itself in an
    /// area of its own: from the first line's first byte to the last line's end, with the characters (as GTK
    /// counts them), lines and columns they take; a dump has none, and a grid in a cell of another table is that
    /// table's text.
    func testTheWindowKnowsWhereEachGridIs() throws {
        let rows = PageTable.maximumCells / 40 + 1
        var html = "<p>before</p><table>"
        for r in 0..<rows { html += "<tr>" + (0..<40).map { "<td>\(r)-\($0)é</td>" }.joined() + "</tr>" }
        html += "</table><p>middle</p><table><tr><td colspan=2>wide</td></tr><tr><td>a</td><td>b</td></tr></table>"
        html += "<p>after</p>"
        let window = Document.parse(html: html, baseURL: nil, tabbedTables: true)
        XCTAssertEqual(window.grids.count, 2)
        let long = try XCTUnwrap(window.grids.first)
        let bytes = window.storage.bytes
        let text = String(decoding: bytes[long.bytes], as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("0-0é "), String(text.prefix(20)))
        XCTAssertTrue(text.hasSuffix("\(rows - 1)-39é"), String(text.suffix(20)))
        XCTAssertEqual(bytes[long.bytes.lowerBound - 1], 0x0A, "the grid begins a line")
        XCTAssertEqual(bytes[long.bytes.upperBound], 0x0A, "and ends one, without its line break")
        XCTAssertEqual(long.lines, rows)
        XCTAssertEqual(long.characters, text.unicodeScalars.count)
        XCTAssertEqual(long.columns, text.split(separator: "\n").map { line in
            var line = String(line)
            return line.withUTF8 { TextColumns.columns($0) }
        }.max())
        XCTAssertEqual(long.columns, window.widestPreformattedColumns)
        let short = String(decoding: bytes[window.grids[1].bytes], as: UTF8.self)
        XCTAssertTrue(short.contains("wide") && short.hasSuffix("b"), short)
        XCTAssertEqual(window.grids[1].lines, short.split(separator: "\n").count)
        XCTAssertTrue(Document.parse(html: html, baseURL: nil, textMarks: true).grids.isEmpty, "none in a dump")
        let nested = "<table><tr><td><table><tr><td colspan=2>i</td></tr><tr><td>1</td><td>2</td></tr></table></td>"
            + "<td>o</td></tr></table>"
        let outer = Document.parse(html: nested, baseURL: nil, tabbedTables: true).grids
        XCTAssertEqual(outer.count, 1, "the outer table's grid only")
    }

    func testANestedTableKeepsTheGridInsideItsCell() {
        let html = "<table><tr><td><table><tr><td>i1</td><td>i2</td></tr></table></td><td>o</td></tr></table>"
        let document = Document.parse(html: html, baseURL: nil, tabbedTables: true)
        XCTAssertTrue(document.tables.isEmpty)
    }

    /// Images and form controls in the cells of a window table are the U+FFFC their widgets replace, at the
    /// offsets the document gives them; a table laid out as a grid after all shows them as text, as `--dump` does.
    /// A picture in a table's caption is a picture in the window, as in its cells: a U+FFFC in the caption's line
    /// where the image's offset says, for a table the window lays out and one that reads as flowing text; only a
    /// grid shows it as its `[alt]`, and the dump always does.
    func testAPictureInACaptionIsAnObjectCharacterInTheCaption() throws {
        let selection = ImageSelection(scale: 1, viewportWidth: 1000, types: ["image/png"])
        let marker = Array("\u{FFFC}".utf8)
        let tabbed = "<table><caption>Logo <img src=logo.png alt=Logo> figures</caption>"
            + "<tr><td><img src=a.png alt=A></td><td>one</td></tr><tr><td>x</td><td>two</td></tr></table>"
        let flowing = "<table><caption><img src=logo.png alt=Logo> Site</caption>"
            + "<tr><td><p>A long paragraph</p><p>and another <img src=a.png alt=A></p></td></tr></table>"
        for html in [tabbed, flowing] {
            let document = Document.parse(html: html, baseURL: URL(string: "https://example.org/")!,
                                          images: selection, tabbedTables: true)
            XCTAssertEqual(document.images.count, 2, html)
            for image in document.images {
                XCTAssertEqual(Array(document.storage.bytes[image.offset..<image.offset + 3]), marker, html)
            }
            let logo = try XCTUnwrap(document.images.first)
            let line = document.text.components(separatedBy: "\n").first { $0.contains("\u{FFFC}") } ?? ""
            XCTAssertTrue(line.hasPrefix("Logo \u{FFFC} figures") || line.hasPrefix("\u{FFFC} Site"), "\(html): \(line)")
            XCTAssertLessThan(logo.offset, document.images[1].offset, "the caption's picture comes first")
            XCTAssertFalse(document.text.contains("[Logo]"), document.text)
        }
        let window = Document.parse(html: tabbed, baseURL: nil, images: selection, tabbedTables: true)
        XCTAssertEqual(window.tables.count, 1, "the caption's picture leaves the table to the window")
        XCTAssertEqual(window.tables[0].cells[0].text, "\u{FFFC}")
        let grid = Document.parse(html: "<table><caption><img src=logo.png alt=Logo></caption>"
                                  + "<tr><td colspan=2>wide</td></tr><tr><td>a</td><td>b</td></tr></table>",
                                  baseURL: nil, images: selection, tabbedTables: true)
        XCTAssertTrue(grid.text.contains("[Logo]") && grid.images.isEmpty, grid.text)
        XCTAssertTrue(Document.parse(html: tabbed, baseURL: nil, textMarks: true).text.contains("[Logo]"))
    }

    func testImagesAndControlsInCellsAreObjectCharactersWhereTheyStand() throws {
        let selection = ImageSelection(scale: 1, viewportWidth: 1000, types: ["image/png"])
        let html = """
            <p>Before <img src=top.png alt=Top></p>
            <form action=/login method=post><table>
            <tr><td>Username:</td><td><input name=acct size=20></td></tr>
            <tr><td>Password:</td><td><input type=password name=pw></td></tr>
            </table></form>
            <table><tr><td><img src=up.gif width=10 height=10 alt=up></td><td>A story title</td></tr>
            <tr><td><img src=up.gif width=10 height=10 alt=up></td><td>Another one</td></tr></table>
            <p>After <input name=q></p>
            """
        let document = Document.parse(html: html, baseURL: URL(string: "https://example.org/")!,
                                      images: selection, tabbedTables: true)
        let lines = document.text.components(separatedBy: "\n")
        XCTAssertTrue(lines.contains("Username:\t\u{FFFC}"), "\(lines)")
        XCTAssertTrue(lines.contains("Password:\t\u{FFFC}"))
        XCTAssertTrue(lines.contains("\u{FFFC}\tA story title"))
        XCTAssertEqual(document.tables.count, 2)
        XCTAssertEqual(document.tables[0].cells[1].text, "\u{FFFC}")
        let marker = Array("\u{FFFC}".utf8)
        let placed = document.controls.compactMap(\.offset)
        XCTAssertEqual(placed.count, 3)
        XCTAssertEqual(placed, placed.sorted(), "controls in page order")
        for offset in placed { XCTAssertEqual(Array(document.storage.bytes[offset..<offset + 3]), marker) }
        XCTAssertEqual(document.images.count, 3)
        XCTAssertEqual(document.images.map(\.offset), document.images.map(\.offset).sorted())
        for image in document.images {
            XCTAssertEqual(Array(document.storage.bytes[image.offset..<image.offset + 3]), marker)
        }
        XCTAssertEqual(document.images[1].width, 10)
        // Every U+FFFC in the text is one of them.
        XCTAssertEqual(document.text.unicodeScalars.filter { $0 == "\u{FFFC}" }.count, 6)

        // A span keeps the grid: the field is text there, and neither it nor the image is placed.
        let grid = Document.parse(html: """
            <table><tr><td colspan=2>Log in</td></tr><tr><td><img src=a.png alt=Logo></td>
            <td><input name=acct value=me size=6></td></tr></table><p><img src=b.png></p>
            """, baseURL: URL(string: "https://example.org/")!, images: selection, tabbedTables: true)
        XCTAssertTrue(grid.tables.isEmpty)
        XCTAssertTrue(grid.text.contains("[Logo]"), grid.text)
        XCTAssertTrue(grid.text.contains("[me    ]"), grid.text)
        XCTAssertNil(grid.controls.first?.offset)
        XCTAssertEqual(grid.images.count, 1)
        let last = try XCTUnwrap(grid.images.first)
        XCTAssertEqual(Array(grid.storage.bytes[last.offset..<last.offset + 3]), marker)
        XCTAssertEqual(grid.text.unicodeScalars.filter { $0 == "\u{FFFC}" }.count, 1)
    }

    /// The cells of a window table get a zero width space where a line might break without a space: between
    /// East Asian characters and after a hyphen or a slash; never beside a space, in prose, or in `--dump`.
    func testCellsGetMarksWhereALineMightBreakWithoutASpace() throws {
        let html = "<p>東京都 well-known</p><table><tr><td>東京都。</td><td>well-known a/b</td><td>x y</td></tr></table>"
        let document = Document.parse(html: html, baseURL: nil, tabbedTables: true)
        let cells = try XCTUnwrap(document.tables.first).cells.map(\.text)
        XCTAssertEqual(cells, ["東\u{200B}京\u{200B}都\u{200B}。", "well-\u{200B}known a/\u{200B}b", "x y"])
        XCTAssertTrue(document.text.contains("東\u{200B}京\u{200B}都\u{200B}。\twell-\u{200B}known a/\u{200B}b\tx y"),
                      document.text)
        XCTAssertTrue(document.text.hasPrefix("東京都 well-known"), "prose gets none")
        let dump = Document.parse(html: html, baseURL: nil, textMarks: true)
        XCTAssertFalse(dump.text.contains("\u{200B}"))
    }
}
