import FoundationEssentials
import Glibc

/// The page's images, as part of its load: fetched once the document is shown, counted by the bar and the status
/// line ("Images 3 of 12", as Dillo says it), and the load over only when the last is in.
extension Browser {
    /// What the window can show, for choosing among an image's sources.
    var imageSelection: ImageSelection {
        ImageSelection(scale: Double(page.textView.scaleFactor), viewportWidth: page.pictureWidth,
                       types: PictureDecoder.readableTypes)
    }

    /// The page being loaded has images: from now on its document's bytes are only part of the bar, unless this
    /// window does not fetch images.
    func expectImages() {
        if imagesShown { indicator.expectSubresources() }
    }

    /// Starts loading the images of `document`, shown from `url`, in place of those of the page shown before;
    /// nil when it has none.
    @discardableResult
    func showImages(of document: Document, from url: URL) -> PageImageLoads? {
        // Images asked for while the document arrived that its loads did not take over are not this page's.
        defer { loader.dropUnclaimedPreloads() }
        shownImages?.cancel()
        shownImages = nil
        guard !document.images.isEmpty else { return nil }
        guard imagesShown else {
            let why = L("Images are turned off in this window.")
            for index in document.images.indices { page.setImage(index, of: document, to: .failed(why: why)) }
            return nil
        }
        let loads = PageImageLoads(document: document, pageURL: url, page: page, loader: loader, cache: pictures)
        shownImages = loads
        loads.start()
        return loads
    }

    /// The document of `session` is shown and its images are on their way: the bar counts them, the status line
    /// says how many are in, and the load ends with the last.
    func awaitImages(_ session: LoadSession, status: String) {
        guard let images = session.images else { return }
        indicator.expectSubresources()
        chrome.statusText = imageStatus(images)
        images.onChange = { [weak self, weak session] in
            guard let self, let session, self.session === session, let images = session.images else { return }
            self.indicator.subresourceProgress(images.progress.value)
            guard images.isComplete else {
                if !self.hovering { self.chrome.statusText = self.imageStatus(images) }
                return
            }
            // The end of a load with images: every one is in, failed or refused.
            self.end(session, .finished)
            self.indicator.finish()
            self.chrome.statusText = status
            self.refreshChrome()
        }
        refreshChrome()
    }

    /// Turns the pages' images on or off in this window, for the page shown too: off cancels the image transfers
    /// (a load waiting only for its images is over) and puts the alt text in their place; on fetches them.
    package func setImagesShown(_ shown: Bool) {
        guard shown != imagesShown else { return }
        imagesShown = shown
        page.imagesShown = shown
        if let session, let images = session.images, !shown {
            images.onChange = nil
            end(session, .finished)
            indicator.finish()
            chrome.statusText = L("Images are turned off in this window.")
        }
        if let document = page.document, let url = model.current?.url, session == nil || !shown {
            showImages(of: document, from: url)
        }
        refreshChrome()
        onStateChanged?()
    }

    func imageStatus(_ images: PageImageLoads) -> String {
        L("Images %@ of %@", String(images.settled), String(images.total))
    }
}

/// A quick look for the tags that make images in bytes of HTML as they arrive, before any parse.
enum ImageTags {
    /// Bytes looked at for one progress event, at most. A local file is read faster than the main loop takes its
    /// events, so the first event can find megabytes arrived; looked through in one turn, a 6 MB page held the
    /// loop for seconds in a debug build. A file's reader posts an event per 256 KB (`FileRead`), so looking at
    /// twice that per event catches up with the bytes before the transfer ends.
    static let bytesPerLook = 512 * 1024

    /// Bytes a look goes back over from where the last one ended: a tag cut by that end is seen whole.
    static let overlap = 8

    /// The bytes the next look takes when `scanned` bytes were looked at and `arrived` are in: from a little
    /// before where the last look ended, at most `bytesPerLook`; nil when nothing new arrived.
    static func nextLook(scanned: Int, arrived: Int) -> Range<Int>? {
        guard scanned < arrived else { return nil }
        return max(scanned - overlap, 0)..<min(arrived, scanned + bytesPerLook)
    }

    /// Whether `bytes` hold `<img` or `<picture`, in any case.
    static func occur(in bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { occur(in: $0) }
    }

    /// The same over raw bytes: each `<` found with memchr(3), so the bytes between tags cost what the C library's
    /// scan costs in any build.
    static func occur(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard var p = bytes.baseAddress else { return false }
        let end = p + bytes.count
        while p < end, let found = memchr(p, 0x3C, end - p) {
            let open = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
            if matches(open, end, "img") || matches(open, end, "picture") { return true }
            p = open + 1
        }
        return false
    }

    /// Whether the bytes after the `<` at `open` are `name` (lowercase ASCII letters), in any case.
    private static func matches(_ open: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>,
                                _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard end - open > count else { return false }
        let letters = name.utf8Start
        for i in 0..<count where open[i + 1] | 0x20 != letters[i] { return false }
        return true
    }
}
