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
        XCTAssertEqual(Array(rows.suffix(9)), [
            "1.9\t0.417\t1.000",
            "2.0\t0.433\t1.000",
            "2.1\t0.555\t1.000",
            "2.2\t0.825\t1.000",
            "2.3\t1.000\t1.000",
            "2.4\t1.000\t1.000",
            "2.5\t1.000\t0.600",
            "2.6\t1.000\t0.200",
            "2.7\t0.000\t0.000",
        ], "a 0.25 s run to 1.0, a stay, a 0.25 s fade from +0.4 s, the reset at +0.7 s")
    }

    func testFinishBetweenTicksAndUntil() {
        let rows = lines(CurveTimeline.render(curve: .builtInWeChat, finishAt: 1.05, until: 3)).dropLast()
        XCTAssertEqual(rows.count, 31)
        XCTAssertEqual(rows[10], "1.0\t0.267\t1.000")
        XCTAssertEqual(rows[11], "1.1\t0.320\t1.000", "the run began at 1.05")
        XCTAssertEqual(rows[13], "1.3\t1.000\t1.000", "1.0 at +0.25 s, here 1.30")
        XCTAssertEqual(rows[14], "1.4\t1.000\t1.000")
        XCTAssertEqual(rows[15], "1.5\t1.000\t0.800", "the fade began at +0.4 s, here 1.45")
        XCTAssertEqual(rows[16], "1.6\t1.000\t0.400")
        XCTAssertEqual(rows[17], "1.7\t1.000\t0.000", "opacity 0 at +0.65 s")
        XCTAssertEqual(rows[18], "1.8\t0.000\t0.000")
        XCTAssertEqual(rows.last, "3.0\t0.000\t0.000")
    }

    func testSmoothFinishAtEighteenSeconds() throws {
        let smooth = try preset("smooth")
        let rows = lines(CurveTimeline.render(curve: smooth, finishAt: 18)).dropLast()
        XCTAssertEqual(rows.count, 189)
        XCTAssertEqual(rows[0], "0.0\t0.000\t0.000", "hidden until 0.25 s")
        XCTAssertEqual(rows[3], "0.3\t0.073\t1.000")
        XCTAssertEqual(rows[20], "2.0\t0.411\t1.000")
        XCTAssertEqual(rows[180], "18.0\t0.890\t1.000")
        XCTAssertEqual(rows[185], "18.5\t1.000\t1.000")
        XCTAssertEqual(rows[187], "18.7\t1.000\t0.400")
        XCTAssertEqual(rows[188], "18.8\t1.000\t0.000")
    }
}
