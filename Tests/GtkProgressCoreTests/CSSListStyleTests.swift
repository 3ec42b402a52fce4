import FoundationEssentials
import XCTest
@testable import GtkProgressCore

/// `list-style-type` (CSS Lists 3, CSS Counter Styles 3) and the `display` values text can show (CSS Display 3),
/// through the document model as `--dump` prints it.
final class CSSListStyleTests: XCTestCase {
    private func dump(_ html: String, styles: PageStyleOptions = PageStyleOptions()) -> String {
        Document.parse(html: html, baseURL: URL(string: "https://example.org/page.html"), styles: styles)
            .dumpText(width: 80)
    }

    /// The dump's non-empty lines, without the indentation the list's depth gives them.
    private func lines(_ html: String, styles: PageStyleOptions = PageStyleOptions()) -> [String] {
        dump(html, styles: styles).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// Three items of a `ul` and of an `ol` with `list-style-type: value`: both show the same markers, which the
    /// type decides and not the kind of list.
    private func assertMarkers(_ value: String, _ expected: [String], file: StaticString = #filePath,
                               line: UInt = #line) {
        for list in ["ul", "ol"] {
            let page = "<style>.x { list-style-type: \(value) }</style><\(list) class=x><li>one<li>two<li>three</\(list)>"
            let items = ["one", "two", "three"]
            let want = zip(expected, items).map { $0.isEmpty ? $1 : $0 + " " + $1 }
            XCTAssertEqual(lines(page), want, "\(list) with \(value)", file: file, line: line)
        }
    }

    func testDisc() { assertMarkers("disc", ["•", "•", "•"]) }
    func testCircle() { assertMarkers("circle", ["◦", "◦", "◦"]) }
    func testSquare() { assertMarkers("square", ["▪", "▪", "▪"]) }
    func testDecimal() { assertMarkers("decimal", ["1.", "2.", "3."]) }
    func testDecimalLeadingZero() { assertMarkers("decimal-leading-zero", ["01.", "02.", "03."]) }
    func testLowerAlpha() { assertMarkers("lower-alpha", ["a.", "b.", "c."]) }
    func testLowerLatin() { assertMarkers("lower-latin", ["a.", "b.", "c."]) }
    func testUpperAlpha() { assertMarkers("upper-alpha", ["A.", "B.", "C."]) }
    func testUpperLatin() { assertMarkers("upper-latin", ["A.", "B.", "C."]) }
    func testLowerRoman() { assertMarkers("lower-roman", ["i.", "ii.", "iii."]) }
    func testUpperRoman() { assertMarkers("upper-roman", ["I.", "II.", "III."]) }
    func testLowerGreek() { assertMarkers("lower-greek", ["α.", "β.", "γ."]) }
    func testNone() { assertMarkers("none", ["", "", ""]) }
    func testDisclosure() {
        assertMarkers("disclosure-closed", ["▸", "▸", "▸"])
        assertMarkers("disclosure-open", ["▾", "▾", "▾"])
    }
    func testStringMarker() { assertMarkers("'– '", ["–", "–", "–"]) }
    /// A counter style this engine does not define (`armenian`, or one from `@counter-style`) reads as
    /// `decimal` (CSS Counter Styles 3 §3); a value that is no `list-style-type` at all is ignored.
    func testUnknownNamesAreDecimalAndInvalidValuesIgnored() {
        assertMarkers("armenian", ["1.", "2.", "3."])
        XCTAssertEqual(lines("<style>ol { list-style-type: 12px }</style><ol><li>one</ol>"), ["1. one"])
        XCTAssertEqual(lines("<style>ul { list-style-type: decimal square }</style><ul><li>one</ul>"), ["• one"])
    }

    /// The `list-style` shorthand: the type in any place among position and image, `none`, and a type left out
    /// reset to `disc` (CSS Lists 3 §3.4), which on an `ol` means bullets, as in browsers.
    func testShorthand() {
        XCTAssertEqual(lines("<style>ul { list-style: inside upper-roman }</style><ul><li>a<li>b</ul>"), ["I. a", "II. b"])
        XCTAssertEqual(lines("<style>ol { list-style: none }</style><ol><li>a</ol>"), ["a"])
        XCTAssertEqual(lines("<style>ol { list-style: outside url(dot.png) }</style><ol><li>a</ol>"), ["• a"])
    }

    /// The type inherits from the list to its items (and on through elements between them); a list's own HTML
    /// default wins over what the list would inherit (HTML § 15.3.8 sets it on `ul` and `ol`), and `inherit`
    /// takes the parent's.
    func testInheritance() {
        XCTAssertEqual(lines("<style>ul { list-style-type: decimal }</style><ul><li>a<li>b</ul>"), ["1. a", "2. b"])
        XCTAssertEqual(lines("<style>ol { list-style-type: upper-roman }</style><ol><li>a<li>b<li>c</ol>"),
                       ["I. a", "II. b", "III. c"])
        XCTAssertEqual(lines("<style>div { list-style-type: square }</style><div><ul><li>a</ul><ol><li>b</ol></div>"),
                       ["• a", "1. b"], "an ancestor's type does not reach past a list's own default")
        XCTAssertEqual(lines("<style>div { list-style-type: square } ul { list-style-type: inherit }</style>"
                             + "<div><ul><li>a</ul></div>"), ["▪ a"])
        XCTAssertEqual(lines("<style>ol { list-style-type: lower-alpha } li.r { list-style-type: upper-roman }</style>"
                             + "<ol><li>a<li class=r>b<li>c</ol>"), ["a. a", "II. b", "c. c"],
                       "an item's own type; the counter counts every item")
        XCTAssertEqual(lines("<style>ul.plain { list-style-type: none } ul.plain ul { list-style-type: square }</style>"
                             + "<ul class=plain><li>top<ul><li>inner</ul></ul>"), ["top", "▪ inner"])
    }

    /// HTML's `type` attribute on `ol`, `ul` and `li` (HTML § 15.3.8's presentational hints): the same styles, and
    /// any author rule for the element wins over it.
    func testTypeAttributeAndCSSWinsOverIt() {
        XCTAssertEqual(lines("<ol type=a><li>x<li>y</ol>"), ["a. x", "b. y"])
        XCTAssertEqual(lines("<ol type=I><li>x<li>y</ol>"), ["I. x", "II. y"])
        XCTAssertEqual(lines("<ol type=i start=4><li>x</ol>"), ["iv. x"])
        XCTAssertEqual(lines("<ol type=A><li>x</ol>"), ["A. x"])
        XCTAssertEqual(lines("<ol type=x><li>x</ol>"), ["1. x"], "an unknown type is no hint")
        XCTAssertEqual(lines("<ul type=SQUARE><li>x</ul><ul type=circle><li>y</ul>"), ["▪ x", "◦ y"])
        XCTAssertEqual(lines("<ol><li>x<li type=a>y<li>z</ol>"), ["1. x", "b. y", "3. z"])
        XCTAssertEqual(lines("<style>ol { list-style-type: upper-roman }</style><ol type=a><li>x<li>y</ol>"),
                       ["I. x", "II. y"], "the author's rule wins over the attribute")
        XCTAssertEqual(lines("<style>li { list-style-type: square }</style><ol><li type=i>x</ol>"), ["▪ x"])
        XCTAssertEqual(lines("<style>ol { list-style-type: upper-roman }</style><ol type=a><li>x</ol>", styles: .off),
                       ["a. x"], "without author styles the attribute applies")
    }

    /// Numbers from the page are clamped to 32 bits, and a style that cannot show a number (roman past 3999, the
    /// alphabetic ones below 1) falls back to decimal (CSS Counter Styles 3 §3.1.5): nothing traps.
    func testHostileNumbers() {
        let max = "9223372036854775807", min = "-9223372036854775808"
        XCTAssertEqual(lines("<ol type=A start=\(max)><li>a<li>b</ol>"), ["FXSHRXW. a", "FXSHRXX. b"])
        XCTAssertEqual(lines("<ol type=I start=\(max)><li>a</ol>"), ["2147483647. a"])
        XCTAssertEqual(lines("<ol type=i start=3999><li>a<li>b</ol>"), ["mmmcmxcix. a", "4000. b"])
        XCTAssertEqual(lines("<ol type=a start=\(min)><li>a</ol>"), ["-2147483648. a"])
        XCTAssertEqual(lines("<ol type=a reversed start=1><li>a<li>b<li>c</ol>"), ["a. a", "0. b", "-1. c"])
        XCTAssertEqual(lines("<style>ol { list-style-type: lower-greek }</style><ol><li value=\(max)>a<li>b</ol>"),
                       ["λεππξεη. a", "λεππξεθ. b"])
        XCTAssertEqual(lines("<style>ol { list-style-type: decimal-leading-zero }</style><ol reversed><li>a<li>b<li>c</ol>"),
                       ["03. a", "02. b", "01. c"])
        XCTAssertEqual(lines("<style>ol { list-style-type: decimal-leading-zero }</style><ol start=-1><li>a<li>b</ol>"),
                       ["-1. a", "00. b"])
        XCTAssertEqual(lines("<style>ul { list-style-type: upper-roman }</style><ul><li value=\(min)>a<li>b</ul>"),
                       ["-2147483648. a", "-2147483647. b"])
    }

    // MARK: display

    /// `display: list-item` (CSS Display 3 §2.3) gives any block or inline element a marker in its
    /// `list-style-type`, counted among its siblings, or as an item of the list it is in.
    func testDisplayListItem() {
        XCTAssertEqual(lines("<style>.i { display: list-item }</style><div class=i>a</div><div class=i>b</div>"),
                       ["• a", "• b"])
        XCTAssertEqual(lines("<style>.i { display: list-item; list-style-type: decimal }</style>"
                             + "<div class=i>a</div><span class=i>b</span><p>after</p>"), ["1. a", "2. b", "after"])
        XCTAssertEqual(lines("<style>.i { display: list-item }</style><ol><li>a<div class=i>b</div><li>c</ol>"),
                       ["1. a", "2. b", "3. c"])
        XCTAssertEqual(lines("<style>li { display: block }</style><ul><li>a<li>b</ul>"), ["a", "b"],
                       "an li that is no list item has no marker")
        // The items' text is not left indented after them.
        XCTAssertEqual(dump("<style>.i { display: list-item }</style><div class=i>a</div><p>after</p>")
            .split(separator: "\n").last, "after")
    }

    /// `inline-block` (§2.1) stays on its line, as inline text does.
    func testDisplayInlineBlock() {
        XCTAssertEqual(lines("<style>.b { display: inline-block }</style><div>before <div class=b>box</div> after</div>"),
                       ["before box after"])
        XCTAssertEqual(lines("<style>li { display: inline-block }</style><ul><li>a<li>b</ul>"), ["ab"])
    }

    /// `contents` (§2.5): the element's box is gone and its children stay; a block shown so forces no break.
    func testDisplayContents() {
        XCTAssertEqual(lines("<style>.c { display: contents }</style><div>before <div class=c>inside <b>bold</b></div> "
                             + "after <blockquote class=c>quote</blockquote> <h2 class=c>head</h2></div>"),
                       ["before inside bold after quote head"])
        let heading = Document.parse(html: "<style>h2 { display: contents }</style><h2>Head</h2>", baseURL: nil)
        XCTAssertEqual(heading.runs.first { $0.text.contains("Head") }?.style.bold, true, "a heading's weight stays")
        XCTAssertEqual(lines("<style>li { display: contents }</style><ul><li>a<li>b</ul>"), ["ab"])
    }

    /// `table`, `table-row` and `table-cell` on elements that are no HTML table parts (§2.4) make a table: its
    /// rows are lines and its cells columns.
    func testDisplayTableRowAndCell() {
        let page = """
            <style>.t { display: table } .r { display: table-row } .c { display: table-cell }</style>
            <div class=t><div class=r><div class=c>Name</div><div class=c>Size</div></div>
            <div class=r><div class=c>apple</div><div class=c>12 kilograms</div></div></div>
            """
        XCTAssertEqual(dump(page).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) },
                       ["Name  Size", "apple 12 kilograms"])
        XCTAssertEqual(lines(page, styles: .off), ["Name", "Size", "apple", "12 kilograms"])
        // The window's tables: rows of tab-separated cells, as an HTML table's.
        let window = Document.parse(html: page, baseURL: nil, tabbedTables: true)
        XCTAssertTrue(window.text.contains("Name\tSize\napple\t12 kilograms"), window.text)
        XCTAssertEqual(window.tables.count, 1)
        // Cells with no row in a table are one row of it (CSS 2.1 §17.2.1's anonymous row).
        XCTAssertEqual(lines("<style>.t { display: table } .c { display: table-cell }</style>"
                             + "<div class=t><p class=c>left</p><p class=c>right</p></div>"), ["left right"])
    }

    /// With no table around them, rows still start lines and a row's cells stay on its line, apart (CSS 2.1
    /// §17.2.1 would wrap them in an anonymous table); cells with neither read as one line of cells.
    func testDisplayTablePartsWithoutATable() {
        XCTAssertEqual(lines("""
            <style>.r { display: table-row } .c { display: table-cell }</style>
            <div class=r><span class=c>a1</span><span class=c>b1</span></div>
            <div class=r><span class=c>a2</span><span class=c>b2</span></div>
            <p><span class=c>x</span><span class=c>y</span>z</p>
            """), ["a1 b1", "a2 b2", "x y z"])
        // A row inside a cell of an HTML table is no row of that table.
        XCTAssertEqual(lines("""
            <style>.r { display: table-row }</style>
            <table><tr><td>left</td><td><div class=r>one</div><div class=r>two</div></td></tr></table>
            """), ["left one", "two"])
    }

    /// Row groups and captions are blocks; `table-column` shows nothing (CSS 2.1 §17.2.1 rule 1); HTML's own
    /// table elements keep their roles.
    func testDisplayOtherTableParts() {
        XCTAssertEqual(lines("""
            <style>.g { display: table-row-group } .cap { display: table-caption } .col { display: table-column }</style>
            <span class=cap>caption</span><span class=g>group</span><div class=col>column</div>
            """), ["caption", "group"])
        XCTAssertEqual(lines("<style>td { display: table-row }</style><table><tr><td>a</td><td>b</td></tr></table>"),
                       ["a b"])
    }
}
