/// A `list-style-type` (CSS Lists 3 §3.1 <https://drafts.csswg.org/css-lists-3/#text-markers>): a counter style
/// from CSS Counter Styles 3's predefined ones (§6 <https://drafts.csswg.org/css-counter-styles-3/#predefined-counters>),
/// a string, or `none`.
package enum CSSListStyleType: Sendable, Equatable {
    case none
    /// The bullets (`cyclic` styles of one symbol, followed by a space).
    case disc, circle, square, disclosureOpen, disclosureClosed
    /// The numbering styles (followed by ". ").
    case decimal, decimalLeadingZero, lowerAlpha, upperAlpha, lowerRoman, upperRoman, lowerGreek
    /// `list-style-type: "…"`: the string itself is the marker.
    case string(String)

    /// The initial value (CSS Lists 3 §3.1), which an element that no rule and no HTML default reaches shows.
    package static let initial = CSSListStyleType.disc

    /// A counter style name. A name this engine does not know (another predefined style such as `armenian`, or
    /// one an `@counter-style` rule would define) reads as `decimal`, as CSS Counter Styles 3 §3 asks of a name
    /// that refers to no defined style.
    static func named(_ name: String) -> CSSListStyleType? {
        switch name {
        case "none": return CSSListStyleType.none
        case "disc": return .disc
        case "circle": return .circle
        case "square": return .square
        case "disclosure-open": return .disclosureOpen
        case "disclosure-closed": return .disclosureClosed
        case "decimal": return .decimal
        case "decimal-leading-zero": return .decimalLeadingZero
        case "lower-alpha", "lower-latin": return .lowerAlpha
        case "upper-alpha", "upper-latin": return .upperAlpha
        case "lower-roman": return .lowerRoman
        case "upper-roman": return .upperRoman
        case "lower-greek": return .lowerGreek
        // CSS-wide keywords and `list-style-position`'s are no counter style names (CSS Values 4 §3.2).
        case "inherit", "initial", "unset", "revert", "revert-layer", "default", "inside", "outside": return nil
        default: return .decimal
        }
    }

    /// `list-style-type: V` (`shorthand` false) or `list-style: V` (true), from the declaration's value: the type
    /// it sets, `.parent` for `inherit` and `unset` (the property inherits), nil when the declaration is invalid
    /// or `revert` (then it is ignored).
    ///
    /// The shorthand (CSS Lists 3 §3.4) takes a type, a position and an image in any order; the type it leaves
    /// out is reset to its initial value, `disc`, and a lone `none` is the type's (an image of `none` is also
    /// the initial one, so which of the two it is changes nothing here).
    static func declared(_ value: [CSSComponent], shorthand: Bool) -> CSSInheritable<CSSListStyleType>? {
        let parts = value.filter { !$0.isWhitespace }
        if parts.count == 1, case .token(.ident(let word)) = parts[0] {
            switch word.lowercased() {
            case "inherit", "unset": return .parent
            case "initial": return .value(initial)
            case "revert", "revert-layer": return nil
            default: break
            }
        }
        guard shorthand else {
            guard parts.count == 1 else { return nil }
            switch parts[0] {
            case .token(.ident(let word)): return named(word.lowercased()).map { .value($0) }
            case .token(.string(let text)): return .value(.string(text))
            default: return nil  // `symbols()` and anything else
            }
        }
        var type: CSSListStyleType?
        var sawNone = false
        for part in parts {
            switch part {
            case .token(.ident(let word)):
                let word = word.lowercased()
                if word == "none" {
                    sawNone = true
                } else if word != "inside" && word != "outside" {
                    guard type == nil, let named = named(word) else { return nil }
                    type = named
                }
            case .token(.string(let text)):
                guard type == nil else { return nil }
                type = .string(text)
            default:
                break  // an image: `url(…)`, a gradient
            }
        }
        return .value(type ?? (sawNone ? CSSListStyleType.none : initial))
    }
}
