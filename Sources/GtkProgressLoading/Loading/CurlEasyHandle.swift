import FoundationEssentials
import GtkProgressCore
internal import CCurl

/// What a transfer reports while libcurl runs it. Each C callback forwards here at once.
protocol CurlEasyHandleDelegate: AnyObject {
    /// One header line, CRLF included, for every response on the way (redirects and 1xx too).
    /// Returning false aborts the transfer (CURLE_WRITE_ERROR).
    func easyHandle(_ handle: CurlEasyHandle, didReceiveHeaderLine line: UnsafeRawBufferPointer) -> Bool
    /// Body bytes after content decoding: keep them, refuse them (the transfer fails with CURLE_WRITE_ERROR), or
    /// pause (libcurl keeps them and hands them over again after `resume()`).
    func easyHandle(_ handle: CurlEasyHandle, didReceive data: UnsafeRawBufferPointer) -> CurlWriteAnswer
    /// Transfer bytes so far and expected (0 when unknown), as libcurl counts them: before decoding. Called at
    /// least once a second while the transfer is stuck. Returning false aborts it (CURLE_ABORTED_BY_CALLBACK).
    func easyHandle(_ handle: CurlEasyHandle, didProgress received: Int64, of expected: Int64) -> Bool
}

enum CurlWriteAnswer {
    case keep, refuse, pause
}

/// One libcurl easy handle: a single transfer's options and state. `deinit` is the one place it is freed, so
/// it must have been removed from its multi handle first (`CurlMultiHandle` keeps it alive until then).
/// <https://curl.se/libcurl/c/curl_easy_init.html>
final class CurlEasyHandle {
    /// The `CURL *`.
    let rawHandle: UnsafeMutableRawPointer
    weak var delegate: CurlEasyHandleDelegate?
    /// libcurl writes its own explanation of a failure here. <https://curl.se/libcurl/c/CURLOPT_ERRORBUFFER.html>
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The first option libcurl refused, and why; the transfer must not start then.
    private(set) var refusedOption: (option: CURLoption, code: CURLcode)?

    init() {
        guard let handle = ccurl_easy_init() else { fatalError("curl_easy_init failed: out of memory") }
        rawHandle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        let me = Unmanaged.passUnretained(self).toOpaque()
        setPointer(CURLOPT_ERRORBUFFER, errorBuffer)
        check(ccurl_easy_setopt_write(rawHandle, writeCallback), CURLOPT_WRITEFUNCTION)
        setPointer(CURLOPT_WRITEDATA, me)
        check(ccurl_easy_setopt_header(rawHandle, headerCallback), CURLOPT_HEADERFUNCTION)
        setPointer(CURLOPT_HEADERDATA, me)
        check(ccurl_easy_setopt_xferinfo(rawHandle, progressCallback), CURLOPT_XFERINFOFUNCTION)
        setPointer(CURLOPT_XFERINFODATA, me)
        set(CURLOPT_NOPROGRESS, false)
    }

    deinit {
        ccurl_easy_cleanup(rawHandle)
        errorBuffer.deallocate()
    }
}

// MARK: - Options

extension CurlEasyHandle {
    /// libcurl's policy for every web load, the page's and its images' alike
    /// (<https://curl.se/libcurl/c/curl_easy_setopt.html>): only web addresses (files are read by `FileRead`),
    /// every redirect hop checked against the navigation policy's list
    /// (<https://curl.se/libcurl/c/CURLOPT_REDIR_PROTOCOLS_STR.html>) and counted (libcurl 7.88.1 follows redirects
    /// without limit unless told), every encoding this libcurl decodes offered and decoded (""), TLS verified, a
    /// connect timeout. Threads and signals are not this process's business: DNS runs in libcurl's own resolver
    /// thread.
    func applyWebPolicy(to url: URL, options: LoaderOptions) {
        set(CURLOPT_URL, url.absoluteString)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_REDIR_PROTOCOLS_STR, NavigationPolicy.redirectSchemes.joined(separator: ","))
        set(CURLOPT_FOLLOWLOCATION, true)
        set(CURLOPT_MAXREDIRS, options.maxRedirects)
        set(CURLOPT_ACCEPT_ENCODING, "")
        set(CURLOPT_SSL_VERIFYPEER, true)
        set(CURLOPT_SSL_VERIFYHOST, 2)
        set(CURLOPT_CONNECTTIMEOUT_MS, Int(options.connectTimeout * 1000))
        set(CURLOPT_NOSIGNAL, true)
        set(CURLOPT_USERAGENT, "GtkProgress/1.0")
    }
}

extension CurlEasyHandle {
    func set(_ option: CURLoption, _ value: Int) {
        check(ccurl_easy_setopt_long(rawHandle, option, value), option)
    }

    func set(_ option: CURLoption, _ value: Bool) {
        set(option, value ? 1 : 0)
    }

    func set(_ option: CURLoption, _ value: Int64) {
        check(ccurl_easy_setopt_off(rawHandle, option, curl_off_t(value)), option)
    }

    /// libcurl copies string options, so the Swift string need not outlive the call.
    func set(_ option: CURLoption, _ value: String) {
        check(ccurl_easy_setopt_string(rawHandle, option, value), option)
    }

    private func setPointer(_ option: CURLoption, _ value: UnsafeMutableRawPointer) {
        check(ccurl_easy_setopt_pointer(rawHandle, option, value), option)
    }

    private func setPointer(_ option: CURLoption, _ value: UnsafeMutablePointer<CChar>) {
        setPointer(option, UnsafeMutableRawPointer(value))
    }

    /// Not every option comes from constants: CURLOPT_URL carries what a page linked to, and libcurl refuses
    /// strings of 8,000,000 bytes and more with CURLE_BAD_FUNCTION_ARGUMENT since 7.65.0
    /// (<https://curl.se/libcurl/c/curl_easy_setopt.html>); out of memory is possible for any string. The first
    /// refusal is kept for the owner to report.
    private func check(_ code: CURLcode, _ option: CURLoption) {
        if code != CURLE_OK, refusedOption == nil { refusedOption = (option, code) }
    }
}

// MARK: - Pausing

extension CurlEasyHandle {
    /// Continues a transfer a write callback paused; libcurl first hands over the data it kept. Must not be
    /// called from inside a libcurl callback. <https://curl.se/libcurl/c/curl_easy_pause.html>
    func resume() {
        ccurl_easy_unpause(rawHandle)
    }
}

// MARK: - Information

/// <https://curl.se/libcurl/c/curl_easy_getinfo.html>
extension CurlEasyHandle {
    var responseCode: Int { long(CURLINFO_RESPONSE_CODE) }

    /// The URL of the request answered last: after redirects, the final one.
    var effectiveURL: String? { string(CURLINFO_EFFECTIVE_URL) }

    var contentType: String? { string(CURLINFO_CONTENT_TYPE) }

    /// Content-Length of the current response in transfer bytes; nil when unknown.
    var contentLength: Int64? {
        let value = offset(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T)
        return value >= 0 ? value : nil
    }

    /// Transfer bytes of the current response received so far.
    var downloadedBytes: Int64 { max(0, offset(CURLINFO_SIZE_DOWNLOAD_T)) }

    /// Whether the connection is up and the request on its way (libcurl reports 0 until then; a reused
    /// connection has no connect time of its own, but a pre-transfer time).
    var didConnect: Bool { offset(CURLINFO_CONNECT_TIME_T) > 0 || offset(CURLINFO_PRETRANSFER_TIME_T) > 0 }

    /// Microseconds from the start until each phase of the transfer was done; 0 while it is not (and for TLS
    /// over plain http, always). <https://curl.se/libcurl/c/curl_easy_getinfo.html#TIMES>
    var nameLookupTime: Int64 { max(0, offset(CURLINFO_NAMELOOKUP_TIME_T)) }
    var connectTime: Int64 { max(0, offset(CURLINFO_CONNECT_TIME_T)) }
    var tlsHandshakeTime: Int64 { max(0, offset(CURLINFO_APPCONNECT_TIME_T)) }
    /// Until the request was about to be sent: set on a reused connection, which has no connect time of its own.
    var preTransferTime: Int64 { max(0, offset(CURLINFO_PRETRANSFER_TIME_T)) }
    var firstByteTime: Int64 { max(0, offset(CURLINFO_STARTTRANSFER_TIME_T)) }

    /// The errno of the last failed system call, e.g. ECONNREFUSED.
    var osErrno: Int { long(CURLINFO_OS_ERRNO) }

    /// libcurl's own explanation of the last failure ("SSL certificate problem: self-signed certificate").
    var errorDetail: String { String(cString: errorBuffer) }

    private func long(_ info: CURLINFO) -> Int {
        var value = 0
        return ccurl_easy_getinfo_long(rawHandle, info, &value) == CURLE_OK ? value : 0
    }

    private func offset(_ info: CURLINFO) -> Int64 {
        var value: curl_off_t = -1
        return ccurl_easy_getinfo_off(rawHandle, info, &value) == CURLE_OK ? Int64(value) : -1
    }

    private func string(_ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>? = nil
        guard ccurl_easy_getinfo_string(rawHandle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}

// MARK: - Callbacks

/// Forwards body bytes to the delegate. Returning anything but the byte count or CURL_WRITEFUNC_PAUSE makes
/// libcurl fail the transfer with CURLE_WRITE_ERROR. <https://curl.se/libcurl/c/CURLOPT_WRITEFUNCTION.html>
private let writeCallback: curl_write_callback = { data, size, count, userData in
    let handle = Unmanaged<CurlEasyHandle>.fromOpaque(userData!).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    switch handle.delegate?.easyHandle(handle, didReceive: bytes) ?? .refuse {
    case .keep: return size * count
    case .refuse: return 0
    case .pause: return Int(CURL_WRITEFUNC_PAUSE)
    }
}

/// <https://curl.se/libcurl/c/CURLOPT_HEADERFUNCTION.html>
private let headerCallback: curl_write_callback = { data, size, count, userData in
    let handle = Unmanaged<CurlEasyHandle>.fromOpaque(userData!).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    return handle.delegate?.easyHandle(handle, didReceiveHeaderLine: bytes) ?? false ? size * count : 0
}

/// <https://curl.se/libcurl/c/CURLOPT_XFERINFOFUNCTION.html>
private let progressCallback: curl_xferinfo_callback = { userData, downloadTotal, downloadNow, _, _ in
    let handle = Unmanaged<CurlEasyHandle>.fromOpaque(userData!).takeUnretainedValue()
    let proceed = handle.delegate?.easyHandle(handle, didProgress: Int64(downloadNow), of: Int64(downloadTotal))
    return proceed ?? false ? 0 : 1
}
