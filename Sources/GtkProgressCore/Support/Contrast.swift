#if canImport(Glibc)
import Glibc
#endif

/// Colour contrast as WCAG 2.x defines it, so a theme colour can be checked and, when a theme falls short,
/// moved just far enough to be read: 4.5:1 for text (success criterion 1.4.3), 3:1 for a graphical object such
/// as the progress bar (1.4.11). Components are sRGB in 0…1.
package enum Contrast {
    package struct Color: Equatable, Sendable {
        package var red, green, blue: Double
        package init(red: Double, green: Double, blue: Double) {
            self.red = red; self.green = green; self.blue = blue
        }
    }

    /// Text on a page: WCAG 2 level AA for normal-sized text.
    package static let text = 4.5
    /// Non-text user-interface parts (WCAG 2.1, 1.4.11).
    package static let graphics = 3.0

    /// Relative luminance (WCAG 2, "relative luminance", with the sRGB transfer function).
    package static func luminance(_ c: Color) -> Double {
        func channel(_ v: Double) -> Double {
            let v = min(max(v, 0), 1)
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(c.red) + 0.7152 * channel(c.green) + 0.0722 * channel(c.blue)
    }

    /// The contrast ratio of two colours, 1…21.
    package static func ratio(_ a: Color, _ b: Color) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// `color` as it is when it already has `minimum` contrast on `background`; else mixed towards white (on a
    /// dark background) or black (on a light one) by the smallest step of 1/64 that reaches it in 8-bit colour,
    /// so the theme's hue stays recognisable.
    package static func readable(_ color: Color, on background: Color, minimum: Double = text) -> Color {
        guard ratio(color, background) < minimum else { return color }
        let towards: Double = luminance(background) < 0.18 ? 1 : 0
        // Each candidate is rounded to the 8 bits a screen shows, so the colour painted keeps the ratio too.
        func screen(_ v: Double) -> Double { (min(max(v, 0), 1) * 255).rounded() / 255 }
        for step in 1...64 {
            let t = Double(step) / 64
            let mixed = Color(red: screen(color.red + (towards - color.red) * t),
                              green: screen(color.green + (towards - color.green) * t),
                              blue: screen(color.blue + (towards - color.blue) * t))
            if ratio(mixed, background) >= minimum { return mixed }
        }
        return Color(red: towards, green: towards, blue: towards)
    }
}
