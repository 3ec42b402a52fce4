internal import CGumbo

/// What the HTML5 tree-construction rules say about a tag, as flags looked up by gumbo's tag number.
///
/// The markup prefilter uses these to follow gumbo's stack of open elements closely enough to cap its depth;
/// the lists are the spec's (<https://html.spec.whatwg.org/multipage/parsing.html#tree-construction>) as gumbo
/// 0.10 implements them in `parser.c`.
struct TagTraits: OptionSet {
    let rawValue: UInt32

    /// Never has content or an end tag (`br`, `img`, …).
    static let void = TagTraits(rawValue: 1 << 0)
    /// The spec's "special" category: stops the search of "any other end tag" and of `li`/`dd` closing.
    static let special = TagTraits(rawValue: 1 << 1)
    /// Bounds "has an element in scope".
    static let scopeBoundary = TagTraits(rawValue: 1 << 2)
    /// A start tag that closes an open `p` in button scope.
    static let closesParagraph = TagTraits(rawValue: 1 << 3)
    /// Kept in the list of active formatting elements and reconstructed after misnesting.
    static let formatting = TagTraits(rawValue: 1 << 4)
    /// Content is raw text up to the matching end tag (`script`, `style`, …).
    static let rawText = TagTraits(rawValue: 1 << 5)
    /// Content is text with character references up to the matching end tag (`title`, `textarea`).
    static let escapableRawText = TagTraits(rawValue: 1 << 6)
    /// Breaks out of SVG or MathML back into HTML.
    static let breaksOutOfForeignContent = TagTraits(rawValue: 1 << 7)
    /// An SVG or MathML element whose content is parsed as HTML (see `ofForeign`).
    static let integrationPoint = TagTraits(rawValue: 1 << 8)
    /// Starts SVG or MathML content.
    static let foreignRoot = TagTraits(rawValue: 1 << 9)
    /// A heading, `h1` to `h6`.
    static let heading = TagTraits(rawValue: 1 << 10)
    /// Rows, cells and sections: closed by their siblings and meaningful only inside a table.
    static let tablePart = TagTraits(rawValue: 1 << 11)

    private static let table: [TagTraits] = {
        var table = [TagTraits](repeating: [], count: Int(GUMBO_TAG_LAST.rawValue) + 1)
        func mark(_ tags: [GumboTag], _ traits: TagTraits) {
            for tag in tags { table[Int(tag.rawValue)].insert(traits) }
        }
        mark([GUMBO_TAG_AREA, GUMBO_TAG_BASE, GUMBO_TAG_BASEFONT, GUMBO_TAG_BGSOUND, GUMBO_TAG_BR, GUMBO_TAG_COL,
              GUMBO_TAG_EMBED, GUMBO_TAG_FRAME, GUMBO_TAG_HR, GUMBO_TAG_IMAGE, GUMBO_TAG_IMG, GUMBO_TAG_INPUT,
              GUMBO_TAG_KEYGEN, GUMBO_TAG_LINK, GUMBO_TAG_META, GUMBO_TAG_PARAM, GUMBO_TAG_SOURCE, GUMBO_TAG_TRACK,
              GUMBO_TAG_WBR, GUMBO_TAG_MENUITEM, GUMBO_TAG_ISINDEX], .void)
        mark([GUMBO_TAG_ADDRESS, GUMBO_TAG_APPLET, GUMBO_TAG_AREA, GUMBO_TAG_ARTICLE, GUMBO_TAG_ASIDE,
              GUMBO_TAG_BASE, GUMBO_TAG_BASEFONT, GUMBO_TAG_BGSOUND, GUMBO_TAG_BLOCKQUOTE, GUMBO_TAG_BODY,
              GUMBO_TAG_BR, GUMBO_TAG_BUTTON, GUMBO_TAG_CAPTION, GUMBO_TAG_CENTER, GUMBO_TAG_COL,
              GUMBO_TAG_COLGROUP, GUMBO_TAG_MENUITEM, GUMBO_TAG_DD, GUMBO_TAG_DETAILS, GUMBO_TAG_DIR,
              GUMBO_TAG_DIV, GUMBO_TAG_DL, GUMBO_TAG_DT, GUMBO_TAG_EMBED, GUMBO_TAG_FIELDSET,
              GUMBO_TAG_FIGCAPTION, GUMBO_TAG_FIGURE, GUMBO_TAG_FOOTER, GUMBO_TAG_FORM, GUMBO_TAG_FRAME,
              GUMBO_TAG_FRAMESET, GUMBO_TAG_H1, GUMBO_TAG_H2, GUMBO_TAG_H3, GUMBO_TAG_H4, GUMBO_TAG_H5,
              GUMBO_TAG_H6, GUMBO_TAG_HEAD, GUMBO_TAG_HEADER, GUMBO_TAG_HGROUP, GUMBO_TAG_HR, GUMBO_TAG_HTML,
              GUMBO_TAG_IFRAME, GUMBO_TAG_IMG, GUMBO_TAG_INPUT, GUMBO_TAG_ISINDEX, GUMBO_TAG_LI, GUMBO_TAG_LINK,
              GUMBO_TAG_LISTING, GUMBO_TAG_MARQUEE, GUMBO_TAG_MENU, GUMBO_TAG_META, GUMBO_TAG_NAV,
              GUMBO_TAG_NOEMBED, GUMBO_TAG_NOFRAMES, GUMBO_TAG_NOSCRIPT, GUMBO_TAG_OBJECT, GUMBO_TAG_OL,
              GUMBO_TAG_P, GUMBO_TAG_PARAM, GUMBO_TAG_PLAINTEXT, GUMBO_TAG_PRE, GUMBO_TAG_SCRIPT,
              GUMBO_TAG_SECTION, GUMBO_TAG_SELECT, GUMBO_TAG_STYLE, GUMBO_TAG_SUMMARY, GUMBO_TAG_TABLE,
              GUMBO_TAG_TBODY, GUMBO_TAG_TD, GUMBO_TAG_TEMPLATE, GUMBO_TAG_TEXTAREA, GUMBO_TAG_TFOOT,
              GUMBO_TAG_TH, GUMBO_TAG_THEAD, GUMBO_TAG_TITLE, GUMBO_TAG_TR, GUMBO_TAG_UL, GUMBO_TAG_WBR,
              GUMBO_TAG_XMP], .special)
        mark([GUMBO_TAG_APPLET, GUMBO_TAG_CAPTION, GUMBO_TAG_HTML, GUMBO_TAG_TABLE, GUMBO_TAG_TD, GUMBO_TAG_TH,
              GUMBO_TAG_MARQUEE, GUMBO_TAG_OBJECT, GUMBO_TAG_TEMPLATE], .scopeBoundary)
        mark([GUMBO_TAG_ADDRESS, GUMBO_TAG_ARTICLE, GUMBO_TAG_ASIDE, GUMBO_TAG_BLOCKQUOTE, GUMBO_TAG_CENTER,
              GUMBO_TAG_DETAILS, GUMBO_TAG_DIR, GUMBO_TAG_DIV, GUMBO_TAG_DL, GUMBO_TAG_FIELDSET,
              GUMBO_TAG_FIGCAPTION, GUMBO_TAG_FIGURE, GUMBO_TAG_FOOTER, GUMBO_TAG_HEADER, GUMBO_TAG_HGROUP,
              GUMBO_TAG_MENU, GUMBO_TAG_MAIN, GUMBO_TAG_NAV, GUMBO_TAG_OL, GUMBO_TAG_P, GUMBO_TAG_SECTION,
              GUMBO_TAG_SUMMARY, GUMBO_TAG_UL, GUMBO_TAG_H1, GUMBO_TAG_H2, GUMBO_TAG_H3, GUMBO_TAG_H4,
              GUMBO_TAG_H5, GUMBO_TAG_H6, GUMBO_TAG_PRE, GUMBO_TAG_LISTING, GUMBO_TAG_FORM, GUMBO_TAG_LI,
              GUMBO_TAG_DD, GUMBO_TAG_DT, GUMBO_TAG_PLAINTEXT, GUMBO_TAG_TABLE, GUMBO_TAG_HR, GUMBO_TAG_XMP],
             .closesParagraph)
        mark([GUMBO_TAG_A, GUMBO_TAG_B, GUMBO_TAG_BIG, GUMBO_TAG_CODE, GUMBO_TAG_EM, GUMBO_TAG_FONT, GUMBO_TAG_I,
              GUMBO_TAG_NOBR, GUMBO_TAG_S, GUMBO_TAG_SMALL, GUMBO_TAG_STRIKE, GUMBO_TAG_STRONG, GUMBO_TAG_TT,
              GUMBO_TAG_U], .formatting)
        mark([GUMBO_TAG_SCRIPT, GUMBO_TAG_STYLE, GUMBO_TAG_XMP, GUMBO_TAG_IFRAME, GUMBO_TAG_NOEMBED,
              GUMBO_TAG_NOFRAMES], .rawText)
        mark([GUMBO_TAG_TITLE, GUMBO_TAG_TEXTAREA], .escapableRawText)
        mark([GUMBO_TAG_B, GUMBO_TAG_BIG, GUMBO_TAG_BLOCKQUOTE, GUMBO_TAG_BODY, GUMBO_TAG_BR, GUMBO_TAG_CENTER,
              GUMBO_TAG_CODE, GUMBO_TAG_DD, GUMBO_TAG_DIV, GUMBO_TAG_DL, GUMBO_TAG_DT, GUMBO_TAG_EM,
              GUMBO_TAG_EMBED, GUMBO_TAG_H1, GUMBO_TAG_H2, GUMBO_TAG_H3, GUMBO_TAG_H4, GUMBO_TAG_H5, GUMBO_TAG_H6,
              GUMBO_TAG_HEAD, GUMBO_TAG_HR, GUMBO_TAG_I, GUMBO_TAG_IMG, GUMBO_TAG_LI, GUMBO_TAG_LISTING,
              GUMBO_TAG_MENU, GUMBO_TAG_META, GUMBO_TAG_NOBR, GUMBO_TAG_OL, GUMBO_TAG_P, GUMBO_TAG_PRE,
              GUMBO_TAG_RUBY, GUMBO_TAG_S, GUMBO_TAG_SMALL, GUMBO_TAG_SPAN, GUMBO_TAG_STRONG, GUMBO_TAG_STRIKE,
              GUMBO_TAG_SUB, GUMBO_TAG_SUP, GUMBO_TAG_TABLE, GUMBO_TAG_TT, GUMBO_TAG_U, GUMBO_TAG_UL,
              GUMBO_TAG_VAR], .breaksOutOfForeignContent)
        mark([GUMBO_TAG_SVG, GUMBO_TAG_MATH], .foreignRoot)
        mark([GUMBO_TAG_H1, GUMBO_TAG_H2, GUMBO_TAG_H3, GUMBO_TAG_H4, GUMBO_TAG_H5, GUMBO_TAG_H6], .heading)
        mark([GUMBO_TAG_CAPTION, GUMBO_TAG_COLGROUP, GUMBO_TAG_TBODY, GUMBO_TAG_THEAD, GUMBO_TAG_TFOOT,
              GUMBO_TAG_TR, GUMBO_TAG_TD, GUMBO_TAG_TH], .tablePart)
        return table
    }()

    /// The traits of the HTML element with gumbo's tag number `tag`; unknown tags have none.
    @inline(__always)
    static func of(_ tag: UInt32) -> TagTraits {
        tag < UInt32(table.count) ? table[Int(tag)] : []
    }

    /// The traits of an SVG or MathML element. Only the integration points (where HTML resumes) matter, and they
    /// depend on the namespace; every other foreign element is neither special nor a scope boundary, whatever its
    /// HTML namesake is.
    static func ofForeign(_ tag: UInt32, svg: Bool) -> TagTraits {
        switch tag {
        case GUMBO_TAG_FOREIGNOBJECT.rawValue, GUMBO_TAG_DESC.rawValue, GUMBO_TAG_TITLE.rawValue:
            return svg ? [.integrationPoint, .scopeBoundary, .special] : []
        case GUMBO_TAG_MI.rawValue, GUMBO_TAG_MO.rawValue, GUMBO_TAG_MN.rawValue, GUMBO_TAG_MS.rawValue,
             GUMBO_TAG_MTEXT.rawValue:
            return svg ? [] : [.integrationPoint, .scopeBoundary, .special]
        case GUMBO_TAG_ANNOTATION_XML.rawValue:
            return svg ? [] : [.scopeBoundary, .special]
        default:
            return []
        }
    }
}

extension GumboTag {
    /// Gumbo's tag number for a tag name, matched without regard to case.
    static func named(_ name: UnsafeBufferPointer<UInt8>) -> GumboTag {
        name.withMemoryRebound(to: CChar.self) { gumbo_tagn_enum($0.baseAddress, UInt32($0.count)) }
    }
}
