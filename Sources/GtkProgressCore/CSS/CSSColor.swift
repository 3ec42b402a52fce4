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

/// A colour as CSS gives it: sRGB channels and an alpha, 0 (transparent) to 1 (opaque).
package struct CSSRGBA: Sendable, Equatable, Hashable {
    /// `0xrrggbb`.
    package var rgb: UInt32
    package var alpha: Double

    package init(rgb: UInt32, alpha: Double = 1) {
        self.rgb = rgb
        self.alpha = min(max(alpha.isFinite ? alpha : 1, 0), 1)
    }

    package var isOpaque: Bool { alpha >= 1 }
    package var isTransparent: Bool { alpha <= 0 }

    /// This colour painted over an opaque `backdrop` (Compositing 1 §5.1, simple alpha compositing: each channel
    /// `αs × Cs + (1 − αs) × Cb`), rounded to 8 bits a channel.
    package func composited(over backdrop: UInt32) -> UInt32 {
        func channel(_ shift: UInt32) -> UInt32 {
            let top = Double(rgb >> shift & 0xFF), bottom = Double(backdrop >> shift & 0xFF)
            return UInt32((alpha * top + (1 - alpha) * bottom).rounded()) << shift
        }
        return channel(16) | channel(8) | channel(0)
    }
}

package enum CSSColor {
    /// An opaque colour: what `parseWithAlpha` reads when its alpha is 1; nil for any transparency.
    package static func parse(_ value: [CSSComponent]) -> Contrast.Color? {
        guard let color = parseWithAlpha(value), color.isOpaque else { return nil }
        return Contrast.Color(packed: color.rgb)
    }

    /// CSS Color 4: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` (§5.2), `rgb()`/`rgba()` (§5.1) and `hsl()`/`hsla()`
    /// (§7) in their legacy comma and modern space syntax with an optional `/ alpha`, the 148 named colours (§6.1)
    /// and `transparent` (§6.3). `currentcolor`, system colours and the other functions are not read (nil).
    package static func parseWithAlpha(_ value: [CSSComponent]) -> CSSRGBA? {
        let parts = value.trimmingWhitespace
        guard parts.count == 1 else { return nil }
        switch parts[0] {
        case .token(.hash(let hex, _)): return parseHex(hex)
        case .token(.ident(let name)):
            let lower = name.lowercased()
            if lower == "transparent" { return CSSRGBA(rgb: 0, alpha: 0) }
            return named[lower].map { CSSRGBA(rgb: $0) }
        case .function(let name, let arguments):
            switch name.lowercased() {
            case "rgb", "rgba": return parseRGB(arguments)
            case "hsl", "hsla": return parseHSL(arguments)
            default: return nil
            }
        default: return nil
        }
    }

    private static func parseHex(_ hex: String) -> CSSRGBA? {
        // The digits packed four bits each, read in one pass without arrays (at most eight are valid).
        var packed: UInt32 = 0
        var count = 0
        for byte in hex.utf8 {
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            default: return nil
            }
            count += 1
            guard count <= 8 else { return nil }
            packed = packed << 4 | digit
        }
        func digit(_ index: Int) -> UInt32 { packed >> UInt32(4 * (count - 1 - index)) & 0xF }
        let red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32?
        switch count {
        case 3, 4:
            (red, green, blue) = (digit(0) * 17, digit(1) * 17, digit(2) * 17)
            alpha = count == 4 ? digit(3) * 17 : nil
        case 6, 8:
            (red, green, blue) = (digit(0) * 16 + digit(1), digit(2) * 16 + digit(3), digit(4) * 16 + digit(5))
            alpha = count == 8 ? digit(6) * 16 + digit(7) : nil
        default:
            return nil
        }
        return CSSRGBA(rgb: red << 16 | green << 8 | blue, alpha: alpha.map { Double($0) / 255 } ?? 1)
    }

    /// A function's arguments: numbers, percentages, angles and `none`, separated by commas (legacy syntax) or
    /// whitespace with `/` before the alpha (modern syntax). Nil when anything else is there or the two
    /// syntaxes are mixed.
    private enum Argument { case number(Double), percentage(Double), angle(degrees: Double), none }

    private static func arguments(_ components: [CSSComponent]) -> (values: [Argument], alpha: Argument?)? {
        var values: [Argument] = []
        var alpha: Argument?
        var commas = 0, slash = false
        for component in components {
            let argument: Argument
            switch component {
            case .token(.whitespace): continue
            case .token(.comma): commas += 1; continue
            case .token(.delim(0x2F)):
                guard !slash, values.count == 3 else { return nil }
                slash = true
                continue
            case .token(.number(let number, _, _)): argument = .number(number)
            case .token(.percentage(let percent)): argument = .percentage(percent)
            case .token(.dimension(let number, _, _, let unit)):
                switch unit.lowercased() {
                case "deg": argument = .angle(degrees: number)
                case "grad": argument = .angle(degrees: number * 360 / 400)
                case "rad": argument = .angle(degrees: number * 180 / Double.pi)
                case "turn": argument = .angle(degrees: number * 360)
                default: return nil
                }
            case .token(.ident(let word)) where word.lowercased() == "none" && commas == 0: argument = .none
            default: return nil
            }
            if slash { guard alpha == nil else { return nil }; alpha = argument } else { values.append(argument) }
        }
        // Legacy: a, b, c[, alpha] — commas between every value, no slash. Modern: no commas.
        if commas > 0 {
            guard !slash, commas == values.count - 1, values.count == 3 || values.count == 4,
                  !values.contains(where: { if case .none = $0 { return true } else { return false } }) else { return nil }
            if values.count == 4 { alpha = values.removeLast() }
        }
        guard values.count == 3 else { return nil }
        return (values, alpha)
    }

    /// The alpha value: a number 0…1 or a percentage, clamped; absent is opaque.
    private static func alphaValue(_ argument: Argument?) -> Double? {
        switch argument {
        case nil: return 1
        case .number(let number)?: return number
        case .percentage(let percent)?: return percent / 100
        case .none?: return 0
        case .angle?: return nil
        }
    }

    private static func byte(_ value: Double) -> UInt32 {
        guard value.isFinite else { return value > 0 ? 255 : 0 }
        return UInt32(min(max(value, 0), 255).rounded())
    }

    private static func parseRGB(_ components: [CSSComponent]) -> CSSRGBA? {
        guard let (values, alpha) = arguments(components), let opacity = alphaValue(alpha) else { return nil }
        var channels: [UInt32] = []
        for value in values {
            switch value {
            case .number(let number): channels.append(byte(number))
            case .percentage(let percent): channels.append(byte(percent * 255 / 100))
            case .none: channels.append(0)
            case .angle: return nil
            }
        }
        return CSSRGBA(rgb: channels[0] << 16 | channels[1] << 8 | channels[2], alpha: opacity)
    }

    /// CSS Color 4 §7.1 "Converting HSL Colors to sRGB", with the hue in degrees and saturation and lightness
    /// clamped to 0…100 %.
    private static func parseHSL(_ components: [CSSComponent]) -> CSSRGBA? {
        guard let (values, alpha) = arguments(components), let opacity = alphaValue(alpha) else { return nil }
        let hue: Double
        switch values[0] {
        case .number(let degrees), .angle(let degrees): hue = degrees
        case .none: hue = 0
        case .percentage: return nil
        }
        func percent(_ argument: Argument) -> Double? {
            switch argument {
            case .percentage(let value), .number(let value): return min(max(value.isFinite ? value : 0, 0), 100) / 100
            case .none: return 0
            case .angle: return nil
            }
        }
        guard hue.isFinite, let saturation = percent(values[1]), let lightness = percent(values[2]) else { return nil }
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = saturation * min(lightness, 1 - lightness)
            return lightness - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return CSSRGBA(rgb: byte(f(0) * 255) << 16 | byte(f(8) * 255) << 8 | byte(f(4) * 255), alpha: opacity)
    }

    /// CSS Color 4 §6.1, all 148 named colours.
    static let named: [String: UInt32] = [
        "aliceblue": 0xF0F8FF, "antiquewhite": 0xFAEBD7, "aqua": 0x00FFFF, "aquamarine": 0x7FFFD4, "azure": 0xF0FFFF,
        "beige": 0xF5F5DC, "bisque": 0xFFE4C4, "black": 0x000000, "blanchedalmond": 0xFFEBCD, "blue": 0x0000FF,
        "blueviolet": 0x8A2BE2, "brown": 0xA52A2A, "burlywood": 0xDEB887, "cadetblue": 0x5F9EA0,
        "chartreuse": 0x7FFF00, "chocolate": 0xD2691E, "coral": 0xFF7F50, "cornflowerblue": 0x6495ED,
        "cornsilk": 0xFFF8DC, "crimson": 0xDC143C, "cyan": 0x00FFFF, "darkblue": 0x00008B, "darkcyan": 0x008B8B,
        "darkgoldenrod": 0xB8860B, "darkgray": 0xA9A9A9, "darkgreen": 0x006400, "darkgrey": 0xA9A9A9,
        "darkkhaki": 0xBDB76B, "darkmagenta": 0x8B008B, "darkolivegreen": 0x556B2F, "darkorange": 0xFF8C00,
        "darkorchid": 0x9932CC, "darkred": 0x8B0000, "darksalmon": 0xE9967A, "darkseagreen": 0x8FBC8F,
        "darkslateblue": 0x483D8B, "darkslategray": 0x2F4F4F, "darkslategrey": 0x2F4F4F, "darkturquoise": 0x00CED1,
        "darkviolet": 0x9400D3, "deeppink": 0xFF1493, "deepskyblue": 0x00BFFF, "dimgray": 0x696969,
        "dimgrey": 0x696969, "dodgerblue": 0x1E90FF, "firebrick": 0xB22222, "floralwhite": 0xFFFAF0,
        "forestgreen": 0x228B22, "fuchsia": 0xFF00FF, "gainsboro": 0xDCDCDC, "ghostwhite": 0xF8F8FF,
        "gold": 0xFFD700, "goldenrod": 0xDAA520, "gray": 0x808080, "green": 0x008000, "greenyellow": 0xADFF2F,
        "grey": 0x808080, "honeydew": 0xF0FFF0, "hotpink": 0xFF69B4, "indianred": 0xCD5C5C, "indigo": 0x4B0082,
        "ivory": 0xFFFFF0, "khaki": 0xF0E68C, "lavender": 0xE6E6FA, "lavenderblush": 0xFFF0F5, "lawngreen": 0x7CFC00,
        "lemonchiffon": 0xFFFACD, "lightblue": 0xADD8E6, "lightcoral": 0xF08080, "lightcyan": 0xE0FFFF,
        "lightgoldenrodyellow": 0xFAFAD2, "lightgray": 0xD3D3D3, "lightgreen": 0x90EE90, "lightgrey": 0xD3D3D3,
        "lightpink": 0xFFB6C1, "lightsalmon": 0xFFA07A, "lightseagreen": 0x20B2AA, "lightskyblue": 0x87CEFA,
        "lightslategray": 0x778899, "lightslategrey": 0x778899, "lightsteelblue": 0xB0C4DE, "lightyellow": 0xFFFFE0,
        "lime": 0x00FF00, "limegreen": 0x32CD32, "linen": 0xFAF0E6, "magenta": 0xFF00FF, "maroon": 0x800000,
        "mediumaquamarine": 0x66CDAA, "mediumblue": 0x0000CD, "mediumorchid": 0xBA55D3, "mediumpurple": 0x9370DB,
        "mediumseagreen": 0x3CB371, "mediumslateblue": 0x7B68EE, "mediumspringgreen": 0x00FA9A,
        "mediumturquoise": 0x48D1CC, "mediumvioletred": 0xC71585, "midnightblue": 0x191970, "mintcream": 0xF5FFFA,
        "mistyrose": 0xFFE4E1, "moccasin": 0xFFE4B5, "navajowhite": 0xFFDEAD, "navy": 0x000080, "oldlace": 0xFDF5E6,
        "olive": 0x808000, "olivedrab": 0x6B8E23, "orange": 0xFFA500, "orangered": 0xFF4500, "orchid": 0xDA70D6,
        "palegoldenrod": 0xEEE8AA, "palegreen": 0x98FB98, "paleturquoise": 0xAFEEEE, "palevioletred": 0xDB7093,
        "papayawhip": 0xFFEFD5, "peachpuff": 0xFFDAB9, "peru": 0xCD853F, "pink": 0xFFC0CB, "plum": 0xDDA0DD,
        "powderblue": 0xB0E0E6, "purple": 0x800080, "rebeccapurple": 0x663399, "red": 0xFF0000,
        "rosybrown": 0xBC8F8F, "royalblue": 0x4169E1, "saddlebrown": 0x8B4513, "salmon": 0xFA8072,
        "sandybrown": 0xF4A460, "seagreen": 0x2E8B57, "seashell": 0xFFF5EE, "sienna": 0xA0522D, "silver": 0xC0C0C0,
        "skyblue": 0x87CEEB, "slateblue": 0x6A5ACD, "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xFFFAFA,
        "springgreen": 0x00FF7F, "steelblue": 0x4682B4, "tan": 0xD2B48C, "teal": 0x008080, "thistle": 0xD8BFD8,
        "tomato": 0xFF6347, "turquoise": 0x40E0D0, "violet": 0xEE82EE, "wheat": 0xF5DEB3, "white": 0xFFFFFF,
        "whitesmoke": 0xF5F5F5, "yellow": 0xFFFF00, "yellowgreen": 0x9ACD32
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
