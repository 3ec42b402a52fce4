import Foundation
import GtkProgress
import XCTest

/// Pages in legacy encodings, declared every way a server or author can, arrive as valid UTF-8.
final class LoaderCharsetTests: XCTestCase {
    let server = TestServer.shared
    /// The texts Tests/server/testserver.py puts in its /charset pages.
    let latin = "Café crème, naïve façade, 25 °C, ½ price, © 2024"
    let japanese = "日本語のページです。こんにちは、世界。"

    func page(_ encoding: String, declared: String) -> LoadedPage? {
        record(server.url("/charset?enc=\(encoding)&declare=\(declared)")).page
    }

    func testLatin1() {
        for declared in ["header", "meta", "http-equiv", "none"] {
            let page = page("latin1", declared: declared)
            XCTAssertEqual(page?.charset, "windows-1252", declared)
            XCTAssertTrue(page?.text.contains(latin) ?? false, "\(declared): \(page?.text ?? "")")
        }
    }

    func testWindows1252() {
        let page = page("windows1252", declared: "meta")
        XCTAssertTrue(page?.text.contains("\u{20AC} \u{201C}quoted\u{201D}") ?? false, page?.text ?? "")
    }

    func testShiftJIS() {
        for declared in ["header", "meta", "http-equiv"] {
            let page = page("shift_jis", declared: declared)
            XCTAssertEqual(page?.charset, "Shift_JIS", declared)
            XCTAssertTrue(page?.text.contains(japanese) ?? false, "\(declared): \(page?.text ?? "")")
        }
    }

    func testUndeclaredShiftJISIsStillValidText() {
        let page = page("shift_jis", declared: "none")
        XCTAssertEqual(page?.charset, "windows-1252", "not valid UTF-8, nothing declared: the fallback")
        XCTAssertNotNil(String(validating: Array((page?.text ?? "").utf8), as: UTF8.self))
        XCTAssertFalse(page?.text.isEmpty ?? true)
    }

    func testUTF8() {
        for declared in ["header", "meta", "bom", "none"] {
            let page = page("utf8", declared: declared)
            XCTAssertEqual(page?.charset, "UTF-8", declared)
            XCTAssertTrue(page?.text.contains(latin + " " + japanese) ?? false, declared)
            XCTAssertFalse(page?.text.hasPrefix("\u{FEFF}") ?? true, "the byte order mark is not text")
        }
    }
}
