import Foundation
import Glibc
import Synchronization
import XCTest
import GtkProgressCore
import GtkProgressFiles
@testable import GtkProgressLoading

/// Files given on the command line that are not what they claim: FIFOs and devices are refused without waiting,
/// and no file is read past its limit, even one that keeps growing.
final class HostileFileTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    private func curveError(_ path: String) -> CurveFileError? {
        do {
            _ = try ProgressCurve.load(nameOrPath: path)
            return nil
        } catch {
            return error
        }
    }

    /// A FIFO with no writer would block a plain open(2) for good: `O_NONBLOCK` opens it at once, and `fstat`
    /// refuses it. If the open waited, this test would never end.
    func testACurveFileThatIsAFIFOOrADeviceIsRefusedAtOnce() {
        let fifo = directory.appendingPathComponent("curve.json").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertEqual(curveError(fifo)?.problem, .unreadable(reason: "it is a named pipe (FIFO), not a regular file"))
        XCTAssertEqual(curveError("/dev/zero")?.problem, .unreadable(reason: "it is a device, not a regular file"))
        XCTAssertEqual(curveError(directory.path + "/")?.problem, .unreadable(reason: "it is a folder, not a file"))
    }

    /// A curve file larger than the limit is refused from its size alone, and the message gives that size.
    func testALargeCurveFileIsRefusedWithItsSize() throws {
        let path = directory.appendingPathComponent("big.json").path
        // A sparse 9 MB file: the size is known without writing the bytes.
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        XCTAssertEqual(truncate(path, 9 * 1024 * 1024), 0)
        XCTAssertEqual(curveError(path)?.problem, .unreadable(reason: "it is 9.0 MB, more than the 1.0 MB a curve file may be"))
        XCTAssertEqual(truncate(path, Int(ProgressCurve.largestFile) + 1), 0)
        XCTAssertEqual(curveError(path)?.problem,
                       .unreadable(reason: "it is 1,048,577 bytes, more than the 1.0 MB a curve file may be"),
                       "one byte over is not called “1.0 MB, more than 1.0 MB”")
    }

    /// Files in /proc are regular files whose `st_size` is 0 whatever they hold: to `fstat` they are empty, so
    /// only the read itself can find them too large, as it would a file that grows while it is read. The read
    /// stops one byte past the limit.
    func testAFileLargerThanItsSizeSaysIsReadOneBytePastTheLimitAndNoMore() throws {
        let path = "/proc/self/maps"
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_size, 0, "the premise: the kernel reports no size")
        XCTAssertEqual(LocalFile.readRegular(path, maxBytes: 16), .failure(.tooLarge(size: 17, grew: true)))
        guard case .success(let whole) = LocalFile.readRegular(path, maxBytes: 1 << 20) else {
            return XCTFail("the whole map is under 1 MB")
        }
        XCTAssertGreaterThan(whole.count, 16)

        // `--dump FILE` reads with the loader's limit.
        guard case .failure(let error) = LocalFile.read(URL(fileURLWithPath: path), maxBytes: 16) else {
            return XCTFail("over the limit")
        }
        XCTAssertEqual(error.kind, .tooLarge)
        XCTAssertEqual(error.message, "The file /proc/self/maps is larger than 16 bytes, the most this viewer loads, so it "
                       + "was not loaded.")
    }

    func testAFileWithinTheLimitIsReadWhole() {
        let path = directory.appendingPathComponent("page.html").path
        let bytes = Array("<p>exactly the limit</p>".utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        XCTAssertEqual(LocalFile.readRegular(path, maxBytes: bytes.count), .success(bytes))
        XCTAssertEqual(LocalFile.readRegular(path, maxBytes: bytes.count - 1),
                       .failure(.tooLarge(size: Int64(bytes.count), grew: false)))
        XCTAssertTrue(FileManager.default.createFile(atPath: path + ".empty", contents: Data()))
        XCTAssertEqual(LocalFile.readRegular(path + ".empty", maxBytes: 0), .success([]))
    }

    /// With `followLinks: false` a link is refused as a link, whatever it points at; by default it is followed and
    /// what it points at is judged.
    func testALinkIsFollowedOnlyWhenAllowedAndItsTargetIsJudged() {
        let link = directory.appendingPathComponent("zero").path
        XCTAssertEqual(symlink("/dev/zero", link), 0)
        guard case .failure(.notRegular(let mode)) = LocalFile.readRegular(link, maxBytes: 10, followLinks: false) else {
            return XCTFail("a link is refused")
        }
        XCTAssertEqual(mode & S_IFMT, S_IFLNK)
        guard case .failure(.notRegular(let target)) = LocalFile.readRegular(link, maxBytes: 10) else {
            return XCTFail("a device behind a link is refused")
        }
        XCTAssertEqual(target & S_IFMT, S_IFCHR)
        guard case .failure(let error) = LocalFile.read(URL(fileURLWithPath: link), maxBytes: 10) else {
            return XCTFail("--dump refuses it")
        }
        XCTAssertEqual(error.message, "\(link) is a device, not a regular file, so it was not opened.")
    }

    /// A page's file replaced by a FIFO after `LoadPolicy` looked at it: the loader's read opens it without
    /// waiting and refuses it. If the open waited for a writer, no event would ever come.
    func testTheLoaderRefusesAFIFOItFindsWhenItOpens() {
        let fifo = directory.appendingPathComponent("page.html")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let events = Mutex<[LoadEvent]>([])
        FileRead(url: fifo, options: LoaderOptions()).start { event in events.withLock { $0.append(event) } }
        XCTAssertTrue(MainLoop.run(until: { !events.withLock { $0.isEmpty } }, timeout: 30))
        XCTAssertEqual(events.withLock { $0 }, [.failed(LoadError(kind: .fileNotFound, url: fifo,
            message: "\(fifo.path) is a named pipe (FIFO), not a regular file, so it was not opened."))])
    }
}
