import Foundation
@testable import GtkProgressCore
import TestSupport
import XCTest

/// Numbers a page writes in its attributes are hostile: `<ol start=9223372036854775807>` once stopped the viewer
/// with an arithmetic overflow. Each is read by HTML's rules and held to a range; no value may trap.
final class HostileNumberTests: XCTestCase {
    static let baseURL = URL(string: "http://example.org/")!

    private func dump(_ html: String, width: Int = 80) -> String {
        Document.parse(html: html, baseURL: Self.baseURL).dumpText(width: width)
    }

    // MARK: HTML's rules for parsing integers

    /// The specification's steps: whitespace skipped, a sign, digits, and whatever follows ignored.
    func testRulesForParsingIntegers() {
        let all = Int.min...Int.max
        XCTAssertEqual(HTMLInteger.parse("42", clampedTo: all), 42)
        XCTAssertEqual(HTMLInteger.parse(" \t\n42px", clampedTo: all), 42)
        XCTAssertEqual(HTMLInteger.parse("+7", clampedTo: all), 7)
        XCTAssertEqual(HTMLInteger.parse("-3", clampedTo: all), -3)
        XCTAssertEqual(HTMLInteger.parse("3.9", clampedTo: all), 3)
        XCTAssertNil(HTMLInteger.parse("x3", clampedTo: all))
        XCTAssertNil(HTMLInteger.parse("", clampedTo: all))
        XCTAssertNil(HTMLInteger.parse("-", clampedTo: all))
        XCTAssertNil(HTMLInteger.parse("+-1", clampedTo: all))
        XCTAssertNil(HTMLInteger.parse(nil, clampedTo: all))
        // U+00A0 is not ASCII whitespace: no number.
        XCTAssertNil(HTMLInteger.parse("\u{A0}5", clampedTo: all))
        XCTAssertEqual(HTMLInteger.parse("9223372036854775807", clampedTo: all), Int.max)
        XCTAssertEqual(HTMLInteger.parse("-9223372036854775808", clampedTo: all), Int.min)
        XCTAssertEqual(HTMLInteger.parse("9223372036854775808", clampedTo: all), Int.max)
        XCTAssertEqual(HTMLInteger.parse("-9223372036854775809", clampedTo: all), Int.min)
        XCTAssertEqual(HTMLInteger.parse(String(repeating: "9", count: 10_000), clampedTo: all), Int.max)
        XCTAssertEqual(HTMLInteger.parse("-" + String(repeating: "9", count: 10_000), clampedTo: all), Int.min)
        XCTAssertEqual(HTMLInteger.parse("1e308", clampedTo: all), 1)
        XCTAssertEqual(HTMLInteger.parse("5000", clampedTo: 0...1000), 1000)
        XCTAssertEqual(HTMLInteger.parse("-5000", clampedTo: 0...1000), 0)
    }

    func testRulesForParsingNonNegativeIntegers() {
        XCTAssertEqual(HTMLInteger.nonNegative("0", clampedTo: 0...1000), 0)
        XCTAssertEqual(HTMLInteger.nonNegative("-0", clampedTo: 0...1000), 0)
        XCTAssertNil(HTMLInteger.nonNegative("-1", clampedTo: 0...1000))
        XCTAssertNil(HTMLInteger.nonNegative("-9223372036854775807", clampedTo: 0...1000))
        XCTAssertEqual(HTMLInteger.nonNegative("9223372036854775807", clampedTo: 0...1000), 1000)
        XCTAssertEqual(HTMLInteger.nonNegative("7", clampedTo: 10...1000), 10)
    }

    // MARK: The pages that stopped the viewer

    func testListNumbersAtTheExtremes() {
        let top = dump("<ol start=9223372036854775807><li>x<li>y</ol>")
        XCTAssertTrue(top.contains("2147483647. x"), top)
        XCTAssertTrue(top.contains("2147483648. y"), top)
        let value = dump("<ol><li value=9223372036854775807>x<li>y</ol>")
        XCTAssertTrue(value.contains("2147483647. x"), value)
        let reversed = dump("<ol reversed start=-9223372036854775807><li>x<li>y</ol>")
        XCTAssertTrue(reversed.contains("-2147483648. x"), reversed)
        XCTAssertTrue(reversed.contains("-2147483649. y"), reversed)
        // Letters and Roman numerals for numbers that large or small.
        XCTAssertTrue(dump("<ol type=a start=9223372036854775807><li>x</ol>").contains("fxshrxw. x"))
        XCTAssertTrue(dump("<ol type=I start=9223372036854775807><li>x</ol>").contains("2147483647. x"))
        XCTAssertTrue(dump("<ol start=' 12abc'><li>x</ol>").contains("12. x"))
    }

    func testTableSpacingAndPaddingAtTheExtremes() {
        for attributes in ["cellpadding=4611686018427387904", "cellspacing=9223372036854775807",
                           "cellspacing=-9223372036854775807", "border cellpadding=-9223372036854775807",
                           "border=1 cellpadding=9223372036854775807 cellspacing=9223372036854775807"] {
            let text = dump("<table \(attributes)><tr><td>left<td>right</table>")
            XCTAssertTrue(text.contains("left") && text.contains("right"), "\(attributes): \(text)")
        }
        // Padding past a few pixels is capped at four columns on each side of a bordered cell.
        let padded = dump("<table border=1 cellpadding=4611686018427387904><tr><td>a<td>b</table>")
        XCTAssertTrue(padded.contains("    a    "), padded)
    }

    func testSpansAtTheExtremes() {
        // colspan past 1000 is 1000; 0 or a negative number is 1 (HTML's table model).
        let wide = Document.parse(html: "<table><tr><td colspan=9223372036854775807>a<td>b</table>",
                                  baseURL: Self.baseURL)
        XCTAssertTrue(wide.dumpText(width: 80).contains("a"))
        let zero = dump("<table><tr><td colspan=0>a<td colspan=-5>b<tr><td>c<td>d</table>")
        XCTAssertTrue(zero.contains("a") && zero.contains("d"), zero)
        let rows = dump("<table><tr><td rowspan=9223372036854775807>a<td>b<tr><td>c</table>")
        XCTAssertTrue(rows.contains("a") && rows.contains("c"), rows)
        let negativeRows = dump("<table><tr><td rowspan=-9223372036854775808>a<td>b<tr><td>c</table>")
        XCTAssertTrue(negativeRows.contains("c"), negativeRows)
    }

    // MARK: Fuzzing every numeric attribute

    static let extremes = ["9223372036854775807", "-9223372036854775807", "-9223372036854775808",
                           "9223372036854775808", "4611686018427387904", "18446744073709551616", "2147483647",
                           "-2147483648", "2147483648", "65534", "65535", "1000", "1001", "0", "-0", "-1", "1e308",
                           "99999999999999999999999999999999999999", "", " 3", "+5", "NaN", "inf", "100%",
                           "9223372036854775807%", "-5%", "0x7fffffff"]

    /// Every numeric attribute of the document model at every extreme, alone and with its neighbours, in every
    /// list numbering, dumped at widths from 1 to 200: nothing traps, and the text is all there.
    func testEveryNumericAttributeAtTheExtremes() {
        var random = SeededRandom(seed: 29)
        var pages = 0
        for value in Self.extremes {
            for type in ["1", "a", "A", "i", "I"] {
                for reversed in ["", " reversed"] {
                    let html = "<ol type=\(type) start='\(value)'\(reversed)><li>one<li value='\(value)'>two"
                        + "<li>three</ol>"
                    let text = dump(html, width: 1 + random.next(200))
                    XCTAssertTrue(text.contains("three"), html)
                    pages += 1
                }
            }
            for border in ["", " border", " border=0", " border='\(value)'"] {
                let html = "<table\(border) cellpadding='\(value)' cellspacing='\(value)' width='\(value)'>"
                    + "<tr><td colspan='\(value)' rowspan='\(value)' width='\(value)'>cell<td>next"
                    + "<tr><td colspan='\(value)'>below<td rowspan='\(value)'>last</table>"
                for width in [1, 2, 10, 80, 200] {
                    let text = dump(html, width: width)
                    XCTAssertTrue(text.contains("last") || text.contains("la"), "\(html) at \(width): \(text)")
                    pages += 1
                }
            }
        }
        // Random mixtures of the same numbers in nested tables and lists.
        for _ in 0..<500 {
            var html = ""
            for _ in 0..<(1 + random.next(6)) {
                let value = { Self.extremes[random.next(Self.extremes.count)] }
                if random.next(2) == 0 {
                    html += "<ol start='\(value())' type=\(["1", "a", "I"][random.next(3)])><li value='\(value())'>x"
                } else {
                    html += "<table border='\(value())' cellpadding='\(value())' cellspacing='\(value())'><tr>"
                        + "<td colspan='\(value())' rowspan='\(value())'>y"
                }
            }
            _ = dump(html + "end", width: 1 + random.next(200))
            pages += 1
        }
        XCTAssertEqual(pages, Self.extremes.count * (10 + 20) + 500)
    }

    /// A numeric character reference beyond U+10FFFF is U+FFFD (HTML's numeric character reference end state),
    /// however many digits it has: the text after it stays, in text, attributes and the parts gumbo reads alone
    /// (a long table's row chunks), and nothing that is not UTF-8 reaches the document.
    func testCharacterReferencesBeyondUnicode() {
        let references = ["&#2147483648;", "&#4294967295;", "&#4294967296;", "&#9223372036854775807;",
                          "&#99999999999999999999999;", "&#x9223372036854775807;", "&#x110000;", "&#1114112;",
                          "&#x100000000", "&#00000000000000000001114112;"]
        for reference in references {
            let text = dump("<p>before \(reference) after</p><p><a href=\"/a\(reference)z\">link</a> END")
            XCTAssertTrue(text.contains("before \u{FFFD} after"), "\(reference): \(text.debugDescription)")
            XCTAssertTrue(text.contains("/a%EF%BF%BDz"), "\(reference) in an address: \(text.debugDescription)")
            XCTAssertTrue(text.contains("END"), reference)
        }
        // Those in range are gumbo's to read, as before: U+10FFFF, leading zeros, a reference with no digits.
        XCTAssertTrue(dump("<p>a &#1114111; &#0000000000000000000065; &#x; b").contains("a \u{10FFFF} A &#x; b"))
        // Rows of a long table are parsed a chunk at a time, each on its own: the guard is at the one parse.
        var rows = ""
        for n in 0..<3000 { rows += "<tr><td>row \(n) &#2147483648;<td>cell</tr>" }
        let table = dump("<table>\(rows)</table>END")
        XCTAssertTrue(table.contains("row 2999 \u{FFFD}"), String(table.suffix(300)))
        XCTAssertFalse(table.contains("row 5 &"))
        Array("<p>&#233; &#x10FFFF; &amp; &#".utf8).withUnsafeBufferPointer {
            XCTAssertNil(NumericReferences.boundedCopy($0), "a page without such a reference is parsed as it is")
        }
    }

    /// The hostile pages kept under Tests/Fixtures/hostile each read to the end.
    func testHostileFixturePages() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/hostile")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".html") }
        XCTAssertFalse(names.isEmpty)
        for name in names {
            let html = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            XCTAssertTrue(dump(html).contains("END"), name)
        }
    }
}

/// One width rule: East Asian Wide and Fullwidth, emoji presented as pictures included, are two columns, in
/// `--dump` and in table columns.
final class TextWidthTests: XCTestCase {
    func testTheWidthOfCharactersTerminalsDrawTwoColumnsWide() {
        for wide in ["中", "한", "あ", "ａ", "🚀", "☕", "⚡", "😀", "\u{20000}", "\u{3400}"] {
            XCTAssertTrue(isWide(wide.unicodeScalars.first!.value), wide)
        }
        for narrow in ["a", "é", "Ж", "α", "→", "☺", "½", "\u{FF61}"] {
            XCTAssertFalse(isWide(narrow.unicodeScalars.first!.value), narrow)
        }
    }

    /// A bordered table holding emoji and CJK: every line of it is as wide as the others, so the rules line up.
    func testATableWithEmojiAndCJKKeepsItsRulesInLine() {
        let html = "<table border=1><tr><th>Name<th>Icon<tr><td>rocket<td>🚀<tr><td>coffee ☕<td>⚡ fast"
            + "<tr><td>中文<td>한국어</table>"
        let dump = Document.parse(html: html, baseURL: nil).dumpText(width: 80)
        let lines = dump.split(separator: "\n").filter { !$0.isEmpty }
        XCTAssertEqual(lines.count, 9, "a rule above, between and below four rows:\n\(dump)")
        let widths = Set(lines.map { line in line.unicodeScalars.reduce(0) { $0 + (isWide($1.value) ? 2 : 1) } })
        XCTAssertEqual(widths.count, 1, "every line of the table is as wide:\n\(dump)")
    }
}
