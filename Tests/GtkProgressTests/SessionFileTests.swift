import Foundation
import Glibc
import Synchronization
import XCTest
import GtkProgressCore
import GtkProgressFiles

/// The session file on disk: its place under the XDG state directory, whole writes, damaged files set aside.
final class SessionFileTests: XCTestCase {
    private var directory: URL!

    override func setUp() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    func testItsPlaceFollowsTheXDGBaseDirectorySpecification() {
        XCTAssertEqual(SessionFile.standard(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])?.url.path,
                       "/s/gtkprogress/session.json")
        XCTAssertEqual(SessionFile.standard(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"])?.url.path,
                       "/h/.local/state/gtkprogress/session.json", "a relative XDG_STATE_HOME is ignored")
        XCTAssertNil(SessionFile.standard(environment: [:]))
    }

    func testSavesAreWholeAndADamagedFileIsSetAside() throws {
        let file = SessionFile(url: directory.appendingPathComponent("gtkprogress/session.json"))
        guard case .missing = file.read() else { return XCTFail("no file yet") }
        let state = SessionState(windows: [SessionState.Window(entries: [
            .init(url: URL(string: "https://example.org/")!, title: "E", scroll: 40, document: 1)], currentIndex: 0)])
        XCTAssertNil(file.saveAndWait(state.encoded()))
        guard case .session(let read) = file.read() else { return XCTFail("the saved session reads back") }
        XCTAssertEqual(read, state)

        // A write killed before its rename leaves a temporary file of a process that is gone; the file is whole.
        let leftover = file.url.path + ".tmp-999999"
        XCTAssertTrue(FileManager.default.createFile(atPath: leftover, contents: Data("{\"vers".utf8)))
        guard case .session = file.read() else { return XCTFail("still whole") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover), "the dead writer's temporary file is gone")

        try Data("{\"version\": 1, \"windows\": [".utf8).write(to: file.url)
        guard case .damaged(let message) = file.read() else { return XCTFail("a cut file is damaged") }
        XCTAssertTrue(message.contains("not valid JSON"), message)
        XCTAssertEqual(file.setAside(), file.url.path + ".damaged")
        guard case .missing = file.read() else { return XCTFail("set aside") }
    }

    // MARK: Hostile files

    private var sessionPath: String { directory.path + "/gtkprogress/session.json" }

    private func sampleState(_ url: String = "https://example.org/") -> SessionState {
        SessionState(windows: [SessionState.Window(entries: [
            .init(url: URL(string: url)!, title: "E", scroll: 40, document: 1)], currentIndex: 0)])
    }

    /// A session file that is a FIFO, a link (to /dev/zero here) or a folder is refused at once with a message,
    /// and setting it aside keeps it. If the FIFO's open waited for a writer, this test would never end.
    func testASessionFileThatIsNotARegularFileIsRefusedAtOnce() throws {
        try FileManager.default.createDirectory(atPath: directory.path + "/gtkprogress", withIntermediateDirectories: true)
        let file = SessionFile(url: URL(fileURLWithPath: sessionPath))
        let cases: [(make: () -> Int32, says: String)] = [
            ({ mkfifo(self.sessionPath, 0o600) }, "it is a named pipe (FIFO), not a regular file."),
            ({ symlink("/dev/zero", self.sessionPath) }, "it is a symbolic link, not a regular file."),
            ({ mkdir(self.sessionPath, 0o700) }, "it is a folder, not a file."),
        ]
        for (make, says) in cases {
            XCTAssertEqual(make(), 0)
            guard case .damaged(let message) = file.read() else { return XCTFail(says) }
            XCTAssertEqual(message, "The saved session \(sessionPath) was not restored: " + says)
            XCTAssertEqual(file.setAside(), sessionPath + ".damaged")
            guard case .missing = file.read() else { return XCTFail("set aside") }
            XCTAssertTrue(FileManager.default.fileExists(atPath: sessionPath + ".damaged"))
            _ = try? FileManager.default.removeItem(atPath: sessionPath + ".damaged")
        }
    }

    /// A file over the limit is refused from its size, which the message gives as it is.
    func testATooLargeFileGivesItsTrueSize() throws {
        try FileManager.default.createDirectory(atPath: directory.path + "/gtkprogress", withIntermediateDirectories: true)
        let file = SessionFile(url: URL(fileURLWithPath: sessionPath))
        XCTAssertTrue(FileManager.default.createFile(atPath: sessionPath, contents: nil))
        let sizes: [(Int, String)] = [(9 * 1024 * 1024, "9 MB"), (17 * 512 * 1024, "8.5 MB"),
                                      (8 * 1024 * 1024 + 1, "8,388,609 bytes")]
        for (size, said) in sizes {
            XCTAssertEqual(truncate(sessionPath, size), 0)
            guard case .damaged(let message) = file.read() else { return XCTFail("too large") }
            XCTAssertEqual(message, "The saved session \(sessionPath) was not restored: it is \(said), more than the 8 MB "
                           + "a session file may hold.")
        }
    }
}
