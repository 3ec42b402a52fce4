import FoundationEssentials

/// How an address is shown to the reader (address entry, status line, error pages): never with its password, and
/// with its host in Unicode only where that cannot pass for another host.
///
/// - Credentials: `http://user:secret@host/` is shown `http://user@host/`; the password lives only in the request
///   (the URL Standard's "URL rendering" asks that userinfo be left out of display; Chrome and Firefox drop it).
/// - Internationalised hosts: a label in one script, or in one of the combinations Unicode's "Highly Restrictive"
///   profile allows (Latin with Han and Japanese kana, Latin with Han and Bopomofo, Latin with Han and Hangul), is
///   shown in Unicode (`bücher.de`); a label mixing other scripts (`аpple.com`, a Cyrillic а among Latin letters)
///   is shown as the punycode it is (`xn--pple-43d.com`), as Chrome and Firefox do.
///   <https://www.unicode.org/reports/tr39/#Restriction_Level_Detection>, <https://chromium.googlesource.com/chromium/src/+/main/docs/idn.md>
package enum HostDisplay {
    /// `url` as the reader sees it, percent-escapes of the path decoded for the web, file URLs as they are. Read
    /// from the address's own text (scheme, authority, the rest), so that no part of a hostile address can reach a
    /// setter that traps. With `limit`, an address longer than that many characters is cut there and ends in "…"
    /// (a label lays out all of its text however little of it fits: a megabyte of address held the window).
    package static func string(_ url: URL, limit: Int? = nil) -> String {
        let text = url.absoluteString
        let cut = limit.map { text.utf8.count > $0 } ?? false
        if url.isFileURL { return cut ? String(text.prefix(limit!)) + "…" : text }
        guard let separator = text.firstRange(of: "://") else {
            return cut ? decodedPrefix(Substring(text), characters: limit!) + "…" : decoded(text)
        }
        let afterScheme = text[separator.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: Self.endsAuthority) ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        var shown = String(text[..<separator.upperBound])
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userinfo = authority[..<at]
            shown += decoded(String(userinfo.prefix { $0 != ":" })) + "@"
            hostPort = authority[authority.index(after: at)...]
        }
        var host = hostPort, port = Substring("")
        if !hostPort.hasPrefix("["), let colon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<colon]
            port = hostPort[colon...]
        }
        shown += unicodeHost(asciiHost(String(host).removingPercentEscapes ?? String(host))) + port
        let rest = afterScheme[authorityEnd...]
        guard cut, let limit else { return shown + decoded(String(rest)) }
        let room = max(0, limit - text[..<authorityEnd].count)
        return shown + decodedPrefix(rest, characters: room) + "…"
    }

    /// The first `characters` of `raw`, percent-decoded: an escape cut in two is dropped, and so are the escaped
    /// bytes of a character cut in two (at most three escapes).
    private static func decodedPrefix(_ raw: Substring, characters: Int) -> String {
        var head = String(raw.prefix(characters))
        if let percent = head.suffix(2).lastIndex(of: "%") { head = String(head[..<percent]) }
        for _ in 0..<3 {
            if let decoded = head.removingPercentEscapes { return decoded }
            guard head.count >= 3, head.dropLast(2).last == "%" else { break }
            head.removeLast(3)
        }
        return head.removingPercentEscapes ?? head
    }

    private static func endsAuthority(_ character: Character) -> Bool {
        character == "/" || character == "?" || character == "#"
    }

    private static func decoded(_ text: String) -> String { text.removingPercentEscapes ?? text }

    /// `host` (Unicode, percent-decoded) in its ASCII form: labels outside ASCII become punycode (IDNA, done by
    /// the URL parser).
    static func asciiHost(_ host: String) -> String {
        guard !host.allSatisfy(\.isASCII) else { return host.lowercased() }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false).map { label -> String in
            guard !label.allSatisfy(\.isASCII) else { return label.lowercased() }
            return "xn--" + (Punycode.encode(String(label).lowercased()) ?? String(label))
        }
        return labels.joined(separator: ".")
    }

    /// Each `xn--` label decoded where its scripts may be shown together, else left as punycode.
    static func unicodeHost(_ host: String) -> String {
        host.split(separator: ".", omittingEmptySubsequences: false).map { label -> String in
            guard label.lowercased().hasPrefix("xn--"), let decoded = Punycode.decode(String(label.dropFirst(4))),
                  showable(decoded) else { return String(label) }
            return decoded
        }.joined(separator: ".")
    }

    /// Whether a label's scripts may be shown together (Unicode's Highly Restrictive level).
    static func showable(_ label: String) -> Bool {
        var scripts = Set<Script>()
        for scalar in label.unicodeScalars {
            guard let script = Script(scalar) else { return false }
            if script != .common { scripts.insert(script) }
        }
        if scripts.count <= 1 { return true }
        let allowed: [Set<Script>] = [[.latin, .han, .hiragana, .katakana], [.latin, .han, .bopomofo],
                                      [.latin, .han, .hangul]]
        return allowed.contains { scripts.isSubset(of: $0) }
    }

    /// The scripts a host label is told apart by: the blocks of UAX #24's main scripts. A character of none of
    /// them (symbols, private use, scripts not listed) makes the label shown as punycode.
    enum Script: Hashable {
        case common, latin, greek, cyrillic, armenian, hebrew, arabic, devanagari, bengali, tamil, thai, georgian,
             hangul, hiragana, katakana, bopomofo, han

        init?(_ scalar: Unicode.Scalar) {
            let v = scalar.value
            switch v {
            case 0x30...0x39, 0x2D, 0x5F: self = .common
            case 0x61...0x7A, 0x41...0x5A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F, 0x1E00...0x1EFF: self = .latin
            case 0x300...0x36F: self = .common // combining marks take their base's script (UAX #24 "Inherited")
            case 0x370...0x3FF, 0x1F00...0x1FFF: self = .greek
            case 0x400...0x52F: self = .cyrillic
            case 0x531...0x58F: self = .armenian
            case 0x591...0x5FF: self = .hebrew
            case 0x600...0x6FF, 0x750...0x77F: self = .arabic
            case 0x900...0x97F: self = .devanagari
            case 0x980...0x9FF: self = .bengali
            case 0xB80...0xBFF: self = .tamil
            case 0xE00...0xE7F: self = .thai
            case 0x10A0...0x10FF: self = .georgian
            case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: self = .hangul
            case 0x3041...0x309F: self = .hiragana
            case 0x30A0...0x30FF, 0x31F0...0x31FF: self = .katakana
            case 0x3100...0x312F: self = .bopomofo
            case 0x3005, 0x3007, 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2FA1F: self = .han
            case 0x30FC: self = .common // the long vowel mark, shared by kana
            default: return nil
            }
        }
    }
}

/// RFC 3492 Punycode, the encoding of Unicode host labels after `xn--`.
/// <https://www.rfc-editor.org/rfc/rfc3492#section-6>
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 0x80

    private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digit(_ value: Int) -> Character {
        Character(UnicodeScalar(UInt8(value < 26 ? 0x61 + value : 0x30 + value - 26)))
    }

    private static func value(of byte: UInt8) -> Int? {
        switch byte {
        case 0x61...0x7A: return Int(byte - 0x61)
        case 0x41...0x5A: return Int(byte - 0x41)
        case 0x30...0x39: return Int(byte - 0x30) + 26
        default: return nil
        }
    }

    /// The label's code points, or nil for input that is not Punycode (or would overflow: RFC 3492 §6.4).
    static func decode(_ input: String) -> String? {
        let bytes = Array(input.utf8)
        guard bytes.count <= 63 else { return nil }
        var output: [UInt32] = []
        var rest = bytes[...]
        if let delimiter = bytes.lastIndex(of: 0x2D) {
            for byte in bytes[..<delimiter] {
                guard byte < 0x80 else { return nil }
                output.append(UInt32(byte))
            }
            rest = bytes[(delimiter + 1)...]
        }
        var n = initialN, i = 0, bias = initialBias
        var position = rest.startIndex
        while position < rest.endIndex {
            let oldI = i
            var w = 1, k = base
            while true {
                guard position < rest.endIndex, let digit = value(of: rest[position]) else { return nil }
                position += 1
                guard digit <= (Int(Int32.max) - i) / w else { return nil }
                i += digit * w
                let t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias
                if digit < t { break }
                guard w <= Int(Int32.max) / (base - t) else { return nil }
                w *= base - t
                k += base
            }
            let count = output.count + 1
            bias = adapt(i - oldI, count, oldI == 0)
            guard i / count <= Int(Int32.max) - n else { return nil }
            n += i / count
            i %= count
            guard n <= 0x10FFFF, UnicodeScalar(UInt32(n)) != nil else { return nil }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        var text = ""
        for code in output { text.unicodeScalars.append(UnicodeScalar(code)!) }
        return text
    }

    /// The Punycode of `input` (without `xn--`), or nil for a label too long to be a host label.
    static func encode(_ input: String) -> String? {
        let scalars = input.unicodeScalars.map { Int($0.value) }
        guard scalars.count <= 63 else { return nil }
        var output = String(String.UnicodeScalarView(input.unicodeScalars.filter(\.isASCII)))
        let basic = output.unicodeScalars.count
        var handled = basic
        if basic > 0 { output.append("-") }
        var n = initialN, delta = 0, bias = initialBias
        while handled < scalars.count {
            let m = scalars.filter { $0 >= n }.min()!
            delta += (m - n) * (handled + 1)
            n = m
            for c in scalars {
                if c < n { delta += 1 }
                if c == n {
                    var q = delta, k = base
                    while true {
                        let t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basic)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return output
    }
}
