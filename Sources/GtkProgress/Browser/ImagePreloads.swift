import FoundationEssentials

/// The images a document names, asked for as its bytes arrive (`ImageSourceScan`), before it is parsed and shown:
/// the first ones, as many as the loader keeps on the wire at once (`SubresourceQueue.maxTransfers`, six at a
/// time to one host), so the link carries images from the moment the document names them until the page's own
/// image loads, near the view first, take over. The page's image loads (`PageImageLoads`) take these transfers
/// over when they ask for the same addresses; those they do not ask for are let go (`Browser.showImages`). What the
/// page may fetch is the navigation policy's `subresourceRefusal`, as for every image.
@MainActor
final class ImagePreloads {
    static let limit = SubresourceQueue.maxTransfers
    /// Bytes looked through for one arrival, at most: a quarter of `ImageTags.bytesPerLook`, since this look reads
    /// every tag (about 10 ms for 512 KB of Node.js's all.html, in a release build, on the main loop). On a local
    /// file, read faster than that, it falls behind the bytes; what it has not reached, the parsed page asks for.
    static let bytesPerLook = ImageTags.bytesPerLook / 4
    private let loader: PageLoader
    private var scan = ImageSourceScan()
    private var asked = 0

    init(loader: PageLoader) { self.loader = loader }

    /// Looks through what has arrived since the last look (at most `bytesPerLook` at a time) and asks
    /// for the images it names, up to `limit`. Only an HTML document is looked at.
    func look(at arrived: ArrivedBody) {
        guard asked < Self.limit, !scan.isOver,
              arrived.contentType.map({ $0.lowercased().contains("html") }) ?? true else { return }
        var urls: [URL] = []
        for url in scan.scan(arrived.bytes, base: arrived.url, limit: Self.bytesPerLook)
        where ["http", "https"].contains(url.scheme?.lowercased() ?? "")
            && NavigationPolicy.subresourceRefusal(for: url, page: arrived.url) == nil && !urls.contains(url) {
            urls.append(url)
        }
        let fresh = Array(urls.prefix(Self.limit - asked))
        guard !fresh.isEmpty else { return }
        asked += fresh.count
        loader.preload(fresh)
    }
}
