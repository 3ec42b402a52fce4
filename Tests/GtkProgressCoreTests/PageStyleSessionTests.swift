import FoundationEssentials
import XCTest
@testable import GtkProgressCore

/// The window's "Page style" choice is kept in the session: written only when off, so files of windows with page
/// styles on read and write as before.
final class PageStyleSessionTests: XCTestCase {
    func testPageStyleChoiceSurvivesASession() throws {
        let url = URL(string: "https://example.org/")!
        let entries = [SessionState.Entry(url: url, title: nil, scroll: 0, document: 1)]
        let state = SessionState(windows: [
            SessionState.Window(entries: entries, currentIndex: 0, pageStyles: false),
            SessionState.Window(entries: entries, currentIndex: 0),
        ])
        let bytes = state.encoded()
        let decoded = try SessionState.decode(bytes).get()
        XCTAssertEqual(decoded.windows.map(\.pageStyles), [false, true])
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "\"pageStyle\"").count - 1, 1, "only the window with it off says so")
        let older = try SessionState.decode(Data(#"{"version": 1, "windows": [{"entries": [{"url": "https://example.org/", "scroll": 0}], "current": 0}]}"#.utf8)).get()
        XCTAssertEqual(older.windows.first?.pageStyles, true, "a file from before has page styles on")
    }
}
