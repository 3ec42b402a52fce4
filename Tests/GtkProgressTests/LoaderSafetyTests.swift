import Foundation
import GtkProgress
import XCTest

/// Hostile or huge bodies: the main loop keeps running and memory stays bounded.
final class LoaderSafetyTests: XCTestCase {
    let server = TestServer.shared

    /// Resident memory of this process, from /proc/self/status.
    static func residentBytes() -> Int64 {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int64($0) } ?? 0
            return kilobytes * 1024
        }
        return 0
    }

    /// Loads `url`, sampling resident memory every 10 ms and at every event; returns the run and the largest
    /// growth over the memory in use before it started.
    func recordMemory(_ url: URL) -> (LoadRecorder, growth: Int64) {
        let baseline = LoaderSafetyTests.residentBytes()
        var peak = baseline
        let sampler = MainLoopTimer(milliseconds: 10) {
            peak = max(peak, LoaderSafetyTests.residentBytes())
            return true
        }
        let recorder = LoadRecorder()
        recorder.start(url)
        XCTAssertTrue(MainLoop.run(until: {
            peak = max(peak, LoaderSafetyTests.residentBytes())
            return recorder.isDone
        }, timeout: 60))
        sampler.cancel()
        return (recorder, peak - baseline)
    }

    func testGzipBombFailsWithTheSizeMessageAndBoundedMemory() {
        // About 1 MB on the wire, 1 GiB once inflated.
        let (run, growth) = recordMemory(server.url("/bomb?mib=1024"))
        XCTAssertEqual(run.shape, "response progress… failed")
        XCTAssertEqual(run.error?.kind, .tooLarge)
        XCTAssertEqual(run.error?.message, "The document from 127.0.0.1 is larger than 64 MB, the most this viewer "
            + "loads, so it was not loaded.")
        XCTAssertLessThan(run.progress.last?.received ?? .max, 1_000_000, "stopped long before the end of the bomb")
        XCTAssertLessThan(growth, 256 << 20, "memory grew by \(growth >> 20) MiB for a 1 GiB body")
    }

    func testOversizedBodyOfUnknownLengthFailsWithBoundedMemory() {
        // 1 GB, chunked: nothing announces the size, so the cap is met while the bytes arrive.
        let (run, growth) = recordMemory(server.url("/big?mb=1000&chunked=1"))
        XCTAssertEqual(run.shape, "response progress… failed")
        XCTAssertEqual(run.error?.kind, .tooLarge)
        XCTAssertEqual(run.error?.message, "The document from 127.0.0.1 is larger than 64 MB, the most this viewer "
            + "loads, so it was not loaded.")
        XCTAssertLessThan(growth, 256 << 20, "memory grew by \(growth >> 20) MiB for a 1 GB body")
    }

    func testOversizedContentLengthFailsBeforeDownloading() {
        let (run, growth) = recordMemory(server.url("/big?mb=100"))
        XCTAssertEqual(run.shape, "response failed")
        XCTAssertEqual(run.response?.expectedLength, 100_000_000)
        XCTAssertEqual(run.error?.kind, .tooLarge)
        XCTAssertLessThan(growth, 32 << 20)
    }

    func testSmallerLimit() {
        let run = record(server.url("/slow?size=300000&rate=0"), options: LoaderOptions(maxDocumentBytes: 100_000))
        XCTAssertEqual(run.error?.message, "The document from 127.0.0.1 is larger than 97.7 KB, the most this "
            + "viewer loads, so it was not loaded.")
        let bomb = record(server.url("/bomb?mib=8"), options: LoaderOptions(maxDocumentBytes: 1 << 20))
        XCTAssertEqual(bomb.error?.kind, .tooLarge)
    }

    func testMainLoopKeepsTickingDuringAFastLargeDownload() {
        var ticks = 0
        var worstLateness = 0.0
        var lastTick = MainLoop.monotonicSeconds()
        let ticker = MainLoopTimer(milliseconds: 100) {
            let now = MainLoop.monotonicSeconds()
            worstLateness = max(worstLateness, now - lastTick - 0.1)
            lastTick = now
            ticks += 1
            return true
        }
        let recorder = LoadRecorder()
        let start = MainLoop.monotonicSeconds()
        lastTick = start
        recorder.start(server.url("/big?mb=50"))
        XCTAssertTrue(recorder.wait(timeout: 60))
        let elapsed = MainLoop.monotonicSeconds() - start
        ticker.cancel()
        XCTAssertEqual(recorder.page?.byteCount, 50_000_000)
        XCTAssertEqual(recorder.progress.last?.received, 50_000_000)
        XCTAssertGreaterThan(recorder.progress.count, 10, "progress reported along the way")
        print("50 MB in \(String(format: "%.2f", elapsed)) s: \(ticks) ticks of 0.1 s, worst lateness "
              + "\(Int(worstLateness * 1000)) ms")
        if elapsed >= 0.3 {
            XCTAssertGreaterThan(ticks, 0, "the main loop kept dispatching other sources during the download")
            XCTAssertGreaterThanOrEqual(Double(ticks), (elapsed / 0.1 / 2).rounded(.down) - 1,
                                        "most ticks on time: \(ticks) in \(elapsed) s")
        }
    }
}
