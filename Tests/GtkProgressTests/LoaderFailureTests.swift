import Foundation
import GtkProgress
import XCTest

/// Checks a failure by the facts its message states (host, port, status, byte counts, limits), each of which must
/// appear in it. Its kind is checked beside it: the kind is what the window acts on, the facts are what a person
/// reads. The sentences around the facts are the catalogue's (po/) and are checked from hand-made facts, with no
/// transfer, in LoaderMessageTests; here a real libcurl produces the failure, and its version must not decide
/// whether a test passes.
func assertFacts(_ error: LoadError?, _ facts: [String], file: StaticString = #filePath, line: UInt = #line) {
    guard let error else { return XCTFail("no failure", file: file, line: line) }
    for fact in facts {
        XCTAssertTrue(error.message.contains(fact), "“\(fact)” is not in “\(error.message)”", file: file, line: line)
    }
}

/// Every failure a person can act on has its own kind and a message with its facts.
///
/// `@MainActor` with async tests: the loader belongs to the main actor (`PageLoader`).
@MainActor
final class LoaderFailureTests: XCTestCase {
    let server = TestServer.shared

    func testRefusedConnection() async {
        let port = TestServer.closedPort()
        let run = record(URL(string: "http://127.0.0.1:\(port)/")!)
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.kind, .refused)
        assertFacts(run.error, ["\(port)", "127.0.0.1"])
        XCTAssertEqual(run.error?.url, URL(string: "http://127.0.0.1:\(port)/")!)
    }

    func testHostNotFound() async {
        let run = record(URL(string: "http://no-such-host.invalid/")!, timeout: 30)
        XCTAssertEqual(run.error?.kind, .hostNotFound)
        assertFacts(run.error, ["no-such-host.invalid"])
    }

    func testConnectTimeout() async {
        let run = record(server.blackholeURL(), options: LoaderOptions(connectTimeout: 1))
        XCTAssertEqual(run.error?.kind, .timedOut)
        assertFacts(run.error, ["127.0.0.1", "1 second"])
        // The kind says the connect timeout ended it; the time, that it waited the whole second first (a lower
        // bound, which a busy machine cannot break).
        XCTAssertGreaterThanOrEqual(run.times.last ?? 0, 0.99)
    }

    func testServerThatNeverAnswers() async {
        let run = record(server.url("/delay?seconds=4"), options: LoaderOptions(stallTimeout: 1))
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.kind, .timedOut)
        assertFacts(run.error, ["127.0.0.1", "1 second"])
        // The server answers after 4 s: a failure of this kind came before it, after the whole stall time.
        XCTAssertGreaterThanOrEqual(run.times.last ?? 0, 0.99)
    }

    func testStallAfterTheFirstBytes() async {
        let run = record(server.url("/stall?after=1000&length=100000"), options: LoaderOptions(stallTimeout: 1))
        XCTAssertEqual(run.shape, "response progress… failed")
        XCTAssertEqual(run.progress.last?.received, 1000)
        XCTAssertEqual(run.error?.kind, .stalled)
        assertFacts(run.error, ["127.0.0.1", "1 second", "100,000 bytes", "1,000"])
        // Times count from the start of the load, before the first byte: a lower bound a busy machine cannot break.
        XCTAssertGreaterThanOrEqual(run.times.last ?? 0, 0.99, "no bytes for the whole stall time")
    }

    func testConnectionDroppedMidBody() async {
        let run = record(server.url("/drop?size=100000&after=20000"))
        XCTAssertEqual(run.shape, "response progress… failed")
        XCTAssertEqual(run.error?.kind, .cutOff)
        assertFacts(run.error, ["127.0.0.1", "100,000 bytes", "20,000"])
    }

    func testLyingContentLength() async {
        let run = record(server.url("/lying?claim=100000&send=5000"))
        XCTAssertEqual(run.error?.kind, .cutOff, "fewer bytes than Content-Length is not a finished page")
        assertFacts(run.error, ["127.0.0.1", "100,000 bytes", "5,000"])
    }

    func testChunkedStreamClosedBeforeItsEnd() async {
        let run = record(server.url("/broken-chunked?after=5000&mode=close"))
        XCTAssertEqual(run.error?.kind, .cutOff)
        assertFacts(run.error, ["127.0.0.1", "5,000 bytes"])
    }

    /// libcurl does not count the good bytes of a read that ends in a broken chunk; the message must.
    func testChunkedStreamWithGarbage() async {
        let run = record(server.url("/broken-chunked?after=587&mode=garbage"))
        XCTAssertEqual(run.error?.kind, .cutOff)
        assertFacts(run.error, ["127.0.0.1", "587 bytes"])
    }

    /// libcurl reports a reply with no HTTP status line as a refused protocol (HTTP/0.9), the code a redirect to
    /// file: gets too; no redirect happened, so the message must not speak of one.
    func testAnswerThatIsNotHTTP() async {
        let run = record(server.url("/not-http"))
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.kind, .badResponse)
        assertFacts(run.error, ["\(server.port)", "127.0.0.1"])
        let redirected = record(server.url("/redirect-to?url=/not-http"))
        XCTAssertEqual(redirected.error?.kind, .badResponse, "a redirect to http that answers with no HTTP")
    }

    func testHeaderLineTooLong() async {
        let run = record(server.url("/huge-header?kb=1024"))
        XCTAssertEqual(run.error?.kind, .badResponse)
        assertFacts(run.error, ["127.0.0.1", "100 KB"])
    }

    func testTooManyHeaders() async {
        let run = record(server.url("/many-headers?kb=400"))
        XCTAssertEqual(run.error?.kind, .badResponse)
        assertFacts(run.error, ["127.0.0.1", "300 KB"])
    }

    /// A head sent a byte at a time: each completed line used to count as progress, so it never stalled, and
    /// when one line took longer than the stall time the server was said to have sent nothing.
    func testHeadersTrickledSlowly() async {
        let run = record(server.url("/trickle?rate=40"), options: LoaderOptions(stallTimeout: 2))
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.kind, .stalled)
        assertFacts(run.error, ["127.0.0.1", "2 seconds"])
    }

    func testNotModifiedWithoutAConditionalRequest() async {
        let run = record(server.url("/not-modified"))
        XCTAssertEqual(run.error?.kind, .badResponse)
        assertFacts(run.error, ["127.0.0.1", "304 Not Modified"])
    }

    func testUntrustedCertificate() async throws {
        try XCTSkipIf(server.tlsPort == 0, "openssl was not available to make a certificate")
        let run = record(server.tlsURL("/page"))
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.kind, .tls)
        let message = run.error?.message ?? ""
        XCTAssertTrue(message.hasPrefix("A secure connection to 127.0.0.1 could not be made: its certificate could "
            + "not be verified, so this may not be the real 127.0.0.1"), message)
    }

    func testTLSHandshakeWithAPlainServer() async {
        let run = record(URL(string: "https://127.0.0.1:\(server.port)/page")!)
        XCTAssertEqual(run.error?.kind, .tls)
        XCTAssertTrue(run.error?.message.hasPrefix("A secure connection to 127.0.0.1 could not be made: the secure "
            + "handshake failed") ?? false, "\(String(describing: run.error))")
    }

    func testTooManyRedirects() async {
        let run = record(server.url("/redirect?n=21"))
        XCTAssertEqual(run.shape, "failed", "redirect responses are not reported")
        XCTAssertEqual(run.error?.kind, .tooManyRedirects)
        assertFacts(run.error, ["127.0.0.1", "(20)"])
    }

    func testRedirectLoop() async {
        server.resetCounts()
        let run = record(server.url("/loop"))
        XCTAssertEqual(run.error?.kind, .tooManyRedirects)
        assertFacts(run.error, ["127.0.0.1", "20"])
        XCTAssertEqual(server.requestCount(for: "/loop"), 21)
    }

    func testRedirectToAFileIsRefused() async {
        let run = record(server.url("/redirect-file"))
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.kind, .forbiddenRedirect)
        assertFacts(run.error, ["file:///etc/passwd", "127.0.0.1"])
    }

    func testRedirectToOtherSchemesIsRefused() async {
        let target = "ftp://127.0.0.1/x".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let run = record(server.url("/redirect-to?url=\(target)"))
        XCTAssertEqual(run.error?.kind, .forbiddenRedirect)
    }

    func testMissingFile() async {
        let run = record(URL(fileURLWithPath: "/no/such/file.html"))
        XCTAssertEqual(run.error?.kind, .fileNotFound)
        // Local files and refused schemes never reach libcurl: these sentences are the loader's own.
        XCTAssertEqual(run.error?.message, "There is no file at /no/such/file.html.")
        // A folder is no failure: it is listed.
        let folder = record(URL(fileURLWithPath: "/tmp", isDirectory: true))
        XCTAssertNil(folder.error)
        XCTAssertEqual(folder.page?.kind, .html)
        XCTAssertTrue(folder.page?.text.contains("<title>Index of /tmp</title>") == true)
    }

    func testUnsupportedSchemes() async {
        let user = record(URL(string: "ftp://127.0.0.1/file")!)
        XCTAssertEqual(user.error?.kind, .unsupportedScheme)
        XCTAssertEqual(user.error?.message, "Cannot open ftp: addresses; only http, https and local files are supported.")
    }
}
