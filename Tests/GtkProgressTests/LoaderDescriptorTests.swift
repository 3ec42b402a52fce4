import Foundation
import Glibc
@testable import GtkProgressLoading
import GtkProgressCore
import XCTest

/// File descriptors: an idle loader holds none, and a process out of them hears so, instead of "no network route".
///
/// `@MainActor` with async tests: the loader belongs to the main actor (`PageLoader`).
@MainActor
final class LoaderDescriptorTests: XCTestCase {
    let server = TestServer.shared

    private static func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    /// After a load, the connections are kept a while for the next one, then let go: the descriptors the load
    /// opened (libcurl's socket pair, the kept connection) are closed again.
    func testAnIdleLoaderLetsItsConnectionsGo() async {
        // A first load opens what the process keeps for good (libcurl's and the TLS library's set-up).
        let warm = LoadRecorder()
        warm.start(server.url("/page?title=Warm"))
        XCTAssertTrue(warm.wait())
        warm.loader.releaseConnections()
        let before = Self.openDescriptors()
        let recorder = LoadRecorder()
        recorder.loader.idleRelease = 200
        recorder.start(server.url("/page?title=Kept"))
        XCTAssertTrue(recorder.wait())
        XCTAssertTrue(recorder.loader.holdsConnections, "kept for the next load at first")
        XCTAssertGreaterThan(Self.openDescriptors(), before)
        XCTAssertTrue(MainLoop.run(until: { !recorder.loader.holdsConnections }, timeout: 10), "let go when idle")
        XCTAssertEqual(Self.openDescriptors(), before, "every descriptor the load opened is closed")
        // And the next load opens them again.
        recorder.start(server.url("/page?title=Again"))
        XCTAssertTrue(recorder.wait())
        guard case .finished = recorder.events.last else { return XCTFail("\(recorder.events)") }
    }

    /// With every descriptor taken, a load fails with a message that says so, and works again once some are free.
    func testRunningOutOfDescriptorsIsReportedAsThat() async throws {
        _ = server.url("/page")
        var saved = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved), 0)
        var lowered = saved
        lowered.rlim_cur = rlim_t(Self.openDescriptors() + 16)
        XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered), 0)
        var taken: [Int32] = []
        defer {
            for fd in taken { close(fd) }
            var restore = saved
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &restore)
        }
        while true {
            let fd = open("/dev/null", O_RDONLY)
            if fd < 0 { break }
            taken.append(fd)
        }
        XCTAssertEqual(errno, EMFILE)
        let recorder = LoadRecorder()
        recorder.start(server.url("/page?title=None"))
        XCTAssertTrue(recorder.wait())
        guard case .failed(let error) = recorder.events.last else { return XCTFail("\(recorder.events)") }
        XCTAssertEqual(error.kind, .outOfDescriptors)
        XCTAssertEqual(error.message, "No connection could be opened: this viewer has as many files and connections "
            + "open as the system allows (\(ByteCount.grouped(Int64(lowered.rlim_cur)))). Close some windows and try again.")
        for fd in taken { close(fd) }
        taken = []
        let again = LoadRecorder()
        again.start(server.url("/page?title=Again"))
        XCTAssertTrue(again.wait())
        guard case .finished = again.events.last else { return XCTFail("works again: \(again.events)") }
    }
}
