/// A colour with components in 0…1.
public struct RGBA: Equatable, Sendable {
    /// Components in 0…1.
    public var red, green, blue, alpha: Double
    /// A colour from components in 0…1; `alpha` 1 is opaque.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A colour written `0xrrggbb`, opaque.
    package init(hex: UInt32) {
        self.init(red: Double(hex >> 16 & 0xff) / 255, green: Double(hex >> 8 & 0xff) / 255,
                  blue: Double(hex & 0xff) / 255)
    }

    init(_ color: Contrast.Color) { self.init(red: color.red, green: color.green, blue: color.blue) }
    var contrastColor: Contrast.Color { Contrast.Color(red: red, green: green, blue: blue) }

    /// `#rrggbb`, as Pango's colour attributes take it (alpha left out), each component the nearest 8-bit value,
    /// so a colour chosen in 8 bits (`Contrast.readable`) is painted as chosen.
    package var hexString: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for component in [red, green, blue] {
            let value = Int((min(max(component, 0), 1) * 255).rounded())
            text.append(digits[value >> 4])
            text.append(digits[value & 15])
        }
        return text
    }
}
