import Foundation
@testable import GtkProgressCore
import XCTest

/// Text GTK lays out badly is cut in the document model into pieces it lays out well, so `--dump`, the window and
/// find read the same text: tabs in preformatted text become spaces.
final class DocumentLongTextTests: XCTestCase {
    static let baseURL = URL(string: "http://example.org/dir/page.html")!

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
}
