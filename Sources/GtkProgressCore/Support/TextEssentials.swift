import FoundationEssentials

// The few text helpers the project needs from full Foundation, written against the standard library so that no
// target links FoundationInternationalization and its ICU data (about 30 MB of binary, 4–5 MB resident in every
// process; the README's "How it works" has the figures).

extension StringProtocol {
    /// Without leading and trailing white space, line breaks included (Unicode White_Space).
    package func trimmed() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }
}

extension String {
    /// `%XX` escapes decoded as UTF-8; nil when an escape is malformed or the bytes are not UTF-8 (as Foundation's
    /// `removingPercentEncoding`).
    package var removingPercentEscapes: String? {
        guard contains("%") else { return self }
        return PercentDecoding.decode(Array(utf8)[...], lenient: false).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// Every character outside RFC 3986's fragment and query characters (ASCII letters and digits and
    /// `!$&'()*+,-./:;=?@_~`) as `%XX` escapes of its UTF-8 bytes.
    package var escapingForURLFragment: String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for byte in utf8 {
            if Self.fragmentAllowed(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = Array("0123456789ABCDEF".utf8)
                out += "%" + String(UnicodeScalar(digits[Int(byte >> 4)])) + String(UnicodeScalar(digits[Int(byte & 15)]))
            }
        }
        return out
    }


    private static func fragmentAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!$&'()*+,-./:;=?@_~".utf8.contains(byte)
        }
    }
}

extension Double {
    /// The value with exactly `digits` decimals, rounded half away from zero, as `%.Nf` prints it: 2.25 → "2.3"
    /// with one digit, 3 → "3.000" with three.
    package func formatted(decimals digits: Int) -> String {
        guard isFinite else { return description }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(self) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return description }
        let whole = Int(scaled)
        let integer = whole / Int(scale), fraction = whole % Int(scale)
        var text = (self < 0 && whole != 0 ? "-" : "") + String(integer)
        if digits > 0 {
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return text
    }
}

/// Percent-decoding of bytes (URL Standard, "percent-decode": <https://url.spec.whatwg.org/#percent-decode>):
/// each `%XX` becomes its byte. With `lenient`, a `%` not followed by two hex digits stays as it is, as the
/// standard says; without, it makes the result nil (Foundation's `removingPercentEncoding`). Nil too past `limit`
/// bytes out.
package enum PercentDecoding {
    package static func decode(_ bytes: ArraySlice<UInt8>, lenient: Bool, limit: Int = .max) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(min(bytes.count, limit))
        var k = bytes.startIndex
        while k < bytes.endIndex {
            if out.count >= limit { return nil }
            let byte = bytes[k]
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                k += 1
                continue
            }
            if k + 2 < bytes.endIndex, let high = hexValue(bytes[k + 1]), let low = hexValue(bytes[k + 2]) {
                out.append(high << 4 | low)
                k += 3
            } else if lenient {
                out.append(byte)
                k += 1
            } else {
                return nil
            }
        }
        return out
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
