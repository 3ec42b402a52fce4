import Foundation
@testable import GtkProgressCore
import XCTest

/// Text GTK lays out badly is cut in the document model into pieces it lays out well, so `--dump`, the window and
/// find read the same text: tabs in preformatted text become spaces, overlong lines are broken, runs of combining
/// marks past the stream-safe limit are trimmed.
final class DocumentLongTextTests: XCTestCase {
    static let baseURL = URL(string: "http://example.org/dir/page.html")!
    let limit = RunWriter.longestLine

    private func parse(_ html: String) -> Document { Document.parse(html: html, baseURL: Self.baseURL) }

    private func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Tabs expanded by hand, one column per character: the reference the model must match on ASCII text.
    private func expandTabs(_ line: String) -> String {
        var out = ""
        for character in line {
            if character == "\t" {
                repeat { out.append(" ") } while out.count % 8 != 0
            } else {
                out.append(character)
            }
        }
        return out
    }

    // MARK: Tabs

    func testTabsInPreformattedTextGoToTheNextMultipleOfEightColumns() {
        XCTAssertEqual(parse("<pre>a\tb\n\tc\nabcdefgh\ti\n1234567\t|</pre>").text,
                       "a       b\n        c\nabcdefgh        i\n1234567 |")
        // Columns, not bytes nor characters: a wide character takes two, a combining mark none.
        XCTAssertEqual(parse("<pre>日本\tx\ne\u{301}\ty</pre>").text, "日本    x\ne\u{301}       y")
        // The column counts across inline elements and entities of the same line.
        XCTAssertEqual(parse("<pre><b>ab</b>c&amp;\td</pre>").text, "abc&    d")
        XCTAssertEqual(Document.plainText("x\ty\r\n\tz").text, "x       y\n        z")
        // Outside preformatted text a tab is whitespace that collapses, as before.
        XCTAssertEqual(parse("<p>a\t\tb</p>").text, "a b")
    }

    /// 1 MB of tabs in tab-separated lines reads as the same lines with spaces, column for column, in the
    /// model and in the dump.
    func testAMegabyteOfTabsExpandsLineByLine() {
        var source: [String] = []
        var size = 0
        var row = 0
        while size < 1 << 20 {
            let line = "\(row)\t\t\(String(repeating: "c", count: row % 11))\t\t\t\t\t|\t"
            source.append(line)
            size += line.utf8.count + 1
            row += 1
        }
        let document = parse("<pre>" + source.joined(separator: "\n") + "</pre>")
        XCTAssertFalse(document.text.contains("\t"))
        let expected = source.map(expandTabs)
        XCTAssertEqual(lines(document.text).map(String.init), expected)
        let dumped = lines(document.dumpText()).filter { !$0.isEmpty }
        XCTAssertEqual(dumped.count, expected.count)
        XCTAssertEqual(dumped.first.map(String.init), expected.first.map { String($0.dropLast(7)) },
                       "the dump drops only the spaces a line ends with")
    }

    /// A megabyte of nothing but tabs on one line: eight spaces each, in lines no longer than the model allows.
    func testAMegabyteOfTabsOnOneLineIsSpacesInBoundedLines() {
        let document = Document.plainText(String(repeating: "\t", count: 1 << 20))
        let bytes = document.storage.bytes
        XCTAssertEqual(bytes.count, 8 << 20, "every tab is eight spaces; a line break takes a space's place")
        XCTAssertFalse(bytes.contains(0x09))
        XCTAssertTrue(lines(document.text).allSatisfy { $0.count <= limit + RunWriter.breakSearch })
    }

    // MARK: Long lines

    /// A 50,000-character paragraph is broken at spaces into lines of at most `longestLine` characters; only
    /// spaces became line breaks, and the dump (which wraps within them) keeps every word.
    func testALongParagraphBreaksAtSpaces() {
        let words = (0..<10_000).map { ["word", "text", "long", "line"][$0 % 4] }
        let paragraph = words.joined(separator: " ")
        XCTAssertEqual(paragraph.count, 49_999)
        let document = parse("<p>\(paragraph)</p>")
        let broken = lines(document.text)
        XCTAssertGreaterThanOrEqual(broken.count, 25)
        XCTAssertTrue(broken.allSatisfy { $0.count <= limit }, "longest: \(broken.map(\.count).max() ?? 0)")
        XCTAssertTrue(broken.dropLast().allSatisfy { $0.count > limit - RunWriter.breakSearch },
                      "each break is at the last space near the limit")
        XCTAssertTrue(broken.allSatisfy { !$0.hasPrefix(" ") && !$0.hasSuffix(" ") })
        XCTAssertEqual(document.text.replacingOccurrences(of: "\n", with: " "), paragraph)
        XCTAssertEqual(document.dumpText().split(whereSeparator: { $0 == " " || $0 == "\n" }).count, 10_000)
    }

    /// With no space, the line breaks hard at the limit, between characters: never inside a UTF-8 sequence, never
    /// between a letter and its accent.
    func testALongLineWithoutSpacesBreaksBetweenCharacters() {
        let x = parse("<pre>\(String(repeating: "x", count: 50_000))</pre>").text
        XCTAssertEqual(lines(x).map(\.count), Array(repeating: limit, count: 25))

        let accented = parse("<p>\(String(repeating: "é", count: 50_000))</p>").storage.bytes
        XCTAssertEqual(Array(String(decoding: accented, as: UTF8.self).utf8), accented, "valid UTF-8")
        XCTAssertEqual(lines(String(decoding: accented, as: UTF8.self)).map(\.count),
                       Array(repeating: limit, count: 25))

        let decomposed = parse("<pre>\(String(repeating: "e\u{301}", count: 25_000))</pre>").text
        let pieces = lines(decomposed)
        XCTAssertGreaterThan(pieces.count, 20)
        XCTAssertTrue(pieces.allSatisfy { $0.unicodeScalars.first == "e" && $0.unicodeScalars.last == "\u{301}" },
                      "every line starts with a base and ends with its mark")
        XCTAssertTrue(pieces.allSatisfy { $0.unicodeScalars.count <= limit + 1 })
    }

    /// The breaks do not depend on how the text arrives: split by inline elements, by entities, or whole.
    func testBreaksAreTheSameWhateverPiecesTheTextArrivesIn() {
        let words = (0..<6_000).map { "w\($0 % 97)" }
        let whole = parse("<p>\(words.joined(separator: " "))</p>")
        let split = parse("<p>" + words.enumerated().map { $0.offset % 7 == 3 ? "<b>\($0.element)</b>" : $0.element }
            .joined(separator: " ") + "</p>")
        let entities = parse("<p>\(words.joined(separator: "&#32;"))</p>")
        XCTAssertTrue(lines(whole.text).count > 10)
        XCTAssertEqual(split.text, whole.text)
        XCTAssertEqual(entities.text, whole.text)
        var html = "<pre>" + String(repeating: "ab<i>cd</i>\tef", count: 5_000) + "</pre>"
        let fast = html.withUTF8 { DocumentBuilder.build(source: $0, baseURL: nil) }
        let plain = html.withUTF8 { DocumentBuilder.build(source: $0, baseURL: nil, placeholders: false) }
        XCTAssertEqual(fast.text, plain.text)
        XCTAssertEqual(fast.runs, plain.runs)
    }

    /// Links and anchors keep their places: a break only turns a space into a line break or adds one at the end.
    func testBreaksKeepLinksAndAnchors() throws {
        let filler = String(repeating: "filler ", count: 400)
        let document = parse("<p>\(filler)<a href=/x id=here>target <b>words</b></a> \(filler)</p>")
        XCTAssertTrue(document.text.contains("\n"))
        let offset = try XCTUnwrap(document.characterOffset(ofAnchor: "here"))
        let scalars = Array(document.text.unicodeScalars)
        XCTAssertEqual(String(String.UnicodeScalarView(scalars[offset..<(offset + 12)])), "target words")
        let linked = document.runs.filter { $0.style.link == 0 }.map(\.text).joined()
        XCTAssertEqual(linked.replacingOccurrences(of: "\n", with: " "), "target words")
    }

    // MARK: Combining marks

    /// 100 stacked marks keep the first 30 (UAX #15's stream-safe limit) and one "…" for the rest.
    func testStackedCombiningMarksAreTrimmedPastThirty() {
        // U+0300 to U+034E: all non-starters (U+034F, the grapheme joiner, is a starter).
        let marks = (0..<100).map { Character(Unicode.Scalar(0x300 + $0 % 0x4F)!) }
        func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }
        let document = parse("<p>a\(String(marks))b</p>")
        XCTAssertEqual(scalars(document.text), scalars("a" + String(marks.prefix(30)) + "…b"))
        // Split across elements, the run is the same run.
        let split = parse("<p>a\(String(marks.prefix(20)))<i>\(String(marks.dropFirst(20)))</i>b</p>")
        XCTAssertEqual(scalars(split.text), scalars(document.text))
        // Thirty is allowed; each starter begins a new count; in preformatted text too.
        let thirty = "o" + String(repeating: "\u{308}", count: 30)
        XCTAssertEqual(scalars(parse("<p>\(thirty)\(thirty)</p>").text), scalars(thirty + thirty))
        XCTAssertEqual(scalars(parse("<pre>x\(String(repeating: "\u{316}", count: 40))</pre>").text),
                       scalars("x" + String(repeating: "\u{316}", count: 30) + "…"))
        // A page of nothing but marks is a bounded line, not megabytes of stacking.
        let zalgo = parse("<p>\(String(repeating: "\u{301}", count: 100_000))</p>")
        XCTAssertEqual(zalgo.text.unicodeScalars.count, 31)
    }
}
