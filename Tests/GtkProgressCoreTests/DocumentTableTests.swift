import Foundation
@testable import GtkProgressCore
import XCTest

/// Tables as grids, text layout details (rules, alignment), and `--dump` at a width.
final class DocumentTableTests: XCTestCase {
    private func dump(_ html: String, width: Int = 80) -> [String] {
        Document.parse(html: html, baseURL: nil, layoutWidth: width).dumpText(width: width)
            .components(separatedBy: "\n")
    }

    /// The column where `word` starts on the first line that has it.
    private func column(of word: String, in lines: [String]) -> Int? {
        for line in lines {
            if let range = line.range(of: word) { return line.distance(from: line.startIndex, to: range.lowerBound) }
        }
        return nil
    }

    func testEmptyCellsKeepTheirColumn() throws {
        let lines = dump("""
            <table><tr><th></th><th>Monday</th><th>Tuesday</th></tr>
            <tr><th>Morning</th><td>run</td><td></td></tr>
            <tr><th>Evening</th><td></td><td>swim</td></tr></table>
            """)
        let monday = try XCTUnwrap(column(of: "Monday", in: lines))
        let tuesday = try XCTUnwrap(column(of: "Tuesday", in: lines))
        XCTAssertEqual(column(of: "run", in: lines), monday, "the first header sits over its own column")
        XCTAssertEqual(column(of: "swim", in: lines), tuesday, "an empty cell keeps its column")
        XCTAssertEqual(lines.filter { $0.contains("Morning") }.count, 1, "a row stays on one line")
    }

    func testColspanAndRowspanTakeTheirSlots() throws {
        let lines = dump("""
            <table><tr><td rowspan=2>tall</td><td>a</td><td>b</td></tr>
            <tr><td>c</td><td>d</td></tr>
            <tr><td colspan=2>wide cell spanning two</td><td>e</td></tr></table>
            """)
        XCTAssertEqual(Array(lines.prefix(3)), ["tall         a         b",
                                                "             c         d",
                                                "wide cell spanning two e"],
                       "the second row starts after the cell spanning down into it, and the cell after a colspan "
                           + "takes the third column")
    }

    func testCellsAreCentredVerticallyUnlessTheyAskOtherwise() {
        let tall = "<td>1<br>2<br>3</td>"
        XCTAssertEqual(Array(dump("<table><tr>\(tall)<td>mid</td></tr></table>").prefix(3)), ["1", "2 mid", "3"])
        XCTAssertEqual(Array(dump("<table><tr>\(tall)<td valign=top>top</td></tr></table>").prefix(3)),
                       ["1 top", "2", "3"])
        XCTAssertEqual(Array(dump("<table><tr valign=bottom>\(tall)<td>low</td></tr></table>").prefix(3)),
                       ["1", "2", "3 low"])
    }

    func testHeaderCellsAreBoldAndCentred() {
        let document = Document.parse(html: "<table><tr><th>Name</th><th>Age</th></tr><tr><td>Alexander</td><td>7</td></tr></table>",
                                      baseURL: nil)
        XCTAssertTrue(document.runs.contains { $0.text.contains("Name") && $0.style.bold })
        XCTAssertTrue(document.runs.contains { $0.text.contains("Alexander") && !$0.style.bold })
        XCTAssertTrue(document.runs.allSatisfy { !$0.text.contains("Name") || $0.style.monospace },
                      "the grid is monospace, so its columns line up in the view")
        let lines = document.dumpText(width: 80).components(separatedBy: "\n")
        XCTAssertEqual(lines.first, "  Name    Age", "a header is centred over its column")
    }

    func testWideTablesWrapInsideTheirColumns() {
        let long = String(repeating: "several words of text ", count: 20)
        let lines = dump("<table><tr><td>key</td><td>\(long)</td><td>end</td></tr></table><p>after</p>", width: 60)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 60 }, lines.joined(separator: "\n"))
        XCTAssertGreaterThan(lines.filter { $0.contains("several") }.count, 3, "the long cell wraps")
        XCTAssertEqual(lines.filter { $0.contains("key") }.count, 1)
        XCTAssertEqual(column(of: "end", in: lines), lines.first { $0.contains("end") }.map { $0.count - 3 })
    }

    func testEastAsianCellsWrapBetweenCharacters() {
        let sentence = String(repeating: "日本語の文章です。", count: 8)
        let lines = dump("<table><tr><td>項目</td><td>\(sentence)</td></tr></table>", width: 40)
        let columns = { (line: String) in line.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x1100 ? 2 : 1) } }
        XCTAssertTrue(lines.allSatisfy { columns($0) <= 40 }, lines.joined(separator: "\n"))
        // As `w3m -dump -cols 40` lays it out.
        XCTAssertEqual(Array(lines.prefix(4)), ["   日本語の文章です。日本語の文章です。", "項 日本語の文章です。日本語の文章です。",
                                                "目 日本語の文章です。日本語の文章です。", "   日本語の文章です。日本語の文章です。"])
    }

    func testBordersDrawBoxes() {
        let lines = dump("<table border=1><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>")
        XCTAssertEqual(Array(lines.prefix(5)), ["┌─┬─┐", "│a│b│", "├─┼─┤", "│1│2│", "└─┴─┘"])
    }

    func testLayoutTablesReadAsFlowingText() {
        let single = dump("<table><tr><td>First row.</td></tr><tr><td>Second row.</td></tr></table>")
        XCTAssertEqual(Array(single.prefix(2)), ["First row.", "Second row."])
        let page = dump("""
            <table><tr><td><h2>Menu</h2><p>Home</p><p>About</p></td>
            <td><h1>Title</h1><p>Body text of the page.</p><p>More.</p></td></tr></table>
            """)
        XCTAssertTrue(page.contains("Body text of the page."), "the text is not cut into a column")
        XCTAssertLessThan(page.firstIndex(of: "About")!, page.firstIndex(of: "Title")!, "cell after cell")
    }

    func testNestedTablesStayReadableAndDeepNestingIsBounded() {
        let lines = dump("<table><tr><td>outer</td><td><table><tr><td>in1</td><td>in2</td></tr></table></td></tr></table>")
        XCTAssertTrue(lines.contains { $0.contains("outer") && $0.contains("in1 in2") }, lines.joined(separator: "\n"))
        let deep = String(repeating: "<table><tr><td>x<td>", count: 200) + "core" + String(repeating: "</table>", count: 200)
        let document = Document.parse(html: deep, baseURL: nil)
        XCTAssertTrue(document.text.contains("core"))
    }

    func testAnchorsInsideTablesPointAtTheTable() throws {
        let document = Document.parse(html: "<p>before</p><table><tr><td>a</td><td id=cell>b</td></tr></table>",
                                      baseURL: nil)
        let offset = try XCTUnwrap(document.characterOffset(ofAnchor: "cell"))
        XCTAssertLessThanOrEqual(offset, Array(document.text).firstIndex(of: "a")!)
        XCTAssertGreaterThanOrEqual(offset, "before".count)
    }

    // MARK: Text layout

    func testRulesSpanTheWidth() {
        for width in [40, 72, 100] {
            let lines = dump("<p>a</p><hr><p>b</p><blockquote><hr></blockquote>", width: width)
            XCTAssertTrue(lines.contains(String(repeating: "─", count: width)), "\(width)")
            XCTAssertTrue(lines.contains(String(repeating: " ", count: 4) + String(repeating: "─", count: width - 4)))
        }
    }

    func testCentreAndRightAlignment() {
        let lines = dump("""
            <p align=center>middle</p><center>also middle</center>
            <div style="font-weight: bold; text-align:right">edge</div><p align=left>left</p>
            """, width: 40)
        XCTAssertTrue(lines.contains(String(repeating: " ", count: 17) + "middle"), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains(String(repeating: " ", count: 14) + "also middle"))
        XCTAssertTrue(lines.contains(String(repeating: " ", count: 36) + "edge"))
        XCTAssertTrue(lines.contains("left"))
        let runs = Document.parse(html: "<p align=right>r</p>", baseURL: nil).runs
        XCTAssertEqual(runs.first?.style.alignment, .right, "the view gets the alignment too")
    }

    func testDumpWrapsProseButKeepsPreformattedLines() {
        let words = String(repeating: "lorem ipsum ", count: 40)
        let code = "let x = [1, 2, 3].map { $0 * 2 }  // " + String(repeating: "long comment ", count: 10)
        let text = Document.parse(html: "<p>\(words)<a href='http://e.org/'>link</a></p><pre>\(code)<a href='http://e.org/x'>call</a>(y)\nnext</pre>",
                                  baseURL: nil).dumpText(width: 50)
        let lines = text.components(separatedBy: "\n")
        let prose = lines.prefix { !$0.hasPrefix("let x") }
        XCTAssertTrue(prose.allSatisfy { $0.count <= 50 }, "prose wraps at the width")
        let codeLine = try? XCTUnwrap(lines.first { $0.hasPrefix("let x") })
        XCTAssertEqual(codeLine, code + "call(y) [2]",
                       "preformatted lines stay whole, and a link number goes to the end of the line")
        XCTAssertTrue(lines.contains("next"))
        XCTAssertTrue(text.contains("References"), "the reference list stays")
    }

    func testEastAsianTextWrapsBetweenCharacters() {
        let text = Document.parse(html: "<p>" + String(repeating: "日本語の文章", count: 30) + "</p>", baseURL: nil)
            .dumpText(width: 40)
        let lines = text.components(separatedBy: "\n").filter { !$0.isEmpty }
        XCTAssertGreaterThan(lines.count, 8)
        XCTAssertTrue(lines.allSatisfy { $0.count * 2 <= 40 }, "each line fits 40 columns")
    }

    func testDumpWidthChoice() {
        XCTAssertEqual(DumpWidth.choose(option: 100, outputIsTerminal: true, terminalColumns: 120, columnsVariable: "90"), 100)
        XCTAssertEqual(DumpWidth.choose(option: nil, outputIsTerminal: true, terminalColumns: 120, columnsVariable: "90"), 120)
        XCTAssertEqual(DumpWidth.choose(option: nil, outputIsTerminal: true, terminalColumns: 0, columnsVariable: "90"), 90)
        XCTAssertEqual(DumpWidth.choose(option: nil, outputIsTerminal: true, terminalColumns: nil, columnsVariable: nil), 80)
        XCTAssertEqual(DumpWidth.choose(option: nil, outputIsTerminal: false, terminalColumns: 120, columnsVariable: "90"), 80,
                       "a pipe gets 80 columns")
        XCTAssertEqual(DumpWidth.choose(option: nil, outputIsTerminal: true, terminalColumns: 5, columnsVariable: nil), 20)
    }
}
