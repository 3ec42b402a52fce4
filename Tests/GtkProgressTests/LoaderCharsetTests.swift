import Foundation
import GtkProgress
import XCTest

/// Pages in legacy encodings, declared every way a server or author can, arrive as valid UTF-8.
///
/// `@MainActor` with async tests: the loader belongs to the main actor (`PageLoader`).
@MainActor
final class LoaderCharsetTests: XCTestCase {
    let server = TestServer.shared
    /// The texts Tests/server/testserver.py puts in its /charset pages.
    let latin = "Café crème, naïve façade, 25 °C, ½ price, © 2024"
    let japanese = "日本語のページです。こんにちは、世界。"

    func page(_ encoding: String, declared: String) -> LoadedPage? {
        record(server.url("/charset?enc=\(encoding)&declare=\(declared)")).page
    }

    func testLatin1() async {
        for declared in ["header", "meta", "http-equiv", "none"] {
            let page = page("latin1", declared: declared)
            XCTAssertEqual(page?.charset, "windows-1252", declared)
            XCTAssertTrue(page?.text.contains(latin) ?? false, "\(declared): \(page?.text ?? "")")
        }
    }

    func testWindows1252() async {
        let page = page("windows1252", declared: "meta")
        XCTAssertTrue(page?.text.contains("\u{20AC} \u{201C}quoted\u{201D}") ?? false, page?.text ?? "")
    }

    func testShiftJIS() async {
        for declared in ["header", "meta", "http-equiv"] {
            let page = page("shift_jis", declared: declared)
            XCTAssertEqual(page?.charset, "Shift_JIS", declared)
            XCTAssertTrue(page?.text.contains(japanese) ?? false, "\(declared): \(page?.text ?? "")")
        }
    }

    /// Undeclared legacy encodings used to come out as windows-1252 mojibake; now they are detected, and the page
    /// says the encoding was guessed.
    func testUndeclaredLegacyEncodingsAreDetected() async {
        let expected = ["shift_jis": ("Shift_JIS", japanese), "euc_jp": ("EUC-JP", "吾輩は猫である。"),
                        "koi8_r": ("KOI8-R", "Все счастливые семьи"), "gb18030": ("gb18030", "学而时习之"),
                        "big5": ("Big5", "學而時習之")]
        for (key, (charset, text)) in expected {
            let page = page(key, declared: "none")
            XCTAssertEqual(page?.charset, charset, key)
            XCTAssertEqual(page?.charsetGuessed, true, key)
            XCTAssertTrue(page?.text.contains(text) ?? false, "\(key): \(page?.text ?? "")")
            if let page {
                XCTAssertTrue(ShownPage(loaded: page).status.hasSuffix(". Encoding guessed: \(charset)."),
                              ShownPage(loaded: page).status)
            }
        }
        XCTAssertEqual(page("shift_jis", declared: "header")?.charsetGuessed, false, "declared, not guessed")
        XCTAssertEqual(page("utf8", declared: "none")?.charsetGuessed, false, "valid UTF-8 is not a guess")
    }

    func testUTF8() async {
        for declared in ["header", "meta", "bom", "none"] {
            let page = page("utf8", declared: declared)
            XCTAssertEqual(page?.charset, "UTF-8", declared)
            XCTAssertTrue(page?.text.contains(latin + " " + japanese) ?? false, declared)
            XCTAssertFalse(page?.text.hasPrefix("\u{FEFF}") ?? true, "the byte order mark is not text")
        }
    }
}
