internal import CGumbo

/// What an HTML element means for the text: a block, a list, a style, or nothing to show.
enum ElementRole {
    case inline
    /// Never shown: scripts, styles, form controls.
    case hidden
    /// A block; `lines` is 1 for a line break around it, 2 for a blank line (elements with vertical margins).
    case block(lines: Int)
    case heading(level: Int)
    case preformatted
    case blockQuote
    case list(ordered: Bool)
    case listItem
    case definitionTerm
    case definitionDescription
    case table
    case tableRow
    case tableCell(header: Bool)
    case link
    case bold
    case italic
    case monospace
    /// Code, keyboard input, program output: monospace on a tint.
    case code
    /// Text removed from (`<del>`) or inserted into (`<ins>`) the document: struck through or underlined.
    case edit(inserted: Bool)
    /// `<s>`, `<strike>`: struck through.
    case struck
    /// `<u>`: underlined.
    case underlined
    /// `<mark>`: highlighted.
    case highlighted
    /// `<sub>`, `<sup>`.
    case shifted(Baseline)
    /// Embedded content: a line naming it, linking to its source, then its fallback content.
    case embedded(EmbeddedKind)
    case quotation
    case lineBreak
    case image
    case rule
    case title
    case base
    case meta

    /// What an embedded element is, for the line that names it.
    enum EmbeddedKind {
        case video, audio, frame, object, embed
    }

    private static let roles: [ElementRole] = {
        var table = [ElementRole](repeating: .inline, count: Int(GUMBO_TAG_LAST.rawValue) + 1)
        func set(_ tags: [GumboTag], _ role: ElementRole) {
            for tag in tags { table[Int(tag.rawValue)] = role }
        }
        // `<noscript>` is not here: no script runs, so its content is what the author wrote for this reader
        // (HTML's "scripting disabled"). `<noembed>` and `<noframes>` stand for content that is named instead.
        set([GUMBO_TAG_SCRIPT, GUMBO_TAG_STYLE, GUMBO_TAG_TEMPLATE, GUMBO_TAG_LINK,
             GUMBO_TAG_NOEMBED, GUMBO_TAG_NOFRAMES, GUMBO_TAG_SELECT, GUMBO_TAG_DATALIST,
             GUMBO_TAG_OPTION, GUMBO_TAG_OPTGROUP, GUMBO_TAG_TEXTAREA, GUMBO_TAG_INPUT, GUMBO_TAG_KEYGEN,
             GUMBO_TAG_SOURCE, GUMBO_TAG_TRACK,
             GUMBO_TAG_PARAM, GUMBO_TAG_MAP, GUMBO_TAG_AREA,
             GUMBO_TAG_SVG, GUMBO_TAG_COLGROUP, GUMBO_TAG_COL, GUMBO_TAG_WBR, GUMBO_TAG_BGSOUND,
             GUMBO_TAG_APPLET], .hidden)
        set([GUMBO_TAG_P, GUMBO_TAG_DL, GUMBO_TAG_FIGURE, GUMBO_TAG_FIELDSET, GUMBO_TAG_ADDRESS,
             GUMBO_TAG_DETAILS, GUMBO_TAG_HGROUP], .block(lines: 2))
        set([GUMBO_TAG_HTML, GUMBO_TAG_BODY, GUMBO_TAG_DIV, GUMBO_TAG_SECTION, GUMBO_TAG_ARTICLE, GUMBO_TAG_ASIDE,
             GUMBO_TAG_NAV, GUMBO_TAG_HEADER, GUMBO_TAG_FOOTER, GUMBO_TAG_MAIN, GUMBO_TAG_CENTER, GUMBO_TAG_FORM,
             GUMBO_TAG_FIGCAPTION, GUMBO_TAG_LEGEND, GUMBO_TAG_SUMMARY, GUMBO_TAG_CAPTION, GUMBO_TAG_TBODY,
             GUMBO_TAG_THEAD, GUMBO_TAG_TFOOT, GUMBO_TAG_MARQUEE, GUMBO_TAG_CANVAS,
             GUMBO_TAG_MULTICOL, GUMBO_TAG_NOSCRIPT, GUMBO_TAG_FRAMESET], .block(lines: 1))
        for (level, tag) in [GUMBO_TAG_H1, GUMBO_TAG_H2, GUMBO_TAG_H3, GUMBO_TAG_H4, GUMBO_TAG_H5,
                             GUMBO_TAG_H6].enumerated() {
            table[Int(tag.rawValue)] = .heading(level: level + 1)
        }
        set([GUMBO_TAG_PRE, GUMBO_TAG_LISTING, GUMBO_TAG_XMP, GUMBO_TAG_PLAINTEXT], .preformatted)
        set([GUMBO_TAG_BLOCKQUOTE], .blockQuote)
        set([GUMBO_TAG_UL, GUMBO_TAG_MENU, GUMBO_TAG_DIR], .list(ordered: false))
        set([GUMBO_TAG_OL], .list(ordered: true))
        set([GUMBO_TAG_LI], .listItem)
        set([GUMBO_TAG_DT], .definitionTerm)
        set([GUMBO_TAG_DD], .definitionDescription)
        set([GUMBO_TAG_TABLE], .table)
        set([GUMBO_TAG_TR], .tableRow)
        set([GUMBO_TAG_TD], .tableCell(header: false))
        set([GUMBO_TAG_TH], .tableCell(header: true))
        set([GUMBO_TAG_A], .link)
        set([GUMBO_TAG_B, GUMBO_TAG_STRONG], .bold)
        set([GUMBO_TAG_I, GUMBO_TAG_EM, GUMBO_TAG_CITE, GUMBO_TAG_DFN, GUMBO_TAG_VAR], .italic)
        set([GUMBO_TAG_TT], .monospace)
        set([GUMBO_TAG_CODE, GUMBO_TAG_KBD, GUMBO_TAG_SAMP], .code)
        set([GUMBO_TAG_DEL], .edit(inserted: false))
        set([GUMBO_TAG_INS], .edit(inserted: true))
        set([GUMBO_TAG_S, GUMBO_TAG_STRIKE], .struck)
        set([GUMBO_TAG_U], .underlined)
        set([GUMBO_TAG_MARK], .highlighted)
        set([GUMBO_TAG_SUB], .shifted(.lowered))
        set([GUMBO_TAG_SUP], .shifted(.raised))
        set([GUMBO_TAG_VIDEO], .embedded(.video))
        set([GUMBO_TAG_AUDIO], .embedded(.audio))
        set([GUMBO_TAG_IFRAME, GUMBO_TAG_FRAME], .embedded(.frame))
        set([GUMBO_TAG_OBJECT], .embedded(.object))
        set([GUMBO_TAG_EMBED], .embedded(.embed))
        set([GUMBO_TAG_Q], .quotation)
        set([GUMBO_TAG_BR], .lineBreak)
        set([GUMBO_TAG_IMG, GUMBO_TAG_IMAGE], .image)
        set([GUMBO_TAG_HR], .rule)
        set([GUMBO_TAG_TITLE], .title)
        set([GUMBO_TAG_BASE], .base)
        set([GUMBO_TAG_META], .meta)
        return table
    }()

    /// Whether the element is a block, whose lines `align` and `text-align` place.
    var isBlock: Bool {
        switch self {
        case .block, .heading, .preformatted, .blockQuote, .list, .listItem, .definitionTerm, .definitionDescription,
             .table, .tableCell:
            return true
        default:
            return false
        }
    }

    static func of(_ tag: UInt32) -> ElementRole { tag < UInt32(roles.count) ? roles[Int(tag)] : .inline }
}

extension ElementRole {
    /// Elements never shown (`<script>`, `<style>`, `<head>`'s metadata): author styles cannot change that.
    var isHiddenRole: Bool {
        if case .hidden = self { return true }
        return false
    }
}
