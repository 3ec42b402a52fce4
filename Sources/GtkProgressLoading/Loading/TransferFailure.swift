internal import CCurl
import FoundationEssentials
import GtkProgressCore
import Glibc

/// Turns libcurl's result codes into messages a person can act on
/// (<https://curl.se/libcurl/c/libcurl-errors.html>). The peers measured on this machine wait forever on a
/// closed port, show a blank page, or show a cut-off body as finished; each of those is a distinct error here.
extension Transfer {
    func failure(_ result: CURLcode) -> LoadError {
        let facts = TransferFacts(
            url: request.url,
            currentURL: easy.effectiveURL.flatMap { URL(string: $0) } ?? request.url,
            code: Int(result.rawValue),
            osErrno: Int32(easy.osErrno),
            didConnect: easy.didConnect,
            didRespond: response != nil,
            sawHeaderLine: sawHeaderLine,
            received: response != nil ? receivedBytes : 0,
            expected: response?.expectedLength,
            redirects: redirects,
            exceededSizeLimit: exceededSizeLimit,
            stalled: stalled,
            recentBytes: recentBytes,
            overDeadline: overDeadline,
            contentEncoding: contentEncoding,
            detail: easy.errorDetail,
            summary: String(cString: ccurl_easy_strerror(result)),
            options: options)
        return facts.error()
    }

    /// Transfer bytes of the final response. libcurl does not count the bytes of a read that failed part way, so
    /// for a body sent as it is (not compressed) the bytes handed over count too; for a compressed one the
    /// decoded bytes are not transfer bytes, and nil says the count is unknown.
    private var receivedBytes: Int64? {
        let counted = easy.downloadedBytes
        guard counted < bodyBytesWritten else { return counted }
        return contentEncoding == nil || contentEncoding == "identity" ? bodyBytesWritten : (counted > 0 ? counted : nil)
    }

    /// libcurl refused an option. Only CURLOPT_URL carries what the loader was given; `LoadPolicy` refuses
    /// addresses longer than `AddressShape.longestAddress` before they get here, so this is what is left: an address
    /// libcurl will not take for another reason, or no memory to copy it.
    func setupFailure(_ option: CURLoption, _ code: CURLcode) -> LoadError {
        let reason = String(cString: ccurl_easy_strerror(code))
        if option == CURLOPT_URL {
            return LoadError(kind: .other, url: request.url,
                             message: L("This address could not be loaded: libcurl did not accept it (%@).", reason))
        }
        return LoadError(kind: .other, url: request.url,
                         message: L("This address could not be loaded: libcurl did not accept option %ld (%@).",
                                    Int(option.rawValue), reason))
    }

    /// An error status (4xx, 5xx) with no page to read: the status is all there is to show, and the load failed.
    /// <https://www.rfc-editor.org/rfc/rfc9110#name-status-codes>
    func errorStatusFailure(_ status: Int) -> LoadError {
        let host = LoadPolicy.hostDescription(response?.finalURL ?? request.url)
        return LoadError(kind: .errorStatus, url: request.url,
                         message: L("The server at %@ answered %ld %@, with no page to show.", host, status,
                                    HTTPStatus.reason(status)))
    }

    /// A 304 Not Modified answers a conditional request ("send it only if it changed"), which this loader never
    /// makes: it keeps no copies. <https://www.rfc-editor.org/rfc/rfc9110#name-304-not-modified>
    func notModifiedFailure() -> LoadError {
        let host = LoadPolicy.hostDescription(response?.finalURL ?? request.url)
        return LoadError(kind: .badResponse, url: request.url,
                         message: L("The server at %@ answered “304 Not Modified”, which means “use the copy you "
                             + "already have”, but this viewer keeps no copy of the page to show. Reload may help.", host))
    }
}

/// Everything known about a failed transfer, so the message can be chosen (and tested) without libcurl.
struct TransferFacts {
    var url: URL
    /// The last URL asked for (after redirects).
    var currentURL: URL
    /// libcurl's CURLcode.
    var code: Int
    var osErrno: Int32
    var didConnect: Bool
    /// Whether the final response's headers arrived.
    var didRespond: Bool
    /// Whether any line of a response head (status line or header) arrived.
    var sawHeaderLine = false
    /// Transfer bytes of the final response; nil when they could not be counted.
    var received: Int64?
    var expected: Int64?
    var redirects: [String]
    var exceededSizeLimit: Bool
    /// Whether the loader stopped the transfer for making no progress.
    var stalled: Bool = false
    /// Transfer bytes that came within the last `options.stallTimeout` before the failure.
    var recentBytes: Int64 = 0
    /// Whether the loader stopped the transfer for passing `options.deadline`.
    var overDeadline = false
    /// The final response's Content-Encoding, lowercased; nil when it had none.
    var contentEncoding: String?
    /// libcurl's error buffer ("SSL certificate problem: self-signed certificate").
    var detail: String
    /// curl_easy_strerror for the code.
    var summary: String
    var options: LoaderOptions

    func error() -> LoadError {
        let (kind, message) = describe()
        return LoadError(kind: kind, url: url, message: message)
    }

    private var host: String { LoadPolicy.hostDescription(currentURL) }

    private var port: Int {
        currentURL.port ?? (currentURL.scheme?.lowercased() == "https" ? 443 : 80)
    }

    private func describe() -> (LoadError.Kind, String) {
        if exceededSizeLimit {
            return (.tooLarge, L("The document from %@ is larger than %@, the most this viewer loads, so it was not loaded.",
                                 host, ByteCount.size(Int64(options.maxDocumentBytes))))
        }
        if overDeadline { return deadlineMessage() }
        if stalled { return timeout() }
        switch code {
        case Int(CURLE_COULDNT_RESOLVE_HOST.rawValue) where Self.outOfDescriptors(osErrno):
            // The resolver thread needs a socket pair too.
            return (.outOfDescriptors, PageLoader.noConnectionMessage())
        case Int(CURLE_COULDNT_RESOLVE_HOST.rawValue):
            return (.hostNotFound, L("The server %@ could not be found. Check the address for typing mistakes, "
                + "and check that this computer is online.", host))
        case Int(CURLE_COULDNT_CONNECT.rawValue):
            return connectFailure()
        case Int(CURLE_OPERATION_TIMEDOUT.rawValue):
            return timeout()
        case Int(CURLE_PARTIAL_FILE.rawValue), Int(CURLE_RECV_ERROR.rawValue), Int(CURLE_SEND_ERROR.rawValue):
            // libcurl 7.88.1 caps a response's headers at 300 KB in all ("Too large response headers: …").
            if detail.hasPrefix("Too large response headers") {
                return (.badResponse, L("The server at %@ sent more than 300 KB of headers before its page. No "
                    + "working web server sends so many, so the page was not loaded.", host))
            }
            guard didRespond else {
                return (.other, L("The connection to %@ broke before the server answered. Try again.", host))
            }
            // libcurl's chunked decoder says "Illegal or missing hexadecimal sequence in chunked-encoding" and
            // the like (lib/http_chunks.c).
            if detail.contains("chunked-encoding") { return (.cutOff, brokenChunksMessage()) }
            return (.cutOff, cutOffMessage())
        case Int(CURLE_GOT_NOTHING.rawValue):
            return (.other, L("The server at %@ closed the connection without sending anything.", host))
        case Int(CURLE_WEIRD_SERVER_REPLY.rawValue):
            return (.badResponse, notHTTPMessage())
        case Int(CURLE_BAD_CONTENT_ENCODING.rawValue):
            return (.cutOff, L("The page from %@ arrived damaged: its compressed data could not be unpacked.", host))
        case Int(CURLE_TOO_MANY_REDIRECTS.rawValue):
            return (.tooManyRedirects, redirectsMessage())
        case Int(CURLE_UNSUPPORTED_PROTOCOL.rawValue):
            // `LoadPolicy` refuses unsupported schemes before libcurl sees them, so either a redirect asked for
            // one, or the answer was no HTTP at all: libcurl takes a reply without an HTTP status line for
            // HTTP/0.9, which it refuses with this same code ("Received HTTP/0.9 when not allowed",
            // <https://curl.se/libcurl/c/CURLOPT_HTTP09_ALLOWED.html>).
            guard let target = redirects.last, let scheme = URL(string: target)?.scheme?.lowercased(),
                  !NavigationPolicy.redirectSchemes.contains(scheme) else {
                return (.badResponse, notHTTPMessage())
            }
            return (.forbiddenRedirect, L("The server at %@ tried to send you to %@, which is not a web address. "
                + "Only redirects to http and https addresses are followed.", redirectingHost, target))
        case Int(CURLE_FILE_COULDNT_READ_FILE.rawValue):
            return (.fileNotFound, L("The file %@ could not be read.", url.path))
        case Int(CURLE_URL_MALFORMAT.rawValue):
            return (.other, L("The address %@ is not a valid web address.", url.absoluteString))
        case Int(CURLE_OUT_OF_MEMORY.rawValue) where !didRespond:
            // libcurl 7.88.1 keeps one header line in a buffer of at most CURL_MAX_HTTP_HEADER (100 KB) and
            // reports a longer one as out of memory.
            return (.badResponse, L("The server at %@ sent a header line longer than 100 KB. No working web "
                + "server sends one, so the page was not loaded.", host))
        case Int(CURLE_WRITE_ERROR.rawValue) where isCompressed:
            // The write callback refuses only what passes the size cap, which is reported above; this error is
            // libcurl's decoder (lib/content_encoding.c), which ends a gzip or deflate stream at its end and fails
            // on any byte after it. RFC 1952 (section 2.2) lets a gzip file hold several members one after
            // another; libcurl 7.88 decodes the first and refuses the rest.
            return (.badResponse, L("The page from %@ could not be unpacked: more compressed data followed the end "
                + "of its %@ data (a second gzip member, or bytes that do not belong), and this viewer decodes only "
                + "the first part. The page is incomplete.", host, contentEncoding ?? "gzip"))
        case Int(CURLE_WRITE_ERROR.rawValue), Int(CURLE_OUT_OF_MEMORY.rawValue):
            return (.other, L("The document from %@ could not be kept in memory.", host))
        default:
            if TransferFacts.tlsCodes.contains(code) { return (.tls, tlsMessage()) }
            return (.other, L("Loading %@ failed: %@.", url.absoluteString, summary + detailSuffix))
        }
    }

    private func connectFailure() -> (LoadError.Kind, String) {
        if Self.outOfDescriptors(osErrno) { return (.outOfDescriptors, PageLoader.noConnectionMessage()) }
        switch osErrno {
        case ECONNREFUSED:
            return (.refused, L("The server at %@ refused the connection on port %ld. "
                + "Nothing is running there, or it does not accept visitors.", host, port))
        case ETIMEDOUT:
            return (.timedOut, L("The server at %@ did not accept a connection within %@.", host,
                                 ByteCount.seconds(options.connectTimeout)))
        default:
            return (.unreachable, L("The server at %@ cannot be reached from this computer: "
                + "there is no network route to it. Check that this computer is online.", host))
        }
    }

    /// Whether a failure to connect or resolve came from the process's limit of open files: libcurl's errno says
    /// so, or, as it does not always (the resolver's socket pair), opening one more descriptor fails now.
    static func outOfDescriptors(_ osErrno: Int32) -> Bool {
        if osErrno == EMFILE || osErrno == ENFILE { return true }
        let probe = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard probe < 0 else { close(probe); return false }
        return errno == EMFILE || errno == ENFILE
    }

    /// Whether the final response came compressed (decoded by libcurl).
    private var isCompressed: Bool {
        guard let contentEncoding else { return false }
        return !contentEncoding.isEmpty && contentEncoding != "identity"
    }

    private func deadlineMessage() -> (LoadError.Kind, String) {
        let limit = ByteCount.seconds(options.deadline)
        guard didRespond else {
            return (.tooSlow, L("The server at %@ had still not sent the page after %@, the longest a page may take "
                + "to load.", host, limit))
        }
        guard let received else {
            return (.tooSlow, L("The page from %@ was still arriving after %@, the longest a page may take to load. "
                + "The page is incomplete.", host, limit))
        }
        if let expected, expected > received {
            return (.tooSlow, L("The page from %@ was still arriving after %@, the longest a page may take to load: "
                + "only %@ of %@ came in that time. The page is incomplete.", host, limit,
                                ByteCount.size(received), ByteCount.size(expected)))
        }
        return (.tooSlow, L("The page from %@ was still arriving after %@, the longest a page may take to load: "
            + "only %@ came in that time. The page is incomplete.", host, limit, ByteCount.size(received)))
    }

    private func timeout() -> (LoadError.Kind, String) {
        let stall = ByteCount.seconds(options.stallTimeout)
        if didRespond, recentBytes > 0 {
            return (.stalled, trickleMessage(stall))
        }
        if didRespond {
            guard let received else {
                return (.stalled, L("The server at %@ stopped sending for %@. The page is incomplete.", host, stall))
            }
            guard let expected else {
                return (.stalled, L("The server at %@ stopped sending for %@, after %@ bytes. The page is incomplete.",
                                    host, stall, ByteCount.grouped(received)))
            }
            return (.stalled, L("The server at %@ stopped sending for %@, after %@ of %@ bytes. The page is incomplete.",
                                host, stall, ByteCount.grouped(received), ByteCount.grouped(expected)))
        }
        if sawHeaderLine {
            return (.stalled, L("The server at %@ began to answer, but after %@ it still had not sent all "
                + "the headers that come before the page. It is sending too slowly to load the page.", host, stall))
        }
        if didConnect {
            return (.timedOut, L("The server at %@ accepted the connection but did not answer within %@.", host, stall))
        }
        return (.timedOut, L("The server at %@ did not accept a connection within %@.", host,
                             ByteCount.seconds(options.connectTimeout)))
    }

    /// Bytes came within the stall time, but fewer than one a second: the server is trickling, not stopped.
    private func trickleMessage(_ stall: String) -> String {
        let recent = ByteCount.size(recentBytes)
        guard let received else {
            return L("The server at %@ sent only %@ in the last %@, too slowly to load the page. The page is "
                + "incomplete.", host, recent, stall)
        }
        guard let expected else {
            return LN("The server at %@ sent only %@ in the last %@ (%@ byte so far), too slowly to load the page. "
                + "The page is incomplete.", "The server at %@ sent only %@ in the last %@ (%@ bytes so far), too "
                + "slowly to load the page. The page is incomplete.", Int(clamping: received), host, recent, stall,
                      ByteCount.grouped(received))
        }
        return L("The server at %@ sent only %@ in the last %@ (%@ of %@ bytes so far), too slowly to load the "
            + "page. The page is incomplete.", host, recent, stall, ByteCount.grouped(received),
                 ByteCount.grouped(expected))
    }

    private func cutOffMessage() -> String {
        guard let received else {
            return L("The connection to %@ was cut off before the page was complete.", host)
        }
        if let expected, expected > received {
            return L("The connection to %@ was cut off after %@ of %@ bytes. The page is incomplete.", host,
                     ByteCount.grouped(received), ByteCount.grouped(expected))
        }
        return L("The connection to %@ was cut off after %@ bytes, before the page was complete.", host,
                 ByteCount.grouped(received))
    }

    private func brokenChunksMessage() -> String {
        guard let received else {
            return L("The page from %@ arrived damaged: the server broke the chunked transfer encoding "
                + "it was sent in. The page is incomplete.", host)
        }
        return L("The page from %@ arrived damaged after %@ bytes: the server broke the chunked transfer encoding "
            + "it was sent in. The page is incomplete.", host, ByteCount.grouped(received))
    }

    private func notHTTPMessage() -> String {
        L("The server at %@ answered with something that is not HTTP, so there is no page to show. Port "
            + "%ld may belong to another kind of server.", host, port)
    }

    private func redirectsMessage() -> String {
        if Set(redirects).count < redirects.count {
            return LN("The server at %@ redirected in a loop: the same addresses came back again and "
                + "again until the limit of %ld redirect.", "The server at %@ redirected in a loop: the same "
                + "addresses came back again and again until the limit of %ld redirects.", Int(options.maxRedirects),
                      redirectingHost, Int(options.maxRedirects))
        }
        return L("The server at %@ redirected too many times (%ld).", redirectingHost, Int(options.maxRedirects))
    }

    /// The server that sent the last redirect: the host of the address before the last target.
    private var redirectingHost: String {
        let sources = [url.absoluteString] + redirects.dropLast()
        return sources.last.flatMap { URL(string: $0) }.map(LoadPolicy.hostDescription) ?? host
    }

    private func tlsMessage() -> String {
        let reason: String
        switch code {
        case Int(CURLE_PEER_FAILED_VERIFICATION.rawValue):
            reason = L("its certificate could not be verified, so this may not be the real %@", host)
        case Int(CURLE_SSL_CACERT_BADFILE.rawValue):
            reason = L("this computer's list of trusted certificates could not be read")
        default:
            reason = L("the secure handshake failed")
        }
        return L("A secure connection to %@ could not be made: %@.", host, reason + detailSuffix)
    }

    private var detailSuffix: String {
        let trimmed = detail.trimmingASCIIWhitespace()
        return trimmed.isEmpty ? "" : " (\(trimmed))"
    }

    private static let tlsCodes: Set<Int> = [
        CURLE_SSL_CONNECT_ERROR, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CERTPROBLEM,
        CURLE_SSL_CIPHER, CURLE_PEER_FAILED_VERIFICATION, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_INITFAILED,
        CURLE_SSL_CACERT_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
        CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT,
    ].reduce(into: []) { $0.insert(Int($1.rawValue)) }
}
