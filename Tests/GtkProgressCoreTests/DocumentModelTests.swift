import Foundation
import GtkProgressCore
import XCTest

/// The document model's public face: runs and their styles, title, links, refresh, plain text.
final class DocumentModelTests: XCTestCase {
    static let baseURL = URL(string: "http://example.org/dir/page.html")!

    private func parse(_ html: String, baseURL: URL? = baseURL) -> Document {
        Document.parse(html: html, baseURL: baseURL)
    }

    private func style(of text: String, in document: Document, file: StaticString = #filePath,
                       line: UInt = #line) -> TextStyle? {
        let run = document.runs.first { $0.text.contains(text) }
        XCTAssertNotNil(run, "no run contains \(text.debugDescription)", file: file, line: line)
        return run?.style
    }

    func testRunsCarryTheirStyles() {
        let document = parse("""
            <h2>Title</h2><p>plain <b>bold</b> <strong>strong</strong> <em>em</em> <i>i</i> <code>code</code>
            <b><i>both</i></b></p><pre>pre  text</pre><blockquote><p>quoted</p></blockquote>
            <ul><li>item<ul><li>nested</li></ul></li></ul><a href="x">link</a>
            """)
        XCTAssertEqual(style(of: "Title", in: document), TextStyle(heading: 2, bold: true))
        XCTAssertEqual(style(of: "plain", in: document), TextStyle())
        XCTAssertEqual(style(of: "bold", in: document), TextStyle(bold: true))
        XCTAssertEqual(style(of: "strong", in: document), TextStyle(bold: true))
        XCTAssertEqual(style(of: "em", in: document), TextStyle(italic: true))
        var code = TextStyle(monospace: true)
        code.code = true
        XCTAssertEqual(style(of: "code", in: document), code)
        XCTAssertEqual(style(of: "both", in: document), TextStyle(bold: true, italic: true))
        var pre = TextStyle(monospace: true, preformatted: true)
        pre.code = true
        XCTAssertEqual(style(of: "pre  text", in: document), pre)
        XCTAssertEqual(style(of: "quoted", in: document), TextStyle(indent: 1))
        XCTAssertEqual(style(of: "item", in: document), TextStyle(indent: 1))
        XCTAssertEqual(style(of: "nested", in: document), TextStyle(indent: 2))
        XCTAssertEqual(style(of: "•", in: document), TextStyle(indent: 1, listMarker: true))
        XCTAssertEqual(style(of: "link", in: document), TextStyle(link: 0))
        XCTAssertEqual(document.runs.map(\.text).joined(), document.text)
    }

    func testTitleIsCollapsedAndOptional() {
        XCTAssertEqual(parse("<title>\n  A   &amp;\tB </title><p>x").title, "A & B")
        XCTAssertNil(parse("<p>no title</p>").title)
        XCTAssertNil(parse("<title>   </title>").title)
        XCTAssertEqual(parse("<title>first</title><title>second</title>").title, "first")
        XCTAssertNil(parse("<svg><title>icon</title></svg>").title, "an SVG title is no page title")
        XCTAssertEqual(parse("<title>T</title>").text, "", "the title is not body text")
    }

    func testLinksResolveAndRepeatOnce() {
        let document = parse("""
            <a href="b.html">1</a><a href=" b.html ">2</a><a href="#top">3</a><a href="">4</a>
            <a href="https://other.example/x">5</a><a href="javascript:go()">6</a><a>7</a>
            <a href="http://[broken">8</a><a href="mailto:a@b.example">9</a>
            """)
        XCTAssertEqual(document.links.strings, [
            "http://example.org/dir/b.html", "http://example.org/dir/page.html#top",
            "http://example.org/dir/page.html", "https://other.example/x", "mailto:a@b.example",
        ])
        XCTAssertEqual(style(of: "2", in: document)?.link, 0, "the same target keeps its number")
        XCTAssertNil(style(of: "6", in: document)?.link, "javascript: is no link")
        XCTAssertNil(style(of: "7", in: document)?.link, "an anchor without href is no link")
        XCTAssertNil(style(of: "8", in: document)?.link, "an unparsable target is no link")
    }

    func testBaseHrefAppliesToEveryLink() {
        let document = parse("<a href='early.html'>e</a><base href='http://cdn.example/base/'><a href='x'>x</a>")
        XCTAssertEqual(document.links.strings,
                       ["http://cdn.example/base/early.html", "http://cdn.example/base/x"])
        let relativeBase = parse("<base href='sub/'><a href='y'>y</a>")
        XCTAssertEqual(relativeBase.links.strings.first, "http://example.org/dir/sub/y")
        let noBase = parse("<a href='z.html'>z</a><a href='#f'>f</a>", baseURL: nil)
        XCTAssertEqual(noBase.links.strings, ["z.html", "#f"])
    }

    func testMetaRefresh() {
        func refresh(_ content: String) -> (Double, String)? {
            parse("<meta http-equiv='Refresh' content=\"\(content)\">").metaRefresh.map {
                ($0.delay, $0.url.absoluteString)
            }
        }
        XCTAssertEqual(refresh("0; url=next.html")?.0, 0)
        XCTAssertEqual(refresh("0; url=next.html")?.1, "http://example.org/dir/next.html")
        XCTAssertEqual(refresh("5;URL='http://x.example/'")?.1, "http://x.example/")
        XCTAssertEqual(refresh("2.5, url = '/a'")?.0, 2.5)
        XCTAssertEqual(refresh("2.5, url = '/a'")?.1, "http://example.org/a")
        XCTAssertEqual(refresh("3 ; other.html")?.1, "http://example.org/dir/other.html")
        XCTAssertEqual(refresh("10")?.1, Self.baseURL.absoluteString, "no URL refreshes the page itself")
        XCTAssertNil(refresh("soon"))
        XCTAssertNil(refresh(""))
        XCTAssertNil(parse("<meta name='refresh' content='0; url=x'>").metaRefresh)
        XCTAssertNil(Document.parse(html: "<meta http-equiv=refresh content=5>", baseURL: nil).metaRefresh)
    }

    func testPlainText() {
        let document = Document.plainText("line one\r\n  indented\ttab\r\n\r\nlast <b>not markup</b>")
        XCTAssertEqual(document.text, "line one\n  indented      tab\n\nlast <b>not markup</b>", "the tab to column 16")
        XCTAssertTrue(document.runs.allSatisfy { $0.style.monospace || $0.text.allSatisfy { $0 == "\n" } })
        XCTAssertTrue(document.links.isEmpty)
        XCTAssertNil(document.title)
        XCTAssertEqual(document.dumpText(), document.text + "\n")
    }

    func testBytesWithInvalidUTF8() {
        let document = Document.parse(bytes: Array("<p>caf".utf8) + [0xE9] + Array(" ok</p>".utf8), baseURL: nil)
        XCTAssertEqual(document.text, "caf\u{FFFD} ok")
    }

    func testDumpWrapsAtWidthAndKeepsPreformatted() {
        let document = parse("""
            <p>one two three four five six seven eight nine ten</p>
            <ol><li>alpha beta gamma delta epsilon zeta</li></ol><pre>a very long preformatted line stays whole</pre>
            """)
        XCTAssertEqual(document.dumpText(width: 20), """
            one two three four
            five six seven eight
            nine ten

             1. alpha beta gamma
                delta epsilon
                zeta

            a very long preformatted line stays whole

            """)
    }

    func testLinkNumbersFollowTheLinkText() {
        let document = parse("<p>See <a href='a'>the <b>docs</b> </a>and <a href='b'><img alt='logo'></a>.</p>")
        XCTAssertEqual(document.dumpText(), """
            See the docs[1] and [logo][2].

            References

               1. http://example.org/dir/a
               2. http://example.org/dir/b

            """)
    }
}
