/// The medium pages are styled for: a screen of a given width in CSS pixels. Media Queries Level 3
/// (<https://www.w3.org/TR/mediaqueries-3/>) read against it: media types `all` and `screen` match, `print` and
/// the rest never do; the features `width`, `min-width`, `max-width` in `px`, `em` and `rem` (16 px) are known,
/// `orientation` and `prefers-color-scheme` too; a query with any other feature does not match, so rules meant
/// for a medium this is not are never applied.
package struct CSSMedia: Sendable, Equatable {
    package var width: Double
    /// The reader's theme, for `prefers-color-scheme`.
    package var dark: Bool

    package init(width: Double, dark: Bool = false) {
        self.width = width
        self.dark = dark
    }

    /// The nominal screen for `--dump`: 12 CSS pixels a column, so 80 columns read as a 960 px desktop window and
    /// the layouts sites give desktop browsers apply rather than their phone layouts (a dump has no pixels; this
    /// is a choice, not a measurement).
    package static func forColumns(_ columns: Int) -> CSSMedia {
        CSSMedia(width: Double(max(columns, 20)) * 12)
    }

    /// The widths in CSS pixels at which a media query list's `width`, `min-width` and `max-width` features change
    /// their answer: a window resized across one may be styled differently (`Document.mediaWidths`).
    package static func widths(in components: [CSSComponent]) -> [Double] {
        var widths: [Double] = []
        for component in components {
            guard case .block(.openParen, let contents) = component else { continue }
            let parts = contents.filter { !$0.isWhitespace }
            guard parts.count == 3, case .token(.ident(let name)) = parts[0], parts[1].isToken(.colon),
                  ["width", "min-width", "max-width"].contains(name.lowercased()),
                  let pixels = pixels(parts[2]) else { continue }
            widths.append(pixels)
        }
        return widths
    }

    /// Whether a width change from `old` to `new` changes the answer of a width feature at any of `widths`.
    package static func answersChange(from old: Double, to new: Double, at widths: [Double]) -> Bool {
        widths.contains { (old >= $0) != (new >= $0) || (old <= $0) != (new <= $0) }
    }

    /// A comma-separated media query list: true when any query matches; an empty list matches (§2).
    package func matches(queryList components: [CSSComponent]) -> Bool {
        let list = components.trimmingWhitespace
        if list.isEmpty { return true }
        var query: [CSSComponent] = []
        for component in list {
            if component.isToken(.comma) {
                if matches(query: query) { return true }
                query = []
            } else {
                query.append(component)
            }
        }
        return matches(query: query)
    }

    /// `[only | not]? type [and (feature)]*` or `(feature) [and (feature)]*`; anything else is "not all".
    private func matches(query components: [CSSComponent]) -> Bool {
        let parts = components.filter { !$0.isWhitespace }
        var index = 0
        var negated = false
        var result = true
        if case .token(.ident(let word))? = parts.first {
            let lower = word.lowercased()
            if lower == "not" || lower == "only" {
                negated = lower == "not"
                index += 1
            }
            guard index < parts.count, case .token(.ident(let type)) = parts[index] else { return false }
            switch type.lowercased() {
            case "all", "screen": break
            case "print", "speech", "tv", "projection", "handheld", "braille", "embossed", "aural", "tty": result = false
            default: return false  // unknown or reserved: the query is "not all", even after `not`
            }
            index += 1
            guard index == parts.count || isAnd(parts[index]) else { return false }
            if index < parts.count { index += 1 }
        }
        var expectFeature = true
        while index < parts.count {
            if expectFeature {
                guard case .block(.openParen, let feature) = parts[index], let value = evaluate(feature) else {
                    return false
                }
                result = result && value
            } else {
                guard isAnd(parts[index]) else { return false }
            }
            expectFeature.toggle()
            index += 1
        }
        if parts.last.map(isAnd) == true { return false }
        return negated ? !result : result
    }

    private func isAnd(_ component: CSSComponent) -> Bool {
        if case .token(.ident(let word)) = component { return word.lowercased() == "and" }
        return false
    }

    /// One `(feature: value)`; nil when it cannot be read (the query is then "not all").
    private func evaluate(_ contents: [CSSComponent]) -> Bool? {
        let parts = contents.filter { !$0.isWhitespace }
        guard case .token(.ident(let rawName))? = parts.first else { return nil }
        let name = rawName.lowercased()
        if parts.count == 1 {
            return name == "width" || name == "orientation" || name == "color" ? true : nil
        }
        guard parts.count == 3, parts[1].isToken(.colon) else { return nil }
        switch name {
        case "width", "min-width", "max-width":
            guard let pixels = Self.pixels(parts[2]) else { return nil }
            switch name {
            case "min-width": return width >= pixels
            case "max-width": return width <= pixels
            default: return width == pixels
            }
        case "orientation":
            guard case .token(.ident(let value)) = parts[2] else { return nil }
            // A window wider than tall.
            return value.lowercased() == "landscape"
        case "prefers-color-scheme":
            guard case .token(.ident(let value)) = parts[2] else { return nil }
            return value.lowercased() == (dark ? "dark" : "light")
        case "prefers-reduced-motion":
            guard case .token(.ident(let value)) = parts[2] else { return nil }
            return value.lowercased() == "no-preference"
        default:
            return nil
        }
    }

    private static func pixels(_ component: CSSComponent) -> Double? {
        switch component {
        case .token(.dimension(let value, _, _, let unit)):
            switch unit.lowercased() {
            case "px": return value
            case "em", "rem": return value * 16
            case "pt": return value * 4 / 3
            default: return nil
            }
        case .token(.number(0, _, _)):
            return 0
        default:
            return nil
        }
    }
}
