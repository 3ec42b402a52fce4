internal import CCurl
import FoundationEssentials
import Glibc
import GtkProgressCore
import GtkProgressFiles

/// A subresource of a page (an image) to fetch: which, from where, and how many bytes it may have.
package struct SubresourceRequest: Sendable, Equatable {
    package var id: Int
    package var url: URL
    /// The body is refused past this many bytes (after content decoding): the image is then "too large".
    package var maxBytes: Int

    package init(id: Int, url: URL, maxBytes: Int = SubresourceRequest.defaultMaxBytes) {
        self.id = id
        self.url = url
        self.maxBytes = maxBytes
    }

    /// 16 MiB: more than any picture a page means to show, less than a decoder should be handed blindly.
    package static let defaultMaxBytes = 16 << 20
}

/// What a subresource fetch reports, on the main loop, never from inside `fetch`.
package enum SubresourceEvent: Sendable {
    /// The request left: it counts as pending from here (`ResourceProgress.begin`).
    case started(id: Int)
    /// The final response's length in transfer bytes, nil when unknown.
    case response(id: Int, expected: Int64?)
    /// More transfer bytes arrived.
    case received(id: Int, bytes: Int64)
    /// The whole body, decoded (content encoding, `data:`), and its type.
    case finished(id: Int, bytes: [UInt8], mimeType: String?)
    /// Failed, refused or too large: why, in words for a tooltip.
    case failed(id: Int, message: String)

    package var id: Int {
        switch self {
        case .started(let id), .response(let id, _), .received(let id, _), .finished(let id, _, _),
             .failed(let id, _): return id
        }
    }

    /// The same event for request `id` (a preload taken over by the page's request).
    func with(id: Int) -> SubresourceEvent {
        switch self {
        case .started: .started(id: id)
        case .response(_, let expected): .response(id: id, expected: expected)
        case .received(_, let bytes): .received(id: id, bytes: bytes)
        case .finished(_, let bytes, let mimeType): .finished(id: id, bytes: bytes, mimeType: mimeType)
        case .failed(_, let message): .failed(id: id, message: message)
        }
    }
}

/// One subresource on the wire: an easy handle on the page loader's multi handle, so it shares the page's
/// connections (libcurl keeps one connection cache per multi handle,
/// <https://curl.se/libcurl/c/libcurl-multi.html>). Events wait in `outbox` until the loader hands them on.
final class SubresourceTransfer {
    let request: SubresourceRequest
    let easy = CurlEasyHandle()
    let host: String
    private(set) var outbox: [SubresourceEvent] = []
    private(set) var body: [UInt8] = []
    private(set) var tooLarge = false
    private var announced = false
    private var lastReceived: Int64 = 0
    private var status = 0

    init(request: SubresourceRequest, options: LoaderOptions) {
        self.request = request
        host = request.url.host ?? ""
        easy.delegate = self
        // The document's own libcurl policy, with a stall backstop and a deadline of its own.
        easy.applyWebPolicy(to: request.url, options: options)
        easy.set(CURLOPT_LOW_SPEED_LIMIT, 1)
        easy.set(CURLOPT_LOW_SPEED_TIME, max(1, Int(options.stallTimeout.rounded(.up))))
        easy.set(CURLOPT_TIMEOUT_MS, Int(options.deadline * 1000))
    }

    var setupFailed: Bool { easy.refusedOption != nil }

    func takeEvents() -> [SubresourceEvent] {
        defer { outbox.removeAll() }
        return outbox
    }

    /// The transfer's end: its body, or why there is none.
    func complete(result: CURLcode) -> SubresourceEvent {
        let id = request.id
        if tooLarge {
            return .failed(id: id, message: L("Not shown: the image is larger than %@.",
                                              ByteCount.size(Int64(request.maxBytes))))
        }
        guard result == CURLE_OK else {
            let detail = easy.errorDetail
            return .failed(id: id, message: detail.isEmpty ? String(cString: ccurl_easy_strerror(result)) : detail)
        }
        guard status < 400 else {
            return .failed(id: id, message: "HTTP \(status) \(HTTPStatus.reason(status))")
        }
        return .finished(id: id, bytes: body, mimeType: easy.contentType)
    }
}

extension SubresourceTransfer: CurlEasyHandleDelegate {
    func easyHandle(_ handle: CurlEasyHandle, didReceiveHeaderLine line: UnsafeRawBufferPointer) -> Bool {
        if line.starts(with: "HTTP/".utf8) {
            // "HTTP/1.1 200 OK": the status of the response being received (redirects each have their own).
            let words = String(decoding: line, as: UTF8.self).split(separator: " ")
            status = words.count > 1 ? Int(words[1]) ?? 0 : 0
            announced = false
        }
        return true
    }

    func easyHandle(_ handle: CurlEasyHandle, didReceive data: UnsafeRawBufferPointer) -> CurlWriteAnswer {
        announce()
        // libcurl 7.88.1's CURLOPT_MAXFILESIZE neither sees decoded sizes nor stops bodies of unknown length.
        guard body.count + data.count <= request.maxBytes else {
            tooLarge = true
            return .refuse
        }
        body.append(contentsOf: data)
        return .keep
    }

    func easyHandle(_ handle: CurlEasyHandle, didProgress received: Int64, of expected: Int64) -> Bool {
        if status >= 200, status < 300 || status >= 400, received > lastReceived {
            announce()
            outbox.append(.received(id: request.id, bytes: received - lastReceived))
            lastReceived = received
        }
        return true
    }

    private func announce() {
        guard !announced, status >= 200, status < 300 || status >= 400 else { return }
        announced = true
        outbox.append(.response(id: request.id, expected: easy.contentLength))
    }
}

/// The page's subresources waiting for, or using, a place on the page loader's multi handle, within the limits
/// NetSurf keeps (at most 24 fetches; NetSurf allows 5 per host, HTTP/1.1 browsers 6): requests leave in the order
/// they were asked for, each as soon as its host and the total have room. libcurl is told the same limits
/// (CURLMOPT_MAX_TOTAL_CONNECTIONS, CURLMOPT_MAX_HOST_CONNECTIONS), so a connection is reused rather than
/// another opened. <https://curl.se/libcurl/c/CURLMOPT_MAX_HOST_CONNECTIONS.html>
package final class SubresourceQueue {
    package static let maxTransfers = 24
    package static let maxPerHost = 6

    var waiting: [SubresourceRequest] = []
    var running: [UnsafeMutableRawPointer: SubresourceTransfer] = [:]
    var perHost: [String: Int] = [:]
    /// `data:` and local files being read off the main loop, by id.
    var reading: Set<Int> = []
    var listener: ((SubresourceEvent) -> Void)?
    var queue: [SubresourceEvent] = []
    /// Bumped by every cancel: results of reads started before it are dropped.
    var generation = 0
    /// The most transfers on the wire at once, in all and per host, since the last `resetStatistics` (tests).
    var peakTransfers = 0
    var peakPerHost = 0

    var isIdle: Bool { waiting.isEmpty && running.isEmpty && reading.isEmpty }

    /// An address asked for before the page's image loads asked for it (`PageLoader.preload`): its events wait
    /// here until `fetch` asks for the address and takes the transfer over (`owner`, the id they then carry).
    final class Preload {
        let id: Int
        var owner: Int?
        var held: [SubresourceEvent] = []
        init(id: Int) { self.id = id }
    }
    var preloads: [URL: Preload] = [:]
    var preloadsByID: [Int: Preload] = [:]
    /// Preloads take ids below zero, which no request of the page's image loads has.
    var lastPreloadID = 0
}

extension PageLoader {
    /// Fetches a page's subresources on the multi handle the page came on. Events come on the main loop, in
    /// order per request: `started`, then `response` and `received` for network ones, then `finished` or
    /// `failed`. Requests added while others run wait their turn behind them. Whether the page may fetch each
    /// address is the navigation policy's decision, made before; `data:` URLs are decoded and local files read
    /// off the main loop.
    package func fetch(_ requests: [SubresourceRequest], onEvent: @escaping (SubresourceEvent) -> Void) {
        let queue = subresources
        queue.listener = onEvent
        collectSubresourceEvents()
        for request in requests {
            guard let preload = queue.preloads[request.url], preload.owner == nil else {
                queue.waiting.append(request)
                continue
            }
            // Already on its way: the transfer is this request's from now on, and what it brought so far too.
            preload.owner = request.id
            queue.queue += preload.held.map { $0.with(id: request.id) }
            preload.held.removeAll()
        }
        startWaitingSubresources()
        deliverSubresourceEvents()
    }

    /// Asks for images the document being loaded names, before it is parsed and shown (`ImageSourceScan`), on the
    /// same multi handle and within the same limits; their events wait until `fetch` asks for the same address,
    /// which then takes the transfer over instead of starting another. Whether the page may fetch each address is
    /// the navigation policy's decision, made before.
    package func preload(_ urls: [URL]) {
        let queue = subresources
        for url in urls where queue.preloads[url] == nil {
            queue.lastPreloadID -= 1
            let preload = SubresourceQueue.Preload(id: queue.lastPreloadID)
            queue.preloads[url] = preload
            queue.preloadsByID[preload.id] = preload
            queue.waiting.append(SubresourceRequest(id: preload.id, url: url))
        }
        startWaitingSubresources()
        deliverSubresourceEvents()
    }

    /// Whether `url` was preloaded and no request has taken it over yet.
    package func isPreloaded(_ url: URL) -> Bool {
        subresources.preloads[url].map { $0.owner == nil } ?? false
    }

    /// Lets go of the preloads no request took over (the parsed page does not have those images, or shows them
    /// from its cache): their transfers stop and what they brought is dropped.
    package func dropUnclaimedPreloads() {
        let queue = subresources
        let unclaimed = queue.preloads.filter { $0.value.owner == nil }
        guard !unclaimed.isEmpty else { return }
        let ids = Set(unclaimed.values.map(\.id))
        for (url, preload) in unclaimed {
            queue.preloads[url] = nil
            queue.preloadsByID[preload.id] = nil
        }
        queue.waiting.removeAll { ids.contains($0.id) }
        queue.queue.removeAll { ids.contains($0.id) }
        for (key, transfer) in queue.running where ids.contains(transfer.request.id) {
            queue.running[key] = nil
            multi?.remove(transfer.easy)
            queue.perHost[transfer.host, default: 1] -= 1
            if queue.perHost[transfer.host] == 0 { queue.perHost[transfer.host] = nil }
        }
        startWaitingSubresources()
        deliverSubresourceEvents()
    }

    /// Stops every subresource fetch at once; no event of them arrives afterwards.
    package func cancelSubresources() {
        let queue = subresources
        queue.generation += 1
        queue.waiting.removeAll()
        queue.reading.removeAll()
        queue.queue.removeAll()
        queue.listener = nil
        queue.preloads.removeAll()
        queue.preloadsByID.removeAll()
        for transfer in queue.running.values { multi?.remove(transfer.easy) }
        queue.running.removeAll()
        queue.perHost.removeAll()
        releaseWhenIdle()
    }

    /// Subresource transfers on the wire now, and the most there were at once, in all and per host (tests).
    package var subresourceStatistics: (running: Int, peak: Int, peakPerHost: Int) {
        (subresources.running.count, subresources.peakTransfers, subresources.peakPerHost)
    }

    package func resetSubresourceStatistics() {
        subresources.peakTransfers = 0
        subresources.peakPerHost = 0
    }

    /// Whether subresources are waiting, on the wire or being read.
    package var isFetchingSubresources: Bool { !subresources.isIdle }

    func startWaitingSubresources() {
        let queue = subresources
        var index = 0
        while index < queue.waiting.count, queue.running.count < SubresourceQueue.maxTransfers {
            let request = queue.waiting[index]
            let scheme = request.url.scheme?.lowercased()
            if scheme == "data" || request.url.isFileURL {
                queue.waiting.remove(at: index)
                readInPlace(request)
                continue
            }
            let host = request.url.host ?? ""
            guard queue.perHost[host, default: 0] < SubresourceQueue.maxPerHost else {
                index += 1
                continue
            }
            queue.waiting.remove(at: index)
            start(request)
        }
    }

    private func start(_ request: SubresourceRequest) {
        let queue = subresources
        queue.queue.append(.started(id: request.id))
        if let problem = PageLoader.curlProblem {
            queue.queue.append(.failed(id: request.id, message: problem))
            return
        }
        let transfer = SubresourceTransfer(request: request, options: options)
        guard !transfer.setupFailed else {
            queue.queue.append(.failed(id: request.id, message: L("Not loaded: libcurl refused the address.")))
            return
        }
        let multi = ensureMulti()
        guard let multi, multi.add(transfer.easy) else {
            queue.queue.append(.failed(id: request.id, message: Self.noConnectionMessage()))
            return
        }
        queue.running[transfer.easy.rawHandle] = transfer
        queue.perHost[transfer.host, default: 0] += 1
        queue.peakTransfers = max(queue.peakTransfers, queue.running.count)
        queue.peakPerHost = max(queue.peakPerHost, queue.perHost[transfer.host] ?? 0)
    }

    /// `data:` URLs and local files: no connection, read off the main loop (a data URL may be megabytes).
    private func readInPlace(_ request: SubresourceRequest) {
        let queue = subresources
        queue.queue.append(.started(id: request.id))
        queue.reading.insert(request.id)
        let generation = queue.generation
        BackgroundWork.run({ Self.readLocally(request) }) { [weak self] event in
            guard let self, self.subresources.generation == generation else { return }
            self.subresources.reading.remove(request.id)
            self.subresources.queue.append(event)
            self.deliverSubresourceEvents()
        }
    }

    private nonisolated static func readLocally(_ request: SubresourceRequest) -> SubresourceEvent {
        if request.url.scheme?.lowercased() == "data" {
            guard let decoded = DataURL.decode(request.url, limit: request.maxBytes) else {
                return .failed(id: request.id, message: L("Not shown: the data: address is malformed or too large."))
            }
            return .finished(id: request.id, bytes: decoded.bytes, mimeType: decoded.mimeType)
        }
        // The one bounded reader of local files: without blocking on a FIFO, only a regular file, and never past
        // the cap, however the file grows meanwhile.
        switch LocalFile.readRegular(request.url.path, maxBytes: request.maxBytes) {
        case .success(let bytes):
            return .finished(id: request.id, bytes: bytes, mimeType: nil)
        case .failure(.failed):
            return .failed(id: request.id, message: L("Not shown: %@ cannot be read.", request.url.path))
        case .failure(.notRegular):
            return .failed(id: request.id, message: L("Not shown: %@ is not a file.", request.url.path))
        case .failure(.tooLarge):
            return .failed(id: request.id, message: L("Not shown: the image is larger than %@.",
                                                      ByteCount.size(Int64(request.maxBytes))))
        }
    }

    /// The multi handle told us a transfer ended; true when it was a subresource's.
    func subresourceDidComplete(_ easy: CurlEasyHandle, result: CURLcode, on multi: CurlMultiHandle) -> Bool {
        let queue = subresources
        guard let transfer = queue.running.removeValue(forKey: easy.rawHandle) else { return false }
        multi.remove(easy)
        queue.perHost[transfer.host, default: 1] -= 1
        if queue.perHost[transfer.host] == 0 { queue.perHost[transfer.host] = nil }
        queue.queue += transfer.takeEvents()
        queue.queue.append(transfer.complete(result: result))
        startWaitingSubresources()
        return true
    }

    /// Collects what running transfers reported; a preload's events wait with it until a request takes it over,
    /// and then carry that request's id.
    private func collectSubresourceEvents() {
        let queue = subresources
        for transfer in queue.running.values { queue.queue += transfer.takeEvents() }
        guard !queue.preloadsByID.isEmpty || queue.queue.contains(where: { $0.id < 0 }) else { return }
        var kept: [SubresourceEvent] = []
        for event in queue.queue {
            guard event.id < 0 else {
                kept.append(event)
                continue
            }
            guard let preload = queue.preloadsByID[event.id] else { continue }
            if let owner = preload.owner {
                kept.append(event.with(id: owner))
            } else {
                preload.held.append(event)
            }
        }
        queue.queue = kept
    }

    /// Collects what running transfers reported and hands everything queued to the listener.
    func deliverSubresourceEvents() {
        let queue = subresources
        collectSubresourceEvents()
        let generation = queue.generation
        while queue.generation == generation, !queue.queue.isEmpty, let listener = queue.listener {
            listener(queue.queue.removeFirst())
        }
        if queue.isIdle, queue.generation == generation { releaseWhenIdle() }
    }
}
