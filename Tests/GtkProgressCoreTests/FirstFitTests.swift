@testable import GtkProgressCore
import XCTest

/// `FirstFit`: the one greedy rule, asked in columns by `TextColumns.wrap` and in pixels by
/// `TabbedRows.breakWords`.
final class FirstFitTests: XCTestCase {
    /// Where each line after the first begins (piece indexes) and each line's width.
    private func lines(_ pieces: [(Int, Int)], firstLine: Int, otherLines: Int) -> (breaks: [Int], widths: [Int]) {
        var fit = FirstFit(firstLine: firstLine, otherLines: otherLines)
        var breaks: [Int] = [], widths: [Int] = []
        for (index, piece) in pieces.enumerated() {
            if let width = fit.place(from: piece.0, to: piece.1) {
                breaks.append(index)
                widths.append(width)
            }
        }
        widths.append(fit.lineWidth)
        return (breaks, widths)
    }

    func testALineTakesPiecesWhileTheyFitAndTheFirstLineHasItsOwnRoom() {
        // "aa bbb c dddd" in columns: pieces at 0–2, 3–6, 7–8, 9–13.
        let pieces = [(0, 2), (3, 6), (7, 8), (9, 13)]
        XCTAssertEqual(lines(pieces, firstLine: 8, otherLines: 8).breaks, [3])
        XCTAssertEqual(lines(pieces, firstLine: 8, otherLines: 8).widths, [8, 4])
        // Exactly the room fits; one column less does not.
        XCTAssertEqual(lines(pieces, firstLine: 13, otherLines: 13).breaks, [])
        XCTAssertEqual(lines(pieces, firstLine: 12, otherLines: 12).breaks, [3])
        // A narrower first line (a hanging list marker) and wider lines after it.
        XCTAssertEqual(lines(pieces, firstLine: 2, otherLines: 6).breaks, [1, 3])
        XCTAssertEqual(lines(pieces, firstLine: 2, otherLines: 6).widths, [2, 5, 4])
    }

    func testAPieceWiderThanTheRoomGetsALineOfItsOwn() {
        let result = lines([(0, 1), (2, 12), (13, 14)], firstLine: 4, otherLines: 4)
        XCTAssertEqual(result.breaks, [1, 2])
        XCTAssertEqual(result.widths, [1, 10, 1])
    }

    /// The same words measured in columns by the dump and in pixels (6 a column) by the window's cells break
    /// in the same places.
    func testColumnsAndPixelsBreakAlike() {
        let text = "one two three four five six seven eight nine ten"
        let words = text.split(separator: " ")
        var starts: [Int] = [], ends: [Int] = [], position = 0
        for word in words {
            starts.append(position * 6)
            ends.append((position + word.count) * 6)
            position += word.count + 1
        }
        for width in [3, 9, 12, 17, 30, 60] {
            var dumpBreaks: [Int] = [], wordIndex = 0
            let utf8 = Array(text.utf8)
            utf8.withUnsafeBufferPointer { buffer in
                TextColumns.wrap(buffer, firstLine: width, otherLines: width) { range, _ in
                    let before = buffer[..<range.lowerBound].filter { $0 == 0x20 }.count
                    if before > 0 { dumpBreaks.append(before) }
                    wordIndex += 1
                }
            }
            let cellBreaks = TabbedRows.breakWords(starts: starts, ends: ends,
                                                    breakable: words.indices.map { $0 > 0 }, width: width * 6)
            XCTAssertEqual(dumpBreaks, cellBreaks, "width \(width)")
            XCTAssertEqual(wordIndex, cellBreaks.count + 1, "width \(width)")
        }
    }
}
