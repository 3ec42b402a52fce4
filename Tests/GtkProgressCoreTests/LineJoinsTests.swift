@testable import GtkProgressCore
import XCTest

/// Which line breaks a text view holds as line separators (`LineJoins`): runs of short lines share a buffer line,
/// lines beginning in another run never do, and a buffer line stays short.
final class LineJoinsTests: XCTestCase {
    static let plain = TextStyle()
    static let bold: TextStyle = { var style = TextStyle(); style.bold = true; return style }()

    /// The line breaks of `text` (one run, or runs ending at `cuts`, of `styles`; a nil style keeps its lines to
    /// themselves) that become separators, fed in pieces of at most `pieces` bytes, into a view that holds
    /// `LineJoins.threshold` lines already unless `full` is false.
    private func joined(_ text: String, cuts: [Int] = [], styles: [TextStyle?]? = nil, full: Bool = true,
                        pieces: Int = .max) -> [Int] {
        let bytes = Array(text.utf8)
        var joins = LineJoins(bufferLines: full ? LineJoins.threshold : 1)
        var found: [Int] = []
        let bounds = [0] + cuts + [bytes.count]
        let styles = styles ?? Array(repeating: Self.plain, count: bounds.count - 1)
        bytes.withUnsafeBufferPointer { buffer in
            for k in 0..<(bounds.count - 1) {
                let run = bounds[k]..<bounds[k + 1]
                let next = k + 1 < styles.count ? styles[k + 1] : nil
                var at = run.lowerBound
                while at < run.upperBound {
                    let end = min(run.upperBound, at + min(pieces, run.count))
                    found += joins.separators(in: buffer, piece: at..<end, run: run, style: styles[k],
                                              nextStyle: next)
                    at = end
                }
            }
        }
        return found
    }

    func testShortLinesOfOneRunShareABufferLine() {
        // "x\n\nx\n\nx": every break but none at the end.
        XCTAssertEqual(joined("x\n\nx\n\nx\n"), [1, 2, 4, 5])
    }

    func testLinesOfRunsOfOneStyleJoinAcrossTheRuns() {
        // Two runs alike: "a\nb\n" and "c\nd\n".
        XCTAssertEqual(joined("a\nb\nc\nd\n", cuts: [4]), [1, 3, 5])
    }

    func testALineBeginningInAnotherStyleBeginsABufferLine() {
        // "a\nb\n" plain, "c\nd\n" bold: c begins a buffer line of its own, which d joins.
        XCTAssertEqual(joined("a\nb\nc\nd\n", cuts: [4], styles: [Self.plain, Self.bold]), [1, 5])
        // "Hello " bold, "world\nnext\nmore\n" plain: the line "Hello world" began in bold, "next" in plain.
        XCTAssertEqual(joined("Hello world\nnext\nmore\n", cuts: [6], styles: [Self.bold, Self.plain]), [16])
    }

    func testNothingIsJoinedWhenInactiveOrNotJoinable() {
        XCTAssertEqual(joined("x\n\nx\n\nx\n", full: false), [])
        XCTAssertEqual(joined("x\n\nx\n\nx\n", styles: [nil]), [])
        // A heading's line (nil: it keeps its line) between plain ones joins nothing and is joined to nothing.
        XCTAssertEqual(joined("a\nb\nH\nc\nd\n", cuts: [4, 6], styles: [Self.plain, nil, Self.plain]), [1, 7])
    }

    func testABufferLineTakesAtMostSoManyLines() {
        let text = String(repeating: "x\n", count: 200)
        let found = joined(text)
        // Every 64th break is kept: 200 lines make four buffer lines.
        XCTAssertEqual(found.count, 199 - 3)
        XCTAssertFalse(found.contains(2 * LineJoins.maximumLines - 1), "the 64th break stays a newline")
    }

    func testABufferLineStaysShortInBytes() {
        let long = String(repeating: "y", count: 1500)
        // A short line joined by a 1,500-byte one (1,503 bytes in all); the next 1,500-byte line would take the
        // buffer line past 2,048 bytes, so it begins one of its own, which z then joins.
        XCTAssertEqual(joined("x\n\(long)\n\(long)\nz\n"), [1, 3003])
    }

    func testLinesAreJoinedOnceTheViewHoldsSoMany() {
        let text = String(repeating: "x\n", count: LineJoins.threshold + 100)
        let found = joined(text, full: false)
        XCTAssertEqual(found.first, 2 * (LineJoins.threshold - 1) + 1, "the first break joined follows line 4,096")
        // 100 breaks after it but the last: every one joined but the one that ends a buffer line of 64 lines.
        XCTAssertEqual(found.count, 99)
    }

    /// Pango makes no line of a separator ending a paragraph: a blank line is never the last of a buffer line.
    func testNoBufferLineEndsWithABlankLine() {
        for text in [String(repeating: "x\n\n", count: 200), String(repeating: "x\n\n", count: 10) + "The end",
                     (0..<300).map { "w\($0)\n" + String(repeating: "\n", count: $0 % 4) }.joined()] {
            let bytes = Array(text.utf8)
            let found = Set(joined(text))
            XCTAssertFalse(found.isEmpty)
            for k in found where k + 1 < bytes.count && bytes[k + 1] == 0x0A {
                XCTAssertTrue(found.contains(k + 1), "the blank line after byte \(k) ends its buffer line")
            }
        }
        // The break before the last blank line stays: the page's last line has no break to join with.
        let text = String(repeating: "x\n\n", count: 10) + "The end"
        XCTAssertFalse(joined(text).contains(text.utf8.count - 9))
    }

    func testPiecesOfAnySizeGiveTheSameSeparators() {
        let text = (0..<300).map { "line \($0)\n" + ($0 % 7 == 0 ? "\n" : "") }.joined()
        let styles: [TextStyle?] = [Self.plain, Self.bold, Self.plain]
        let whole = joined(text, cuts: [1000, 1800], styles: styles)
        for size in [1, 3, 17, 256] {
            XCTAssertEqual(joined(text, cuts: [1000, 1800], styles: styles, pieces: size), whole,
                           "pieces of \(size) bytes")
        }
    }

    func testAfterARestartTheLineBeingWrittenTakesNoMore() {
        let bytes = Array("a\nb\nc\nd\n".utf8)
        var joins = LineJoins(bufferLines: LineJoins.threshold)
        bytes.withUnsafeBufferPointer { buffer in
            XCTAssertEqual(joins.separators(in: buffer, piece: 0..<2, run: 0..<8, style: Self.plain, nextStyle: nil),
                           [1])
            // The view took out what followed the separator (a progressive render's cut) and starts again.
            joins.restart(bufferLines: LineJoins.threshold)
            // The break after b ends a line whose start is not known: kept; c and d join again.
            XCTAssertEqual(joins.separators(in: buffer, piece: 2..<8, run: 0..<8, style: Self.plain, nextStyle: nil),
                           [5])
        }
    }
}
