import Foundation
@testable import GtkProgress
import XCTest

/// Bookmarks in XBEL through GLib's GBookmarkFile: what is written is read back in order, and a damaged file says so.
final class BookmarkFileTests: XCTestCase {
    func testBookmarksRoundTripThroughXBELInTheirOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bookmarks-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("deeper/bookmarks.xbel").path
        guard case .missing = BookmarkFile.read(path) else { return XCTFail("no file yet") }
        var bookmarks = Bookmarks()
        XCTAssertEqual(bookmarks.toggle(URL(string: "https://b.example/")!, title: "Bee & <co>"), true)
        XCTAssertEqual(bookmarks.toggle(URL(string: "https://a.example/x?y=1&z=2")!, title: nil), true)
        XCTAssertEqual(bookmarks.toggle(URL(string: "https://user:pw@c.example/")!, title: "C"), true)
        XCTAssertNil(BookmarkFile.write(bookmarks.entries, to: path))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains("<xbel"), text)
        XCTAssertFalse(text.contains("pw@"), "no password kept")
        guard case .bookmarks(let read) = BookmarkFile.read(path) else { return XCTFail("read back") }
        XCTAssertEqual(read, bookmarks.entries)
        XCTAssertEqual(read.map(\.title), ["Bee & <co>", "a.example", "C"])
        XCTAssertEqual(Bookmarks(entries: read).matches("bee").map(\.title), ["Bee & <co>"])
        // Toggling again takes it away.
        XCTAssertEqual(bookmarks.toggle(URL(string: "https://b.example/")!, title: "Bee"), false)
        XCTAssertFalse(bookmarks.contains(URL(string: "https://b.example/")!))

        try Data("<xbel version=\"1.0\"><bookmark".utf8).write(to: URL(fileURLWithPath: path))
        guard case .damaged(let message) = BookmarkFile.read(path) else { return XCTFail("damaged") }
        XCTAssertTrue(message.contains(path), message)
    }
}
