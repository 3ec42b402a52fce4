import FoundationEssentials

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
    private static let names: [[UInt8]] = ["<img", "<picture"].map { Array($0.utf8) }

    /// Whether `bytes` hold `<img` or `<picture`, in any case.
    static func occur(in bytes: ArraySlice<UInt8>) -> Bool {
        var k = bytes.startIndex
        while let open = bytes[k...].firstIndex(of: 0x3C) {
            for name in names where open + name.count <= bytes.endIndex {
                var matches = true
                for (offset, byte) in name.enumerated().dropFirst() where bytes[open + offset] | 0x20 != byte {
                    matches = false
                    break
                }
                if matches { return true }
            }
            k = open + 1
        }
        return false
    }
}
