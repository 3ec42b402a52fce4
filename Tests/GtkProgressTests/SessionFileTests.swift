import Foundation
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
}
