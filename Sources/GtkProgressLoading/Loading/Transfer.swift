internal import CCurl
import FoundationEssentials
import GtkProgressCore

/// One load on the wire: configures its easy handle from the request and the loader's policy, gathers the
/// body, and turns what libcurl reports into `LoadEvent`s. It never calls listeners itself: libcurl must not be
/// re-entered from its callbacks, so events wait in `outbox` until the loader hands them on.
final class Transfer {
    let request: LoadRequest
    let options: LoaderOptions
    let easy = CurlEasyHandle()
    /// Events not yet handed on, oldest first.
    private(set) var outbox: [LoadEvent] = []
    /// The document so far, after content decoding.
    private(set) var body: [UInt8] = []
    /// The final response, once its headers are complete.
    private(set) var response: LoadResponse?
    /// Every redirect target met, absolute, in order.
    private(set) var redirects: [String] = []
    /// Set when the write callback refused data because the document passed `maxDocumentBytes`.
    private(set) var exceededSizeLimit = false
    /// Set when the stall watch stopped the transfer: under one byte a second for `stallTimeout`.
    private(set) var stalled = false
    /// Set when the transfer was stopped for passing `deadline`.
    private(set) var overDeadline = false
    /// Why libcurl would not take this load's options; the transfer must not be started then.
    private(set) var setupFailure: LoadError?
    /// When the load began, for `deadline`.
    let startTime = MainLoop.monotonicSeconds()
    /// Whether a line of a response head (the status line or a header) has arrived.
    private(set) var sawHeaderLine = false
    /// Body bytes handed over by libcurl, after content decoding. libcurl's own counter is not updated when a
    /// read fails part way (a broken chunk after good ones), so a cut-off body is measured here too.
    private(set) var bodyBytesWritten: Int64 = 0

    /// Headers of the response being received (each redirect and 1xx response has its own).
    private var location: String?
    private(set) var contentEncoding: String?
    private var lastProgress: (received: Int64, expected: Int64?)?
    /// When the stall watch began: the connection came up, or a response head was complete.
    private var watchStart: Double?
    /// The transfer byte count each time it changed, and when, oldest first: only as far back as the last change
    /// before the stall window, so the bytes of the window are the last count less the first.
    private var arrivals: [(time: Double, received: Int64)] = []
    /// When the first body bytes arrived, for throttling.
    private var throttleStart: Double?
    /// Continues a transfer held back by the throttle.
    private var resumeTimer: MainLoopTimer?
    /// The milestones already reported, each once per load.
    private var milestonesReported: Set<LoadMilestone> = []
    /// A header line has arrived: the first byte is in, whatever libcurl's timer says yet.
    private var sawFirstByte = false

    init(request: LoadRequest, options: LoaderOptions) {
        self.request = request
        self.options = options
        easy.delegate = self
        configure()
    }

    /// Empties the outbox.
    func takeEvents() -> [LoadEvent] {
        defer { outbox.removeAll() }
        return outbox
    }

    /// libcurl's policy for this load: <https://curl.se/libcurl/c/curl_easy_setopt.html>
    private func configure() {
        defer {
            if let refused = easy.refusedOption { setupFailure = setupFailure(refused.option, refused.code) }
        }
        easy.applyWebPolicy(to: request.url, options: options)
        if let body = request.body {
            // A form sent by POST: libcurl copies the data and sends it with the Content-Type
            // `application/x-www-form-urlencoded` (<https://curl.se/libcurl/c/CURLOPT_COPYPOSTFIELDS.html>); the
            // size goes first, as that page asks. The urlencoded serializer writes ASCII only, no NUL. A 301,
            // 302 or 303 answer is then followed by GET, as browsers do (CURLOPT_POSTREDIR left at 0).
            easy.set(CURLOPT_POSTFIELDSIZE_LARGE, Int64(body.count))
            easy.set(CURLOPT_COPYPOSTFIELDS, String(decoding: body, as: UTF8.self))
        }
        // Under one byte per second: the server has stopped, or trickles too slowly to ever finish. libcurl
        // averages the speed over the last five seconds, so it cannot say how many bytes came in the stall time;
        // `watch` is the precise rule, and libcurl's the backstop five seconds behind it (and what makes libcurl
        // report progress every second, <https://curl.se/libcurl/c/CURLOPT_LOW_SPEED_TIME.html>).
        easy.set(CURLOPT_LOW_SPEED_LIMIT, Transfer.minimumBytesPerSecond)
        easy.set(CURLOPT_LOW_SPEED_TIME, max(1, Int(options.stallTimeout.rounded(.up))) + 5)
        if let rate = options.throttleBytesPerSecond, rate > 0 {
            // Not CURLOPT_MAX_RECV_SPEED_LARGE: see `mustWaitForThrottle`. Small reads, so that the throttle holds
            // the transfer back in fine steps.
            easy.set(CURLOPT_BUFFERSIZE, Int(min(max(rate / 20, 1024), 16 * 1024)))
        } else {
            // The curl tool's own read size: fewer wake-ups (and progress callbacks) per megabyte than the
            // 16 KB default on a fast network.
            easy.set(CURLOPT_BUFFERSIZE, 100 * 1024)
        }
    }
}

// MARK: - libcurl callbacks

extension Transfer: CurlEasyHandleDelegate {
    func easyHandle(_ handle: CurlEasyHandle, didReceiveHeaderLine line: UnsafeRawBufferPointer) -> Bool {
        // Trailers of a chunked body come through here too, after the response is known: ignore them.
        guard response == nil else { return true }
        sawFirstByte = true
        noticeMilestones()
        let text = String(decoding: line, as: UTF8.self).trimmingASCIIWhitespace()
        if text.isEmpty {
            // A whole head (a redirect's, or the final one) is progress; single lines are not, so a server that
            // trickles its headers a byte at a time cannot hold the load open for ever.
            let now = MainLoop.monotonicSeconds()
            watchStart = now
            arrivals = [(now, arrivals.last?.received ?? 0)]
            return headersEnded()
        }
        sawHeaderLine = true
        if text.hasPrefix("HTTP/") {
            location = nil
            contentEncoding = nil
            return true
        }
        guard let colon = text.firstIndex(of: ":") else { return true }
        let name = text[..<colon].lowercased()
        let value = String(text[text.index(after: colon)...]).trimmingASCIIWhitespace()
        switch name {
        case "location": location = value
        case "content-encoding": contentEncoding = value.lowercased()
        default: break
        }
        return true
    }

    func easyHandle(_ handle: CurlEasyHandle, didReceive data: UnsafeRawBufferPointer) -> CurlWriteAnswer {
        if response == nil { announceResponse() }
        bodyBytesWritten += Int64(data.count)
        guard options.keepsBody else { return mustWaitForThrottle() ? .pause : .keep }
        // libcurl 7.88.1's CURLOPT_MAXFILESIZE neither sees decoded sizes nor stops bodies of unknown length,
        // so the cap lives here, before the bytes are kept.
        guard body.count + data.count <= options.maxDocumentBytes else {
            exceededSizeLimit = true
            return .refuse
        }
        if mustWaitForThrottle() { return .pause }
        if body.count + data.count > body.capacity {
            // Grow by doubling as Array would, but never past the cap: a buffer just short of the cap would
            // otherwise double to twice the cap for its last bytes.
            body.reserveCapacity(min(max(body.capacity * 2, body.count + data.count, 64 * 1024),
                                     options.maxDocumentBytes))
        }
        body.append(contentsOf: data)
        return .keep
    }

    func easyHandle(_ handle: CurlEasyHandle, didProgress received: Int64, of expected: Int64) -> Bool {
        // Counters of redirect responses are not this document's progress. Reported before the watches decide,
        // so the bytes a failure message counts are the bytes the bar was shown.
        if response != nil {
            reportProgress(received: received, expected: expected > 0 ? expected : nil)
        }
        let now = MainLoop.monotonicSeconds()
        if now - startTime >= options.deadline {
            overDeadline = true
            return false
        }
        guard watch(received: received, now: now) else {
            stalled = true
            return false
        }
        return true
    }

    /// Reports the phases libcurl has completed since the last look (name resolved, connected, TLS done, first
    /// byte), in their order. The loader looks after every socket action and at every header line: libcurl
    /// changes phase only when a socket or its timer wakes it. A local file has no such phases.
    func noticeMilestones() {
        guard !request.url.isFileURL, milestonesReported.count < LoadMilestone.allCases.count else { return }
        var reached: Set<LoadMilestone> = []
        if sawFirstByte || easy.firstByteTime > 0 { reached.insert(.firstByte) }
        if easy.tlsHandshakeTime > 0 { reached.insert(.secured) }
        if easy.connectTime > 0 || easy.preTransferTime > 0 || !reached.isEmpty { reached.insert(.connected) }
        if easy.nameLookupTime > 0 || reached.contains(.connected) { reached.insert(.nameResolved) }
        for milestone in LoadMilestone.allCases where reached.contains(milestone) && !milestonesReported.contains(milestone) {
            milestonesReported.insert(milestone)
            outbox.append(.milestone(milestone))
        }
    }

    /// The rate under which a transfer is taken for stalled, as CURLOPT_LOW_SPEED_LIMIT counts it: bytes per
    /// second, averaged over `stallTimeout`. <https://curl.se/libcurl/c/CURLOPT_LOW_SPEED_LIMIT.html>
    static let minimumBytesPerSecond = 1

    /// Whether the transfer is still alive: at least one byte a second came within the last `stallTimeout`. The
    /// watch starts once the connection is up (connecting has its own timeout), and again at each complete head.
    private func watch(received: Int64, now: Double) -> Bool {
        guard let start = watchStart else {
            if easy.didConnect {
                watchStart = now
                arrivals = [(now, received)]
            }
            return true
        }
        if let last = arrivals.last, received < last.received {
            // A new response counts from zero again.
            arrivals = [(now, received)]
        } else if received != arrivals.last?.received {
            arrivals.append((now, received))
        }
        let windowStart = now - options.stallTimeout
        while arrivals.count > 1, arrivals[1].time <= windowStart { arrivals.removeFirst() }
        guard now - start >= options.stallTimeout else { return true }
        return Double(recentBytes) >= options.stallTimeout * Double(Transfer.minimumBytesPerSecond)
    }

    /// Transfer bytes that came within the last `stallTimeout`, as the stall watch last counted them.
    var recentBytes: Int64 {
        guard let first = arrivals.first, let last = arrivals.last else { return 0 }
        return last.received - first.received
    }

    /// The end of one response's headers: a redirect or interim response to pass by, or the final response.
    private func headersEnded() -> Bool {
        let status = easy.responseCode
        if (100..<200).contains(status) { return true }
        if (300..<400).contains(status), let location {
            let base = easy.effectiveURL.flatMap { URL(string: $0) }
            redirects.append(URL(string: location, relativeTo: base)?.absoluteString ?? location)
            return true
        }
        announceResponse()
        let identity = contentEncoding == nil || contentEncoding == "identity"
        if identity, options.keepsBody, let expected = response?.expectedLength {
            // The whole document would be too large: refuse it before downloading any of it.
            if expected > Int64(options.maxDocumentBytes) {
                exceededSizeLimit = true
                return false
            }
            body.reserveCapacity(Int(expected))
        }
        return true
    }

    /// Whether the transfer is ahead of `throttleBytesPerSecond`; if so, the write callback pauses it and a timer
    /// resumes it when it is due (<https://curl.se/libcurl/c/curl_easy_pause.html>).
    /// CURLOPT_MAX_RECV_SPEED_LARGE does not do for a viewer: libcurl 7.88.1 reads up to 100 buffers per
    /// wake-up before it checks the average, so a page under about 1.6 MB arrives in one burst on a fast
    /// network, and combined with pausing it stalls the end of chunked bodies for a second. `file:` is not paced.
    private func mustWaitForThrottle() -> Bool {
        guard let rate = options.throttleBytesPerSecond, rate > 0, !request.url.isFileURL else { return false }
        let now = MainLoop.monotonicSeconds()
        let start = throttleStart ?? now
        throttleStart = start
        // Transfer bytes, this chunk included: libcurl counts them before it decodes and writes.
        let allowed = Double(rate) * (now - start + 0.05)
        let excess = Double(easy.downloadedBytes) - allowed
        guard excess > 0 else { return false }
        let delay = UInt32(min(max(excess / Double(rate) * 1000, 1), 1000))
        resumeTimer = MainLoopTimer(milliseconds: delay) { [unowned self] in
            resumeTimer = nil
            easy.resume()
            return false
        }
        return true
    }

    private func announceResponse() {
        let status = easy.responseCode
        let finalURL = easy.effectiveURL.flatMap { URL(string: $0) } ?? request.url
        let response = LoadResponse(status: status == 0 ? 200 : status, finalURL: finalURL,
                                    contentType: easy.contentType, expectedLength: easy.contentLength)
        self.response = response
        outbox.append(.response(response))
    }

    private func reportProgress(received: Int64, expected: Int64?) {
        if let last = lastProgress, last.received == received, last.expected == expected { return }
        lastProgress = (received, expected)
        outbox.append(.progress(received: received, expected: expected))
    }
}

// MARK: - The end

extension Transfer {
    /// How a transfer libcurl has finished with `result` ends: a failure, or the page still to be decoded, which
    /// is work that grows with the page and is left to the caller to run off the main loop.
    func complete(result: CURLcode) -> Result<@Sendable () -> LoadedPage, LoadError> {
        guard result == CURLE_OK else { return .failure(failure(result)) }
        noticeMilestones()
        if response == nil { announceResponse() }
        if response?.status == 304 { return .failure(notModifiedFailure()) }
        // An error status with nothing to read is a failure, not a blank page that finishes like a success; with
        // a body, the server's own page is shown, as browsers do. This is the one place that decides it.
        if let status = response?.status, status >= 400, options.keepsBody, body.allSatisfy(Transfer.isBlank) {
            return .failure(errorStatusFailure(status))
        }
        let received = easy.downloadedBytes
        reportProgress(received: received, expected: easy.contentLength ?? lastProgress?.expected)
        let body = body, url = response?.finalURL ?? request.url, status = response?.status ?? 200
        let contentType = response?.contentType
        return .success({ LoadedPage(decoding: body, finalURL: url, status: status, contentType: contentType) })
    }

    /// Space, tab, line feed, form feed, carriage return: the bytes of a body that shows nothing
    /// (<https://infra.spec.whatwg.org/#ascii-whitespace>).
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// What has arrived so far, for progressive display; nil while nothing has.
    func arrived() -> ArrivedBody? {
        guard !body.isEmpty else { return nil }
        return ArrivedBody(bytes: body, contentType: response?.contentType, url: response?.finalURL ?? request.url)
    }

}
