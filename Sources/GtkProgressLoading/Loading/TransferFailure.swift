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

    /// A 304 Not Modified answers a conditional request ("send it only if it changed"), which this loader never
    /// makes: it keeps no copies. <https://www.rfc-editor.org/rfc/rfc9110#name-304-not-modified>
    func notModifiedFailure() -> LoadError {
        let host = LoadPolicy.hostDescription(response?.finalURL ?? request.url)
        return LoadError(kind: .badResponse, url: request.url,
                         message: "The server at \(host) answered “304 Not Modified”, which means “use the copy you "
                             + "already have”, but this viewer keeps no copy of the page to show. Reload may help.")
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
            return (.tooLarge, "The document from \(host) is larger than \(ByteCount.size(Int64(options.maxDocumentBytes))), "
                + "the most this viewer loads, so it was not loaded.")
        }
        if stalled { return timeout() }
        switch code {
        case Int(CURLE_COULDNT_RESOLVE_HOST.rawValue):
            return (.hostNotFound, "The server \(host) could not be found. Check the address for typing mistakes, "
                + "and check that this computer is online.")
        case Int(CURLE_COULDNT_CONNECT.rawValue):
            return connectFailure()
        case Int(CURLE_OPERATION_TIMEDOUT.rawValue):
            return timeout()
        case Int(CURLE_PARTIAL_FILE.rawValue), Int(CURLE_RECV_ERROR.rawValue), Int(CURLE_SEND_ERROR.rawValue):
            // libcurl 7.88.1 caps a response's headers at 300 KB in all ("Too large response headers: …").
            if detail.hasPrefix("Too large response headers") {
                return (.badResponse, "The server at \(host) sent more than 300 KB of headers before its page. No "
                    + "working web server sends so many, so the page was not loaded.")
            }
            guard didRespond else {
                return (.other, "The connection to \(host) broke before the server answered. Try again.")
            }
            // libcurl's chunked decoder says "Illegal or missing hexadecimal sequence in chunked-encoding" and
            // the like (lib/http_chunks.c).
            if detail.contains("chunked-encoding") { return (.cutOff, brokenChunksMessage()) }
            return (.cutOff, cutOffMessage())
        case Int(CURLE_GOT_NOTHING.rawValue):
            return (.other, "The server at \(host) closed the connection without sending anything.")
        case Int(CURLE_WEIRD_SERVER_REPLY.rawValue):
            return (.badResponse, notHTTPMessage())
        case Int(CURLE_BAD_CONTENT_ENCODING.rawValue):
            return (.cutOff, "The page from \(host) arrived damaged: its compressed data could not be unpacked.")
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
            return (.forbiddenRedirect, "The server at \(redirectingHost) tried to send you to \(target), "
                + "which is not a web address. Only redirects to http and https addresses are followed.")
        case Int(CURLE_FILE_COULDNT_READ_FILE.rawValue):
            return (.fileNotFound, "The file \(url.path) could not be read.")
        case Int(CURLE_URL_MALFORMAT.rawValue):
            return (.other, "The address \(url.absoluteString) is not a valid web address.")
        case Int(CURLE_OUT_OF_MEMORY.rawValue) where !didRespond:
            // libcurl 7.88.1 keeps one header line in a buffer of at most CURL_MAX_HTTP_HEADER (100 KB) and
            // reports a longer one as out of memory.
            return (.badResponse, "The server at \(host) sent a header line longer than 100 KB. No working web "
                + "server sends one, so the page was not loaded.")
        case Int(CURLE_WRITE_ERROR.rawValue), Int(CURLE_OUT_OF_MEMORY.rawValue):
            return (.other, "The document from \(host) could not be kept in memory.")
        default:
            if TransferFacts.tlsCodes.contains(code) { return (.tls, tlsMessage()) }
            return (.other, "Loading \(url.absoluteString) failed: \(summary)\(detailSuffix).")
        }
    }

    private func connectFailure() -> (LoadError.Kind, String) {
        switch osErrno {
        case ECONNREFUSED:
            return (.refused, "The server at \(host) refused the connection on port \(port). "
                + "Nothing is running there, or it does not accept visitors.")
        case ETIMEDOUT:
            return (.timedOut, "The server at \(host) did not accept a connection within "
                + "\(ByteCount.seconds(options.connectTimeout)).")
        default:
            return (.unreachable, "The server at \(host) cannot be reached from this computer: "
                + "there is no network route to it. Check that this computer is online.")
        }
    }

    private func timeout() -> (LoadError.Kind, String) {
        let stall = ByteCount.seconds(options.stallTimeout)
        if didRespond {
            let progress = received.map { received in
                expected.map { "\(ByteCount.grouped(received)) of \(ByteCount.grouped($0)) bytes" }
                    ?? "\(ByteCount.grouped(received)) bytes"
            }
            return (.stalled, "The server at \(host) stopped sending for \(stall)\(progress.map { ", after \($0)" } ?? ""). "
                + "The page is incomplete.")
        }
        if sawHeaderLine {
            return (.stalled, "The server at \(host) began to answer, but after \(stall) it still had not sent all "
                + "the headers that come before the page. It is sending too slowly to load the page.")
        }
        if didConnect {
            return (.timedOut, "The server at \(host) accepted the connection but did not answer within \(stall).")
        }
        return (.timedOut, "The server at \(host) did not accept a connection within "
            + "\(ByteCount.seconds(options.connectTimeout)).")
    }

    private func cutOffMessage() -> String {
        guard let received else {
            return "The connection to \(host) was cut off before the page was complete."
        }
        if let expected, expected > received {
            return "The connection to \(host) was cut off after \(ByteCount.grouped(received)) of "
                + "\(ByteCount.grouped(expected)) bytes. The page is incomplete."
        }
        return "The connection to \(host) was cut off after \(ByteCount.grouped(received)) bytes, "
            + "before the page was complete."
    }

    private func brokenChunksMessage() -> String {
        let after = received.map { " after \(ByteCount.grouped($0)) bytes" } ?? ""
        return "The page from \(host) arrived damaged\(after): the server broke the chunked transfer encoding "
            + "it was sent in. The page is incomplete."
    }

    private func notHTTPMessage() -> String {
        "The server at \(host) answered with something that is not HTTP, so there is no page to show. Port "
            + "\(port) may belong to another kind of server."
    }

    private func redirectsMessage() -> String {
        if Set(redirects).count < redirects.count {
            return "The server at \(redirectingHost) redirected in a loop: the same addresses came back again and "
                + "again until the limit of \(options.maxRedirects) redirects."
        }
        return "The server at \(redirectingHost) redirected too many times (\(options.maxRedirects))."
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
            reason = "its certificate could not be verified, so this may not be the real \(host)"
        case Int(CURLE_SSL_CACERT_BADFILE.rawValue):
            reason = "this computer's list of trusted certificates could not be read"
        default:
            reason = "the secure handshake failed"
        }
        return "A secure connection to \(host) could not be made: \(reason)\(detailSuffix)."
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
