/// The character references the prefilter decodes itself; every other one is left to gumbo.
///
/// Only references whose meaning cannot depend on what follows: a name or number ended by `;`, naming a character
/// gumbo would insert as it is. Whitespace is excluded because gumbo's tree construction treats whitespace
/// characters differently from others, and so are controls, private-use characters and noncharacters.
/// <https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state>
enum CharacterReference {
    /// Decodes the reference starting with `&` at `k`: its character and length in bytes.
    static func decode(_ source: UnsafeBufferPointer<UInt8>, at k: Int) -> (UInt32, Int)? {
        var j = k + 1
        guard j < source.count else { return nil }
        if source[j] == ascii("#") {
            j += 1
            var hex = false
            if j < source.count && (source[j] | 0x20) == ascii("x") { hex = true; j += 1 }
            let digitsStart = j
            var value: UInt32 = 0
            while j < source.count, j - digitsStart < 8, let digit = digitValue(source[j], hex: hex) {
                value = value * (hex ? 16 : 10) + UInt32(digit)
                j += 1
            }
            guard j > digitsStart, j < source.count, source[j] == ascii(";"), isInsertedUnchanged(value) else {
                return nil
            }
            return (value, j + 1 - k)
        }
        let nameStart = j
        while j < source.count, j - nameStart <= 8, isAlphanumeric(source[j]) { j += 1 }
        guard j > nameStart, j < source.count, source[j] == ascii(";") else { return nil }
        let name = String(decoding: source[nameStart..<j], as: UTF8.self)
        guard let scalar = named[name] else { return nil }
        return (scalar, j + 1 - k)
    }

    /// Characters a numeric reference turns into as they are (not remapped, not replaced, not whitespace).
    private static func isInsertedUnchanged(_ value: UInt32) -> Bool {
        switch value {
        case 0x21...0x7E, 0xA0...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD: return true
        case 0x10000...0x10FFFD: return value & 0xFFFE != 0xFFFE
        default: return false
        }
    }

    /// The markup-significant names, the Latin-1 names (U+00A0 to U+00FF in order) and common punctuation.
    private static let named: [String: UInt32] = {
        var table: [String: UInt32] = ["amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27,
                                       "ndash": 0x2013, "mdash": 0x2014, "lsquo": 0x2018, "rsquo": 0x2019,
                                       "sbquo": 0x201A, "ldquo": 0x201C, "rdquo": 0x201D, "bdquo": 0x201E,
                                       "bull": 0x2022, "hellip": 0x2026, "prime": 0x2032, "lsaquo": 0x2039,
                                       "rsaquo": 0x203A, "euro": 0x20AC, "trade": 0x2122, "larr": 0x2190,
                                       "rarr": 0x2192, "harr": 0x2194, "minus": 0x2212, "times": 0xD7]
        let latin1 = """
            nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 \
            acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde \
            Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute \
            Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde \
            auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute \
            ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml
            """.split(separator: " ")
        for (offset, name) in latin1.enumerated() { table[String(name)] = 0xA0 + UInt32(offset) }
        return table
    }()
}
