import Foundation
@testable import GtkProgressCore
import XCTest

/// `--dump` of a page on disk prints its finished lines while the page is read (`PageDump.write`,
/// `DumpOutput`): what it prints must be what the whole page's dump prints (`PageDump.render`), byte for byte,
/// wherever the stretches fall. Memory is the benchmark's (`bench/run.py --rows pagemem`).
final class DumpStreamTests: XCTestCase {
    private let url = URL(fileURLWithPath: "/tmp/page.html")

    /// The whole page's dump, as `--dump` printed it before it streamed.
    private func whole(_ bytes: [UInt8], width: Int = 80) -> String {
        PageDump.render(LoadedPage(decoding: bytes, finalURL: url, status: 200, contentType: nil), width: width).text
    }

    /// The streamed dump and the sizes of the stretches handed out.
    private func streamed(_ bytes: [UInt8], width: Int = 80, stretchBytes: Int) -> (text: String, writes: [Int]) {
        var out: [UInt8] = []
        var writes: [Int] = []
        _ = PageDump.write(bytes, url: url, width: width, stretchBytes: stretchBytes) { chunk in
            out.append(contentsOf: chunk)
            writes.append(chunk.count)
        }
        return (String(decoding: out, as: UTF8.self), writes)
    }

    /// Paragraphs, headings, nested and numbered lists, a table, preformatted text with tabs, a quotation, a rule,
    /// centred text, edits and exponents, a label, links (repeated, to this page's places, `javascript:`, with no
    /// text), and a paragraph long enough to be broken for length, repeated so the page is read in many stretches.
    private func mixedPage(sections: Int) -> String {
        var html = "<!DOCTYPE html><html><head><title>Mixed</title></head><body>\n"
        for n in 0..<sections {
            html += "<h2>Section \(n)</h2>\n<p>Tiny<p>x<p>A paragraph with <a href=\"/a\(n % 7)\">a link</a> and "
            html += "<em>emphasis</em>, <del>removed</del> and x<sup>2</sup>.</p>\n"
            html += "<ul><li>one<li>two<ol start=\"\(n)\"><li>nested<li>also <a href=\"#s\(n)\">here</a></ol><li>three</ul>\n"
            html += "<table border=1><tr><th>Name<th>Value</tr><tr><td>row \(n)<td><a href=\"/t\">cell link</a></tr>"
            html += "<tr><td colspan=2>wide cell \(n)</tr></table>\n"
            html += "<pre>col\tumn\n\tindented \(n)\n  spaced   out\n</pre>\n"
            html += "<blockquote><p>Quoted \(n)</blockquote><hr><center>Centred \(n)</center>\n"
            html += "<p><a href=\"javascript:void(0)\">script</a> <a href=\"/empty\"><img src=x.png></a> "
            html += "<label>Name <input name=q value=\"v\(n)\"></label></p>\n"
            if n % 5 == 0 {
                html += "<p>" + String(repeating: "word\(n) ", count: 600) + "</p>\n"
            }
        }
        return html + "<p>The end.</p></body></html>\n"
    }

    func testStreamedDumpEqualsTheWholePagesDump() {
        let bytes = Array(mixedPage(sections: 40).utf8)
        let expected = whole(bytes)
        XCTAssertTrue(expected.contains("References"), "the page has numbered links")
        for stretch in [1, 7, 200, 4096, 1 << 16] {
            let (text, writes) = streamed(bytes, stretchBytes: stretch)
            XCTAssertEqual(text, expected, "stretches of \(stretch) bytes")
            if stretch <= 4096 {
                // Lines go out between elements and pieces, and only when no link, label or table is open.
                XCTAssertGreaterThan(writes.count, stretch <= 200 ? 50 : 4, "printed as it was read (\(stretch))")
            }
        }
        for width in [20, 132] {
            XCTAssertEqual(streamed(bytes, width: width, stretchBytes: 64).text, whole(bytes, width: width),
                           "width \(width)")
        }
    }

    /// A long page of tiny paragraphs goes out in stretches of about the size asked for, never held whole.
    func testTinyParagraphsGoOutInStretches() {
        let bytes = Array(("<!DOCTYPE html><title>p</title>" + String(repeating: "<p>x", count: 100_000)).utf8)
        let (text, writes) = streamed(bytes, stretchBytes: 4096)
        XCTAssertEqual(text, whole(bytes))
        XCTAssertGreaterThan(writes.count, 50)
        XCTAssertLessThanOrEqual(writes.max() ?? 0, 2 * 4096, "no stretch much larger than asked for")
    }

    /// Pages that are not parsed from their own bytes still print the same: a `<base href>` (which changes every
    /// link's address, wherever it stands), a page in another encoding, one with a byte order mark (both decoded
    /// first), plain text, nothing.
    func testPagesPrintedWholeAreTheSame() {
        let base = "<p>" + String(repeating: "<a href=\"x\">x</a> <p>", count: 3000) + "<base href=\"http://b.example/\">"
        let latin1 = Array("<meta charset=\"iso-8859-1\"><p>caf".utf8) + [0xE9] + Array(String(repeating: "<p>y", count: 3000).utf8)
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(String(repeating: "<p>z", count: 3000).utf8)
        let pages: [[UInt8]] = [Array(base.utf8), latin1, bom, Array("plain text\n\n\n".utf8), [],
                                Array("\n\n<p>\n\n".utf8), Array("<pre>\n\n\n</pre>\n".utf8)]
        for page in pages {
            XCTAssertEqual(streamed(page, stretchBytes: 1).text, whole(page), String(decoding: page.prefix(60), as: UTF8.self))
        }
    }

    /// A page decoded first (another encoding, a byte order mark) still goes out in stretches, from its text.
    func testDecodedPagesGoOutInStretches() {
        let latin1 = Array("<meta charset=\"iso-8859-1\"><p>caf".utf8) + [0xE9] + Array(String(repeating: "<p>y", count: 30_000).utf8)
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(String(repeating: "<p>z", count: 30_000).utf8)
        for page in [latin1, bom] {
            let (text, writes) = streamed(page, stretchBytes: 4096)
            XCTAssertEqual(text, whole(page))
            XCTAssertGreaterThan(writes.count, 10)
        }
        XCTAssertTrue(whole(latin1).hasPrefix("caf\u{E9}"))
    }

    /// A page from the web (`gtkprogress-fetch --dump`) is written as `render` prints it, with the same problem for
    /// an error status and the same notes, whatever its `Content-Type` and kind.
    func testLoadedPagesWriteWhatRenderPrints() {
        let web = URL(string: "http://example.test/dir/page")!
        let html = Array(mixedPage(sections: 12).utf8)
        let pages = [
            LoadedPage(decoding: html, finalURL: web, status: 200, contentType: "text/html; charset=utf-8"),
            LoadedPage(decoding: html, finalURL: web, status: 404, contentType: "text/html"),
            LoadedPage(decoding: Array("<p>caf".utf8) + [0xE9] + Array("<a href=a>a</a>".utf8), finalURL: web,
                       status: 200, contentType: "text/html; charset=windows-1252"),
            LoadedPage(decoding: Array("plain <p> text\n".utf8), finalURL: web, status: 500, contentType: "text/plain"),
            LoadedPage(decoding: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], finalURL: web, status: 200,
                       contentType: "image/png"),
        ]
        for page in pages {
            let expected = PageDump.render(page, width: 60)
            var out: [UInt8] = []
            let written = PageDump.write(page, width: 60, stretchBytes: 256) { out.append(contentsOf: $0) }
            XCTAssertEqual(String(decoding: out, as: UTF8.self), expected.text, page.contentType ?? "")
            XCTAssertEqual(written.problem, expected.problem)
            XCTAssertEqual(written.notes, expected.notes)
        }
        XCTAssertEqual(PageDump.render(pages[1]).problem, "HTTP 404 Not Found from http://example.test/dir/page")
    }

    /// Lines end at the stretches' edges as they would have: blank lines at the end are trimmed once, and a link
    /// whose text is split between two stretches gets one number.
    func testStretchEdgesKeepLinesAndNumbers() {
        var html = ""
        for n in 0..<300 {
            html += "<p><a href=\"/l\(n % 3)\">link \(n) with words enough to wrap past the width of the line</a>"
            html += "<pre>  kept\n\n\n</pre>"
        }
        html += "<div>\n\n\n</div><p>\n"
        let bytes = Array(html.utf8)
        for stretch in [1, 3, 64] {
            XCTAssertEqual(streamed(bytes, width: 30, stretchBytes: stretch).text, whole(bytes, width: 30))
        }
    }
}
