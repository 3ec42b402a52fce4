import XCTest
@testable import GtkProgressCore

/// When a readable socket is read: at once, or after gathering what a slow server trickles.
final class ReadPacingTests: XCTestCase {
    func testTheFirstReadIsAtOnce() {
        let pacing = ReadPacing()
        XCTAssertEqual(pacing.delay(pending: 1024, now: 5), 0)
    }

    func testATrickleIsGatheredForAtMostTheGatherTime() {
        var pacing = ReadPacing()
        pacing.read(1024, at: 10.00)
        // 1 KB every 10 ms: 100 KB/s, a slow server.
        XCTAssertEqual(pacing.delay(pending: 1024, now: 10.01), 0, "after the first read the rate is not known")
        pacing.read(1024, at: 10.01)
        XCTAssertEqual(pacing.lastRate, 102_400, accuracy: 1)
        XCTAssertEqual(pacing.delay(pending: 1024, now: 10.02), ReadPacing.gatherSeconds - 0.01, accuracy: 1e-9)
        XCTAssertEqual(pacing.delay(pending: 1024, now: 10.0599), 0.0001, accuracy: 1e-9)
        XCTAssertEqual(pacing.delay(pending: 5 * 1024, now: 10.06), 0, "the gather time is over")
        // What came in those 50 ms is read in one go, and the rate is still slow: the next read waits again.
        pacing.read(5 * 1024, at: 10.06)
        XCTAssertEqual(pacing.lastRate, 102_400, accuracy: 1)
        XCTAssertGreaterThan(pacing.delay(pending: 1024, now: 10.07), 0)
    }

    func testAFastTransferIsReadAtOnce() {
        var pacing = ReadPacing()
        pacing.read(1448, at: 1.0)
        pacing.read(1448, at: 1.0001)
        XCTAssertGreaterThan(pacing.lastRate, ReadPacing.slowBytesPerSecond)
        XCTAssertEqual(pacing.delay(pending: 1448, now: 1.0002), 0)
    }

    func testASocketHoldingEnoughIsReadAtOnceEvenWhenSlowBefore() {
        var pacing = ReadPacing()
        pacing.read(100, at: 1.0)
        pacing.read(100, at: 1.1)
        XCTAssertEqual(pacing.delay(pending: ReadPacing.enoughBytes - 1, now: 1.11), ReadPacing.gatherSeconds - 0.01,
                       accuracy: 1e-9)
        XCTAssertEqual(pacing.delay(pending: ReadPacing.enoughBytes, now: 1.11), 0)
    }

    func testTheEndOfTheStreamAndAnUnknownAmountAreReadAtOnce() {
        var pacing = ReadPacing()
        pacing.read(100, at: 1.0)
        pacing.read(100, at: 1.1)
        XCTAssertEqual(pacing.delay(pending: 0, now: 1.11), 0, "readable with nothing to read: the peer closed")
        XCTAssertEqual(pacing.delay(pending: -1, now: 1.11), 0)
        pacing.read(-1, at: 1.12)
        XCTAssertEqual(pacing.delay(pending: 10, now: 1.13), 0, "a read of an unknown amount forgets the rate")
    }

    func testAClockThatDoesNotMoveNeverDividesByZero() {
        var pacing = ReadPacing()
        pacing.read(100, at: 3)
        pacing.read(100, at: 3)
        XCTAssertEqual(pacing.lastRate, .infinity)
        XCTAssertEqual(pacing.delay(pending: 100, now: 3), 0)
    }
}
