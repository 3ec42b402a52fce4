import Foundation
import GtkProgress
import XCTest

/// Runs a load on the GLib main loop and keeps every event with the time it arrived.
@MainActor
final class LoadRecorder {
    let loader: PageLoader
    private(set) var events: [LoadEvent] = []
    /// Seconds since `start`, one per event.
    private(set) var times: [Double] = []
    private(set) var startTime = 0.0

    init(options: LoaderOptions = .init()) {
        loader = PageLoader(options: options)
    }

    func start(_ url: URL) {
        startTime = MainLoop.monotonicSeconds()
        loader.load(LoadRequest(url: url)) { [unowned self] event in
            events.append(event)
            times.append(MainLoop.monotonicSeconds() - startTime)
        }
    }

    var isDone: Bool {
        switch events.last {
        case .finished, .failed: return true
        default: return false
        }
    }

    /// Runs the main loop until the load ends; false on timeout.
    @discardableResult
    func wait(timeout: Double = 20) -> Bool {
        MainLoop.run(until: { isDone }, timeout: timeout)
    }

    var responses: [LoadResponse] {
        events.compactMap { if case .response(let response) = $0 { return response } else { return nil } }
    }

    var response: LoadResponse? { responses.first }

    var progress: [(received: Int64, expected: Int64?)] {
        events.compactMap {
            if case .progress(let received, let expected) = $0 { return (received, expected) } else { return nil }
        }
    }

    var page: LoadedPage? {
        if case .finished(let page) = events.last { return page }
        return nil
    }

    var error: LoadError? {
        if case .failed(let error) = events.last { return error }
        return nil
    }

    var milestones: [LoadMilestone] {
        events.compactMap { if case .milestone(let milestone) = $0 { return milestone } else { return nil } }
    }

    /// Event names in order, progress collapsed, milestones left out: "response progress… finished".
    var shape: String {
        var names: [String] = []
        for event in events {
            let name: String
            switch event {
            case .milestone: continue
            case .response: name = "response"
            case .progress: name = "progress…"
            case .finished: name = "finished"
            case .failed: name = "failed"
            }
            if names.last != name || name != "progress…" { names.append(name) }
        }
        return names.joined(separator: " ")
    }
}

/// Loads `url` to the end and returns what happened.
@MainActor
func record(_ url: URL, options: LoaderOptions = .init(),
            timeout: Double = 20, file: StaticString = #filePath, line: UInt = #line) -> LoadRecorder {
    let recorder = LoadRecorder(options: options)
    recorder.start(url)
    XCTAssertTrue(recorder.wait(timeout: timeout), "the load of \(url) did not end within \(timeout) s",
                  file: file, line: line)
    return recorder
}

/// What a successful load reports: the response, real transfer progress, the decoded document.
///
/// `@MainActor` with async tests: the loader belongs to the main actor (`PageLoader`).
@MainActor
final class LoaderEventTests: XCTestCase {
    let server = TestServer.shared

    func testPageWithContentLengthReportsRealProgressAgainstIt() async {
        let size = 200_000
        let run = record(server.url("/slow?size=\(size)&rate=400000"))
        XCTAssertEqual(run.shape, "response progress… finished")
        let response = try! XCTUnwrap(run.response)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.expectedLength, Int64(size))
        XCTAssertEqual(response.contentType, "text/html; charset=utf-8")
        XCTAssertEqual(response.finalURL, server.url("/slow?size=\(size)&rate=400000"))
        // Paced over about half a second: several steps, never backwards, all against Content-Length.
        XCTAssertGreaterThan(run.progress.count, 3)
        XCTAssertTrue(run.progress.allSatisfy { $0.expected == Int64(size) })
        XCTAssertEqual(run.progress.map(\.received), run.progress.map(\.received).sorted())
        XCTAssertEqual(run.progress.last?.received, Int64(size))
        let page = try! XCTUnwrap(run.page)
        XCTAssertEqual(page.kind, .html)
        XCTAssertEqual(page.byteCount, size)
        XCTAssertEqual(page.charset, "UTF-8")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(page.text.contains("<title>Slow page</title>"))
        XCTAssertFalse(run.loader.isLoading)
    }

    func testChunkedPageHasNoExpectedLength() async {
        let run = record(server.url("/chunked?size=150000&rate=300000"))
        XCTAssertEqual(run.shape, "response progress… finished")
        XCTAssertNil(run.response?.expectedLength)
        XCTAssertTrue(run.progress.allSatisfy { $0.expected == nil }, "chunked: the total stays unknown")
        XCTAssertEqual(run.progress.last?.received, 150_000)
        XCTAssertEqual(run.page?.byteCount, 150_000)
    }

    func testCloseDelimitedBodyHasNoExpectedLength() async {
        let run = record(server.url("/nolength?size=20000"))
        XCTAssertNil(run.response?.expectedLength)
        XCTAssertEqual(run.page?.byteCount, 20_000)
    }

    func testGzipProgressCountsCompressedBytesAgainstCompressedLength() async {
        let run = record(server.url("/gzip?size=300000&rate=0"))
        let compressed = try! XCTUnwrap(run.response?.expectedLength)
        XCTAssertLessThan(compressed, 300_000, "Content-Length is the compressed size")
        XCTAssertTrue(run.progress.allSatisfy { $0.expected == compressed && $0.received <= compressed },
                      "progress compares transfer bytes with the compressed Content-Length (the WKWebView progress article, docs/sources.md)")
        XCTAssertEqual(run.progress.last?.received, compressed)
        XCTAssertEqual(run.page?.byteCount, 300_000, "the document is decoded")
        XCTAssertTrue(run.page?.text.contains("line 000100") ?? false)
    }

    func testCompressionIsOffered() async {
        let run = record(server.url("/headers"))
        let text = run.page?.text.lowercased() ?? ""
        XCTAssertTrue(text.contains("accept-encoding:") && text.contains("gzip"), text)
        XCTAssertEqual(run.page?.kind, .text)
    }

    func testDelayBeforeHeadersIsWaitedFor() async throws {
        let run = record(server.url("/delay?seconds=0.8"))
        XCTAssertEqual(run.shape, "response progress… finished")
        let response = try XCTUnwrap(run.events.firstIndex { if case .response = $0 { true } else { false } })
        XCTAssertGreaterThanOrEqual(run.times[response], 0.7)
        XCTAssertTrue(run.page?.text.contains("Worth the wait") ?? false)
    }

    /// libcurl's phase times become milestones as the connection comes up, before the response, each once, in
    /// order; the first byte waits for the server.
    func testMilestonesComeAsTheConnectionComesUp() async throws {
        let run = record(server.url("/delay?seconds=0.5"))
        XCTAssertEqual(run.milestones, [.nameResolved, .connected, .firstByte], "no TLS over http")
        let index = { (milestone: LoadMilestone) in run.events.firstIndex(of: .milestone(milestone)) ?? -1 }
        let response = try XCTUnwrap(run.events.firstIndex { if case .response = $0 { true } else { false } })
        XCTAssertLessThan(index(.firstByte), response, "the first byte comes before the end of the headers")
        XCTAssertLessThan(index(.connected), index(.firstByte), "connected before the server answers")
        XCTAssertGreaterThanOrEqual(run.times[index(.firstByte)], 0.45, "the first byte when it answers")

        let redirected = record(server.url("/redirect?n=3"))
        XCTAssertEqual(redirected.milestones, [.nameResolved, .connected, .firstByte], "once per load, not per hop")
    }

    func testALocalFileHasNoMilestones() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gtkprogress-milestones-\(UUID()).html")
        try Data("<p>local</p>".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = record(file)
        XCTAssertEqual(run.milestones, [])
        XCTAssertEqual(run.shape, "response progress… finished")
    }

    func testRedirectChainReportsOnlyTheFinalResponse() async {
        server.resetCounts()
        let run = record(server.url("/redirect?n=5"))
        XCTAssertEqual(run.responses.count, 1)
        XCTAssertEqual(run.response?.status, 200)
        XCTAssertEqual(run.response?.finalURL, server.url("/redirect?n=0&status=302"))
        XCTAssertEqual(run.page?.finalURL, server.url("/redirect?n=0&status=302"))
        XCTAssertTrue(run.page?.text.contains("Redirect target") ?? false)
        let length = Int64(run.page?.byteCount ?? -1)
        XCTAssertTrue(run.progress.allSatisfy { $0.expected == length }, "progress is the final document's")
        XCTAssertEqual(server.requestCount(for: "/redirect"), 6)
    }

    func testTwentyRedirectsAreFollowed() async {
        let run = record(server.url("/redirect?n=20&status=301"))
        XCTAssertEqual(run.page?.finalURL, server.url("/redirect?n=0&status=301"))
    }

    func testErrorStatusesStillDeliverTheirBody() async {
        for (path, status, words) in [("/404", 404, "Error 404"), ("/500", 500, "Error 500"), ("/nowhere", 404, "Not Found")] {
            let run = record(server.url(path))
            XCTAssertEqual(run.shape, "response progress… finished", path)
            XCTAssertEqual(run.response?.status, status)
            XCTAssertEqual(run.page?.status, status)
            XCTAssertEqual(run.page?.kind, .html)
            XCTAssertTrue(run.page?.text.contains(words) ?? false, path)
        }
    }

    func testNoContent() async {
        let run = record(server.url("/empty"))
        XCTAssertEqual(run.response?.status, 204)
        XCTAssertEqual(run.page?.status, 204)
        XCTAssertEqual(run.page?.byteCount, 0)
        XCTAssertEqual(run.page?.text, "")
    }

    func testBinaryContentIsNotText() async {
        let typed = record(server.url("/binary?size=4096&type=image/png"))
        XCTAssertEqual(typed.page?.kind, .binary(mimeType: "image/png"))
        XCTAssertEqual(typed.page?.text, "")
        XCTAssertEqual(typed.page?.byteCount, 4096)
        XCTAssertEqual(Array(typed.page?.body.prefix(4) ?? []), [0x89, 0x50, 0x4E, 0x47])

        let untyped = record(server.url("/binary?size=4096&type=none"))
        XCTAssertEqual(untyped.page?.kind, .binary(mimeType: "image/png"), "sniffed from its signature")

        let mislabelled = record(server.url("/binary?size=4096&type=text/plain"))
        XCTAssertEqual(mislabelled.page?.kind, .binary(mimeType: "image/png"), "text/plain with NUL bytes")
        XCTAssertNil(mislabelled.loader.arrived()?.document(), "binary content is not rendered while it arrives")
    }

    func testThrottleLimitsTheReceivingSpeed() async {
        // The server sends at full speed; 100 KB at 100 KB/s takes about a second, with or without a length.
        let options = LoaderOptions(throttleBytesPerSecond: 100_000)
        for path in ["/slow?size=100000&rate=0", "/chunked?size=100000&rate=0"] {
            let run = record(server.url(path), options: options)
            XCTAssertEqual(run.page?.byteCount, 100_000, path)
            XCTAssertGreaterThan(run.times.last ?? 0, 0.8, path)
            XCTAssertGreaterThan(run.progress.count, 5, "\(path): progress in steps, not one burst")
        }
    }

    func testFileOpenedByTheUser() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loader-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a page.html")
        try Data("<html><title>Local</title><p>caf\u{E9}</p></html>".utf8).write(to: file)

        let run = record(file)
        XCTAssertEqual(run.shape, "response progress… finished")
        XCTAssertEqual(run.response?.status, 200)
        XCTAssertEqual(run.page?.kind, .html)
        XCTAssertEqual(run.page?.finalURL.path, file.path)
        XCTAssertTrue(run.page?.text.contains("café") ?? false)

        let text = directory.appendingPathComponent("notes.txt")
        try Data("just text".utf8).write(to: text)
        XCTAssertEqual(record(text).page?.kind, .text)
    }

    func testEventsNeverArriveInsideLoad() async {
        let recorder = LoadRecorder()
        recorder.start(URL(string: "ftp://127.0.0.1/file")!)
        XCTAssertTrue(recorder.events.isEmpty, "even an immediate refusal waits for the main loop")
        XCTAssertTrue(recorder.loader.isLoading)
        XCTAssertTrue(recorder.wait())
        XCTAssertFalse(recorder.loader.isLoading)
    }

    func testArrivedBodyGrowsWhileLoading() async {
        let recorder = LoadRecorder()
        recorder.start(server.url("/slow?size=200000&rate=400000"))
        XCTAssertNil(recorder.loader.arrived())
        var samples: [Int] = []
        let sampler = MainLoopTimer(milliseconds: 100) {
            if let body = recorder.loader.arrived() { samples.append(body.bytes.count) }
            return true
        }
        XCTAssertTrue(recorder.wait())
        sampler.cancel()
        XCTAssertGreaterThan(samples.count, 1)
        XCTAssertEqual(samples, samples.sorted())
        XCTAssertLessThan(samples.first ?? .max, 200_000)
        XCTAssertNil(recorder.loader.arrived(), "nothing in progress after the end")
    }

    func testEveryProgressEventCanReadWhatArrivedEvenAfterTheTransferEnded() async {
        // A small page comes whole in one turn of the main loop: its progress events are handed on after its
        // transfer has ended, and what they count is still readable then (the image preloads look at it).
        let loader = PageLoader()
        var seen: [(received: Int64, arrived: Int?, receiving: Bool)] = []
        var done = false
        loader.load(LoadRequest(url: server.url("/page?title=Whole"))) { event in
            switch event {
            case .progress(let received, _):
                seen.append((received, loader.arrived()?.bytes.count, loader.isReceiving))
            case .finished, .failed: done = true
            case .response, .milestone: break
            }
        }
        XCTAssertTrue(MainLoop.run(until: { done }, timeout: 20))
        let last = seen.last { $0.received > 0 }
        XCTAssertNotNil(last)
        for event in seen where event.received > 0 {
            XCTAssertEqual(event.arrived, Int(event.received), "bytes counted and bytes readable agree")
        }
        XCTAssertNil(loader.arrived(), "let go once the load has ended")
        XCTAssertFalse(loader.isReceiving)
    }

    func testFetchBlocksUntilTheEnd() async {
        switch PageLoader.fetch(LoadRequest(url: server.url("/page?title=Fetched"))) {
        case .success(let page): XCTAssertTrue(page.text.contains("<title>Fetched</title>"))
        case .failure(let error): XCTFail(error.message)
        }
        switch PageLoader.fetch(LoadRequest(url: server.url("/loop")), options: LoaderOptions()) {
        case .success: XCTFail("a redirect loop must fail")
        case .failure(let error): XCTAssertEqual(error.kind, .tooManyRedirects)
        }
    }
}
