import Foundation
import Glibc
@testable import GtkProgress
@testable import GtkProgressLoading
import XCTest

/// Local files are read off the main loop: whatever the file is, the window never waits for it.
///
/// `@MainActor` with async tests: the loader belongs to the main actor (`PageLoader`).
@MainActor
final class LoaderFileTests: XCTestCase {
    private var directory: URL!

    override func setUp() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("loader-files-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() async throws { try? FileManager.default.removeItem(at: directory) }

    /// A FIFO with no writer would block `open` forever; it is refused before anything opens it.
    func testNamedPipeIsRefusedWithoutOpeningIt() async {
        let fifo = directory.appendingPathComponent("pipe")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let run = record(fifo)
        XCTAssertEqual(run.shape, "failed")
        XCTAssertEqual(run.error?.message, "\(fifo.path) is a named pipe (FIFO), not a regular file, so it was not opened.")
        let device = record(URL(fileURLWithPath: "/dev/zero"))
        XCTAssertEqual(device.error?.message, "/dev/zero is a device, not a regular file, so it was not opened.")
    }

    /// A large file arrives in pieces, each reported, while the main loop keeps turning between them.
    func testLargeFileArrivesInPiecesAndCanBeStopped() async throws {
        let file = directory.appendingPathComponent("big.txt")
        try Data(repeating: UInt8(ascii: "a"), count: 8 << 20).write(to: file)
        var turns = 0
        let ticker = MainLoopTimer(milliseconds: 1) { turns += 1; return true }
        defer { ticker.cancel() }
        let run = record(file)
        XCTAssertEqual(run.page?.byteCount, 8 << 20)
        XCTAssertEqual(run.page?.kind, .text)
        XCTAssertGreaterThan(run.progress.count, 8, "progress piece by piece")
        XCTAssertEqual(run.progress.map(\.received), run.progress.map(\.received).sorted())
        XCTAssertTrue(run.progress.allSatisfy { $0.expected == Int64(8 << 20) })
        XCTAssertGreaterThan(turns, 0)

        // Stopped after the first piece: no more events, not even `failed`.
        let recorder = LoadRecorder()
        recorder.start(file)
        XCTAssertTrue(MainLoop.run(until: { !recorder.progress.isEmpty }, timeout: 10))
        recorder.loader.cancel()
        let seen = recorder.events.count
        _ = MainLoop.run(until: { false }, timeout: 0.3)
        XCTAssertEqual(recorder.events.count, seen, "nothing after cancel")
        XCTAssertFalse(recorder.loader.isLoading)
    }

    /// `--throttle` paces local files too, so the bar can be watched on a page from disk.
    func testThrottlePacesLocalFiles() async throws {
        let file = directory.appendingPathComponent("page.html")
        try Data(("<title>Slow</title>" + String(repeating: "<p>text</p>", count: 3000)).utf8).write(to: file)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        let run = record(file, options: LoaderOptions(throttleBytesPerSecond: Int64(size)))
        XCTAssertEqual(run.page?.byteCount, size)
        XCTAssertGreaterThanOrEqual(run.progress.count, 10, "ten pieces, a tenth of a second apart")
        XCTAssertGreaterThan(run.times.last ?? 0, 0.5, "about a second, not at once")
    }

    /// What arrived so far is there for progressive display while the file is read.
    func testArrivedBodyWhileReading() async throws {
        let file = directory.appendingPathComponent("page.html")
        try Data(("<title>T</title>" + String(repeating: "<p>x</p>", count: 10_000)).utf8).write(to: file)
        let recorder = LoadRecorder()
        recorder.start(file)
        var sizes: [Int] = []
        let sampler = MainLoopTimer(milliseconds: 1) {
            if let body = recorder.loader.arrived() { sizes.append(body.bytes.count) }
            return true
        }
        XCTAssertTrue(recorder.wait())
        sampler.cancel()
        XCTAssertEqual(sizes, sizes.sorted())
        XCTAssertEqual(recorder.page?.text.hasPrefix("<title>T</title>"), true)
        XCTAssertNil(recorder.loader.arrived())
    }
}
