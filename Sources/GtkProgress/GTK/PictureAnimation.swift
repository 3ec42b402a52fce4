internal import CGtk
import FoundationEssentials

/// One animated picture playing: its frames from `gdk_pixbuf_animation_iter_advance`, each brought to the size the
/// page shows (gdk-pixbuf scales only the first frame while decoding), for the view to put in place.
/// <https://docs.gtk.org/gdk-pixbuf/class.PixbufAnimationIter.html>
@MainActor
package final class PictureAnimation {
    private let iterator: OpaquePointer
    private let width: Int
    private let height: Int
    private let scale: Int
    private let inBuffer: Bool

    /// Nil for a still picture.
    package init?(_ picture: Picture) {
        guard let animation = picture.animation,
              let iterator = gdk_pixbuf_animation_get_iter(animation, nil) else { return nil }
        self.iterator = iterator
        width = picture.pixelWidth
        height = picture.pixelHeight
        scale = picture.scale
        inBuffer = picture.isInBuffer
    }

    isolated deinit { g_object_unref(UnsafeMutableRawPointer(iterator)) }

    /// Milliseconds the frame shown now stays; nil when it stays for good.
    package var delay: Int? {
        let ms = Int(gdk_pixbuf_animation_iter_get_delay_time(iterator))
        return ms < 0 ? nil : ms
    }

    /// Moves to the frame of the present moment; that frame at the page's size when it changed.
    package func advance() -> Picture? {
        guard gdk_pixbuf_animation_iter_advance(iterator, nil) != 0,
              let frame = gdk_pixbuf_animation_iter_get_pixbuf(iterator) else { return nil }
        let sized = Int(gdk_pixbuf_get_width(frame)) == width && Int(gdk_pixbuf_get_height(frame)) == height
            ? g_object_ref(UnsafeMutableRawPointer(frame)).map { OpaquePointer($0) }
            : gdk_pixbuf_scale_simple(frame, Int32(width), Int32(height), GDK_INTERP_BILINEAR)
        return sized.map { Picture(adopting: $0, scale: scale, inBuffer: inBuffer) }
    }
}
