import Foundation
import GtkProgress
import XCTest

/// Every failure a person can act on has its own kind and plain message.
final class LoaderFailureTests: XCTestCase {
    let server = TestServer.shared

    func testRefusedConnection() {
        let port = TestServer.closedPort()
        let run = record(URL(string: "http://127.0.0.1:\(port)/")!)
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.kind, .refused)
        XCTAssertEqual(run.error?.message, "The server at 127.0.0.1 refused the connection on port \(port). "
            + "Nothing is running there, or it does not accept visitors.")
        XCTAssertEqual(run.error?.url, URL(string: "http://127.0.0.1:\(port)/")!)
    }

    func testHostNotFound() {
        let run = record(URL(string: "http://no-such-host.invalid/")!, timeout: 30)
        XCTAssertEqual(run.error?.kind, .hostNotFound)
        XCTAssertEqual(run.error?.message, "The server no-such-host.invalid could not be found. Check the address "
            + "for typing mistakes, and check that this computer is online.")
    }

    func testConnectTimeout() {
        let run = record(server.blackholeURL(), options: LoaderOptions(connectTimeout: 1))
        XCTAssertEqual(run.error?.kind, .timedOut)
        XCTAssertEqual(run.error?.message, "The server at 127.0.0.1 did not accept a connection within 1 second.")
        XCTAssertLessThan(run.times.last ?? 99, 3)
    }

    func testServerThatNeverAnswers() {
        let run = record(server.url("/delay?seconds=4"), options: LoaderOptions(stallTimeout: 1))
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.kind, .timedOut)
        XCTAssertEqual(run.error?.message,
                       "The server at 127.0.0.1 accepted the connection but did not answer within 1 second.")
        XCTAssertLessThan(run.times.last!, 2.5)
    }

    func testStallAfterTheFirstBytes() {
        let run = record(server.url("/stall?after=1000&length=100000"), options: LoaderOptions(stallTimeout: 1))
        XCTAssertEqual(run.shape, "response progress… failed")
        XCTAssertEqual(run.progress.last?.received, 1000)
        XCTAssertEqual(run.error?.kind, .stalled)
        XCTAssertEqual(run.error?.message, "The server at 127.0.0.1 stopped sending for 1 second, after 1,000 of "
            + "100,000 bytes. The page is incomplete.")
        XCTAssertLessThan(run.times.last! - run.times.first!, 2.5, "no bytes for the stall time, not much more")
    }

    func testConnectionDroppedMidBody() {
        let run = record(server.url("/drop?size=100000&after=20000"))
        XCTAssertEqual(run.shape, "response progress… failed")
        XCTAssertEqual(run.error?.kind, .cutOff)
        XCTAssertEqual(run.error?.message, "The connection to 127.0.0.1 was cut off after 20,000 of 100,000 bytes. "
            + "The page is incomplete.")
    }

    func testLyingContentLength() {
        let run = record(server.url("/lying?claim=100000&send=5000"))
        XCTAssertEqual(run.error?.kind, .cutOff, "fewer bytes than Content-Length is not a finished page")
        XCTAssertEqual(run.error?.message, "The connection to 127.0.0.1 was cut off after 5,000 of 100,000 bytes. "
            + "The page is incomplete.")
    }

    func testChunkedStreamClosedBeforeItsEnd() {
        let run = record(server.url("/broken-chunked?after=5000&mode=close"))
        XCTAssertEqual(run.error?.kind, .cutOff)
        XCTAssertEqual(run.error?.message, "The connection to 127.0.0.1 was cut off after 5,000 bytes, before the "
            + "page was complete.")
    }

    /// libcurl does not count the good bytes of a read that ends in a broken chunk; the message must.
    func testChunkedStreamWithGarbage() {
        let run = record(server.url("/broken-chunked?after=587&mode=garbage"))
        XCTAssertEqual(run.error?.kind, .cutOff)
        XCTAssertEqual(run.error?.message, "The page from 127.0.0.1 arrived damaged after 587 bytes: the server "
            + "broke the chunked transfer encoding it was sent in. The page is incomplete.")
    }

    /// libcurl reports a reply with no HTTP status line as a refused protocol (HTTP/0.9), the code a redirect to
    /// file: gets too; no redirect happened, so the message must not speak of one.
    func testAnswerThatIsNotHTTP() {
        let run = record(server.url("/not-http"))
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.kind, .badResponse)
        XCTAssertEqual(run.error?.message, "The server at 127.0.0.1 answered with something that is not HTTP, so "
            + "there is no page to show. Port \(server.port) may belong to another kind of server.")
        let redirected = record(server.url("/redirect-to?url=/not-http"))
        XCTAssertEqual(redirected.error?.kind, .badResponse, "a redirect to http that answers with no HTTP")
    }

    func testHeaderLineTooLong() {
        let run = record(server.url("/huge-header?kb=1024"))
        XCTAssertEqual(run.error?.kind, .badResponse)
        XCTAssertEqual(run.error?.message, "The server at 127.0.0.1 sent a header line longer than 100 KB. No "
            + "working web server sends one, so the page was not loaded.")
    }

    func testTooManyHeaders() {
        let run = record(server.url("/many-headers?kb=400"))
        XCTAssertEqual(run.error?.kind, .badResponse)
        XCTAssertEqual(run.error?.message, "The server at 127.0.0.1 sent more than 300 KB of headers before its "
            + "page. No working web server sends so many, so the page was not loaded.")
    }

    /// A head sent a byte at a time: each completed line used to count as progress, so it never stalled, and
    /// when one line took longer than the stall time the server was said to have sent nothing.
    func testHeadersTrickledSlowly() {
        let run = record(server.url("/trickle?rate=40"), options: LoaderOptions(stallTimeout: 2))
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.kind, .stalled)
        XCTAssertEqual(run.error?.message, "The server at 127.0.0.1 began to answer, but after 2 seconds it still "
            + "had not sent all the headers that come before the page. It is sending too slowly to load the page.")
    }

    func testNotModifiedWithoutAConditionalRequest() {
        let run = record(server.url("/not-modified"))
        XCTAssertEqual(run.error?.kind, .badResponse)
        XCTAssertEqual(run.error?.message, "The server at 127.0.0.1 answered “304 Not Modified”, which means “use "
            + "the copy you already have”, but this viewer keeps no copy of the page to show. Reload may help.")
    }

    func testUntrustedCertificate() throws {
        try XCTSkipIf(server.tlsPort == 0, "openssl was not available to make a certificate")
        let run = record(server.tlsURL("/page"))
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.kind, .tls)
        let message = run.error?.message ?? ""
        XCTAssertTrue(message.hasPrefix("A secure connection to 127.0.0.1 could not be made: its certificate could "
            + "not be verified, so this may not be the real 127.0.0.1"), message)
    }

    func testTLSHandshakeWithAPlainServer() {
        let run = record(URL(string: "https://127.0.0.1:\(server.port)/page")!)
        XCTAssertEqual(run.error?.kind, .tls)
        XCTAssertTrue(run.error?.message.hasPrefix("A secure connection to 127.0.0.1 could not be made: the secure "
            + "handshake failed") ?? false, "\(String(describing: run.error))")
    }

    func testTooManyRedirects() {
        let run = record(server.url("/redirect?n=21"))
        XCTAssertEqual(run.shape, "failed", "redirect responses are not reported")
        XCTAssertEqual(run.error?.kind, .tooManyRedirects)
        XCTAssertEqual(run.error?.message, "The server at 127.0.0.1 redirected too many times (20).")
    }

    func testRedirectLoop() {
        server.resetCounts()
        let run = record(server.url("/loop"))
        XCTAssertEqual(run.error?.kind, .tooManyRedirects)
        XCTAssertEqual(run.error?.message, "The server at 127.0.0.1 redirected in a loop: the same addresses came "
            + "back again and again until the limit of 20 redirects.")
        XCTAssertEqual(server.requestCount(for: "/loop"), 21)
    }

    func testRedirectToAFileIsRefused() {
        let run = record(server.url("/redirect-file"))
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.kind, .forbiddenRedirect)
        XCTAssertEqual(run.error?.message, "The server at 127.0.0.1 tried to send you to file:///etc/passwd, "
            + "which is not a web address. Only redirects to http and https addresses are followed.")
    }

    func testRedirectToOtherSchemesIsRefused() {
        let target = "ftp://127.0.0.1/x".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let run = record(server.url("/redirect-to?url=\(target)"))
        XCTAssertEqual(run.error?.kind, .forbiddenRedirect)
    }

    func testMissingFile() {
        let run = record(URL(fileURLWithPath: "/no/such/file.html"))
        XCTAssertEqual(run.error?.kind, .fileNotFound)
        XCTAssertEqual(run.error?.message, "There is no file at /no/such/file.html.")
        let folder = record(URL(fileURLWithPath: "/tmp", isDirectory: true))
        XCTAssertEqual(folder.error?.message, "/tmp is a folder, not a file.")
    }

    func testUnsupportedSchemes() {
        let user = record(URL(string: "ftp://127.0.0.1/file")!)
        XCTAssertEqual(user.error?.kind, .unsupportedScheme)
        XCTAssertEqual(user.error?.message, "Cannot open ftp: addresses; only http, https and local files are supported.")
    }
}
