import Foundation
import GtkProgressCore
import XCTest

/// The encoding is chosen as browsers choose it, and the text handed on is always valid UTF-8.
final class CharsetDecoderTests: XCTestCase {
    let latin = "Café crème, naïve façade, 25 °C, ½ price, © 2024"
    let japanese = "日本語のページです。こんにちは、世界。"

    func decode(_ bytes: [UInt8], _ contentType: String? = "text/html", html: Bool = true) -> DecodedText {
        CharsetDecoder.decode(bytes, contentType: contentType, isHTML: html)
    }

    func latin1(_ text: String) -> [UInt8] { text.unicodeScalars.map { UInt8($0.value) } }

    /// Shift_JIS bytes of the strings these tests use (written out, so the test does not trust the decoder).
    func shiftJIS(_ text: String) -> [UInt8] {
        let known: [String: [UInt8]] = [
            "日本語のページです。こんにちは、世界。": [
                0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x82, 0xCC, 0x83, 0x79, 0x81, 0x5B, 0x83, 0x57, 0x82, 0xC5, 0x82,
                0xB7, 0x81, 0x42, 0x82, 0xB1, 0x82, 0xF1, 0x82, 0xC9, 0x82, 0xBF, 0x82, 0xCD, 0x81, 0x41, 0x90, 0xA2,
                0x8A, 0x45, 0x81, 0x42,
            ],
            "日本": [0x93, 0xFA, 0x96, 0x7B],
            "語": [0x8C, 0xEA],
        ]
        return known[text]!
    }

    // MARK: Order of the rules

    func testByteOrderMarkWinsOverEverything() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<meta charset=shift_jis>é".utf8)
        let decoded = decode(bytes, "text/html; charset=iso-8859-1")
        XCTAssertEqual(decoded.encoding, .utf8)
        XCTAssertEqual(decoded.text, "<meta charset=shift_jis>é", "the mark itself is not text")
    }

    func testUTF16ByteOrderMarks() {
        let little: [UInt8] = [0xFF, 0xFE, 0x41, 0x00, 0xE9, 0x00]
        XCTAssertEqual(decode(little), DecodedText(text: "Aé", encoding: .utf16LE))
        let big: [UInt8] = [0xFE, 0xFF, 0x00, 0x41, 0x30, 0x42]
        XCTAssertEqual(decode(big).text, "Aあ")
    }

    func testContentTypeCharsetWinsOverMeta() {
        let bytes = latin1("<meta charset=\"utf-8\"><p>\(latin)</p>")
        let decoded = decode(bytes, "text/html; charset=ISO-8859-1")
        XCTAssertEqual(decoded.encoding.name, "windows-1252", "ISO-8859-1 means windows-1252 on the web")
        XCTAssertTrue(decoded.text.contains(latin))
    }

    func testQuotedAndOddlyCasedContentTypeCharset() {
        let decoded = decode(shiftJIS(japanese), "text/html ;Charset=\"Shift_JIS\"")
        XCTAssertEqual(decoded, DecodedText(text: japanese, encoding: .shiftJIS))
    }

    func testUnknownContentTypeCharsetIsIgnored() {
        let bytes = Array("<meta charset=shift_jis>".utf8) + shiftJIS(japanese)
        XCTAssertEqual(decode(bytes, "text/html; charset=no-such-thing").encoding, .shiftJIS)
    }

    func testMetaCharset() {
        let bytes = Array("<!DOCTYPE html><html><head><meta charset='Shift_JIS'><title>".utf8) + shiftJIS(japanese)
        let decoded = decode(bytes)
        XCTAssertEqual(decoded.encoding.name, "Shift_JIS")
        XCTAssertTrue(decoded.text.hasSuffix("<title>" + japanese))
    }

    func testMetaHTTPEquivInAnyAttributeOrder() {
        let forms = [
            "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\">",
            "<META CONTENT='text/html;charset=latin1' HTTP-EQUIV='content-type'>",
            "<meta content=\"text/html; charset = windows-1252\" http-equiv=content-type />",
        ]
        for form in forms {
            XCTAssertEqual(decode(latin1(form + latin)).encoding, .windows1252, form)
            XCTAssertTrue(decode(latin1(form + latin)).text.hasSuffix(latin), form)
        }
    }

    func testMetaContentWithoutHTTPEquivDoesNotCount() {
        let bytes = Array("<meta name=description content=\"charset=shift_jis\">".utf8) + Array(latin.utf8)
        XCTAssertEqual(decode(bytes).encoding, .utf8)
    }

    func testMetaInsideACommentOrAnotherTagDoesNotCount() {
        let comment = Array("<!-- <meta charset=shift_jis> --><p>".utf8) + Array(latin.utf8)
        XCTAssertEqual(decode(comment).encoding, .utf8)
        let attribute = Array("<div title='<meta charset=shift_jis>'><p>".utf8) + Array(latin.utf8)
        XCTAssertEqual(decode(attribute).encoding, .utf8)
    }

    func testMetaAfterTheFirst1024BytesIsNotSeen() {
        let padding = "<!DOCTYPE html>" + String(repeating: " ", count: 1100)
        let bytes = Array((padding + "<meta charset=shift_jis>").utf8) + shiftJIS(japanese)
        let decoded = decode(bytes)
        XCTAssertTrue(decoded.isGuessed, "not seen, so nothing declared the encoding")
        XCTAssertEqual(decoded.encoding, .shiftJIS, "the detector recognises the Japanese text")
    }

    func testMetaDeclaringUTF16MeansUTF8() {
        let bytes = Array("<meta charset=utf-16>\(latin)".utf8)
        XCTAssertEqual(decode(bytes), DecodedText(text: "<meta charset=utf-16>\(latin)", encoding: .utf8))
    }

    func testMetaIsOnlyReadInHTML() {
        let bytes = Array("<meta charset=shift_jis> ".utf8) + latin1(latin)
        XCTAssertEqual(decode(bytes, "text/plain", html: false).encoding, .windows1252)
    }

    func testUndeclaredValidUTF8IsUTF8() {
        XCTAssertEqual(decode(Array((latin + japanese).utf8)), DecodedText(text: latin + japanese, encoding: .utf8))
    }

    func testUndeclaredInvalidUTF8FallsBackToWindows1252() {
        let decoded = decode(latin1(latin) + [0x80, 0x93, 0x94])
        XCTAssertEqual(decoded.encoding, .windows1252)
        XCTAssertEqual(decoded.text, latin + "€“”")
        XCTAssertTrue(decoded.isGuessed)
        XCTAssertFalse(decode(Array(latin.utf8)).isGuessed, "valid UTF-8 is taken as UTF-8, not guessed")
        XCTAssertFalse(decode(latin1(latin), "text/html; charset=iso-8859-1").isGuessed, "declared")
    }

    /// Text as a legacy encoder writes it (the C library's iconv), so the test does not trust the decoder.
    func encode(_ text: String, as encoding: String) -> [UInt8] {
        let converter = iconv_open(encoding, "UTF-8")!
        defer { iconv_close(converter) }
        var input = Array(text.utf8)
        var output = [UInt8](repeating: 0, count: input.count * 4)
        var inLeft = input.count, outLeft = output.count
        input.withUnsafeMutableBytes { inBytes in
            output.withUnsafeMutableBytes { outBytes in
                var inPointer = inBytes.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outPointer = outBytes.baseAddress?.assumingMemoryBound(to: CChar.self)
                _ = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
            }
        }
        XCTAssertEqual(inLeft, 0, "\(encoding) holds the whole text")
        return Array(output[..<(output.count - outLeft)])
    }

    /// Pages that declare nothing in a legacy encoding: read as windows-1252 they were mojibake; the detector
    /// (libuchardet) names the encoding, and says it guessed.
    func testUndeclaredLegacyEncodingsAreDetected() {
        let japanese = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所で泣いていた事だけは記憶している。"
        let russian = "Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива по-своему. Всё смешалось в доме Облонских."
        let simplified = "子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？君子务本，本立而道生。"
        let traditional = "子曰：學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？君子務本，本立而道生。"
        let cases: [(String, String, String)] = [
            (japanese, "SHIFT_JIS", "Shift_JIS"), (japanese, "EUC-JP", "EUC-JP"), (russian, "KOI8-R", "KOI8-R"),
            (russian, "CP1251", "windows-1251"), (simplified, "GB18030", "gb18030"), (traditional, "BIG5", "Big5"),
        ]
        for (text, iconvName, expected) in cases {
            let page = "<!DOCTYPE html><html><head><title>t</title></head><body><p>\(text)</p></body></html>"
            let decoded = decode(encode(page, as: iconvName))
            XCTAssertEqual(decoded.encoding.name, expected, iconvName)
            XCTAssertTrue(decoded.isGuessed, iconvName)
            XCTAssertTrue(decoded.text.contains(text), "\(iconvName): \(decoded.text)")
        }
    }

    // MARK: Bad bytes

    func testInvalidBytesInDeclaredUTF8BecomeReplacementCharacters() {
        let bytes = Array("a".utf8) + [0xFF] + Array("b".utf8) + [0xE3, 0x81] + Array("c".utf8)
        let decoded = decode(bytes, "text/html; charset=utf-8")
        XCTAssertEqual(decoded.encoding, .utf8)
        XCTAssertEqual(decoded.text, "a\u{FFFD}b\u{FFFD}c")
    }

    func testInvalidShiftJISBytesBecomeReplacementCharacters() {
        // 0x81 starts a two-byte character, but a space cannot end one.
        let bytes = shiftJIS("日本") + [0x81] + Array(" A".utf8) + shiftJIS("語")
        let text = decode(bytes, "text/html; charset=shift_jis").text
        XCTAssertEqual(text, "日本\u{FFFD} A語", "the byte after a bad lead byte is read again")
    }

    func testTruncatedMultibyteCharacterAtTheEnd() {
        let bytes = shiftJIS("日本") + [0x93]
        XCTAssertEqual(decode(bytes, "text/html; charset=shift_jis").text, "日本\u{FFFD}")
        let partial = CharsetDecoder.decode(bytes, contentType: "text/html; charset=shift_jis", isHTML: true,
                                            isComplete: false)
        XCTAssertEqual(partial.text, "日本", "a character still arriving is left out, not replaced")
        let utf8 = Array("日本".utf8) + [0xE8, 0xAA]
        XCTAssertEqual(CharsetDecoder.decode(utf8, contentType: nil, isHTML: true, isComplete: false),
                       DecodedText(text: "日本", encoding: .utf8))
        XCTAssertEqual(decode(utf8), DecodedText(text: "日本\u{FFFD}", encoding: .utf8, isGuessed: true),
                       "complete and cut at its end: still UTF-8 to the detector, and the cut character is replaced")
    }

    func testWindows1252HolesAreControlCharacters() {
        let decoded = decode([0x41, 0x81, 0x8D, 0x8F, 0x90, 0x9D, 0x42], "text/plain; charset=windows-1252")
        XCTAssertEqual(decoded.text.unicodeScalars.map(\.value), [0x41, 0x81, 0x8D, 0x8F, 0x90, 0x9D, 0x42])
    }

    /// `isUnchangedUTF8` says yes exactly when `decode` takes the bytes as UTF-8 and gives them back as they are.
    func testUnchangedUTF8AgreesWithDecode() {
        let bodies: [[UInt8]] = [
            Array("<p>plain ascii".utf8), Array("<p>caf\u{E9} \u{4E2D}\u{6587}".utf8),
            [0xEF, 0xBB, 0xBF] + Array("<p>bom".utf8), [0xFF, 0xFE, 0x3C, 0x00], [0xFE, 0xFF, 0x00, 0x3C],
            Array("<meta charset=iso-8859-1><p>x".utf8), Array("<meta charset=utf-8><p>x".utf8),
            Array("<meta charset=utf-16><p>x".utf8), Array("<p>caf".utf8) + [0xE9],
            Array("<meta charset=utf-8><p>caf".utf8) + [0xE9], [0xE4, 0xB8], [],
        ]
        for body in bodies {
            for contentType in [nil, "text/html", "text/html; charset=utf-8", "text/html; charset=shift_jis",
                                "text/html; charset=nonsense"] {
                for isHTML in [true, false] {
                    let decoded = CharsetDecoder.decode(body, contentType: contentType, isHTML: isHTML)
                    let unchanged = decoded.encoding.name == "UTF-8" && Array(decoded.text.utf8) == body
                    XCTAssertEqual(CharsetDecoder.isUnchangedUTF8(body, contentType: contentType, isHTML: isHTML),
                                   unchanged, "\(body) \(contentType ?? "none") html: \(isHTML)")
                }
            }
        }
    }

    func testEveryByteDecodesToValidUTF8InEveryEncoding() {
        let allBytes = (0..<4).flatMap { _ in (0...255).map(UInt8.init) }
        for label in ["utf-8", "windows-1252", "shift_jis", "euc-jp", "iso-2022-jp", "gbk", "big5", "euc-kr",
                      "koi8-r", "iso-8859-2", "utf-16le", "utf-16be"] {
            let text = decode(allBytes, "text/plain; charset=\(label)").text
            XCTAssertNotNil(String(validating: Array(text.utf8), as: UTF8.self), label)
            XCTAssertFalse(text.isEmpty, label)
        }
    }

    func testLabels() {
        XCTAssertEqual(TextEncoding(label: " Latin1 ")?.name, "windows-1252")
        XCTAssertEqual(TextEncoding(label: "US-ASCII")?.name, "windows-1252")
        XCTAssertEqual(TextEncoding(label: "x-sjis")?.name, "Shift_JIS")
        XCTAssertEqual(TextEncoding(label: "MS932")?.name, "Shift_JIS")
        XCTAssertEqual(TextEncoding(label: "gb2312")?.name, "GBK")
        XCTAssertEqual(TextEncoding(label: "iso-8859-9")?.name, "windows-1254")
        XCTAssertNil(TextEncoding(label: "utf-7"), "not a web encoding")
        XCTAssertNil(TextEncoding(label: ""))
    }
}

/// Whether a document is shown as HTML, as text, or offered for saving.
final class CharsetContentSniffingTests: XCTestCase {
    func kind(_ type: String?, _ bytes: [UInt8], url: URL? = nil) -> ContentKind {
        ContentSniffer.kind(contentType: type, url: url, bytes: bytes[...])
    }

    func testDeclaredTypes() {
        XCTAssertEqual(kind("text/html; charset=utf-8", []), .html)
        XCTAssertEqual(kind("application/xhtml+xml", []), .html)
        XCTAssertEqual(kind("text/css", []), .text)
        XCTAssertEqual(kind("application/json", Array("{}".utf8)), .text)
        XCTAssertEqual(kind("image/png", Array("looks like text".utf8)), .binary(mimeType: "image/png"))
        XCTAssertEqual(kind("application/octet-stream", Array("text".utf8)), .binary(mimeType: "application/octet-stream"))
        XCTAssertEqual(kind("application/pdf", []), .binary(mimeType: "application/pdf"))
    }

    func testTextPlainWithBinaryBytesIsBinary() {
        XCTAssertEqual(kind("text/plain", Array("abc".utf8) + [0, 1, 2]), .binary(mimeType: "application/octet-stream"))
        XCTAssertEqual(kind("text/plain", Array("%PDF-1.4\n".utf8) + [0, 0]), .binary(mimeType: "application/pdf"))
        XCTAssertEqual(kind("text/plain", Array("plain words\n\ttabbed\r\n".utf8)), .text)
        XCTAssertEqual(kind("text/plain", [0xFF, 0xFE, 0x41, 0x00]), .text, "UTF-16 with a byte order mark")
    }

    func testNoTypeIsSniffed() {
        XCTAssertEqual(kind(nil, Array("  <!DOCTYPE html><html>".utf8)), .html)
        XCTAssertEqual(kind(nil, Array("<p>hello".utf8)), .html)
        XCTAssertEqual(kind(nil, Array("Hello, <b>world</b>".utf8)), .text)
        XCTAssertEqual(kind(nil, [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]), .binary(mimeType: "image/jpeg"))
        XCTAssertEqual(kind(nil, Array("GIF89a".utf8) + [1, 0]), .binary(mimeType: "image/gif"))
        XCTAssertEqual(kind(nil, [0x01, 0x02, 0x00]), .binary(mimeType: "application/octet-stream"))
        XCTAssertEqual(kind("application/unknown", Array("<html>".utf8)), .html)
        XCTAssertEqual(kind(nil, Array("BMW is a car".utf8)), .text, "not a bitmap")
    }

    func testOnlyTheFirst512BytesAreSniffed() {
        let late = [UInt8](repeating: UInt8(ascii: "a"), count: 600) + [0]
        XCTAssertEqual(kind(nil, late), .text)
    }

    func testFilesAreJudgedByTheirExtension() {
        let html = URL(fileURLWithPath: "/tmp/page.HTM")
        XCTAssertEqual(kind(nil, Array("no tags at all".utf8), url: html), .html)
        XCTAssertEqual(kind(nil, Array("<html>".utf8), url: URL(fileURLWithPath: "/tmp/notes.txt")), .text)
        XCTAssertEqual(kind(nil, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
                            url: URL(fileURLWithPath: "/tmp/x.png")), .binary(mimeType: "image/png"))
    }
}
