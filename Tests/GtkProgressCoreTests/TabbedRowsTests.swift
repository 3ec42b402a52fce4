import XCTest
@testable import GtkProgressCore

/// A window table's rows with cells wrapped inside their columns (`TabbedRows`, `CellWords`).
final class TabbedRowsTests: XCTestCase {
    /// The row as text: pieces of the cells' texts, tabs and newlines.
    private func text(_ cells: [String], _ pieces: [TabbedRows.Piece]) -> String {
        var result = String.UnicodeScalarView()
        for piece in pieces {
            switch piece {
            case .text(let cell, let range): result.append(contentsOf: Array(cells[cell].unicodeScalars)[range])
            case .tab: result.append("\t")
            case .newline: result.append("\n")
            }
        }
        return String(result)
    }

    private func cells(_ texts: [String], columns: [Int], breaks: [[Int]]) -> [TabbedRows.Cell] {
        zip(zip(texts, columns), breaks).map {
            TabbedRows.Cell(column: $0.1, length: $0.0.unicodeScalars.count, breaks: $1)
        }
    }

    func testAnUnbrokenRowIsTheCellsApartByTabsAsTheBuilderWritesIt() {
        let texts = ["one", "two words", "three"]
        let row = TabbedRows.arrange(cells(texts, columns: [0, 1, 2], breaks: [[], [], []]))
        XCTAssertEqual(text(texts, row.pieces), "one\ttwo words\tthree")
        XCTAssertEqual(row.continuations, [])
        // A missing cell leaves its column empty: a tab more.
        let gap = TabbedRows.arrange(cells(["a", "c"], columns: [0, 2], breaks: [[], []]))
        XCTAssertEqual(text(["a", "c"], gap.pieces), "a\t\tc")
    }

    func testBrokenCellsContinueOnLinesBelowInTheirColumnsAndTheRowKeepsItsLength() {
        // "alpha beta gamma" broken before "beta" (scalar 6) and "gamma" (11); "x y" before "y" (2).
        let texts = ["alpha beta gamma", "short", "x y"]
        let unbroken = TabbedRows.arrange(cells(texts, columns: [0, 1, 2], breaks: [[], [], []]))
        let broken = TabbedRows.arrange(cells(texts, columns: [0, 1, 2], breaks: [[6, 11], [], [2]]))
        XCTAssertEqual(text(texts, broken.pieces), "alpha\tshort\tx\nbeta\ty\ngamma")
        // Line 2 has parts of the first and third columns, line 3 of the first.
        XCTAssertEqual(broken.continuations, [[0, 2], [0]])
        // Each break's space became the newline or tab of a continuation: offsets after the row do not move.
        XCTAssertEqual(TabbedRows.length(broken.pieces), TabbedRows.length(unbroken.pieces))
        XCTAssertEqual(TabbedRows.length(unbroken.pieces), text(texts, unbroken.pieces).unicodeScalars.count)
        // Only a later column continuing: its line starts with its own part.
        let late = TabbedRows.arrange(cells(texts, columns: [0, 1, 2], breaks: [[], [], [2]]))
        XCTAssertEqual(text(texts, late.pieces), "alpha beta gamma\tshort\tx\ny")
        XCTAssertEqual(late.continuations, [[2]])
    }

    func testPositionsFollowEveryCharacterAndMarkTheSpacesBreaksTook() {
        let texts = ["ab cd", "e"]
        let row = cells(texts, columns: [0, 1], breaks: [[3], []])
        let arranged = TabbedRows.arrange(row)
        XCTAssertEqual(text(texts, arranged.pieces), "ab\te\ncd")
        let positions = TabbedRows.positions(row, arranged.pieces)
        XCTAssertEqual(positions[0], [0, 1, nil, 5, 6])
        XCTAssertEqual(positions[1], [3])
    }

    func testGreedyBreaksAtTheColumnWidth() {
        // Five words 10 px wide with 4 px spaces: 10, 24, 38, 52, 66 px on one line.
        let starts = [0, 14, 28, 42, 56], ends = [10, 24, 38, 52, 66]
        let breakable = [false, true, true, true, true]
        XCTAssertEqual(TabbedRows.breakWords(starts: starts, ends: ends, breakable: breakable, width: 100), [])
        XCTAssertEqual(TabbedRows.breakWords(starts: starts, ends: ends, breakable: breakable, width: 38), [3])
        XCTAssertEqual(TabbedRows.breakWords(starts: starts, ends: ends, breakable: breakable, width: 24), [2, 4])
        // Narrower than a word: one word a line, none cut.
        XCTAssertEqual(TabbedRows.breakWords(starts: starts, ends: ends, breakable: breakable, width: 5), [1, 2, 3, 4])
        // A word that may not start a line stays with the one before, and the line breaks before them both.
        XCTAssertEqual(TabbedRows.breakWords(starts: starts, ends: ends, breakable: [false, true, false, true, true],
                                             width: 24), [1, 3])
    }

    func testWordsBreakOnlyAtASingleSpaceAndIdeographsStayTogether() {
        let words = CellWords("Total  of 東京都 x")
        // "Total", "of" (two spaces before it: no break), "東京都" (one word, broken nowhere inside), "x".
        XCTAssertEqual(words.bytes.count, 4)
        XCTAssertEqual(words.breakable, [false, false, true, true])
        XCTAssertEqual(words.scalars, [0, 7, 10, 14])
        XCTAssertEqual(words.scalarCount, 15)
        let bytes: [UInt8] = Array("Total  of 東京都 x".utf8)
        XCTAssertEqual(Array(bytes[words.bytes[2]]), Array("東京都".utf8))
        // The narrowest width: "Total  of" together (its double space holds), wider than any single word.
        let starts = [0, 40, 64, 110], ends = [30, 56, 100, 118]
        XCTAssertEqual(words.narrowest(starts: starts, ends: ends), 56)
    }

    func testAZeroWidthSpaceIsAPlaceToBreakThatTheViewAsksPangoAbout() {
        let words = CellWords("東\u{200B}京 x-\u{200B}y")
        XCTAssertEqual(words.scalars, [0, 2, 4, 7])
        XCTAssertEqual(words.breakable, [false, true, true, true])
        XCTAssertEqual(words.marked, [1, 3], "the words after a single mark")
        XCTAssertEqual(words.scalarCount, 8)
    }
}
