import Foundation
import GtkProgress
import XCTest

/// Stop and a new navigation end a transfer at once; nothing of it arrives afterwards.
///
/// `@MainActor` with async tests: the loader belongs to the main actor (`PageLoader`).
@MainActor
final class LoaderCancelTests: XCTestCase {
    let server = TestServer.shared

    /// Runs the main loop for `seconds`.
    func spin(_ seconds: Double) {
        _ = MainLoop.run(until: { false }, timeout: seconds)
    }

    func testNoEventAfterCancelMidTransfer() async {
        let loader = PageLoader()
        var events: [LoadEvent] = []
        var cancelled = false
        var afterCancel: [LoadEvent] = []
        loader.load(LoadRequest(url: server.url("/slow?size=400000&rate=400000"))) { event in
            if cancelled { afterCancel.append(event) } else { events.append(event) }
        }
        // Mid-transfer: the response and some progress have arrived.
        XCTAssertTrue(MainLoop.run(until: { events.filter { if case .progress = $0 { true } else { false } }.count >= 2 },
                                   timeout: 10))
        loader.cancel()
        cancelled = true
        XCTAssertFalse(loader.isLoading)
        XCTAssertNil(loader.arrived())
        spin(1.2)
        XCTAssertTrue(afterCancel.isEmpty, "events after cancel: \(afterCancel)")
    }

    func testCancelRightAfterLoadDeliversNothing() async {
        for url in [server.url("/page"), URL(fileURLWithPath: "/no/such/file"), server.url("/loop")] {
            let loader = PageLoader()
            var events: [LoadEvent] = []
            loader.load(LoadRequest(url: url)) { events.append($0) }
            loader.cancel()
            spin(0.3)
            XCTAssertTrue(events.isEmpty, "\(url): \(events)")
        }
    }

    func testCancelFromInsideTheListener() async {
        let loader = PageLoader()
        var events: [LoadEvent] = []
        loader.load(LoadRequest(url: server.url("/slow?size=200000&rate=400000"))) { event in
            events.append(event)
            if case .response = event { loader.cancel() }
        }
        spin(1)
        let afterMilestones = events.filter { if case .milestone = $0 { false } else { true } }
        XCTAssertEqual(afterMilestones.count, 1, "only the response that cancelled: \(events)")
        if case .response = events.last {} else { XCTFail("the response was the last event: \(events)") }
        XCTAssertFalse(loader.isLoading)
    }

    func testNewLoadReplacesTheOldOne() async {
        let loader = PageLoader()
        var first: [LoadEvent] = []
        var second: [LoadEvent] = []
        var firstStopped = false
        loader.load(LoadRequest(url: server.url("/slow?size=400000&rate=400000"))) { event in
            if firstStopped { XCTFail("event of the replaced load: \(event)") }
            first.append(event)
        }
        XCTAssertTrue(MainLoop.run(until: { first.count >= 2 }, timeout: 10))
        firstStopped = true
        var done = false
        loader.load(LoadRequest(url: server.url("/page?title=Second"))) { event in
            second.append(event)
            if case .finished = event { done = true }
        }
        XCTAssertTrue(MainLoop.run(until: { done }, timeout: 10))
        spin(0.5)
        guard case .finished(let page) = second.last else { return XCTFail("\(second)") }
        XCTAssertTrue(page.text.contains("<title>Second</title>"))
    }

    func testNewLoadFromInsideTheListener() async {
        let loader = PageLoader()
        var titles: [String] = []
        var done = false
        let second = server.url("/page?title=Two")
        loader.load(LoadRequest(url: server.url("/page?title=One"))) { event in
            guard case .finished(let page) = event else { return }
            titles.append(page.text.contains("One") ? "One" : "?")
            loader.load(LoadRequest(url: second)) { event in
                guard case .finished(let page) = event else { return }
                titles.append(page.text.contains("Two") ? "Two" : "?")
                done = true
            }
        }
        XCTAssertTrue(MainLoop.run(until: { done }, timeout: 10))
        XCTAssertEqual(titles, ["One", "Two"])
    }

    func testReleasingTheLoaderMidTransfer() async {
        var loader: PageLoader? = PageLoader()
        var events: [LoadEvent] = []
        loader?.load(LoadRequest(url: server.url("/slow?size=200000&rate=400000"))) { event in
            events.append(event)
            if case .progress = event { loader = nil }
        }
        spin(1)
        XCTAssertNil(loader)
        XCTAssertEqual(events.filter { if case .progress = $0 { true } else { false } }.count, 1)
    }

    func testStopIsImmediateOnTheWire() async {
        // The stalled server holds its connection until the client leaves; after cancel, a new load on a
        // fresh loader still works at once: nothing is left waiting.
        let loader = PageLoader()
        var events: [LoadEvent] = []
        loader.load(LoadRequest(url: server.url("/stall?after=100"))) { events.append($0) }
        XCTAssertTrue(MainLoop.run(until: { !events.isEmpty }, timeout: 10))
        loader.cancel()
        let seen = events.count
        let run = record(server.url("/page"))
        XCTAssertNotNil(run.page)
        // PageLoader.cancel: "no event of it arrives afterwards", though the main loop ran a whole load since.
        XCTAssertEqual(events.count, seen, "an event of the stopped load arrived: \(events)")
    }
}
