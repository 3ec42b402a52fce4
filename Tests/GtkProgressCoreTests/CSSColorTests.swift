@testable import GtkProgressCore
import XCTest

final class CSSColorTests: XCTestCase {
    private func color(_ text: String) -> Contrast.Color? {
        CSSColor.parse(CSSParser.parseComponents(text))
    }

    private func rgb(_ r: Int, _ g: Int, _ b: Int) -> Contrast.Color {
        Contrast.Color(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255)
    }

    func testColourValues() {
        XCTAssertEqual(color("#f00"), rgb(255, 0, 0))
        XCTAssertEqual(color("#F00f"), rgb(255, 0, 0))
        XCTAssertEqual(color("#123456"), rgb(0x12, 0x34, 0x56))
        XCTAssertEqual(color("#123456ff"), rgb(0x12, 0x34, 0x56))
        XCTAssertEqual(color(" navy "), rgb(0, 0, 128))
        XCTAssertEqual(color("Grey"), rgb(128, 128, 128))
        XCTAssertEqual(color("rgb(10, 20, 30)"), rgb(10, 20, 30))
        XCTAssertEqual(color("rgb(10 20 30)"), rgb(10, 20, 30))
        XCTAssertEqual(color("rgba(10, 20, 30, 1)"), rgb(10, 20, 30))
        XCTAssertEqual(color("rgb(100%, 0%, 50% / 100%)"), rgb(255, 0, 128))
        XCTAssertEqual(color("rgb(300, -5, 1e9)"), rgb(255, 0, 255), "channels are clamped, never trap")
        // Transparency, unknown names, system colours and malformed values leave the theme's colour.
        for unread in ["#12345680", "rgba(0,0,0,0.5)", "rgb(0 0 0 / 50%)", "transparent", "currentcolor",
                       "canvastext", "#12", "#ggg", "rgb(1, 2)", "rgb(a, b, c)", "hsl(0, 0%, 0%)", "red blue", ""] {
            XCTAssertNil(color(unread), unread)
        }
    }

    /// WCAG 2's 4.5:1 for text, checked for Adwaita's light and dark page colours.
    func testPageColoursOnlyWhereTheyKeepContrast() {
        let light = (text: rgb(0x2E, 0x34, 0x36), background: rgb(0xFF, 0xFF, 0xFF))
        let dark = (text: rgb(0xEE, 0xEE, 0xEC), background: rgb(0x2D, 0x2D, 0x2D))
        let navy = rgb(0, 0, 128), yellow = rgb(255, 255, 0), white = rgb(255, 255, 255), black = rgb(0, 0, 0)
        // Navy text: kept on the light page (14:1), not on the dark one (1.6:1).
        XCTAssertEqual(CSSColor.readableColors(text: navy, background: nil, themeText: light.text,
                                               themeBackground: light.background).text, navy)
        XCTAssertNil(CSSColor.readableColors(text: navy, background: nil, themeText: dark.text,
                                             themeBackground: dark.background).text)
        // Yellow text: unreadable on white, kept on the dark page.
        XCTAssertNil(CSSColor.readableColors(text: yellow, background: nil, themeText: light.text,
                                             themeBackground: light.background).text)
        XCTAssertEqual(CSSColor.readableColors(text: yellow, background: nil, themeText: dark.text,
                                               themeBackground: dark.background).text, yellow)
        // A pair that holds is painted as a pair in either theme.
        for theme in [light, dark] {
            let pair = CSSColor.readableColors(text: white, background: navy, themeText: theme.text,
                                               themeBackground: theme.background)
            XCTAssertEqual(pair.text, white)
            XCTAssertEqual(pair.background, navy)
        }
        // A background alone is used only when the theme's text stays readable on it.
        XCTAssertEqual(CSSColor.readableColors(text: nil, background: yellow, themeText: light.text,
                                               themeBackground: light.background).background, yellow)
        XCTAssertNil(CSSColor.readableColors(text: nil, background: yellow, themeText: dark.text,
                                             themeBackground: dark.background).background)
        // A pair that fails keeps whichever half still reads on the theme: black on navy keeps black text on the
        // light page and the navy background under the dark theme's light text; grey on silver keeps nothing there.
        let failing = CSSColor.readableColors(text: black, background: navy, themeText: light.text,
                                              themeBackground: light.background)
        XCTAssertEqual(failing.text, black)
        XCTAssertNil(failing.background)
        let onDark = CSSColor.readableColors(text: black, background: navy, themeText: dark.text,
                                             themeBackground: dark.background)
        XCTAssertNil(onDark.text)
        XCTAssertEqual(onDark.background, navy)
        let grey = rgb(128, 128, 128), silver = rgb(192, 192, 192)
        let none = CSSColor.readableColors(text: grey, background: silver, themeText: dark.text,
                                           themeBackground: dark.background)
        XCTAssertNil(none.text)
        XCTAssertNil(none.background)
        // Whatever is chosen, what is painted keeps 4.5:1.
        for theme in [light, dark] {
            for text in [navy, yellow, white, black, grey, nil] {
                for background in [navy, yellow, white, black, silver, nil] {
                    let chosen = CSSColor.readableColors(text: text, background: background, themeText: theme.text,
                                                         themeBackground: theme.background)
                    let ratio = Contrast.ratio(chosen.text ?? theme.text, chosen.background ?? theme.background)
                    XCTAssertGreaterThanOrEqual(ratio, Contrast.text)
                }
            }
        }
    }
}
