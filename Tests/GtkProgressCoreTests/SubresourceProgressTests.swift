import FoundationEssentials
@testable import GtkProgressCore
import XCTest

/// What a page may fetch for itself, and how the bar counts what it fetches.
final class SubresourceProgressTests: XCTestCase {
    /// The `real` preset, showing real progress as it comes and at once.
    private func shownAtOnce() throws -> ProgressCurve {
        var curve = try preset("real")
        curve.realProgressRate = nil
        curve.appearAfter = 0
        return curve
    }

    func testSubresourcePolicyTable() {
        let web = URL(string: "https://example.org/page.html")!
        let local = URL(fileURLWithPath: "/tmp/page.html")
        let rows: [(String, URL, Bool)] = [
            ("https://example.org/a.png", web, true),
            ("http://example.org/a.png", web, true),
            ("data:image/png;base64,AAAA", web, true),
            ("file:///etc/passwd", web, false),
            ("ftp://example.org/a.png", web, false),
            ("javascript:alert(1)", web, false),
            ("https://example.org/a.png", local, true),
            ("data:image/png;base64,AAAA", local, true),
            ("file:///tmp/a.png", local, true),
            ("gopher://example.org/a.png", local, false),
        ]
        for (address, page, allowed) in rows {
            let refusal = NavigationPolicy.subresourceRefusal(for: URL(string: address)!, page: page)
            XCTAssertEqual(refusal == nil, allowed, "\(address) from \(page): \(refusal ?? "allowed")")
        }
    }

    func testEachPendingRequestCountsAsSixteenKibibytes() {
        var progress = ResourceProgress()
        progress.begin(1)
        progress.begin(2)
        XCTAssertEqual(progress.value, 0)
        progress.received(1, bytes: 8 * 1024)
        // 8 KiB of the 32 KiB the two pending requests are estimated at.
        XCTAssertEqual(progress.value, ResourceProgress.ceiling * 0.25, accuracy: 1e-9)
        progress.response(2, expected: 1_000_000)
        let before = progress.value
        progress.received(2, bytes: 1000)
        XCTAssertLessThan(progress.value - before, 0.01, "a known large length makes each byte count less")
        XCTAssertFalse(progress.isComplete)
    }

    func testTheValueNeverPassesTheCeilingUntilEveryRequestIsDone() {
        var progress = ResourceProgress()
        for id in 0..<12 { progress.begin(id) }
        var last = 0.0
        for id in 0..<11 {
            // Each overruns its estimate: re-estimated at twice what arrived, never past the ceiling.
            for _ in 0..<10 { progress.received(id, bytes: 50_000) }
            progress.complete(id)
            XCTAssertGreaterThanOrEqual(progress.value, last)
            XCTAssertLessThan(progress.value, ResourceProgress.ceiling + 1e-12)
            last = progress.value
        }
        XCTAssertFalse(progress.isComplete, "one request is still pending")
        progress.complete(11)
        XCTAssertEqual(progress.value, 1, "1.0 only when every subresource is done")
        XCTAssertTrue(progress.isComplete)
    }

    func testTheBarWaitsForSubresources() {
        var tracker = ProgressTracker(curve: try! shownAtOnce())
        tracker.start(at: 100)
        tracker.expectSubresources()
        tracker.realProgress(received: 100, expected: 100, at: 100.5)
        tracker.tick(now: 100.6)
        XCTAssertEqual(tracker.snapshot.fraction, ProgressTracker.documentShare, accuracy: 1e-9,
                       "the document alone fills its share")
        tracker.subresourceProgress(0.5, at: 101)
        tracker.tick(now: 101.1)
        XCTAssertEqual(tracker.snapshot.fraction, 0.75, accuracy: 1e-9)
        tracker.subresourceProgress(0.2, at: 101.2)
        tracker.tick(now: 101.3)
        XCTAssertEqual(tracker.snapshot.fraction, 0.75, accuracy: 1e-9, "never backwards")
        tracker.subresourceProgress(1, at: 101.4)
        tracker.tick(now: 101.5)
        XCTAssertEqual(tracker.snapshot.fraction, ProgressTracker.unfinishedCeiling, accuracy: 1e-9,
                       "never full before the load is over")
        XCTAssertEqual(tracker.phase, .loading)
        tracker.finish(at: 102)
        tracker.tick(now: 102.3)
        XCTAssertEqual(tracker.snapshot.fraction, 1)
    }

    func testADocumentAloneNeverShowsFullBeforeItFinishes() {
        var tracker = ProgressTracker(curve: try! shownAtOnce())
        tracker.start(at: 100)
        tracker.realProgress(received: 100, expected: 100, at: 100.5)
        tracker.tick(now: 100.6)
        XCTAssertEqual(tracker.snapshot.fraction, ProgressTracker.unfinishedCeiling, accuracy: 1e-9)
    }
}
