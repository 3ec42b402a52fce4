import XCTest
@testable import GtkProgressCore

final class ContrastTests: XCTestCase {
    private func color(_ hex: Int) -> Contrast.Color {
        Contrast.Color(red: Double(hex >> 16 & 0xff) / 255, green: Double(hex >> 8 & 0xff) / 255,
                       blue: Double(hex & 0xff) / 255)
    }

    func testRatiosMatchWCAGExamples() {
        XCTAssertEqual(Contrast.ratio(color(0x000000), color(0xffffff)), 21, accuracy: 0.001)
        XCTAssertEqual(Contrast.ratio(color(0x777777), color(0xffffff)), 4.48, accuracy: 0.01)
        XCTAssertEqual(Contrast.ratio(color(0x3584e4), color(0x2d2d2d)), 3.65, accuracy: 0.01)
    }

    /// Adwaita's light link colour is kept as it is; its dark one is lightened just enough.
    func testAThemeColourIsMovedOnlyWhenItFallsShort() {
        let lightLink = color(0x1b6acb)
        XCTAssertEqual(Contrast.readable(lightLink, on: color(0xffffff)), lightLink)
        let darkBase = color(0x2d2d2d)
        let fixed = Contrast.readable(color(0x3584e4), on: darkBase)
        let ratio = Contrast.ratio(fixed, darkBase)
        XCTAssertGreaterThanOrEqual(ratio, 4.5)
        XCTAssertLessThan(ratio, 4.9, "no further than needed")
        XCTAssertGreaterThan(fixed.blue, fixed.red, "still blue")
        let onLight = Contrast.readable(color(0x88aaff), on: color(0xffffff))
        XCTAssertGreaterThanOrEqual(Contrast.ratio(onLight, color(0xffffff)), 4.5, "darkened on a light page")
        XCTAssertGreaterThanOrEqual(Contrast.ratio(Contrast.readable(color(0x3584e4), on: darkBase,
                                                                     minimum: Contrast.graphics), darkBase), 3)
    }
}
