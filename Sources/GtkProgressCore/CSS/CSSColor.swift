/// CSS colour values (CSS Color 4 §4–§6) as opaque sRGB, and the rule that decides whether a page's colours are
/// used: only where the text keeps WCAG's 4.5:1 against what is behind it (`Contrast.text`), in the reader's theme.
/// A colour with any transparency is not read (its result depends on what lies under it), nor are system colours
/// and `currentcolor`: such a value leaves the theme's colour in place.
extension Contrast.Color {
    /// `0xrrggbb`, each channel rounded to 8 bits.
    package var packed: UInt32 {
        func byte(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
        return byte(red) << 16 | byte(green) << 8 | byte(blue)
    }

    package init(packed: UInt32) {
        self.init(red: Double(packed >> 16 & 0xFF) / 255, green: Double(packed >> 8 & 0xFF) / 255,
                  blue: Double(packed & 0xFF) / 255)
    }
}

package enum CSSColor {
    /// `#rgb`, `#rrggbb` (and the alpha forms when opaque), `rgb()`/`rgba()` with numbers or percentages in the
    /// legacy and the space-separated syntax, and the basic named colours of CSS Color 4 §6.1 with `grey`/`orange`.
    package static func parse(_ value: [CSSComponent]) -> Contrast.Color? {
        let parts = value.trimmingWhitespace
        guard parts.count == 1 else { return nil }
        switch parts[0] {
        case .token(.hash(let hex, _)): return parseHex(hex)
        case .token(.ident(let name)): return named[name.lowercased()]
        case .function(let name, let arguments):
            let lower = name.lowercased()
            guard lower == "rgb" || lower == "rgba" else { return nil }
            return parseRGB(arguments)
        default: return nil
        }
    }

    private static func parseHex(_ hex: String) -> Contrast.Color? {
        let digits = hex.utf8.compactMap { byte -> Int? in
            switch byte {
            case 0x30...0x39: return Int(byte - 0x30)
            case 0x61...0x66: return Int(byte - 0x61 + 10)
            case 0x41...0x46: return Int(byte - 0x41 + 10)
            default: return nil
            }
        }
        guard digits.count == hex.utf8.count else { return nil }
        let channels: [Int]
        switch digits.count {
        case 3, 4: channels = digits.map { $0 * 17 }
        case 6, 8: channels = stride(from: 0, to: digits.count, by: 2).map { digits[$0] * 16 + digits[$0 + 1] }
        default: return nil
        }
        if channels.count == 4 && channels[3] != 255 { return nil }
        return Contrast.Color(red: Double(channels[0]) / 255, green: Double(channels[1]) / 255,
                              blue: Double(channels[2]) / 255)
    }

    private static func parseRGB(_ arguments: [CSSComponent]) -> Contrast.Color? {
        // Commas, whitespace and the `/` before alpha separate the values; only numbers and percentages count.
        var values: [Double] = []
        var opaque = true
        for component in arguments {
            switch component {
            case .token(.whitespace), .token(.comma), .token(.delim(0x2F)): continue
            case .token(.number(let number, _, _)):
                // The fourth value is alpha, a number 0…1.
                if values.count == 3 { opaque = number >= 1 }
                values.append(number)
            case .token(.percentage(let percent)):
                if values.count == 3 { opaque = percent >= 100 }
                values.append(percent * 255 / 100)
            default: return nil
            }
        }
        guard values.count == 3 || values.count == 4, opaque, values.allSatisfy(\.isFinite) else { return nil }
        func channel(_ v: Double) -> Double { min(max(v, 0), 255).rounded() / 255 }
        return Contrast.Color(red: channel(values[0]), green: channel(values[1]), blue: channel(values[2]))
    }

    private static func rgb(_ value: Int) -> Contrast.Color {
        Contrast.Color(red: Double((value >> 16) & 0xFF) / 255, green: Double((value >> 8) & 0xFF) / 255,
                       blue: Double(value & 0xFF) / 255)
    }

    /// CSS Color 4 §6.1's basic sixteen, and two frequent others.
    private static let named: [String: Contrast.Color] = [
        "black": rgb(0x000000), "silver": rgb(0xC0C0C0), "gray": rgb(0x808080), "grey": rgb(0x808080),
        "white": rgb(0xFFFFFF), "maroon": rgb(0x800000), "red": rgb(0xFF0000), "purple": rgb(0x800080),
        "fuchsia": rgb(0xFF00FF), "green": rgb(0x008000), "lime": rgb(0x00FF00), "olive": rgb(0x808000),
        "yellow": rgb(0xFFFF00), "navy": rgb(0x000080), "blue": rgb(0x0000FF), "teal": rgb(0x008080),
        "aqua": rgb(0x00FFFF), "orange": rgb(0xFFA500),
    ]

    /// Which of a page's text and background colours to paint on a theme's: the page's pair when it keeps 4.5:1,
    /// else the page's text colour alone on the theme's background, else the page's background alone under the
    /// theme's text, else neither. So text is never painted less readable than 4.5:1 by the page's doing.
    package static func readableColors(text: Contrast.Color?, background: Contrast.Color?,
                                       themeText: Contrast.Color, themeBackground: Contrast.Color)
        -> (text: Contrast.Color?, background: Contrast.Color?) {
        func holds(_ t: Contrast.Color, _ b: Contrast.Color) -> Bool { Contrast.ratio(t, b) >= Contrast.text }
        if let text, let background, holds(text, background) { return (text, background) }
        if let text, holds(text, themeBackground) { return (text, nil) }
        if let background, holds(themeText, background) { return (nil, background) }
        return (nil, nil)
    }
}
