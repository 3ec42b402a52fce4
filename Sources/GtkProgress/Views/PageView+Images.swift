import FoundationEssentials

/// How an image of the page looks in the view.
package enum ImageLook {
    /// Not here yet: its place, from the declared size (or one pixel when none is declared).
    case reserved
    case picture(Picture)
    /// Let go to save memory, to be decoded again near the view: a blank of the picture's size holds its place.
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
    /// One blank picture per reserved size, shared by all images of that size.
    var blanks: [Int: Picture] = [:]
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
            images.offsets.append(characters)
            apply(images.looks[index] ?? .reserved, toImage: index)
        }
    }

    /// Forgets the images at or after character `cut`, which `showProgressive` deleted.
    func cutImages(at cut: Int) {
        while let last = images.offsets.last, last >= cut { images.offsets.removeLast() }
        guard let document, let last = images.offsets.indices.last else {
            images.offsets = []
            images.scanByte = 0
            images.scanCharacter = 0
            return
        }
        images.scanByte = document.images[last].offset
        images.scanCharacter = images.offsets[last]
    }

    /// One blank picture per size, shared by every image of that size.
    private func blank(width: Int, height: Int) -> Picture? {
        let key = width << 32 | height
        if images.blanks[key] == nil { images.blanks[key] = Picture.blank(width: width, height: height) }
        return images.blanks[key]
    }

    private func apply(_ look: ImageLook, toImage index: Int) {
        guard let document else { return }
        let image = document.images[index]
        let offset = images.offsets[index]
        switch look {
        case .reserved:
            let size = PictureDecoder.targetSize(natural: (1, 1), declared: (image.width, image.height),
                                                 maxWidth: pictureWidth)
            let reserved = image.width != nil || image.height != nil ? size : (1, 1)
            if let blank = blank(width: reserved.0, height: reserved.1) { textView.replaceCharacter(at: offset, with: blank) }
        case .picture(let picture):
            textView.replaceCharacter(at: offset, with: picture)
        case .held(let width, let height):
            if let blank = blank(width: width, height: height) { textView.replaceCharacter(at: offset, with: blank) }
        case .failed(let why):
            if let alt = image.alt, !alt.isEmpty {
                textView.replaceCharacter(at: offset, withFramedText: alt, tooltip: why)
            } else if image.alt == nil, let mark = Picture.brokenMark() {
                // No alt text: a small placeholder says something is missing here.
                textView.replaceCharacter(at: offset, with: mark)
            } else if let blank = Picture.blank(width: 1, height: 1) {
                // `alt=""`: a decorative image leaves nothing.
                textView.replaceCharacter(at: offset, with: blank)
            }
        }
    }
}
