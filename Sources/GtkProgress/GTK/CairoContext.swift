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

extension CairoContext {
    /// Strokes the outline of a rectangle, `lineWidth` wide, centred on its edges.
    package func strokeRectangle(x: Double, y: Double, width: Double, height: Double, lineWidth: Double) {
        cairo_set_line_width(cr, lineWidth)
        cairo_rectangle(cr, x, y, width, height)
        cairo_stroke(cr)
    }
}

extension CairoContext {
    /// A line from (x0, y0) to (x1, y1), `lineWidth` wide.
    package func strokeLine(x0: Double, y0: Double, x1: Double, y1: Double, lineWidth: Double) {
        cairo_set_line_width(cr, lineWidth)
        cairo_move_to(cr, x0, y0)
        cairo_line_to(cr, x1, y1)
        cairo_stroke(cr)
    }
}
