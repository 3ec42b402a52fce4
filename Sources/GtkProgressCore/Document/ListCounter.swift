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

    /// The marker text for `ordinal` in `style` (CSS Counter Styles 3 §6's predefined styles), without the space
    /// after it; nil for `none` and an empty string.
    ///
    /// The bullets are the glyphs the specification gives each style (• U+2022, ◦ U+25E6, ▪ U+25AA, ▾, ▸): Dillo
    /// draws the same three shapes (a filled disc, a ring, a filled square), where w3m's `-dump` writes ●, ○ and □.
    /// A number outside a style's range falls back to `decimal` (§3.1.5 `range`, §3.1.6 `fallback`): roman
    /// numerals stop at 3999 and the alphabetic styles below 1, as in browsers.
    static func marker(_ ordinal: Int, style: CSSListStyleType) -> String? {
        switch style {
        case .none: return nil
        case .disc: return "•"
        case .circle: return "◦"
        case .square: return "▪"
        case .disclosureOpen: return "▾"
        case .disclosureClosed: return "▸"
        case .string(let text):
            // The string stands as it is; the space the writer puts after every marker replaces a trailing one.
            let trimmed = text.unicodeScalars.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\n" }
            return trimmed.isEmpty ? nil : String(String.UnicodeScalarView(trimmed.reversed()))
        case .decimal: return String(ordinal) + "."
        case .decimalLeadingZero:
            // `pad: 2 "0"`, the negative sign counting towards the two (§6.1).
            return (0...9).contains(ordinal) ? "0" + String(ordinal) + "." : String(ordinal) + "."
        case .lowerAlpha: return (alphabetic(ordinal, Self.latin) ?? String(ordinal)) + "."
        case .upperAlpha: return (alphabetic(ordinal, Self.latin)?.uppercased() ?? String(ordinal)) + "."
        case .lowerGreek: return (alphabetic(ordinal, Self.greek) ?? String(ordinal)) + "."
        case .lowerRoman: return (roman(ordinal) ?? String(ordinal)) + "."
        case .upperRoman: return (roman(ordinal)?.uppercased() ?? String(ordinal)) + "."
        }
    }

    private static let latin: [Character] = Array("abcdefghijklmnopqrstuvwxyz")
    /// `lower-greek`'s symbols (§6.2).
    private static let greek: [Character] = Array("αβγδεζηθικλμνξοπρστυφχψω")

    /// The `alphabetic` system (§3.1.4): a, b … z, aa, ab …; nil below 1, where it has no representation.
    static func alphabetic(_ number: Int, _ symbols: [Character]) -> String? {
        guard number > 0 else { return nil }
        var n = number
        var letters: [Character] = []
        while n > 0 {
            n -= 1
            letters.append(symbols[n % symbols.count])
            n /= symbols.count
        }
        return String(letters.reversed())
    }

    /// The `additive` roman numerals of `lower-roman` (§6.1), in their range 1...3999; nil outside it.
    static func roman(_ number: Int) -> String? {
        guard number > 0 && number < 4000 else { return nil }
        let numerals = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
                        (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
        var n = number
        var roman = ""
        for (value, letters) in numerals {
            while n >= value { roman += letters; n -= value }
        }
        return roman
    }
}
