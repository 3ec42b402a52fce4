import Foundation
@testable import GtkProgressCore
import CGumbo
import XCTest

/// What the document model holds per byte of text on the page shapes that used to cost a hundred times the page
/// (issue 33): tiny paragraphs, a long table of short cells, a page of links. Counts, not timings: peak memory
/// of whole programs is measured by `bench/run.py --rows pagemem`.
final class DocumentMemoryTests: XCTestCase {
    private func paragraphs(_ count: Int) -> String {
        "<!DOCTYPE html><title>p</title>" + String(repeating: "<p>x", count: count)
    }

    private func table(rows: Int, columns: Int) -> String {
        var html = "<!DOCTYPE html><title>t</title><table>\n"
        for r in 0..<rows {
            html += "<tr>" + (0..<columns).map { "<td>\((r * columns + $0) % 997)</td>" }.joined() + "</tr>\n"
        }
        return html + "</table>"
    }

    private func links(_ count: Int) -> String {
        "<!DOCTYPE html><title>l</title>" + (0..<count).map { "<a href=\"/p\($0)\">l\($0)</a> " }.joined()
    }

    func testParagraphsHoldAboutTheirText() {
        let document = Document.parse(html: paragraphs(20_000), baseURL: nil)
        let storage = document.storage
        XCTAssertEqual(storage.bytes.count, 20_000 * 3 - 2, "x and a blank line per paragraph")
        XCTAssertLessThanOrEqual(Double(storage.modelBytes) / Double(storage.bytes.count), 1.1,
                                 "one run for text of one style, however many paragraphs")
    }

    /// Bare `<p>` and `</p>` among text reach gumbo as one placeholder: a page of tiny paragraphs is one text node
    /// in gumbo's tree (about 300 bytes an element there) and a piece a paragraph, one byte (`InlinePieces`), here.
    func testTinyParagraphsAreOnePlaceholder() {
        var html = paragraphs(20_000)
        let markup = html.withUTF8 { MarkupPrefilter.prefilter($0) }
        XCTAssertLessThan(markup.bytes.count, 100, "gumbo gets the title, one <p> and a placeholder")
        XCTAssertEqual(markup.placeholders.count, 1)
        XCTAssertLessThanOrEqual(markup.pieces.count, 20_000 + 1)
        XCTAssertLessThanOrEqual(markup.pieces.byteCount, 20_000 + 16, "a byte a paragraph")
        var closed = "<!DOCTYPE html><title>p</title>" + String(repeating: "<p>some words</p>\n", count: 20_000)
        let closedMarkup = closed.withUTF8 { MarkupPrefilter.prefilter($0) }
        XCTAssertLessThanOrEqual(closedMarkup.pieces.byteCount, 2 * 20_000 + 16, "a byte for each tag's text")
    }

    /// The packed pieces read back as they were added, whatever their kind, with the marks taken back to.
    func testPackedPiecesReadBackAsAdded() {
        var pieces = InlinePieces()
        var added: [InlinePiece] = []
        func add(_ piece: InlinePiece) {
            pieces.append(piece)
            added.append(piece)
        }
        let start = pieces.mark
        add(InlinePiece(text: 3..<4, tag: GUMBO_TAG_P.rawValue))
        add(InlinePiece(text: 7..<70, tag: GUMBO_TAG_P.rawValue))
        add(InlinePiece(text: 74..<75, tag: GUMBO_TAG_P.rawValue))
        add(InlinePiece(text: 75..<75, tag: GUMBO_TAG_P.rawValue))
        add(InlinePiece(text: 0..<3, decoded: true))
        var link = InlinePiece(text: 120..<130, tag: GUMBO_TAG_A.rawValue)
        link.href = 100..<115
        add(link)
        var styled = InlinePiece(text: 200..<2_000_000, tag: GUMBO_TAG_CODE.rawValue)
        styled.classValue = 190..<195
        styled.droppedAttributes = true
        add(styled)
        add(InlinePiece(text: 10..<12))
        let kept = pieces.mark
        add(InlinePiece(text: 3..<6, decoded: true))
        add(InlinePiece(text: 2_000_003..<2_000_004, tag: GUMBO_TAG_P.rawValue))
        pieces.truncate(to: kept)
        added.removeLast(2)
        add(InlinePiece(text: 2_000_004..<2_000_005, tag: GUMBO_TAG_P.rawValue))
        pieces.replaceLast(with: InlinePiece(text: 2_000_003..<2_000_009, tag: GUMBO_TAG_EM.rawValue))
        added[added.count - 1] = InlinePiece(text: 2_000_003..<2_000_009, tag: GUMBO_TAG_EM.rawValue)
        var read: [InlinePiece] = []
        var cursor = pieces.cursor(pieces.span(since: start))
        while let piece = pieces.next(&cursor) { read.append(piece) }
        XCTAssertEqual(read.count, added.count)
        XCTAssertEqual(pieces.count, added.count)
        for (got, wanted) in zip(read, added) {
            XCTAssertEqual(got.text, wanted.text)
            XCTAssertEqual(got.tag, wanted.tag)
            XCTAssertEqual(got.decoded, wanted.decoded)
            XCTAssertEqual(got.droppedAttributes, wanted.droppedAttributes)
            XCTAssertEqual(got.href, wanted.href)
        }
    }

    /// Paragraph tags taken out of gumbo's input change nothing where gumbo's paragraphs would differ from breaks
    /// in text: an open paragraph with attributes, elements inside it that end with it, formatting elements gumbo
    /// reopens, text after a `</p>`, what ends the stretch, `<select>`, SVG.
    func testParagraphPlaceholdersChangeNothing() {
        let pages = [
            "<p>a<p>b<p>c<div>d</div>", "<p>a</p>\n<p>b</p>\n<h3>c<h6>d</h6>e", "<p hidden>a<p>b<p>c<p>d",
            "<p align=center>a<p>b<p>c", "<p><q>a<p>b</q>c<p>d", "<p><b>a<p>b<p>c</b><div>d", "<p>a</p>tail<div>b",
            "<p>a<p>b<span>c</span>d<em>e</em><p>f<b>g</b>h", "<select><p>a<p>b</select><p>c<p>d",
            "<svg><p>a<p>b</svg>", "<table><p>a<p>b<tr><td>c<p>d<p>e</table>", "<li><p>a<p>b<li>c<p>d",
            "<pre><p>a  b<p>c\n d</pre>", "<p>a<kbd>b<p>c</kbd>d<p>e", "x<P>a<P>b</P>c</p><p>d",
            "<div><p>a<p>b</div>c<p>d", "<p id=here>a<p>b<a href=x>c</a><p>d", "<button><p>a<p>b</button>c",
        ]
        for page in pages {
            var html = page
            let fast = Document.parse(html: html, baseURL: nil)
            let plain = html.withUTF8 { DocumentBuilder.build(source: $0, baseURL: nil, placeholders: false) }
            XCTAssertEqual(fast.runs, plain.runs, page)
            XCTAssertEqual(fast.dumpText(), plain.dumpText(), page)
        }
    }

    func testTableHoldsAboutItsLaidOutText() {
        let document = Document.parse(html: table(rows: 1_000, columns: 50), baseURL: nil, layoutWidth: 400)
        let storage = document.storage
        XCTAssertEqual(document.text.split(separator: "\n").count, 1_000, "one line a row: the table was laid out")
        XCTAssertLessThanOrEqual(storage.runCount, 2 * 1_000 + 2, "a run for a row's text, one for its line break")
        XCTAssertLessThanOrEqual(Double(storage.modelBytes) / Double(storage.bytes.count), 1.25,
                                 "a laid-out table is monospace text of one style, not a run a cell")
    }

    func testLinksHoldTheirTextAndTwoRunsALink() {
        let document = Document.parse(html: links(20_000), baseURL: URL(string: "http://example.org/"))
        let storage = document.storage
        XCTAssertEqual(document.links.count, 20_000)
        XCTAssertLessThanOrEqual(storage.runCount, 2 * 20_000, "a run for the link, one for the space after it")
        XCTAssertLessThanOrEqual(Double(storage.modelBytes) / Double(storage.bytes.count), 6,
                                 "text of about 7 bytes a link and 32 bytes of runs")
    }

    /// Link targets are their text and a word each (`LinkTable`), not a parsed URL object and a dictionary entry
    /// each: about 220 bytes a link more.
    func testLinkTargetsAreHeldAsTheirText() {
        let document = Document.parse(html: links(20_000), baseURL: URL(string: "http://example.org/"))
        let text = document.links.strings.reduce(0) { $0 + $1.utf8.count }
        XCTAssertEqual(text, (0..<20_000).reduce(0) { $0 + "http://example.org/p\($1)".utf8.count })
        XCTAssertLessThanOrEqual(document.links.modelBytes, text * 9 / 8 + 20_000 * 8 + 64)
    }

    /// A cell of a table being built is a range of the table's one writer and 20 bytes of place, so a table of
    /// 100,000 rows of 50 cells holds its text and 100 MB, not five million buffers.
    func testTableCellsAreRangesOfOneWriter() throws {
        XCTAssertLessThanOrEqual(MemoryLayout<TableModel.Cell>.stride, 20)
        var model = TableModel(border: false)
        var writer = try XCTUnwrap(model.cellWriter)
        model.cellWriter = nil
        var text = 0
        for r in 0..<100 {
            model.startRow()
            for c in 0..<20 {
                writer.startCell(style: TextStyle())
                writer.appendText("  cell \(r) \(c)  ")
                text += "cell \(r) \(c)".utf8.count
                model.placeCell(colspan: 1, rowspan: 1, alignment: .left, content: writer.finishCell())
            }
        }
        let storage = writer.finish()
        XCTAssertEqual(storage.bytes.count, text, "each cell's text once, spaces at its ends collapsed away")
        XCTAssertLessThanOrEqual(storage.runCount, 1, "cells of one style share a run")
        XCTAssertEqual(model.cells.count, 2_000)
        XCTAssertEqual(String(decoding: storage.bytes[model.cells[21].bytes], as: UTF8.self), "cell 1 1")
        XCTAssertEqual(model.cells[21].row, 1)
        XCTAssertEqual(model.cells[21].column, 1)
    }

    /// A cell starts as a fresh page would, whatever the cell before it left owed (a break, a list marker).
    func testCellStartsFresh() {
        var writer = RunWriter(capacity: 0)
        writer.startCell(style: TextStyle())
        writer.appendText("one")
        writer.requestBreak(2)
        let first = writer.finishCell()
        writer.startCell(style: TextStyle(bold: true))
        writer.lineBreak()
        writer.appendText(" two ")
        let second = writer.finishCell()
        let storage = writer.finish()
        XCTAssertEqual(String(decoding: storage.bytes[first], as: UTF8.self), "one")
        XCTAssertEqual(String(decoding: storage.bytes[second], as: UTF8.self), "two",
                       "no break owed from the cell before, and a <br> at a cell's start makes no empty line")
        XCTAssertTrue(storage.style(ofRun: storage.run(containing: second.lowerBound)).bold)
    }
}
