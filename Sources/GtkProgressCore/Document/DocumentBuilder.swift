internal import CGumbo
import Glibc
import FoundationEssentials

/// Walks gumbo's tree and writes the document's runs.
///
/// The walk keeps its own stack instead of recursing, so no nesting in a page can exhaust the thread's stack.
struct DocumentBuilder {
    private let source: UnsafeBufferPointer<UInt8>
    private let markup: PrefilteredMarkup
    private var writer = RunWriter()
    private var title: String?
    private var baseHref: String?
    private var refresh: (delay: Double, target: String?)?
    /// The links' `href`s as written, each once; resolved at the end (`finish`).
    private var hrefs = LinkTable()
    /// `id` (and `<a name>`) → where the element's text starts, for links to a place in the page.
    private var anchors: [String: Int] = [:]
    private var lists: [ListCounter] = []
    /// The ordinals of list items outside any list (`display: list-item` on a `div`): siblings count on from one
    /// another, as CSS Lists 3 §4.4's `list-item` counter, instantiated on the first, is seen by its siblings.
    private var looseItems: (parent: GumboNodeRef?, next: Int) = (nil, 1)
    /// The `list-style-type` the element just entered passes to its children when its HTML default (a list's, an
    /// `li`'s `type`) decides it rather than a rule.
    private var enteredListStyle: CSSListStyleType?
    /// Indentation stops growing past this many levels (`Indentation`).
    static let maximumIndent = Indentation.deepestLevel
    /// Tables open around the walk, innermost last; each table's cells go to the table's own writer
    /// (`TableModel.cellWriter`), and the writers outside it wait in `outerWriters`.
    private var tables: [TableModel] = []
    private var outerWriters: [RunWriter] = []
    /// Inside the caption of the table being read: its pictures and controls are pictures and widgets in the window
    /// (`objectsInCaption`).
    private var captionDepth = 0
    /// Tables nested deeper than `maximumTableNesting` whose rows and cells read as plain blocks.
    private var unmodelledTables = 0
    /// Data tables go out as rows of tab-separated cells for the window (`emitTabbed`).
    private var tabbedTables = false
    private var pageTables: [PageTable] = []
    /// The tables written as the monospace grid in the window (`PageGrid`).
    private var pageGrids: [PageGrid] = []
    /// Images and form controls written as U+FFFC in the cells of the table being read (one in no other table,
    /// in the window): their offsets are the table's cell writer's until the table is written (`placeCellObjects`),
    /// and `fallback` is what stands in their place if the table is not written as tabbed rows.
    private var tableObjects: [[CellObject]] = []
    /// A picture or control (U+FFFC) in a table's cells: where it stands in the table's text, which one, and the
    /// text standing for it where the table is laid out in text.
    private typealias CellObject = (offset: Int, control: Int?, image: Int?, fallback: [UInt8])
    /// Columns tables are fitted to.
    private let layoutWidth: Int
    /// Write the marks that say in plain text what a look says in the window (`InlineMarks`).
    private let textMarks: Bool
    /// The window's choice among image sources; nil for the dump, where an image is its `[alt]`.
    private let imageSelection: ImageSelection?
    /// Images found so far, their addresses not yet resolved (`PageImages`).
    private var images = PageImages()
    /// The element whose children the walk is at, and the index of the child being entered: an `<img>` looks
    /// at the `<source>` siblings before it (a `<picture>`'s).
    private var parent: GumboNodeRef?
    private var childIndex = 0
    /// The page's author style rules (`DocumentStyles`), the inherited styles of the element whose children the walk
    /// is at, and the styles of the element just entered.
    private var styleRules = CSSRuleSet()
    private var stylesOn = false
    private var parentCSS = CSSInheritedRef.initial
    private var enteredCSS: CSSElementStyle?
    /// The keys of the element just entered, when its style was matched: its ancestor filter entry reads them too.
    private var enteredKeys: CSSElementKeys?
    /// What the styles name by index: the inherited styles and pseudo-element texts (`CSSStyleStore`).
    private var styleStore = CSSStyleStore()
    /// The ids, classes and types of the elements the walk is inside, for quick rejection of rules.
    /// Allocated only for a page with rules (`build`).
    private var ancestors = CSSAncestorFilter.unallocated
    /// Room for the rules that match each element, reused from element to element.
    private var matches = CSSRuleSet.Matches()
    /// The element whose text is being written, for the inline elements the prefilter made pieces of.
    private var textParent: GumboNodeRef?
    /// The prefilter's folded elements as selectors reading siblings see them (`FoldedElements`): set when the
    /// page's rules read siblings or `:empty` and the prefilter folded some.
    private var folded: FoldedElements?
    /// The last folded paragraph's style, for the next one of the same parent when no rule tested read its place.
    private var foldedParagraphStyle: (parent: UnsafeMutablePointer<GumboNode>, parentCSS: CSSInheritedRef,
                                       style: CSSElementStyle)?
    private var textCSS = CSSInheritedRef.initial
    /// For each depth of the walk, the last element styled there, its parent and its style: a later sibling
    /// alike in type and attributes takes the same style without matching (`CSSElementStyle.shareable`).
    private var sharedStyles: [SharedStyle?] = []
    /// A struct, not a tuple: replacing an entry for every element then destroys the old one with the struct's
    /// own code, not the runtime's generic tuple destroy.
    private struct SharedStyle {
        var parent: GumboNodeRef
        var element: GumboNodeRef
        var style: CSSElementStyle
    }
    private var depth = 0
    /// The page's forms and controls so far, and the form new controls belong to (HTML's "form element
    /// pointer").
    private var forms: [PageForm] = []
    private var controls: [FormControl] = []
    private var formPointer: Int?
    /// The `<label>`s open around the walk: where each one's text starts, the controls inside it, and the `id`
    /// its `for` names; and the labels of `id`s, found when a labelled `<label for>` ends.
    private var labels: [(start: Int, writerDepth: Int, controls: [Int], target: String?)] = []
    private var labelsByID: [String: String] = [:]
    /// The table rows left out of gumbo's parse of the document, parsed a chunk at a time where their marker
    /// row stands (`TableRowRegions`); the tree of the chunk being walked.
    private var rows: TableRows?
    private var rowChunk: GumboTree?
    /// `--dump` printed while the page is read: the writer's finished lines go to it whenever they pass its
    /// `stretchBytes` and nothing open may still read them back (`drainFinishedLines`).
    private var dump: DumpOutput?
    /// The page's address, and links resolved so far in the order `hrefs` met them, with each `href`'s number
    /// among them (nil: not followable); resolved before the end only when `dump` prints them.
    private var pageURL: URL?
    private var resolvedLinks = LinkTable()
    private var linkRemap: [Int?] = []
    private var sameDocument: LinkResolution.SameDocument?
    /// Links whose frames are open: each reads its text back when it ends (a link without text gets a label).
    private var openLinks = 0

    /// w3m's `MAX_TABLE` (table.h): tables nested deeper read as blocks of text.
    static let maximumTableNesting = 20

    /// `placeholders: false` makes gumbo parse every byte, for tests that check placeholders change nothing;
    /// `rowChunking: nil` makes gumbo parse every table whole, for tests that check chunks change nothing.
    static func build(source: UnsafeBufferPointer<UInt8>, baseURL: URL?, placeholders: Bool = true,
                      maximumDepth: Int = MarkupPrefilter.maximumDepth,
                      layoutWidth: Int = Document.defaultLayoutWidth,
                      images: ImageSelection? = nil, styles: PageStyleOptions = PageStyleOptions(),
                      textMarks: Bool = false, tabbedTables: Bool = false,
                      rowChunking: RowChunking? = .standard, dump: DumpOutput? = nil) -> Document {
        var markup = MarkupPrefilter.prefilter(source, maximumDepth: maximumDepth, placeholders: placeholders)
        var parsed: ParsedMarkup? = parse(markup, baseURL: baseURL, styles: styles, rowChunking: rowChunking)
        // The page's selectors test attributes the prefilter left out of some element (`[data-state=closed]`,
        // `[aria-expanded=false] + ul`): the page is parsed again with those names kept, its sheets as they came
        // the first time. The second parse keeps every name its rules test (up to `SelectedAttributeNames.limit`),
        // so there is never a third. Pages whose selectors test no such attribute are parsed once.
        if styles.enabled, let selected = parsed?.styles.rules.attributeNames,
           selected.contains(where: markup.droppedAttributes.mayHold) {
            var again = styles
            let fetched = parsed?.styles.fetched ?? []
            if let fetch = styles.fetch {
                again.fetch = { url in fetched.first(where: { $0.url == url })?.result ?? fetch(url) }
            }
            parsed = nil  // the first tree goes before the second is built
            markup = MarkupPrefilter.prefilter(source, maximumDepth: maximumDepth, placeholders: placeholders,
                                               keeping: selected)
            parsed = parse(markup, baseURL: baseURL, styles: again, rowChunking: rowChunking)
        }
        guard var page = parsed.take() else { preconditionFailure("the page was parsed") }
        page.styles.forgetFetched()
        let tree = page.tree
        var rows = page.rows
        page.rows = nil
        let pageStyles = page.styles
        // Gumbo copies the text and attributes it keeps, and the walk never reads its `original_*` pieces of the
        // input (`GumboTree` has copied the only one it needs, unknown elements' names), so the markup gumbo parsed
        // goes before the walk builds the text (a large page's worth of memory); the rows still to be parsed have
        // copies of theirs.
        markup.bytes = []
        var builder = DocumentBuilder(source: source, markup: markup, layoutWidth: layoutWidth, images: images,
                                      textMarks: textMarks)
        builder.rows = rows
        rows = nil  // the builder's chunks are let go one by one as they are parsed
        builder.styleRules = pageStyles.rules
        if !pageStyles.rules.isEmpty { builder.ancestors = CSSAncestorFilter(keeping: pageStyles.rules.neededSlots) }
        builder.stylesOn = styles.enabled
        if styles.enabled, pageStyles.rules.readsStructure || pageStyles.rules.stylesEachParagraph,
           markup.placeholderElements.contains(where: { $0 != 0 }) {
            builder.folded = FoldedElements(markup: markup, source: source)
        }
        builder.tabbedTables = tabbedTables
        builder.pageURL = baseURL
        // Lines printed before the end need their links' numbers, which a `<base href>` anywhere in the page
        // changes: such a page is printed at the end.
        if let dump, images == nil, !tabbedTables, !Self.mayHaveBase(source) { builder.dump = dump }
        builder.walk(tree.document)
        builder.rows = nil
        if styles.keepsRulesUntilExit {
            // One more reference, never given back: the rules stay until the process ends.
            _ = Unmanaged.passRetained(KeptRules(builder.styleRules))
            builder.styleRules = CSSRuleSet()
        }
        return withExtendedLifetime(tree) {
            var document = builder.finish(baseURL: baseURL)
            document.styleNotes = pageStyles.notes
            document.missingStyleSheets = pageStyles.missing
            document.mediaWidths = pageStyles.mediaWidths.sorted()
            return document
        }
    }

    /// A rule set held past the build (`PageStyleOptions.keepsRulesUntilExit`).
    private final class KeptRules {
        let rules: CSSRuleSet
        init(_ rules: CSSRuleSet) { self.rules = rules }
    }

    /// Gumbo's tree of the prefiltered markup, the table rows left for later, and the page's styles.
    private struct ParsedMarkup {
        var tree: GumboTree
        var rows: TableRows?
        var styles: DocumentStyles
    }

    private static func parse(_ markup: PrefilteredMarkup, baseURL: URL?, styles: PageStyleOptions,
                              rowChunking: RowChunking?) -> ParsedMarkup {
        let dropped = markup.droppedAttributes, selected = markup.selectedAttributes
        let attributeKnown = { (name: String) in
            PrefilteredMarkup.answers(attribute: name, dropped: dropped, selected: selected)
        }
        let regions = rowChunking.map { chunking in
            markup.bytes.withUnsafeBufferPointer { TableRowRegions.find(in: $0, chunking: chunking) }
        } ?? []
        if regions.isEmpty {
            let tree = markup.bytes.withUnsafeBufferPointer { GumboTree(parsing: $0) }
            let pageStyles = DocumentStyles.collect(from: tree.document, baseURL: baseURL, options: styles,
                                                    attributeKnown: attributeKnown)
            return ParsedMarkup(tree: tree, rows: nil, styles: pageStyles)
        }
        let tree = markup.bytes.withUnsafeBufferPointer { bytes in
            TableRowRegions.document(bytes, without: regions).withUnsafeBufferPointer { GumboTree(parsing: $0) }
        }
        let pageStyles = DocumentStyles.collect(from: tree.document, baseURL: baseURL, options: styles,
                                                attributeKnown: attributeKnown)
        // Rows in chunks see only the siblings in their chunk: a page whose rules read siblings (or `:empty`, which
        // folded elements are matched for by their place in the tree, `FoldedElements`), or whose markers did not
        // come out as rows of a table section, is parsed whole (`TableRowRegions`).
        if !(styles.enabled && pageStyles.rules.readsStructure),
           let sections = TableRowRegions.sections(of: tree.document, regions: regions) {
            return ParsedMarkup(tree: tree, rows: TableRows(markup: markup.bytes, regions: regions, sections: sections),
                                styles: pageStyles)
        }
        let whole = markup.bytes.withUnsafeBufferPointer { GumboTree(parsing: $0) }
        return ParsedMarkup(tree: whole, rows: nil,
                            styles: DocumentStyles.collect(from: whole.document, baseURL: baseURL, options: styles,
                                                           attributeKnown: attributeKnown))
    }

    private init(source: UnsafeBufferPointer<UInt8>, markup: PrefilteredMarkup, layoutWidth: Int,
                 images: ImageSelection?, textMarks: Bool) {
        self.source = source
        self.textMarks = textMarks
        self.markup = markup
        self.layoutWidth = max(layoutWidth, 20)
        self.imageSelection = images
        writer = RunWriter(capacity: source.count + 1024)
    }

    // MARK: Walking

    private struct Frame {
        var node: GumboNodeRef
        let role: ElementRole
        var childCount: Int
        var nextChild = 0
        let savedStyle: StyleHandle
        /// Where a link's text starts, to label links that have none.
        let textStart: Int
        let href: String?
        var table: TablePart = .none
        /// Author styles: what the children inherit, the `::after` text, and a break on leaving an inline element
        /// made a block.
        var css = CSSInheritedRef.initial
        /// The `::after` text, as an index for `CSSStyleStore.after` (-1 for none).
        var after: Int32 = -1
        var breakAfter = false
        /// How many hashes this element added to `ancestors`, taken out again when it is left.
        var ancestorHashes = 0
        /// A marker row: the frame walks the chunks of this region of rows in turn, each chunk's nodes as
        /// children of the marker's section (`TableRowRegions`).
        var rowRegion: (index: Int, chunk: Int)?
        /// A bare `p` an author's rule hides that holds a run of folded paragraphs: only the run is shown, its
        /// paragraphs being the `p`'s next siblings in the page (`FoldedElements`).
        var hiddenHost = false
        /// A bare `p` whose folded paragraphs ended it in the page before its end in gumbo's tree: its break and
        /// `::after` were written there (`appendFolded`).
        var hostEnded = false
    }

    /// What a frame's element is to the table model.
    private enum TablePart {
        case none
        /// A table the model lays out.
        case table
        /// A table past the nesting limit, read as blocks.
        case unmodelled
        /// The caption of the table the model lays out.
        case caption
        case cell(colspan: Int, rowspan: Int, alignment: TextAlignment, widthPercent: Int?,
                  verticalAlignment: TableModel.VerticalAlignment)
    }

    private mutating func walk(_ document: GumboNodeRef) {
        var stack: [Frame] = [Frame(node: document, role: .inline, childCount: document.childCount,
                                    savedStyle: writer.styleID, textStart: 0, href: nil)]
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].nextChild < stack[top].childCount else {
                if let region = stack[top].rowRegion {
                    // The chunk's tree goes before the next is parsed; a style shared below here is one of its nodes.
                    rowChunk = nil
                    if sharedStyles.count > top { sharedStyles.removeSubrange(top...) }
                    if let next = nextRowChunk(region: region.index, chunk: region.chunk + 1) {
                        stack[top].node = next
                        stack[top].childCount = next.childCount
                        stack[top].nextChild = 0
                        stack[top].rowRegion = (region.index, region.chunk + 1)
                    } else {
                        stack.removeLast()
                    }
                    continue
                }
                leave(stack.removeLast())
                if dump != nil { drainFinishedLines() }
                continue
            }
            let child = stack[top].node.child(stack[top].nextChild)
            stack[top].nextChild += 1
            if child.isText {
                // `visibility: hidden` hides the element's own text; a child may be visible again.
                textParent = stack[top].node
                textCSS = stack[top].css
                // Only inside a table the model lays out, with no cell open: the frame is not copied for other text.
                if !tables.isEmpty, tables[tables.count - 1].cellWriter != nil,
                   let newRow = anonymousCellRow(table: stack[top].table, role: stack[top].role,
                                                 tag: stack[top].node.tag, text: child) {
                    appendAnonymousCell(child.text, hidden: textCSS.hidden, newRow: newRow)
                } else if folded == nil {
                    appendTextNode(child.text, hidden: textCSS.hidden)
                } else {
                    // The text's folded paragraphs end a bare `p` it stands in: what the `p` restores and its parent's
                    // styles, for them.
                    let host = top > 0 && stack[top].node.tag == GUMBO_TAG_P.rawValue
                        ? FoldedHost(savedStyle: stack[top].savedStyle, block: stack[top].role.isBlock,
                                     parentCSS: stack[top - 1].css, hidden: stack[top].hiddenHost,
                                     after: stack[top].after) : nil
                    if appendTextNode(child.text, hidden: textCSS.hidden, node: child, host: host) {
                        stack[top].after = -1
                        stack[top].hostEnded = true
                    }
                }
            } else if child.isElement {
                if stack[top].hiddenHost { continue }
                if let rows, child.tag == GUMBO_TAG_TR.rawValue, child.hasAttributes,
                   let region = rows.region(marker: child) {
                    // The rows stand in the marker's place, in its section and with its section's styles.
                    var frame = Frame(node: child, role: .inline, childCount: 0, savedStyle: writer.styleID,
                                      textStart: writer.byteCount, href: nil)
                    frame.css = stack[top].css
                    frame.rowRegion = (region, -1)
                    stack.append(frame)
                    continue
                }
                parent = stack[top].node
                childIndex = stack[top].nextChild - 1
                parentCSS = stack[top].css
                depth = top
                enteredCSS = nil
                enteredKeys = nil
                enteredListStyle = nil
                guard var frame = enter(child) else { continue }
                // Moved out, not copied: the next element sets it afresh, and a copy and its drop count two
                // references each.
                if let css = enteredCSS.take() {
                    enterStyled(&frame, css)
                    if !styleRules.isEmpty, child.childCount > 0 {
                        frame.ancestorHashes = ancestors.push(child,
                                                               keys: enteredKeys.take() ?? child.cssKeys(readingStyle: false).keys)
                    }
                }
                if let listStyle = enteredListStyle { setListStyle(listStyle, of: &frame) }
                stack.append(consume frame)  // moved: a Frame copied and dropped counts its references
            }
        }
    }

    /// Text standing directly in an element displayed as `table` or `table-row` (not in a cell): CSS 2.1 §17.2.1
    /// wraps it in an anonymous cell, in an anonymous row when its parent is the table, so it reads where it stands
    /// among the rows instead of before the grid. Whether it starts a row; nil for any other text. An HTML
    /// `<table>` holds no such text: the parser moves it before the table (HTML's foster parenting).
    /// `table`, `role` and `tag`: the parent's frame's.
    private func anonymousCellRow(table: TablePart, role: ElementRole, tag: UInt32, text: GumboNodeRef) -> Bool? {
        guard text.type != GUMBO_NODE_WHITESPACE, unmodelledTables == 0, !Self.isHTMLTablePart(tag) else { return nil }
        let newRow: Bool
        if case .table = table {
            newRow = true
        } else if case .tableRow = role {
            newRow = false
        } else {
            return nil
        }
        return text.text.contains(where: { !isSpace($0) }) ? newRow : nil
    }

    /// Writes text as a cell of its own in the innermost table (`anonymousCellRow`).
    private mutating func appendAnonymousCell(_ text: UnsafeBufferPointer<UInt8>, hidden: Bool, newRow: Bool) {
        let last = tables.count - 1
        var style = writer.style
        style.indent = 0
        style.alignment = .left
        style.listMarker = false
        if newRow { tables[last].startRow() }
        outerWriters.append(writer)
        writer = tables[last].cellWriter ?? RunWriter(capacity: 0)
        tables[last].cellWriter = nil
        writer.startCell(style: style)
        appendTextNode(text, hidden: hidden)
        let content = writer.finishCell()
        tables[last].cellWriter = writer
        writer = outerWriters.removeLast()
        tables[last].placeCell(colspan: 1, rowspan: 1, alignment: .left, content: content)
    }

    /// The list style an element's frame passes to its items (its `list-style-type`, or HTML's `type`).
    private mutating func setListStyle(_ listStyle: CSSListStyleType, of frame: inout Frame) {
        frame.css = styleStore.with(listStyle: listStyle, frame.css)
    }

    /// Parses chunk `chunk` of region `region`'s rows and returns the node whose children they are, its nodes'
    /// parent made the marker's section so selectors see the rows' ancestors; nil past the last chunk.
    private mutating func nextRowChunk(region: Int, chunk: Int) -> GumboNodeRef? {
        guard rows != nil, chunk < rows!.chunkCount(region: region) else { return nil }
        let section = rows!.sections[region]
        let tree = rows!.takeChunk(region: region, chunk: chunk).withUnsafeBufferPointer {
            GumboTree(parsing: $0, fragmentContext: section.tag)
        }
        rowChunk = tree
        let root = tree.root
        for index in 0..<root.childCount { root.child(index).node.pointee.parent = section.node }
        return root
    }

    /// Starts an element; returns the frame to descend into, or nil when its content is not shown.
    private mutating func enter(_ element: GumboNodeRef) -> Frame? {
        if !element.isHTML {
            // MathML reads as inline text; SVG is drawings whose text (icon titles) only adds noise.
            return element.tag == GUMBO_TAG_SVG.rawValue ? nil : frame(element, role: .inline)
        }
        var role = ElementRole.of(element.tag)
        if imageSelection != nil, element.tag == GUMBO_TAG_INPUT.rawValue,
           element.attribute("type")?.trimmed().lowercased() == "image", !element.hasAttribute("hidden") {
            // An image button: its image, or its alt text, stands where it is (HTML's Image Button state).
            if outerWriters.isEmpty || objectsInCell || objectsInCaption {
                appendImage(element, sources: [])
            } else {
                appendAlt(element)
            }
            return nil
        }
        if element.hasAttributes, element.hasAttribute("hidden") { return nil }
        if stylesOn, !role.isHiddenRole {
            let css: CSSElementStyle
            if depth < sharedStyles.count, let shared = sharedStyles[depth], shared.parent.node == parent?.node,
               shared.element.isAlike(element) {
                css = shared.style
            } else {
                let (keys, styleText) = element.cssKeys()
                if let folded {
                    css = CSSCascade.style(for: PageElement(folded, node: element), keys: keys, rules: styleRules,
                                           styleAttribute: styleText.map(CSSParser.parseDeclarations) ?? [],
                                           parent: parentCSS, store: &styleStore, ancestors: ancestors,
                                           matches: &matches)
                } else {
                    css = CSSCascade.style(for: element, keys: keys, rules: styleRules,
                                           styleAttribute: styleText.map(CSSParser.parseDeclarations) ?? [],
                                           parent: parentCSS, store: &styleStore, ancestors: ancestors,
                                           matches: &matches)
                }
                enteredKeys = keys
                if let parent, depth < 4096 {
                    while sharedStyles.count <= depth { sharedStyles.append(nil) }
                    sharedStyles[depth] = css.shareable ? SharedStyle(parent: parent, element: element, style: css) : nil
                }
            }
            if css.display == CSSDisplay.none {
                // The paragraphs folded into it are its next siblings, which the rule does not hide.
                guard let folded, folded.hostedRun(element) != nil else { return nil }
                var hostFrame = frame(element, role: .inline)
                hostFrame.hiddenHost = true
                hostFrame.css = parentCSS
                return hostFrame
            }
            if let display = css.display { role = Self.role(role, displayed: display, tag: element.tag) }
            enteredCSS = css
        }
        if element.hasAttributes {
            if let id = element.attribute("id") ?? (element.tag == GUMBO_TAG_A.rawValue ? element.attribute("name") : nil),
               !id.isEmpty, anchors[id] == nil {
                // In a table cell, the place is the table's, which goes where the outermost writer stands.
                anchors[id] = outerWriters.first?.byteCount ?? writer.byteCount
            }
        }
        switch element.tag {
        case GUMBO_TAG_INPUT.rawValue, GUMBO_TAG_SELECT.rawValue, GUMBO_TAG_TEXTAREA.rawValue:
            appendControl(element)
            return nil
        case GUMBO_TAG_BUTTON.rawValue:
            // A button labelled with text is a control. One holding markup (an icon, or half a page that
            // misnested tags left inside it) is read as its content, as w3m reads every button, so none of that
            // text is lost.
            if (0..<element.childCount).allSatisfy({ element.child($0).isText }) {
                appendControl(element)
                return nil
            }
        case GUMBO_TAG_LABEL.rawValue:
            labels.append((writer.byteCount, outerWriters.count, [], element.attribute("for")))
        case GUMBO_TAG_FORM.rawValue:
            forms.append(PageForm(action: element.attribute("action"), method: element.attribute("method"),
                                  encoding: element.attribute("enctype")))
            formPointer = forms.count - 1
        default:
            break
        }
        var style = writer.style
        if role.isBlock {
            if element.tag == GUMBO_TAG_CENTER.rawValue || element.tag == GUMBO_TAG_CAPTION.rawValue {
                style.alignment = .center
            } else if element.hasAttributes, let alignment = Self.alignment(of: element) {
                style.alignment = alignment
            }
        }
        // What the element's frame restores on leaving: an item outside any list indents the style before its
        // marker, and that indentation is the item's own.
        let styleBefore = writer.styleID
        switch role {
        case .hidden:
            return nil
        case .inline:
            break
        case .block(let lines):
            writer.requestBreak(lines)
        case .heading(let level):
            writer.requestBreak(2)
            style.heading = level
            style.bold = true
        case .preformatted:
            writer.requestBreak(2)
            style.monospace = true
            style.preformatted = true
            style.code = true
        case .blockQuote:
            writer.requestBreak(2)
            style.indent = min(style.indent + 1, Self.maximumIndent)
        case .list(let ordered):
            writer.requestBreak(lists.isEmpty ? 2 : 1)
            // The author's `list-style-type` for the list itself, else HTML's for it, which wins over what the
            // list would inherit (HTML § 15.3.8's style sheet sets it on the list).
            let declared = enteredCSS.flatMap {
                $0.declaresListStyle ? styleStore.listStyle(of: $0.inherited) ?? .initial : nil
            }
            let counter = ListCounter(element: element, ordered: ordered, depth: lists.count, style: declared)
            lists.append(counter)
            enteredListStyle = counter.style
            style.indent = min(style.indent + 1, Self.maximumIndent)
        case .listItem:
            writer.requestBreak(1)
            if lists.isEmpty {
                style.indent = min(style.indent + 1, Self.maximumIndent)
                writer.style = style
            }
            // `li` and any element displayed as `list-item` (CSS Display 3 §2.3: it gets a marker box): its own
            // declaration, else an `li`'s `type`, else what it inherits (from its list, or the initial `disc`).
            let itemStyle: CSSListStyleType
            if let css = enteredCSS, css.declaresListStyle {
                itemStyle = styleStore.listStyle(of: css.inherited) ?? .initial
            } else if element.tag == GUMBO_TAG_LI.rawValue, let hinted = ListCounter.itemHint(element) {
                itemStyle = hinted
                enteredListStyle = hinted
            } else {
                itemStyle = styleStore.listStyle(of: parentCSS) ?? lists.last?.style ?? .initial
            }
            ListCounter.withMarker(nextOrdinal(for: element), style: itemStyle) { writer.appendListMarker($0) }
        case .definitionTerm:
            writer.requestBreak(1)
        case .definitionDescription:
            writer.requestBreak(1)
            style.indent = min(style.indent + 1, Self.maximumIndent)
        case .table:
            writer.requestBreak(2)
            var tableFrame = frame(element, role: role)
            if unmodelledTables > 0 || tables.count >= Self.maximumTableNesting {
                unmodelledTables += 1
                tableFrame.table = .unmodelled
            } else {
                // An element displayed as `table` has none of `<table>`'s attributes.
                let html = element.tag == GUMBO_TAG_TABLE.rawValue
                let border = html ? element.attribute("border").map { $0.trimmed() != "0" } ?? false : false
                func pixels(_ name: String) -> Int? {
                    html ? HTMLInteger.nonNegative(element.attribute(name), clampedTo: 0...TableModel.largestPixels) : nil
                }
                tableObjects.append([])
                tables.append(TableModel(border: border,
                                         widthPercent: html ? Self.percent(element.attribute("width")) : nil,
                                         cellpadding: pixels("cellpadding"), cellspacing: pixels("cellspacing")))
                tableFrame.table = .table
            }
            applyCSS(to: &style)
            writer.style = style
            return tableFrame
        case .tableRow:
            // A row inside a cell of the innermost table (an element displayed as `table-row` with no table of its
            // own around it) is no row of that table: it reads as a line of its own.
            if unmodelledTables > 0 || tables.isEmpty || tables[tables.count - 1].cellWriter == nil {
                writer.requestBreak(1)
            } else {
                let attributes = element.hasAttributes
                tables[tables.count - 1].startRow(alignment: enteredCSS?.alignment
                                                      ?? (attributes ? Self.alignment(of: element) : nil),
                                                  verticalAlignment: attributes ? Self.verticalAlignment(of: element) : nil)
            }
        case .tableCell(let header):
            if header { style.bold = true }
            // A cell inside a cell of the same table (gumbo builds one in `<template>` contents) reads as a block:
            // the table's writer is busy with the outer cell.
            guard unmodelledTables == 0, !tables.isEmpty, tables[tables.count - 1].cellWriter != nil else {
                if Self.isHTMLTablePart(element.tag) {
                    writer.requestBreak(1)
                } else {
                    // An element displayed as `table-cell` with no table to be a cell of: CSS 2.1 §17.2.1 wraps
                    // it and its sibling cells in one anonymous row, so they stay on one line, apart.
                    writer.appendText(" ")
                }
                break
            }
            // Only the cell's own `align` places its text (w3m's reading: a centred block centres the table, not
            // the text in its cells); header cells are centred.
            // Author CSS (`text-align` from a style sheet) comes before the presentational `align`.
            let alignment = enteredCSS?.alignment ?? (element.hasAttributes ? Self.alignment(of: element) : nil)
                ?? tables[tables.count - 1].rowAlignment ?? (header ? .center : .left)
            let verticalAlignment = (element.hasAttributes ? Self.verticalAlignment(of: element) : nil)
                ?? tables[tables.count - 1].rowVerticalAlignment ?? .middle
            // HTML's table model: colspan 1 when absent, unreadable or 0, at most 1000; rowspan 1 when absent or
            // unreadable, 0 (to the end of the row group) allowed, at most 65534.
            // <https://html.spec.whatwg.org/multipage/tables.html#attr-tdth-colspan>
            // An element displayed as `table-cell` spans one column and one row (the attributes are HTML's cells').
            let htmlCell = Self.isHTMLTablePart(element.tag)
            let colspan = htmlCell ? HTMLInteger.nonNegative(element.attribute("colspan"), clampedTo: 0...1000) ?? 1 : 1
            let rowspan = htmlCell ? HTMLInteger.nonNegative(element.attribute("rowspan"),
                                                             clampedTo: 0...TableModel.maximumRowspan) ?? 1 : 1
            var cellFrame = frame(element, role: role)
            cellFrame.table = .cell(colspan: max(colspan, 1), rowspan: rowspan, alignment: alignment,
                                    widthPercent: htmlCell ? Self.percent(element.attribute("width")) : nil,
                                    verticalAlignment: verticalAlignment)
            // The cell's text starts at its own left margin; the table places it.
            style.indent = 0
            style.alignment = .left
            style.listMarker = false
            applyCSS(to: &style)
            outerWriters.append(writer)
            writer = tables[tables.count - 1].cellWriter ?? RunWriter(capacity: 0)
            tables[tables.count - 1].cellWriter = nil
            writer.startCell(style: style)
            return cellFrame
        case .link:
            // A link under `visibility: hidden` has nothing to click: it gets no number and no label.
            guard let href = element.attribute("href"), !(enteredCSS?.inherited.hidden ?? false) else { break }
            let trimmed = LinkResolution.trim(href)
            style.link = linkIndex(for: trimmed)
            let saved = writer.styleID
            applyCSS(to: &style)
            writer.style = style
            openLinks += 1
            return Frame(node: element, role: role, childCount: element.childCount, savedStyle: saved,
                         textStart: writer.byteCount, href: trimmed)
        case .bold:
            style.bold = true
        case .italic:
            style.italic = true
        case .monospace:
            style.monospace = true
        case .code, .edit, .struck, .underlined, .highlighted, .shifted:
            InlineMarks.apply(role, to: &style)
            if textMarks, let open = InlineMarks.plainText(role)?.open { writer.appendText(open) }
        case .embedded(let kind):
            appendEmbeddedLine(element, kind: kind)
            // An iframe's content is text for browsers without frames, and `frame` and `embed` have none; the
            // content of `video`, `audio` and `object` is their fallback, shown under the line.
            if kind == .frame || kind == .embed { return nil }
            writer.requestBreak(1)
        case .quotation:
            writer.appendText("“")
        case .lineBreak:
            writer.lineBreak()
            return nil
        case .image:
            if imageSelection != nil, outerWriters.isEmpty || objectsInCell || objectsInCaption {
                appendImage(element, sources: pictureSources(before: childIndex, in: parent))
                return nil
            }
            appendAlt(element)
            return nil
        case .rule:
            writer.requestBreak(2)
            let saved = writer.styleID
            style.rule = true
            style.link = nil
            writer.style = style
            writer.appendText("─")
            writer.styleID = saved
            writer.requestBreak(2)
            return nil
        case .title:
            if title == nil { title = collapsedText(of: element) }
            return nil
        case .base:
            if baseHref == nil, let href = element.attribute("href") { baseHref = LinkResolution.trim(href) }
            return nil
        case .meta:
            if refresh == nil, let equiv = element.attribute("http-equiv"),
               equiv.lowercased() == "refresh", let content = element.attribute("content") {
                refresh = LinkResolution.parseRefresh(content)
            }
            return nil
        }
        let saved = styleBefore
        switch role {
        case .table, .tableCell: applyCSS(to: &style)
        default: applyCSS(to: &style, block: role.isBlock)
        }
        if element.tag == GUMBO_TAG_CAPTION.rawValue, case .block = role, unmodelledTables == 0, !tables.isEmpty,
           tables[tables.count - 1].caption == nil, tables[tables.count - 1].cellWriter != nil {
            // A table's caption is written with its table, centred over it (CSS 2.1 § 17.4: the caption box is
            // as wide as the table), so it goes into the table's writer until the table is laid out.
            outerWriters.append(writer)
            writer = tables[tables.count - 1].cellWriter ?? RunWriter(capacity: 0)
            tables[tables.count - 1].cellWriter = nil
            writer.startCell(style: style)
            captionDepth += 1
            var captionFrame = Frame(node: element, role: role, childCount: element.childCount, savedStyle: saved,
                                     textStart: writer.byteCount, href: nil)
            captionFrame.table = .caption
            return captionFrame
        }
        writer.style = style
        return Frame(node: element, role: role, childCount: element.childCount, savedStyle: saved,
                     textStart: writer.byteCount, href: nil)
    }

    // MARK: Author styles

    /// The role an element plays once its `display` is the author's (CSS Display 3). What text can show of each:
    /// - `inline`, `inline-block` (§2.1: an inline-level box; what is inside it is laid out as a block, but the box
    ///   stays on its line) and `contents` (§2.5: the element's box is gone and its children take its place, so a
    ///   block shown so forces no line break): a block reads as inline text, a heading as bold text (its weight
    ///   is still its own), and an `li` loses its marker, which only a list item has (§2.3).
    /// - `block` (and flex and grid containers): an inline element starts a line (`enterStyled`); an `li` loses
    ///   its marker.
    /// - `list-item` (§2.3): a block or inline element gets a marker and counts as an item of the list it is in,
    ///   its marker from its `list-style-type`; other elements keep their own role.
    /// - The table-internal values (§2.4) on an element that is no HTML table part, following CSS 2.1 §17.2.1's
    ///   anonymous table objects as far as a line of text can: `table`, `table-row` and `table-cell` make the
    ///   table model's table, rows and cells, laid out as a grid when they nest as a table does; a row with no
    ///   table around it is a line of its own, a cell with none a stretch of its row's line apart from its
    ///   neighbours; a row group and a caption are blocks; `table-column(-group)` shows nothing (its content is
    ///   "treated as if it had display: none", §17.2.1 rule 1). HTML's own table elements keep their roles.
    private static func role(_ role: ElementRole, displayed display: CSSDisplay, tag: UInt32) -> ElementRole {
        switch display {
        case .inline, .inlineBlock, .contents:
            switch role {
            case .block, .blockQuote, .listItem, .definitionTerm, .definitionDescription: return .inline
            case .heading: return .bold
            default: return role
            }
        case .block:
            if case .listItem = role { return .block(lines: 1) }
            return role
        case .listItem:
            switch role {
            case .block, .inline, .definitionTerm, .definitionDescription: return .listItem
            default: return role
            }
        case .table, .tableRowGroup, .tableRow, .tableCell, .tableCaption, .tableColumn:
            guard !isHTMLTablePart(tag) else { return role }
            switch role {
            case .block, .inline: break
            default: return role
            }
            switch display {
            case .table: return .table
            case .tableRow: return .tableRow
            case .tableCell: return .tableCell(header: false)
            case .tableColumn: return .hidden
            default: return .block(lines: 1)
            }
        case .none:
            return role
        }
    }

    /// `<table>` and the elements of its model (rows, cells, row groups, captions, columns).
    private static func isHTMLTablePart(_ tag: UInt32) -> Bool {
        tag == GUMBO_TAG_TABLE.rawValue || TagTraits.of(tag).contains(.tablePart)
    }

    /// The author's font, alignment and white-space for the element just entered, over its HTML defaults.
    /// `block`: the element is a block whose box a background fills (not a table or a cell, whose rows are lines
    /// of their own in the window).
    private func applyCSS(to style: inout TextStyle, block: Bool = false) {
        guard let css = enteredCSS else { return }
        if let bold = css.bold { style.bold = bold }
        if let italic = css.italic { style.italic = italic }
        if let monospace = css.monospace { style.monospace = monospace }
        if let preformatted = css.preformatted { style.preformatted = preformatted }
        if let alignment = css.alignment { style.alignment = alignment }
        // Decorations propagate to the element's content (CSS Text Decoration 3 §2.1), so `none` takes away the
        // element's own (a `<u>`'s, a `<del>`'s) but not those it sits in. `writer.style` is still the parent's.
        // `color` inherits; a background paints behind the element's content, so its text is checked against it.
        // A translucent colour is composited over the page background behind it (CSS Color 4 §4.1, Compositing
        // 1 §5.1). Over the reader's theme that background is not known here, so such a colour is not used:
        // a background leaves what is behind it, a text colour falls back to the theme's. `transparent` paints
        // nothing: the background behind shows, and transparent text keeps the theme's colour rather than vanish.
        if let background = css.background {
            if background.isOpaque {
                style.background = background.rgb
                style.blockBackground = block
            } else if !background.isTransparent, let behind = writer.style.background {
                style.background = background.composited(over: behind)
                style.blockBackground = block
            }
        }
        if let color = css.color {
            if color.isOpaque {
                style.color = color.rgb
            } else if !color.isTransparent, let behind = style.background {
                style.color = color.composited(over: behind)
            } else {
                style.color = nil
            }
        }
        if let underline = css.underline { style.underline = underline || writer.style.underline }
        if let strikethrough = css.strikethrough {
            style.strikethrough = strikethrough || writer.style.strikethrough
        }
        // The element that starts a link (its parent is in none): its own rules decide its underline and colour.
        if style.link != nil, writer.style.link == nil {
            if css.underline == false { style.linkPlain = true }
            if css.color != nil, style.color != nil { style.linkColored = true }
        }
    }

    /// Whether an inline element of `role` displayed as `display` is a block of its own: on a line of its own, the
    /// text after it on the next (an element parsed or one the prefilter folded into text alike).
    private static func isInlineShownAsBlock(_ role: ElementRole, _ display: CSSDisplay?) -> Bool {
        switch (role, display) {
        case (.inline, .block?), (.bold, .block?), (.italic, .block?), (.monospace, .block?),
             (.link, .block?), (.quotation, .block?):
            return true
        default:
            return false
        }
    }

    /// After an element was entered with author styles: an inline element displayed as a block starts on a line of
    /// its own, and its `::before` text comes first.
    private mutating func enterStyled(_ frame: inout Frame, _ css: CSSElementStyle) {
        frame.css = css.inherited
        frame.after = css.inherited.hidden ? -1 : css.pseudoContent
        if Self.isInlineShownAsBlock(frame.role, css.display) {
            writer.requestBreak(1)
            frame.breakAfter = true
        }
        if css.pseudoContent >= 0, !css.inherited.hidden, let before = styleStore.before(css) {
            writer.appendText(before)
        }
    }


    private func frame(_ element: GumboNodeRef, role: ElementRole) -> Frame {
        Frame(node: element, role: role, childCount: element.childCount, savedStyle: writer.styleID,
              textStart: writer.byteCount, href: nil)
    }

    private mutating func leave(_ frame: Frame) {
        if frame.href != nil { openLinks -= 1 }
        if frame.ancestorHashes > 0 { ancestors.pop(frame.ancestorHashes) }
        if frame.after >= 0, let after = styleStore.after(pseudoContent: frame.after) { writer.appendText(after) }
        // A form the parser left empty (a `<form>` between a table's rows) still owns the controls after it,
        // as the form element pointer does in HTML's tree construction; any other ends with its element.
        if frame.node.tag == GUMBO_TAG_FORM.rawValue, frame.node.childCount > 0 { formPointer = nil }
        if frame.node.tag == GUMBO_TAG_LABEL.rawValue, frame.node.isHTML, let label = labels.popLast() {
            // The label's words, without the controls' own characters.
            let text = label.writerDepth == outerWriters.count ? writer.text(since: label.start) : nil
            let words = (text ?? "").split(whereSeparator: { $0.isWhitespace || $0 == "\u{FFFC}" })
            if !words.isEmpty {
                let name = words.joined(separator: " ")
                for index in label.controls where controls[index].label == nil { controls[index].label = name }
                if let target = label.target, labelsByID[target] == nil { labelsByID[target] = name }
            }
        }
        if frame.breakAfter { writer.requestBreak(1) }
        if frame.hostEnded, case .none = frame.table {
            switch frame.role {
            case .block, .inline:
                writer.styleID = frame.savedStyle
                return
            default:
                break
            }
        }
        switch frame.table {
        case .none:
            break
        case .table:
            emit(tables.removeLast())
        case .unmodelled:
            unmodelledTables -= 1
        case .caption:
            let content = writer.finishCell()
            tables[tables.count - 1].cellWriter = writer
            writer = outerWriters.removeLast()
            captionDepth -= 1
            if !content.isEmpty { tables[tables.count - 1].caption = content }
            writer.styleID = frame.savedStyle
            return
        case .cell(let colspan, let rowspan, let alignment, let widthPercent, let verticalAlignment):
            let content = writer.finishCell()
            tables[tables.count - 1].cellWriter = writer
            writer = outerWriters.removeLast()
            tables[tables.count - 1].placeCell(colspan: colspan, rowspan: rowspan, alignment: alignment,
                                               widthPercent: widthPercent, verticalAlignment: verticalAlignment,
                                               content: content)
            writer.styleID = frame.savedStyle
            return
        }
        switch frame.role {
        case .block(let lines):
            writer.requestBreak(lines)
        case .heading, .preformatted, .blockQuote, .table:
            writer.requestBreak(2)
        case .list:
            lists.removeLast()
            writer.requestBreak(lists.isEmpty ? 2 : 1)
        case .listItem:
            writer.endListItem()
        case .definitionTerm, .definitionDescription, .tableRow:
            writer.requestBreak(1)
        case .tableCell where !Self.isHTMLTablePart(frame.node.tag):
            writer.appendText(" ")  // a cell with no table: apart from what follows on its line
        case .quotation:
            writer.appendText("”")
        case .edit, .struck, .shifted:
            if textMarks, let close = InlineMarks.plainText(frame.role)?.close, !close.isEmpty {
                writer.appendText(close)
            }
        case .embedded:
            writer.requestBreak(1)
        case .link:
            if let href = frame.href, !writer.hasVisibleText(since: frame.textStart) {
                // An image link without alt text still needs something to click and to number.
                writer.appendText("[" + LinkResolution.label(for: href) + "]")
            }
        default:
            break
        }
        writer.styleID = frame.savedStyle
    }

    // MARK: Tables

    /// Writes a finished table: as a grid of monospace lines when it fits the layout width, otherwise (and for
    /// tables that lay out a page rather than data) cell after cell as flowing text.
    private mutating func emit(_ table: TableModel) {
        var table = table
        var cellWriter = table.cellWriter ?? RunWriter(capacity: 0)
        table.cellWriter = nil
        var text = cellWriter.finish()
        let base = writer.style
        let objects = tableObjects.removeLast()
        if tabbedTables && tables.isEmpty && emitTabbed(table, text: text, base: base, objects: objects) { return }
        // In a monospace grid the cells show their images and controls as text, as before the window had tables
        // of its own: `[alt]`, `[value    ]`. Read as flowing text (a table laying out a page), they stay the
        // pictures and widgets they are, as anywhere else in the page.
        var gridTable = table, gridText = text
        if !objects.isEmpty {
            let (replaced, map) = text.replacing(objects.map { ($0.offset, $0.fallback) })
            gridText = replaced
            gridTable.moveCells(map)
        }
        func objectsAsText() {
            for object in objects {
                if let control = object.control { controls[control].offset = nil }
            }
            if let first = objects.lazy.compactMap(\.image).first { images.removeAll(from: first) }
        }
        let width = layoutWidth - Indentation.columns(level: base.indent)
        let padStyle = TextStyle(monospace: true, preformatted: true, indent: base.indent)
        var started = false
        // In the window, where the grid's lines are and how many characters, lines and columns they take
        // (`PageGrid`), counted as they are written.
        var grid = PageGrid(bytes: 0..<0, characters: 0, lines: 0, columns: 0, indent: base.indent)
        var gridStart = 0
        let recordsGrid = tabbedTables && outerWriters.isEmpty
        func layout(columns: Int) -> Bool {
            let laidOut = TableLayout.layout(gridTable, text: gridText, width: columns, base: base) { line, tableWidth in
            if !started {
                writer.requestBreak(1)
                started = true
                if recordsGrid { gridStart = writer.startContent() }
            }
            // A table in a centred or right-aligned block moves as a whole.
            let room = max(0, width - tableWidth)
            let shift = base.alignment == .center ? room / 2 : base.alignment == .right ? room : 0
            if recordsGrid { grid.columns = max(grid.columns, shift + tableWidth) }
            if shift > 0 {
                writer.appendLaidOutLine([LaidOutPiece(bytes: Array(repeating: 0x20, count: shift), style: padStyle)]
                                         + line)
            } else {
                writer.appendLaidOutLine(line)
            }
            }
            if laidOut { objectsAsText() }
            if laidOut && recordsGrid && started {
                // The grid without the line break that ends its last line; its characters and lines are counted
                // on the document's text once it is finished (`countGrids`).
                grid.bytes = gridStart..<max(gridStart, writer.byteCount - 1)
                pageGrids.append(grid)
            }
            return laidOut
        }
        if layout(columns: width) { return }
        // In the window, a long table too wide for the page keeps its grid, wider than the page: preformatted
        // lines are not wrapped, and the view's measure takes in the widest (`PageView.fitMeasure`). As flowing
        // text its thousands of cells would each be a line of GTK's text buffer, at about a hundred bytes a line
        // whatever the line holds. (The dump keeps w3m's reading width.)
        if tabbedTables && table.cells.count > PageTable.maximumCells
            && layout(columns: RunWriter.longestLine - Indentation.columns(level: base.indent) - 1) { return }
        // Cells of one line follow each other on lines of their own; longer ones are paragraphs apart. The
        // caption comes first, centred as before the table had a width, with its pictures; the other objects
        // are the cells'.
        let captionBytes = table.caption ?? 0..<0
        var cellObjects = objects.filter { $0.offset < captionBytes.lowerBound || $0.offset + 3 > captionBytes.upperBound }
        var captionObjects = objects.count == cellObjects.count ? [] : objects
        // Each object in the cell holding it; one in no cell (none should be) turns them all back into text.
        var cellObjectRanges: [Range<Int>] = []
        if !cellObjects.isEmpty {
            var object = 0
            for cell in table.cells {
                let first = object
                while object < cellObjects.count && cellObjects[object].offset + 3 <= cell.bytes.upperBound
                        && cellObjects[object].offset >= cell.bytes.lowerBound { object += 1 }
                cellObjectRanges.append(first..<object)
            }
            if object < cellObjects.count {
                objectsAsText()
                text = gridText
                table = gridTable
                cellObjectRanges = []
                cellObjects = []
                captionObjects = []
            }
        }
        if let caption = table.caption {
            writer.requestBreak(1)
            _ = placeCaption(text, bytes: caption, objects: captionObjects) { $0 }
        }
        var previousWasParagraphs = false
        for (index, cell) in table.cells.enumerated() {
            let paragraphs = text.bytes[cell.bytes].contains(0x0A)
            writer.requestBreak(paragraphs || previousWasParagraphs ? 2 : 1)
            previousWasParagraphs = paragraphs
            let held = index < cellObjectRanges.count ? cellObjectRanges[index] : 0..<0
            var placed: [(object: Int, offset: Int)] = []
            writer.appendFinished(text, bytes: cell.bytes, objects: held.map { cellObjects[$0].offset },
                                  placed: { k, offset in placed.append((held.lowerBound + k, offset)) }) { style in
                var style = style
                style.indent = min(style.indent + base.indent, Self.maximumIndent)
                if style.alignment == .left { style.alignment = cell.alignment }
                return style
            }
            for (k, offset) in placed {
                if let control = cellObjects[k].control { controls[control].offset = offset }
                if let image = cellObjects[k].image { images.move(image, to: offset) }
                // In a cell of an enclosing table, they are that table's now, where its cell's text has them.
                if !tableObjects.isEmpty {
                    tableObjects[tableObjects.count - 1].append((offset, cellObjects[k].control, cellObjects[k].image,
                                                                 cellObjects[k].fallback))
                }
            }
        }
    }

    /// For the window: a data table as one line per row, cells separated by a tab, every piece styled with the
    /// table's index so the view gives the rows one tag whose tab stops sit at the column edges it measures in
    /// the page's font (`PageView+Tables.swift`). The cells stay text in the buffer: selection, copy, find and
    /// screen readers read them in order. False (nothing written) for what this cannot show: spans across rows
    /// or columns, cells holding line breaks (paragraphs, lists, nested tables), and tables past `PageTable`'s
    /// bounds; those keep the monospace grid.
    private mutating func emitTabbed(_ table: TableModel, text: RunStorage, base: TextStyle,
                                     objects: [CellObject]) -> Bool {
        let columns = table.columnCount
        guard columns >= 2, columns <= PageTable.maximumColumns, !table.tooWide, table.rowCount > 0,
              table.cells.count <= PageTable.maximumCells else { return false }
        var rowBytes = 0, lastRow = -1
        for cell in table.cells {
            guard cell.colspan == 1, cell.rowspan == 1, cell.bytes.count <= PageTable.maximumCellBytes,
                  !text.bytes[cell.bytes].contains(where: { $0 == 0x0A || $0 == 0x09 }) else { return false }
            // A row stays one line of the document (the writer breaks longer ones), so the view finds its rows
            // by their lengths.
            if cell.row != lastRow { rowBytes = 0 }
            lastRow = cell.row
            rowBytes += cell.bytes.count + 3 * BreakMarks.count(in: text.bytes[cell.bytes])
            guard rowBytes + PageTable.maximumColumns < RunWriter.longestLine else { return false }
        }
        let index = pageTables.count
        var cells: [PageTable.Cell] = []
        cells.reserveCapacity(table.cells.count)
        var rowStyle = base
        rowStyle.table = index
        rowStyle.alignment = .left
        rowStyle.heading = 0
        rowStyle.preformatted = false
        rowStyle.link = nil
        func restyle(_ style: TextStyle) -> TextStyle {
            var style = style
            style.table = index
            style.indent = base.indent
            style.alignment = .left
            style.preformatted = false
            style.heading = 0
            style.listMarker = false
            return style
        }
        writer.requestBreak(1)
        var objects = objects
        if let caption = table.caption {
            // The view gives the caption its table's width once it has measured the columns (`PageView+Tables`).
            objects = placeCaption(text, bytes: caption, objects: objects) { style in
                var style = style
                style.caption = index
                style.alignment = .center
                style.indent = base.indent
                return style
            }
            writer.requestBreak(1)
        }
        var k = 0
        var rowIndex = 0
        var object = 0
        while k < table.cells.count {
            let row = table.cells[k].row
            var line: [LaidOutPiece] = []
            var lineBytes = 0
            // The row's cells that hold images or controls, and where each starts in the line.
            var placed: [(bytes: Range<Int>, at: Int)] = []
            var column = 0
            while k < table.cells.count && table.cells[k].row == row {
                let cell = table.cells[k]
                // Missing cells before this one leave their columns empty.
                while column < cell.column {
                    line.append(LaidOutPiece(bytes: [0x09], style: rowStyle))
                    lineBytes += 1
                    column += 1
                }
                let bold = cell.bytes.isEmpty ? false : text.style(ofRun: text.run(containing: cell.bytes.lowerBound)).bold
                let first = line.count
                CellText(storage: text, bytes: cell.bytes).pieces(cell.bytes, into: &line, restyle: restyle)
                var bytes: [UInt8]
                if object < objects.count, objects[object].offset < cell.bytes.upperBound {
                    // A cell holding a picture or a widget is never broken: it gets no marks, and its bytes stay
                    // where `placed` says.
                    placed.append((cell.bytes, lineBytes))
                    bytes = Array(text.bytes[cell.bytes])
                } else {
                    BreakMarks.mark(&line, from: first)
                    bytes = line[first...].flatMap(\.bytes)
                }
                lineBytes += bytes.count
                cells.append(PageTable.Cell(row: rowIndex, column: cell.column, text: String(decoding: bytes, as: UTF8.self),
                                            bold: bold, alignment: cell.alignment))
                k += 1
            }
            // A row ends with no tab; an empty last piece keeps the row's style on a row of empty cells.
            if line.isEmpty { line.append(LaidOutPiece(bytes: [0x20], style: rowStyle)) }
            writer.appendLaidOutLine(line)
            // The line's bytes are the cells' as they are, and a newline ends it.
            let lineStart = writer.byteCount - max(lineBytes, 1) - 1
            for (bytes, at) in placed {
                while object < objects.count, objects[object].offset < bytes.upperBound {
                    let offset = lineStart + at + objects[object].offset - bytes.lowerBound
                    if let control = objects[object].control { controls[control].offset = offset }
                    if let image = objects[object].image { images.move(image, to: offset) }
                    object += 1
                }
            }
            rowIndex += 1
        }
        var pageTable = PageTable(columnCount: columns, cells: cells, border: table.border,
                                  padding: table.paddingPixels, indent: base.indent)
        pageTable.widthPercent = table.widthPercent
        for cell in table.cells where cell.colspan == 1 {
            if let percent = cell.widthPercent {
                if pageTable.columnPercents.isEmpty { pageTable.columnPercents = Array(repeating: nil, count: columns) }
                pageTable.columnPercents[cell.column] = max(pageTable.columnPercents[cell.column] ?? 0, percent)
            }
        }
        pageTables.append(pageTable)
        return true
    }

    /// `width="N%"` as N; pixel widths mean nothing on a character grid.
    private static func percent(_ value: String?) -> Int? {
        guard let value = value?.trimmed(), value.hasSuffix("%"),
              let number = Double(value.dropLast()), number > 0 else { return nil }
        return Int(min(number, 100))
    }

    /// `valign="top|middle|bottom"` (and `baseline`, which reads as top).
    private static func verticalAlignment(of element: GumboNodeRef) -> TableModel.VerticalAlignment? {
        switch element.attribute("valign")?.trimmed().lowercased() {
        case "top", "baseline": return .top
        case "middle", "center": return .middle
        case "bottom": return .bottom
        default: return nil
        }
    }

    /// `align="center|right"` or `text-align: center|right` in the `style` attribute.
    private static func alignment(of element: GumboNodeRef) -> TextAlignment? {
        func named(_ value: String) -> TextAlignment? {
            switch value.lowercased() {
            case "center", "middle", "-webkit-center", "-moz-center": return .center
            case "right", "end", "-webkit-right", "-moz-right": return .right
            case "left", "start", "justify": return .left
            default: return nil
            }
        }
        if let css = element.attribute("style") {
            // The last declaration wins, as in CSS.
            var found: TextAlignment?
            for declaration in css.split(separator: ";") {
                let parts = declaration.split(separator: ":", maxSplits: 1)
                guard parts.count == 2,
                      parts[0].trimmed().lowercased() == "text-align" else { continue }
                let value = (parts[1].split(separator: "!").first ?? "").trimmed()
                if let alignment = named(value) { found = alignment }
            }
            if let found { return found }
        }
        return element.attribute("align").flatMap { named($0.trimmed()) }
    }

    // MARK: Text

    /// Appends a text node, putting back the inline content the prefilter replaced with placeholders.
    /// `hidden`: the text is under `visibility: hidden` (an inline element in it may be visible again).
    /// `node`: the text node, on a page whose folded elements are matched as elements (`folded`): from its first
    /// placeholder holding one on, the text is written by `appendFolded`, and `host` is the `p` it stands in (nil
    /// for any other element). Returns whether that `p` ended in the text (`appendFolded`).
    @discardableResult
    private mutating func appendTextNode(_ text: UnsafeBufferPointer<UInt8>, hidden: Bool = false,
                                         node: GumboNodeRef? = nil, host: FoldedHost? = nil) -> Bool {
        guard !text.isEmpty else { return false }
        // A rule hid the `p` this text stands in: only its folded paragraphs, its next siblings, show.
        let ownHidden = hidden || host?.hidden == true
        var handedOver = false, hostEnded = false
        Self.forEachSegment(of: text, placeholderCount: markup.placeholders.count) { segment, placeholder in
            if handedOver { return }
            if let placeholder, let node, markup.placeholderElements[placeholder] != 0, let folded,
               let run = folded.run(of: node) {
                handedOver = true
                let offset = UnsafeRawPointer(segment.baseAddress!) - UnsafeRawPointer(text.baseAddress!)
                hostEnded = appendFolded(run, host: run.inHost ? host : nil, from: offset)
                return
            }
            let hidden = ownHidden
            if let placeholder {
                // What a rule hid with `display: none` shows nothing, an inline element styled anew included.
                if host?.hidden == true { return }
                var cursor = markup.pieces.cursor(markup.placeholders[placeholder])
                while let piece = markup.pieces.next(&cursor) {
                    appendPiece(piece, hidden: hidden)
                    if dump != nil { drainFinishedLines() }
                }
            } else if hidden {
                return
            } else {
                appendTransformed(segment)
            }
        }
        return hostEnded
    }

    /// The bare `p` whose text holds a run of folded paragraphs (`FoldedRun.inHost`): the style its frame restores,
    /// whether it is a block, its parent's inherited styles, and whether a rule hid it (`Frame.hiddenHost`).
    private struct FoldedHost {
        var savedStyle: StyleHandle
        var block: Bool
        var parentCSS: CSSInheritedRef
        var hidden: Bool
        /// Its `::after` text (`Frame.after`).
        var after: Int32
    }

    /// A folded paragraph being written: its style, whether it is a block, and the ancestor hashes it added.
    private struct FoldedParagraph {
        var css: CSSElementStyle?
        var block: Bool
        var ancestorHashes: Int
    }

    /// Appends a text node holding elements the prefilter folded, on a page whose rules read siblings: each folded
    /// paragraph and inline element is styled as an element of its own, at its place among its siblings
    /// (`PageElement`), and a paragraph takes its parent's styles, not those of the `p` its text stands in.
    /// Returns whether the host ended here.
    /// `offset`: where in the text its first folded element's placeholder is.
    private mutating func appendFolded(_ run: FoldedRun, host: FoldedHost?, from offset: Int) -> Bool {
        guard let folded else { return false }
        var hostEnded = false
        let ownCSS = textCSS
        let ownStyle = writer.styleID
        let ownHidden = (host?.hidden ?? false) || ownCSS.hidden
        // Where the paragraphs stand: the text's element, or the host's parent once the host has ended.
        var levelCSS = ownCSS, levelStyle = ownStyle, levelHidden = ownHidden
        var hidden = ownHidden
        // Content under `display: none` (the hidden host's own, or a paragraph's): nothing of it is written.
        var suppressed = host?.hidden == true
        var state = run.startReading()
        var next: Int32 = 0
        var open: FoldedParagraph?
        defer { textCSS = ownCSS }
        let text = run.text.text
        Self.forEachSegment(of: UnsafeBufferPointer(rebasing: text[offset...]),
                            placeholderCount: markup.placeholders.count) { segment, placeholder in
            guard let placeholder else {
                if !hidden && !suppressed { appendTransformed(segment) }
                return
            }
            var cursor = markup.pieces.cursor(markup.placeholders[placeholder])
            while let piece = markup.pieces.next(&cursor) {
                switch run.step(piece, &state, next: &next) {
                case .text:
                    if !suppressed { appendPiece(piece, hidden: hidden) }
                case .inline(let item):
                    if !suppressed {
                        appendPiece(piece, hidden: hidden, element: PageElement(folded, run: run, item: item))
                    }
                case .paragraph(let closesHost, let closes, let opens, let emptyAtOnce):
                    if closesHost, let host {
                        hostEnded = true
                        if host.after >= 0, let after = styleStore.after(pseudoContent: host.after) {
                            writer.appendText(after)
                        }
                        if host.block && !host.hidden { writer.requestBreak(2) }
                        levelCSS = host.parentCSS
                        levelStyle = host.savedStyle
                        levelHidden = host.parentCSS.hidden
                    }
                    if closes >= 0 || closesHost {
                        if let paragraph = open.take() { closeFoldedParagraph(paragraph, style: levelStyle) }
                        writer.styleID = levelStyle
                        textCSS = levelCSS
                        hidden = levelHidden
                        suppressed = false
                    }
                    if opens >= 0 {
                        let paragraph = openFoldedParagraph(PageElement(folded, run: run, item: opens),
                                                            parentCSS: levelCSS, parentHidden: levelHidden)
                        if emptyAtOnce {
                            closeFoldedParagraph(paragraph, style: levelStyle)
                        } else {
                            open = paragraph
                            textCSS = paragraph.css?.inherited ?? levelCSS
                            hidden = paragraph.css?.inherited.hidden ?? levelHidden
                            suppressed = paragraph.css?.display == CSSDisplay.none
                        }
                    }
                    if !piece.text.isEmpty && !suppressed {
                        appendPiece(InlinePiece(text: piece.text), hidden: hidden)
                    }
                }
                if dump != nil { drainFinishedLines() }
            }
        }
        if let paragraph = open.take() { closeFoldedParagraph(paragraph, style: levelStyle) }
        return hostEnded
    }

    /// Starts a folded paragraph: its style (shared with the last one of the same parent when no rule tested its
    /// place), its break and its `::before`.
    private mutating func openFoldedParagraph(_ element: PageElement, parentCSS: CSSInheritedRef,
                                              parentHidden: Bool) -> FoldedParagraph {
        let parent = element.run?.text.node.pointee.parent
        let css: CSSElementStyle
        if let shared = foldedParagraphStyle, shared.parent == parent, shared.parentCSS == parentCSS {
            css = shared.style
        } else {
            css = CSSCascade.style(for: element, keys: CSSElementKeys(typeHash: element.typeHash, idHash: nil),
                                   rules: styleRules, styleAttribute: [], parent: parentCSS, store: &styleStore,
                                   ancestors: ancestors, matches: &matches)
            foldedParagraphStyle = css.shareable && parent != nil ? (parent!, parentCSS, css) : nil
        }
        if css.display == CSSDisplay.none { return FoldedParagraph(css: css, block: false, ancestorHashes: 0) }
        let role = css.display.map { Self.role(.block(lines: 2), displayed: $0, tag: GUMBO_TAG_P.rawValue) }
            ?? .block(lines: 2)
        let block: Bool
        if case .inline = role { block = false } else { block = true }
        if block { writer.requestBreak(2) }
        var style = writer.style
        var entered: CSSElementStyle? = css
        swap(&entered, &enteredCSS)
        applyCSS(to: &style, block: block)
        swap(&entered, &enteredCSS)
        writer.style = style
        if !css.inherited.hidden, let before = styleStore.before(css) { writer.appendText(before) }
        let hashes = styleRules.isEmpty ? 0 : ancestors.push(element, keys: CSSElementKeys(typeHash: element.typeHash,
                                                                                            idHash: nil))
        return FoldedParagraph(css: css, block: block, ancestorHashes: hashes)
    }

    private mutating func closeFoldedParagraph(_ paragraph: FoldedParagraph, style: StyleHandle) {
        if paragraph.ancestorHashes > 0 { ancestors.pop(paragraph.ancestorHashes) }
        guard let css = paragraph.css, css.display != CSSDisplay.none else { return }
        if !css.inherited.hidden, let after = styleStore.after(css) { writer.appendText(after) }
        if paragraph.block { writer.requestBreak(2) }
        writer.styleID = style
    }

    private mutating func appendPiece(_ piece: InlinePiece, hidden: Bool = false, element: PageElement? = nil) {
        var closingMark = ""
        if piece.tag == GUMBO_TAG_P.rawValue {
            // A bare `<p>` or `</p>` the prefilter took out of a stretch of text: where a paragraph began or ended.
            writer.requestBreak(2)
            guard !piece.text.isEmpty else { return }
        }
        // An inline element the prefilter took out: rules for its type, its classes (a formatting element's
        // `class` travels with the piece) or any element can apply to it (`PieceElement`).
        var css: CSSElementStyle?
        let classAttribute = piece.classValue.map { String(decoding: source[$0], as: UTF8.self) }
        if stylesOn, piece.tag != 0, piece.tag != GUMBO_TAG_P.rawValue, let parent = textParent,
           classAttribute != nil || styleRules.mayApply(toType: parent.localName(ofTag: piece.tag)) {
            let styled: CSSElementStyle
            if let element {
                styled = CSSCascade.style(for: element, rules: styleRules, styleAttribute: [], parent: textCSS,
                                          store: &styleStore, ancestors: ancestors, matches: &matches)
            } else {
                styled = CSSCascade.style(for: PieceElement(tag: piece.tag, parent: parent,
                                                            droppedAttributes: piece.droppedAttributes,
                                                            classAttribute: classAttribute,
                                                            hasHref: piece.tag == GUMBO_TAG_A.rawValue
                                                                && piece.href != nil), rules: styleRules,
                                          styleAttribute: [], parent: textCSS, store: &styleStore,
                                          ancestors: ancestors, matches: &matches)
            }
            if styled.display == CSSDisplay.none { return }
            css = styled
        }
        let hidden = css?.inherited.hidden ?? hidden
        if hidden { return }
        let saved = writer.styleID
        let shownAsBlock = piece.tag != 0 && Self.isInlineShownAsBlock(ElementRole.of(piece.tag), css?.display)
        if shownAsBlock { writer.requestBreak(1) }
        if piece.tag != 0 && piece.tag != GUMBO_TAG_P.rawValue {
            var style = writer.style
            let role = ElementRole.of(piece.tag)
            switch role {
            case .bold: style.bold = true
            case .italic: style.italic = true
            case .monospace: style.monospace = true
            case .code, .edit, .struck, .underlined, .highlighted, .shifted:
                InlineMarks.apply(role, to: &style)
                if textMarks, let marks = InlineMarks.plainText(role) {
                    writer.appendText(marks.open)
                    closingMark = marks.close
                }
            case .link:
                if let href = piece.href {
                    style.link = linkIndex(for: LinkResolution.trim(String(decoding: source[href], as: UTF8.self)))
                }
            default: break
            }
            if css != nil {
                // `applyCSS` reads `enteredCSS`: the piece's style is swapped in and out, not copied.
                swap(&css, &enteredCSS)
                applyCSS(to: &style)
                swap(&css, &enteredCSS)
            }
            writer.style = style
        }
        if let css, let before = styleStore.before(css) { writer.appendText(before) }
        let transform = css?.inherited.transform ?? textCSS.transform
        markup.decoded.withUnsafeBufferPointer { decoded in
            let text = UnsafeBufferPointer(rebasing: (piece.decoded ? decoded : source)[piece.text])
            appendTransformed(text, transform)
        }
        if let css, let after = styleStore.after(css) { writer.appendText(after) }
        if !closingMark.isEmpty { writer.appendText(closingMark) }
        writer.styleID = saved
        if shownAsBlock { writer.requestBreak(1) }
    }

    /// Text in the current style, in upper or lower case, or with each word's first letter in upper case, when
    /// `text-transform` asks for it (CSS Text 3 §2.1). A word that began before this text (`hel<b>lo</b>`) is not
    /// capitalized again.
    private mutating func appendTransformed(_ text: UnsafeBufferPointer<UInt8>, _ transform: CSSTextTransform? = nil) {
        let transform = transform ?? textCSS.transform
        guard transform != .none else {
            if writer.style.preformatted { writer.appendPreformatted(text) } else { writer.appendText(text) }
            return
        }
        let original = String(decoding: text, as: UTF8.self)
        var changed: String
        switch transform {
        case .uppercase: changed = original.uppercased()
        case .lowercase: changed = original.lowercased()
        default: changed = Self.capitalized(original, afterWordPart: writer.lastScalar.map(Self.isWordPart) ?? false)
        }
        changed.withUTF8 { bytes in
            if writer.style.preformatted { writer.appendPreformatted(bytes) } else { writer.appendText(bytes) }
        }
    }

    /// Letters and digits make words; an apostrophe inside a word (`don't`) does not end it.
    private static func isWordPart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }

    /// `capitalize`: the first letter of each word in upper case (CSS Text 3 §2.1.1), the rest as written.
    static func capitalized(_ text: String, afterWordPart: Bool) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        var inWord = afterWordPart
        for scalar in text.unicodeScalars {
            if isWordPart(scalar) {
                if !inWord && scalar.properties.isAlphabetic {
                    result += String(scalar).uppercased()
                } else {
                    result.unicodeScalars.append(scalar)
                }
                inWord = true
            } else {
                if scalar != "'" && scalar != "\u{2019}" { inWord = false }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Calls `body` with each stretch of gumbo's text between placeholders, and with each placeholder's index.
    static func forEachSegment(of text: UnsafeBufferPointer<UInt8>, placeholderCount: Int,
                                       _ body: (UnsafeBufferPointer<UInt8>, Int?) -> Void) {
        guard placeholderCount > 0 else { body(text, nil); return }
        let start = MarkupPrefilter.placeholderStart, end = MarkupPrefilter.placeholderEnd
        var k = 0
        while k < text.count {
            guard let placeholder = firstIndex(of: start, in: text, from: k) else {
                body(UnsafeBufferPointer(rebasing: text[k...]), nil)
                return
            }
            if placeholder > k { body(UnsafeBufferPointer(rebasing: text[k..<placeholder]), nil) }
            var j = placeholder + start.count
            var index = 0
            while j < text.count, text[j] >= 0x30, text[j] <= 0x39, index < placeholderCount {
                index = index * 10 + Int(text[j] - 0x30)
                j += 1
            }
            if j > placeholder + start.count, index < placeholderCount, j + end.count <= text.count,
               text[j] == end[0], text[j + 1] == end[1], text[j + 2] == end[2] {
                body(UnsafeBufferPointer(rebasing: text[placeholder..<(j + end.count)]), index)
                k = j + end.count
            } else {
                body(UnsafeBufferPointer(rebasing: text[placeholder..<(placeholder + start.count)]), nil)
                k = placeholder + start.count
            }
        }
    }

    private func collapsedText(of element: GumboNodeRef) -> String? {
        var bytes: [UInt8] = []
        for index in 0..<element.childCount where element.child(index).isText {
            Self.forEachSegment(of: element.child(index).text, placeholderCount: markup.placeholders.count) {
                segment, placeholder in
                guard let placeholder else { bytes.append(contentsOf: segment); return }
                var cursor = markup.pieces.cursor(markup.placeholders[placeholder])
                while let piece = markup.pieces.next(&cursor) {
                    if piece.decoded {
                        bytes.append(contentsOf: markup.decoded[piece.text])
                    } else {
                        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[piece.text]))
                    }
                }
            }
        }
        let words = String(decoding: bytes, as: UTF8.self)
            .split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\u{0C}" })
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    // MARK: Lists and links

    /// The ordinal of the list item just entered, in its list or among its siblings.
    private mutating func nextOrdinal(for item: GumboNodeRef) -> Int {
        if !lists.isEmpty { return lists[lists.count - 1].nextOrdinal(for: item) }
        if looseItems.parent?.node != parent?.node { looseItems = (parent, 1) }
        if item.hasAttributes, let value = HTMLInteger.parse(item.attribute("value"), clampedTo: ListCounter.ordinals) {
            looseItems.next = value
        }
        defer { looseItems.next += 1 }
        return looseItems.next
    }

    private mutating func linkIndex(for href: String) -> Int { hrefs.insert(href) }

    /// Resolves the `href`s not resolved yet, in order, against `base`, merging links that resolve to the same
    /// URL so each URL has one number (`linkRemap`, `resolvedLinks`).
    private mutating func resolveLinks(base: URL?) {
        guard linkRemap.count < hrefs.count else { return }
        if sameDocument == nil { sameDocument = LinkResolution.SameDocument(base: base) }
        let sameDocument = sameDocument!
        // Once: a reservation at every stretch printed would copy the whole list each time.
        if linkRemap.isEmpty { linkRemap.reserveCapacity(hrefs.count) }
        var buffer: [UInt8] = []
        for index in linkRemap.count..<hrefs.count {
            let quick = hrefs.withBytes(at: index) { href in
                sameDocument.withResolved(href, buffer: &buffer) {
                    sameDocument.isFollowable ? resolvedLinks.insert($0) : nil
                }
            }
            if let quick {
                linkRemap.append(quick)
                continue
            }
            let url = LinkResolution.resolve(hrefs.string(at: index), against: base)
            if let url, LinkResolution.isFollowable(url) {
                linkRemap.append(resolvedLinks.insert(url.absoluteString))
            } else {
                linkRemap.append(nil)
            }
        }
    }

    /// Hands the writer's finished lines to `dump` once they pass its `stretchBytes`, when no table, caption,
    /// label or link is open (each reads back what it wrote, or writes it elsewhere first). The page has no
    /// `<base>` (`build`), so its links resolve against its address as they are met.
    private mutating func drainFinishedLines() {
        guard let dump, writer.heldBytes >= dump.stretchBytes, outerWriters.isEmpty, tables.isEmpty,
              labels.isEmpty, openLinks == 0, captionDepth == 0 else { return }
        resolveLinks(base: pageURL)
        let remap = linkRemap
        guard let lines = writer.drainFinishedLines(links: { remap[$0] }) else { return }
        dump.take(lines)
    }

    /// Whether `<base` occurs in the page, in any case: only then can a `<base href>` change where links go.
    private static func mayHaveBase(_ source: UnsafeBufferPointer<UInt8>) -> Bool {
        var k = 0
        while k + 5 <= source.count {
            guard let base = source.baseAddress,
                  let hit = memchr(base + k, Int32(UInt8(ascii: "<")), source.count - k) else { return false }
            let index = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            if index + 5 <= source.count, equalsLowercase(UnsafeBufferPointer(rebasing: source[(index + 1)..<(index + 5)]), "base") {
                return true
            }
            k = index + 1
        }
        return false
    }

    /// Resolves the links once `<base href>` is known (it applies to links before it too) and merges links that
    /// resolve to the same URL, so each URL has one number.
    private mutating func finish(baseURL: URL?) -> Document {
        let base = baseHref.flatMap { LinkResolution.resolve($0, against: baseURL) } ?? baseURL
        resolveLinks(base: base)
        let links = resolvedLinks
        let remap = linkRemap
        resolvedLinks = LinkTable()
        linkRemap = []
        hrefs = LinkTable()
        writer.remapLinks { remap[$0] }
        let pageImages = images.resolved(against: base, links: remap)
        var metaRefresh: (delay: Double, url: URL)?
        if let refresh {
            let target = refresh.target.flatMap { LinkResolution.resolve($0, against: base) } ?? baseURL
            if let target { metaRefresh = (refresh.delay, target) }
        }
        var document = Document(title: title, links: links.sealed(), metaRefresh: metaRefresh, storage: writer.finish(),
                                anchors: anchors)
        document.images = pageImages
        document.forms = forms
        for index in controls.indices where controls[index].label == nil {
            if let id = controls[index].elementID { controls[index].label = labelsByID[id] }
        }
        document.controls = controls
        document.tables = pageTables
        document.grids = Self.countGrids(pageGrids, in: document.storage.bytes)
        document.baseURL = base
        document.widestPreformattedColumns = Document.widestPreformattedLine(in: document.storage)
        return document
    }
}

// MARK: Grids

extension DocumentBuilder {
    /// `grids` with the characters and lines of each counted in the document's `bytes` (off the main loop, where
    /// the document is built), each range kept within the text (a trailing space trimmed at its end).
    static func countGrids(_ grids: [PageGrid], in bytes: [UInt8]) -> [PageGrid] {
        grids.compactMap { grid in
            var grid = grid
            let end = min(grid.bytes.upperBound, bytes.count)
            guard grid.bytes.lowerBound < end else { return nil }
            grid.bytes = grid.bytes.lowerBound..<end
            var characters = 0, lines = 1
            for k in grid.bytes {
                let byte = bytes[k]
                if byte & 0xC0 != 0x80 { characters += 1 }
                if byte == 0x0A { lines += 1 }
            }
            grid.characters = characters
            grid.lines = lines
            return grid
        }
    }
}

// MARK: Images

extension DocumentBuilder {
    /// Writes an image as the one character its picture replaces in the window (`PageImage`), and notes its
    /// sources, alt text and declared size.
    private mutating func appendImage(_ element: GumboNodeRef, sources: [PageImages.Source]) {
        guard let selection = imageSelection else { return }
        let marker = "\u{FFFC}"
        if writer.style.preformatted {
            var text = marker
            text.withUTF8 { writer.appendPreformatted($0) }
        } else {
            writer.appendText(marker)
        }
        func dimension(_ name: String) -> Int? {
            HTMLInteger.nonNegative(element.attribute(name), clampedTo: 0...PageImage.largestDimension)
        }
        images.add(offset: writer.byteCount - marker.utf8.count, src: element.attribute("src"),
                   srcset: element.attribute("srcset"), sources: sources, alt: element.attribute("alt"),
                   width: dimension("width"), height: dimension("height"),
                   lazy: element.attribute("loading")?.trimmed().lowercased() == "lazy",
                   link: writer.style.link, selection: selection)
        if !outerWriters.isEmpty {
            tableObjects[tableObjects.count - 1].append((writer.byteCount - marker.utf8.count, nil, images.count - 1,
                                                         Array(Self.altText(element).utf8)))
        }
    }

    /// An image in a table cell of the window, or any image of the dump, where only its text shows: `[alt]`.
    private mutating func appendAlt(_ element: GumboNodeRef) {
        let alt = Self.altText(element)
        if !alt.isEmpty { writer.appendText(alt) }
    }

    private static func altText(_ element: GumboNodeRef) -> String {
        guard let alt = element.attribute("alt") else { return "" }
        let words = alt.split(whereSeparator: { $0.isASCII && $0.isWhitespace })
        return words.isEmpty ? "" : "[" + words.joined(separator: " ") + "]"
    }

    /// Whether an image or control met now goes in as U+FFFC into a table cell, in the window: in a cell of the
    /// innermost table (not its caption), recorded in `tableObjects` until the table is laid out. A table that
    /// reads as flowing text hands its objects on to the cell of the table around it.
    private var objectsInCell: Bool {
        tabbedTables && !textMarks && !tables.isEmpty && outerWriters.count == tables.count && captionDepth == 0
    }

    /// Whether a picture or control met now goes in as U+FFFC into the caption of the innermost table, in the
    /// window, recorded in `tableObjects` as the cells' are, and placed where the caption is written
    /// (`placeCaption`).
    private var objectsInCaption: Bool {
        tabbedTables && !textMarks && !tables.isEmpty && outerWriters.count == tables.count && captionDepth > 0
    }

    /// Writes a table's caption (`bytes` of `text`), restyled, with the pictures among `objects` that stand in
    /// it where it puts them (for a table in a cell of another, that table's objects now); returns the other
    /// objects, in order.
    private mutating func placeCaption(_ text: RunStorage, bytes caption: Range<Int>, objects: [CellObject],
                                       restyle: (TextStyle) -> TextStyle) -> [CellObject] {
        let inCaption = objects.filter { $0.offset >= caption.lowerBound && $0.offset + 3 <= caption.upperBound }
        var placed: [(object: Int, offset: Int)] = []
        writer.appendFinished(text, bytes: caption, objects: inCaption.map(\.offset),
                              placed: { k, offset in placed.append((k, offset)) }, restyle: restyle)
        for (k, offset) in placed {
            if let image = inCaption[k].image { images.move(image, to: offset) }
            if !tableObjects.isEmpty {
                tableObjects[tableObjects.count - 1].append((offset, inCaption[k].control, inCaption[k].image,
                                                             inCaption[k].fallback))
            }
        }
        return objects.filter { !($0.offset >= caption.lowerBound && $0.offset + 3 <= caption.upperBound) }
    }

    /// The `<source>` elements just before child `index` of `parent`: a `<picture>`'s sources of its `<img>`.
    /// (`<source>` in `<video>` and `<audio>` is never reached: those elements are not shown.) Looks back no
    /// further than a few siblings, so a long run of images costs no more per image than a short one.
    private func pictureSources(before index: Int, in parent: GumboNodeRef?) -> [PageImages.Source] {
        guard let parent, index > 0 else { return [] }
        var sources: [PageImages.Source] = []
        var k = index - 1
        var looked = 0
        while k >= 0, looked < 32 {
            let node = parent.child(k)
            k -= 1
            looked += 1
            if node.isText { continue }
            guard node.isElement, node.tag == GUMBO_TAG_SOURCE.rawValue else { break }
            sources.append(PageImages.Source(srcset: node.attribute("srcset"), type: node.attribute("type"),
                                             media: node.attribute("media")))
        }
        return sources.reversed()
    }
}

// MARK: Forms

extension DocumentBuilder {
    /// Reads a form control and writes it: in the window, one U+FFFC its widget replaces; in plain text (and
    /// inside a table's columns, which are laid out as text), as w3m prints it: `[value    ]`, `[*]`, `(*)`,
    /// `[Label]`.
    private mutating func appendControl(_ element: GumboNodeRef) {
        guard var control = Self.control(element, form: formPointer, collapsedText: collapsedText(of:)) else {
            return
        }
        control.elementID = element.attribute("id")
        if !labels.isEmpty { labels[labels.count - 1].controls.append(controls.count) }
        if case .hidden = control.kind {
            controls.append(control)
            return
        }
        if element.tag == GUMBO_TAG_BUTTON.rawValue, control.placeholder == nil {
            // A `<button>` with nothing in it shows nothing (markup capped for depth leaves thousands of them);
            // it still submits its form on Return.
            controls.append(control)
            return
        }
        if !textMarks && (outerWriters.isEmpty || objectsInCell || objectsInCaption) {
            let marker = "\u{FFFC}"
            if writer.style.preformatted {
                var text = marker
                text.withUTF8 { writer.appendPreformatted($0) }
            } else {
                writer.appendText(marker)
            }
            control.offset = writer.byteCount - marker.utf8.count
            controls.append(control)
            if !outerWriters.isEmpty {
                tableObjects[tableObjects.count - 1].append((control.offset ?? 0, controls.count - 1, nil,
                                                             Array(FormText.lines(of: control).joined(separator: "\n").utf8)))
            }
            return
        }
        controls.append(control)
        // The field's width is its spaces: they are kept as written, and the line it stands in is not rewrapped
        // (as a preformatted line is not).
        let saved = writer.styleID
        var style = writer.style
        style.preformatted = true
        writer.style = style
        for (index, line) in FormText.lines(of: control).enumerated() {
            if index > 0 { writer.lineBreak() }
            var line = line
            line.withUTF8 { writer.appendPreformatted($0) }
        }
        writer.styleID = saved
    }

    /// The control `element` is, with the attributes it starts with; nil for what is no control (an image
    /// button is its image, `PageImage`).
    private static func control(_ element: GumboNodeRef, form: Int?,
                                collapsedText: (GumboNodeRef) -> String?) -> FormControl? {
        let name = element.attribute("name") ?? ""
        let disabled = element.hasAttribute("disabled")
        let size = HTMLInteger.nonNegative(element.attribute("size"), clampedTo: 1...200) ?? 20
        var control = FormControl(kind: .hidden, name: name, value: element.attribute("value") ?? "",
                                  checked: element.hasAttribute("checked"), disabled: disabled,
                                  size: size, placeholder: element.attribute("placeholder"), form: form)
        switch element.tag {
        case GUMBO_TAG_SELECT.rawValue:
            var options: [FormOption] = []
            func add(_ option: GumboNodeRef, disabled groupDisabled: Bool) {
                let label = option.attribute("label") ?? collapsedText(option) ?? ""
                options.append(FormOption(label: label, value: option.attribute("value") ?? label,
                                          selected: option.hasAttribute("selected"),
                                          disabled: groupDisabled || option.hasAttribute("disabled")))
            }
            // Options and groups of options, as many as a person could read through.
            for index in 0..<min(element.childCount, 10_000) {
                let child = element.child(index)
                guard child.isElement else { continue }
                if child.tag == GUMBO_TAG_OPTION.rawValue {
                    add(child, disabled: false)
                } else if child.tag == GUMBO_TAG_OPTGROUP.rawValue {
                    for k in 0..<min(child.childCount, 10_000) where child.child(k).isElement
                        && child.child(k).tag == GUMBO_TAG_OPTION.rawValue {
                        add(child.child(k), disabled: child.hasAttribute("disabled"))
                    }
                }
            }
            control.kind = .select(options: options, multiple: element.hasAttribute("multiple"))
            control.value = ""
        case GUMBO_TAG_TEXTAREA.rawValue:
            // The text area's content is its value, with one line break right after the start tag dropped
            // (the parser's rule for `textarea`).
            var text = ""
            for index in 0..<element.childCount where element.child(index).isText {
                text += String(decoding: element.child(index).text, as: UTF8.self)
            }
            if text.hasPrefix("\n") { text.removeFirst() }
            control.value = text
            let rows = HTMLInteger.nonNegative(element.attribute("rows"), clampedTo: 1...100) ?? 2
            let columns = HTMLInteger.nonNegative(element.attribute("cols"), clampedTo: 1...200) ?? 20
            control.kind = .textArea(rows: rows, columns: columns)
            control.size = columns
        case GUMBO_TAG_BUTTON.rawValue:
            let type = element.attribute("type")?.trimmed().lowercased()
            control.kind = type == "reset" ? .reset : type == "button" ? .button : .submit
            // A button's label is its content; its value is what it sends.
            control.placeholder = collapsedText(element)
        default:
            let type = element.attribute("type")?.trimmed().lowercased() ?? "text"
            switch type {
            case "hidden": control.kind = .hidden
            case "checkbox", "radio":
                control.kind = type == "checkbox" ? .checkbox : .radio
                if element.attribute("value") == nil { control.value = "on" }
            // A button's label is its value; `placeholder` holds a `<button>`'s content.
            case "submit": control.kind = .submit; control.placeholder = nil
            case "reset": control.kind = .reset; control.placeholder = nil
            case "button": control.kind = .button; control.placeholder = nil
            case "image", "file": return nil
            case "password": control.kind = .field(type: type, secret: true)
            default: control.kind = .field(type: type, secret: false)
            }
        }
        return control
    }
}

/// A form control as plain text, as `w3m -dump` prints it.
package enum FormText {
    /// The lines of `control`: one for all but a text area, which has one a row.
    package static func lines(of control: FormControl, value: String? = nil) -> [String] {
        let value = value ?? control.value
        func field(_ text: String, width: Int) -> String {
            let shown = String(text.prefix(width))
            return "[" + shown + String(repeating: " ", count: max(0, width - shown.count)) + "]"
        }
        switch control.kind {
        case .hidden: return []
        case .field(_, let secret):
            return [field(secret ? String(repeating: "*", count: value.count) : value, width: control.size)]
        case .checkbox: return [control.checked ? "[*]" : "[ ]"]
        case .radio: return [control.checked ? "(*)" : "( )"]
        case .select(let options, _):
            let state = FormState(controls: [control])
            return ["[" + state.selected[0].map { options[$0].label }.joined(separator: ", ") + "]"]
        case .textArea(let rows, let columns):
            var lines = value.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.count < rows { lines += Array(repeating: "", count: rows - lines.count) }
            return lines.prefix(max(rows, 1)).map { field($0, width: columns) }
        case .submit:
            return ["[" + (control.placeholder ?? (control.value.isEmpty ? "SUBMIT" : control.value)) + "]"]
        case .reset:
            return ["[" + (control.placeholder ?? (control.value.isEmpty ? "RESET" : control.value)) + "]"]
        case .button:
            return ["[" + (control.placeholder ?? control.value) + "]"]
        }
    }
}

// MARK: Embedded content

extension DocumentBuilder {
    /// The line that stands for a video, a sound, a frame or an object: what it is and its file's name (or a
    /// frame's title), a link to its source. HTML's embedded content shows nothing of itself without the
    /// plug-in or player this viewer does not have; this line says it is there and where to get it.
    private mutating func appendEmbeddedLine(_ element: GumboNodeRef, kind: ElementRole.EmbeddedKind) {
        let source: String?
        switch kind {
        case .object: source = element.attribute("data")
        case .video, .audio: source = element.attribute("src") ?? Self.firstSourceChild(of: element)
        case .frame, .embed: source = element.attribute("src")
        }
        let href = source.map(LinkResolution.trim).flatMap { $0.isEmpty ? nil : $0 }
        var name = href.map(LinkResolution.label(for:))
        if kind == .frame, let title = (element.attribute("title") ?? element.attribute("name"))?.trimmed(),
           !title.isEmpty {
            name = title
        }
        let label: String
        switch kind {
        case .video: label = name.map { L("Video: %@", $0) } ?? L("Video")
        case .audio: label = name.map { L("Audio: %@", $0) } ?? L("Audio")
        case .frame: label = name.map { L("Frame: %@", $0) } ?? L("Frame")
        case .object: label = name.map { L("Object: %@", $0) } ?? L("Object")
        case .embed: label = name.map { L("Embedded: %@", $0) } ?? L("Embedded content")
        }
        writer.requestBreak(1)
        let saved = writer.styleID
        var style = writer.style
        if let href { style.link = linkIndex(for: href) }
        writer.style = style
        writer.appendText(label)
        writer.styleID = saved
        writer.requestBreak(1)
    }

    /// The `src` of the first `<source>` child: a `<video>` or `<audio>` without a `src` of its own plays that.
    /// Looks at a few children only, so a huge element costs no more than a small one.
    private static func firstSourceChild(of element: GumboNodeRef) -> String? {
        for index in 0..<min(element.childCount, 32) {
            let child = element.child(index)
            if child.isElement, child.tag == GUMBO_TAG_SOURCE.rawValue, let src = child.attribute("src") {
                return src
            }
        }
        return nil
    }
}
