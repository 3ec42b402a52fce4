/// The looks the page view gives its text, one tag per look and view. The view keeps tags by this value, so what a
/// tag means is never read back out of its name.
enum PageTag: Hashable {
    /// `<h1>` … `<h6>`.
    case heading(level: Int)
    case bold, italic, monospace, preformatted
    /// A nesting depth of lists and quotes, from 1.
    case indent(depth: Int)
    /// A list item's bullet or number, `characters` long: it hangs left of the item's text.
    case listMarker(characters: Int)
    case center, right
    /// A horizontal rule (`<hr>`).
    case rule
    /// Deleted or struck text, inserted or underlined text, highlighted text (`<mark>`).
    case strikethrough, underline, highlight
    /// Subscripts and superscripts.
    case lowered, raised
    /// Code within a line: a tint behind it (`PageView.applyCodeColors`).
    case code
    /// A preformatted or code block at a nesting depth of lists and quotes: a tinted band with a margin.
    case codeBlock(depth: Int)
    case link, visited
    /// The page's own colours (`0xrrggbb`), painted only where they keep their contrast (`applyPageColors`).
    case pageColors(text: UInt32?, background: UInt32?, block: Bool = false)
    /// Matches of find in page, and the one the find bar is on.
    case findMatch, findCurrent

    /// The tag's name in the buffer's table, for tests that look a tag up by name.
    var name: String {
        switch self {
        case .heading(let level): return "h\(level)"
        case .bold: return "bold"
        case .italic: return "italic"
        case .monospace: return "mono"
        case .preformatted: return "pre"
        case .indent(let depth): return "indent\(depth)"
        case .listMarker(let characters): return "marker:\(characters)"
        case .center: return "center"
        case .right: return "right"
        case .rule: return "rule"
        case .strikethrough: return "strikethrough"
        case .underline: return "underline"
        case .highlight: return "highlight"
        case .lowered: return "sub"
        case .raised: return "sup"
        case .code: return "code"
        case .codeBlock(let depth): return "code-block\(depth)"
        case .link: return "link"
        case .pageColors(let text, let background, let block):
            return "page-colors:" + (text.map { String($0, radix: 16) } ?? "-") + "/"
                + (background.map { String($0, radix: 16) } ?? "-") + (block ? "/block" : "")
        case .visited: return "visited"
        case .findMatch: return "find-match"
        case .findCurrent: return "find-current"
        }
    }

    /// Pixels between a code block's tinted band and its text.
    static let codeBlockPadding = 10

    var look: TextTag.Look {
        switch self {
        case .heading(let level):
            let scales = [2.0, 1.6, 1.3, 1.15, 1.0, 0.9]
            // Its weight is the `.bold` tag's: headings are bold unless the page's `font-weight` says otherwise.
            return TextTag.Look(scale: scales[min(max(level, 1), 6) - 1], pixelsAboveLines: 6, pixelsBelowLines: 2)
        case .bold: return TextTag.Look(weight: .bold)
        case .italic: return TextTag.Look(italic: true)
        case .monospace: return TextTag.Look(family: "monospace")
        // Preformatted lines keep their shape.
        case .preformatted: return TextTag.Look(wraps: false)
        case .indent(let depth): return TextTag.Look(leftMargin: 16 + Indentation.pixels(level: depth))
        // The bullet or number hangs left of the item's text, so wrapped lines align with the text.
        case .listMarker(let characters): return TextTag.Look(indent: -7 * characters)
        case .center: return TextTag.Look(justification: .center)
        case .right: return TextTag.Look(justification: .right)
        case .rule:
            // A rule is a paragraph of one tiny character whose paragraph background GTK paints across the
            // whole width of the view, whatever that width is: a thin line, like a browser's <hr>.
            let grey = RGBA(hex: 0x9a9996)
            return TextTag.Look(sizePoints: 2, foreground: grey, paragraphBackground: grey)
        case .strikethrough: return TextTag.Look(strikethrough: true)
        case .underline: return TextTag.Look(underline: true)
        // Browsers draw `<mark>` black on yellow (HTML's rendering section); a paler yellow than find's matches,
        // so a match inside a highlight still shows.
        case .highlight: return TextTag.Look(foreground: RGBA(hex: 0x000000), background: RGBA(hex: 0xfff3a3))
        // Smaller and shifted by about a third of the body size, as browsers draw `vertical-align: sub/super`
        // with `font-size: smaller`.
        case .lowered: return TextTag.Look(scale: 0.8, risePoints: -3)
        case .raised: return TextTag.Look(scale: 0.8, risePoints: 4)
        // The tint is the theme's (`PageView.applyCodeColors`).
        case .code: return TextTag.Look()
        case .codeBlock(let depth):
            // The band starts at the left margin; the text keeps its distance from the band's edge by the first
            // line's indent, which is every line's here, since a preformatted line never wraps and ends its own
            // paragraph. Above and below each line, a little air.
            return TextTag.Look(leftMargin: 16 + Indentation.pixels(level: depth), indent: Self.codeBlockPadding, pixelsAboveLines: 2,
                                pixelsBelowLines: 2, rightMargin: 16)
        // The colours are the theme's, made readable (`PageView.applyLinkColors`).
        // Their underline is the `.underline` tag's, which the page's rules may leave out.
        case .link, .visited: return TextTag.Look()
        // Set from the theme when the tag is made and when the theme changes (`PageView.applyPageColors`).
        case .pageColors: return TextTag.Look()
        // Dark text on yellow and orange, readable in light and dark themes alike.
        case .findMatch: return TextTag.Look(foreground: RGBA(hex: 0x000000), background: RGBA(hex: 0xfce94f))
        case .findCurrent: return TextTag.Look(foreground: RGBA(hex: 0x000000), background: RGBA(hex: 0xf57900))
        }
    }
}
