internal import CGtk
import FoundationEssentials

/// A decoded image: one cairo image surface, made from the decoder's `GdkPixbuf` on the decoding thread and
/// immutable from then on, so it may travel to the main loop (a surface made without a window touches no GDK
/// state; GTK only ever sees it on the main loop). It carries a device scale: on a HiDPI screen (scale 2) an
/// image with the pixels for it is decoded at twice its size on the page and drawn pixel for pixel, sharp.
/// <https://docs.gtk.org/gdk3/func.cairo_surface_create_from_pixbuf.html>
package final class Picture: @unchecked Sendable {
    /// `cairo_surface_t`, with the device scale `scale`: what a `PictureWidget` paints. Nil for a buffer picture.
    let surface: OpaquePointer?
    /// The `GdkPixbuf` of a picture put in the buffer itself (`TextView.replaceCharacter(at:with:)`), on pages
    /// with too many images for a widget each (`PageViewImages.widgetLimit`). Nil for a widget's picture.
    let pixbuf: OpaquePointer?
    /// Size on the page, in logical pixels.
    package let width: Int
    package let height: Int
    /// Device pixels per logical pixel (1, or the screen's scale factor; always 1 in the buffer).
    package let scale: Int
    /// The frames of an animated image (a `GdkPixbufAnimation`); nil for a still one.
    let animation: OpaquePointer?
    /// Bytes of pixels held: what the page's and the page cache's budgets count.
    package let byteCount: Int

    /// Takes over the references the caller owns. For a widget (`inBuffer` false) the pixbuf's pixels are copied
    /// into a surface and the pixbuf let go.
    init(adopting pixbuf: OpaquePointer, scale: Int = 1, animation: OpaquePointer? = nil, inBuffer: Bool = false) {
        self.animation = animation
        if inBuffer {
            self.pixbuf = pixbuf
            surface = nil
            self.scale = 1
            width = Int(gdk_pixbuf_get_width(pixbuf))
            height = Int(gdk_pixbuf_get_height(pixbuf))
            byteCount = Int(gdk_pixbuf_get_rowstride(pixbuf)) * height
            return
        }
        let scale = max(scale, 1)
        let surface = gdk_cairo_surface_create_from_pixbuf(pixbuf, Int32(scale), nil)!
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        self.surface = surface
        self.pixbuf = nil
        self.scale = scale
        let pixelWidth = Int(cairo_image_surface_get_width(surface))
        let pixelHeight = Int(cairo_image_surface_get_height(surface))
        width = max((pixelWidth + scale - 1) / scale, 1)
        height = max((pixelHeight + scale - 1) / scale, 1)
        byteCount = Int(cairo_image_surface_get_stride(surface)) * pixelHeight
    }

    /// Whether it is a buffer picture (a pixbuf) rather than a widget's (a surface).
    package var isInBuffer: Bool { pixbuf != nil }

    deinit {
        if let surface { cairo_surface_destroy(surface) }
        if let pixbuf { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        if let animation { g_object_unref(UnsafeMutableRawPointer(animation)) }
    }

    package var isAnimated: Bool { animation != nil }

    /// Width and height in device pixels.
    package var pixelWidth: Int { width * scale }
    package var pixelHeight: Int { height * scale }

    /// A blank picture of `width` × `height` (transparent), to hold a buffer image's place until it arrives. Its
    /// pixels come zeroed from `g_malloc0` and are never written: a large block is fresh pages from the kernel,
    /// which cost no memory until written (drawing only reads them), so a page of many reserved places stays small.
    static func blank(width: Int, height: Int) -> Picture? {
        let (w, h) = (max(width, 1), max(height, 1))
        guard let pixels = g_malloc0(gsize(w * h * 4)) else { return nil }
        let release: GdkPixbufDestroyNotify = { pixels, _ in g_free(pixels) }
        guard let pixbuf = gdk_pixbuf_new_from_data(pixels.assumingMemoryBound(to: guchar.self), GDK_COLORSPACE_RGB,
                                                    1, 8, Int32(w), Int32(h), Int32(w * 4), release, nil) else {
            g_free(pixels)
            return nil
        }
        return Picture(adopting: pixbuf, inBuffer: true)
    }

    /// A small framed square standing for an image that has no alt text and cannot be shown.
    static func brokenMark(side: Int = 16, inBuffer: Bool) -> Picture? {
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, Int32(side), Int32(side)) else { return nil }
        gdk_pixbuf_fill(pixbuf, 0x9a99_96ff)
        if side > 2, let inner = gdk_pixbuf_new_subpixbuf(pixbuf, 1, 1, Int32(side - 2), Int32(side - 2)) {
            gdk_pixbuf_fill(inner, 0xf6f5_f4ff)
            g_object_unref(UnsafeMutableRawPointer(inner))
        }
        return Picture(adopting: pixbuf, inBuffer: inBuffer)
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
                               scale: Int = 1, inBuffer: Bool = false,
                               then done: @escaping @MainActor (Outcome) -> Void) {
        BackgroundWork.run(on: worker, {
            decodeNow(bytes, declaredWidth: declaredWidth, declaredHeight: declaredHeight, maxWidth: maxWidth,
                      scale: scale, inBuffer: inBuffer)
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
        /// The screen's scale factor, and the one the picture is decoded at (1 when its pixels are too few).
        let screenScale: Int
        var scale = 1
        var refusal: String?
        init(declared: (Int?, Int?), maxWidth: Int, screenScale: Int) {
            self.declared = declared
            self.maxWidth = maxWidth
            self.screenScale = screenScale
        }
    }

    /// The device pixels per logical pixel to decode at: the screen's scale factor when the image has more pixels
    /// than its size on the page (so the extra ones show, sharp), else 1 (scaling up in the decoder would add
    /// memory and no detail; GDK draws it at the screen's scale as any widget). Never past `maximumArea`.
    package static func decodeScale(natural: (Int, Int), shown: (Int, Int), screenScale: Int) -> Int {
        guard screenScale > 1, natural.0 > shown.0 || natural.1 > shown.1 else { return 1 }
        let area = shown.0 * screenScale * shown.1 * screenScale
        return area <= maximumArea ? screenScale : 1
    }

    /// Synchronous: for the worker, and for tests.
    package static func decodeNow(_ bytes: [UInt8], declaredWidth: Int?, declaredHeight: Int?,
                                  maxWidth: Int, scale screenScale: Int = 1, inBuffer: Bool = false) -> Outcome {
        guard !bytes.isEmpty else { return .refused(L("The image is empty.")) }
        guard let loader = gdk_pixbuf_loader_new() else { return .refused(L("The image cannot be decoded.")) }
        defer { g_object_unref(loader) }
        let sizing = Sizing(declared: (declaredWidth, declaredHeight), maxWidth: maxWidth,
                            screenScale: inBuffer ? 1 : min(max(screenScale, 1), 4))
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
            let scale = PictureDecoder.decodeScale(natural: (Int(width), Int(height)), shown: (w, h),
                                                   screenScale: sizing.screenScale)
            sizing.scale = scale
            if w * scale != Int(width) || h * scale != Int(height) {
                gdk_pixbuf_loader_set_size(loader, Int32(w * scale), Int32(h * scale))
            }
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
        return .picture(Picture(adopting: pixbuf, scale: sizing.scale, animation: frames, inBuffer: inBuffer))
    }
}
