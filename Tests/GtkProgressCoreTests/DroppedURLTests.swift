import XCTest
@testable import GtkProgressCore

final class DroppedURLTests: XCTestCase {
    private func urls(_ target: String, _ bytes: [UInt8], uris: [String] = []) -> [String]? {
        try? DroppedURL.urls(target: target, bytes: bytes, uris: uris).get().map(\.absoluteString)
    }

    private func url(_ target: String, _ bytes: [UInt8], uris: [String] = []) -> String? {
        urls(target, bytes, uris: uris)?.first
    }

    func testURIListGivesEveryURIAndSkipsComments() {
        XCTAssertEqual(urls("text/uri-list", Array("# comment\r\nhttp://a.test/x\r\nhttp://b.test/\r\n".utf8)),
                       ["http://a.test/x", "http://b.test/"])
        XCTAssertEqual(urls("text/uri-list", [], uris: ["file:///tmp/a%20b.html", "http://b.test/"]),
                       ["file:///tmp/a%20b.html", "http://b.test/"])
        XCTAssertEqual(urls("text/uri-list", [], uris: ["gopher://x/", "http://b.test/"]), ["http://b.test/"],
                       "a list keeps the entries that are addresses")
    }

    func testMozURLIsUTF16WithATitleLine() {
        let bytes = Array("http://m.test/page\nThe title\nhttp://m.test/two\nSecond".utf16)
            .flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
        XCTAssertEqual(urls("text/x-moz-url", bytes), ["http://m.test/page", "http://m.test/two"])
        XCTAssertEqual(urls("_NETSCAPE_URL", Array("http://n.test/\nTitle".utf8)), ["http://n.test/"])
    }

    func testPlainTextMustBeAddresses() {
        XCTAssertEqual(url("text/plain", Array("  example.org \n".utf8)), "https://example.org/")
        XCTAssertEqual(url("UTF8_STRING", Array("/tmp/page.html".utf8)), "file:///tmp/page.html")
        XCTAssertNil(url("text/plain", Array("this is not an address at all".utf8)))
        XCTAssertNil(url("text/plain", []))
        XCTAssertNil(urls("text/plain", Array("http://a.test/\nand a sentence".utf8)), "one line is no address")
    }

    /// Two addresses selected together and dropped as text loaded as one URL with %0A in it.
    func testTwoAddressesAsPlainTextAreTwoURLs() {
        let dropped = urls("text/plain", Array("http://a.test/one\nhttp://b.test/two\n".utf8))
        XCTAssertEqual(dropped, ["http://a.test/one", "http://b.test/two"])
        XCTAssertFalse(dropped?.contains { $0.contains("%0A") } ?? true)
    }
}
