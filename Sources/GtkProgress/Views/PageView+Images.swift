import FoundationEssentials

/// How an image of the page looks in the view.
package enum ImageLook {
    /// Not here yet: its place, from the declared size (or one pixel when none is declared).
    case reserved
    case picture(Picture)
    /// Let go to save memory, to be decoded again near the view: an empty place of the picture's size.
    case held(width: Int, height: Int)
    /// Failed, refused or too large: the alt text in a thin frame, or a small mark when there is none; `why`
    /// is the frame's tooltip.
    case failed(why: String)
}

/// The view's side of the page's images: which of the document's U+FFFC characters are in the buffer yet, at
/// which character offsets, and what each shows. Offsets are found walking the text once, image after image, as
/// slices go in, so placing images costs no more than inserting the text.
struct PageViewImages {
    /// Character offsets of the images found in the buffer so far, in document order.
    var offsets: [Int] = []
    /// The walk: characters before `scanByte` of the document's bytes.
    var scanByte = 0
    var scanCharacter = 0
    /// What each image should show, by index, once it is in the buffer.
    var looks: [Int: ImageLook] = [:]
    /// The widget of each image placed in the buffer, by index (`PictureWidget`); a failed image's framed alt
    /// text has none.
    var widgets: [Int: PictureWidget] = [:]
    /// One blank buffer picture per reserved size, shared by all images of that size (pages over `widgetLimit`).
    var blanks: [Int: Picture] = [:]

    /// Pages with more images than this put their pictures in the buffer as pixbufs, not as widgets: GTK 3's
    /// text view walks every anchored widget at each of its allocations (`gtk_text_view_allocate_children`:
    /// anchor lookup, line validation and a size allocation each), which pictures arriving turned into main-loop
    /// stalls growing with their number (`_NET_WM_PING` round trips, loopback pages of 120 × 80 pictures): 30 ms
    /// at worst for 100, 0.2 s for 200, up to 0.7 s for 1,000, where buffer pixbufs stay under 25 ms but for the
    /// first show. Buffer pictures have no accessible name and are drawn one pixel per logical pixel.
    static let widgetLimit = 100
}

extension PageView {
    /// Shows `look` for image `index` of `document`; ignored when another document is shown by now. An image not
    /// yet in the buffer takes its look when its slice goes in.
    package func setImage(_ index: Int, of document: Document, to look: ImageLook) {
        guard self.document?.storage === document.storage, document.images.indices.contains(index) else { return }
        images.looks[index] = look
        if index < images.offsets.count { apply(look, toImage: index) }
    }

    /// The character offset of image `index` in the buffer, nil while its slice has not gone in.
    package func characterOffset(ofImage index: Int) -> Int? {
        index < images.offsets.count ? images.offsets[index] : nil
    }

    /// How many of the document's images are in the buffer.
    package var imagesInBuffer: Int { images.offsets.count }

    /// The width pictures are fitted to, in pixels.
    package var pictureWidth: Int { textView.textWidth }

    /// Whether this page's pictures are widgets (named for screen readers, sharp at scale 2), else buffer pixbufs.
    package var picturesAreWidgets: Bool { (document?.images.count ?? 0) <= PageViewImages.widgetLimit }

    /// The widget image `index` stands as, nil while it is not in the buffer or shows its alt text in a frame.
    package func pictureWidget(ofImage index: Int) -> PictureWidget? {
        images.widgets[index].flatMap { $0.isPlaced ? $0 : nil }
    }

    /// The buffer's text from `start` to `end` as a screen reader should hear it: each image's U+FFFC replaced by
    /// its alt text (a link made of a picture is named by the picture's alt text, HTML-AAM's name from content).
    func readableText(fromCharacter start: Int, to end: Int) -> String {
        let text = textView.text(fromCharacter: start, to: end)
        guard let document else { return text }
        let offsets = images.offsets
        // The first image at or after `start` (offsets grow with the index).
        var low = 0, high = offsets.count
        while low < high {
            let middle = (low + high) / 2
            if offsets[middle] < start { low = middle + 1 } else { high = middle }
        }
        guard low < offsets.count, offsets[low] < end else { return text }
        var result = String.UnicodeScalarView()
        var index = low
        for (k, scalar) in text.unicodeScalars.enumerated() {
            if index < offsets.count, offsets[index] == start + k {
                if let alt = document.images[index].alt, !alt.isEmpty {
                    result.append(contentsOf: alt.unicodeScalars)
                }
                index += 1
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Finds the images the last slice brought into the buffer and gives each its look.
    func placeImages(insertedBytes: Int) {
        guard let document, images.offsets.count < document.images.count else { return }
        let bytes = document.storage.bytes
        while images.offsets.count < document.images.count {
            let index = images.offsets.count
            let image = document.images[index]
            guard image.offset + 3 <= insertedBytes, image.offset >= images.scanByte else { break }
            var characters = images.scanCharacter
            for k in images.scanByte..<image.offset where bytes[k] & 0xC0 != 0x80 { characters += 1 }
            images.scanByte = image.offset
            images.scanCharacter = characters
            // The walk counts the document's characters; a grid in an area stands in the page as one.
            images.offsets.append(pageOffset(ofReading: characters))
            apply(images.looks[index] ?? .reserved, toImage: index)
        }
    }

    /// Forgets the images at or after character `cut`, which `showProgressive` deleted.
    func cutImages(at cut: Int) {
        while let last = images.offsets.last, last >= cut {
            images.widgets[images.offsets.count - 1] = nil
            images.offsets.removeLast()
        }
        guard let document, let last = images.offsets.indices.last else {
            images.offsets = []
            images.scanByte = 0
            images.scanCharacter = 0
            return
        }
        images.scanByte = document.images[last].offset
        images.scanCharacter = readingOffset(ofPage: images.offsets[last])
    }

    /// The widget of image `index`, put in place of its character when it has none there yet.
    private func widget(ofImage index: Int, at offset: Int, alt: String?) -> PictureWidget {
        if let widget = pictureWidget(ofImage: index) { return widget }
        let widget = PictureWidget(alt: alt)
        textView.replaceCharacter(at: offset, withWidget: widget)
        images.widgets[index] = widget
        return widget
    }

    /// One blank buffer picture per size, shared by every image of that size.
    private func blank(width: Int, height: Int) -> Picture? {
        let key = width << 32 | height
        if images.blanks[key] == nil { images.blanks[key] = Picture.blank(width: width, height: height) }
        return images.blanks[key]
    }

    private func apply(_ look: ImageLook, toImage index: Int) {
        guard let document else { return }
        let image = document.images[index]
        let offset = images.offsets[index]
        let widgets = picturesAreWidgets
        func place(blankWidth width: Int, height: Int) {
            if widgets {
                widget(ofImage: index, at: offset, alt: image.alt).showBlank(width: width, height: height)
            } else if let blank = blank(width: width, height: height) {
                textView.replaceCharacter(at: offset, with: blank)
            }
        }
        defer {
            // A table holding the picture measures its cells again if it was measured without it or at another
            // width.
            if !tables.fitted.isEmpty { tableObjectChanged(atCharacter: offset) }
        }
        switch look {
        case .reserved:
            let size = PictureDecoder.targetSize(natural: (1, 1), declared: (image.width, image.height),
                                                 maxWidth: pictureWidth)
            let reserved = image.width != nil || image.height != nil ? size : (1, 1)
            place(blankWidth: reserved.0, height: reserved.1)
        case .picture(let picture):
            if widgets, !picture.isInBuffer {
                let widget = widget(ofImage: index, at: offset, alt: image.alt)
                // One picture serves every image of its address; each is shown at the size its own `width` and
                // `height` give (spacer images of many widths), the picture's proportions filling in a missing one.
                widget.show(picture, size: PictureDecoder.targetSize(natural: (picture.width, picture.height),
                                                                     declared: (image.width, image.height),
                                                                     maxWidth: pictureWidth))
                // A picture where the small mark of a failed load stood (images turned on again).
                widget.tooltip = nil
            } else if !widgets, picture.isInBuffer {
                textView.replaceCharacter(at: offset, with: picture)
            }
        case .held(let width, let height):
            let size = PictureDecoder.targetSize(natural: (width, height), declared: (image.width, image.height),
                                                 maxWidth: pictureWidth)
            place(blankWidth: size.0, height: size.1)
        case .failed(let why):
            if let alt = image.alt, !alt.isEmpty {
                images.widgets[index] = nil
                textView.replaceCharacter(at: offset, withFramedText: alt, tooltip: why)
            } else if image.alt == nil, let mark = Picture.brokenMark(inBuffer: !widgets) {
                // No alt text: a small placeholder says something is missing here.
                if widgets {
                    let widget = widget(ofImage: index, at: offset, alt: nil)
                    widget.show(mark)
                    widget.tooltip = why
                } else {
                    textView.replaceCharacter(at: offset, with: mark)
                }
            } else {
                // `alt=""`: a decorative image leaves nothing.
                place(blankWidth: 1, height: 1)
            }
        }
    }
}
