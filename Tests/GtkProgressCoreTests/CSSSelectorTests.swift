import XCTest
@testable import GtkProgressCore

/// A small element tree for selector tests, built from nested arrays.
final class TestElement: CSSElement {
    let localName: String
    let attributes: [String: String]
    weak var parent: TestElement?
    var children: [TestElement] = []
    var text = ""

    init(_ name: String, _ attributes: [String: String] = [:], _ children: [TestElement] = [], text: String = "") {
        localName = name
        self.attributes = attributes
        self.children = children
        self.text = text
        for child in children { child.parent = self }
    }

    func isNamed(_ lowercasedName: String) -> Bool { localName == lowercasedName }
    var elementID: String? { attributes["id"] }
    var classNames: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }
    func hasClass(_ name: String) -> Bool { classNames.contains(name) }
    func attributeValue(_ lowercasedName: String) -> String? { attributes[lowercasedName] }
    var parentElement: TestElement? { parent }
    private var index: Int? { parent?.children.firstIndex { $0 === self } }
    var previousSiblingElement: TestElement? {
        guard let parent, let index, index > 0 else { return nil }
        return parent.children[index - 1]
    }
    var nextSiblingElement: TestElement? {
        guard let parent, let index, index + 1 < parent.children.count else { return nil }
        return parent.children[index + 1]
    }
    var hasNoChildren: Bool { children.isEmpty && text.isEmpty }
}

final class CSSSelectorTests: XCTestCase {
    private func matches(_ selector: String, _ element: TestElement, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        guard let list = CSSSelector.parse(selector) else {
            XCTFail("\(selector) did not parse", file: file, line: line)
            return false
        }
        return list.contains { $0.matches(element) }
    }

    func testSimpleSelectors() {
        let p = TestElement("p", ["id": "intro", "class": "lead  note", "lang": "en-GB", "data-x": "alpha beta"])
        _ = TestElement("body", [:], [p])
        XCTAssertTrue(matches("p", p))
        XCTAssertTrue(matches("*", p))
        XCTAssertTrue(matches("#intro", p))
        XCTAssertFalse(matches("#Intro", p))
        XCTAssertTrue(matches(".lead.note", p))
        XCTAssertFalse(matches(".lead.other", p))
        XCTAssertTrue(matches("p.note#intro", p))
        XCTAssertFalse(matches("div.note", p))
        XCTAssertTrue(matches("[lang]", p))
        XCTAssertTrue(matches("[lang|=en]", p))
        XCTAssertTrue(matches("[data-x~=beta]", p))
        XCTAssertFalse(matches("[data-x~=bet]", p))
        XCTAssertTrue(matches("[data-x^=al]", p))
        XCTAssertTrue(matches("[data-x$=\"eta\"]", p))
        XCTAssertTrue(matches("[data-x*='ha b']", p))
        XCTAssertFalse(matches("[data-x*='']", p))
        XCTAssertTrue(matches("[data-x=ALPHA\\ BETA i]", p))
        // Values compare case-sensitively unless `i` says otherwise (Selectors 4 §6.3); names do not.
        XCTAssertTrue(matches("[data-x='alpha beta']", p))
        XCTAssertFalse(matches("[data-x='Alpha Beta']", p))
        XCTAssertTrue(matches("[DATA-X='alpha beta']", p))
        XCTAssertTrue(matches(":not(.other)", p))
        XCTAssertFalse(matches(":not(.lead, div)", p))
        XCTAssertTrue(matches(":is(div, .note)", p))
    }

    func testCombinatorsAndStructure() {
        let items = (1...5).map { TestElement("li", ["class": "i\($0)"]) }
        let list = TestElement("ul", ["class": "nav"], items)
        let empty = TestElement("span")
        let body = TestElement("body", [:], [list, empty])
        let html = TestElement("html", [:], [body])
        XCTAssertTrue(matches("ul li", items[2]))
        XCTAssertTrue(matches("html  li", items[2]))
        XCTAssertTrue(matches("body > ul > li", items[0]))
        XCTAssertFalse(matches("body > li", items[0]))
        XCTAssertTrue(matches(".i1 + .i2", items[1]))
        XCTAssertFalse(matches(".i1 + .i3", items[2]))
        XCTAssertTrue(matches(".i1 ~ .i4", items[3]))
        XCTAssertFalse(matches(".i4 ~ .i1", items[0]))
        XCTAssertTrue(matches("li:first-child", items[0]))
        XCTAssertTrue(matches("li:last-child", items[4]))
        XCTAssertFalse(matches("li:only-child", items[4]))
        let only = TestElement("li")
        let ordered = TestElement("ol", [:], [only])
        withExtendedLifetime(ordered) {
            XCTAssertTrue(matches("li:only-child", only))
            XCTAssertTrue(matches("ol > :only-child:first-child:last-child", only))
        }
        XCTAssertTrue(matches(":root", html))
        XCTAssertFalse(matches(":root", body))
        XCTAssertTrue(matches("span:empty", empty))
        XCTAssertTrue(matches("li:nth-child(2n+1)", items[2]))
        XCTAssertFalse(matches("li:nth-child(2n+1)", items[1]))
        XCTAssertTrue(matches("li:nth-child(odd)", items[4]))
        XCTAssertTrue(matches("li:nth-child(even)", items[3]))
        XCTAssertTrue(matches("li:nth-child(-n+2)", items[1]))
        XCTAssertFalse(matches("li:nth-child(-n+2)", items[2]))
        XCTAssertTrue(matches("li:nth-child(3)", items[2]))
        XCTAssertTrue(matches("li:nth-child( 2n - 1 )", items[0]))
        XCTAssertTrue(matches("li:nth-last-child(1)", items[4]))
    }

    /// Anything unsupported makes the selector (and so its rule) not apply, never match something else.
    func testUnsupportedSelectorsAreRefused() {
        for selector in ["a:has(b)", "p::first-line", "svg|rect", "*|p", "p:nth-of-type(2)", ":not(div p)", "p >",
                         "> p", "p,", "", "p::before span", ":has(p)", "#123"] {
            XCTAssertNil(CSSSelector.parse(selector), selector)
        }
        XCTAssertNil(CSSSelector.parse("p, a:has(b)"), "one bad selector drops the whole list")
        XCTAssertEqual(CSSSelector.parse("p::before")?.first?.pseudoElement, .before)
        XCTAssertEqual(CSSSelector.parse("p:after")?.first?.pseudoElement, .after)
    }

    /// `:link` and `:any-link` are the links with an address (HTML § 4.16.3); the states a static view never puts
    /// an element in (`:hover`, `:active`, `:focus`, `:visited`, `:target`) are valid and match nothing, so a list
    /// naming them, as `a, a:link, a:visited, a:active { color: … }` in many stylesheets, applies to the rest.
    func testLinksAndStatesThisViewNeverShows() {
        let link = TestElement("a", ["href": "/next"])
        let anchor = TestElement("a", ["name": "top"])
        let area = TestElement("area", ["href": "/map"])
        let paragraph = TestElement("p", [:], [link, anchor, area])
        XCTAssertTrue(matches("a:link", link))
        XCTAssertTrue(matches(":any-link", area))
        XCTAssertFalse(matches("a:link", anchor), "an anchor without an address is no link")
        XCTAssertFalse(matches(":link", paragraph))
        for state in ["a:visited", "a:hover", "a:active", "a:focus", "a:focus-within", "a:focus-visible", "a:target"] {
            XCTAssertFalse(matches(state, link), state)
        }
        XCTAssertTrue(matches("a, a:link, a:visited, a:active", anchor), "the list applies to what it names besides")
        XCTAssertTrue(matches("a:not(:hover)", link), "nothing is hovered")
        XCTAssertEqual(CSSSelector.parse("a:link")?.first?.specificity, 1 << 10 + 1, "a pseudo-class counts as a class")
    }

    /// Selectors 3 §9's examples.
    func testSpecificity() {
        func specificity(_ text: String) -> Int { CSSSelector.parse(text)!.first!.specificity }
        func abc(_ a: Int, _ b: Int, _ c: Int) -> Int { a << 20 + b << 10 + c }
        XCTAssertEqual(specificity("*"), abc(0, 0, 0))
        XCTAssertEqual(specificity("LI"), abc(0, 0, 1))
        XCTAssertEqual(specificity("UL LI"), abc(0, 0, 2))
        XCTAssertEqual(specificity("UL OL+LI"), abc(0, 0, 3))
        XCTAssertEqual(specificity("H1 + *[REL=up]"), abc(0, 1, 1))
        XCTAssertEqual(specificity("UL OL LI.red"), abc(0, 1, 3))
        XCTAssertEqual(specificity("LI.red.level"), abc(0, 2, 1))
        XCTAssertEqual(specificity("#x34y"), abc(1, 0, 0))
        XCTAssertEqual(specificity("#s12:not(FOO)"), abc(1, 0, 1))
        XCTAssertEqual(specificity("p::before"), abc(0, 0, 2))
    }

    /// A selector of 10,000 parts is refused, not matched in time growing with its length.
    func testHostileSelectorLength() {
        let long = Array(repeating: "div", count: 10_000).joined(separator: " ")
        XCTAssertNil(CSSSelector.parse(long))
        let wide = Array(repeating: ".a", count: 10_000).joined()
        XCTAssertNil(CSSSelector.parse(wide))
    }

    /// The rule index files a selector under its subject's id, else a class, else its type.
    func testIndexKeys() {
        XCTAssertEqual(CSSSelector.parse("div .a#b")!.first!.key, .id("b"))
        XCTAssertEqual(CSSSelector.parse("div p.a")!.first!.key, .className("a"))
        XCTAssertEqual(CSSSelector.parse(".a p")!.first!.key, .type("p"))
        XCTAssertEqual(CSSSelector.parse("[x]")!.first!.key, .universal)
    }
}
