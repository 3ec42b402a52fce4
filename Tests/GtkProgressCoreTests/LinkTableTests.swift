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
}
