internal import CGtk

/// The drawing calls the views use, on a `cairo_t` borrowed for one draw.
public struct CairoContext {
    let cr: OpaquePointer

    init(_ cr: OpaquePointer) { self.cr = cr }

    public func setColor(_ c: RGBA, alpha: Double = 1) {
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * alpha)
    }
    public func rectangle(x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(cr, x, y, width, height)
    }
    public func fill() { cairo_fill(cr) }
}

/// A colour with components in 0…1.
public struct RGBA: Equatable, Sendable {
    public var red, green, blue, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// `#rrggbb`, as Pango's colour attributes take it (alpha left out).
    package var hexString: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for component in [red, green, blue] {
            let value = Int((min(max(component, 0), 1) * 255).rounded(.down))
            text.append(digits[value >> 4])
            text.append(digits[value & 15])
        }
        return text
    }
}
