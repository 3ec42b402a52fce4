import XCTest
@testable import GtkProgressCore

/// The `--print-curve` text.
final class ProgressTimelineTests: XCTestCase {
    func lines(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    func testWeChatWithoutFinishRunsTwentySeconds() {
        let output = lines(CurveTimeline.render(curve: .builtInWeChat))
        XCTAssertEqual(output.last, "", "ends with a newline")
        let rows = output.dropLast()
        XCTAssertEqual(rows.count, 201)
        XCTAssertEqual(rows.first, "0.0\t0.100\t1.000")
        XCTAssertEqual(rows[15], "1.5\t0.350\t1.000")
        XCTAssertEqual(rows[30], "3.0\t0.600\t1.000")
        XCTAssertEqual(rows[70], "7.0\t0.800\t1.000")
        XCTAssertEqual(rows[150], "15.0\t0.900\t1.000")
        XCTAssertEqual(rows.last, "20.0\t0.900\t1.000")
        for (i, row) in rows.enumerated() {
            let fields = row.split(separator: "\t")
            XCTAssertEqual(fields.count, 3)
            XCTAssertEqual(String(fields[0]), String(format: "%.1f", Double(i) / 10))
        }
    }

    func testFinishAtTwoSecondsEndsAtTheReset() {
        let rows = lines(CurveTimeline.render(curve: .builtInWeChat, finishAt: 2)).dropLast()
        XCTAssertEqual(Array(rows.suffix(7)), [
            "1.9\t0.417\t1.000",
            "2.0\t1.000\t1.000",
            "2.1\t1.000\t1.000",
            "2.2\t1.000\t1.000",
            "2.3\t1.000\t1.000",
            "2.4\t1.000\t0.000",
            "2.5\t0.000\t0.000",
        ])
    }

    func testFinishBetweenTicksAndUntil() {
        let rows = lines(CurveTimeline.render(curve: .builtInWeChat, finishAt: 1.05, until: 3)).dropLast()
        XCTAssertEqual(rows.count, 31)
        XCTAssertEqual(rows[10], "1.0\t0.267\t1.000")
        XCTAssertEqual(rows[11], "1.1\t1.000\t1.000")
        XCTAssertEqual(rows[13], "1.3\t1.000\t1.000")
        XCTAssertEqual(rows[14], "1.4\t1.000\t0.500", "halfway through the 0.1 s fade")
        XCTAssertEqual(rows[15], "1.5\t1.000\t0.000", "opacity 0 at +0.4 s, here 1.45")
        XCTAssertEqual(rows[16], "1.6\t0.000\t0.000")
        XCTAssertEqual(rows.last, "3.0\t0.000\t0.000")
    }

    func testSmoothFinishAtEighteenSeconds() throws {
        let smooth = try preset("smooth")
        let rows = lines(CurveTimeline.render(curve: smooth, finishAt: 18)).dropLast()
        XCTAssertEqual(rows.count, 187)
        XCTAssertEqual(rows[20], "2.0\t0.411\t1.000")
        XCTAssertEqual(rows[180], "18.0\t0.890\t1.000")
        XCTAssertEqual(rows[185], "18.5\t1.000\t1.000")
        XCTAssertEqual(rows[186], "18.6\t0.000\t0.000")
    }
}
