internal import CGtk

/// The drawing calls the views use, on a `cairo_t` borrowed for one draw.
package struct CairoContext {
    let cr: OpaquePointer

    init(_ cr: OpaquePointer) { self.cr = cr }

    package func setColor(_ c: RGBA, alpha: Double = 1) {
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * alpha)
    }
    package func rectangle(x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(cr, x, y, width, height)
    }
    package func fill() { cairo_fill(cr) }
}

/// A colour with components in 0…1.
public struct RGBA: Equatable, Sendable {
    /// Components in 0…1.
    public var red, green, blue, alpha: Double
    /// A colour from components in 0…1; `alpha` 1 is opaque.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
}
