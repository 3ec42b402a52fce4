internal import CGtk

/// An offscreen ARGB image to paint on and read back, at a device scale like a HiDPI window's.
package final class CairoImageSurface {
    let surface: OpaquePointer
    /// Size in logical pixels; the image holds `width * scale` × `height * scale` device pixels.
    package let width: Int
    package let height: Int
    package let scale: Int

    package init(width: Int, height: Int, scale: Int = 1) {
        self.width = width; self.height = height; self.scale = scale
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width * scale), Int32(height * scale))
        cairo_surface_set_device_scale(surface, Double(scale), Double(scale))
    }

    deinit { cairo_surface_destroy(surface) }

    /// Paints in logical coordinates, as a widget's draw handler does.
    package func draw(_ body: (CairoContext) -> Void) {
        let cr = cairo_create(surface)!
        body(CairoContext(cr))
        cairo_destroy(cr)
        cairo_surface_flush(surface)
    }

    /// Renders `widget` as GTK would on screen (its "draw" signal), at the widget's allocated size.
    @MainActor
    package func draw(_ widget: Widget) {
        draw { context in gtk_widget_draw(widget.widget, context.cr) }
    }

    /// The pixel at device coordinates, un-premultiplied, components 0…255.
    package func pixel(x: Int, y: Int) -> Pixel {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        // CAIRO_FORMAT_ARGB32 is one native-endian 32-bit word per pixel, alpha premultiplied.
        let word = data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
        let a = UInt8(word >> 24)
        func component(_ shift: UInt32) -> UInt8 {
            let c = UInt32((word >> shift) & 0xff)
            return a == 0 ? 0 : UInt8(min(255, (c * 255 + UInt32(a) / 2) / UInt32(a)))
        }
        return Pixel(red: component(16), green: component(8), blue: component(0), alpha: a)
    }

    package var deviceWidth: Int { width * scale }
    package var deviceHeight: Int { height * scale }
}

/// One pixel read back from an image, components 0…255.
package struct Pixel: Equatable, Sendable, CustomStringConvertible {
    package var red, green, blue, alpha: UInt8
    package init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    package var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }
}
