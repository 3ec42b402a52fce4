import Foundation
import GtkProgress
import XCTest

/// Hostile or huge bodies: the main loop keeps running and memory stays bounded.
///
/// `@MainActor` with async tests: the loader belongs to the main actor (`PageLoader`).
@MainActor
final class LoaderSafetyTests: XCTestCase {
    let server = TestServer.shared

    /// A field of /proc/self/status in bytes: "VmRSS" (resident now) or "VmHWM" (the peak).
    static func statusBytes(_ field: String) -> Int64 {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int64($0) } ?? 0
            return kilobytes * 1024
        }
        return 0
    }

    /// Makes VmHWM start again from the current resident size (Linux: "5" to clear_refs).
    static func resetPeakResidentBytes() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// Loads `url` and returns the run and the largest growth of resident memory over what was in use before.
    /// The peak comes from VmHWM: a bomb can inflate and be refused within one wake-up of the main loop, between
    /// any two samples.
    func recordMemory(_ url: URL) -> (LoadRecorder, growth: Int64) {
        let baseline = LoaderSafetyTests.statusBytes("VmRSS")
        let peakIsReset = LoaderSafetyTests.resetPeakResidentBytes()
        var sampled = baseline
        let recorder = LoadRecorder()
        recorder.start(url)
        XCTAssertTrue(MainLoop.run(until: {
            sampled = max(sampled, LoaderSafetyTests.statusBytes("VmRSS"))
            return recorder.isDone
        }, timeout: 60))
        let peak = peakIsReset ? max(sampled, LoaderSafetyTests.statusBytes("VmHWM")) : sampled
        return (recorder, peak - baseline)
    }

    func testGzipBombFailsWithTheSizeMessageAndBoundedMemory() async {
        // About 1 MB on the wire, 1 GiB once inflated.
        let (run, growth) = recordMemory(server.url("/bomb?mib=1024"))
        XCTAssertEqual(run.shape, "response progress… failed")
        XCTAssertEqual(run.error?.kind, .tooLarge)
        assertFacts(run.error, ["127.0.0.1", "64.0 MB"])
        XCTAssertLessThan(run.progress.last?.received ?? .max, 1_000_000, "stopped long before the end of the bomb")
        XCTAssertLessThan(growth, 160 << 20, "memory grew by \(growth >> 20) MiB for a 1 GiB body")
    }

    func testOversizedBodyOfUnknownLengthFailsWithBoundedMemory() async {
        // 1 GB, chunked: nothing announces the size, so the cap is met while the bytes arrive.
        let (run, growth) = recordMemory(server.url("/big?mb=1000&chunked=1"))
        XCTAssertEqual(run.shape, "response progress… failed")
        XCTAssertEqual(run.error?.kind, .tooLarge)
        assertFacts(run.error, ["127.0.0.1", "64.0 MB"])
        XCTAssertLessThan(growth, 160 << 20, "memory grew by \(growth >> 20) MiB for a 1 GB body")
    }

    func testOversizedContentLengthFailsBeforeDownloading() async {
        let (run, growth) = recordMemory(server.url("/big?mb=100"))
        XCTAssertTrue(run.shape.hasPrefix("response"), run.shape)
        XCTAssertLessThan(run.progress.last?.received ?? 0, 1 << 20, "refused at the headers")
        XCTAssertEqual(run.response?.expectedLength, 100_000_000)
        XCTAssertEqual(run.error?.kind, .tooLarge)
        XCTAssertLessThan(growth, 32 << 20)
    }

    func testSmallerLimit() async {
        let run = record(server.url("/slow?size=300000&rate=0"), options: LoaderOptions(maxDocumentBytes: 100_000))
        XCTAssertEqual(run.error?.kind, .tooLarge)
        assertFacts(run.error, ["127.0.0.1", "97.7 KB"])
        let bomb = record(server.url("/bomb?mib=8"), options: LoaderOptions(maxDocumentBytes: 1 << 20))
        XCTAssertEqual(bomb.error?.kind, .tooLarge)
    }

    func testMainLoopKeepsTickingDuringAFastLargeDownload() async {
        // The 0.1 s tick the progress tracker uses, and a fine one: both must keep firing while the data pours in.
        // How late they are is measured by `make bench` (the main-loop rows), not here.
        var ticks = 0
        let ticker = MainLoopTimer(milliseconds: 100) { ticks += 1; return true }
        var fineTicks = 0
        let fineTicker = MainLoopTimer(milliseconds: 5) { fineTicks += 1; return true }
        let recorder = LoadRecorder()
        let start = MainLoop.monotonicSeconds()
        recorder.start(server.url("/big?mb=50"))
        XCTAssertTrue(recorder.wait(timeout: 60))
        let elapsed = MainLoop.monotonicSeconds() - start
        ticker.cancel()
        fineTicker.cancel()
        XCTAssertEqual(recorder.page?.byteCount, 50_000_000)
        XCTAssertEqual(recorder.progress.last?.received, 50_000_000)
        // libcurl reports once per wake-up; a loopback transfer of 50 MB takes a handful of them.
        XCTAssertGreaterThan(recorder.progress.count, 2, "progress reported along the way, not only at the end")
        let midway = recorder.progress.filter { $0.received > 0 && $0.received < 50_000_000 }
        XCTAssertFalse(midway.isEmpty, "some progress arrived before the end: \(recorder.progress.map(\.received))")
        XCTAssertGreaterThan(fineTicks, 0, "the main loop kept dispatching other sources during the download")
        if elapsed > 0.25 {
            XCTAssertGreaterThan(ticks, 0, "the 0.1 s tick kept coming during the download")
        }
    }
}
