import Foundation
@testable import GtkProgressCore
import XCTest

/// The history the History window lists and searches, and its file.
final class BrowsingHistoryTests: XCTestCase {
    private func url(_ text: String) -> URL { URL(string: text)! }

    func testNewestFirstOneEntryPerAddress() {
        var history = BrowsingHistory()
        history.record(url: url("https://a.example/"), title: "Alpha", time: 1)
        history.record(url: url("https://b.example/"), title: nil, time: 2)
        history.record(url: url("https://a.example/"), title: "Alpha again", time: 3)
        XCTAssertEqual(history.entries.map(\.url.host), ["a.example", "b.example"])
        XCTAssertEqual(history.entries.map(\.title), ["Alpha again", "b.example"], "no title: the host, as the window")
        XCTAssertEqual(history.entries.first?.time, 3)
    }

    func testSearchMatchesEveryWordInTitleOrAddressIgnoringCase() {
        var history = BrowsingHistory()
        history.record(url: url("https://swift.org/documentation/"), title: "Swift Documentation", time: 1)
        history.record(url: url("https://gtk.org/"), title: "The GTK Project", time: 2)
        history.record(url: url("https://example.org/swift-gtk"), title: "Bindings", time: 3)
        XCTAssertEqual(history.matches("gtk").map(\.title), ["Bindings", "The GTK Project"])
        XCTAssertEqual(history.matches("SWIFT docu").map(\.title), ["Swift Documentation"])
        XCTAssertEqual(history.matches("swift gtk").map(\.title), ["Bindings"], "both words, in the address")
        XCTAssertEqual(history.matches("").count, 3)
        XCTAssertEqual(history.matches("", limit: 2).count, 2)
        XCTAssertTrue(history.matches("nothing such").isEmpty)
    }

    func testBoundedAndWithoutPasswordsOrHugeAddresses() {
        var history = BrowsingHistory()
        for i in 0..<(BrowsingHistory.maxEntries + 10) {
            history.record(url: url("https://e.example/\(i)"), title: "\(i)", time: Double(i))
        }
        XCTAssertEqual(history.entries.count, BrowsingHistory.maxEntries)
        XCTAssertEqual(history.entries.last?.title, "10", "the oldest went")
        history.record(url: url("https://user:secret@e.example/private"), title: "P", time: 1)
        XCTAssertEqual(history.entries.first?.url.absoluteString, "https://user@e.example/private")
        let long = "https://e.example/" + String(repeating: "a", count: BrowsingHistory.maxURLBytes)
        history.record(url: url(long), title: "Long", time: 2)
        XCTAssertNotEqual(history.entries.first?.title, "Long")
        XCTAssertLessThan(history.encoded().count, BrowsingHistory.largestEncoding)
    }

    func testTheFileRoundTripsAndRefusesWhatIsNotAHistory() throws {
        var history = BrowsingHistory()
        history.record(url: url("https://a.example/"), title: "Alpha “quoted” \\ ", time: 1_700_000_000.5)
        history.record(url: url("file:///tmp/page.html"), title: "Local", time: 1_700_000_100)
        let decoded = try BrowsingHistory.decode(history.encoded()).get()
        XCTAssertEqual(decoded, history)
        XCTAssertThrowsError(try BrowsingHistory.decode(Data("{".utf8)).get())
        XCTAssertThrowsError(try BrowsingHistory.decode(Data("{\"windows\":[]}".utf8)).get())
        XCTAssertThrowsError(try BrowsingHistory.decode(Data("{\"version\":99,\"entries\":[]}".utf8)).get())
        // What a person could not open from the address entry, and repeats, are dropped; hostile times clamp.
        let odd = """
        {"version":1,"entries":[{"url":"javascript:alert(1)","title":"x","time":1},
        {"url":"https://a.example/","title":"A","time":1e308},{"url":"https://a.example/","title":"A2","time":2}]}
        """
        let read = try BrowsingHistory.decode(Data(odd.utf8)).get()
        XCTAssertEqual(read.entries.map(\.title), ["A"])
    }
}
