@testable import GtkProgressCore
import XCTest

/// `TextColumns`: the width of a grapheme cluster as terminals draw it, and the one greedy wrapper that `--dump`
/// and table cells share.
final class TextColumnsTests: XCTestCase {
    private func columns(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { TextColumns.columns($0) }
    }

    private func dump(_ html: String, width: Int) -> [String] {
        Document.parse(html: html, baseURL: nil, layoutWidth: width).dumpText(width: width)
            .components(separatedBy: "\n")
    }

    /// What a terminal such as VTE or xterm draws: a ZWJ sequence, a flag and an emoji with its skin tone are one
    /// picture two columns wide; U+FE0F makes a text-default character a picture; combining marks take no column.
    func testAClusterTakesTheColumnsATerminalDrawsItIn() {
        let expected: [(String, Int)] = [
            ("a", 1), ("é", 1), ("e\u{301}", 1), ("e\u{301}\u{302}", 1), ("中", 2), ("ａ", 2), ("☕", 2), ("🚀", 2),
            ("👩‍💻", 2), ("👨‍👩‍👧‍👦", 2), ("🇯🇵", 2), ("🇫🇷🇯🇵", 4), ("👍🏽", 2), ("❤", 1), ("❤️", 2), ("1️⃣", 2),
            ("\u{1100}\u{1161}\u{11A8}", 2), ("\u{200D}", 0), ("\u{301}", 0), ("café 中文", 9),
        ]
        for (text, width) in expected {
            XCTAssertEqual(columns(text), width, text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
        }
    }

    /// Pieces a line may break around: words between spaces, and each two-column cluster alone, never a part of one.
    func testBreakablePiecesKeepClustersWhole() {
        var text = "ab 👩‍💻中x  🇯🇵"
        var pieces: [(String, Int, Int)] = []
        text.withUTF8 { bytes in
            TextColumns.forEachBreakablePiece(bytes) { range, columns, spaces in
                pieces.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self), columns, spaces))
            }
        }
        XCTAssertEqual(pieces.map(\.0), ["ab", "👩‍💻", "中", "x", "🇯🇵"])
        XCTAssertEqual(pieces.map(\.1), [2, 2, 2, 1, 2])
        XCTAssertEqual(pieces.map(\.2), [0, 1, 0, 0, 2])
    }

    /// A bordered table holding ZWJ sequences, flags, emoji, CJK and combining marks: every line of it takes as
    /// many columns as the others, so its rules line up in a terminal.
    func testATableWithEmojiClustersCJKAndCombiningMarksKeepsItsRulesAligned() {
        let html = "<table border=1><tr><th>Who<th>Where<th>What"
            + "<tr><td>👩‍💻 coder<td>🇯🇵 日本<td>☕ coffee"
            + "<tr><td>e\u{301}le\u{300}ve<td>한국어<td>❤️ 👍🏽"
            + "<tr><td>中文 text<td>🇫🇷<td>n\u{303}o\u{308}</table>"
        let lines = dump(html, width: 80).filter { !$0.isEmpty }
        XCTAssertEqual(lines.count, 9, "a rule above, between and below four rows:\n\(lines.joined(separator: "\n"))")
        let widths = Set(lines.map(columns))
        XCTAssertEqual(widths.count, 1, "every line of the table is as wide:\n\(lines.joined(separator: "\n"))")
        XCTAssertTrue(lines.contains { $0.contains("👩‍💻 coder") && $0.contains("🇯🇵 日本") })
    }

    /// The same wrapper breaks a paragraph in `--dump` and a cell in a table: at the width, between clusters,
    /// never inside a ZWJ sequence or a flag.
    func testDumpAndCellsWrapBetweenClustersWithinTheWidth() {
        let emoji = String(repeating: "👩‍💻🇯🇵☕中", count: 12)
        let paragraph = dump("<p>\(emoji)", width: 20).filter { !$0.isEmpty }
        XCTAssertGreaterThan(paragraph.count, 1)
        XCTAssertTrue(paragraph.allSatisfy { columns($0) <= 20 }, paragraph.joined(separator: "\n"))
        XCTAssertEqual(paragraph.joined(), emoji, "every cluster kept whole")

        let table = dump("<table border=1><tr><td>\(emoji)<td>x</table>", width: 30).filter { !$0.isEmpty }
        XCTAssertTrue(table.allSatisfy { columns($0) == columns(table[0]) && columns($0) <= 30 },
                      table.joined(separator: "\n"))
        let cellText = table.dropFirst().dropLast().map { line in
            line.split(separator: "│", omittingEmptySubsequences: false)[1].trimmingCharacters(in: .whitespaces)
        }.joined()
        XCTAssertEqual(cellText, emoji, "every cluster kept whole in the cell:\n\(table.joined(separator: "\n"))")
    }

    /// One indentation rule: a list stands in as far inside a table cell as in the page, and the window asks the
    /// same rule for its margins.
    func testAListIsIndentedAlikeInThePageAndInACell() throws {
        let page = dump("<ul><li>item</ul>", width: 80)
        let pageLine = try XCTUnwrap(page.first { $0.contains("item") })
        let cell = dump("<table border=1><tr><td><ul><li>item</ul><td>other</table>", width: 80)
        let cellLine = try XCTUnwrap(cell.first { $0.contains("item") })
        let inPage = pageLine.prefix { $0 == " " }.count
        let inCell = cellLine.dropFirst(1).prefix { $0 == " " }.count
        XCTAssertEqual(Indentation.columns(level: 1), 4)
        XCTAssertEqual(inCell, inPage, "page:\n\(page.joined(separator: "\n"))\ncell:\n\(cell.joined(separator: "\n"))")
        XCTAssertEqual(Indentation.columns(level: 40), Indentation.columns(level: Indentation.deepestLevel))
    }
}
