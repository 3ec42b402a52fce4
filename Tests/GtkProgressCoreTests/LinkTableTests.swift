import Foundation
@testable import GtkProgressCore
import XCTest

final class LinkTableTests: XCTestCase {
    func testEachTextOnceInOrderOfFirstInsertion() {
        var table = LinkTable()
        XCTAssertTrue(table.isEmpty)
        XCTAssertEqual(table.insert("http://a.example/"), 0)
        XCTAssertEqual(table.insert("http://b.example/x"), 1)
        XCTAssertEqual(table.insert("http://a.example/"), 0)
        XCTAssertEqual(table.insert(""), 2, "an empty text is a text")
        XCTAssertEqual(table.insert(""), 2)
        XCTAssertEqual(table.strings, ["http://a.example/", "http://b.example/x", ""])
        XCTAssertEqual(table.count, 3)
        XCTAssertEqual(table.firstIndex(of: "http://b.example/x"), 1)
        XCTAssertNil(table.firstIndex(of: "http://b.example/"), "a prefix is not the text")
    }

    /// The table grows its index many times over: every text is still found once, and none twice.
    func testManyTextsAcrossGrowth() {
        var table = LinkTable()
        for round in 0..<2 {
            for i in 0..<50_000 {
                XCTAssertEqual(table.insert("/page/\(i).html"), i, "round \(round), text \(i)")
            }
        }
        XCTAssertEqual(table.count, 50_000)
        XCTAssertEqual(table.string(at: 49_999), "/page/49999.html")
    }

    func testURLsAreMadeFromTheText() {
        var table = LinkTable()
        let url = URL(string: "b/c?q=%20x#frag", relativeTo: URL(string: "http://example.org/a/"))!.absoluteURL
        let index = table.insert(url.absoluteString)
        XCTAssertEqual(table[index], url)
        XCTAssertEqual(table[index]?.fragment, "frag")
        XCTAssertNil(table[1], "past the end")
        XCTAssertNil(table[-1])
        let relative = table.insert(URL(string: "z.html")!.absoluteString)
        XCTAssertEqual(table[relative]?.relativeString, "z.html", "a page without an address keeps relative links")
    }

    func testSameAndEqualCompareTexts() {
        var a = LinkTable(), b = LinkTable()
        _ = a.insert("x"); _ = a.insert("y")
        _ = b.insert("y"); _ = b.insert("x")
        XCTAssertTrue(a.same(0, as: 1, in: b))
        XCTAssertFalse(a.same(0, as: 0, in: b))
        XCTAssertFalse(a.same(0, as: 5, in: b), "an index past the end is not the same")
        XCTAssertNotEqual(a, b, "the same texts in another order")
        var c = LinkTable()
        _ = c.insert("x"); _ = c.insert("y")
        XCTAssertEqual(a, c)
        XCTAssertEqual(a.sealed(), c, "sealing keeps the texts")
        XCTAssertLessThan(a.sealed().modelBytes, a.modelBytes, "and lets the index go")
    }
    /// Same-document links resolved by appending the fragment to the once-resolved base give exactly the text a
    /// full resolution gives, and those the parser would rewrite (percent-encoding) are left to it.
    func testSameDocumentLinksResolveAsAnyLink() {
        let bases = ["file:///usr/share/doc/python3/python-policy.html", "https://ex.com/a/b/../c.html?q=1#old",
                     "https://ex.com", "https://ex.com/./x/%41b.html?x=%zz#f", "file:///tmp/a%20b.html",
                     "http://EX.com:80/A?b#c", "about:blank", "data:text/html,hi", "https://user:pw@ex.com/p;x?y",
                     "javascript:void(0)"]
        let hrefs = ["#", "#i1", "#a-b_c.d~e!$&'()*+,;=:@/?", "#x%20y", "#x%zz", "#x y", "#é", "##", "#a#b",
                     "#[x]", "#{x}", "#a|b", "#a\\b", "#^`", "x#y", "#" + String(repeating: "a", count: 5_000)]
        var quick = 0
        for baseText in bases {
            let base = URL(string: baseText)!
            let sameDocument = LinkResolution.SameDocument(base: base)
            var buffer: [UInt8] = []
            for href in hrefs {
                var bytes = Array(href.utf8)
                let fast = bytes.withUnsafeMutableBufferPointer { pointer in
                    sameDocument.withResolved(UnsafeBufferPointer(pointer), buffer: &buffer) {
                        sameDocument.isFollowable ? String(decoding: $0, as: UTF8.self) : nil
                    }
                }
                let full = LinkResolution.resolve(href, against: base).flatMap {
                    LinkResolution.isFollowable($0) ? $0.absoluteString : nil
                }
                if let fast {
                    quick += 1
                    XCTAssertEqual(fast, full, "\(href) against \(baseText)")
                }
                let encoded = ["#x y", "#é", "##", "#a#b", "#[x]", "#{x}", "#a|b", "#a\\b", "#^`", "#x%zz", "#x%20y"]
                if encoded.contains(href) || href == "x#y" || href.utf8.count > LinkResolution.longestHref {
                    XCTAssertTrue(fast == nil, "\(href) is left to the parser")
                }
            }
        }
        XCTAssertEqual(quick, 40, "#, #i1 and the fragment characters, against each base")
        var none: [UInt8] = []
        XCTAssertNil(LinkResolution.SameDocument(base: nil).withResolved(UnsafeBufferPointer(start: nil, count: 0),
                                                                         buffer: &none) { _ in 0 })
    }
}
