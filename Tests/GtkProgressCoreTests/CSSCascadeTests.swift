import FoundationEssentials
import XCTest
@testable import GtkProgressCore

/// Author styles through the document model, as the window and `--dump` both see them.
final class CSSCascadeTests: XCTestCase {
    private func text(_ html: String, styles: PageStyleOptions = PageStyleOptions()) -> String {
        Document.parse(html: html, baseURL: URL(string: "https://example.org/page.html"), styles: styles).text
    }

    private func dump(_ html: String, styles: PageStyleOptions = PageStyleOptions()) -> String {
        Document.parse(html: html, baseURL: URL(string: "https://example.org/page.html"), styles: styles)
            .dumpText(width: 80)
    }

    /// Each way a page hides text: the `hidden` attribute, `style`, `<style>`, a linked sheet, `visibility`.
    func testEachWayToHide() {
        let sheets: [URL: [UInt8]] = [URL(string: "https://example.org/site.css")!: Array(".external { display: none }".utf8)]
        let page = """
            <html><head><style>.in-style { display: none } .ghost { visibility: hidden }</style>
            <link rel="stylesheet" href="site.css"></head><body>
            <p>kept-1</p><p hidden>gone-attribute</p><p style="display: none">gone-inline</p>
            <div class="in-style">gone-style <b>bold</b></div><div class="external">gone-external</div>
            <p class="ghost">gone-visibility <span style="visibility: visible">kept-2</span></p>
            <span class="in-style">gone-span</span><a class="ghost" href="/x">¶</a><p>kept-3</p></body></html>
            """
        let shown = dump(page, styles: PageStyleOptions(sheets: sheets))
        for kept in ["kept-1", "kept-2", "kept-3"] { XCTAssertTrue(shown.contains(kept), kept) }
        for gone in ["gone", "bold", "¶", "/x"] { XCTAssertFalse(shown.contains(gone), "\(gone) in \(shown)") }
        let unstyled = dump(page, styles: .off)
        for shownWithout in ["gone-inline", "gone-style", "gone-external", "gone-visibility", "gone-span", "¶"] {
            XCTAssertTrue(unstyled.contains(shownWithout), "without author styles \(shownWithout) shows")
        }
        XCTAssertFalse(unstyled.contains("gone-attribute"), "the hidden attribute is HTML's, not the author's CSS")
    }

    /// Specificity decides between rules, then source order; `!important` beats both, and the `style` attribute
    /// beats any selector unless an important declaration stands against it.
    func testSpecificityOrderAndImportance() {
        let style = """
            <style>
            #a { display: none } div { display: block }
            .b.c { display: none } .b { display: block }
            .d { display: block } .d { display: none }
            .e { display: none !important } #e { display: block }
            .f { display: block }
            .g { display: none !important }
            </style>
            """
        let page = style + """
            <div id="a">one</div><div class="b c">two</div><div class="d">three</div>
            <div class="e" id="e">four</div><div class="f" style="display:none">five</div>
            <div class="g" style="display:block">six</div><div class="f">seven</div>
            """
        let shown = text(page)
        for gone in ["one", "two", "three", "four", "five", "six"] { XCTAssertFalse(shown.contains(gone), gone) }
        XCTAssertTrue(shown.contains("seven"))
    }

    func testInheritanceAndVariables() {
        let page = """
            <style>
            :root { --hide: none; --weight: bold }
            .box { visibility: hidden; font-weight: var(--weight) }
            .box .back { visibility: visible }
            .v { display: var(--hide) } .w { display: var(--missing, none) } .x { display: var(--missing) }
            ul.plain { list-style-type: none } i { font-style: normal }
            </style>
            <div class="box">hidden <p class="back">visible <span>too</span></p></div>
            <p class="v">gone-v</p><p class="w">gone-w</p><p class="x">kept-x</p>
            <ul class="plain"><li>item</li></ul><p><i>upright</i></p>
            """
        let document = Document.parse(html: page, baseURL: nil)
        let shown = document.text
        XCTAssertFalse(shown.contains("hidden"))
        XCTAssertTrue(shown.contains("visible too"))
        XCTAssertFalse(shown.contains("gone"))
        XCTAssertTrue(shown.contains("kept-x"), "var() with no value and no fallback leaves the declaration out")
        XCTAssertFalse(shown.contains("•"), "list-style-type: none inherits from the list to its items")
        let visible = document.runs.first { $0.text.contains("visible") }
        XCTAssertEqual(visible?.style.bold, true, "font-weight through var() inherits")
        XCTAssertEqual(document.runs.first { $0.text.contains("upright") }?.style.italic, false)
    }

    func testPropertiesReachTheTextStyle() {
        let page = """
            <style>.k { font-family: "DejaVu Sans Mono", monospace } .c { text-align: center }
            .pre { white-space: pre } h3.n { font-weight: 400 } .i { font-style: italic }
            span.blk { display: block } li.inl { display: inline }
            h2::before { content: "§ " } h2::after { content: "\\E001  end" } .icon::before { content: "\\F101" }
            </style>
            <p class="k">code</p><p class="c">middle</p><div class="pre">a   b</div><h3 class="n">plain</h3>
            <p class="i">slanted</p><p>x<span class="blk">block</span>y</p>
            <ul><li class="inl">one</li><li class="inl">two</li></ul><h2>Head</h2><p class="icon">icon</p>
            """
        let document = Document.parse(html: page, baseURL: nil)
        func style(_ text: String) -> TextStyle? { document.runs.first { $0.text.contains(text) }?.style }
        XCTAssertEqual(style("code")?.monospace, true)
        XCTAssertEqual(style("middle")?.alignment, .center)
        XCTAssertEqual(style("a   b")?.preformatted, true)
        XCTAssertEqual(style("plain")?.bold, false)
        XCTAssertEqual(style("slanted")?.italic, true)
        XCTAssertTrue(document.text.contains("x\nblock\ny"), document.text)
        XCTAssertTrue(document.text.contains("one two") || document.text.contains("onetwo"), document.text)
        XCTAssertTrue(document.text.contains("§ Head end"), "string content, Private Use Area glyphs left out")
        XCTAssertTrue(document.text.contains("icon"))
        XCTAssertFalse(document.text.contains("\u{F101}"))
    }

    /// Runs of bare paragraphs and plain inline elements are folded into text by the prefilter; a selector reading
    /// an element's place among its siblings is still answered as in the unfolded tree.
    func testSiblingAndPositionSelectorsOnFoldedElements() {
        let cases: [(rule: String, gone: [String], kept: [String])] = [
            // The div's children: h2, one, two, an empty p, three, four.
            ("p:last-child", ["four"], ["one", "two", "three"]),
            ("p:first-child", [], ["one", "two", "three", "four"]),
            ("p:nth-child(2)", ["one"], ["two", "three", "four"]),
            ("p:nth-child(even)", ["one", "four"], ["two", "three"]),
            ("p:nth-last-child(2)", ["three"], ["one", "two", "four"]),
            ("p:not(:first-child)", ["one", "two", "three", "four"], []),
            ("h2 + p", ["one"], ["two", "three", "four"]),
            ("p + p", ["two", "three", "four"], ["one"]),
            ("p:first-child + p", [], ["one", "two", "three", "four"]),
            ("h2 ~ p:nth-child(3)", ["two"], ["one", "three", "four"]),
            ("p:empty + p", ["three"], ["one", "two", "four"]),
        ]
        for (rule, gone, kept) in cases {
            let page = "<style>\(rule) { display: none }</style><div><h2>Title</h2><p>one</p><p>two</p><p></p>"
                + "<p>three</p><p>four</p></div>"
            let shown = text(page)
            for word in gone { XCTAssertFalse(shown.contains(word), "\(rule): \(word) in \(shown)") }
            for word in kept { XCTAssertTrue(shown.contains(word), "\(rule): \(word) not in \(shown)") }
            XCTAssertTrue(shown.contains("Title"), "\(rule): \(shown)")
        }
        // Written without end tags, and in the dump, alike.
        let open = "<style>h2 + p { display: none }</style><h2>Title</h2><p>one<p>two<p>three"
        XCTAssertEqual(dump(open).split(separator: "\n").filter { !$0.isEmpty }, ["Title", "two", "three"])
        // Inline elements, and a block whose earlier sibling is a folded inline element.
        let inline = "<style>span:nth-child(2) { display: none } ul:first-child { display: none }"
            + " em + em { display: none }</style>"
            + "<p><span>s-one</span> <span>s-two</span> <span>s-three</span></p>"
            + "<div><a href='/x'>link</a><ul><li>list-shown</li></ul></div>"
            + "<p><em>e-one</em> <em>e-two</em></p>"
        let shown = text(inline)
        for word in ["s-one", "s-three", "link", "list-shown", "e-one"] { XCTAssertTrue(shown.contains(word), "\(word) in \(shown)") }
        for word in ["s-two", "e-two"] { XCTAssertFalse(shown.contains(word), "\(word) in \(shown)") }
    }

    /// Pages whose rules read siblings, positions or `:empty` read the same whether the prefilter folded their
    /// paragraphs and inline elements into text or gumbo parsed every element: folded elements are matched at
    /// their place in the page (`FoldedElements`), and a folded paragraph takes its own style, not the `p` its
    /// text stands in.
    func testFoldedElementsReadAsParsedOnes() {
        let bodies = [
            "<div><h2>T</h2><p>one</p><p>two</p><p></p><p>three <em>e1</em> <em>e2</em></p><p>four</p></div>",
            "<div>\n<p>one</p>\n<p>two <b>b1</b> and <b>b2</b></p>\n<div>after</div></div>",
            "<div>lead <span>s1</span> <span>s2</span><p>one<p>two</div><p>next</p>",
            "<section><p>one<p>two<p>three</section><section><p>x</p></section>",
            "<ul><li>item <a href='/a'>a1</a><p>para one<p>para two</li><li><code>c</code><ul><li>in</li></ul></li></ul>",
            "<div><p>one</p>  <p>two</p><p>three</p> tail text <i>i1</i><h3>H</h3></div>",
            "<div><p class='x'>title</p>\n<p>body one</p>\n</div><div>\n</p><p>stray</p></div>",
            "<p>a &amp; b <em>e</em><p>c &copy; d<p>e</p>\n<p></p>\n<p>f</p><table><tr><td>cell</td></tr></table>",
            "<div><span>s</span><p>p1</p><span>t</span> <span>u</span><p>p2</div>",
            "<blockquote><p>q1<p>q2 <a href='/q'>link</a></blockquote><p>after <em>x</em></p><p>last",
        ]
        let rules = [
            "h2 + p", "p + p", "p:first-child", "p:last-child", "p:nth-child(2)", "p:nth-last-child(2)",
            "p:only-child", "p:empty + p", "p ~ p", "em + em", "b:last-child", "span:first-child", "span + span",
            ":first-child", "p:not(:last-child)", "li > :first-child", "div > p:nth-child(odd)", "p.x + p",
            "h3:first-child", "ul:first-child", "a + p", "p:first-child em", "* + div", "h2 ~ p", "p.x ~ p",
            "h2 ~ p:empty ~ p", "span ~ p", "p:empty ~ p",
            // Rules on every paragraph: paragraphs with no `p` open before them (`<div>\n<p>x`) are elements too.
            "p", "div p", "section > p", "blockquote p", "li p", "em", "span", "b",
        ]
        for body in bodies {
            for rule in rules {
                for (pseudo, declaration) in [("", "display: none"), ("", "display: inline"), ("", "display: block"),
                                              ("", "text-transform: uppercase"), ("", "visibility: hidden"),
                                              ("::before", "content: '<'"), ("::after", "content: '>'")] {
                    let page = "<style>\(rule)\(pseudo) { \(declaration) }</style>" + body
                    var html = page
                    let unfolded = html.withUTF8 {
                        DocumentBuilder.build(source: $0, baseURL: nil, placeholders: false).dumpText(width: 80)
                    }
                    XCTAssertEqual(Document.parse(html: page, baseURL: nil).dumpText(width: 80), unfolded, page)
                }
            }
        }
    }

    /// The same over pages put together from pieces of markup that the prefilter folds or leaves to gumbo (stray
    /// end tags, tables, lists, `<p>` in the head), with sibling, position and `:empty` rules, from a fixed seed.
    /// (`display: block` is left out: an inline element the prefilter folded stays inline whatever its display.)
    func testPiecedPagesReadAlikeFoldedOrParsed() {
        let parts = ["<p>", "</p>", "<p>", "text ", "<em>e</em>", " <span>s</span>", "<div>", "</div>", "<h2>H</h2>",
                     "\n", "<ul><li>i</li></ul>", "<a href='/x'>a</a>", "&amp;", "<p class=x>c</p>", "<b>b</b>",
                     "<table><tr><td>t", "</td></tr></table>", "<li>", "<blockquote>", "</blockquote>", "  ", "<br>",
                     "<i>i</i>", "<code>c</code>", "<span class=y>y</span>", "<section>", "</section>", "<!-- c -->",
                     "<pre>p</pre>", "<h3>", "</h3>", "<p></p>", "<em class=k>k</em>", "<dl><dt>d</dt><dd>",
                     "</dd></dl>", "<img alt=im>", "<q>q</q>"]
        let rules = ["h2 + p", "p + p", "p:first-child", "p:last-child", "p:nth-child(2)", "p:nth-last-child(2)",
                     "p:only-child", "p:empty", "p ~ p", "em + em", "span:first-child", ":first-child",
                     "p:not(:last-child)", "li > :first-child", "div > p:nth-child(odd)", "p.x + p", "h2 ~ p",
                     "* + div", "b ~ em", "p:empty + p", "i + b", "p:first-child b:last-child", "div:empty",
                     ":only-child", "em.k + *", ":nth-child(3)", ":nth-last-child(1)", "p:only-child i",
                     "section > :last-child", "p:not(:empty)"]
        let declarations = ["display: none", "display: inline", "text-transform: uppercase", "visibility: hidden"]
        // SplitMix64 (<https://prng.di.unimi.it/splitmix64.c>): the same pages every run.
        var state: UInt64 = 27
        func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        for _ in 0..<3000 {
            var style = ""
            for _ in 0...next(3) {
                let rule = rules[next(rules.count)]
                style += next(6) == 0 ? "\(rule)::before { content: '<' } "
                    : "\(rule) { \(declarations[next(declarations.count)]) } "
            }
            var page = "<style>\(style)</style>"
            for _ in 0...next(14) { page += parts[next(parts.count)] }
            var html = page
            let unfolded = html.withUTF8 {
                DocumentBuilder.build(source: $0, baseURL: nil, placeholders: false).dumpText(width: 80)
            }
            XCTAssertEqual(Document.parse(html: page, baseURL: nil).dumpText(width: 80), unfolded, page)
        }
    }

    /// Attribute selectors apply to any attribute the page's selectors test, not only those the document model
    /// reads: the prefilter keeps every name the rules mention (`CSSRuleSet.attributeNames`), on blocks and on the
    /// inline elements it would otherwise make pieces of, with each of the seven matchers.
    func testSelectorsOnAnyAttributeApply() {
        let page = "<style>body > div:not([data-keep]) { display: none } [href$='.pdf'] { display: none }"
            + " [data-state=closed] { display: none } [data-hidden] { display: none }"
            + " [aria-expanded=false] + ul { display: none } input[type=hidden] + label { display: none }"
            + " span[data-x~=b] { display: none } [data-l|=en] { display: none } [data-p^=pre] { display: none }"
            + " [data-s$=suf] { display: none } [data-c*=mid] { display: none } [DATA-Case=Upper] { display: none }"
            + "</style>"
            + "<div data-keep>two <a href='x.pdf' class=k>pdf</a></div><div>not-kept</div>"
            + "<div data-keep><div data-state=closed role=dialog><p>dialog</p></div><div data-state=open><p>shown-a</p></div>"
            + "<p data-hidden>marked</p><h2 aria-expanded=false>Menu</h2><ul><li>menu-item</li></ul>"
            + "<h2 aria-expanded=true>Open</h2><ul><li>shown-b</li></ul>"
            + "<input type=hidden name=t value=v><label>hidden-label</label>"
            + "<p>a <span data-x='a b c'>tilde</span> <em data-l=en-US>dash</em> <b data-p=prefix>caret</b>"
            + " <i data-s=thesuf>dollar</i> <code data-c=amidst>star</code> <span data-x='ab'>shown-c</span>"
            + " <em data-l=eng>shown-d</em> <span DATA-CASE=Upper>upper</span> <span data-case=upper>shown-f</span> shown-e</p></div>"
        let text = self.text(page)
        for kept in ["two", "shown-a", "shown-b", "shown-c", "shown-d", "shown-e", "shown-f", "Menu", "Open"] {
            XCTAssertTrue(text.contains(kept), "\(kept) in \(text)")
        }
        for gone in ["pdf", "not-kept", "dialog", "marked", "menu-item", "hidden-label", "tilde", "dash", "caret",
                     "dollar", "star", "upper"] {
            XCTAssertFalse(text.contains(gone), "\(gone) in \(text)")
        }
        let hiding = "<style>[aria-hidden=true] { display: none } [role=dialog] { display: none }"
            + " [lang|=fr] { display: none } div[dir=rtl] span { visibility: hidden }</style>"
            + "<p aria-hidden=true>icon</p><p aria-hidden=false>shown-a</p><div role=dialog><p>dialog</p></div>"
            + "<div role=main><p>shown-b</p></div><p lang=fr-CA>bonjour</p><p lang=en>shown-c</p>"
            + "<div dir=rtl><p>x <span>mirrored</span></p></div><em aria-hidden=true>em-icon</em> shown-d"
            + "<p>shown-e <span aria-hidden=true>span-icon</span> <b role=img>b-role</b></p>"
        let shown = Document.parse(html: hiding, baseURL: nil).text
        for kept in ["shown-a", "shown-b", "shown-c", "shown-d", "shown-e", "b-role"] {
            XCTAssertTrue(shown.contains(kept), shown)
        }
        for gone in ["icon", "dialog", "bonjour", "mirrored"] { XCTAssertFalse(shown.contains(gone), shown) }
    }

    /// Text standing directly in an element displayed as `table` or `table-row` reads where it stands, in a cell of
    /// its own (CSS 2.1 §17.2.1's anonymous cells), in the dump and in the window's rows; an HTML `<table>`'s stray
    /// text still goes before it, as the parser puts it.
    func testTextDirectlyInACSSTableStandsWhereItIs() {
        let page = "<style>.t { display: table } .r { display: table-row } .c { display: table-cell }</style>"
            + "<div class=t>before <div class=r><div class=c>A1</div><div class=c>B1</div> in-row</div> middle"
            + " <div class=r><div class=c>A2</div><div class=c>B2</div></div> after</div><p>end</p>"
        let lines = dump(page).split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        XCTAssertEqual(lines, ["before", "A1 B1 in-row", "middle", "A2 B2", "after", "end"], lines.description)
        let window = Document.parse(html: page, baseURL: nil, tabbedTables: true).text
        for (earlier, later) in [("before", "A1"), ("B1", "middle"), ("middle", "A2"), ("B2", "after")] {
            let first = try? XCTUnwrap(window.range(of: earlier)), second = try? XCTUnwrap(window.range(of: later))
            XCTAssertTrue(first != nil && second != nil && first!.lowerBound < second!.lowerBound, window)
        }
        let html = dump("<table>stray<tr><td>A1<td>B1</table>")
        XCTAssertTrue(html.hasPrefix("stray"), html)
    }

    /// A linked sheet naming an attribute no `<style>` names: the page is built with it, in the dump's one build
    /// and in the window's second (`Browser.fetchStyleSheets`); the rule never applies to an element whose
    /// attribute a piece dropped.
    func testALinkedSheetsAttributeSelectorsApply() {
        let sheets: [URL: [UInt8]] = [URL(string: "https://example.org/site.css")!:
            Array("[data-state=closed] { display: none } abbr[data-tip] { text-transform: uppercase }".utf8)]
        let page = "<link rel=stylesheet href=site.css><style>[data-hidden] { display: none }</style>"
            + "<div data-state=closed><p>dialog</p></div><p data-hidden>marked</p>"
            + "<p>shown <abbr data-tip=x title=y>tip</abbr> <abbr title=z>plain</abbr></p>"
        let styled = text(page, styles: PageStyleOptions(sheets: sheets))
        XCTAssertFalse(styled.contains("dialog") || styled.contains("marked"), styled)
        XCTAssertTrue(styled.contains("shown TIP plain"), styled)
        // Before the sheet has come, only the `<style>`'s rule applies.
        let first = text(page)
        XCTAssertTrue(first.contains("dialog") && !first.contains("marked") && first.contains("tip"), first)
    }

    /// The prefilter keeps the names it is given and notes the others it drops; a page cannot forge its mark of
    /// dropped attributes by naming it in a selector.
    func testPrefilterKeepsTheSelectorsAttributesAndNotesTheOthers() {
        let html = "<div data-state=closed data-other=1 onclick=x><b gtkprogress-dropped data-state=a>bold text here</b></div>"
        func prefilter(_ names: [String]) -> PrefilteredMarkup {
            var source = html
            return source.withUTF8 { MarkupPrefilter.prefilter($0, keeping: names) }
        }
        let plain = prefilter([])
        XCTAssertFalse(String(decoding: plain.bytes, as: UTF8.self).contains("data-state"))
        XCTAssertTrue(plain.droppedAttributes.mayHold("data-state") && plain.droppedAttributes.mayHold("onclick"))
        XCTAssertFalse(plain.answers(attribute: "data-state"))
        XCTAssertTrue(plain.answers(attribute: "data-never-written") && plain.answers(attribute: "class"))
        let kept = prefilter(["data-state", "gtkprogress-dropped"])
        let bytes = String(decoding: kept.bytes, as: UTF8.self)
        XCTAssertTrue(bytes.contains("<div data-state=closed>"), bytes)
        XCTAssertTrue(bytes.contains("<b data-state=a>"), "the inline element stays one, with its attribute: \(bytes)")
        XCTAssertFalse(bytes.contains("gtkprogress-dropped"), bytes)
        XCTAssertTrue(kept.answers(attribute: "data-state"))
        XCTAssertFalse(kept.answers(attribute: "data-other"))
        // Past the limit, names are dropped as before and their rules left out.
        let many = (0..<(SelectedAttributeNames.limit + 10)).map { "data-\($0)" }
        let capped = prefilter(many)
        XCTAssertEqual(capped.selectedAttributes.names.count, SelectedAttributeNames.limit)
    }

    /// Formatting elements (`<b>`, `<code>`, `<em>`…) keep their classes, ids and `style`, as pieces and as gumbo
    /// elements, so rules on them apply; negations on them apply only where the page's attributes say so.
    func testSelectorsOnFormattingElementsApplyAndNeverMisapply() {
        let negations = "<style>em:not(.x) { display: none } b:not(#k) { display: none }"
            + " :not(.wrap) > i { display: none }</style>"
        // Pieces (an element around plain text) and gumbo elements (one with an element inside) alike.
        let page = negations + "<p>A <em class=x>classed-piece</em> <em>plain-piece</em></p>"
            + "<p>B <em class=x>classed-element <i>inner</i></em> <em>plain-element <span>s</span></em></p>"
            + "<p>C <b id=k>identified</b> <b>anonymous</b></p>"
            + "<p>D <u class=wrap><i>wrapped</i></u></p>"
        let shown = text(page)
        for kept in ["classed-piece", "classed-element", "identified", "wrapped"] {
            XCTAssertTrue(shown.contains(kept), "\(kept) hidden by a :not() it does not meet: \(shown)")
        }
        for gone in ["plain-piece", "plain-element", "anonymous"] {
            XCTAssertFalse(shown.contains(gone), "a rule on an element without attributes still applies: \(shown)")
        }
        let positive = text("<style>code.xref { display: none } em.n { text-transform: uppercase }"
                            + " strong.a.b { display: none } i#only { display: none }</style>"
                            + "<p>see <code class=xref>ref-piece</code> and <code class=xref>ref <b>el</b></code>"
                            + " <em class=n>quiet</em> <code class=other>other-code</code>"
                            + " <strong class='b  a'>two-classes</strong> <strong class=a>one-class</strong>"
                            + " <i id=only>by-id</i> <em style='display:none'>by-style</em></p>")
        for gone in ["ref-piece", "ref el", "two-classes", "by-id", "by-style"] {
            XCTAssertFalse(positive.contains(gone), "\(gone) in \(positive)")
        }
        for kept in ["QUIET", "other-code", "one-class"] { XCTAssertTrue(positive.contains(kept), "\(kept) in \(positive)") }
        // A class written with a character reference is the element's, decoded, as any other.
        let referenced = text("<style>code.x { text-transform: uppercase } code:not(.y) { font-weight: bold }"
                              + " em:not(.x) { display: none }</style><p><code class=&#120;>coded</code>"
                              + " <em class=&#120;>emphasis</em></p>")
        XCTAssertTrue(referenced.contains("CODED") && referenced.contains("emphasis"), referenced)
        // Elements whose attributes are kept are matched as before, pieces included.
        let kept = text("<style>span:not(.x) { display: none } a.k { display: none }</style>"
                        + "<p><span class=x>span-kept</span> <span>span-gone</span> <a href=/ class=k>link-gone</a>"
                        + " <a href=/>link-kept</a></p>")
        XCTAssertTrue(kept.contains("span-kept") && kept.contains("link-kept"), kept)
        XCTAssertFalse(kept.contains("span-gone") || kept.contains("link-gone"), kept)
    }

    /// `a, a:link, a:visited, a:active { … }`, as Valgrind's and many other stylesheets write it, applies to the
    /// page's links (pieces and elements alike); a rule only for `:hover` or `:visited` never does.
    func testLinkRulesApplyAndStatesNeverDo() {
        let shown = text("<style>a, a:link, a:visited, a:active { text-transform: uppercase }"
                         + " a:link.x { display: none } a:hover { display: none } a:visited { display: none }"
                         + " :any-link > b { font-style: italic; text-transform: lowercase }</style>"
                         + "<p><a href=/one>first-link</a> <a name=top>an-anchor</a> <a href=/two class=x>classed</a>"
                         + " <a href=/three>BOLD <b>INSIDE</b></a></p>")
        for kept in ["FIRST-LINK", "AN-ANCHOR", "BOLD inside"] { XCTAssertTrue(shown.contains(kept), "\(kept) in \(shown)") }
        XCTAssertFalse(shown.lowercased().contains("classed"), "a:link.x hides the classed link: \(shown)")
    }

    /// A link's own rules take its underline away or colour it (docutils' `a.toc-backref { text-decoration: none;
    /// color: black }` on its headings); rules on what holds a link do neither. Link pieces and link elements alike.
    func testALinksOwnRulesDecideItsUnderlineAndColour() {
        let page = "<style>a.back { text-decoration: none; color: black } a.red { color: #a00000 }"
            + " p.outer { text-decoration: none; color: #000080 } a.ul { text-decoration: underline }</style>"
            + "<h1><a class=back href=#toc>Heading link</a></h1><p><a class=red href=/r>red piece</a>"
            + " <a class=back href=/e>element <b>inside</b></a> <a href=/p>plain link</a></p>"
            + "<p class=outer>held <a href=/h>held link</a> <a class=ul href=/u>underlined</a></p>"
        let document = Document.parse(html: page, baseURL: URL(string: "https://example.org/"))
        func style(_ text: String) -> TextStyle? { document.runs.first { $0.text.contains(text) }?.style }
        XCTAssertEqual(style("Heading link")?.linkPlain, true)
        XCTAssertEqual(style("Heading link")?.linkColored, true)
        XCTAssertEqual(style("Heading link")?.color, 0x000000)
        XCTAssertEqual(style("red piece")?.linkPlain, false, "only coloured")
        XCTAssertEqual(style("red piece")?.linkColored, true)
        XCTAssertEqual(style("inside")?.linkPlain, true, "what the link holds goes with it")
        XCTAssertEqual(style("inside")?.linkColored, true)
        for link in ["plain link", "held link"] {
            XCTAssertEqual(style(link)?.linkPlain, false, link)
            XCTAssertEqual(style(link)?.linkColored, false, "\(link): the colour it inherits is not its own")
        }
        XCTAssertEqual(style("underlined")?.linkPlain, false)
        XCTAssertEqual(style("held")?.linkPlain, false, "not a link")
    }

    /// Sphinx's headings (`div.body h1 { font-weight: normal; background-color: #BED4EB }`): a heading's weight is
    /// the page's to set, and a background set on a block is the block's box; on an inline element or a table
    /// cell it stays behind the text.
    func testHeadingWeightAndBlockBackgrounds() {
        let page = "<style>div.body h1 { font-weight: normal; background-color: #BED4EB }"
            + " span.mark { background-color: #ffff80 } td { background: #eeeeee } div.note { background: #f0f0ff }"
            + "</style><h1>Bold heading</h1><div class=body><h1>Normal heading</h1>"
            + "<p>text <span class=mark>marked</span></p></div><div class=note><p>noted</p></div>"
            + "<table><tr><td>cell one</td><td>cell two</td></tr></table>"
        let document = Document.parse(html: page, baseURL: nil)
        func style(_ text: String) -> TextStyle? { document.runs.first { $0.text.contains(text) }?.style }
        XCTAssertEqual(style("Bold heading")?.bold, true, "a heading is bold unless the page says otherwise")
        XCTAssertEqual(style("Normal heading")?.bold, false)
        XCTAssertEqual(style("Normal heading")?.background, 0xBED4EB)
        XCTAssertEqual(style("Normal heading")?.blockBackground, true)
        XCTAssertEqual(style("marked")?.blockBackground, false, "an inline element's background is behind its text")
        XCTAssertEqual(style("marked")?.background, 0xFFFF80)
        XCTAssertEqual(style("noted")?.blockBackground, true, "a block inside a coloured block is in its box")
        XCTAssertEqual(style("cell one")?.background, 0xEEEEEE)
        XCTAssertEqual(style("cell one")?.blockBackground, false, "a cell's row is a line of the window's table")
    }

    /// "Visually hidden" text (skip links, screen-reader labels) is clipped to nothing: `clip` with a rectangle of
    /// no area (CSS 2.1 §11.1.2) or `clip-path: inset(50%)` (CSS Masking 1) hides it, as in browsers; a clip that
    /// leaves something, `auto`, `none`, and a state that never applies here (`:focus`) do not.
    func testClippedAwayTextIsHidden() {
        let shown = text("""
            <style>.a { position: absolute; clip: rect(1px, 1px, 1px, 1px) } .b { clip: rect(0 0 0 0) }
            .c { clip-path: inset(50%) } .d { clip: rect(0px, 100px, 50px, 0px) } .e { clip: rect(0 0 0 0) }
            .e:focus { clip: auto } .f { clip-path: inset(10%) } .g { clip: rect(0 0 0 0) } .g.show { clip: auto }
            .h { clip-path: none } .i { clip: rect(0, 0, 0, 0) } .i .j { clip: auto }</style>
            <p>start <span class=a>A-gone</span> <span class=b>B-gone</span> <span class=c>C-gone</span>
            <span class=d>D-kept</span> <a class=e href=#x>E-gone</a> <span class=f>F-kept</span>
            <span class="g show">G-kept</span> <span class="h">H-kept</span> <span class=i>I-gone <b class=j>J-gone</b></span>
            end</p>
            """)
        for gone in ["A-gone", "B-gone", "C-gone", "E-gone", "I-gone", "J-gone"] {
            XCTAssertFalse(shown.contains(gone), "\(gone) in \(shown)")
        }
        for kept in ["D-kept", "F-kept", "G-kept", "H-kept", "start", "end"] {
            XCTAssertTrue(shown.contains(kept), "\(kept) in \(shown)")
        }
    }

    /// Past `formattingVocabularyLimit` distinct attribute lists, formatting elements lose their attributes again
    /// (gumbo's list of active formatting elements stays bounded): rules on those no longer apply, and never
    /// misapply, while the lists already seen keep working.
    func testFormattingElementClassesAreBoundedAndNeverMisapply() {
        let limit = MarkupScanner.formattingVocabularyLimit
        var page = "<style>b.c0 { display: none } b:not(.keep) { display: none } b.late { display: none }</style><p>"
        for k in 0..<(limit + 10) { page += "<b class='c\(k) keep'>w\(k) <i>x</i></b> " }
        page += "<b class='late keep'>late-one <i>x</i></b> <b class='c0 keep'>again <i>x</i></b></p>"
        let shown = text(page)
        XCTAssertFalse(shown.contains("w0 "), "the first list's rule applies: \(shown)")
        for k in 1..<(limit + 10) { XCTAssertTrue(shown.contains("w\(k) "), "w\(k) hidden by a :not() it does not meet") }
        XCTAssertTrue(shown.contains("late-one"), "past the bound, b.late cannot be answered and does not apply")
        XCTAssertFalse(shown.contains("again"), "a list seen before the bound is still kept")
        // Hostile: 20,000 distinct classes on unclosed formatting elements still parse, in bounded time.
        var hostile = "<p>"
        for k in 0..<20_000 { hostile += "<b class=h\(k)>t" }
        XCTAssertTrue(text(hostile).contains("t"))
    }

    /// The mark the prefilter writes cannot be forged or selected by a page.
    func testTheDroppedAttributesMarkIsNotThePages() {
        let shown = text("<style>[gtkprogress-dropped] { display: none } span:not([gtkprogress-dropped]) { display: none }"
                         + "</style><p><span gtkprogress-dropped>span-text</span> <b>bold-text</b></p>")
        XCTAssertTrue(shown.contains("span-text") && shown.contains("bold-text"), shown)
    }

    /// `text-decoration` lines reach the text style; `none` takes away an element's own line (a `<u>`'s, a
    /// `<del>`'s) but not one it sits in, and a link keeps its link (the view's underline is the link's own look).
    func testTextDecoration() {
        let page = """
            <style>.u { text-decoration: underline dotted red } .s { text-decoration-line: line-through }
            .n, u, s { text-decoration: none } a { text-decoration: none } .both { text-decoration: underline line-through }
            </style>
            <p><span class=u>under-span</span> <span class=s>struck-span</span> <u>plain-u and more</u>
            <del class=n>plain-del and more</del> <a href=/x>a-link</a> <span class=both>both-lines</span></p>
            <p class=u>outer <span class=n>still-under</span> <s>only-under</s></p>
            <p><del>kept-del and more</del> <ins>kept-ins</ins></p>
            """
        let document = Document.parse(html: page, baseURL: URL(string: "https://example.org/"))
        func style(_ text: String) -> TextStyle? { document.runs.first { $0.text.contains(text) }?.style }
        XCTAssertEqual(style("under-span")?.underline, true)
        XCTAssertEqual(style("under-span")?.strikethrough, false)
        XCTAssertEqual(style("struck-span")?.strikethrough, true)
        XCTAssertEqual(style("plain-u")?.underline, false)
        XCTAssertEqual(style("plain-del")?.strikethrough, false)
        XCTAssertEqual(style("both-lines")?.underline, true)
        XCTAssertEqual(style("both-lines")?.strikethrough, true)
        XCTAssertNotNil(style("a-link")?.link, "a link without its underline is still a link")
        XCTAssertEqual(style("still-under")?.underline, true, "none does not take away the parent's line")
        XCTAssertEqual(style("only-under")?.underline, true)
        XCTAssertEqual(style("only-under")?.strikethrough, false)
        XCTAssertEqual(style("kept-del")?.strikethrough, true, "without rules, HTML's own lines stand")
        XCTAssertEqual(style("kept-ins")?.underline, true)
        let off = Document.parse(html: page, baseURL: nil, styles: .off)
        XCTAssertEqual(off.runs.first { $0.text.contains("plain-u") }?.style.underline, true)
        XCTAssertEqual(off.runs.first { $0.text.contains("under-span") }?.style.underline, false)
    }

    /// `capitalize` puts each word's first letter in upper case and leaves the rest as written; a word that began
    /// outside the element is not capitalized in the middle (CSS Text 3 §2.1.1).
    func testTextTransformCapitalize() {
        let document = Document.parse(html: "<style>.c { text-transform: capitalize }</style>"
                                      + "<p class=c>the quick-brown fox's 2nd éclair iPhone 'quoted'</p>"
                                      + "<p>hel<span class=c>lo world</span> <span class=c>one two</span></p>"
                                      + "<p class=c>a<em>b</em> c<b>d e</b></p>", baseURL: nil)
        let lines = document.text.components(separatedBy: "\n\n")
        XCTAssertEqual(lines.first, "The Quick-Brown Fox's 2nd Éclair IPhone 'Quoted'")
        XCTAssertEqual(lines.dropFirst().first, "hello World One Two", document.text)
        XCTAssertEqual(lines.dropFirst(2).first, "Ab Cd E", document.text)
    }

    /// `color` inherits into the text style, `background-color` paints behind the element's text, a link keeps no
    /// page colour of its own in the view (`PageView`), and without author styles there is none.
    func testColoursReachTheTextStyle() {
        let page = "<style>.n { color: navy } .b { background: #ffffcc } .img { background: url(x.png) #000 }"
            + " .half { color: rgba(0, 0, 0, 0.5) }</style><div class=n>navy-block <em>navy-inherited</em>"
            + " <span class=b>on-cream</span></div><p class=img>no-colour</p><p class=half>no-half</p>"
        let document = Document.parse(html: page, baseURL: nil)
        func style(_ text: String) -> TextStyle? { document.runs.first { $0.text.contains(text) }?.style }
        XCTAssertEqual(style("navy-block")?.color, 0x000080)
        XCTAssertEqual(style("navy-inherited")?.color, 0x000080)
        XCTAssertEqual(style("on-cream")?.color, 0x000080)
        XCTAssertEqual(style("on-cream")?.background, 0xFFFFCC)
        XCTAssertNil(style("navy-block")?.background)
        XCTAssertNil(style("no-colour")?.background, "a background with an image is not read")
        XCTAssertNil(style("no-half")?.color, "a translucent colour over the theme's unknown background is not used")
        // Over a page background, translucent colours are composited (Compositing 1 §5.1); `transparent` paints
        // nothing, and transparent text keeps the theme's colour.
        let layered = Document.parse(html: """
            <style>body { background: white } .dim { color: rgba(0, 0, 0, .5) } .tint { background: rgb(0 0 255 / 50%) }
            .clear { background: transparent } .ghost { color: transparent } .none { background: none }
            .hsl { color: hsl(240 100% 25%) } .named { color: rebeccapurple }</style>
            <body><p class=dim>dim-text</p><p class=tint>tint-text <span class=dim>dim-on-tint</span></p>
            <p class="tint"><span class=clear>clear-text</span></p><p class=named>purple <span class=ghost>ghost-text</span></p>
            <p class=tint><span class=none>none-text</span></p><p class=hsl>hsl-text</p></body>
            """, baseURL: nil)
        func layeredStyle(_ text: String) -> TextStyle? { layered.runs.first { $0.text.contains(text) }?.style }
        XCTAssertEqual(layeredStyle("dim-text")?.color, 0x808080)
        XCTAssertEqual(layeredStyle("dim-text")?.background, 0xFFFFFF)
        XCTAssertEqual(layeredStyle("tint-text")?.background, 0x8080FF)
        XCTAssertEqual(layeredStyle("dim-on-tint")?.color, 0x404080, "half black over the composited tint")
        XCTAssertEqual(layeredStyle("clear-text")?.background, 0x8080FF, "transparent shows what is behind")
        XCTAssertEqual(layeredStyle("none-text")?.background, 0x8080FF)
        XCTAssertEqual(layeredStyle("purple")?.color, 0x663399)
        XCTAssertNil(layeredStyle("ghost-text")?.color, "transparent text is not made invisible")
        XCTAssertEqual(layeredStyle("hsl-text")?.color, 0x000080)
        let off = Document.parse(html: page, baseURL: nil, styles: .off)
        XCTAssertNil(off.runs.first { $0.text.contains("on-cream") }?.style.color)
        XCTAssertEqual(off.text, document.text, "colours change nothing in the text (and so in --dump)")
    }

    func testTextTransform() {
        let document = Document.parse(html: "<style>.u { text-transform: uppercase } .l { text-transform: lowercase }"
                                      + "</style><p class=u>shout <em>louder</em></p><p class=l>QUIET</p>", baseURL: nil)
        XCTAssertEqual(document.text, "SHOUT LOUDER\n\nquiet")
    }

    /// The dump's nominal screen is a desktop width; print rules never apply.
    func testMediaRulesInTheDocument() {
        let page = """
            <style>@media print { .p { display: none } } @media (max-width: 600px) { .m { display: none } }
            @media screen and (min-width: 700px) { .d { display: none } }</style>
            <p class="p">print-hidden</p><p class="m">phone-hidden</p><p class="d">desktop-hidden</p>
            """
        let shown = text(page)
        XCTAssertTrue(shown.contains("print-hidden"))
        XCTAssertTrue(shown.contains("phone-hidden"))
        XCTAssertFalse(shown.contains("desktop-hidden"))
        let narrow = Document.parse(html: page, baseURL: nil, styles: PageStyleOptions(media: CSSMedia(width: 400))).text
        XCTAssertFalse(narrow.contains("phone-hidden"))
        XCTAssertTrue(narrow.contains("desktop-hidden"))
    }

    /// The widths at which a page's media queries change their answer, from `@media`, `@import` and `media`
    /// attributes: a window resized across one builds the page again. Features other than width add none.
    func testMediaWidthsAreNoted() {
        let sheets: [URL: [UInt8]] = [URL(string: "https://example.org/print.css")!: Array("p { color: red }".utf8)]
        let page = """
            <link rel=stylesheet href="/print.css" media="screen and (max-width: 40em)">
            <style>@import url(/wide.css) (min-width: 1200px); @media (max-width: 600px) { .m { display: none } }
            @media screen and (min-width: 700px), (orientation: portrait) { .d { display: none } }
            @media (prefers-color-scheme: dark) { .k { display: none } }</style><p>text</p>
            """
        let document = Document.parse(html: page, baseURL: URL(string: "https://example.org/"),
                                      styles: PageStyleOptions(sheets: sheets))
        XCTAssertEqual(document.mediaWidths, [600, 640, 700, 1200])
        XCTAssertTrue(CSSMedia.answersChange(from: 650, to: 750, at: document.mediaWidths), "across 700")
        XCTAssertTrue(CSSMedia.answersChange(from: 700, to: 701, at: [700]), "min-width: 700px stops holding… ")
        XCTAssertTrue(CSSMedia.answersChange(from: 699, to: 700, at: [700]), "…or starts")
        XCTAssertFalse(CSSMedia.answersChange(from: 710, to: 1100, at: document.mediaWidths), "between two widths")
        XCTAssertEqual(Document.parse(html: "<style>p { color: red }</style><p>x</p>", baseURL: nil).mediaWidths, [])
    }

    func testImportsAndLoops() {
        let base = "https://example.org/"
        let sheets: [URL: [UInt8]] = [
            URL(string: base + "a.css")!: Array("@import 'b.css'; .a { display: none }".utf8),
            URL(string: base + "b.css")!: Array("@import 'a.css'; .b { display: none }".utf8),
        ]
        let document = Document.parse(html: "<link rel=stylesheet href=a.css><p class=a>A</p><p class=b>B</p><p>C</p>",
                                      baseURL: URL(string: base), styles: PageStyleOptions(sheets: sheets))
        XCTAssertEqual(document.text.trimmingCharacters(in: .whitespacesAndNewlines), "C")
        XCTAssertEqual(document.styleNotes.count, 1)
        XCTAssertTrue(document.styleNotes[0].contains("a.css"), document.styleNotes[0])
    }

    /// A chain of imports is followed `maximumImportDepth` sheets deep, the linked one included: the sheets past it
    /// are not read, and a note says so.
    func testImportsDeeperThanTheLimitAreNotFollowed() {
        let base = "https://example.org/"
        var sheets: [URL: [UInt8]] = [:]
        for level in 0..<7 {
            sheets[URL(string: base + "s\(level).css")!] =
                Array("@import 's\(level + 1).css'; .l\(level) { display: none }".utf8)
        }
        let limit = PageStyleOptions.maximumImportDepth
        let html = "<link rel=stylesheet href=s0.css>" + (0..<7).map { "<p class=l\($0)>level\($0)</p>" }.joined()
        let document = Document.parse(html: html, baseURL: URL(string: base), styles: PageStyleOptions(sheets: sheets))
        for level in 0..<7 {
            XCTAssertEqual(document.text.contains("level\(level)"), level >= limit, "level \(level): \(document.text)")
        }
        XCTAssertTrue(document.styleNotes.contains { $0.contains("imports deeper than \(limit)") }, "\(document.styleNotes)")
    }

    func testUnreadableSheetIsNamedAndThePageShows() {
        let document = Document.parse(html: "<link rel=stylesheet href=gone.css><p>page</p>",
                                      baseURL: URL(string: "https://example.org/"),
                                      styles: PageStyleOptions(fetch: { _ in .failure(.init("timed out")) }))
        XCTAssertEqual(document.text, "page")
        XCTAssertEqual(document.styleNotes, ["Page style: timed out"])
    }

    // MARK: Hostile CSS

    /// A 10 MB stylesheet is cut at `maximumSheetBytes`, said so, and the page shows.
    func testHugeStyleSheetIsCut() {
        let rule = ".x{display:none}\n"
        let big = String(repeating: rule, count: 10_000_000 / rule.utf8.count)
        let document = Document.parse(html: "<style>\(big)</style><p class=x>gone</p><p>page</p>", baseURL: nil)
        XCTAssertEqual(document.text, "page")
        XCTAssertEqual(document.styleNotes.count, 2, document.styleNotes.joined(separator: "\n"))
        XCTAssertTrue(document.styleNotes.contains { $0.contains("cut at") })
        XCTAssertTrue(document.styleNotes.contains { $0.contains("more than 100000 rules") })
    }

    /// 100,000 rules (none for the page's classes) and a 10,000-part selector: the page shows, the selector is
    /// refused.
    /// 100,000 rules, the first with a selector of 10,000 parts (under the 2 MiB a sheet may have, so every one is
    /// read): the rules apply, the long selector is left out with a note, and the page shows.
    func testManyRulesAndLongSelectors() {
        let long = Array(repeating: "div", count: 10_000).joined(separator: " ") + " { display: none }\n"
        // Rules named in base 36 (`#r255r`), so 100,000 of them fit under the sheet's 2 MiB.
        let css = long + (0..<99_999).map { "#r\(String($0, radix: 36)){display:none}" }.joined()
        XCTAssertLessThan(css.utf8.count, PageStyleOptions.maximumSheetBytes, "the whole sheet is read")
        let document = Document.parse(html: "<style>\(css)</style><div><div><p id=r5>gone</p><p id=r\(String(99_998, radix: 36))>last</p>"
                                      + "<p>page</p></div></div>", baseURL: nil)
        XCTAssertEqual(document.text, "page", "the first and the 100,000th rule apply; the long selector does not")
        XCTAssertEqual(document.styleNotes.count, 1, "\(document.styleNotes)")
        XCTAssertTrue(document.styleNotes.first?.contains("more than 64 parts") == true, "\(document.styleNotes)")
        let tooMany = css + "#past{display:none}"
        let past = Document.parse(html: "<style>\(tooMany)</style><p id=past>kept</p>", baseURL: nil)
        XCTAssertEqual(past.text, "kept", "the 100,001st rule is past the limit")
        XCTAssertTrue(past.styleNotes.contains { $0.contains("100000") }, "\(past.styleNotes)")
    }

    func testDeeplyNestedBlocks() {
        let depth = 100_000
        let css = "p { x: " + String(repeating: "{", count: depth) + String(repeating: "}", count: depth)
            + " } .gone { display: none }"
        let document = Document.parse(html: "<style>\(css)</style><p class=gone>gone</p><p>page</p>", baseURL: nil)
        XCTAssertEqual(document.text, "page")
        XCTAssertEqual(document.styleNotes.count, 1)
    }
}

/// The rule index, the ancestor groups and style sharing between alike siblings give what plain matching gives.
final class CSSMatchingShortcutTests: XCTestCase {
    private func dump(_ html: String) -> String {
        Document.parse(html: html, baseURL: URL(string: "https://example.org/page.html"), styles: PageStyleOptions())
            .dumpText(width: 80)
    }

    /// Alike siblings share a style, except where a rule that looks at their place or children was tested.
    func testAlikeSiblingsShareOnlyWhatTheirPlaceDoesNotDecide() {
        let shown = dump("""
            <style>li.a:first-child { display: none } li.b + li.b { display: none } p.e:empty::after { content: "E" }
            li.c:nth-child(3) { display: none } li.d { display: none } li.f:not(:last-child) { display: none }</style>
            <ul><li class="a">first-a</li><li class="a">second-a</li></ul>
            <ul><li class="b">first-b</li><li class="b">second-b</li><li class="b">third-b</li></ul>
            <ul><li class="c">c-1</li><li class="c">c-2</li><li class="c">c-3</li><li class="c">c-4</li></ul>
            <ul><li class="d">d-1</li><li class="d">d-2</li><li class="dd">dd-3</li></ul>
            <ul><li class="f">f-1</li><li class="f">f-2</li></ul>
            <p class="e"></p><p class="e">full</p>
            """)
        for kept in ["second-a", "first-b", "c-1", "c-2", "c-4", "dd-3", "f-2", "full", "E"] {
            XCTAssertTrue(shown.contains(kept), "\(kept) in \(shown)")
        }
        for gone in ["first-a", "second-b", "third-b", "c-3", "d-1", "d-2", "f-1"] {
            XCTAssertFalse(shown.contains(gone), "\(gone) in \(shown)")
        }
        XCTAssertEqual(shown.components(separatedBy: "E").count - 1, 1, "only the empty paragraph gets ::after")
    }

    /// Many rules of one type told apart by their ancestors: each element gets exactly its own.
    func testRulesGroupedByAncestorsMatchLikeAScan() {
        var style = ""
        var body = ""
        for k in 0..<300 {
            style += "div.c\(k) > p { display: none }\n"
            style += "section#s\(k) span.t { font-weight: bold }\n"
        }
        for k in stride(from: 0, to: 300, by: 7) {
            body += "<div class='c\(k)'><p>hidden-\(k)</p></div><div class='x\(k)'><p>shown-\(k)</p></div>"
        }
        let shown = dump("<style>\(style)</style>\(body)<section id='s5'><div><span class='t'>deep</span></div></section>")
        for k in stride(from: 0, to: 300, by: 7) {
            XCTAssertFalse(shown.contains("hidden-\(k)"), "hidden-\(k)")
            XCTAssertTrue(shown.contains("shown-\(k)"), "shown-\(k)")
        }
        XCTAssertTrue(shown.contains("deep"))
    }

    func testHashIndexFindsWhatWasInserted() {
        var index = CSSHashIndex()
        for key in stride(from: UInt64(0), to: 5000, by: 3) { index.insert(key &* 0x1_0000_0001, Int32(key)) }
        for key in stride(from: UInt64(0), to: 5000, by: 3) { XCTAssertEqual(index[key &* 0x1_0000_0001], Int32(key)) }
        XCTAssertNil(index[1])
        XCTAssertEqual(index.count, 1667)
    }

    func testRuleSetNeedsOnlyTheAncestorsItsSelectorsName() {
        var rules = CSSRuleSet()
        rules.add(CSSParser.parseStyleSheet("div.a > p.x { display: none } #i .y { display: none } .z { display: none }",
                                            media: CSSMedia(width: 800)))
        func slot(_ kind: UInt8, _ name: String) -> Int { CSSAncestorFilter.hash(kind: kind, name.utf8) }
        for needed in [slot(CSSAncestorFilter.classKind, "a"), slot(CSSAncestorFilter.typeKind, "div"),
                       slot(CSSAncestorFilter.idKind, "i")] {
            XCTAssertTrue(rules.neededSlots.contains(needed))
        }
        // Subjects are matched on the element itself, never looked up among its ancestors.
        for subject in [slot(CSSAncestorFilter.classKind, "x"), slot(CSSAncestorFilter.classKind, "y"),
                        slot(CSSAncestorFilter.classKind, "z"), slot(CSSAncestorFilter.typeKind, "p")] {
            XCTAssertFalse(rules.neededSlots.contains(subject))
        }
    }

    func testAncestorFilterKeepingSlotsHidesByThoseAncestors() {
        let page = "<style>div.a > p.x { display: none } section .b span { display: none }</style>"
            + "<div class='a c'><p class='x'>one</p></div><div class='c'><p class='x'>two</p></div>"
            + "<section><div class='b'><p><span>three</span></p></div></section><section><span>four</span></section>"
        let text = Document.parse(html: page, baseURL: nil).text
        XCTAssertFalse(text.contains("one"))
        XCTAssertTrue(text.contains("two"))
        XCTAssertFalse(text.contains("three"))
        XCTAssertTrue(text.contains("four"))
    }

    func testAncestorFilterKeepsWhatIsPresent() {
        var filter = CSSAncestorFilter()
        let a = CSSAncestorFilter.hash(kind: CSSAncestorFilter.classKind, "a".utf8)
        let b = CSSAncestorFilter.hash(kind: CSSAncestorFilter.classKind, "b".utf8)
        filter.add(a); filter.add(b); filter.add(a)
        XCTAssertEqual(Set(filter.present), [a, b])
        filter.remove(a)
        XCTAssertTrue(filter.mayContain(a))
        filter.remove(a)
        XCTAssertFalse(filter.mayContain(a))
        XCTAssertEqual(filter.present, [b])
    }
}

/// `@supports` (CSS Conditional 3 §6 and its examples), answered for what this engine does.
final class CSSSupportsTests: XCTestCase {
    private func text(_ html: String) -> String { Document.parse(html: html, baseURL: nil).text }

    private func supported(_ condition: String) -> Bool? { CSSSupports.evaluate(CSSParser.parseComponents(condition)) }

    func testConditions() {
        XCTAssertEqual(supported("(display: flex)"), true)
        XCTAssertEqual(supported("not (display: flex)"), false)
        XCTAssertEqual(supported("(display: table-cell) and (display: list-item)"), true)
        XCTAssertEqual(supported("(display: table-cell) and (display: list-item) and (display: run-in)"), false,
                       "run-in is not a display this engine reads")
        XCTAssertEqual(supported("(transition-property: color) or (display: grid)"), true)
        XCTAssertEqual(supported("((transition-property: color) or (animation-name: foo)) and (transform: rotate(10deg))"),
                       false, "properties the engine does not read are not supported here")
        XCTAssertEqual(supported("(--accent: blue)"), true)
        XCTAssertEqual(supported("(color: var(--x))"), true)
        XCTAssertEqual(supported("(color: hsl(120 100% 50%))"), true)
        XCTAssertEqual(supported("(color: lab(50% 40 59))"), false)
        XCTAssertEqual(supported("selector(a > b)"), true)
        XCTAssertEqual(supported("selector(:has(p))"), false)
        XCTAssertEqual(supported("selector(a:hover)"), true, "valid, though nothing here is ever hovered")
        XCTAssertEqual(supported("(whatever)"), false, "<general-enclosed> is false")
        XCTAssertEqual(supported("NOT (display: flex)"), false)
        // Not the grammar: no parentheses, and/or mixed without them, `not` twice.
        XCTAssertNil(supported("display: flex"))
        XCTAssertNil(supported("(display: flex) and (display: block) or (display: inline)"))
        XCTAssertNil(supported("not not (display: flex)"))
        XCTAssertNil(supported(""))
    }

    func testRulesInsideApplyOnlyWhenSupported() {
        let shown = text("""
            <style>@supports (display: grid) { .a { display: none } }
            @supports not (display: grid) { .b { display: none } }
            @supports (backdrop-filter: blur(2px)) { .c { display: none } }
            @supports not (backdrop-filter: blur(2px)) { .d { display: none } }
            @supports display: grid { .e { display: none } }
            @supports (display: block) { @media print { .f { display: none } } @media screen { .g { display: none } } }
            </style><p class=a>a-text</p><p class=b>b-text</p><p class=c>c-text</p><p class=d>d-text</p>
            <p class=e>e-text</p><p class=f>f-text</p><p class=g>g-text</p>
            """)
        for gone in ["a-text", "d-text", "g-text"] { XCTAssertFalse(shown.contains(gone), "\(gone) in \(shown)") }
        for kept in ["b-text", "c-text", "e-text", "f-text"] { XCTAssertTrue(shown.contains(kept), "\(kept) in \(shown)") }
    }

}

/// The store that styles name their inherited values and pseudo-element texts in (`CSSStyleStore`).
final class CSSStyleStoreTests: XCTestCase {
    private func text(_ html: String) -> String {
        Document.parse(html: html, baseURL: URL(string: "https://example.org/page.html")).text
    }

    /// A dump that keeps its rules until the process exits (`PageStyleOptions.keepsRulesUntilExit`) styles the page
    /// as one that frees them.
    func testRulesKeptUntilExitStyleAlike() {
        let page = """
            <style>.gone { display: none } p.loud { text-transform: uppercase } li::before { content: "* " }</style>
            <p class=gone>gone-text</p><p class=loud>loud text</p><ul><li>item</li></ul>
            """
        var kept = PageStyleOptions()
        kept.keepsRulesUntilExit = true
        let shown = Document.parse(html: page, baseURL: nil, styles: kept).dumpText(width: 80)
        XCTAssertEqual(shown, Document.parse(html: page, baseURL: nil).dumpText(width: 80))
        XCTAssertTrue(shown.contains("LOUD TEXT"), shown)
        XCTAssertFalse(shown.contains("gone-text"), shown)
    }

    /// An element's classes read once for its rules and for its descendants' ancestor filter: a repeated class
    /// counts once, and a ninth or tenth class still finds its rules, as an element and as an ancestor.
    func testClassesPastEightFindTheirRules() {
        let shown = text("""
            <style>.c10 { display: none } .c9 span { display: none } .twice { text-transform: uppercase }</style>
            <p class="c1 c2 c3 c4 c5 c6 c7 c8 c9 c10">gone-tenth</p>
            <div class="c1 c2 c3 c4 c5 c6 c7 c8 c9"><span>gone-descendant</span> kept-ninth</div>
            <p class="twice twice">twice text</p><p class="c1 c2 c3 c4 c5 c6 c7 c8 c1 c2 c9"><b>kept-bold</b></p>
            <div class="c1 c2 c3 c4 c5 c6 c7 c8 c1 c2 c9"><span>gone-repeat-descendant</span></div>
            """)
        XCTAssertTrue(shown.contains("kept-ninth"), shown)
        XCTAssertTrue(shown.contains("TWICE TEXT"), shown)
        for gone in ["gone-tenth", "gone-descendant", "gone-repeat-descendant"] {
            XCTAssertFalse(shown.contains(gone), "\(gone) in \(shown)")
        }
        XCTAssertTrue(shown.contains("kept-bold"), "a ninth class with no rule of its own hides nothing: \(shown)")
    }

    /// The store names inherited styles by index: one change to one parent is kept once, whichever element makes
    /// it, and a change to another parent, or to a string marker, is an entry of its own.
    func testStyleStoreKeepsOneEntryForAlikeChanges() {
        var store = CSSStyleStore()
        let hidden = store.derive(from: .initial, hidden: true, transform: .none, listStyle: nil)
        XCTAssertNotEqual(hidden.index, CSSInheritedRef.initial.index)
        XCTAssertEqual(store.derive(from: .initial, hidden: true, transform: .none, listStyle: nil), hidden)
        XCTAssertTrue(store[hidden].hidden)
        let upper = store.derive(from: hidden, hidden: true, transform: .uppercase, listStyle: .square)
        XCTAssertNotEqual(upper.index, hidden.index)
        XCTAssertEqual(store.derive(from: hidden, hidden: true, transform: .uppercase, listStyle: .square), upper)
        XCTAssertEqual(upper.transform, .uppercase)
        XCTAssertEqual(store.listStyle(of: upper), .square)
        XCTAssertNotEqual(store.derive(from: .initial, hidden: true, transform: .uppercase, listStyle: .square), upper)
        let marker = store.derive(from: .initial, hidden: false, transform: .none, listStyle: .string("→"))
        XCTAssertNotEqual(store.derive(from: .initial, hidden: false, transform: .none, listStyle: .string("→")).index,
                          marker.index)
        XCTAssertEqual(store.listStyle(of: marker), .string("→"))
        XCTAssertEqual(store.with(listStyle: .square, upper), upper)
        let decimal = store.with(listStyle: .decimal, upper)
        XCTAssertEqual(store.listStyle(of: decimal), .decimal)
        XCTAssertTrue(store[decimal].hidden)
    }

    /// Styles copied from element to element keep their `::before` and `::after` texts, and their custom
    /// properties reach the descendants, through the store's indices.
    func testPseudoContentAndCustomPropertiesThroughTheStore() {
        let shown = text("""
            <style>.n::before { content: "B-" } .n::after { content: "-A" } .v { --word: "var-text" }
            .v span::after { content: var(--word) } .h { visibility: hidden } .h b { visibility: visible }</style>
            <p class=n>one</p><p class=n>two</p><div class=v><span>x</span><span>y</span></div>
            <p class=h>hidden-text <b>shown-text</b></p><p class=h>hidden-again <b>shown-again</b></p>
            """)
        for kept in ["B-one-A", "B-two-A", "xvar-text", "yvar-text", "shown-text", "shown-again"] {
            XCTAssertTrue(shown.contains(kept), "\(kept) in \(shown)")
        }
        for gone in ["hidden-text", "hidden-again"] { XCTAssertFalse(shown.contains(gone), "\(gone) in \(shown)") }
    }
}
