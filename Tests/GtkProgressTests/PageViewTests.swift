import Foundation
@testable import GtkProgress
@testable import GtkProgressLoading
@testable import GtkProgressCore
import TestSupport
import XCTest

/// The page view in a real window under a display (Xvfb in CI): what it shows, its link tags, and the pointer.
/// `@MainActor` with async tests: the GTK layer is main-actor isolated, and XCTest on Linux runs async tests of a
/// main-actor class on the main thread (DESIGN.md, "Swift over GTK").
@MainActor
final class PageViewTests: XCTestCase {
    static let baseURL = URL(string: "http://example.org/dir/page.html")!
    private var window: Window!
    private var page: PageView!

    override func setUp() async throws {
        try requireDisplay()
        window = Window()
        window.setDefaultSize(width: 640, height: 480)
        page = PageView()
        window.add(page.root)
        window.showAll()
        XCTAssertTrue(MainLoop.run(until: { self.page.textView.width > 1 }, timeout: 5), "the window is laid out")
    }

    override func tearDown() async throws {
        window?.destroy()
        window = nil
        page = nil
        while MainLoop.iterate() {}
    }

    private func showAndWait(_ document: Document, scrollTo offset: Double? = nil) {
        page.show(document, scrollTo: offset)
        XCTAssertTrue(MainLoop.run(until: { self.page.isComplete }, timeout: 60), "the whole document goes in")
        settle()
    }

    /// The names of the tags on the first character of `fragment` in the page's text.
    private func tags(_ fragment: String) throws -> [String] {
        let text = page.text
        let index = try XCTUnwrap(text.range(of: fragment)).lowerBound
        return page.textView.tagNames(atCharacter: text.unicodeScalars.distance(from: text.unicodeScalars.startIndex,
                                                                                 to: index))
    }

    /// Lets GTK lay out and paint what is pending.
    private func settle() {
        let deadline = MainLoop.monotonicSeconds() + 0.2
        while MainLoop.monotonicSeconds() < deadline { if !MainLoop.iterate() { usleep(2000) } }
    }

    /// The page's colours are painted only while they keep 4.5:1 on the theme's background, and checked again when
    /// the theme changes: navy text in the light theme, the theme's own text colour in the dark one; yellow the
    /// other way round.
    func testPageColoursFollowTheThemeAndKeepContrast() async throws {
        let document = Document.parse(html: "<style>.n { color: navy } .y { color: #ff0 }</style>"
                                      + "<p class=n>navy</p><p class=y>yellow</p>", baseURL: Self.baseURL)
        Display.setPreferDarkTheme(false)
        defer { Display.setPreferDarkTheme(false); while MainLoop.iterate() {} }
        showAndWait(document)
        let navy = try XCTUnwrap(page.sharedTags[.pageColors(text: 0x000080, background: nil)])
        let yellow = try XCTUnwrap(page.sharedTags[.pageColors(text: 0xFFFF00, background: nil)])
        XCTAssertTrue(navy.colorsAreSet.foreground)
        XCTAssertFalse(yellow.colorsAreSet.foreground, "yellow on white is 1.07:1")
        XCTAssertFalse(navy.colorsAreSet.background)
        Display.setPreferDarkTheme(true)
        XCTAssertTrue(MainLoop.run(until: { !navy.colorsAreSet.foreground }, timeout: 5), "navy on the dark base is dropped")
        XCTAssertTrue(yellow.colorsAreSet.foreground)
        Display.setPreferDarkTheme(false)
        XCTAssertTrue(MainLoop.run(until: { navy.colorsAreSet.foreground }, timeout: 5), "and comes back in the light theme")
        XCTAssertFalse(yellow.colorsAreSet.foreground)
    }

    /// A window table's cells are measured, and its rows broken at their columns, in slices of bounded work per
    /// main-loop turn: when the page goes in and again when the text size changes.
    func testTablesAreMeasuredAndRebrokenInSlices() async throws {
        var rows = ""
        for r in 0..<200 {
            rows += "<tr>" + (0..<20).map { "<td>r\(r)c\($0) a few words</td>" }.joined() + "</tr>"
        }
        let document = Document.parse(html: "<table border=1>\(rows)</table>", baseURL: Self.baseURL,
                                      tabbedTables: true)
        XCTAssertEqual(document.tables.first?.cells.count, 4000)
        showAndWait(document)
        XCTAssertTrue(MainLoop.run(until: { !self.page.tables.pending }, timeout: 60), "the table is fitted")
        let budget = Int(PageView.fitBudget)
        // Twenty columns in 640 px: every row's cells wrap, 200 rows re-broken a few a turn.
        XCTAssertGreaterThan(page.text.components(separatedBy: "\n").count, 400, "the rows take several lines")
        // The row's first line holds a part of each of its 20 cells, 19 tabs apart.
        let firstLine = page.text.prefix { $0 != "\n" }
        XCTAssertEqual(firstLine.filter { $0 == "\t" }.count, 19, String(firstLine))
        XCTAssertTrue(firstLine.hasPrefix("r0c0"), String(firstLine))
        XCTAssertLessThanOrEqual(page.tables.mostRowsInAStep, budget / 10)
        XCTAssertGreaterThanOrEqual(page.tables.steps, 200 / (budget / 10))
        let width = page.tables.measuredAt
        page.tables.steps = 0
        page.tables.mostCellsInAStep = 0
        page.setZoom(1.5)
        XCTAssertTrue(MainLoop.run(until: { self.page.tables.measuredAt != width && !self.page.tables.pending },
                                   timeout: 60), "the table is measured again at the new size")
        XCTAssertLessThanOrEqual(page.tables.mostCellsInAStep, budget, "no turn measures more than its share")
        XCTAssertGreaterThanOrEqual(page.tables.steps, 4000 / budget, "the 4,000 cells took several turns")
        XCTAssertEqual(page.text.prefix { $0 != "\n" }.filter { $0 == "\t" }.count, 19)
        page.setZoom(1)
    }

    /// A table's `width="100%"` stretches it across the room, as in the dump's grid (`TableLayout.columnWidths`):
    /// its columns share what their words leave, in proportion to their widths; without it, a table of short cells
    /// is only as wide as they are. A cell's `width="N%"` fixes its column's share.
    func testATableWidthInPercentStretchesItAcrossTheRoom() async throws {
        func widths(_ attributes: String, _ first: String = "<td>Prev</td>") throws -> (widths: [Int], room: Int) {
            let document = Document.parse(html: "<table \(attributes)><tr>\(first)<th>Manual</th><td>Next</td></tr>"
                                              + "</table>", baseURL: Self.baseURL, tabbedTables: true)
            showAndWait(document)
            XCTAssertTrue(MainLoop.run(until: { !self.page.tables.pending }, timeout: 30), "the table is fitted")
            let fitted = try XCTUnwrap(page.tables.fitted[0])
            return (fitted.widths, fitted.room)
        }
        let natural = try widths("")
        XCTAssertLessThan(natural.widths.reduce(0, +), natural.room / 2, "short cells: a narrow table")
        let full = try widths("width=100%")
        XCTAssertEqual(full.widths.reduce(0, +), full.room, "the whole room")
        XCTAssertTrue(zip(full.widths, natural.widths).allSatisfy { $0 > $1 }, "every column wider: \(full.widths)")
        let half = try widths("width=50%")
        // Half of the table's whole width, the two gaps between its columns included.
        let gaps = 2 * PageView.tableGap
        XCTAssertLessThanOrEqual(abs(half.widths.reduce(0, +) + gaps - (half.room + gaps) / 2), 1,
                                 "half the room: \(half.widths) in \(half.room)")
        let fixed = try widths("width=100%", "<td width=10%>Prev</td>")
        XCTAssertLessThan(abs(fixed.widths[0] - fixed.room / 10), 3, "the first column a tenth: \(fixed.widths)")
        XCTAssertEqual(fixed.widths.reduce(0, +), fixed.room)
    }

    /// A link is drawn in the theme's link colour and underlined, unless its own rules say otherwise: docutils'
    /// heading links (`a.toc-backref { text-decoration: none; color: black }`) read as headings, as in Dillo and
    /// NetSurf. A link the page colours keeps its colour once visited; the theme's links turn the visited colour.
    func testALinksOwnRulesDecideItsUnderlineAndColour() async throws {
        let document = Document.parse(html: """
            <style>a.back { text-decoration: none; color: black } a.red { color: #a00000 }</style>
            <h1><a class=back href="#top">Heading link</a></h1>
            <p><a href="a.html">theme link</a> and <a class=red href="b.html">red link</a></p>
            """, baseURL: Self.baseURL)
        showAndWait(document)
        XCTAssertTrue(try tags("theme link").contains("link"))
        XCTAssertTrue(try tags("theme link").contains("underline"))
        XCTAssertFalse(try tags("Heading link").contains("underline"), "its rules take the underline away")
        XCTAssertFalse(try tags("Heading link").contains("link"), "and colour it")
        let heading = try tags("Heading link")
        XCTAssertTrue(heading.contains { $0.hasPrefix("page-colors:0/") }, heading.description)
        XCTAssertTrue(try tags("red link").contains("underline"))
        XCTAssertTrue(try tags("red link").contains { $0.hasPrefix("page-colors:a00000/") })
        page.markVisited(URL(string: "http://example.org/dir/a.html")!)
        page.markVisited(URL(string: "http://example.org/dir/b.html")!)
        XCTAssertTrue(try tags("theme link").contains("visited"))
        XCTAssertFalse(try tags("red link").contains("visited"), "the page's colour stays")
    }

    /// A heading is bold through the `.bold` tag, so the page's `font-weight: normal` takes the weight away; a
    /// background set on a block fills its lines (GtkTextTag's `paragraph-background`), an inline one only its text.
    func testHeadingWeightAndBlockBackgrounds() async throws {
        let document = Document.parse(html: """
            <style>h2.n { font-weight: normal; background-color: #BED4EB } span.m { background-color: #ffff80 }</style>
            <h1>Bold heading</h1><h2 class=n>Normal heading</h2><p>a <span class=m>marked</span> word</p>
            """, baseURL: Self.baseURL)
        showAndWait(document)
        XCTAssertTrue(try tags("Bold heading").contains("bold"))
        XCTAssertFalse(try tags("Normal heading").contains("bold"))
        XCTAssertTrue(try tags("Normal heading").contains("h2"))
        let band = try XCTUnwrap(page.sharedTags[.pageColors(text: nil, background: 0xBED4EB, block: true)])
        XCTAssertTrue(try tags("Normal heading").contains(band.name))
        XCTAssertTrue(try XCTUnwrap(page.sharedTags[.pageColors(text: nil, background: 0xFFFF80)]).colorsAreSet.background,
                      "an inline background is the text's")
        XCTAssertFalse(band.colorsAreSet.background, "a block's is its lines'")
        XCTAssertTrue(band.colorsAreSet.paragraphBackground)
    }

    func testShowsTheTextWithAClickableLink() async throws {
        let document = Document.parse(html: """
            <title>T</title><h1>Heading</h1><p>Some <b>bold</b> text and <a href="next.html">a link here</a>.</p>
            <ul><li>item</li></ul>
            """, baseURL: Self.baseURL)
        showAndWait(document)
        XCTAssertEqual(page.text, document.text)
        let location = try XCTUnwrap(page.linkLocation(index: 0), "the link has its tag")
        XCTAssertTrue(page.textView.tagNames(atWindowX: Double(location.x), y: Double(location.y)).contains("link:0"))

        var hovered: [URL?] = []
        var activated: [URL] = []
        page.onLinkHover = { hovered.append($0) }
        page.onLinkActivated = { activated.append($0) }
        let next = URL(string: "http://example.org/dir/next.html")!

        page.textView.simulatePointerMotion(x: Double(location.x), y: Double(location.y))
        XCTAssertEqual(hovered, [next], "hovering a link reports its URL")
        page.textView.simulatePointerMotion(x: Double(location.x) + 1, y: Double(location.y))
        XCTAssertEqual(hovered, [next], "moving within the link reports nothing new")
        page.textView.simulatePointerMotion(x: 2, y: 2)
        XCTAssertEqual(hovered, [next, nil], "leaving the link reports nil")

        page.textView.simulateButtonRelease(x: Double(location.x), y: Double(location.y), button: 3)
        XCTAssertEqual(activated, [], "only the first button follows links")
        page.textView.simulateButtonRelease(x: Double(location.x), y: Double(location.y))
        XCTAssertEqual(activated, [next], "a click on the link follows it")

        page.textView.selectAll()
        page.textView.simulateButtonRelease(x: Double(location.x), y: Double(location.y))
        XCTAssertEqual(activated, [next], "a release that ends a selection does not follow the link")
    }

    func testWideCharactersInMonospaceKeepThePageFace() async throws {
        let document = Document.parse(html: """
            <p>Say <code>ab日本cd</code> and <a href="x.html"><code>x語y</code></a>.</p><pre>ｗｉｄｅ 1</pre>
            """, baseURL: Self.baseURL)
        showAndWait(document)
        XCTAssertEqual(page.text, document.text)
        let text = Array(page.text)
        func tags(_ character: Character, after start: Int = 0) throws -> [String] {
            let offset = try XCTUnwrap(text[start...].firstIndex(of: character), "\(character) is on the page")
            return page.textView.tagNames(atCharacter: offset)
        }
        for narrow in ["a", "d", "x", "y", "1"] as [Character] {
            XCTAssertTrue(try tags(narrow, after: 3).contains("mono"), "\(narrow) is monospace")
        }
        for wide in ["日", "本", "語", "ｗ"] as [Character] {
            XCTAssertFalse(try tags(wide).contains("mono"), "\(wide) keeps the page's face")
        }
        XCTAssertTrue(try tags("語").contains("link"), "a wide character keeps the run's other tags")
        XCTAssertTrue(try tags("ｗ").contains("pre"))
        XCTAssertEqual(page.linkRanges.count, 1, "the link is one range however its tags are split")
    }

    /// A ZWJ sequence or a flag in monospace text is one cluster two columns wide: all of its characters, the
    /// joiner included, stay in the page's face, so the sequence is drawn as one picture.
    func testEmojiSequencesInMonospaceStayInOneFace() async throws {
        let document = Document.parse(html: "<p><code>a👩‍💻b🇯🇵c</code></p>", baseURL: Self.baseURL)
        showAndWait(document)
        let scalars = Array(page.text.unicodeScalars)
        func tags(_ scalar: Unicode.Scalar) throws -> [String] {
            let offset = try XCTUnwrap(scalars.firstIndex(of: scalar), "U+\(String(scalar.value, radix: 16))")
            return page.textView.tagNames(atCharacter: offset)
        }
        for narrow in ["a", "b", "c"] as [Unicode.Scalar] {
            XCTAssertTrue(try tags(narrow).contains("mono"), "\(narrow) is monospace")
        }
        for part in ["\u{1F469}", "\u{200D}", "\u{1F4BB}", "\u{1F1EF}", "\u{1F1F5}"] as [Unicode.Scalar] {
            XCTAssertFalse(try tags(part).contains("mono"), "U+\(String(part.value, radix: 16)) keeps the page's face")
        }
    }

    func testANewDocumentReplacesTextAndLinkTags() async {
        let first = Document.parse(html: "<p><a href='a'>A</a> <a href='b'>B</a></p>", baseURL: Self.baseURL)
        showAndWait(first)
        XCTAssertNotNil(page.linkLocation(index: 1))
        let second = Document.parse(html: "<p>No links here</p>", baseURL: Self.baseURL)
        showAndWait(second)
        XCTAssertEqual(page.text, "No links here")
        XCTAssertNil(page.linkLocation(index: 0), "the old document's link tags are gone")
        showAndWait(first)
        XCTAssertNotNil(page.linkLocation(index: 1), "link tags can be made again")
    }

    /// A large page goes in slice by slice: the first screen is there at once and the main loop keeps turning.
    /// How long it takes is measured by `make bench`; `PAGE_VIEW_BYTES=5000000` tries a bigger page here.
    func testLargePageIsInsertedInSlicesWhileTheLoopTurns() async {
        let bytes = ProcessInfo.processInfo.environment["PAGE_VIEW_BYTES"].flatMap { Int($0) } ?? 1_000_000
        let html = GeneratedPage.html(bytes: bytes, textHeavy: false)
        let document = Document.parse(html: html, baseURL: Self.baseURL)
        let started = MainLoop.monotonicSeconds()
        page.show(document, scrollTo: nil)
        XCTAssertFalse(page.isComplete, "only the first slice goes in at once")
        XCTAssertGreaterThan(page.textView.characterCount, 1000, "the first screen is there")
        var turns = 0
        while !page.isComplete && MainLoop.monotonicSeconds() - started < 300 {
            if !MainLoop.iterate() { usleep(1000) }
            turns += 1
        }
        XCTAssertTrue(page.isComplete)
        XCTAssertGreaterThan(turns, 10, "the insertion was spread over many turns of the loop")
        settle()
        XCTAssertEqual(page.text, document.text)
    }

    /// A page of many short paragraphs holds them in far fewer buffer lines (`LineJoins`): past the first lines,
    /// runs of short lines of one style share a buffer line through line separators, which keep every character
    /// offset; a heading and a list item still begin buffer lines of their own, and the page's text reads as the
    /// document's.
    func testManyShortParagraphsShareBufferLines() async {
        let before = String(repeating: "<p>x", count: 10_000)
        let after = String(repeating: "<p>y", count: 10_000)
        let html = before + "<h2>Heading</h2><ul><li>item one<li>item two</ul>" + after + "<p>The end"
        let document = Document.parse(html: html, baseURL: Self.baseURL)
        showAndWait(document)
        let documentLines = document.text.utf8.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        XCTAssertGreaterThan(documentLines, 40_000)
        XCTAssertLessThan(page.textView.lineCount, LineJoins.threshold + documentLines / 30,
                          "past the first lines, dozens of lines share each buffer line")
        XCTAssertEqual(page.textView.characterCount, document.text.unicodeScalars.count, "every offset kept")
        XCTAssertEqual(page.text, document.text)
        let raw = Array(page.textView.text.unicodeScalars)
        for fragment in ["Heading", "item one", "item two"] {
            let start = document.text.unicodeScalars.firstRange(of: fragment.unicodeScalars)!.lowerBound
            var k = document.text.unicodeScalars.distance(from: document.text.unicodeScalars.startIndex, to: start)
            // A list item's line begins with its marker.
            while k > 0 && raw[k - 1] != "\n" && raw[k - 1] != LineJoins.separatorScalar { k -= 1 }
            XCTAssertEqual(raw[k - 1], "\n", "\(fragment) begins a buffer line of its own")
        }
        XCTAssertTrue(page.textView.text.unicodeScalars.contains(LineJoins.separatorScalar))
    }

    /// A `text/plain` page of short lines is one run and shares buffer lines the same way (a 3 MB file of one-letter
    /// lines took 602 MB in the window when each line was a buffer line and two runs of the document); its lines
    /// stay monospace, unwrapped and in order, and the page's text reads as the file's.
    func testAPlainTextPageOfShortLinesSharesBufferLines() async {
        let lines = (0..<20_000).map { "line \($0)" }
        let document = Document.plainText(lines.joined(separator: "\n") + "\n\nlast line")
        XCTAssertEqual(document.storage.runCount, 1, "the lines and their breaks are one run")
        showAndWait(document)
        XCTAssertLessThan(page.textView.lineCount, LineJoins.threshold + 20_000 / 30,
                          "past the first lines, dozens of lines share each buffer line")
        XCTAssertTrue(page.textView.text.unicodeScalars.contains(LineJoins.separatorScalar))
        XCTAssertEqual(page.textView.characterCount, document.text.unicodeScalars.count, "every offset kept")
        XCTAssertEqual(page.text, document.text)
        // The lines keep their shape: each joined one is as high as a line of its own, in the monospace face.
        let text = Array(page.textView.text.unicodeScalars)
        let start = page.textView.characterCount - "last line".count - 2 - "line 19999".count
        XCTAssertEqual(text[start - 1], LineJoins.separatorScalar, "line 19999 shares its buffer line")
        let above = start - "line 19998".count - 1
        let y0 = page.textView.rectangles(fromCharacter: above, to: above + 1).first?.y
        let y1 = page.textView.rectangles(fromCharacter: start, to: start + 1).first?.y
        XCTAssertNotNil(y0)
        XCTAssertGreaterThan(y1 ?? 0, y0 ?? .infinity, "a joined line is drawn below the one before it")
    }

    /// A slice ends after a bounded number of tagged stretches, not only after 32 KB: GtkTextBuffer's cost goes
    /// by tag application, so 16 KB of alternating bold and italic words (6,000 stretches) do not go in at once
    /// in the turn that shows the page.
    func testATagDensePageGoesInSeveralSlices() async {
        let words = (0..<3000).map { "<b>w\($0 % 10)</b> <i>x</i>" }.joined(separator: " ")
        let document = Document.parse(html: "<p>\(words)</p>", baseURL: Self.baseURL)
        XCTAssertLessThan(document.text.utf8.count, 32 * 1024, "the page is smaller than one slice of bytes")
        page.show(document, scrollTo: nil)
        XCTAssertFalse(page.isComplete, "the first slice stopped at its tagged stretches")
        XCTAssertGreaterThan(page.textView.characterCount, 500, "the first slice's lines are there")
        let started = MainLoop.monotonicSeconds()
        while !page.isComplete && MainLoop.monotonicSeconds() - started < 60 {
            if !MainLoop.iterate() { usleep(1000) }
        }
        XCTAssertTrue(page.isComplete)
        settle()
        XCTAssertEqual(page.text, document.text)
    }

    /// After the first, a slice is a few KB and ends at a line break: GtkTextView lays out what a slice put in
    /// paragraph by paragraph in its own idle turns, so a small slice keeps each of those turns short, and a
    /// paragraph is not laid out once cut and again whole. A 200 KB paragraph is lines of at most
    /// `RunWriter.longestLine` characters in the model.
    func testSlicesAfterTheFirstAreSmallAndEndAtLineBreaks() async {
        let words = String(repeating: "lorem ipsum dolor sit amet ", count: 8000)
        let document = Document.parse(html: "<p>\(words)</p>", baseURL: Self.baseURL)
        XCTAssertGreaterThan(document.text.utf8.count, 200_000)
        page.show(document, scrollTo: nil)
        XCTAssertFalse(page.isComplete)
        var shown = page.textView.characterCount
        XCTAssertGreaterThan(shown, 16_000, "the first slice is large: the first screen is there at once")
        XCTAssertTrue(page.text.hasSuffix("\n"), "the first slice ends at a line break")
        var slices: [Int] = []
        let started = MainLoop.monotonicSeconds()
        while !page.isComplete && MainLoop.monotonicSeconds() - started < 60 {
            if !MainLoop.iterate() { usleep(1000) }
            let count = page.textView.characterCount
            guard count != shown else { continue }
            slices.append(count - shown)
            shown = count
            if !page.isComplete {
                XCTAssertTrue(page.text.hasSuffix("\n"), "slice \(slices.count) ends at a line break")
            }
        }
        XCTAssertTrue(page.isComplete)
        XCTAssertGreaterThan(slices.count, 20, "the rest went in many small slices")
        XCTAssertLessThanOrEqual(slices.max() ?? 0, 8 * 1024, "no slice after the first is larger than 8 KB")
        settle()
        XCTAssertEqual(page.text, document.text)
    }

    /// Leaving a large page swaps in a new buffer: the old text is not deleted from the buffer on screen (which
    /// ran GTK's handlers over all of it for seconds) but leaves whole, then goes a slice per main-loop turn.
    func testLeavingALargePageDetachesItsBufferAndEmptiesItInSlices() async throws {
        XCTAssertTrue(MainLoop.run(until: { DetachedBuffers.pendingCharacters == 0 }, timeout: 60))
        let big = Document.parse(html: GeneratedPage.html(bytes: 1_000_000, textHeavy: false), baseURL: Self.baseURL)
        showAndWait(big)
        let characters = page.textView.characterCount
        let small = Document.parse(html: "<p>Small <a href='s.html'>link</a></p>", baseURL: Self.baseURL)
        page.show(small, scrollTo: nil)
        XCTAssertEqual(page.text, "Small link", "the view shows the new page at once")
        XCTAssertEqual(DetachedBuffers.pendingCharacters, characters, "the old page left whole, not deleted in place")
        XCTAssertTrue(MainLoop.run(until: { DetachedBuffers.pendingCharacters == 0 }, timeout: 60),
                      "the old buffer is emptied and released while the loop turns")
        settle()
        let location = try XCTUnwrap(page.linkLocation(index: 0), "tags are made in the new buffer's table")
        var hovered: [URL?] = []
        page.onLinkHover = { hovered.append($0) }
        page.textView.simulatePointerMotion(x: Double(location.x), y: Double(location.y))
        XCTAssertEqual(hovered, [URL(string: "http://example.org/dir/s.html")!])
        XCTAssertTrue(page.textView.tagNames(atCharacter: 6).contains("link"), "the link has its look")
    }

    /// A page shown again that differs near its top (a reload that changed it) is not deleted from the buffer on
    /// screen either: it goes in again, into a new buffer.
    func testAProgressiveRenderThatChangesALargePageNearItsTopSwapsTheBuffer() async {
        XCTAssertTrue(MainLoop.run(until: { DetachedBuffers.pendingCharacters == 0 }, timeout: 60))
        let html = GeneratedPage.html(bytes: 1_000_000, textHeavy: true)
        showAndWait(Document.parse(html: html, baseURL: Self.baseURL))
        let characters = page.textView.characterCount
        let changed = Document.parse(html: "<h1>Changed</h1>" + html, baseURL: Self.baseURL)
        page.showProgressive(changed)
        XCTAssertEqual(DetachedBuffers.pendingCharacters, characters, "the old text left whole")
        XCTAssertTrue(MainLoop.run(until: { self.page.isComplete }, timeout: 60))
        settle()
        XCTAssertEqual(page.text, changed.text)
    }

    /// A large page shown where a large page was (Reload, a link within a long document): the turn that lets the
    /// old buffer go (GtkTextView walks all its lines) does not also insert the new page's first slice, which goes
    /// in a turn of its own before the next frame: the first paint after `show` already has it.
    func testALargePageOverALargeOneHasItsFirstSliceInTheNextPaint() async {
        XCTAssertTrue(MainLoop.run(until: { DetachedBuffers.pendingCharacters == 0 }, timeout: 60))
        let html = GeneratedPage.html(bytes: 1_000_000, textHeavy: true)
        showAndWait(Document.parse(html: html, baseURL: Self.baseURL))
        let next = Document.parse(html: "<h1>Next</h1>" + html, baseURL: Self.baseURL)
        var painted: [Int] = []
        let textView = page.textView
        let connection = textView.onPaintAbove { _ in painted.append(textView.characterCount) }
        defer { connection.disconnect() }
        page.show(next, scrollTo: nil)
        XCTAssertEqual(page.textView.characterCount, 0, "the old buffer went in this turn, the new text not yet")
        XCTAssertTrue(MainLoop.run(until: { !painted.isEmpty }, timeout: 10), "the view is painted")
        XCTAssertGreaterThan(painted.first ?? 0, 16_000, "the first paint has the first slice")
        XCTAssertTrue(MainLoop.run(until: { self.page.isComplete }, timeout: 60))
        settle()
        XCTAssertEqual(page.text, next.text)
    }

    /// What the view held of a page it no longer shows (its document, tables and pictures) is let go after the turn
    /// that shows the next one, once the loop has nothing else to do, and not kept: freeing a large page's tables
    /// and document took 14 ms of that turn.
    func testAPageNoLongerShownIsLetGoAfterTheTurnThatShowsTheNext() async {
        weak var storage: RunStorage?
        do {
            let old = Document.parse(html: GeneratedPage.html(bytes: 200_000, textHeavy: false),
                                     baseURL: Self.baseURL)
            storage = old.storage
            showAndWait(old)
        }
        XCTAssertNotNil(storage)
        page.show(Document.parse(html: "<p>Next</p>", baseURL: Self.baseURL), scrollTo: nil)
        XCTAssertNotNil(storage, "the old document is not freed in the turn that shows the next page")
        XCTAssertEqual(page.text, "Next")
        XCTAssertTrue(MainLoop.run(until: { storage == nil }, timeout: 30), "it is freed once the loop is idle")
    }

    /// A page that is one long run (a single paragraph, plain text) and goes on arriving is continued where the
    /// buffer ends at the next render: the text already there is neither deleted nor put in again, however large.
    func testAProgressiveRenderOfAGrownRunContinuesIt() async {
        XCTAssertTrue(MainLoop.run(until: { DetachedBuffers.pendingCharacters == 0 }, timeout: 60))
        let words = String(repeating: "lorem ipsum dolor sit amet ", count: 12_000)
        let partial = Document.parse(html: "<p>" + words.prefix(200_000), baseURL: Self.baseURL)
        let whole = Document.parse(html: "<p>" + words, baseURL: Self.baseURL)
        XCTAssertEqual(whole.storage.runCount, 1)
        page.show(partial, scrollTo: nil)
        XCTAssertTrue(MainLoop.run(until: { self.page.textView.characterCount > 100_000 }, timeout: 60))
        page.showProgressive(whole)
        XCTAssertEqual(DetachedBuffers.pendingCharacters, 0, "the buffer stayed: nothing went in again from the top")
        var shortest = page.textView.characterCount
        XCTAssertTrue(MainLoop.run(until: {
            shortest = min(shortest, self.page.textView.characterCount)
            return self.page.isComplete
        }, timeout: 60))
        XCTAssertGreaterThan(shortest, 100_000, "no text already in the buffer was deleted")
        settle()
        XCTAssertEqual(page.text, whole.text)
    }

    /// A window closing with a large page does not free it in one piece: its buffer leaves the text view first.
    func testClosingAWindowWithALargePageEmptiesItsBufferInSlices() async {
        XCTAssertTrue(MainLoop.run(until: { DetachedBuffers.pendingCharacters == 0 }, timeout: 60))
        let big = Document.parse(html: GeneratedPage.html(bytes: 1_000_000, textHeavy: true), baseURL: Self.baseURL)
        showAndWait(big)
        let characters = page.textView.characterCount
        window.destroy()
        window = nil
        XCTAssertEqual(DetachedBuffers.pendingCharacters, characters, "the page left the view whole")
        XCTAssertTrue(MainLoop.run(until: { DetachedBuffers.pendingCharacters == 0 }, timeout: 60))
    }

    /// A window closed while its page is still going in leaves none of the page's work waiting in the main loop
    /// (the slices, the measure, the tables' refit, the finder's scan): the closing text view lets its buffer and
    /// tags go, and a callback that ran later would set a property on a tag that is gone.
    func testClosingAWindowRemovesThePagesWaitingWork() async throws {
        XCTAssertTrue(MainLoop.run(until: { DetachedBuffers.pendingCharacters == 0 }, timeout: 60))
        var rows = ""
        for r in 0..<100 { rows += "<tr><td>row \(r)<td>" + String(repeating: "cell words ", count: r % 7) }
        let big = Document.parse(html: "<table>" + rows + "</table>"
                                 + GeneratedPage.html(bytes: 1_000_000, textHeavy: true), baseURL: Self.baseURL)
        page.show(big, scrollTo: 500)
        page.finder.search("words")
        page.scheduleFitMeasure()
        XCTAssertFalse(page.isComplete)
        XCTAssertGreaterThan(page.sources.pendingCount, 0)
        window.destroy()
        window = nil
        XCTAssertEqual(page.sources.pendingCount, 0, "every waiting callback was removed with the text view")
        page.scheduleFitMeasure()
        XCTAssertEqual(page.sources.pendingCount, 0, "and none is added once it is gone")
        XCTAssertTrue(MainLoop.run(until: { DetachedBuffers.pendingCharacters == 0 }, timeout: 60))
        _ = MainLoop.run(until: { false }, timeout: 0.2)
        XCTAssertFalse(page.isComplete, "no slice went in after the window closed")
        XCTAssertEqual(page.textView.characterCount, 0)
    }

    /// The status line shows a long address cut short: a label lays out all of its text.
    func testStatusLineShortensALongAddress() async throws {
        let short = URL(string: "http://example.org/a%20b")!
        XCTAssertEqual(BrowserWindow.statusString(short), "http://example.org/a b")
        let long = try XCTUnwrap(URL(string: "http://example.org/" + String(repeating: "x", count: 1_000_000)))
        let shown = BrowserWindow.statusString(long)
        XCTAssertEqual(shown.count, BrowserWindow.statusLimit + 1)
        XCTAssertTrue(shown.hasPrefix("http://example.org/xxx") && shown.hasSuffix("x…"))
        // 日 is %E6%97%A5: wherever the cut falls, no escape or character is shown cut in two.
        for padding in 0..<9 {
            let path = String(repeating: "a", count: padding) + String(repeating: "%E6%97%A5", count: 100)
            let url = try XCTUnwrap(URL(string: "http://example.org/" + path))
            let text = BrowserWindow.statusString(url)
            XCTAssertTrue(text.hasSuffix("日…"), "cut after \(padding): \(text)")
            XCTAssertFalse(text.contains("%"), "cut after \(padding): \(text)")
        }
    }

    func testANewShowCancelsTheSlicesStillPending() async {
        let big = Document.parse(html: GeneratedPage.html(bytes: 500_000, textHeavy: true),
                                 baseURL: Self.baseURL)
        page.show(big, scrollTo: nil)
        XCTAssertFalse(page.isComplete)
        let small = Document.parse(html: "<p>Small page</p>", baseURL: Self.baseURL)
        showAndWait(small)
        settle()
        XCTAssertEqual(page.text, "Small page", "no slice of the big page came after the small one")
    }

    func testProgressiveRenderingKeepsTheTextAboveAndTheScrollPosition() async {
        let html = (1...300).map { "<p>Paragraph \($0) with <a href='p\($0).html'>a link</a> in it.</p>" }.joined()
        let half = html.utf8.count / 2
        let partial = Document.parse(html: String(decoding: Array(html.utf8)[..<half], as: UTF8.self),
                                     baseURL: Self.baseURL)
        page.showProgressive(partial)
        XCTAssertTrue(MainLoop.run(until: { self.page.isComplete }, timeout: 30))
        settle()
        page.verticalOffset = 600
        settle()
        let offset = page.verticalOffset
        XCTAssertEqual(offset, 600, accuracy: 1)
        let charactersBefore = page.textView.characterCount

        let full = Document.parse(html: html, baseURL: Self.baseURL)
        page.showProgressive(full)
        XCTAssertGreaterThan(page.textView.characterCount, charactersBefore / 2,
                             "the shared beginning stayed in the buffer")
        XCTAssertTrue(MainLoop.run(until: { self.page.isComplete }, timeout: 30))
        settle()
        XCTAssertEqual(page.text, full.text)
        XCTAssertEqual(page.verticalOffset, offset, accuracy: 1, "the reader stays where they were")
        XCTAssertNotNil(page.linkLocation(index: 299))
    }

    func testScrollPositionIsRestoredOnShow() async {
        let document = Document.parse(html: (1...400).map { "<p>Line \($0)</p>" }.joined(), baseURL: Self.baseURL)
        page.show(document, scrollTo: 1500)
        XCTAssertTrue(MainLoop.run(until: { self.page.isComplete && abs(self.page.verticalOffset - 1500) < 1 },
                                   timeout: 30), "scrolled to \(page.verticalOffset)")
    }

    func testOverlongLinesAreBrokenForLayout() async {
        let words = String(repeating: "word ", count: 20_000)
        let document = Document.parse(html: "<p>\(words)</p><pre>\(String(repeating: "x", count: 40_000))</pre>",
                                      baseURL: Self.baseURL)
        showAndWait(document)
        let lines = page.text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 2000 }, "no line is longer than 2,000 characters")
        XCTAssertEqual(page.text, document.text, "the document model breaks the lines; the view shows its text")
    }

    /// Following a link to a place in the page keeps the left edge, even when a wide preformatted line makes the
    /// page scrollable sideways and the place is indented.
    func testScrollingToAnAnchorKeepsTheLeftEdge() async {
        let wide = String(repeating: "wide_code ", count: 400)
        let paragraphs = (1...150).map { "<p>Paragraph \($0)</p>" }.joined()
        let document = Document.parse(
            html: "<pre>\(wide)</pre>\(paragraphs)<blockquote><blockquote><p id=target>Target</p></blockquote></blockquote>"
                + paragraphs, baseURL: Self.baseURL)
        showAndWait(document)
        XCTAssertTrue(page.scroll(toAnchor: "target"))
        XCTAssertTrue(MainLoop.run(until: { self.page.verticalOffset > 100 }, timeout: 10), "the view scrolls down")
        settle()
        XCTAssertEqual(page.scrolledWindow.horizontalOffset, 0, "the view stays at its left edge")
    }

    /// Centred and right-aligned paragraphs sit away from the left margin; a rule is a paragraph of its own.
    func testAlignmentAndRulesHaveTheirTags() async throws {
        let document = Document.parse(html: """
            <p>Left</p><hr><p align=center>Mid</p><div style="text-align: right">End</div>
            """, baseURL: Self.baseURL)
        showAndWait(document)
        XCTAssertNotNil(page.textView.windowLocation(ofTag: "rule"))
        let center = try XCTUnwrap(page.textView.windowLocation(ofTag: "center"))
        let right = try XCTUnwrap(page.textView.windowLocation(ofTag: "right"))
        let width = page.textView.width
        XCTAssertGreaterThan(center.x, width / 3, "centred text starts near the middle")
        XCTAssertGreaterThan(right.x, width * 3 / 4, "right-aligned text starts near the right edge")
    }

    /// List markers in the window come from the same model as `--dump`: the page's `list-style-type`, a `type`
    /// attribute and `display: list-item` give the same markers in the buffer, each in the hanging marker tag.
    func testListStyleMarkersAreTheDumps() async throws {
        let html = """
            <style>ol.r { list-style-type: upper-roman } ul.s { list-style-type: square }
            ul.d { list-style-type: decimal } .i { display: list-item; list-style-type: lower-alpha }</style>
            <ol class=r><li>Rome<li>Milan</ol><ul class=s><li>Boxed</ul><ul class=d><li>Counted</ul>
            <ol type=a start=27><li>Lettered</ol><div class=i>Divided</div>
            """
        let document = Document.parse(html: html, baseURL: Self.baseURL, tabbedTables: true)
        showAndWait(document)
        let dumped = Document.parse(html: html, baseURL: Self.baseURL).dumpText(width: 80)
        for line in ["I. Rome", "II. Milan", "▪ Boxed", "1. Counted", "aa. Lettered", "a. Divided"] {
            XCTAssertTrue(page.text.contains(line), "the window shows \(line)")
            XCTAssertTrue(dumped.contains(line), "--dump shows \(line)")
        }
        XCTAssertTrue(try tags("II.").contains { $0.hasPrefix("marker:") }, "a marker hangs in its own tag")
        XCTAssertTrue(try tags("▪").contains { $0.hasPrefix("marker:") })
        XCTAssertFalse(try tags("Milan").contains { $0.hasPrefix("marker:") })
    }

    /// Edits, highlights, sub- and superscripts and code each carry their look's tag; code is on the theme's tint,
    /// a colour near the view's background but not it.
    func testInlineMeaningHasItsTags() async throws {
        let document = Document.parse(html: """
            <p>a <del>gone</del> <ins>new</ins> <s>old</s> <u>note</u> <mark>hit</mark> H<sub>2</sub>O x<sup>3</sup>
            <code>code</code> plain</p><pre>block</pre>
            """, baseURL: Self.baseURL)
        showAndWait(document)
        let text = page.text
        func tags(_ fragment: String) throws -> [String] {
            let range = try XCTUnwrap(text.range(of: fragment), fragment)
            return page.textView.tagNames(atCharacter: text.distance(from: text.startIndex, to: range.lowerBound))
        }
        XCTAssertTrue(try tags("gone").contains("strikethrough"))
        XCTAssertTrue(try tags("old").contains("strikethrough"))
        XCTAssertTrue(try tags("new").contains("underline"))
        XCTAssertTrue(try tags("note").contains("underline"))
        XCTAssertTrue(try tags("hit").contains("highlight"))
        XCTAssertTrue(try tags("2O").contains("sub"))
        XCTAssertTrue(try tags("3").contains("sup"))
        XCTAssertTrue(try tags("code").contains("code"))
        XCTAssertTrue(try tags("block").contains("code-block0"))
        XCTAssertEqual(try tags("plain"), [], "plain text has no look of its own")
        let colors = page.textView.themeTextColors
        let background = try XCTUnwrap(colors.background)
        let tint = page.textView.codeTint
        XCTAssertNotEqual(tint.hexString, background.hexString, "code stands out from the page")
        XCTAssertGreaterThan(Contrast.ratio(colors.text.contrastColor, tint.contrastColor), 4.5,
                             "text on the tint stays readable")
    }

    /// On a wide window prose keeps to about 75 characters: the rest of the width is empty space beside the
    /// text, to its right, or shared on both sides when the reader centres the page; it follows the text size.
    func testProseKeepsAComfortableMeasureLeftOrCentred() async throws {
        window.resize(width: 1600, height: 600)
        showAndWait(Document.parse(html: "<p>" + String(repeating: "The quick brown fox jumps. ", count: 60) + "</p>",
                                   baseURL: Self.baseURL))
        func textWidth() -> Int { page.textView.width - page.textView.sideSpace.left - page.textView.sideSpace.right }
        XCTAssertTrue(MainLoop.run(until: { self.page.textView.width > 1400 && self.page.textView.sideSpace.right > 0 },
                                   timeout: 5), "the window is wide and the space beyond the measure is empty")
        let characters = Double(textWidth() - 32) / page.textView.averageCharacterWidth
        XCTAssertEqual(characters, 75, accuracy: 2, "about 75 characters a line")
        XCTAssertEqual(page.textView.sideSpace.left, 0)
        page.placement = .centred
        settle()
        let side = page.textView.sideSpace
        XCTAssertGreaterThan(side.left, 0)
        XCTAssertLessThanOrEqual(abs(side.left - side.right), 1, "centred: the space is shared")
        let before = textWidth()
        page.setZoom(1.5)
        XCTAssertTrue(MainLoop.run(until: { textWidth() > before + before / 4 }, timeout: 5),
                      "a larger text size widens the measure (\(before) → \(textWidth()))")
        window.resize(width: 500, height: 600)
        XCTAssertTrue(MainLoop.run(until: { self.page.textView.sideSpace == (0, 0) }, timeout: 5),
                      "a narrow window gives the text all its width")
        // A line that keeps its shape is never cut by the measure: it takes in the widest one.
        page.setZoom(1)
        window.resize(width: 1600, height: 600)
        showAndWait(Document.parse(html: "<p>Prose.</p><pre>" + String(repeating: "0", count: 150) + "</pre>",
                                   baseURL: Self.baseURL))
        let code = Double(150) * page.textView.monospaceCharacterWidth
        XCTAssertTrue(MainLoop.run(until: { self.page.textView.width > 1400 && Double(textWidth()) >= code }, timeout: 5),
                      "the measure takes in a 150-column line (\(textWidth()) px for \(code) px)")
    }
}
