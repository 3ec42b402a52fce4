internal import CUchardet

/// Text decoded from a document's bytes, with the encoding it was decoded from.
package struct DecodedText: Sendable, Equatable {
    package var text: String
    package var encoding: TextEncoding
    /// Nothing declared the encoding and the bytes are not UTF-8: it was guessed (by libuchardet, or the
    /// windows-1252 fallback), so the reader should be told.
    package var isGuessed: Bool

    package init(text: String, encoding: TextEncoding, isGuessed: Bool = false) {
        self.text = text
        self.encoding = encoding
        self.isGuessed = isGuessed
    }
}

/// Turns a document's bytes into valid UTF-8 text, choosing the encoding the way browsers do
/// (<https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding>, simplified):
/// a byte order mark, then the `Content-Type` charset, then `<meta charset>` or `<meta http-equiv>` in the first
/// 1024 bytes (HTML only), then UTF-8 if the bytes are valid UTF-8, else what libuchardet detects (the
/// standard's step of "autodetection", which browsers do for legacy pages that declare nothing), else
/// windows-1252.
/// Bytes that do not decode become U+FFFD; the result is always valid UTF-8.
package enum CharsetDecoder {
    /// How far into a document `<meta charset>` is looked for.
    package static let metaPrescanLength = 1024

    /// What names a document's encoding, in the order the standard looks: a byte order mark (and its length),
    /// else the `Content-Type` charset, else `<meta>` in the first 1024 bytes (HTML only), else nothing. The one
    /// place that order is kept: `decode` and `isUnchangedUTF8` both start from it.
    enum Declaration {
        case byteOrderMark(TextEncoding, length: Int)
        case declared(TextEncoding)
        case undeclared
    }

    static func declaration(_ bytes: [UInt8], contentType: String?, isHTML: Bool) -> Declaration {
        let (bomEncoding, bomLength) = byteOrderMark(bytes)
        if let encoding = bomEncoding { return .byteOrderMark(encoding, length: bomLength) }
        if let label = contentType.flatMap(MediaType.init)?.charset, let encoding = TextEncoding(label: label) {
            return .declared(encoding)
        }
        if isHTML, let encoding = prescanMeta(bytes.prefix(metaPrescanLength)) { return .declared(encoding) }
        return .undeclared
    }

    /// Decodes `bytes`. With `isComplete` false (a document still arriving) a character cut in two at the end is
    /// left out instead of becoming U+FFFD. Undeclared bytes are UTF-8 when they are valid UTF-8, else what
    /// libuchardet detects, else windows-1252.
    package static func decode(_ bytes: [UInt8], contentType: String?, isHTML: Bool,
                              isComplete: Bool = true) -> DecodedText {
        switch declaration(bytes, contentType: contentType, isHTML: isHTML) {
        case .byteOrderMark(let encoding, let length):
            return DecodedText(text: decode(bytes[length...], as: encoding, isComplete: isComplete),
                               encoding: encoding)
        case .declared(let encoding):
            return DecodedText(text: decode(bytes[...], as: encoding, isComplete: isComplete), encoding: encoding)
        case .undeclared:
            let whole = isComplete ? bytes[...] : bytes[..<completeUTF8Prefix(bytes[...])]
            if let text = String(validating: whole, as: UTF8.self) {
                return DecodedText(text: text, encoding: .utf8)
            }
            let guess = detect(bytes.prefix(detectionLength)) ?? .windows1252
            return DecodedText(text: decode(bytes[...], as: guess, isComplete: isComplete), encoding: guess,
                               isGuessed: true)
        }
    }

    /// Whether `decode` would give `bytes` back unchanged, as UTF-8 (no byte order mark, no other charset
    /// declared, every sequence valid): the document can then be read from the bytes themselves, without a
    /// decoded copy of it beside them (`PageDump.write`). Checked without allocating.
    package static func isUnchangedUTF8(_ bytes: [UInt8], contentType: String?, isHTML: Bool) -> Bool {
        switch declaration(bytes, contentType: contentType, isHTML: isHTML) {
        case .byteOrderMark: return false
        case .declared(let encoding) where encoding.decoder != .utf8: return false
        case .declared, .undeclared: return (try? UTF8Span(validating: bytes.span)) != nil
        }
    }

    /// How much of a document the detector reads: enough for any language's statistics, and bounded, so a
    /// large page costs no more than a small one.
    static let detectionLength = 64 * 1024

    /// The encoding libuchardet finds most likely for `bytes`, if it is one the web knows (its names are mostly
    /// WHATWG labels already). <https://gitlab.freedesktop.org/uchardet/uchardet/-/blob/master/src/uchardet.h>
    static func detect(_ bytes: ArraySlice<UInt8>) -> TextEncoding? {
        guard !bytes.isEmpty else { return nil }
        var found = [CChar](repeating: 0, count: 64)
        let detected = bytes.withUnsafeBytes { buffer in
            cuchardet_detect(buffer.baseAddress!.assumingMemoryBound(to: CChar.self), buffer.count, &found, found.count)
        }
        let name = String(decoding: found.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard detected, !name.isEmpty else { return nil }
        // "UHC" is Windows' Korean code page, which the web calls EUC-KR.
        return TextEncoding(label: name == "UHC" ? "euc-kr" : name)
    }

    /// Decodes `bytes` in a known encoding.
    package static func decode(_ bytes: ArraySlice<UInt8>, as encoding: TextEncoding, isComplete: Bool = true) -> String {
        switch encoding.decoder {
        case .utf8:
            return String(decoding: isComplete ? bytes : bytes[..<completeUTF8Prefix(bytes)], as: UTF8.self)
        case .utf16(let bigEndian):
            return decodeUTF16(bytes, bigEndian: bigEndian, isComplete: isComplete)
        case .windows1252:
            return decodeWindows1252(bytes)
        case .iconv(let name):
            guard let converter = IconvConverter(from: name) else {
                return decodeWindows1252(bytes)
            }
            return converter.convert(bytes, isComplete: isComplete)
        }
    }

    /// The encoding a byte order mark names, and the mark's length.
    static func byteOrderMark(_ bytes: [UInt8]) -> (TextEncoding?, Int) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
        return (nil, 0)
    }

    /// The end of `bytes` without a trailing, incomplete UTF-8 sequence.
    static func completeUTF8Prefix(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>.Index {
        var index = bytes.endIndex
        var continuation = 0
        while index > bytes.startIndex && continuation < 3 {
            let byte = bytes[index - 1]
            if byte & 0xC0 == 0x80 {
                continuation += 1
                index -= 1
                continue
            }
            let needed = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0
            return needed > continuation ? index - 1 : bytes.endIndex
        }
        return bytes.endIndex
    }

    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, isComplete: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        if !isComplete, let last = units.last, (0xD800...0xDBFF).contains(last) { units.removeLast() }
        var text = String(decoding: units, as: UTF16.self)
        if isComplete && bytes.count % 2 == 1 { text.append("\u{FFFD}") }
        return text
    }

    /// windows-1252 as the Encoding Standard defines it: 0x80–0x9F are the typographic characters of the code
    /// page (and C1 controls for its five holes), everything else is Latin-1.
    private static func decodeWindows1252(_ bytes: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes {
            let value = (0x80...0x9F).contains(byte) ? windows1252High[Int(byte) - 0x80] : UInt32(byte)
            scalars.append(Unicode.Scalar(value)!)
        }
        return String(scalars)
    }

    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
