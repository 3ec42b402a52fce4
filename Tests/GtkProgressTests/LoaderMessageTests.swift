@testable import GtkProgress
@testable import GtkProgressLoading
@testable import GtkProgressCore
import Foundation
import Glibc
import XCTest

/// Messages for failures the loopback server cannot stage (no route to a host, an unreadable CA file), checked
/// from the facts libcurl would report.
final class LoaderMessageTests: XCTestCase {
    func facts(code: Int, errno: Int32 = 0, url: String = "http://example.org:8080/a") -> TransferFacts {
        let url = URL(string: url)!
        return TransferFacts(url: url, currentURL: url, code: code, osErrno: errno, didConnect: false,
                             didRespond: false, received: 0, expected: nil, redirects: [], exceededSizeLimit: false,
                             detail: "", summary: "Some libcurl summary", options: LoaderOptions())
    }

    func testNoRouteToHost() {
        for number in [ENETUNREACH, EHOSTUNREACH] {
            let error = facts(code: 7, errno: number).error()
            XCTAssertEqual(error.kind, .unreachable)
            XCTAssertEqual(error.message, "The server at example.org cannot be reached from this computer: there is "
                + "no network route to it. Check that this computer is online.")
        }
    }

    func testRefusedNamesThePort() {
        XCTAssertEqual(facts(code: 7, errno: ECONNREFUSED).error().message, "The server at example.org refused the "
            + "connection on port 8080. Nothing is running there, or it does not accept visitors.")
    }

    func testTLSWithDetail() {
        var facts = facts(code: 77, url: "https://example.org/")
        facts.detail = "error setting certificate file: /nowhere"
        XCTAssertEqual(facts.error().kind, .tls)
        XCTAssertEqual(facts.error().message, "A secure connection to example.org could not be made: this computer's "
            + "list of trusted certificates could not be read (error setting certificate file: /nowhere).")
    }

    func testUnknownFailureSaysWhatLibcurlSays() {
        let error = facts(code: 4).error()
        XCTAssertEqual(error.kind, .other)
        XCTAssertEqual(error.message, "Loading http://example.org:8080/a failed: Some libcurl summary.")
    }

    func testConnectionBrokenBeforeAnswer() {
        XCTAssertEqual(facts(code: 56).error().message,
                       "The connection to example.org broke before the server answered. Try again.")
    }

    func testSizes() {
        XCTAssertEqual(ByteCount.size(64 << 20), "64.0 MB")
        XCTAssertEqual(ByteCount.size(1536), "1.5 KB")
        XCTAssertEqual(ByteCount.size(12), "12 bytes")
        XCTAssertEqual(ByteCount.grouped(1_234_567), "1,234,567")
        XCTAssertEqual(ByteCount.grouped(999), "999")
        XCTAssertEqual(ByteCount.seconds(15), "15 seconds")
        XCTAssertEqual(ByteCount.seconds(1), "1 second")
    }
}
