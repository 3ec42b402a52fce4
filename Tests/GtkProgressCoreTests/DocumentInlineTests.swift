import Foundation
@testable import GtkProgressCore
import XCTest

/// Inline meaning (edits, strike-through, sub- and superscripts, code), `<noscript>` and embedded content: as
/// looks in the window's document, as marks in `--dump`'s, and against `w3m -dump` on the same page.
final class DocumentInlineTests: XCTestCase {
    static let baseURL = URL(string: "http://example.org/dir/page.html")!
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dump/inline.html")

    private func style(of text: String, in document: Document, file: StaticString = #filePath,
                       line: UInt = #line) -> TextStyle? {
        let run = document.runs.first { $0.text == text }
        XCTAssertNotNil(run, "no run is \(text.debugDescription): \(document.runs.map(\.text))", file: file,
                        line: line)
        return run?.style
    }

    /// The window's document: the text as written, the meaning in the style. Both ways in which the builder
    /// meets inline elements are covered: gumbo's elements (with attributes, nested) and the prefilter's
    /// placeholders (a bare `<del>word</del>`).
    func testLooksCarryTheMeaningInTheWindow() {
        let document = Document.parse(html: """
            <p>Price <del>€15</del> <ins>€12</ins> <s>gone</s> <strike>old</strike> <u>note</u> <mark>found</mark>
            H<sub>2</sub>O x<sup>2</sup> <kbd>Ctrl</kbd> <code>copy()</code> <samp>ok</samp> <tt>tt</tt>
            <del class="x">attributed <b>bold</b></del> <sup id="n1">deep</sup></p>
            """, baseURL: Self.baseURL)
        XCTAssertTrue(document.text.hasPrefix("Price €15 €12 gone old note found H2O x2 Ctrl copy() ok tt"),
                      document.text)
        XCTAssertFalse(document.text.contains("[DEL:"))
        XCTAssertEqual(style(of: "€15", in: document)?.strikethrough, true)
        XCTAssertEqual(style(of: "€15", in: document)?.underline, false)
        XCTAssertEqual(style(of: "€12", in: document)?.underline, true)
        XCTAssertEqual(style(of: "gone", in: document)?.strikethrough, true)
        XCTAssertEqual(style(of: "old", in: document)?.strikethrough, true)
        XCTAssertEqual(style(of: "note", in: document)?.underline, true)
        XCTAssertEqual(style(of: "found", in: document)?.highlight, true)
        XCTAssertEqual(style(of: "2", in: document)?.baseline, .lowered)
        XCTAssertEqual(document.runs.filter { $0.text == "2" }.map(\.style.baseline), [.lowered, .raised])
        XCTAssertEqual(style(of: "deep", in: document)?.baseline, .raised)
        for code in ["Ctrl", "copy()", "ok"] {
            XCTAssertEqual(style(of: code, in: document)?.monospace, true, code)
            XCTAssertEqual(style(of: code, in: document)?.code, true, code)
        }
        // `<tt>` is a typeface, not code: monospace without the tint.
        XCTAssertEqual(style(of: "tt", in: document)?.code, false)
        XCTAssertEqual(style(of: "bold", in: document)?.strikethrough, true)
        XCTAssertEqual(style(of: "bold", in: document)?.bold, true)
        XCTAssertEqual(style(of: " ", in: document)?.strikethrough, false, "the space between edits is plain")
    }

    /// `--dump`'s document says in characters what the window draws.
    func testDumpMarksWhatPlainTextCannotDraw() {
        let document = Document.parse(html: """
            <p>Price <del>€15</del> <ins>€12</ins>, <s>gone</s>, <strike>old</strike>, <u>note</u>, <mark>hit</mark>.</p>
            <p>H<sub>2</sub>O, x<sup>2</sup>, <del class="x">a <b>bold</b> cut</del>, e<sup id="n">iπ</sup>.</p>
            """, baseURL: Self.baseURL, textMarks: true)
        XCTAssertEqual(document.dumpText(), """
            Price [DEL:€15:DEL] [INS:€12:INS], [S:gone:S], [S:old:S], note, hit.

            H_2O, x^2, [DEL:a bold cut:DEL], e^iπ.

            """)
    }

    /// A `<pre>` and code in a line have the code look; a plain text page (all monospace) does not.
    func testCodeBlocksAreCode() {
        let document = Document.parse(html: "<p>x</p><pre>line one\n\nline three</pre>", baseURL: Self.baseURL)
        let pre = document.runs.filter { $0.style.preformatted }
        XCTAssertFalse(pre.isEmpty)
        XCTAssertTrue(pre.allSatisfy(\.style.code))
        // The empty line inside the block belongs to the block (its line break keeps the block's style).
        XCTAssertEqual(pre.map(\.text).joined(), "line one\n\nline three")
        XCTAssertFalse(Document.plainText("a\nb").runs.contains { $0.style.code })
    }

    /// No script runs, so `<noscript>` in the body is shown; the head's (tracking pixels, styles) is not.
    func testNoscriptInTheBodyIsShown() {
        let document = Document.parse(html: """
            <html><head><noscript><img src="pixel.gif" alt="pixel"></noscript></head>
            <body><p>Before.</p><noscript><p>Works without JavaScript.</p></noscript><p>After.</p></body></html>
            """, baseURL: Self.baseURL)
        XCTAssertEqual(document.dumpText(), "Before.\n\nWorks without JavaScript.\n\nAfter.\n")
    }

    /// Video, audio, frames, objects and embeds: a line naming each, linking to its source, then the fallback.
    func testEmbeddedContentIsNamedAndLinked() {
        let document = Document.parse(html: """
            <p>Intro.</p><video src="media/movie.mp4" controls>No video.</video>
            <audio><source src="a.ogg"><source src="a.mp3">No audio.</audio>
            <iframe src="map.html" title="Site map">raw iframe text</iframe><iframe src="/x/frame.html"></iframe>
            <object data="chart.svg"><param name="a" value="b">A chart.</object><embed src="clip.swf">
            <video>Sourceless.</video><iframe src="javascript:alert(1)" title="Script"></iframe>
            """, baseURL: Self.baseURL)
        XCTAssertEqual(document.text, """
            Intro.

            Video: movie.mp4
            No video.
            Audio: a.ogg
            No audio.
            Frame: Site map
            Frame: frame.html
            Object: chart.svg
            A chart.
            Embedded: clip.swf
            Video
            Sourceless.
            Frame: Script
            """)
        XCTAssertEqual(document.links.strings, [
            "http://example.org/dir/media/movie.mp4", "http://example.org/dir/a.ogg",
            "http://example.org/dir/map.html", "http://example.org/x/frame.html",
            "http://example.org/dir/chart.svg", "http://example.org/dir/clip.swf",
        ])
        XCTAssertEqual(style(of: "Video: movie.mp4", in: document)?.link, 0)
        XCTAssertEqual(style(of: "Audio: a.ogg", in: document)?.link, 1)
        // A script URL is no link to follow: the line stays, without one.
        XCTAssertNil(style(of: "Frame: Script", in: document)?.link)
    }

    /// The fixture's marks, line for line as `w3m -dump` prints them: edits and strike-through as w3m marks
    /// them, and a superscript as `^`. w3m writes a subscript `H[2]O`, which reads as a footnote; here it is
    /// `H_2O`, as TeX and plain-text mail write it, the one mark that differs on purpose.
    func testMarksMatchW3m() throws {
        let w3m = "/usr/bin/w3m"
        guard FileManager.default.isExecutableFile(atPath: w3m) else {
            XCTFail("w3m is missing: scripts/install-deps.sh test installs it")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: w3m)
        process.arguments = ["-dump", "-cols", "80", "-O", "UTF-8", "-T", "text/html", Self.fixture.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let theirs = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        let html = try Data(contentsOf: Self.fixture)
        let ours = Document.parse(bytes: [UInt8](html), baseURL: Self.fixture, textMarks: true)
            .dumpText(width: 80, numberLinks: false).split(separator: "\n").map(String.init)
        for line in ["Price [DEL:€15:DEL] [INS:€12:INS], [S:sold out:S], [S:old:S], note, found.",
                     "A [DEL:removed bold word:DEL] and [INS:added text:INS].",
                     "This page works without JavaScript."] {
            XCTAssertTrue(theirs.contains(line), "w3m: \(theirs)")
            XCTAssertTrue(ours.contains(line), "ours: \(ours)")
        }
        XCTAssertTrue(theirs.contains("Water is H[2]O; area is x^2; press Ctrl+C to run copy()."), "\(theirs)")
        XCTAssertTrue(ours.contains("Water is H_2O; area is x^2; press Ctrl+C to run copy()."), "\(ours)")
    }

    /// The longest line that keeps its shape, in columns (wide characters two): what the window's reading
    /// measure must take in.
    func testWidestPreformattedLineIsCounted() {
        let document = Document.parse(html: "<p>" + String(repeating: "prose ", count: 100) + "</p><pre>short\n"
                                      + String(repeating: "x", count: 90) + "\n日本語</pre>", baseURL: Self.baseURL)
        XCTAssertEqual(document.widestPreformattedColumns, 90, "prose does not count, however long")
        XCTAssertEqual(Document.plainText("ab\n漢字漢字漢\n").widestPreformattedColumns, 10)
    }
}
