import FoundationEssentials
import XCTest
@testable import GtkProgressCore

/// Custom elements (`<my-menu>`, `<cookie-banner>`): gumbo has no tag number for them, and their names are kept
/// for type selectors. HTML renders an unknown element inline, as `<span>`.
final class CSSCustomElementTests: XCTestCase {
    private func document(_ html: String, styles: PageStyleOptions = PageStyleOptions()) -> Document {
        Document.parse(html: html, baseURL: nil, styles: styles)
    }

    func testTypeSelectorsNameCustomElements() {
        let page = """
            <html><head><style>
            my-menu { display: none }
            :is(cookie-banner, x-unused) { display: none }
            x-card.note > x-title { text-transform: uppercase }
            site-footer x-title { display: none }
            #o1:not(other-thing), #o2:not(my-menu) { display: none }
            MY-DIALOG { visibility: hidden }
            </style></head><body>
            <p>Start <my-menu>menu-gone</my-menu> <x-card class=note><x-title>shout</x-title> rest</x-card> end.</p>
            <cookie-banner><span>Accept all</span></cookie-banner>
            <My-Dialog>dialog-gone</My-Dialog><other-thing id=o1>other-kept</other-thing><other-thing id=o2>other-gone</other-thing>
            <site-footer><x-title>footer-gone</x-title> footer-kept</site-footer></body></html>
            """
        let shown = document(page).dumpText(width: 80)
        XCTAssertTrue(shown.contains("Start SHOUT rest end."), "custom elements are inline: \(shown)")
        XCTAssertTrue(shown.contains("footer-kept") && shown.contains("other-kept"), shown)
        for gone in ["menu-gone", "Accept all", "dialog-gone", "other-gone", "footer-gone"] {
            XCTAssertFalse(shown.contains(gone), "\(gone) in \(shown)")
        }
        let unstyled = document(page, styles: .off).dumpText(width: 80)
        XCTAssertTrue(unstyled.contains("Start menu-gone shout rest end."), unstyled)
        for shownWithout in ["Accept all", "dialog-gone", "other-gone", "footer-gone"] {
            XCTAssertTrue(unstyled.contains(shownWithout), "without author styles \(shownWithout) shows")
        }
    }

    /// Siblings share a style only when they are alike: two custom elements with different names are not, two
    /// with the same name are, and a rule on their place still tells them apart.
    func testCustomSiblingsShareOnlyWithTheSameName() {
        let shown = document("""
            <style>two-x { display: none } x-item:first-child { display: none }</style>
            <div><one-x>one-kept</one-x><two-x>two-gone</two-x><one-x>three-kept</one-x><two-x>four-gone</two-x></div>
            <div><x-item>item-gone</x-item><x-item>item-kept</x-item><x-item>item-kept-too</x-item></div>
            """).text
        for kept in ["one-kept", "three-kept", "item-kept", "item-kept-too"] { XCTAssertTrue(shown.contains(kept), "\(kept) in \(shown)") }
        for gone in ["two-gone", "four-gone", "item-gone"] { XCTAssertFalse(shown.contains(gone), "\(gone) in \(shown)") }
    }

    /// An element made by the parser without a tag in the markup, and names cut at attributes, `/` and case.
    func testNamesAreReadFromTheTagAlone() {
        let shown = document("""
            <style>x-a { display: none } x-b { display: none }</style>
            <p><X-A
            class=q>a-gone</X-A><x-b/>b-gone</x-b><x-c>c-kept</x-c></p>
            """).text
        XCTAssertTrue(shown.contains("c-kept"), shown)
        XCTAssertFalse(shown.contains("a-gone"), shown)
        XCTAssertFalse(shown.contains("b-gone"), "a self-closing custom tag still opens the element: \(shown)")
    }
}
