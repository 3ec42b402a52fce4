import FoundationEssentials

/// One document to load. Whether it may be loaded at all was decided before, by `NavigationPolicy`: the loader
/// opens http, https and file addresses it is given, and keeps redirects to `NavigationPolicy.redirectSchemes`.
package struct LoadRequest: Sendable, Equatable {
    package var url: URL
    /// A form's `application/x-www-form-urlencoded` data, sent by POST; nil for GET.
    package var body: [UInt8]?

    package init(url: URL, body: [UInt8]? = nil) {
        self.url = url
        self.body = body
    }
}

/// The policy every load follows. The defaults protect the viewer from hostile servers.
package struct LoaderOptions: Sendable, Equatable {
    /// Redirects followed before giving up. libcurl 7.88.1 follows without limit unless told.
    package var maxRedirects: Int = 20
    /// Seconds allowed to set up the connection (DNS, TCP and TLS handshakes).
    package var connectTimeout: Double = 15
    /// The stall watch: a load fails when fewer bytes than `stallTimeout` (one a second, the rate
    /// CURLOPT_LOW_SPEED_LIMIT is set to) arrive within `stallTimeout` seconds, whether none came at all or
    /// a server trickles a byte every few seconds.
    package var stallTimeout: Double = 30
    /// The longest one document may take to arrive, from the request to its last byte, however steadily it
    /// trickles in: a server that sends a byte a second would otherwise hold the load open for ever.
    package var deadline: Double = 600
    /// The largest document accepted, counted *after* decompression: a small gzip body can inflate to gigabytes.
    package var maxDocumentBytes: Int = 64 << 20
    /// Caps the receiving speed in transfer bytes per second, like a browser's network throttling, to watch
    /// the curve on a fast network. Paced from the first body byte on, so small pages are slowed down too.
    /// Has no effect on `file:` URLs.
    package var throttleBytesPerSecond: Int64? = nil
    /// Whether the body is kept. A load that only measures the network (`--load-only`) drops each byte as it
    /// arrives, so neither memory nor `maxDocumentBytes` limits it; its `LoadedPage` has an empty body.
    package var keepsBody = true

    /// Why the throttle leaves `url` alone, for the person who asked for it; nil when there is no throttle or it
    /// applies. A local file is read in one go by libcurl's file: protocol, so it cannot be paced (see `Transfer`).
    package func throttleNote(for url: URL) -> String? {
        guard let rate = throttleBytesPerSecond, rate > 0, url.isFileURL else { return nil }
        return L("Not throttled: --throttle slows down web addresses only, and this is a local file.")
    }

    package init(maxRedirects: Int = 20, connectTimeout: Double = 15, stallTimeout: Double = 30,
                deadline: Double = 600, maxDocumentBytes: Int = 64 << 20, throttleBytesPerSecond: Int64? = nil) {
        self.maxRedirects = maxRedirects
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.deadline = deadline
        self.maxDocumentBytes = maxDocumentBytes
        self.throttleBytesPerSecond = throttleBytesPerSecond
    }
}
