internal import CGumbo

/// The items of one list: the list's `list-style-type`, which its items inherit, and their ordinal values (HTML
/// § 4.4.8's ordinal values; CSS Lists 3 §4.4's `list-item` counter, which every list item increments whatever its
/// marker looks like).
struct ListCounter {
    let style: CSSListStyleType
    var next: Int
    let step: Int

    /// `style`: the list's own `list-style-type` as the author's styles left it, or nil for its HTML default
    /// (`htmlStyle`).
    init(element: GumboNodeRef, ordered: Bool, depth: Int, style: CSSListStyleType?) {
        self.style = style ?? Self.htmlStyle(of: element, ordered: ordered, depth: depth)
        let reversed = ordered && element.hasAttribute("reversed")
        step = reversed ? -1 : 1
        if ordered, let start = HTMLInteger.parse(element.attribute("start"), clampedTo: Self.ordinals) {
            next = start
        } else if reversed {
            next = (0..<element.childCount).filter { index in
                let child = element.child(index)
                return child.isElement && child.tag == GUMBO_TAG_LI.rawValue
            }.count
        } else {
            next = 1
        }
    }

    /// The numbers a list item can show: a 32-bit integer, as browsers store an ordinal (CSS Lists' `counter`
    /// values are integers that "may be clamped"; <https://drafts.csswg.org/css-lists-3/#valdef-counter-reset-integer>).
    static let ordinals = Int(Int32.min)...Int(Int32.max)

    /// The next item's ordinal: its own `value`, or one on from the last.
    mutating func nextOrdinal(for item: GumboNodeRef) -> Int {
        if item.hasAttributes, let value = HTMLInteger.parse(item.attribute("value"), clampedTo: Self.ordinals) {
            next = value
        }
        // `next` stays within an item count of `ordinals`, far inside Int: counting on cannot overflow.
        defer { next += step }
        return next
    }

    // MARK: HTML's defaults

    /// A list's `list-style-type` without author styles: its `type` attribute as HTML's presentational hints read
    /// it, else the user agent style sheet's (HTML § 15.3.8 <https://html.spec.whatwg.org/multipage/rendering.html#lists>):
    /// `decimal` for `ol`, and for `ul`, `menu` and `dir` a bullet that changes with the depth of nesting (disc,
    /// circle, square, then round again, as w3m's levels do).
    static func htmlStyle(of list: GumboNodeRef, ordered: Bool, depth: Int) -> CSSListStyleType {
        if list.hasAttributes, let type = list.attribute("type"),
           let hinted = ordered ? numberingHint(type) : bulletHint(type) {
            return hinted
        }
        return ordered ? .decimal : [.disc, .circle, .square][depth % 3]
    }

    /// An `li`'s own `type` attribute (HTML § 15.3.8: `li[type=a s]` and the rest), which wins over the style it
    /// inherits from its list but not over the author's rules for it.
    static func itemHint(_ item: GumboNodeRef) -> CSSListStyleType? {
        guard item.hasAttributes, let type = item.attribute("type") else { return nil }
        return numberingHint(type) ?? bulletHint(type)
    }

    /// `ol[type=1]`, `[type=a s]`, `[type=A s]`, `[type=i s]`, `[type=I s]`: compared case-sensitively.
    private static func numberingHint(_ type: String) -> CSSListStyleType? {
        switch type {
        case "1": return .decimal
        case "a": return .lowerAlpha
        case "A": return .upperAlpha
        case "i": return .lowerRoman
        case "I": return .upperRoman
        default: return nil
        }
    }

    /// `ul[type=none i]`, `disc`, `circle`, `square`: compared ASCII case-insensitively.
    private static func bulletHint(_ type: String) -> CSSListStyleType? {
        switch type.lowercased() {
        case "none": return CSSListStyleType.none
        case "disc": return .disc
        case "circle": return .circle
        case "square": return .square
        default: return nil
        }
    }

    // MARK: Markers

    /// Calls `body` with the marker for `ordinal` in `style` (CSS Counter Styles 3 §6's predefined styles) as
    /// UTF-8, without the space after it; not at all for `none` and an empty string. The marker is made in a
    /// buffer on the stack: a page of thousands of items makes no string or array for each.
    ///
    /// The bullets are the glyphs the specification gives each style (• U+2022, ◦ U+25E6, ▪ U+25AA, ▾, ▸): Dillo
    /// draws the same three shapes (a filled disc, a ring, a filled square), where w3m's `-dump` writes ●, ○ and □.
    /// A number outside a style's range falls back to `decimal` (§3.1.5 `range`, §3.1.6 `fallback`): roman
    /// numerals stop at 3999 and the alphabetic styles below 1, as in browsers.
    static func withMarker(_ ordinal: Int, style: CSSListStyleType, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        switch style {
        case .none: return
        case .disc: bullets[0].withUnsafeBufferPointer(body)
        case .circle: bullets[1].withUnsafeBufferPointer(body)
        case .square: bullets[2].withUnsafeBufferPointer(body)
        case .disclosureOpen: bullets[3].withUnsafeBufferPointer(body)
        case .disclosureClosed: bullets[4].withUnsafeBufferPointer(body)
        case .string(let text):
            // The string stands as it is; the space the writer puts after every marker replaces a trailing one.
            var utf8 = Array(text.utf8)
            while let last = utf8.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0C || last == 0x0D {
                utf8.removeLast()
            }
            if !utf8.isEmpty { utf8.withUnsafeBufferPointer(body) }
        case .decimal, .decimalLeadingZero, .lowerAlpha, .upperAlpha, .lowerGreek, .lowerRoman, .upperRoman:
            // The longest: 20 digits and a sign, 14 two-byte Greek letters, 15 roman numerals; and the period.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
                var count = 0
                switch style {
                case .decimalLeadingZero:
                    // `pad: 2 "0"`, the negative sign counting towards the two (§6.1).
                    if (0...9).contains(ordinal) { buffer[0] = 0x30; count = 1 }
                    count = writeDecimal(ordinal, into: buffer, at: count)
                case .lowerAlpha, .upperAlpha, .lowerGreek:
                    let symbols = style == .lowerGreek ? greek : style == .upperAlpha ? upperLatin : lowerLatin
                    count = writeAlphabetic(ordinal, symbols, into: buffer) ?? writeDecimal(ordinal, into: buffer, at: 0)
                case .lowerRoman, .upperRoman:
                    count = writeRoman(ordinal, style == .upperRoman ? upperNumerals : lowerNumerals, into: buffer)
                        ?? writeDecimal(ordinal, into: buffer, at: 0)
                default:
                    count = writeDecimal(ordinal, into: buffer, at: 0)
                }
                buffer[count] = 0x2E  // the numbering styles' suffix is ". " (§6.1)
                body(UnsafeBufferPointer(rebasing: buffer[..<(count + 1)]))
            }
        }
    }

    private static let bullets = ["•", "◦", "▪", "▾", "▸"].map { Array($0.utf8) }

    /// `decimal` written from `start`: the digits, after a hyphen-minus for a negative number; returns the end.
    private static func writeDecimal(_ number: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var at = start
        if number < 0 { buffer[at] = 0x2D; at += 1 }
        let magnitude = number.magnitude  // Int.min's too, as a UInt
        var digits = 1, rest = magnitude / 10
        while rest > 0 { digits += 1; rest /= 10 }
        var m = magnitude
        for index in stride(from: at + digits - 1, through: at, by: -1) {
            buffer[index] = 0x30 + UInt8(m % 10)
            m /= 10
        }
        return at + digits
    }

    private static let lowerLatin = "abcdefghijklmnopqrstuvwxyz".map { Array($0.utf8) }
    private static let upperLatin = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map { Array($0.utf8) }
    /// `lower-greek`'s symbols (§6.2).
    private static let greek = "αβγδεζηθικλμνξοπρστυφχψω".map { Array($0.utf8) }

    /// The `alphabetic` system (§3.1.4): a, b … z, aa, ab …; nil below 1, where it has no representation. Returns
    /// the end. At most 14 letters in base 24 or more for any Int, of at most 2 bytes each.
    private static func writeAlphabetic(_ number: Int, _ symbols: [[UInt8]],
                                        into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard number > 0 else { return nil }
        let base = symbols.count
        // Its length first, then the letters from the last back, each letter's bytes in order.
        var end = 0, n = number
        while n > 0 {
            n -= 1
            end += symbols[n % base].count
            n /= base
        }
        var at = end
        n = number
        while n > 0 {
            n -= 1
            let symbol = symbols[n % base]
            at -= symbol.count
            for (offset, byte) in symbol.enumerated() { buffer[at + offset] = byte }
            n /= base
        }
        return end
    }

    /// The additive symbols of `lower-roman` and `upper-roman` (§6.1).
    private static let lowerNumerals: [(Int, [UInt8])] = [
        (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"),
        (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
    ].map { ($0.0, Array($0.1.utf8)) }
    private static let upperNumerals = lowerNumerals.map { ($0.0, $0.1.map { $0 - 0x20 }) }

    /// The `additive` roman numerals in their range 1...3999 (15 letters at most); nil outside it. Returns the end.
    private static func writeRoman(_ number: Int, _ numerals: [(Int, [UInt8])],
                                   into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard number > 0 && number < 4000 else { return nil }
        var n = number, at = 0
        for (value, letters) in numerals {
            while n >= value {
                for byte in letters { buffer[at] = byte; at += 1 }
                n -= value
            }
        }
        return at
    }
}
