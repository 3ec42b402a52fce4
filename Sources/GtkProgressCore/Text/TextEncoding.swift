/// A character encoding the loader can decode, named as the WHATWG Encoding Standard names it
/// (<https://encoding.spec.whatwg.org/#names-and-labels>). Only labels from that table are accepted, so a page
/// cannot pick an obscure converter (UTF-7 and friends) by naming it.
package struct TextEncoding: Sendable, Equatable, Hashable, CustomStringConvertible {
    enum Decoder: Sendable, Equatable, Hashable {
        case utf8
        case utf16(bigEndian: Bool)
        case windows1252
        /// Decoded by the C library's iconv under this name.
        case iconv(String)
    }

    /// The WHATWG name: "UTF-8", "windows-1252", "Shift_JIS", …
    package let name: String
    let decoder: Decoder

    package var description: String { name }

    package static let utf8 = TextEncoding(name: "UTF-8", decoder: .utf8)
    package static let utf16LE = TextEncoding(name: "UTF-16LE", decoder: .utf16(bigEndian: false))
    package static let utf16BE = TextEncoding(name: "UTF-16BE", decoder: .utf16(bigEndian: true))
    /// Also what `ISO-8859-1`, `latin1` and `US-ASCII` mean on the web.
    package static let windows1252 = TextEncoding(name: "windows-1252", decoder: .windows1252)
    /// Also what `Shift_JIS` means on the web: decoded as Microsoft's superset, code page 932.
    package static let shiftJIS = TextEncoding(name: "Shift_JIS", decoder: .iconv("CP932"))

    /// The encoding a label names (case and surrounding white space ignored), or nil for an unknown label.
    package init?(label: String) {
        let key = label.trimmingASCIIWhitespace().lowercased()
        guard let encoding = TextEncoding.byLabel[key] else { return nil }
        self = encoding
    }

    init(name: String, decoder: Decoder) {
        self.name = name
        self.decoder = decoder
    }

    private static let byLabel: [String: TextEncoding] = {
        var table: [String: TextEncoding] = [:]
        func add(_ encoding: TextEncoding, _ labels: [String]) {
            for label in labels { table[label] = encoding }
        }
        func iconv(_ name: String, _ converter: String) -> TextEncoding {
            TextEncoding(name: name, decoder: .iconv(converter))
        }
        add(.utf8, ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"])
        add(.utf16LE, ["csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le"])
        add(.utf16BE, ["unicodefffe", "utf-16be"])
        add(.windows1252, ["ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1",
                           "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1",
                           "us-ascii", "windows-1252", "x-cp1252"])
        add(.shiftJIS, ["csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis"])
        add(iconv("EUC-JP", "EUC-JP"), ["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"])
        add(iconv("ISO-2022-JP", "ISO-2022-JP"), ["csiso2022jp", "iso-2022-jp"])
        add(iconv("GBK", "GB18030"), ["chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80",
                                     "gbk", "iso-ir-58", "x-gbk"])
        add(iconv("gb18030", "GB18030"), ["gb18030"])
        add(iconv("Big5", "BIG5-HKSCS"), ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"])
        add(iconv("EUC-KR", "CP949"), ["cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean",
                                       "ks_c_5601-1987", "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949"])
        add(iconv("KOI8-R", "KOI8-R"), ["cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"])
        add(iconv("KOI8-U", "KOI8-U"), ["koi8-ru", "koi8-u"])
        add(iconv("IBM866", "CP866"), ["866", "cp866", "csibm866", "ibm866"])
        add(iconv("macintosh", "MACINTOSH"), ["csmacintosh", "mac", "macintosh", "x-mac-roman"])
        for n in [1250, 1251, 1253, 1254, 1255, 1256, 1257, 1258] {
            add(iconv("windows-\(n)", "CP\(n)"), ["cp\(n)", "windows-\(n)", "x-cp\(n)"])
        }
        // ISO-8859-9 is windows-1254 on the web; 1 is windows-1252 (above); 12 does not exist.
        table["iso-8859-9"] = table["windows-1254"]
        table["iso8859-9"] = table["windows-1254"]
        table["latin5"] = table["windows-1254"]
        for n in [2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16] {
            add(iconv("ISO-8859-\(n)", "ISO-8859-\(n)"), ["iso-8859-\(n)", "iso8859-\(n)", "iso_8859-\(n)"])
        }
        add(table["iso-8859-2"]!, ["latin2", "l2", "csisolatin2"])
        add(table["iso-8859-5"]!, ["cyrillic", "csisolatincyrillic"])
        add(table["iso-8859-7"]!, ["greek", "greek8", "csisolatingreek"])
        add(table["iso-8859-15"]!, ["latin9", "l9", "csisolatin9"])
        return table
    }()
}

extension StringProtocol {
    package func trimmingASCIIWhitespace() -> String {
        let whitespace: Set<Character> = [" ", "\t", "\n", "\r", "\r\n", "\u{0C}"]
        var slice = Substring(self)
        while let first = slice.first, whitespace.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, whitespace.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
