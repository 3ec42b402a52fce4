import Foundation
@testable import GtkProgressCore
import XCTest

/// A long table's rows parsed a chunk at a time as fragments (`TableRowRegions`) give the document the whole
/// parse gives, and the scan leaves to the whole parse every row it cannot vouch for.
final class TableRowChunkTests: XCTestCase {
    /// A cut at every `<tr`, whatever the table's length.
    private let everyRow = RowChunking(minimumBytes: 1, chunkBytes: 1)

    /// The regions a page's rows are cut into, once the document parse has confirmed their markers; nil when the
    /// page would be parsed whole.
    private func confirmedRegions(_ html: String, chunking: RowChunking? = nil) -> [RowRegion]? {
        var html = html
        return html.withUTF8 { source -> [RowRegion]? in
            let markup = MarkupPrefilter.prefilter(source)
            let regions = markup.bytes.withUnsafeBufferPointer {
                TableRowRegions.find(in: $0, chunking: chunking ?? everyRow)
            }
            guard !regions.isEmpty else { return nil }
            let document = markup.bytes.withUnsafeBufferPointer { TableRowRegions.document($0, without: regions) }
            let tree = document.withUnsafeBufferPointer { GumboTree(parsing: $0) }
            return TableRowRegions.sections(of: tree.document, regions: regions) == nil ? nil : regions
        }
    }

    /// The rows of each region as text, for checking where the cuts fell.
    private func regionTexts(_ html: String) -> [[String]] {
        var html = html
        return html.withUTF8 { source in
            let markup = MarkupPrefilter.prefilter(source)
            return markup.bytes.withUnsafeBufferPointer { bytes in
                TableRowRegions.find(in: bytes, chunking: everyRow).map { region in
                    region.chunks.map { String(decoding: bytes[$0], as: UTF8.self) }
                }
            }
        }
    }

    private struct Built: Equatable {
        var title: String?
        var runs: [TextRun]
        var dump: String
        var links: LinkTable
        var anchors: [String: Int]
        var images: [PageImage]
        var forms: [PageForm]
        var controls: [FormControl]
        var tables: [String]
    }

    private func build(_ html: String, chunking: RowChunking?, layoutWidth: Int = 80, textMarks: Bool = false,
                       tabbedTables: Bool = false, images: ImageSelection? = nil,
                       styles: PageStyleOptions = PageStyleOptions()) -> Built {
        var html = html
        let document = html.withUTF8 {
            DocumentBuilder.build(source: $0, baseURL: URL(string: "http://example.org/dir/"), layoutWidth: layoutWidth,
                                  images: images, styles: styles, textMarks: textMarks, tabbedTables: tabbedTables,
                                  rowChunking: chunking)
        }
        return Built(title: document.title, runs: document.runs, dump: document.dumpText(), links: document.links,
                     anchors: document.anchors, images: document.images, forms: document.forms,
                     controls: document.controls,
                     tables: document.tables.map { table in
                         "\(table.columnCount) \(table.border) \(table.padding) \(table.indent): "
                             + table.cells.map { "\($0.row),\($0.column),\($0.bold),\($0.alignment):\($0.text)" }
                             .joined(separator: "|")
                     })
    }

    /// The dump, the window's tabbed tables, a narrow dump (tables as flowing text) and no author styles each give
    /// the same document chunked and whole.
    private func assertSameAsWhole(_ html: String, file: StaticString = #filePath, line: UInt = #line) {
        let configurations: [(String, (RowChunking?) -> Built)] = [
            ("dump", { self.build(html, chunking: $0, textMarks: true) }),
            ("window", { self.build(html, chunking: $0, tabbedTables: true, images: ImageSelection()) }),
            ("narrow", { self.build(html, chunking: $0, layoutWidth: 24) }),
            ("no styles", { self.build(html, chunking: $0, styles: .off) }),
        ]
        for (name, build) in configurations {
            let whole = build(nil), chunked = build(everyRow)
            XCTAssertEqual(chunked, whole, "\(name): \(html)", file: file, line: line)
            XCTAssertFalse(whole.dump.isEmpty, name, file: file, line: line)
        }
    }

    // MARK: Tables cut into chunks

    private static let chunkedPages: [String] = [
        // Ordinary rows, with text around the table.
        "before<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr><tr><td>e</td><td>f</td></tr></table>after",
        // Attributes on the table, rows and cells.
        "<table border=1 cellpadding=3 width=80%><tr align=right><td colspan=2 id=top>a</td></tr>"
            + "<tr valign=top><td rowspan=2 width=\"50%\">b<td align=center>c<tr><th>d</th></tr>"
            + "<tr style=\"text-align: right\"><td class=x>e<td>f</table><p>after",
        // Cells and rows without end tags, and whitespace between rows.
        "<table>\n  <tr>\n    <td>1<td>2\n  <tr>\n    <td>3<td>4\n  <tr><td>5<td>6\n</table>\n<p>tail",
        // Nested wrappers, explicit sections, a caption and column groups before the rows.
        "<div><center><blockquote><table><caption>Cap</caption><colgroup><col span=2></colgroup><tbody>"
            + "<tr><td>a<td>b</tr><tr><td>c<td>d</tr><tr><td>e<td>f</tr></tbody></table></blockquote></center></div>",
        // A table in a list item and in a div beside text.
        "<ul><li>item<table><tr><td>a<tr><td>b<tr><td>c</table><li>next</ul><div>x<table><tr><td>1<tr><td>2</table>y</div>",
        // Head, body and foot sections.
        "<table><thead><tr><th>h1<th>h2<tr><th>h3<th>h4</thead><tbody><tr><td>1<td>2<tr><td>3<td>4</tbody>"
            + "<tfoot><tr><td>f1<td>f2<tr><td>f3<td>f4</tfoot></table>",
        // Two tables.
        "<table><tr><td>a1<tr><td>a2<tr><td>a3</table><p>between</p><table border><tr><td>b1<td>x<tr><td>b2<td>y</table>",
        // Inline and block content in cells, long text the prefilter makes placeholders of, references.
        "<table><tr><td><b>bold <a href=\"/x\">link</a></b> <i>it</i> &amp; more text than twelve bytes</td>"
            + "<td><p>para<p>two<br>lines</td></tr><tr><td><ul><li>one<li>two</ul><td><img src=a.png alt=pic>"
            + "<tr><td><div>block</div>text<td><pre>  pre\n  text</pre><tr><td><code>c</code><sub>2</sub><del>d</del></table>",
        // Formatting left open in a cell ends with the cell; one open before the table is not reconstructed in it.
        "<b>before<table><tr><td><i>open<td>shut<tr><td><a href=/l>open link<tr><td>plain</table>after</b>",
        // A header cell whose `</td>` is ignored; end tags of nothing.
        "<table><tr><th>x</td>y</th><td>z</span></div><tr><td>w</p></table>",
        // Cells directly after a row's end tag (an implied row), and rows ended by `</tr>` with text inside cells.
        "<table><tr><td>a</tr><td>b<td>c</tr><tr><td>d</table>",
        // Forms around a table, controls in cells, labels.
        "<form action=/search><table><tr><td><label>Name <input name=q value=v></label>"
            + "<tr><td><input type=checkbox name=c checked><button>Go</button><tr><td><input type=submit></table></form>",
        // Author styles through the rows' ancestors: descendant and child selectors, classes on the table.
        "<style>.data td { text-align: right } table.data > tbody > tr > td b { font-style: italic }"
            + " tr.hide { display: none } td.c { text-transform: uppercase }</style>"
            + "<table class=data><tr><td>1<td><b>2</b><tr class=hide><td>gone<tr><td class=c>up<td>3</table>",
        // Uppercase tags and attributes with `>` in quotes.
        "<TABLE><TR TITLE=\"a>b\"><TD>one<TD>two</TD></TR><TR><TD ALIGN='right'>three</TABLE>",
        // A table never closed.
        "<table><tr><td>a<tr><td>b<tr><td>c",
        // Rows ended by a caption, then more rows.
        "<table><tr><td>a<tr><td>b<caption>late</caption><tr><td>c<tr><td>d</table>",
        // A table nested in a cell of another: the inner rows are cut, the outer row holding them is not.
        "<table><tr><td>outer<tr><td><table><tr><td>i1<tr><td>i2<tr><td>i3</table></td></tr><tr><td>after</table>",
        // Hidden rows and tables.
        "<table hidden><tr><td>a<tr><td>b</table><table><tr hidden><td>c<tr><td>d</table>",
        // A table in a template: its rows are cut, and neither walked nor parsed.
        "<template><table><tr><td>a<tr><td>b</table></template><p>x",
        // Places in the page inside cells.
        "<p><a href=#r2>to r2</a><table><tr><td id=r1>a<tr><td><a name=r2>b</a><tr><td>c</table>",
    ]

    func testChunkedTablesGiveTheWholeParse() throws {
        for page in Self.chunkedPages {
            let regions = try XCTUnwrap(confirmedRegions(page), "the rows are cut: \(page)")
            XCTAssertTrue(regions.contains { $0.chunks.count > 1 }, "more than one chunk: \(page)")
            assertSameAsWhole(page)
        }
    }

    func testChunksStartAtRows() {
        let texts = regionTexts("<table>\n<tr><td>a</td></tr>\n<tr><td>b<td>c\n<tr><td>d</table>")
        XCTAssertEqual(texts, [["<tr><td>a</td></tr>\n", "<tr><td>b<td>c\n", "<tr><td>d"]])
        let large = regionTexts("<table>" + String(repeating: "<tr><td>0123456789</td></tr>", count: 5) + "</table>")
        XCTAssertEqual(large.first?.count, 5)
        XCTAssertEqual(large.first?.last, "<tr><td>0123456789</td></tr>")
    }

    func testChunksAreAsLargeAsAsked() throws {
        let row = "<tr><td>0123456789</td><td>x</td></tr>\n"
        let html = "<table>" + String(repeating: row, count: 1_000) + "</table>"
        let regions = try XCTUnwrap(confirmedRegions(html, chunking: RowChunking(minimumBytes: 4_096, chunkBytes: 2_048)))
        XCTAssertEqual(regions.count, 1)
        let chunks = regions[0].chunks
        XCTAssertEqual(chunks.reduce(0) { $0 + $1.count }, row.utf8.count * 1_000, "every row in one chunk or another")
        for chunk in chunks.dropLast() {
            XCTAssertGreaterThanOrEqual(chunk.count, 2_048)
            XCTAssertLessThan(chunk.count, 2_048 + row.utf8.count, "a chunk ends at the first row past its size")
        }
        XCTAssertNil(confirmedRegions("<table>" + String(repeating: row, count: 10) + "</table>",
                                      chunking: RowChunking(minimumBytes: 4_096, chunkBytes: 2_048)),
                     "short tables are parsed with the document")
    }

    // MARK: What the scan does not vouch for

    /// Rows holding these are left to the whole parse: the region ends before the row, and the page still
    /// comes out as the whole parse makes it.
    private static let unsafeRows: [(String, String)] = [
        ("a comment", "<td>x<!-- <tr><td>hidden --></td>"),
        ("a comment between cells", "<td>x</td><!-- c --><td>y"),
        ("a script", "<td><script>document.write('<tr><td>no')</script>s"),
        ("a style sheet", "<td><style>td { font-weight: bold } </tr></style>s"),
        ("a text area", "<td><textarea></td><tr><td>text</textarea>"),
        ("a title", "<td><title>t</tr></title>"),
        ("a nested table", "<td><table><tr><td>inner</table>"),
        ("a select", "<td><select><option>o<tr><td>s</select>"),
        ("SVG", "<td><svg><tr><td>svg</svg>"),
        ("MathML", "<td><math><mi>x</mi></math>"),
        ("a template", "<td><template><tr><td>t</template>"),
        ("text between rows", "<td>x</td></tr>stray"),
        ("a reference between rows", "<td>x</td></tr>&amp;"),
        ("an element between rows", "<td>x</td></tr><div>d</div>"),
        ("a form between rows", "<td>x</td></tr><form action=/f>"),
        ("a form in a cell", "<td><form action=/g><input name=q></form>"),
        ("an end tag between cells", "<td>x</td></b>"),
        ("a processing instruction", "<td><?php x ?>"),
        ("a bogus end tag", "<td></ x>"),
        ("a base", "<td><base href=/other/><a href=l>l</a>"),
        ("a link", "<td><link rel=stylesheet href=s.css>"),
        ("body attributes", "<td><body bgcolor=red>b"),
        ("a frameset", "<td><frameset>"),
        ("an object", "<td><object data=o.swf>fallback</object>"),
    ]

    func testRowsTheScanCannotVouchForAreParsedWithTheDocument() throws {
        for (name, row) in Self.unsafeRows {
            let page = "<p>top<table><tr><td>1<tr><td>2<tr>\(row)<tr><td>3<tr><td>4</table><p>end"
            let regions = regionTexts(page)
            XCTAssertEqual(regions.first, ["<tr><td>1", "<tr><td>2"], "\(name): the rows end before it")
            XCTAssertFalse(regions.joined().contains { $0.contains(row) }, name)
            assertSameAsWhole(page)
            // In the first row, nothing is cut before it.
            let first = "<table><tr>\(row)<tr><td>3</table>"
            XCTAssertFalse(regionTexts(first).joined().contains { $0.contains(row) }, name)
            assertSameAsWhole(first)
        }
    }

    /// Where the document parse does not put the marker in a table section, or the rows' end tag names another
    /// section than theirs, the page is parsed whole.
    func testMarkersOutsideATableSectionMeanAWholeParse() {
        let pages = [
            // Rows outside any table: gumbo ignores `<tr>` in the body.
            "<div><tr><td>a<tr><td>b<tr><td>c</div>",
            // `</tbody>` in a head section is ignored, and the cell goes on.
            "<table><thead><tr><td>a<tr><td>b</tbody>still in the cell<tr><td>c</table>",
            // Rows inside a select, and in a CDATA section the scan reads as a bogus comment.
            "<select><tr><td>a<tr><td>b</select>",
            "<svg><![CDATA[ > <table><tr><td>a<tr><td>b</table> ]]></svg><p>after",
            // In raw text, no row at all.
            "<script>x = '<table><tr><td>a<tr><td>b</table>'</script><p>x",
        ]
        for page in pages {
            XCTAssertNil(confirmedRegions(page), page)
            assertSameAsWhole(page)
        }
    }

    /// Rows in chunks see only the siblings in their chunk, so a page whose rules read siblings is parsed whole.
    func testSiblingSelectorsMeanAWholeParse() {
        for rule in ["tr:nth-child(2) td { font-weight: bold }", "tr + tr td { text-transform: uppercase }",
                     "tr:first-child { display: none }", "td:not(:last-child) { text-transform: uppercase }",
                     "tr ~ tr td:only-child { font-style: italic }"] {
            let page = "<style>\(rule)</style><table><tr><td>a<td>b<tr><td>c<tr><td>d<td>e<tr><td>f</table>"
            assertSameAsWhole(page)
            let whole = build(page, chunking: nil, textMarks: true)
            XCTAssertNotEqual(whole.runs, build(page, chunking: nil, textMarks: true, styles: .off).runs,
                              "the rule changes the page: \(rule)")
        }
    }

    /// A large generated table, cut into many chunks of many rows, is the whole parse.
    func testALongTableInManyChunks() throws {
        var html = "<!DOCTYPE html><title>t</title><h1>Head</h1><table border=1>\n"
        for r in 0..<3_000 {
            html += "<tr>" + (0..<6).map { "<td>\((r * 6 + $0) % 997)" + ($0 == 5 ? "" : "</td>") }.joined() + "</tr>\n"
        }
        html += "</table><p>tail"
        let chunking = RowChunking(minimumBytes: 8_192, chunkBytes: 4_096)
        let regions = try XCTUnwrap(confirmedRegions(html, chunking: chunking))
        XCTAssertGreaterThan(regions[0].chunks.count, 10)
        for (textMarks, tabbed, width) in [(true, false, 80), (false, true, 80), (false, false, 30)] {
            XCTAssertEqual(build(html, chunking: chunking, layoutWidth: width, textMarks: textMarks, tabbedTables: tabbed),
                           build(html, chunking: nil, layoutWidth: width, textMarks: textMarks, tabbedTables: tabbed))
        }
    }
}

final class BlockArrayTests: XCTestCase {
    func testElementsAcrossBlocks() {
        var array = BlockArray<Int32>()
        XCTAssertTrue(array.isEmpty)
        for k in 0..<200_000 { array.append(Int32(k * 3)) }
        XCTAssertEqual(array.count, 200_000)
        XCTAssertEqual(array[0], 0)
        XCTAssertEqual(array[65_535], 65_535 * 3)
        XCTAssertEqual(array[65_536], 65_536 * 3)
        XCTAssertEqual(array[199_999], 199_999 * 3)
        XCTAssertEqual(Array(array.enumerated().filter { $0.offset % 50_000 == 0 }.map(\.element)),
                       [0, 150_000, 300_000, 450_000])
        XCTAssertTrue(array.elementsEqual((0..<200_000).lazy.map { Int32($0 * 3) }))
    }
}

extension TableRowChunkTests {
    /// Tables put together at random from pieces the scan accepts and pieces it must refuse, around and inside
    /// cells: every one comes out of the chunked parse as out of the whole one.
    func testRandomTablesGiveTheWholeParse() {
        let outside = ["<tr>", "<tr class=r>", "</tr>", "<td>", "<th>", "</td>", "</th>", "\n", "  ", "<td align=right>",
                       "<td colspan=2>", "<td rowspan=2>", "<!-- c -->", "x", "<div>", "<form>", "</tbody>", "<tbody>",
                       "<thead>", "<caption>c</caption>", "&amp;"]
        let inside = ["text", "longer text than twelve bytes", "<b>", "</b>", "<i>i</i>", "<a href=/a>", "</a>", "<p>",
                      "</p>", "<br>", "<div>", "</div>", "<ul><li>", "</li>", "<img alt=pic>", "<input name=n>",
                      "<script>s('<tr>')</script>", "<table><tr><td>in</table>", "<select><option>o</select>", "<svg>",
                      "<textarea>t</textarea>", "&lt;", "<", "<span id=s>", "</span>", "<pre>p\n q</pre>", "<nobr>",
                      "<h2>h</h2>", "<button>b</button>", "<label>l</label>"]
        var generator = SplitMix(seed: 33)
        var chunked = 0
        for _ in 0..<150 {
            var html = ["", "<p>before", "<div><b>", "<ul><li>"][generator.next(4)] + "<table>"
            for _ in 0..<(3 + generator.next(12)) {
                html += "<tr>"
                for _ in 0..<(1 + generator.next(4)) {
                    html += generator.next(6) == 0 ? outside[generator.next(outside.count)] : "<td>"
                    for _ in 0..<generator.next(4) { html += inside[generator.next(inside.count)] }
                }
            }
            html += ["</table>", "</table><p>after", "", "</tbody></table>"][generator.next(4)]
            if confirmedRegions(html)?.contains(where: { $0.chunks.count > 1 }) == true { chunked += 1 }
            XCTAssertEqual(build(html, chunking: everyRow, textMarks: true), build(html, chunking: nil, textMarks: true),
                           html)
            XCTAssertEqual(build(html, chunking: everyRow, tabbedTables: true), build(html, chunking: nil, tabbedTables: true),
                           html)
        }
        XCTAssertGreaterThan(chunked, 50, "most tables have rows cut into chunks")
    }
}

/// A small seeded generator, so a failure can be replayed.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }
}
