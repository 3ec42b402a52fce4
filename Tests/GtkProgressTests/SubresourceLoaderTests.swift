import Foundation
@testable import GtkProgress
import XCTest

/// A page's images on the page loader's multi handle, against the loopback server.
///
/// `@MainActor` with async tests: the loader belongs to the main actor (`PageLoader`).
@MainActor
final class SubresourceLoaderTests: XCTestCase {
    let server = TestServer.shared

    /// Fetches `requests` and runs the main loop until each has ended; the events by request.
    private func fetch(_ requests: [SubresourceRequest], with loader: PageLoader = PageLoader(),
                       file: StaticString = #filePath, line: UInt = #line) -> [Int: [SubresourceEvent]] {
        var events: [Int: [SubresourceEvent]] = [:]
        var ended = 0
        loader.fetch(requests) { event in
            events[event.id, default: []].append(event)
            switch event {
            case .finished, .failed: ended += 1
            default: break
            }
        }
        XCTAssertTrue(MainLoop.run(until: { ended == requests.count }, timeout: 30), "every request ends",
                      file: file, line: line)
        return events
    }

    private func stats() -> [String: Int] {
        let body = server.get("/image-stats").body
        return (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Int]) ?? [:]
    }

    func testImagesShareConnectionsWithinTheLimits() async {
        _ = server.get("/image-stats/reset")
        let loader = PageLoader()
        let requests = (0..<30).map { SubresourceRequest(id: $0, url: server.url("/image?n=\($0)&delay=0.2")) }
        let events = fetch(requests, with: loader)
        for id in 0..<30 {
            guard case .finished(_, let bytes, let type)? = events[id]?.last else {
                return XCTFail("image \(id) ends with \(String(describing: events[id]?.last))")
            }
            XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG")
            XCTAssertEqual(type, "image/png")
            guard case .started? = events[id]?.first else { return XCTFail("image \(id) starts first") }
        }
        let statistics = loader.subresourceStatistics
        XCTAssertEqual(statistics.peakPerHost, SubresourceQueue.maxPerHost, "six at a time to one host")
        XCTAssertLessThanOrEqual(statistics.peak, SubresourceQueue.maxTransfers)
        let seen = stats()
        XCTAssertEqual(seen["requests"], 30)
        XCTAssertLessThanOrEqual(seen["peak"] ?? 99, SubresourceQueue.maxPerHost, "the server never saw more at once")
        XCTAssertLessThanOrEqual(seen["connections"] ?? 99, SubresourceQueue.maxPerHost,
                                 "30 images over at most six connections: each is reused")
        XCTAssertTrue(loader.holdsConnections, "kept for the next request")
    }

    /// An image asked for while its document arrived (`preload`) is taken over by the page's request for the same
    /// address, with what it brought meanwhile, and is not asked for again; a preload no request takes over is
    /// let go.
    func testAPreloadIsTakenOverByThePagesRequestAndTheRestLetGo() async {
        _ = server.get("/image-stats/reset")
        let loader = PageLoader()
        let taken = server.url("/image?n=1")
        let unused = server.url("/image?n=2&delay=5")
        loader.preload([taken, unused])
        XCTAssertTrue(loader.isPreloaded(taken) && loader.isPreloaded(unused))
        XCTAssertTrue(MainLoop.run(until: { self.stats()["requests"] == 2 }, timeout: 10), "both on the wire")
        let events = fetch([SubresourceRequest(id: 7, url: taken)], with: loader)
        XCTAssertFalse(loader.isPreloaded(taken), "taken over")
        guard case .finished(7, let bytes, let type)? = events[7]?.last else {
            return XCTFail("the request ends with the preload's body: \(String(describing: events[7]))")
        }
        XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertEqual(type, "image/png")
        guard case .started(7)? = events[7]?.first else { return XCTFail("and its events from the start") }
        XCTAssertTrue(events.keys.allSatisfy { $0 == 7 }, "no preload's own id is seen")
        loader.dropUnclaimedPreloads()
        XCTAssertFalse(loader.isPreloaded(unused))
        XCTAssertFalse(loader.isFetchingSubresources, "the transfer no one took over is stopped")
        XCTAssertEqual(stats()["requests"], 2, "nothing asked for twice")
    }

    func testTheDocumentAndItsImagesUseOneMultiHandle() async {
        _ = server.get("/image-stats/reset")
        let loader = PageLoader()
        var finished = false
        loader.load(LoadRequest(url: server.url("/slow?size=50000&rate=100000"))) { event in
            if case .finished = event { finished = true }
        }
        // Images asked for while the document still arrives share its handle and its connections.
        let events = fetch((0..<8).map { SubresourceRequest(id: $0, url: server.url("/image?n=\($0)")) }, with: loader)
        XCTAssertEqual(events.count, 8)
        XCTAssertTrue(MainLoop.run(until: { finished }, timeout: 10))
        XCTAssertLessThanOrEqual(stats()["connections"] ?? 99, SubresourceQueue.maxPerHost)
    }

    func testDataURLsAreDecodedWithoutAConnection() async {
        let loader = PageLoader()
        let events = fetch([SubresourceRequest(id: 7, url: URL(string: "data:image/gif;base64,R0lGODlhAQABAAAAACw=")!)],
                           with: loader)
        guard case .finished(7, let bytes, let type)? = events[7]?.last else { return XCTFail("\(events)") }
        XCTAssertEqual(Array(bytes.prefix(6)), Array("GIF89a".utf8))
        XCTAssertEqual(type, "image/gif")
        XCTAssertFalse(loader.holdsConnections, "no libcurl for a data: image")
    }

    func testAnImageOverItsCapFails() async {
        let events = fetch([SubresourceRequest(id: 1, url: server.url("/image?w=300&h=300&length=0"), maxBytes: 100)])
        guard case .failed(1, let message)? = events[1]?.last else { return XCTFail("\(events)") }
        XCTAssertTrue(message.contains("larger than"), message)
    }

    func testAMissingImageFails() async {
        let events = fetch([SubresourceRequest(id: 1, url: server.url("/404"))])
        guard case .failed(1, let message)? = events[1]?.last else { return XCTFail("\(events)") }
        XCTAssertTrue(message.contains("404"), message)
    }

    func testCancelStopsEveryImage() async {
        let loader = PageLoader()
        var events: [SubresourceEvent] = []
        loader.fetch((0..<10).map { SubresourceRequest(id: $0, url: server.url("/image?n=\($0)&delay=2")) }) {
            events.append($0)
        }
        _ = MainLoop.run(until: { loader.subresourceStatistics.running == 6 }, timeout: 5)
        loader.cancel()
        XCTAssertEqual(loader.subresourceStatistics.running, 0)
        XCTAssertFalse(loader.isFetchingSubresources)
        let count = events.count
        _ = MainLoop.run(until: { false }, timeout: 0.3)
        XCTAssertEqual(events.count, count, "no event after cancel")
    }
}
