/// A token of CSS Syntax Level 3 (§4, "Tokenization"). <https://www.w3.org/TR/css-syntax-3/#tokenization>
package enum CSSToken: Equatable, Sendable {
    case ident(String)
    case function(String)
    case atKeyword(String)
    /// `isID`: the hash's value would start an identifier ("id" type flag).
    case hash(String, isID: Bool)
    case string(String)
    case badString
    case url(String)
    case badURL
    /// Always an ASCII character: every non-ASCII code point starts a name.
    case delim(UInt8)
    /// `representation` is the source text, which An+B needs (`+1` and `1` differ there).
    case number(Double, isInteger: Bool, representation: String)
    case percentage(Double)
    case dimension(Double, isInteger: Bool, representation: String, unit: String)
    case whitespace
    case cdo, cdc, colon, semicolon, comma
    case openSquare, closeSquare, openParen, closeParen, openCurly, closeCurly
    case eof
}

extension CSSToken {
    /// A token's type without its value. Comparing kinds is a byte compare; comparing tokens with `==` copies and
    /// compares their strings, which the parser's loops did for every token.
    package enum Kind: UInt8, Sendable {
        case ident, function, atKeyword, hash, string, badString, url, badURL, delim, number, percentage, dimension
        case whitespace, cdo, cdc, colon, semicolon, comma
        case openSquare, closeSquare, openParen, closeParen, openCurly, closeCurly, eof
    }

    package var kind: Kind {
        switch self {
        case .ident: return .ident
        case .function: return .function
        case .atKeyword: return .atKeyword
        case .hash: return .hash
        case .string: return .string
        case .badString: return .badString
        case .url: return .url
        case .badURL: return .badURL
        case .delim: return .delim
        case .number: return .number
        case .percentage: return .percentage
        case .dimension: return .dimension
        case .whitespace: return .whitespace
        case .cdo: return .cdo
        case .cdc: return .cdc
        case .colon: return .colon
        case .semicolon: return .semicolon
        case .comma: return .comma
        case .openSquare: return .openSquare
        case .closeSquare: return .closeSquare
        case .openParen: return .openParen
        case .closeParen: return .closeParen
        case .openCurly: return .openCurly
        case .closeCurly: return .closeCurly
        case .eof: return .eof
        }
    }

    /// The kind of token that closes a block this token opens (`{`, `[`, `(` or a function), if it opens one.
    var closingKind: Kind? {
        switch self {
        case .openCurly: return .closeCurly
        case .openSquare: return .closeSquare
        case .openParen, .function: return .closeParen
        default: return nil
        }
    }
}

/// CSS Syntax Level 3's tokenizer over UTF-8 bytes, one token at a time, so a large stylesheet is never held as a
/// list of tokens. Non-ASCII bytes are all name code points (§4.2 "non-ASCII code point"), so UTF-8 sequences are
/// copied into names and strings whole. The preprocessing of §3.3 happens as bytes are read: CR, CR LF and FF
/// count as one newline and NUL reads as U+FFFD.
package struct CSSTokenizer {
    private let bytes: [UInt8]
    private var k = 0
    /// Set while the parser reads past something it keeps nothing of (a declaration the cascade ignores, a rule's
    /// selectors before its block shows it is needed): names, numbers and strings then come without their values,
    /// which costs a string and a number parse each. The kinds and the positions are the same.
    package var discarding = false
    /// Where the last name read began: a discarded plain name is the input from here to `position`.
    package private(set) var nameStart = 0

    package init(_ text: String) { bytes = Array(text.utf8) }
    package init(bytes: [UInt8]) { self.bytes = bytes }

    /// Bytes read so far.
    package var position: Int { k }

    /// Reads on from `position`, a place an earlier token began or ended (to read a stretch again).
    package mutating func seek(to position: Int) { k = min(max(position, 0), bytes.count) }

    /// Passes over the rest of a declaration being dropped when it is plain: the bytes up to its `;` (read too) or,
    /// `insideBlock`, the block's `}` (left to be read) hold no quote, escape, `/` (a comment may start), bracket
    /// or parenthesis. Only those can put a `;` or `}` inside a token or block (CSS Syntax 3 §4.3), so every other
    /// token ends before them and the tokens would read the same. False, with nothing read, when it is not plain.
    package mutating func skipPlainDeclarationValue(insideBlock: Bool) -> Bool {
        let end = bytes.withUnsafeBufferPointer { input -> Int? in
            var i = k
            while i < input.count {
                switch input[i] {
                case ascii(";"): return i + 1
                case ascii("}"): return insideBlock ? i : nil
                case ascii("\""), ascii("'"), ascii("\\"), ascii("/"), ascii("("), ascii(")"), ascii("["),
                     ascii("]"), ascii("{"):
                    return nil
                default: i += 1
                }
            }
            return input.count
        }
        guard let end else { return false }
        k = end
        return true
    }

    /// The input between two positions, to read again.
    package func input(_ range: Range<Int>) -> [UInt8] { Array(bytes[range]) }

    func withInput<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// All the tokens up to EOF (tests and short inputs such as a `style` attribute's).
    package static func tokens(_ text: String) -> [CSSToken] {
        var tokenizer = CSSTokenizer(text)
        var tokens: [CSSToken] = []
        while true {
            let token = tokenizer.next()
            if token.kind == .eof { return tokens }
            tokens.append(token)
        }
    }

    private func byte(_ offset: Int = 0) -> UInt8? {
        let index = k + offset
        return index < bytes.count ? bytes[index] : nil
    }

    /// §4.3.1 "Consume a token".
    package mutating func next() -> CSSToken {
        skipComments()
        guard let c = byte() else { return .eof }
        switch c {
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
            while let b = byte(), Self.isWhitespace(b) { k += 1 }
            return .whitespace
        case ascii("\""), ascii("'"):
            k += 1
            return consumeString(ending: c)
        case ascii("#"):
            if let n = byte(1), Self.isName(n) || startsEscape(at: k + 1) {
                let isID = startsIdentifier(at: k + 1)
                k += 1
                return .hash(consumeName(), isID: isID)
            }
            k += 1
            return .delim(c)
        case ascii("("): k += 1; return .openParen
        case ascii(")"): k += 1; return .closeParen
        case ascii("["): k += 1; return .openSquare
        case ascii("]"): k += 1; return .closeSquare
        case ascii("{"): k += 1; return .openCurly
        case ascii("}"): k += 1; return .closeCurly
        case ascii(","): k += 1; return .comma
        case ascii(":"): k += 1; return .colon
        case ascii(";"): k += 1; return .semicolon
        case ascii("+"), ascii("."):
            if startsNumber(at: k) { return consumeNumeric() }
            k += 1
            return .delim(c)
        case ascii("-"):
            if startsNumber(at: k) { return consumeNumeric() }
            if byte(1) == ascii("-") && byte(2) == ascii(">") { k += 3; return .cdc }
            if startsIdentifier(at: k) { return consumeIdentLike() }
            k += 1
            return .delim(c)
        case ascii("<"):
            if byte(1) == ascii("!") && byte(2) == ascii("-") && byte(3) == ascii("-") { k += 4; return .cdo }
            k += 1
            return .delim(c)
        case ascii("@"):
            if startsIdentifier(at: k + 1) {
                k += 1
                return .atKeyword(consumeName())
            }
            k += 1
            return .delim(c)
        case ascii("\\"):
            if startsEscape(at: k) { return consumeIdentLike() }
            k += 1  // a parse error: a backslash before a newline
            return .delim(c)
        case ascii("0")...ascii("9"):
            return consumeNumeric()
        default:
            if Self.isNameStart(c) { return consumeIdentLike() }
            k += 1
            return .delim(c)
        }
    }

    // MARK: Code point classes (§4.2)

    private static func isWhitespace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D }
    private static func isNewline(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0C || b == 0x0D }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private static func isHex(_ b: UInt8) -> Bool { isDigit(b) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x66) }
    /// Letters, `_`, non-ASCII, and NUL (which preprocessing turns into U+FFFD, a non-ASCII code point).
    /// As bit sets over ASCII: letters, `_` and NUL start a name; digits and `-` may follow.
    @inline(__always) private static func isNameStart(_ b: UInt8) -> Bool {
        b >= 0x80 || (b < 64 ? b == 0 : (0x07FF_FFFE_87FF_FFFE as UInt64) >> UInt64(b - 64) & 1 != 0)
    }
    @inline(__always) private static func isName(_ b: UInt8) -> Bool {
        b >= 0x80 || (b < 64 ? (0x03FF_2000_0000_0001 as UInt64) >> UInt64(b) & 1 != 0
                              : (0x07FF_FFFE_87FF_FFFE as UInt64) >> UInt64(b - 64) & 1 != 0)
    }

    /// §4.3.8 "Check if two code points are a valid escape".
    private func startsEscape(at index: Int) -> Bool {
        guard index < bytes.count, bytes[index] == ascii("\\") else { return false }
        guard index + 1 < bytes.count else { return false }
        return !Self.isNewline(bytes[index + 1])
    }

    /// §4.3.9 "Check if three code points would start an ident sequence".
    private func startsIdentifier(at index: Int) -> Bool {
        guard index < bytes.count else { return false }
        let first = bytes[index]
        if first == ascii("-") {
            guard index + 1 < bytes.count else { return false }
            let second = bytes[index + 1]
            return Self.isNameStart(second) || second == ascii("-") || startsEscape(at: index + 1)
        }
        return Self.isNameStart(first) || startsEscape(at: index)
    }

    /// §4.3.10 "Check if three code points would start a number".
    private func startsNumber(at index: Int) -> Bool {
        guard index < bytes.count else { return false }
        var i = index
        if bytes[i] == ascii("+") || bytes[i] == ascii("-") { i += 1 }
        guard i < bytes.count else { return false }
        if Self.isDigit(bytes[i]) { return true }
        return bytes[i] == ascii(".") && i + 1 < bytes.count && Self.isDigit(bytes[i + 1])
    }

    // MARK: Consuming

    /// §4.3.2 "Consume comments". An unclosed comment runs to the end.
    private mutating func skipComments() {
        while byte() == ascii("/") && byte(1) == ascii("*") {
            var i = k + 2
            while i + 1 < bytes.count && !(bytes[i] == ascii("*") && bytes[i + 1] == ascii("/")) { i += 1 }
            k = i + 1 < bytes.count ? i + 2 : bytes.count
        }
    }

    /// §4.3.7 "Consume an escaped code point", after the backslash.
    private mutating func consumeEscape(into out: inout [UInt8]) {
        guard let c = byte() else {
            appendUTF8(0xFFFD, to: &out)
            return
        }
        if Self.isHex(c) {
            var value = 0
            var digits = 0
            while digits < 6, let h = byte(), Self.isHex(h) {
                value = value * 16 + (digitValue(h, hex: true) ?? 0)
                digits += 1
                k += 1
            }
            if let w = byte(), Self.isWhitespace(w) {
                k += 1
                if w == 0x0D && byte() == 0x0A { k += 1 }
            }
            let valid = value != 0 && value <= 0x10FFFF && !(0xD800...0xDFFF).contains(value)
            appendUTF8(UInt32(valid ? value : 0xFFFD), to: &out)
            return
        }
        k += 1
        if c == 0 { appendUTF8(0xFFFD, to: &out) } else { out.append(c) }
    }

    /// §4.3.12 "Consume an ident sequence".
    private mutating func consumeName() -> String {
        // Most names are plain: made straight from the input, without a buffer to copy through.
        let start = k
        nameStart = k
        let discarding = discarding
        // The plain stretch scanned, and made a string, through the buffer (no per-byte bounds checks, and the
        // string made from contiguous bytes rather than through the slice's generic path).
        let (end, plain) = bytes.withUnsafeBufferPointer { buffer -> (Int, String?) in
            var i = start
            while i < buffer.count, buffer[i] != 0, Self.isName(buffer[i]) { i += 1 }
            guard i == buffer.count || (buffer[i] != 0 && buffer[i] != ascii("\\")) else { return (i, nil) }
            return (i, discarding ? "" : String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<i]), as: UTF8.self))
        }
        k = end
        if let plain { return plain }
        if k < bytes.count, bytes[k] != 0, !startsEscape(at: k) {
            return discarding ? "" : String(decoding: bytes[start..<k], as: UTF8.self)
        }
        var out = Array(bytes[start..<k])
        while let c = byte() {
            if c == 0 {
                appendUTF8(0xFFFD, to: &out)
                k += 1
            } else if Self.isName(c) {
                out.append(c)
                k += 1
            } else if startsEscape(at: k) {
                k += 1
                consumeEscape(into: &out)
            } else {
                break
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// §4.3.5 "Consume a string token", after the opening quote.
    private mutating func consumeString(ending: UInt8) -> CSSToken {
        if discarding {
            // The same scan without the copy (an escape's value is still read, into a scratch buffer).
            var scratch: [UInt8] = []
            while let c = byte() {
                if c == ending { k += 1; break }
                if Self.isNewline(c) { return .badString }
                if c == ascii("\\") {
                    guard let n = byte(1) else { k += 1; break }
                    if Self.isNewline(n) {
                        k += 2
                        if n == 0x0D && byte() == 0x0A { k += 1 }
                    } else {
                        k += 1
                        consumeEscape(into: &scratch)
                    }
                    continue
                }
                k += 1
            }
            return .string("")
        }
        var out: [UInt8] = []
        while let c = byte() {
            if c == ending { k += 1; break }
            if Self.isNewline(c) { return .badString }  // the newline is left for the next token
            if c == ascii("\\") {
                guard let n = byte(1) else { k += 1; break }
                if Self.isNewline(n) {
                    k += 2
                    if n == 0x0D && byte() == 0x0A { k += 1 }
                } else {
                    k += 1
                    consumeEscape(into: &out)
                }
                continue
            }
            if c == 0 { appendUTF8(0xFFFD, to: &out) } else { out.append(c) }
            k += 1
        }
        return .string(String(decoding: out, as: UTF8.self))
    }

    /// §4.3.3 "Consume a numeric token".
    private mutating func consumeNumeric() -> CSSToken {
        let start = k
        var isInteger = true
        if byte() == ascii("+") || byte() == ascii("-") { k += 1 }
        while let d = byte(), Self.isDigit(d) { k += 1 }
        if byte() == ascii("."), let d = byte(1), Self.isDigit(d) {
            isInteger = false
            k += 1
            while let d = byte(), Self.isDigit(d) { k += 1 }
        }
        if let e = byte(), e | 0x20 == ascii("e") {
            var i = k + 1
            if i < bytes.count && (bytes[i] == ascii("+") || bytes[i] == ascii("-")) { i += 1 }
            if i < bytes.count && Self.isDigit(bytes[i]) {
                isInteger = false
                k = i
                while let d = byte(), Self.isDigit(d) { k += 1 }
            }
        }
        if discarding {
            if startsIdentifier(at: k) { return .dimension(0, isInteger: isInteger, representation: "", unit: consumeName()) }
            if byte() == ascii("%") {
                k += 1
                return .percentage(0)
            }
            return .number(0, isInteger: isInteger, representation: "")
        }
        let representation = String(decoding: bytes[start..<k], as: UTF8.self)
        // A hostile exponent makes an infinity; CSS clamps such values to the largest finite ones.
        var value = Double(representation.hasPrefix("+") ? String(representation.dropFirst()) : representation) ?? 0
        if !value.isFinite { value = value < 0 ? -Double.greatestFiniteMagnitude : Double.greatestFiniteMagnitude }
        if startsIdentifier(at: k) {
            return .dimension(value, isInteger: isInteger, representation: representation, unit: consumeName())
        }
        if byte() == ascii("%") {
            k += 1
            return .percentage(value)
        }
        return .number(value, isInteger: isInteger, representation: representation)
    }

    /// §4.3.4 "Consume an ident-like token".
    private mutating func consumeIdentLike() -> CSSToken {
        let start = k
        let name = consumeName()
        guard byte() == ascii("(") else { return .ident(name) }
        k += 1
        // A discarded plain name is empty: `url` is then read from the input.
        let isURL = discarding && name.isEmpty
            ? k - 1 - start == 3 && bytes[start] | 0x20 == ascii("u") && bytes[start + 1] | 0x20 == ascii("r")
                && bytes[start + 2] | 0x20 == ascii("l")
            : name.lowercased() == "url"
        if isURL {
            var i = k
            while i < bytes.count && Self.isWhitespace(bytes[i]) { i += 1 }
            if i < bytes.count && (bytes[i] == ascii("\"") || bytes[i] == ascii("'")) {
                return .function(name)
            }
            k = i
            return consumeURL()
        }
        return .function(name)
    }

    /// §4.3.6 "Consume a url token", after `url(` and whitespace.
    private mutating func consumeURL() -> CSSToken {
        var out: [UInt8] = []
        while let c = byte() {
            k += 1
            switch c {
            case ascii(")"):
                return .url(String(decoding: out, as: UTF8.self))
            case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
                while let w = byte(), Self.isWhitespace(w) { k += 1 }
                if byte() == nil { return .url(String(decoding: out, as: UTF8.self)) }
                if byte() == ascii(")") { k += 1; return .url(String(decoding: out, as: UTF8.self)) }
                consumeBadURLRemnants()
                return .badURL
            case ascii("\""), ascii("'"), ascii("("), 0x00...0x08, 0x0B, 0x0E...0x1F, 0x7F:
                consumeBadURLRemnants()
                return .badURL
            case ascii("\\"):
                if startsEscape(at: k - 1) {
                    consumeEscape(into: &out)
                } else {
                    consumeBadURLRemnants()
                    return .badURL
                }
            default:
                out.append(c)
            }
        }
        return .url(String(decoding: out, as: UTF8.self))
    }

    /// §4.3.14 "Consume the remnants of a bad url".
    private mutating func consumeBadURLRemnants() {
        while let c = byte() {
            if c == ascii(")") { k += 1; return }
            if startsEscape(at: k) {
                k += 1
                var ignored: [UInt8] = []
                consumeEscape(into: &ignored)
            } else {
                k += 1
            }
        }
    }
}
