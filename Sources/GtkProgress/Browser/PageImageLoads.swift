import FoundationEssentials

/// Images kept for pages in the back/forward cache, by address, within byte budgets: decoded pictures (shown at
/// once) or, for pictures let go to save memory, their compressed bytes (decoded again, without a request). Back
/// and Forward show a page's images from here (DESIGN: "going back or forward shows the cached document … without
/// a network request"). The least recently used go first when a budget is full.
@MainActor
final class PictureCache {
    enum Entry {
        case picture(Picture)
        case bytes([UInt8])

        var byteCount: Int {
            switch self {
            case .picture(let picture): picture.byteCount
            case .bytes(let bytes): bytes.count
            }
        }

        var isPicture: Bool { if case .picture = self { true } else { false } }
    }

    /// 64 MiB of pixels and 64 MiB of compressed images: the images of a few pages, far under what Dillo's
    /// decoded-image cache grows to.
    static let pictureBudget = 64 << 20
    static let bytesBudget = 64 << 20
    private var entries: [URL: (entry: Entry, used: Int)] = [:]
    private var pictureBytes = 0
    private var compressedBytes = 0
    private var clock = 0

    subscript(url: URL) -> Entry? {
        guard let found = entries[url] else { return nil }
        clock += 1
        entries[url] = (found.entry, clock)
        return found.entry
    }

    func insert(_ picture: Picture, for url: URL) { insert(.picture(picture), for: url) }

    func insert(_ entry: Entry, for url: URL) {
        let budget = entry.isPicture ? Self.pictureBudget : Self.bytesBudget
        guard entry.byteCount <= budget / 4 else {
            remove(url)
            return
        }
        remove(url)
        clock += 1
        entries[url] = (entry, clock)
        if entry.isPicture { pictureBytes += entry.byteCount } else { compressedBytes += entry.byteCount }
        while pictureBytes > Self.pictureBudget || compressedBytes > Self.bytesBudget {
            let over = pictureBytes > Self.pictureBudget
            guard let oldest = entries.filter({ $0.value.entry.isPicture == over })
                .min(by: { $0.value.used < $1.value.used }) else { break }
            remove(oldest.key)
        }
    }

    func remove(_ url: URL) {
        guard let old = entries.removeValue(forKey: url) else { return }
        if old.entry.isPicture { pictureBytes -= old.entry.byteCount } else { compressedBytes -= old.entry.byteCount }
    }

    var count: Int { entries.count }
}

/// The images of one shown page, loaded as a browser loads them: each address once, on the page loader's multi
/// handle (`PageLoader.fetch`), those near the view first and the rest in document order, `loading="lazy"` ones
/// only when the reader nears them; each decoded off the main loop (`PictureDecoder`) and put in place
/// (`PageView.setImage`). What the page may fetch is the navigation policy's to say (`subresourceRefusal`). Its
/// progress is WebKit's estimate (`ResourceProgress`), and it is over when every image it asked for is in,
/// failed or refused.
@MainActor
final class PageImageLoads {
    let document: Document
    let pageURL: URL
    private weak var page: PageView?
    private let loader: PageLoader
    private let cache: PictureCache
    /// Image indexes by address: one request serves every image of that address.
    private var byURL: [URL: [Int]] = [:]
    /// Addresses in the order they were first met, and which have been asked for.
    private var order: [URL] = []
    private var requested: Set<URL> = []
    private var requestIDs: [URL: Int] = [:]
    private var urlByID: [Int: URL] = [:]
    /// Addresses whose images are all `loading="lazy"`: asked for only near the view.
    private var lazyURLs: Set<URL> = []
    private(set) var progress = ResourceProgress()
    /// Every address asked of the network or read, in order (tests: a refused one never is).
    private(set) var fetched: [URL] = []
    /// Bytes of decoded pixels this page holds, and the most it may: past the budget an image is refused as a
    /// bomb is, and the rest of the page carries on (Dillo bounds each image by `IMAGE_MAX_AREA`; a page of many
    /// large ones needs a bound of its own).
    private(set) var pixelBytes = 0
    static let pagePixelBudget = 192 << 20
    /// Decoded pixels kept once pictures far from the view can be let go: past this, the pictures farthest from
    /// the view give their place to a blank of their size and are decoded again from their compressed bytes when
    /// the reader comes near (as browsers discard the decoded images of what is off screen).
    static let residentPixelBudget = 32 << 20
    /// Compressed bytes kept for decoding again, at most.
    static let keptBytesBudget = 96 << 20
    /// Images in (shown, or in and waiting near the view to be decoded), and images refused or failed.
    private(set) var shown = 0
    private(set) var failed = 0
    /// The decoded picture of each address on screen now.
    private var showing: [URL: Picture] = [:]
    /// Compressed bytes of addresses that arrived, kept to decode again; and those waiting to be (again).
    private var kept: [URL: [UInt8]] = [:]
    private var keptBytes = 0
    private(set) var held: Set<URL> = []
    private var decoding: Set<URL> = []
    /// Pixels the decodes under way will bring, from the images' declared sizes.
    private var decodingPixelBytes = 0
    private var scrollWatch: SignalConnection?
    /// Requests held until the first frame of the page is drawn (`holdRequestsUntilTheFirstFrame`).
    private var requestsAfterFirstFrame: [SubresourceRequest]?
    private var sentAtOnce = 0
    private var firstFrame: FrameCallback?
    private var firstFrameDeadline: MainLoopTimer?
    /// Animated pictures on the page, and the timer of the next frame of those in view (none plays off screen, and
    /// none with animations turned off).
    private var animations: [URL: PictureAnimation] = [:]
    private var frameTimer: MainLoopTimer?
    /// The lazy images not asked for yet, in document order.
    private var waitingLazy: [URL] = []
    /// Called after each change: progress, an image in, and the end.
    var onChange: (() -> Void)?
    private(set) var isOver = false

    init(document: Document, pageURL: URL, page: PageView, loader: PageLoader, cache: PictureCache) {
        self.document = document
        self.pageURL = pageURL
        self.page = page
        self.loader = loader
        self.cache = cache
        for (index, image) in document.images.enumerated() {
            guard let url = image.url else {
                failed += 1
                page.setImage(index, of: document, to: .failed(why: L("The image has no address.")))
                continue
            }
            if let refusal = NavigationPolicy.subresourceRefusal(for: url, page: pageURL) {
                failed += 1
                page.setImage(index, of: document, to: .failed(why: refusal))
                continue
            }
            if byURL[url] == nil {
                order.append(url)
                if image.lazy { lazyURLs.insert(url) }
            } else if !image.lazy {
                lazyURLs.remove(url)
            }
            byURL[url, default: []].append(index)
        }
    }

    /// The images as the status line counts them: "Images 3 of 12".
    var total: Int { document.images.count }
    var settled: Int { shown + failed }
    /// Whether every image asked for is in, failed or refused (lazy ones not yet asked for do not count). Not
    /// before the page's first frame: only then is it known which lazy images are near the view (a page shown
    /// before its window is laid out, as a window's first page can be, has none near yet).
    var isComplete: Bool { progress.isComplete && requestsAfterFirstFrame == nil }

    /// Starts: pictures already decoded for another visit of the page go in at once; the rest are asked for,
    /// those near the view first. Lazy images wait for the reader to come near (`onVerticalScroll`).
    func start() {
        holdRequestsUntilTheFirstFrame()
        var near: [URL] = []
        var rest: [URL] = []
        let view = nearRange()
        for url in order {
            switch cache[url] {
            case .picture(let picture)? where picture.isInBuffer != (page?.picturesAreWidgets ?? true):
                pixelBytes += picture.byteCount
                showing[url] = picture
                if let animation = PictureAnimation(picture) { animations[url] = animation }
                for index in byURL[url] ?? [] { show(picture, index: index) }
                requested.insert(url)
                continue
            case .bytes(let bytes)?:
                requested.insert(url)
                shown += byURL[url]?.count ?? 0
                arrived(bytes, of: url, completing: nil)
                continue
            case .picture?, nil:
                // Not cached, or decoded for the other kind of page (widget or buffer pictures): fetched again.
                break
            }
            let isNear = (byURL[url] ?? []).contains { index in
                page?.characterOffset(ofImage: index).map { view?.contains($0) ?? false } ?? false
            }
            if lazyURLs.contains(url) {
                if isNear { near.append(url) }
                continue
            }
            if isNear { near.append(url) } else { rest.append(url) }
        }
        request(near + rest)
        waitingLazy = order.filter { lazyURLs.contains($0) && !requested.contains($0) }
        playFrames()
        watchScrolling()
        finishIfDone()
    }

    /// Stops every fetch at once (Stop, or the page replaced).
    func cancel() {
        guard !isOver else { return }
        isOver = true
        loader.cancelSubresources()
        scrollWatch?.disconnect()
        scrollWatch = nil
        frameTimer?.cancel()
        frameTimer = nil
        animations = [:]
        sendHeldRequests()
    }

    isolated deinit {
        scrollWatch?.disconnect()
        frameTimer?.cancel()
        firstFrame?.cancel()
        firstFrameDeadline?.cancel()
    }

    /// The characters on screen, with a screenful above and two below: what counts as near the view. Measured in
    /// pixels, so that a page of pictures and little text has as few near as a page of text.
    private func nearRange() -> Range<Int>? {
        page?.textView.charactersNearView(screensAbove: 1, screensBelow: 2)
    }

    /// Scrolling matters while lazy images wait to be asked for, or pictures wait near the view to be decoded.
    private func watchScrolling() {
        let needed = !isOver && (!waitingLazy.isEmpty || !held.isEmpty || !animations.isEmpty)
        if needed, scrollWatch == nil {
            scrollWatch = page?.scrolledWindow.onVerticalScroll { [weak self] in self?.scrolled() }
        } else if !needed, let watch = scrollWatch {
            watch.disconnect()
            scrollWatch = nil
        }
    }

    private func isNear(_ url: URL, _ view: Range<Int>?) -> Bool {
        guard let view else { return false }
        return (byURL[url] ?? []).contains { index in
            page?.characterOffset(ofImage: index).map { view.contains($0) } ?? false
        }
    }

    /// On each scroll, only the lazy images not yet asked for and the pictures held back are looked at; once
    /// none is left the watch goes.
    private func scrolled() {
        guard !isOver else { return }
        let view = nearRange()
        request(waitingLazy.filter { isNear($0, view) })
        waitingLazy.removeAll { requested.contains($0) }
        for url in held where !decoding.contains(url) && isNear(url, view) {
            if let bytes = kept[url] { decode(bytes, of: url, completing: nil) }
        }
        if frameTimer == nil { playFrames() }
        watchScrolling()
    }

    /// Shows the next frame of each animated picture in view, and sets the timer for the one after.
    private func playFrames() {
        frameTimer?.cancel()
        frameTimer = nil
        guard !isOver, !animations.isEmpty, let page, page.textView.animationsEnabled else { return }
        let visible = page.textView.visibleCharacters
        var next: Int?
        for (url, animation) in animations where isNear(url, visible) {
            if let frame = animation.advance() {
                for index in byURL[url] ?? [] { page.setImage(index, of: document, to: .picture(frame)) }
            }
            if let delay = animation.delay { next = min(next ?? delay, delay) }
        }
        guard let next else { return }
        frameTimer = page.sources.timer(milliseconds: UInt32(max(next, 20)), name: "gtkprogress-animation") { [weak self] in
            self?.frameTimer = nil
            self?.playFrames()
            return false
        }
    }

    private func request(_ urls: [URL]) {
        let fresh = urls.filter { !requested.contains($0) }
        guard !fresh.isEmpty else { return }
        var requests: [SubresourceRequest] = []
        for url in fresh {
            requested.insert(url)
            let id = requestIDs.count
            requestIDs[url] = id
            urlByID[id] = url
            fetched.append(url)
            progress.begin(id)
            requests.append(SubresourceRequest(id: id, url: url))
        }
        if let waiting = requestsAfterFirstFrame {
            // A few transfers go out at once, in the order given (near the view first, or the page's order before
            // its lines are laid out): the link is not left idle while the first frame is drawn (at 2 MB/s those
            // 50-100 ms are 100-200 KB that every later image waits for), and a few transfers' start-up is too
            // small to delay that frame. As many as one host's connections (`SubresourceQueue.maxPerHost`).
            // Images asked for while the document arrived (`ImagePreloads`) are on the wire already: taken over now.
            let preloaded = requests.filter { loader.isPreloaded($0.url) }
            let others = requests.filter { !loader.isPreloaded($0.url) }
            let room = max(SubresourceQueue.maxPerHost - sentAtOnce - preloaded.count, 0)
            let now = preloaded + others.prefix(room)
            sentAtOnce += now.count
            requestsAfterFirstFrame = waiting + others.dropFirst(min(room, others.count))
            if !now.isEmpty { loader.fetch(now) { [weak self] event in self?.handle(event) } }
        } else {
            loader.fetch(requests) { [weak self] event in self?.handle(event) }
        }
        onChange?()
    }

    /// The requests after the first go out once the page's first frame is on screen: the text comes first, and
    /// the image transfers' start-up (connections, headers, the first decodes) does not delay it. The frame
    /// clock's second tick says the first frame has been drawn; a window not on screen (or a frame that never
    /// comes) waits 100 ms at most.
    private func holdRequestsUntilTheFirstFrame() {
        guard let page else { return }
        requestsAfterFirstFrame = []
        var ticks = 0
        firstFrame = FrameCallback(on: page.textView) { [weak self] in
            ticks += 1
            guard ticks >= 2 else { return true }
            self?.sendHeldRequests()
            return false
        }
        firstFrameDeadline = page.sources.timer(milliseconds: 100, name: "gtkprogress-first-frame") { [weak self] in
            self?.sendHeldRequests()
            return false
        }
    }

    private func sendHeldRequests() {
        firstFrame?.cancel()
        firstFrame = nil
        firstFrameDeadline?.cancel()
        firstFrameDeadline = nil
        guard let requests = requestsAfterFirstFrame else { return }
        requestsAfterFirstFrame = nil
        guard !isOver else { return }
        // The lines on screen are laid out now: those near the view go first, and lazy ones near it are asked for.
        let view = nearRange()
        let near = requests.filter { isNear($0.url, view) }
        let rest = requests.filter { !isNear($0.url, view) }
        if !requests.isEmpty { loader.fetch(near + rest) { [weak self] event in self?.handle(event) } }
        scrolled()
        finishIfDone()
    }

    private func handle(_ event: SubresourceEvent) {
        guard !isOver else { return }
        switch event {
        case .started:
            break
        case .response(let id, let expected):
            progress.response(id, expected: expected)
        case .received(let id, let bytes):
            progress.received(id, bytes: bytes)
        case .finished(let id, let bytes, _):
            guard let url = urlByID[id] else { return }
            shown += byURL[url]?.count ?? 0
            arrived(bytes, of: url, completing: id)
        case .failed(let id, let message):
            guard let url = urlByID[id] else { return }
            for index in byURL[url] ?? [] { fail(index, why: message) }
            progress.complete(id)
        }
        onChange?()
    }

    /// An address's bytes are in: decoded now when near the view or while the page's pictures fit their budget,
    /// else kept and decoded when the reader comes near. `id` is the request to complete once decided.
    private func arrived(_ bytes: [UInt8], of url: URL, completing id: Int?) {
        if keptBytes + bytes.count <= Self.keptBytesBudget, kept[url] == nil {
            kept[url] = bytes
            keptBytes += bytes.count
        }
        if kept[url] != nil, pixelBytes + decodingPixelBytes >= Self.residentPixelBudget, !isNear(url, nearRange()) {
            held.insert(url)
            cache.insert(.bytes(bytes), for: url)
            if let id { progress.complete(id) }
            watchScrolling()
            onChange?()
            return
        }
        decode(bytes, of: url, completing: id)
    }

    private func decode(_ bytes: [UInt8], of url: URL, completing id: Int?) {
        let indexes = byURL[url] ?? []
        let first = indexes.first.map { document.images[$0] }
        let width = page?.pictureWidth ?? 800
        // Declared sizes are clamped to 6000 when read (PageImage), so this cannot overflow.
        let expected = first.map { ($0.width ?? 0) * ($0.height ?? 0) * 4 } ?? 0
        decoding.insert(url)
        decodingPixelBytes += expected
        PictureDecoder.decode(bytes, declaredWidth: first?.width, declaredHeight: first?.height,
                              maxWidth: width, scale: page?.textView.scaleFactor ?? 1,
                              inBuffer: !(page?.picturesAreWidgets ?? true)) { [weak self] outcome in
            guard let self, !self.isOver else { return }
            self.decoding.remove(url)
            self.decodingPixelBytes -= expected
            self.held.remove(url)
            switch outcome {
            case .picture(let picture) where self.pixelBytes + picture.byteCount > Self.pagePixelBudget:
                let why = L("Not shown: this page's images already take %@.", ByteCount.size(Int64(self.pixelBytes)))
                self.fail(url, why: why)
            case .picture(let picture):
                self.pixelBytes += picture.byteCount
                self.showing[url] = picture
                self.cache.insert(picture, for: url)
                for index in indexes { self.page?.setImage(index, of: self.document, to: .picture(picture)) }
                if let animation = PictureAnimation(picture) {
                    self.animations[url] = animation
                    if self.frameTimer == nil { self.playFrames() }
                }
                self.letFarPicturesGo()
            case .refused(let why):
                self.fail(url, why: why)
            }
            if let id { self.progress.complete(id) }
            self.watchScrolling()
            // A picture in place (or its alt text): the count and the bar move now, not at the next event.
            self.onChange?()
        }
    }

    /// Past the resident budget, the pictures farthest from the view whose bytes are kept give way to an empty
    /// place of their size, so the text around them does not move; they are decoded again when the reader nears them.
    private func letFarPicturesGo() {
        guard pixelBytes > Self.residentPixelBudget, let page else { return }
        let view = nearRange()
        let middle = page.textView.visibleCharacters.lowerBound
        var far: [(distance: Int, url: URL)] = []
        for url in showing.keys where kept[url] != nil && !isNear(url, view) {
            let offsets = (byURL[url] ?? []).compactMap { page.characterOffset(ofImage: $0) }
            far.append((offsets.map { abs($0 - middle) }.min() ?? Int.max, url))
        }
        far.sort { $0.distance > $1.distance }
        for (_, url) in far where pixelBytes > Self.residentPixelBudget {
            guard let picture = showing.removeValue(forKey: url), let bytes = kept[url] else { continue }
            pixelBytes -= picture.byteCount
            animations[url] = nil
            held.insert(url)
            cache.insert(.bytes(bytes), for: url)
            for index in byURL[url] ?? [] {
                page.setImage(index, of: document, to: .held(width: picture.width, height: picture.height))
            }
        }
    }

    private func show(_ picture: Picture, index: Int) {
        shown += 1
        page?.setImage(index, of: document, to: .picture(picture))
    }

    /// Every image of `url` failed after its bytes were counted in.
    private func fail(_ url: URL, why: String) {
        let indexes = byURL[url] ?? []
        shown -= indexes.count
        for index in indexes { fail(index, why: why) }
    }

    private func fail(_ index: Int, why: String) {
        failed += 1
        page?.setImage(index, of: document, to: .failed(why: why))
    }

    /// Told when nothing is left to fetch once the first frame has decided the lazy images near the view (every
    /// image cached, refused, or lazy and far).
    private func finishIfDone() {
        guard isComplete else { return }
        onChange?()
    }
}
