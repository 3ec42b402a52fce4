import FoundationEssentials

/// Decoded pictures kept for pages in the back/forward cache, by address, within a byte budget: Back and Forward
/// show a page's images from here, without a request (DESIGN: "going back or forward shows the cached document …
/// without a network request"). The least recently used go first when the budget is full.
@MainActor
final class PictureCache {
    /// 96 MiB of pixels: the images of a few pages, far under what Dillo's decoded-image cache grows to.
    static let budget = 96 << 20
    private var pictures: [URL: (picture: Picture, used: Int)] = [:]
    private var bytes = 0
    private var clock = 0

    subscript(url: URL) -> Picture? {
        guard let entry = pictures[url] else { return nil }
        clock += 1
        pictures[url] = (entry.picture, clock)
        return entry.picture
    }

    func insert(_ picture: Picture, for url: URL) {
        guard picture.byteCount <= Self.budget / 4 else { return }
        if let old = pictures.removeValue(forKey: url) { bytes -= old.picture.byteCount }
        clock += 1
        pictures[url] = (picture, clock)
        bytes += picture.byteCount
        while bytes > Self.budget, let oldest = pictures.min(by: { $0.value.used < $1.value.used }) {
            pictures[oldest.key] = nil
            bytes -= oldest.value.picture.byteCount
        }
    }

    var count: Int { pictures.count }
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
    /// Images shown, and images refused or failed.
    private(set) var shown = 0
    private(set) var failed = 0
    private var scrollWatch: SignalConnection?
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
    /// Whether every image asked for is in, failed or refused (lazy ones not yet asked for do not count).
    var isComplete: Bool { progress.isComplete }

    /// Starts: pictures already decoded for another visit of the page go in at once; the rest are asked for,
    /// those near the view first. Lazy images wait for the reader to come near (`onVerticalScroll`).
    func start() {
        var near: [URL] = []
        var rest: [URL] = []
        let view = nearRange()
        for url in order {
            if let picture = cache[url] {
                pixelBytes += picture.byteCount
                for index in byURL[url] ?? [] { show(picture, index: index) }
                requested.insert(url)
                continue
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
        if !waitingLazy.isEmpty {
            scrollWatch = page?.scrolledWindow.onVerticalScroll { [weak self] in self?.requestLazyNearView() }
        }
        finishIfDone()
    }

    /// Stops every fetch at once (Stop, or the page replaced).
    func cancel() {
        guard !isOver else { return }
        isOver = true
        loader.cancelSubresources()
        scrollWatch?.disconnect()
        scrollWatch = nil
    }

    isolated deinit { scrollWatch?.disconnect() }

    /// The characters on screen, with a screenful above and two below: what counts as near the view.
    private func nearRange() -> Range<Int>? {
        guard let page else { return nil }
        let visible = page.textView.visibleCharacters
        let span = max(visible.count, 2000)
        return max(visible.lowerBound - span, 0)..<(visible.upperBound + 2 * span)
    }

    /// On each scroll, only the lazy images not yet asked for are looked at; once none is left the watch goes.
    private func requestLazyNearView() {
        guard !isOver, let view = nearRange() else { return }
        let due = waitingLazy.filter { url in
            (byURL[url] ?? []).contains { index in
                page?.characterOffset(ofImage: index).map { view.contains($0) } ?? false
            }
        }
        request(due)
        waitingLazy.removeAll { requested.contains($0) }
        if waitingLazy.isEmpty {
            scrollWatch?.disconnect()
            scrollWatch = nil
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
        loader.fetch(requests) { [weak self] event in self?.handle(event) }
        onChange?()
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
            let indexes = byURL[url] ?? []
            let first = indexes.first.map { document.images[$0] }
            let width = page?.pictureWidth ?? 800
            PictureDecoder.decode(bytes, declaredWidth: first?.width, declaredHeight: first?.height,
                                  maxWidth: width) { [weak self] outcome in
                guard let self, !self.isOver else { return }
                switch outcome {
                case .picture(let picture) where self.pixelBytes + picture.byteCount > Self.pagePixelBudget:
                    let why = L("Not shown: this page's images already take %@.",
                                ByteCount.size(Int64(self.pixelBytes)))
                    for index in indexes { self.fail(index, why: why) }
                case .picture(let picture):
                    self.pixelBytes += picture.byteCount
                    self.cache.insert(picture, for: url)
                    for index in indexes { self.show(picture, index: index) }
                case .refused(let why):
                    for index in indexes { self.fail(index, why: why) }
                }
                self.progress.complete(id)
                // A picture in place (or its alt text): the count and the bar move now, not at the next event.
                self.onChange?()
            }
        case .failed(let id, let message):
            guard let url = urlByID[id] else { return }
            for index in byURL[url] ?? [] { fail(index, why: message) }
            progress.complete(id)
        }
        onChange?()
    }

    private func show(_ picture: Picture, index: Int) {
        shown += 1
        page?.setImage(index, of: document, to: .picture(picture))
    }

    private func fail(_ index: Int, why: String) {
        failed += 1
        page?.setImage(index, of: document, to: .failed(why: why))
    }

    /// Told once when nothing was left to fetch from the start (every image cached, refused or lazy-free).
    private func finishIfDone() {
        guard progress.isComplete else { return }
        onChange?()
    }
}
