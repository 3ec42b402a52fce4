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

    /// With no place for the file, the viewer says so once, naming both variables as they are.
    func testWithNoPlaceTheMessageSaysWhy() {
        XCTAssertEqual(SessionFile.unavailableMessage(environment: [:]),
                       "This session will not be saved: XDG_STATE_HOME is not set and HOME is not set, so there is no "
                       + "folder to keep it in.")
        XCTAssertNil(SessionFile.standard(environment: ["XDG_STATE_HOME": "state", "HOME": ""]))
        XCTAssertEqual(SessionFile.unavailableMessage(environment: ["XDG_STATE_HOME": "state", "HOME": ""]),
                       "This session will not be saved: XDG_STATE_HOME is “state”, not an absolute path and HOME is not "
                       + "set, so there is no folder to keep it in.")
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

    /// Temporary names from a list the test knows, so links can be planted at each of them.
    private func fileWithKnownNames() -> (SessionFile, (Int) -> String) {
        let counter = Mutex(0)
        let file = SessionFile(url: URL(fileURLWithPath: sessionPath), temporarySuffix: {
            counter.withLock { count in
                defer { count += 1 }
                return "known\(count)"
            }
        })
        return (file, { "\(self.directory.path)/gtkprogress/session.json.tmp-\(getpid())-known\($0)" })
    }

    /// A link planted where the writer creates its temporary file, or at the file itself, never leads the write
    /// elsewhere: the temporary file is created with O_EXCL | O_NOFOLLOW, and rename(2) replaces a link rather than
    /// writing through it.
    func testASaveFollowsNoLinkPlantedAtAnyNameItUses() throws {
        let victim = directory.appendingPathComponent("victim").path
        try FileManager.default.createDirectory(atPath: directory.path + "/gtkprogress", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: victim, contents: Data("precious".utf8)))
        let (file, name) = fileWithKnownNames()
        // The name writes used before, the first three names this save tries, and the file itself.
        let planted = [file.url.path + ".tmp-\(getpid())", name(0), name(1), name(2), file.url.path]
        for path in planted { XCTAssertEqual(symlink(victim, path), 0, path) }

        XCTAssertNil(file.saveAndWait(sampleState().encoded()))
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious")
        for path in planted.dropLast() {
            XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path), victim, "\(path) left as it was")
        }
        var info = stat()
        XCTAssertEqual(lstat(file.url.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG, "the link at the file itself was replaced, not written through")
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        guard case .session(let read) = file.read() else { return XCTFail("the session reads back") }
        XCTAssertEqual(read, sampleState())
        XCTAssertFalse(FileManager.default.fileExists(atPath: name(3)), "the temporary file was renamed")

        // Every name the next save may try is taken: it writes nothing and says why.
        for attempt in 4..<(4 + 8) { XCTAssertEqual(symlink(victim, name(attempt)), 0) }
        let problem = file.saveAndWait(sampleState("https://example.net/").encoded())
        XCTAssertEqual(problem, "Cannot save the session in \(directory.path)/gtkprogress: 8 new temporary names in a row "
                       + "were already taken, so nothing was written.")
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious")
        guard case .session(let kept) = file.read() else { return XCTFail("the last session is still there") }
        XCTAssertEqual(kept, sampleState())
    }

    /// The folder is the user's own and private: a link in its place is refused (its target gets nothing), and a
    /// mode open to others is narrowed to 0700.
    func testTheFolderMustBeTheUsersOwnAndPrivate() throws {
        let elsewhere = directory.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        XCTAssertEqual(symlink(elsewhere.path, directory.path + "/gtkprogress"), 0)
        let file = SessionFile(url: URL(fileURLWithPath: sessionPath))
        XCTAssertEqual(file.saveAndWait(sampleState().encoded()),
                       "Cannot save the session in \(directory.path)/gtkprogress: it is a symbolic link, not a regular "
                       + "file, and the session is kept only in a folder of your own.")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])

        XCTAssertEqual(unlink(directory.path + "/gtkprogress"), 0)
        XCTAssertEqual(mkdir(directory.path + "/gtkprogress", 0o755), 0)
        XCTAssertEqual(chmod(directory.path + "/gtkprogress", 0o777), 0)
        XCTAssertNil(file.saveAndWait(sampleState().encoded()))
        var info = stat()
        XCTAssertEqual(stat(directory.path + "/gtkprogress", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        guard case .session = file.read() else { return XCTFail("saved") }
    }

    /// A folder that belongs to another user is not written in at all (only root can hand a folder to another
    /// user, so only root runs this).
    func testAFolderOfAnotherUserIsRefused() throws {
        try XCTSkipUnless(geteuid() == 0, "chown needs root")
        let folder = directory.path + "/gtkprogress"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(folder, 0o755), 0)
        XCTAssertEqual(chown(folder, 65534, 65534), 0)
        let file = SessionFile(url: URL(fileURLWithPath: sessionPath))
        XCTAssertEqual(file.saveAndWait(sampleState().encoded()),
                       "Cannot save the session in \(folder): the folder belongs to user 65534, not to you (user 0), so it "
                       + "was not used.")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
        var info = stat()
        XCTAssertEqual(stat(folder, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o755, "another user's folder is not changed")
        guard case .failed(let message) = file.claim() else { return XCTFail("no lock in another user's folder") }
        XCTAssertTrue(message.contains("belongs to user 65534"), message)
    }

    /// Temporary files of writers that are gone are removed, in the old naming and the new; a running writer's
    /// are kept.
    func testLeftoversOfBothNamingsAreRemovedWhenTheirWriterIsGone() throws {
        let file = SessionFile(url: URL(fileURLWithPath: sessionPath))
        XCTAssertNil(file.saveAndWait(sampleState().encoded()))
        let base = file.url.path + ".tmp-"
        let gone = [base + "999999", base + "999999-0123456789abcdef"]
        // Process 1 runs as long as the system does.
        let running = [base + "1-0123456789abcdef", base + "\(getpid())-fedcba9876543210"]
        for path in gone + running { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("{".utf8))) }
        guard case .session = file.read() else { return XCTFail("whole") }
        for path in gone { XCTAssertFalse(FileManager.default.fileExists(atPath: path), path) }
        for path in running { XCTAssertTrue(FileManager.default.fileExists(atPath: path), path) }
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
        let sizes: [(Int, String)] = [(9 * 1024 * 1024, "9.0 MB"), (17 * 512 * 1024, "8.5 MB"),
                                      (8 * 1024 * 1024 + 1, "8,388,609 bytes")]
        for (size, said) in sizes {
            XCTAssertEqual(truncate(sessionPath, size), 0)
            guard case .damaged(let message) = file.read() else { return XCTFail("too large") }
            XCTAssertEqual(message, "The saved session \(sessionPath) was not restored: it is \(said), more than the 8.0 MB "
                           + "a session file may hold.")
        }
    }

    /// No page can make the file larger than the reader takes: a 9 MB title is cut, four 1 MB addresses are kept,
    /// and the file reads back.
    func testAHugeTitleAndLongAddressesStillReadBack() {
        let title = String(repeating: "t", count: 9 * 1024 * 1024)
        let urls = (0..<4).map { URL(string: "https://example.org/\($0)?" + String(repeating: "q", count: 1024 * 1024))! }
        let state = SessionState(windows: [SessionState.Window(entries: urls.map {
            .init(url: $0, title: title, scroll: 0, document: 1)
        }, currentIndex: 3)])
        let file = SessionFile(url: URL(fileURLWithPath: sessionPath))
        let data = state.encoded()
        XCTAssertLessThanOrEqual(data.count, SessionState.largestEncoding)
        XCTAssertNil(file.saveAndWait(data))
        guard case .session(let read) = file.read() else { return XCTFail("it reads back") }
        XCTAssertEqual(read.windows.first?.entries.map(\.url), urls)
        XCTAssertEqual(read.windows.first?.currentIndex, 3)
        XCTAssertEqual(read.windows.first?.entries.first?.title, String(repeating: "t", count: SessionState.maxTitleScalars))
    }

    /// Long addresses in many windows: what is kept fits, every window kept has its current page, and the windows
    /// used last come first.
    func testManyLongAddressesAreTrimmedToWhatTheReaderTakes() {
        let long = URL(string: "https://example.org/?" + String(repeating: "q", count: 1024 * 1024))!
        let windows = (0..<12).map { number in
            SessionState.Window(entries: (0..<10).map { index in
                .init(url: index == 5 ? URL(string: "https://example.org/\(number)")! : long, title: nil, scroll: 0,
                      document: index + 1)
            }, currentIndex: 5)
        }
        let huge = URL(string: "https://example.org/?" + String(repeating: "h", count: SessionState.maxURLBytes))!
        let state = SessionState(windows: windows, visited: [huge, long])
        let data = state.encoded()
        XCTAssertLessThanOrEqual(data.count, SessionState.largestEncoding)
        XCTAssertLessThan(SessionState.largestEncoding, SessionFile.largestFile)
        let file = SessionFile(url: URL(fileURLWithPath: sessionPath))
        XCTAssertNil(file.saveAndWait(data))
        guard case .session(let read) = file.read() else { return XCTFail("it reads back") }
        XCTAssertEqual(read.windows.count, 12, "short current addresses always fit")
        for (number, window) in read.windows.enumerated() {
            XCTAssertEqual(window.entries[window.currentIndex].url.absoluteString, "https://example.org/\(number)")
        }
        // About 6 MB hold five of the 1 MB addresses: the ones next to the current pages of the windows used last.
        XCTAssertEqual(read.windows.map(\.entries.count), [1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 3])
        XCTAssertEqual(read.windows.last?.entries.map { $0.url == long }, [true, false, true])
        XCTAssertFalse(read.visited.contains(huge), "over 2 MB, an address is not saved")
    }

    /// The history kept is the 50 entries around the current one, not the last 50.
    func testAWindowKeepsTheEntriesAroundItsCurrentOne() {
        let entries = (0..<200).map { SessionState.Entry(url: URL(string: "https://example.org/\($0)")!, title: nil,
                                                         scroll: 0, document: $0 + 1) }
        let bounded = SessionState(windows: [.init(entries: entries, currentIndex: 10)]).bounded()
        XCTAssertEqual(bounded.windows[0].entries.count, SessionState.maxEntries)
        XCTAssertEqual(bounded.windows[0].entries.first?.url.absoluteString, "https://example.org/0")
        XCTAssertEqual(bounded.windows[0].currentIndex, 10)
        let middle = SessionState(windows: [.init(entries: entries, currentIndex: 100)]).bounded()
        XCTAssertEqual(middle.windows[0].entries.first?.url.absoluteString, "https://example.org/75")
        XCTAssertEqual(middle.windows[0].entries[middle.windows[0].currentIndex].url.absoluteString,
                       "https://example.org/100")
    }

    // MARK: One viewer keeps the session

    /// Two viewers that cannot find each other: the first keeps the session, the second is told who does and
    /// saves nothing; once the first lets go, the session can be taken again.
    func testOneViewerKeepsTheSession() {
        let first = SessionFile(url: URL(fileURLWithPath: sessionPath))
        let second = SessionFile(url: URL(fileURLWithPath: sessionPath))
        XCTAssertEqual(first.claim(), .kept)
        XCTAssertEqual(first.claim(), .kept, "asking again changes nothing")
        XCTAssertEqual(second.claim(), .keptByAnother(pid: getpid()))
        XCTAssertEqual(second.claim().message, "Another gtkprogress viewer (process \(getpid())) is keeping the session, "
                       + "so the windows of this one will not be saved.")
        XCTAssertNil(first.claim().message)
        first.release()
        XCTAssertEqual(second.claim(), .kept)
    }
}
