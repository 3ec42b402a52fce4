import FoundationEssentials
import XCTest
@testable import GtkProgressCore

/// Cascade layers (CSS Cascading and Inheritance Level 5 §6.4): `@layer` blocks, named, anonymous and nested, the
/// `@layer a, b;` statement, `@import … layer(x)`, and the order they give the cascade. The pages follow the
/// specification's examples, with `display` standing for the properties they set.
final class CSSLayerTests: XCTestCase {
    private let screen = CSSMedia(width: 960)
    private let base = URL(string: "https://example.org/")!

    private func text(_ html: String, sheets: [String: String] = [:]) -> String {
        let options = PageStyleOptions(
            sheets: Dictionary(uniqueKeysWithValues: sheets.map { (URL(string: base.absoluteString + $0.key)!, Array($0.value.utf8)) }),
            fetch: { _ in .failure(.init("not found")) })
        return Document.parse(html: html, baseURL: base, styles: options).text
    }

    private func assertShown(_ shown: String, kept: [String], gone: [String], file: StaticString = #filePath, line: UInt = #line) {
        for word in kept { XCTAssertTrue(shown.contains(word), "\(word) shows in \(shown)", file: file, line: line) }
        for word in gone { XCTAssertFalse(shown.contains(word), "\(word) is hidden in \(shown)", file: file, line: line) }
    }

    // MARK: Parsing

    func testLayerRulesAreReadWithTheirPaths() {
        let sheet = CSSParser.parseStyleSheet("""
            @layer reset, framework.base;
            @layer { p { display: none } }
            @layer framework { @layer theme { p { display: block } } i { display: none } }
            @layer framework.theme { b { display: none } }
            @layer { q { display: none } }
            a { display: none }
            """, media: screen)
        XCTAssertEqual(sheet.layers, [["reset"], ["framework", "base"], ["#0"], ["framework"], ["framework", "theme"], ["#1"]])
        XCTAssertEqual(sheet.rules.map(\.layer), [2, 4, 3, 4, 5, -1])
    }

    /// §6.4.2: a name is identifiers joined by `.` with no whitespace; CSS-wide keywords are reserved; a block
    /// takes one name at most, a statement at least one. An invalid one is dropped whole, rules and all.
    func testInvalidLayerNamesDropTheRule() {
        let sheet = CSSParser.parseStyleSheet("""
            @layer a b { p { display: none } }
            @layer a, b { p { display: none } }
            @layer initial { p { display: none } }
            @layer a..b; @layer a .b; @layer .a; @layer a.; @layer revert-layer; @layer ; @layer a,,b; @layer "a";
            @layer Ok.Fine { i { display: none } }
            """, media: screen)
        XCTAssertEqual(sheet.layers, [["Ok", "Fine"]], "names keep their case")
        XCTAssertEqual(sheet.rules.count, 1)
    }

    /// §2: `@import url layer(name) supports(…) media`; a layer statement may come before it, and an import whose
    /// conditions fail is not followed and declares nothing.
    func testImportsIntoLayers() {
        let sheet = CSSParser.parseStyleSheet("""
            @layer default;
            @import url(theme.css) layer(theme);
            @import "anonymous.css" layer;
            @import "grid.css" layer(grid.base) supports(display: grid) screen;
            @import "lab.css" supports(color: lab(50% 40 59));
            @import "print.css" layer(print) print;
            @import "bad.css" layer(a b);
            @import url(plain.css) (min-width: 100px);
            @layer components;
            """, media: screen)
        XCTAssertEqual(sheet.imports, [
            .init(address: "theme.css", layer: ["theme"], layersBefore: 1),
            .init(address: "anonymous.css", layer: ["#0"], layersBefore: 1),
            .init(address: "grid.css", layer: ["grid", "base"], layersBefore: 1),
            .init(address: "plain.css", layer: nil, layersBefore: 1),
        ])
        XCTAssertEqual(sheet.layers, [["default"], ["components"]])
        let late = CSSParser.parseStyleSheet("@layer x { } @import 'late.css';", media: screen)
        XCTAssertTrue(late.imports.isEmpty, "an @layer block ends the place for imports")
    }

    // MARK: Cascade order

    /// §6.4: rules outside every layer beat layered ones whatever their specificity; later layers beat earlier
    /// ones; the first declaration of a name fixes its place, and a statement can fix it up front.
    func testLaterLayersAndUnlayeredRulesWin() {
        let shown = text("""
            <style>
            @layer base { #menu.menu { display: none } }
            nav { display: block }
            @layer reset, theme;
            @layer theme { .banner { display: none } }
            @layer reset { div#banner.banner { display: block } }
            @layer one { .twice { display: block } }
            @layer two { .twice { display: none } }
            @layer one { .twice { display: block } }
            @layer { .anon { display: none } }
            @layer { .anon { display: block } }
            @layer x { .layered-hide { display: none } }
            </style>
            <nav id=menu class=menu>menu-kept</nav><div id=banner class=banner>banner-gone</div>
            <p class=twice>twice-gone</p><p class=anon>anon-kept</p><p class=layered-hide>layered-gone</p><p>end</p>
            """)
        assertShown(shown, kept: ["menu-kept", "anon-kept", "end"], gone: ["banner-gone", "twice-gone", "layered-gone"])
    }

    /// §6.4.2.1's nested layers: `framework.default`, `framework.theme`, then `framework`'s own rules, then the
    /// rules outside every layer; `@layer framework.theme` adds to the same layer.
    func testNestedLayers() {
        let shown = text("""
            <style>
            @layer framework {
              @layer default { p.a { display: none } p.b { display: none } p.c { display: block } }
              @layer theme { .a { display: block } }
              .c { display: none }
            }
            @layer framework.theme { .b { display: block } .d { display: none } }
            @layer framework.default { .d { display: block } }
            </style>
            <p class=a>a-kept</p><p class=b>b-kept</p><p class=c>c-gone</p><p class=d>d-gone</p>
            """)
        assertShown(shown, kept: ["a-kept", "b-kept"], gone: ["c-gone", "d-gone"])
    }

    /// §6.4.3: for `!important` the order turns round: earlier layers beat later ones and layered rules beat
    /// unlayered ones. The `style` attribute stays above every normal rule, and below important layered ones.
    func testImportantDeclarationsReverseTheLayers() {
        let shown = text("""
            <style>
            @layer a, b;
            @layer a { .i { display: none !important } .j { display: none !important } }
            @layer b { .i { display: block !important } .k { display: none !important } }
            .j { display: block !important }
            #k { display: block }
            @layer b { .m { display: none } .n { display: none !important } }
            </style>
            <p class=i>i-gone</p><p class=j>j-gone</p><p class=k id=k>k-gone</p>
            <p class=m style="display: block">m-kept</p><p class=n style="display: block">n-gone</p>
            <div>end</div>
            """)
        assertShown(shown, kept: ["m-kept", "end"], gone: ["i-gone", "j-gone", "k-gone", "n-gone"])
        let content = text("""
            <style>@layer a { .n::after { content: " a-content" !important } }
            @layer b { .n::after { content: " b-content" !important } }
            .n::after { content: " unlayered-content" } .o::after { content: " outside-o" }
            @layer a { .o::after { content: " inside-o" } }</style><p class=n>n</p><p class=o>o</p>
            """)
        assertShown(content, kept: ["n a-content", "o outside-o"], gone: ["b-content", "inside-o", "unlayered-content"])
    }

    /// §2 and §6.4.3 with imports: the imported sheet goes into its layer, a layer statement before the import
    /// comes first, a sheet that cannot be loaded still declares its layer, an import whose media do not match
    /// declares none.
    func testImportedSheetsInLayers() {
        let shown = text("""
            <style>
            @layer default;
            @import url(theme.css) layer(theme);
            @import url(gone.css) layer(first);
            @import url(print.css) layer(late) print;
            @layer components;
            @layer default { .d { display: none } }
            @layer components { .t { display: block } }
            @layer second { .g { display: none } .p { display: block } }
            @layer first { .g { display: block } }
            @layer late { .p { display: none } }
            </style>
            <p class=t>t-kept</p><p class=u>u-gone</p><p class=v>v-gone</p><p class=d>d-gone</p>
            <p class=g>g-gone</p><p class=p>p-gone</p><p>end</p>
            """, sheets: [
                "theme.css": ".t { display: none } @layer sub { .u { display: block } } .u { display: none } .v { display: none }",
            ])
        assertShown(shown, kept: ["t-kept", "end"], gone: ["u-gone", "v-gone", "d-gone", "g-gone", "p-gone"])
    }

    /// A page whose whole stylesheet is in layers, as frameworks write them, keeps what it hides, in the window's
    /// text and in `--dump`.
    func testAWholeStyleSheetInLayersStillHides() {
        let page = """
            <html><head><style>
            @layer reset, base, components, utilities;
            @layer utilities { .sr-only { display: none } [hidden] { display: none !important } }
            @layer components { .cookie-banner { display: none } .menu { visibility: hidden } }
            @layer base { p { font-weight: bold } }
            </style></head><body><p>Visible text.</p><div class=cookie-banner>Accept all</div>
            <nav class=menu>Menu links</nav><span class=sr-only>Skip to content</span></body></html>
            """
        let document = Document.parse(html: page, baseURL: nil)
        for shown in [document.text, document.dumpText(width: 80)] {
            assertShown(shown, kept: ["Visible text."], gone: ["Accept all", "Menu links", "Skip to content"])
        }
        let unstyled = Document.parse(html: page, baseURL: nil, styles: .off).dumpText(width: 80)
        assertShown(unstyled, kept: ["Accept all", "Menu links", "Skip to content"], gone: [])
    }

    /// Hostile sheets: past `maximumLayers` rules in new layers are left out, said once, and the rest applies.
    func testTooManyLayersAreBounded() {
        var css = ""
        for index in 0..<(CSSRuleSet.maximumLayers + 50) { css += "@layer l\(index) { .c\(index) { display: none } }\n" }
        css += ".last { display: none }"
        let html = "<style>\(css)</style><p class=c0>first-gone</p><p class=c\(CSSRuleSet.maximumLayers + 10)>late-kept</p>"
            + "<p class=last>last-gone</p><p>end</p>"
        let document = Document.parse(html: html, baseURL: nil)
        assertShown(document.text, kept: ["late-kept", "end"], gone: ["first-gone", "last-gone"])
        XCTAssertEqual(document.styleNotes.filter { $0.contains("cascade layers") }.count, 1, "\(document.styleNotes)")
    }
}
