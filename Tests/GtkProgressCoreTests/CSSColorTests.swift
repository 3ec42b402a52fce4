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
        XCTAssertEqual(color("rgb(100% 0% 50% / 100%)"), rgb(255, 0, 128))
        XCTAssertEqual(color("rgb(300, -5, 1e9)"), rgb(255, 0, 255), "channels are clamped, never trap")
        // Transparency, unknown names, system colours and malformed values leave the theme's colour.
        for unread in ["#12345680", "rgba(0,0,0,0.5)", "rgb(0 0 0 / 50%)", "transparent", "currentcolor",
                       "canvastext", "#12", "#ggg", "rgb(1, 2)", "rgb(a, b, c)", "red blue", "",
                       "rgb(100%, 0%, 50% / 100%)", "rgb(255, 0 0)", "rgb(none, 0, 0)", "hsl(10%, 0%, 0%)",
                       "rgb(1 2 3 / 1 / 1)", "hsl(120 100% 50% 1)", "lab(50% 40 59)", "color-mix(in srgb, red, blue)"] {
            XCTAssertNil(color(unread), unread)
        }
    }

    private func rgba(_ text: String) -> CSSRGBA? { CSSColor.parseWithAlpha(CSSParser.parseComponents(text)) }

    /// CSS Color 4's own examples: §6.1's table, §5.1's `rgb()` forms, §7's `hsl()` examples, §6.3 `transparent`.
    func testCSSColour4Examples() {
        XCTAssertEqual(CSSColor.named.count, 148, "the 148 named colours of §6.1")
        let table: [(String, UInt32)] = [("rebeccapurple", 0x663399), ("darkslategrey", 0x2F4F4F),
                                         ("lightgoldenrodyellow", 0xFAFAD2), ("cornflowerblue", 0x6495ED),
                                         ("AliceBlue", 0xF0F8FF), ("yellowgreen", 0x9ACD32), ("cyan", 0x00FFFF)]
        for (name, value) in table { XCTAssertEqual(rgba(name), CSSRGBA(rgb: value), name) }
        // §7: "hsl(120deg 100% 50%)" is lime, and the table of greens under it.
        let hsl: [(String, UInt32)] = [("hsl(0 100% 50%)", 0xFF0000), ("hsl(120deg 100% 50%)", 0x00FF00),
                                       ("hsl(120 100% 25%)", 0x008000), ("hsl(120 100% 75%)", 0x80FF80),
                                       ("hsl(120 75% 75%)", 0x8FEF8F), ("hsl(120, 100%, 50%)", 0x00FF00),
                                       ("hsl(0.5turn 100% 50%)", 0x00FFFF), ("hsl(200grad 100% 50%)", 0x00FFFF),
                                       ("hsl(-120 100% 50%)", 0x0000FF), ("hsl(480 100% 50%)", 0x00FF00),
                                       ("hsl(270 50% 40%)", 0x663399), ("hsl(0 0% 100%)", 0xFFFFFF),
                                       ("hsl(30 150% -10%)", 0x000000)]
        for (text, value) in hsl { XCTAssertEqual(rgba(text)?.rgb, value, text); XCTAssertEqual(rgba(text)?.alpha, 1) }
        XCTAssertEqual(rgba("hsla(120, 100%, 50%, .5)"), CSSRGBA(rgb: 0x00FF00, alpha: 0.5))
        XCTAssertEqual(rgba("hsl(120 100% 50% / 25%)"), CSSRGBA(rgb: 0x00FF00, alpha: 0.25))
        // §5.1: the same red in every syntax, and alpha in each.
        for red in ["rgb(255 0 0)", "rgb(100% 0% 0%)", "rgb(255, 0, 0)", "rgba(255, 0, 0, 1)", "#f00", "#ff0000ff", "red"] {
            XCTAssertEqual(rgba(red), CSSRGBA(rgb: 0xFF0000), red)
        }
        XCTAssertEqual(rgba("rgb(29 164 192 / 95%)"), CSSRGBA(rgb: 0x1DA4C0, alpha: 0.95))
        XCTAssertEqual(rgba("rgba(255, 0, 0, .5)"), CSSRGBA(rgb: 0xFF0000, alpha: 0.5))
        XCTAssertEqual(rgba("rgb(255 0 0 / 0.5)"), CSSRGBA(rgb: 0xFF0000, alpha: 0.5))
        XCTAssertEqual(rgba("#ff000080"), CSSRGBA(rgb: 0xFF0000, alpha: 128.0 / 255))
        XCTAssertEqual(rgba("rgb(none 128 0)"), CSSRGBA(rgb: 0x008000))
        XCTAssertEqual(rgba("rgb(50% 50% 50%)")?.rgb, 0x808080, "127.5 rounds up")
        XCTAssertEqual(rgba("transparent"), CSSRGBA(rgb: 0, alpha: 0), "§6.3: transparent black")
        XCTAssertEqual(rgba("rgba(0, 0, 0, 7)")?.alpha, 1, "alpha is clamped")
        XCTAssertEqual(rgba("rgba(0, 0, 0, -1)")?.alpha, 0)
        // Compositing 1 §5.1: half black over white is mid grey; a quarter blue over red.
        XCTAssertEqual(CSSRGBA(rgb: 0x000000, alpha: 0.5).composited(over: 0xFFFFFF), 0x808080)
        XCTAssertEqual(CSSRGBA(rgb: 0x0000FF, alpha: 0.25).composited(over: 0xFF0000), 0xBF0040)
        XCTAssertEqual(CSSRGBA(rgb: 0x123456, alpha: 1).composited(over: 0xFFFFFF), 0x123456)
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
