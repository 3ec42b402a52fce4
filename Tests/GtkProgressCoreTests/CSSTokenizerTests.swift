import FoundationEssentials
import XCTest
@testable import GtkProgressCore

/// CSS Syntax Level 3's tokenizer and parser, on the specification's examples
/// (<https://www.w3.org/TR/css-syntax-3/>) and its error recovery.
final class CSSTokenizerTests: XCTestCase {
    func testTokensOfTheSpecificationsExamples() {
        // §4.3.4: url( with an unquoted address is a url token; with a quoted one, a function.
        XCTAssertEqual(CSSTokenizer.tokens("url(foo.png)"), [.url("foo.png")])
        XCTAssertEqual(CSSTokenizer.tokens("url( 'foo.png' )"),
                       [.function("url"), .whitespace, .string("foo.png"), .whitespace, .closeParen])
        XCTAssertEqual(CSSTokenizer.tokens("url(a b)"), [.badURL])
        // §4.3.3: numbers, percentages and dimensions.
        XCTAssertEqual(CSSTokenizer.tokens("12px"), [.dimension(12, isInteger: true, representation: "12", unit: "px")])
        XCTAssertEqual(CSSTokenizer.tokens("-.5em"), [.dimension(-0.5, isInteger: false, representation: "-.5", unit: "em")])
        XCTAssertEqual(CSSTokenizer.tokens("50%"), [.percentage(50)])
        XCTAssertEqual(CSSTokenizer.tokens("+1e3"), [.number(1000, isInteger: false, representation: "+1e3")])
        XCTAssertEqual(CSSTokenizer.tokens("1e99999"),
                       [.number(Double.greatestFiniteMagnitude, isInteger: false, representation: "1e99999")])
        // §4.3.1: hashes, at-keywords, CDO/CDC and delimiters.
        XCTAssertEqual(CSSTokenizer.tokens("#main #1a"), [.hash("main", isID: true), .whitespace, .hash("1a", isID: false)])
        XCTAssertEqual(CSSTokenizer.tokens("@media"), [.atKeyword("media")])
        XCTAssertEqual(CSSTokenizer.tokens("<!-- -->"), [.cdo, .whitespace, .cdc])
        XCTAssertEqual(CSSTokenizer.tokens("a>b"), [.ident("a"), .delim(ascii(">")), .ident("b")])
        XCTAssertEqual(CSSTokenizer.tokens("--custom"), [.ident("--custom")])
        XCTAssertEqual(CSSTokenizer.tokens("-->x"), [.cdc, .ident("x")])
        // Comments vanish; an unclosed one runs to the end.
        XCTAssertEqual(CSSTokenizer.tokens("a/* c */b/* open"), [.ident("a"), .ident("b")])
    }

    func testEscapesAndStrings() {
        // §4.3.7: hex escapes take up to six digits and one whitespace; zero and surrogates become U+FFFD.
        XCTAssertEqual(CSSTokenizer.tokens("\\31 0"), [.ident("10")])
        XCTAssertEqual(CSSTokenizer.tokens("\\0 a"), [.ident("\u{FFFD}a")])
        XCTAssertEqual(CSSTokenizer.tokens("\\D800x"), [.ident("\u{FFFD}x")])
        XCTAssertEqual(CSSTokenizer.tokens("'\\2014'"), [.string("—")])
        XCTAssertEqual(CSSTokenizer.tokens("\"a\\\nb\""), [.string("ab")], "an escaped newline continues a string")
        // §4.3.5: a newline inside a string makes a bad string; the newline is tokenized after it.
        XCTAssertEqual(CSSTokenizer.tokens("'abc\ndef'"),
                       [.badString, .whitespace, .ident("def"), .string("")])
        XCTAssertEqual(CSSTokenizer.tokens("'open"), [.string("open")], "EOF ends a string")
        // Preprocessing: NUL is U+FFFD; non-ASCII starts names.
        XCTAssertEqual(CSSTokenizer.tokens("a\u{0}b"), [.ident("a\u{FFFD}b")])
        XCTAssertEqual(CSSTokenizer.tokens(".café"), [.delim(ascii(".")), .ident("café")])
    }

    // MARK: Parsing and error recovery

    private let screen = CSSMedia(width: 960)

    func testRulesAndDeclarations() {
        let sheet = CSSParser.parseStyleSheet("p { color: red; display : none !important } a{}", media: screen)
        XCTAssertEqual(sheet.rules.count, 2)
        XCTAssertEqual(sheet.rules[0].declarations.map(\.name), ["color", "display"])
        XCTAssertEqual(sheet.rules[0].declarations[1].important, true)
        XCTAssertEqual(sheet.rules[0].declarations[1].value, [.token(.ident("none"))])
        XCTAssertEqual(sheet.rules[0].declarations[0].important, false)
    }

    /// A bad declaration drops only itself, up to its `;`.
    func testBadDeclarationDropsOnlyItself() {
        let sheet = CSSParser.parseStyleSheet("p { color red; display: none; 12: x; --Var: {a;b}; font-weight: bold }",
                                              media: screen)
        XCTAssertEqual(sheet.rules.count, 1)
        XCTAssertEqual(sheet.rules[0].declarations.map(\.name), ["display", "--Var", "font-weight"])
    }

    /// A bad rule drops only itself: an unclosed block in a prelude, a stray `}` and an at-rule nobody knows.
    func testBadRuleDropsOnlyItself() {
        let sheet = CSSParser.parseStyleSheet("""
            @unknown foo { p { display: none } }
            a:has(b) { display: none }
            } b { font-weight: bold }
            @charset "utf-8";
            i { font-style: italic }
            """, media: screen)
        // `} b {…}` is one qualified rule whose prelude starts with `}`; its selector is then invalid.
        XCTAssertEqual(sheet.rules.count, 3)
        XCTAssertEqual(CSSSelector.parseList(sheet.rules[1].prelude), nil)
        XCTAssertNotNil(CSSSelector.parseList(sheet.rules[2].prelude))
        var rules = CSSRuleSet()
        rules.add(sheet)
        XCTAssertEqual(rules.unsupportedRules, 2, "a:has(b) and the rule after the stray brace never apply")
    }

    func testStyleAttributeDeclarations() {
        let declarations = CSSParser.parseDeclarations("display:none;;color:red !IMPORTANT; bad")
        XCTAssertEqual(declarations.map(\.name), ["display", "color"])
        XCTAssertEqual(declarations[1].important, true)
    }

    func testMediaQueries() {
        func keeps(_ prelude: String, width: Double = 960) -> Bool {
            let sheet = CSSParser.parseStyleSheet("@media \(prelude) { p { display: none } }",
                                                  media: CSSMedia(width: width))
            return sheet.rules.count == 1
        }
        XCTAssertTrue(keeps("screen"))
        XCTAssertTrue(keeps("all"))
        XCTAssertFalse(keeps("print"))
        XCTAssertTrue(keeps("not print"))
        XCTAssertFalse(keeps("not screen"))
        XCTAssertTrue(keeps("only screen and (min-width: 768px)"))
        XCTAssertFalse(keeps("only screen and (min-width: 768px)", width: 500))
        XCTAssertTrue(keeps("(max-width: 600px)", width: 500))
        XCTAssertFalse(keeps("(max-width: 600px)"))
        XCTAssertTrue(keeps("print, (min-width: 40em)"))
        XCTAssertFalse(keeps("(hover: hover)"), "an unknown feature never matches")
        XCTAssertFalse(keeps("screen and"), "a malformed query is not all")
        XCTAssertTrue(keeps("(prefers-color-scheme: light)"))
        XCTAssertEqual(CSSParser.parseStyleSheet("@media (prefers-color-scheme: dark) { p { x: y } }",
                                                 media: CSSMedia(width: 960, dark: true)).rules.count, 1)
        // Nested @media inside a matching one.
        XCTAssertEqual(CSSParser.parseStyleSheet("@media screen { @media print { a{x:y} } b{x:y} }",
                                                 media: screen).rules.count, 1)
    }

    /// §4.2's name code points, byte by byte: letters, digits, `-`, `_`, non-ASCII and NUL continue a name;
    /// all but digits and `-` may start one.
    func testNameCodePoints() {
        for byte in UInt8(0)...UInt8(0x7F) {
            let isLetter = (byte | 0x20) >= ascii("a") && (byte | 0x20) <= ascii("z")
            let continues = isLetter || (byte >= ascii("0") && byte <= ascii("9")) || byte == ascii("-")
                || byte == ascii("_") || byte == 0
            var tokenizer = CSSTokenizer(bytes: [ascii("a"), byte, ascii("z")])
            let first = tokenizer.next()
            // (A backslash starts an escape, which continues a name too.)
            XCTAssertEqual(tokenizer.position == 3 && first.kind == .ident, continues || byte == ascii("\\"),
                           "byte \(byte)")
            let starts = isLetter || byte == ascii("_") || byte == 0
            var alone = CSSTokenizer(bytes: [byte, ascii("z")])
            let token = alone.next()
            if byte != ascii("\\") && byte != ascii("-") && !(byte >= ascii("0") && byte <= ascii("9")) {
                XCTAssertEqual(token.kind == .ident && alone.position == 2, starts, "start byte \(byte)")
            }
        }
        var high = CSSTokenizer(bytes: [0xC3, 0xA9, ascii("t"), 0xC3, 0xA9])
        XCTAssertEqual(high.next(), .ident("été"))
    }

    /// Reading only the properties the cascade uses skips the other declarations' values and reads a rule's
    /// selectors only when its block kept something: the rules kept must be the very ones a full read gives.
    func testReadingOnlyUsedPropertiesKeepsTheSameRules() throws {
        var sheets = ["""
            /* a comment { display: none } */
            a.b[title="x { y }"] , #c\\.d > e::after { content: "\\"} ;"; margin: 0 1px; display: none }
            p:nth-child(2n+1) { font: 12px/1.5 "Dejavu Sans Mono", monospace; padding: url(a{b}.png) }
            div { margin: calc(1px + (2px * 3)); background: url( "x.png" ) }
            .u\\72l { color: red } URL(x) { margin: 0 } .e { width: 10e3px; COLOR: Blue !IMPORTANT }
            @media screen { .m[data-x='1'] { display: block; border: 1px solid rgb(1 2 3) } }
            @font-face { font-family: x; src: url(x.woff) } .after-font { display: none }
            h1 { --accent: { a; b }; margin: 0 } h2 { text-align: center; float: left; } :is(a, b) { top: 0 }
            i { font-style: italic; transition: color .5s ease-in, \\33 0px }
            b {/* before the name */Display:/**/none;/**/MARGIN: 0; c\\olor: red; -webkit-x: 1; --Var: x }
            """,
            // Dropped values passed over by their bytes, and those that must be read as tokens: a `;` or `}` in a
            // string, comment, escape, url or block, stray closers, a value ending at the block's `}` or the end.
            """
            q { margin: 0 auto; display: block } r { padding: 1px 2px } s { width: 3em !important; display: inline }
            t { quotes: "a;b" '}'; display: none; margin: 1px/*;}*/2px; text-align: center }
            u { width: a\\;b; display: none; grid-area: x) y] z; font-weight: bold; mask: url(a;b.png); color: red }
            v { z-index: 1 } w { margin: [a;b] {c;d}; font-style: italic; border: 0 } x { width: 10px; display: none
            """]
        for path in ["/usr/share/doc/python3/_static/basic.css", "/usr/share/doc/python3/_static/nature.css",
                     "/usr/share/doc/nodejs/api/assets/style.css"] {
            if let data = FileManager.default.contents(atPath: path) { sheets.append(String(decoding: data, as: UTF8.self)) }
        }
        // The window reads colours; the dump does not (`PageStyleOptions.colours`), and its read leaves them out too.
        var coloursLeftOut = 0
        for text in sheets {
            let full = CSSParser.parseStyleSheet(Array(text.utf8), media: screen)
            for colours in [true, false] {
                let kept = CSSParser.parseStyleSheet(Array(text.utf8), media: screen, keepsColours: colours,
                                                     keepsProperty: { CSSCascade.isUsed($0, colours: colours) })
                let expected = full.rules.map { rule in
                    (rule.prelude, rule.declarations.filter { CSSCascade.isUsed($0.name, colours: colours) })
                }.filter { !$0.1.isEmpty }
                let got = kept.rules.filter { !$0.declarations.isEmpty }
                XCTAssertEqual(got.count, expected.count)
                XCTAssertEqual(kept.rules.count, full.rules.count, "every rule still counts towards the bound")
                for (rule, want) in zip(got, expected) {
                    XCTAssertEqual(rule.prelude, want.0)
                    XCTAssertEqual(rule.declarations, want.1)
                }
                if !colours {
                    XCTAssertFalse(got.contains { $0.declarations.contains { ["color", "background-color", "background"].contains($0.name) } })
                    coloursLeftOut += full.rules.filter { $0.declarations.contains { $0.name == "color" } }.count
                }
            }
        }
        XCTAssertGreaterThan(sheets.count, 0)
        XCTAssertGreaterThan(coloursLeftOut, 0, "the sheets have colour rules for the dump to leave out")
    }

    func testImports() {
        let sheet = CSSParser.parseStyleSheet("""
            @import "a.css"; @import url(b.css) screen; @import url("c.css") print; p {x:y} @import "late.css";
            """, media: screen)
        XCTAssertEqual(sheet.imports.map(\.address), ["a.css", "b.css"], "print-only and late imports are not followed")
    }

    // MARK: Hostile sheets

    /// 100,000 nested blocks: no recursion that deep, the rule dropped, the rest kept.
    func testDeepNestingIsBounded() {
        let depth = 100_000
        let text = "a { b: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + " } p { display: none } " + "@media screen {" + String(repeating: "@media screen {", count: depth)
            + "q { x: y }" + String(repeating: "}", count: depth + 1) + " i { x: y }"
        let sheet = CSSParser.parseStyleSheet(text, media: screen)
        XCTAssertEqual(sheet.rules.map { CSSSelector.parseList($0.prelude)?.first?.key }, [.type("p"), .type("i")])
        XCTAssertEqual(sheet.tooDeep, 2)
    }

    func testRuleCountIsBounded() {
        let text = String(repeating: ".a{x:y}", count: CSSParser.maximumRules + 10)
        let sheet = CSSParser.parseStyleSheet(text, media: screen)
        XCTAssertEqual(sheet.rules.count, CSSParser.maximumRules)
        XCTAssertTrue(sheet.tooManyRules)
    }

    func testAnPlusB() {
        func read(_ text: String) -> (Int, Int)? { CSSSelector.parseAnPlusB(CSSParser.parseComponents(text)) }
        XCTAssertEqual(read("2n+1").map { [$0.0, $0.1] }, [2, 1])
        XCTAssertEqual(read("-n+3").map { [$0.0, $0.1] }, [-1, 3])
        XCTAssertEqual(read("n").map { [$0.0, $0.1] }, [1, 0])
        XCTAssertEqual(read("+5").map { [$0.0, $0.1] }, [0, 5])
        XCTAssertEqual(read("3n - 2").map { [$0.0, $0.1] }, [3, -2])
        XCTAssertEqual(read("odd").map { [$0.0, $0.1] }, [2, 1])
        XCTAssertNil(read("2n+"))
        XCTAssertNil(read("99999999999999999999n"))
        XCTAssertNil(read("1.5n"))
    }
}
