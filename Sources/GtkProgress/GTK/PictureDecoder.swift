internal import CGtk
import FoundationEssentials

/// A decoded image: one `GdkPixbuf` reference, immutable once decoded, so it may travel from the decoding thread
/// to the main loop (gdk-pixbuf objects are not tied to a thread; GTK only ever sees it on the main loop).
package final class Picture: @unchecked Sendable {
    let pixbuf: OpaquePointer
    package let width: Int
    package let height: Int
    /// The frames of an animated image (a `GdkPixbufAnimation`), whose first frame is `pixbuf`; nil for a still one.
    let animation: OpaquePointer?

    /// Takes over the references the caller owns.
    init(adopting pixbuf: OpaquePointer, animation: OpaquePointer? = nil) {
        self.pixbuf = pixbuf
        self.animation = animation
        width = Int(gdk_pixbuf_get_width(pixbuf))
        height = Int(gdk_pixbuf_get_height(pixbuf))
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        if let animation { g_object_unref(UnsafeMutableRawPointer(animation)) }
    }

    package var isAnimated: Bool { animation != nil }

    /// Bytes of pixels held: what the page cache's budget counts.
    package var byteCount: Int { Int(gdk_pixbuf_get_rowstride(pixbuf)) * height }

    /// A blank picture of `width` × `height` (transparent), to hold an image's place until it arrives. Its pixels
    /// come zeroed from `g_malloc0` and are never written: a large block is fresh pages from the kernel, which
    /// cost no memory until written (drawing only reads them), so a page of many reserved places stays small.
    static func blank(width: Int, height: Int) -> Picture? {
        let (w, h) = (max(width, 1), max(height, 1))
        guard let pixels = g_malloc0(gsize(w * h * 4)) else { return nil }
        let release: GdkPixbufDestroyNotify = { pixels, _ in g_free(pixels) }
        guard let pixbuf = gdk_pixbuf_new_from_data(pixels.assumingMemoryBound(to: guchar.self), GDK_COLORSPACE_RGB,
                                                    1, 8, Int32(w), Int32(h), Int32(w * 4), release, nil) else {
            g_free(pixels)
            return nil
        }
        return Picture(adopting: pixbuf)
    }

    /// A small framed square standing for an image that has no alt text and cannot be shown.
    static func brokenMark(side: Int = 16) -> Picture? {
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, Int32(side), Int32(side)) else { return nil }
        gdk_pixbuf_fill(pixbuf, 0x9a99_96ff)
        if side > 2, let inner = gdk_pixbuf_new_subpixbuf(pixbuf, 1, 1, Int32(side - 2), Int32(side - 2)) {
            gdk_pixbuf_fill(inner, 0xf6f5_f4ff)
            g_object_unref(UnsafeMutableRawPointer(inner))
        }
        return Picture(adopting: pixbuf)
    }
}

/// Decodes images with `GdkPixbufLoader`, off the main loop, one at a time on a worker thread of its own (so a
/// large picture never waits behind a page's parse, nor a parse behind it).
///
/// The loader's `size-prepared` signal gives the image's size before its pixels are allocated: an image of more
/// than `maximumArea` pixels (Dillo's `IMAGE_MAX_AREA`, 6000 × 6000) is refused there, with
/// `gdk_pixbuf_loader_set_size(0, 0)` so the module allocates nothing, and the rest of its bytes are never
/// written. Otherwise the size is set to what the page shows: the declared size, no wider than `maxWidth`.
/// <https://docs.gtk.org/gdk-pixbuf/signal.PixbufLoader.size-prepared.html>
package enum PictureDecoder {
    package static let maximumArea = 6000 * 6000

    package enum Outcome: Sendable {
        case picture(Picture)
        /// Why not, for the image's tooltip.
        case refused(String)
    }

    private static let worker = SerialWorker(name: "gtkprogress-img")

    /// The MIME types the installed gdk-pixbuf loaders read (`gdk_pixbuf_get_formats`), for `<source type>`.
    /// <https://docs.gtk.org/gdk-pixbuf/type_func.Pixbuf.get_formats.html>
    package static let readableTypes: Set<String> = {
        var types: Set<String> = []
        let formats = gdk_pixbuf_get_formats()
        var node = formats
        while let current = node {
            if let format = current.pointee.data.map(OpaquePointer.init),
               let mimeTypes = gdk_pixbuf_format_get_mime_types(format) {
                var k = 0
                while let type = mimeTypes[k] {
                    types.insert(String(cString: type).lowercased())
                    k += 1
                }
                g_strfreev(mimeTypes)
            }
            node = current.pointee.next
        }
        g_slist_free(formats)
        return types
    }()

    /// Decodes `bytes` on the image worker, then calls `done` on the main loop.
    package static func decode(_ bytes: [UInt8], declaredWidth: Int?, declaredHeight: Int?, maxWidth: Int,
                               then done: @escaping @MainActor (Outcome) -> Void) {
        BackgroundWork.run(on: worker, {
            decodeNow(bytes, declaredWidth: declaredWidth, declaredHeight: declaredHeight, maxWidth: maxWidth)
        }, then: done)
    }

    /// The size to decode to: the declared one (either side alone keeps the aspect ratio), else the image's
    /// own, then shrunk to `maxWidth`; never 0.
    package static func targetSize(natural: (Int, Int), declared: (Int?, Int?), maxWidth: Int) -> (Int, Int) {
        let (w, h) = (max(natural.0, 1), max(natural.1, 1))
        var width: Double, height: Double
        switch declared {
        case (let dw?, let dh?) where dw > 0 && dh > 0: width = Double(dw); height = Double(dh)
        case (let dw?, _) where dw > 0: width = Double(dw); height = Double(dw) * Double(h) / Double(w)
        case (_, let dh?) where dh > 0: height = Double(dh); width = Double(dh) * Double(w) / Double(h)
        default: width = Double(w); height = Double(h)
        }
        let limit = Double(max(maxWidth, 16))
        if width > limit {
            height *= limit / width
            width = limit
        }
        return (max(Int(width.rounded()), 1), max(Int(height.rounded()), 1))
    }

    /// What `size-prepared` saw and decided; lives on the decoding thread for one image.
    private final class Sizing {
        let declared: (Int?, Int?)
        let maxWidth: Int
        var refusal: String?
        init(declared: (Int?, Int?), maxWidth: Int) { self.declared = declared; self.maxWidth = maxWidth }
    }

    /// Synchronous: for the worker, and for tests.
    package static func decodeNow(_ bytes: [UInt8], declaredWidth: Int?, declaredHeight: Int?,
                                  maxWidth: Int) -> Outcome {
        guard !bytes.isEmpty else { return .refused(L("The image is empty.")) }
        guard let loader = gdk_pixbuf_loader_new() else { return .refused(L("The image cannot be decoded.")) }
        defer { g_object_unref(loader) }
        let sizing = Sizing(declared: (declaredWidth, declaredHeight), maxWidth: maxWidth)
        let prepared: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32,
                                      UnsafeMutableRawPointer?) -> Void = { loader, width, height, data in
            let sizing = Unmanaged<Sizing>.fromOpaque(data!).takeUnretainedValue()
            let area = Int(max(width, 0)) * Int(max(height, 0))
            guard width > 0, height > 0, area <= PictureDecoder.maximumArea else {
                sizing.refusal = L("Not shown: the image claims %@ × %@ pixels.", String(width), String(height))
                gdk_pixbuf_loader_set_size(loader, 0, 0)
                return
            }
            let (w, h) = PictureDecoder.targetSize(natural: (Int(width), Int(height)), declared: sizing.declared,
                                                   maxWidth: sizing.maxWidth)
            if w != Int(width) || h != Int(height) { gdk_pixbuf_loader_set_size(loader, Int32(w), Int32(h)) }
        }
        let handler = withExtendedLifetime(sizing) {
            g_signal_connect_data(loader, "size-prepared", unsafeBitCast(prepared, to: GCallback.self),
                                  Unmanaged.passUnretained(sizing).toOpaque(), nil, GConnectFlags(rawValue: 0))
        }
        var error: UnsafeMutablePointer<GError>?
        var ok = true
        // Written in pieces, so a refusal in `size-prepared` stops the rest from being read at all.
        let piece = 64 * 1024
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count, ok, sizing.refusal == nil {
                let count = min(piece, buffer.count - offset)
                ok = gdk_pixbuf_loader_write(loader, buffer.baseAddress! + offset, gsize(count), &error) != 0
                offset += count
            }
        }
        if let written = error { g_error_free(written); error = nil }
        let closed = gdk_pixbuf_loader_close(loader, &error) != 0
        if let error { g_error_free(error) }
        g_signal_handler_disconnect(loader, handler)
        if let refusal = sizing.refusal { return .refused(refusal) }
        guard ok, closed, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            return .refused(L("The image is broken or in a format this computer cannot read."))
        }
        g_object_ref(UnsafeMutableRawPointer(pixbuf))
        // An animated GIF: its frames play in the view (`PictureAnimation`); the loader's pixbuf is the first.
        var frames: OpaquePointer?
        if let animation = gdk_pixbuf_loader_get_animation(loader), gdk_pixbuf_animation_is_static_image(animation) == 0 {
            g_object_ref(UnsafeMutableRawPointer(animation))
            frames = animation
        }
        return .picture(Picture(adopting: pixbuf, animation: frames))
    }
}
