import XCTest
@testable import GtkProgressCore

final class DroppedURLTests: XCTestCase {
    private func url(_ target: String, _ bytes: [UInt8], uris: [String] = []) -> String? {
        try? DroppedURL.url(target: target, bytes: bytes, uris: uris).get().absoluteString
    }

    func testURIListTakesTheFirstURIAndSkipsComments() {
        XCTAssertEqual(url("text/uri-list", Array("# comment\r\nhttp://a.test/x\r\nhttp://b.test/\r\n".utf8)),
                       "http://a.test/x")
        XCTAssertEqual(url("text/uri-list", [], uris: ["file:///tmp/a%20b.html", "http://b.test/"]),
                       "file:///tmp/a%20b.html")
    }

    func testMozURLIsUTF16WithATitleLine() {
        let bytes = Array("http://m.test/page\nThe title".utf16).flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
        XCTAssertEqual(url("text/x-moz-url", bytes), "http://m.test/page")
        XCTAssertEqual(url("_NETSCAPE_URL", Array("http://n.test/\nTitle".utf8)), "http://n.test/")
    }

    func testPlainTextMustBeOneAddress() {
        XCTAssertEqual(url("text/plain", Array("  example.org \n".utf8)), "https://example.org/")
        XCTAssertEqual(url("UTF8_STRING", Array("/tmp/page.html".utf8)), "file:///tmp/page.html")
        XCTAssertNil(url("text/plain", Array("this is not an address at all".utf8)))
        XCTAssertNil(url("text/plain", []))
    }
}
