import Foundation
@testable import GtkProgressCore
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

    /// A cell of a table being built is a range of the table's one writer and 24 bytes of place, so a table of
    /// 100,000 rows of 50 cells holds its text and 120 MB, not five million buffers.
    func testTableCellsAreRangesOfOneWriter() throws {
        XCTAssertLessThanOrEqual(MemoryLayout<TableModel.Cell>.stride, 24)
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
