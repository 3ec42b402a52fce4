/// Numbers in attributes, read as HTML reads them and held to a range, so that no arithmetic on a page's number
/// can overflow: `<ol start=9223372036854775807>` is as ordinary a page as any.
///
/// HTML's rules for parsing integers: skip ASCII whitespace, an optional sign, then at least one ASCII digit;
/// what follows the digits is ignored (`"3px"` is 3, `"x3"` is no number).
/// <https://html.spec.whatwg.org/multipage/common-microsyntaxes.html#rules-for-parsing-integers>
enum HTMLInteger {
    /// The value of `text` held to `range`, or nil when `text` holds no number. Any number of digits saturates
    /// rather than traps.
    static func parse(_ text: String?, clampedTo range: ClosedRange<Int>) -> Int? {
        guard let text else { return nil }
        var bytes = text.utf8[...]
        while let byte = bytes.first, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D {
            bytes = bytes.dropFirst()
        }
        var negative = false
        if let sign = bytes.first, sign == 0x2D || sign == 0x2B {
            negative = sign == 0x2D
            bytes = bytes.dropFirst()
        }
        var magnitude: UInt = 0
        var digits = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { break }
            digits += 1
            // Once the next digit could overflow, the value is past every Int: further digits keep it there.
            if magnitude <= (UInt.max - 9) / 10 { magnitude = magnitude * 10 + UInt(byte - 0x30) }
        }
        guard digits > 0 else { return nil }
        let value: Int
        if negative {
            value = magnitude >= Int.min.magnitude ? Int.min : -Int(magnitude)
        } else {
            value = magnitude > UInt(Int.max) ? Int.max : Int(magnitude)
        }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// HTML's rules for parsing non-negative integers: a negative number is no number.
    /// <https://html.spec.whatwg.org/multipage/common-microsyntaxes.html#rules-for-parsing-non-negative-integers>
    static func nonNegative(_ text: String?, clampedTo range: ClosedRange<Int>) -> Int? {
        guard let value = parse(text, clampedTo: Int.min...Int.max), value >= 0 else { return nil }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}
