internal import CGumbo
import Glibc

/// The elements the prefilter folded into text (`InlinePiece`: bare paragraphs, plain inline elements), each at its
/// place among its siblings as the page has it, for pages whose selectors read siblings (`CSSRuleSet.readsSiblings`).
/// Gumbo's tree has one `p` for a run of paragraphs and no element for a folded `<em>`: `h2 + p` would hide the whole
/// run and `p:last-child` match every paragraph of it. Here a text node's folded elements are read once, in order
/// (`FoldedRun`), and `PageElement` walks siblings across gumbo's elements and these.
final class FoldedElements {
    private let pieces: InlinePieces
    private let placeholders: [InlinePieces.Span]
    private let holdsElements: [UInt8]
    let source: UnsafeBufferPointer<UInt8>
    /// The runs met last: the walk asks for the same few text nodes again (a paragraph's siblings, then the next).
    @exclusivity(unchecked) private var recent: (FoldedRun?, FoldedRun?, FoldedRun?, FoldedRun?) = (nil, nil, nil, nil)
    /// The slot of `recent` the next run takes.
    @exclusivity(unchecked) private var nextSlot = 0

    init(markup: PrefilteredMarkup, source: UnsafeBufferPointer<UInt8>) {
        pieces = markup.pieces
        placeholders = markup.placeholders
        holdsElements = markup.placeholderElements
        self.source = source
    }

    /// The folded elements of a text node; nil when it holds none. Its pieces are read when a selector first asks
    /// (`FoldedRun.items`): the builder writes most runs without any rule reading their siblings.
    func run(of text: GumboNodeRef) -> FoldedRun? {
        guard text.type == GUMBO_NODE_TEXT, !placeholders.isEmpty else { return nil }
        if let run = recent.0, run.text.node == text.node { return run }
        if let run = recent.1, run.text.node == text.node { return run }
        if let run = recent.2, run.text.node == text.node { return run }
        if let run = recent.3, run.text.node == text.node { return run }
        let holds = elementsHeld(in: text.text)
        guard holds != 0, let parent = text.node.pointee.parent else { return nil }
        let run = FoldedRun(text: text, parent: GumboNodeRef(parent), hasParagraphs: holds & 2 != 0)
        switch nextSlot {
        case 0: recent.0 = run
        case 1: recent.1 = run
        case 2: recent.2 = run
        default: recent.3 = run
        }
        nextSlot = (nextSlot + 1) & 3
        return run
    }

    /// The run's items, read on first use.
    func items(of run: FoldedRun) -> [FoldedRun.Item] {
        if !run.isRead {
            var spans: [InlinePieces.Span] = []
            DocumentBuilder.forEachSegment(of: run.text.text, placeholderCount: placeholders.count) { _, placeholder in
                if let placeholder { spans.append(placeholders[placeholder]) }
            }
            run.read(spans, from: pieces, text: run.text.text, placeholderCount: placeholders.count)
        }
        return run.items
    }

    /// What the placeholder that ends the text holds (0 when none ends it).
    private func lastPlaceholderHolds(_ text: UnsafeBufferPointer<UInt8>) -> UInt8 {
        let count = text.count
        guard count >= 7, text[count - 3] == 0xEE, text[count - 2] == 0x80, text[count - 1] == 0x81 else { return 0 }
        var k = count - 4, index = 0, scale = 1, digits = 0
        while k >= 3, digits < 10, text[k] >= 0x30, text[k] <= 0x39 {
            index += Int(text[k] - 0x30) * scale
            scale *= 10
            digits += 1
            k -= 1
        }
        guard digits > 0, text[k] == 0x80, text[k - 1] == 0x80, text[k - 2] == 0xEE, index < holdsElements.count else {
            return 0
        }
        return holdsElements[index]
    }

    /// What the text's placeholders hold (`PrefilteredMarkup.placeholderElements`, together): most text nodes hold
    /// no element, and are passed over without reading their pieces. A placeholder's end is not checked, so this
    /// may count one that is not.
    private func elementsHeld(in text: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var held: UInt8 = 0
        guard let base = text.baseAddress else { return 0 }
        let count = text.count
        var k = 0
        while k < count, let hit = memchr(base + k, 0xEE, count - k) {
            let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            k = at + 1
            guard at + 3 < count, text[at + 1] == 0x80, text[at + 2] == 0x80 else { continue }
            var index = 0, digits = 0
            k = at + 3
            while k < count, digits < 10, text[k] >= 0x30, text[k] <= 0x39 {
                index = index * 10 + Int(text[k] - 0x30)
                digits += 1
                k += 1
            }
            if digits > 0, index < holdsElements.count { held |= holdsElements[index] }
        }
        return held
    }

    /// The run of paragraphs a bare `p` of gumbo's holds after its own content (the page's next siblings of that
    /// `p`), when it holds one.
    func hostedRun(_ element: GumboNodeRef) -> FoldedRun? {
        guard element.tag == GUMBO_TAG_P.rawValue, element.isHTML, element.childCount > 0 else { return nil }
        let last = element.child(element.childCount - 1)
        // Paragraph tags end the stretch they are in at a tag that closes the `p`: their placeholder ends the text.
        guard last.type == GUMBO_NODE_TEXT, lastPlaceholderHolds(last.text) & PrefilteredMarkup.placeholderHoldsParagraphs != 0,
              let run = run(of: last), run.inHost, run.holdsParagraphs(self) else {
            return nil
        }
        return run
    }

    /// The page's element before `node` (an element or a text node) among its gumbo siblings.
    func element(before node: GumboNodeRef) -> PageElement? {
        guard let parent = node.node.pointee.parent else { return nil }
        let siblings = GumboNodeRef(parent)
        var index = Int(node.node.pointee.index_within_parent) - 1
        while index >= 0 {
            let sibling = siblings.child(index)
            if sibling.isElement {
                if let run = hostedRun(sibling) { return PageElement(self, run: run, item: run.levels(self).paragraphs.last) }
                return PageElement(self, node: sibling)
            }
            if let run = run(of: sibling), case let last = run.levels(self).own.last, last >= 0 {
                return PageElement(self, run: run, item: last)
            }
            index -= 1
        }
        return nil
    }

    /// The page's element after `node` among its gumbo siblings (a hosted run's paragraphs are its host's).
    func element(after node: GumboNodeRef) -> PageElement? {
        guard let parent = node.node.pointee.parent else { return nil }
        let siblings = GumboNodeRef(parent)
        var index = Int(node.node.pointee.index_within_parent) + 1
        while index < siblings.childCount {
            let sibling = siblings.child(index)
            if sibling.isElement { return PageElement(self, node: sibling) }
            if let run = run(of: sibling) {
                let first = run.levels(self).own.first
                if first >= 0 { return PageElement(self, run: run, item: first) }
                // The paragraph tags closed the `p` that holds this text: nothing after them is its child.
                if run.inHost && run.holdsParagraphs(self) { return nil }
            }
            index += 1
        }
        return nil
    }
}

/// The folded elements of one text node of gumbo's, in the page's order. Those before any paragraph tag are
/// children of the text's element (`ownLevel`); the paragraphs are children of that element too, or, when it is
/// a bare `p` the tags close (`inHost`), of its parent (`paragraphs`); inline elements inside a paragraph are its
/// children.
final class FoldedRun {
    struct Item {
        var tag: UInt32
        /// -1: a child of the text's element (`ownLevel`); -2: one of `paragraphs`; else the paragraph holding it.
        var parent: Int32
        var previous: Int32 = -1
        var next: Int32 = -1
        /// Place among the siblings of its list, from 0.
        var ordinal: Int32
        /// A paragraph with no text and no element in it (`:empty`).
        var empty = true
        /// The first of the paragraphs right before this one in its list, this one included (itself for an inline
        /// element): they answer alike every compound that reads no position and no children.
        var streakStart: Int32 = -1
        var classValue: Range<Int>?
        var hasHref = false
        var droppedAttributes = false
    }

    /// A list of siblings: its first and last item (-1 when empty), and how many.
    struct Level {
        var first: Int32 = -1
        var last: Int32 = -1
        var count: Int32 = 0

        /// Adds item `index` at the end of the list; returns the item before it (-1 for none) and its ordinal.
        mutating func add(_ index: Int32) -> (previous: Int32, ordinal: Int32) {
            let placed = (last, count)
            if first < 0 { first = index }
            last = index
            count += 1
            return placed
        }
    }

    let text: GumboNodeRef
    /// The text's element in gumbo's tree.
    let parent: GumboNodeRef
    /// `parent` is a bare `p` the first paragraph tag closes.
    let inHost: Bool
    /// Some placeholder of the text holds paragraph tags (`PrefilteredMarkup.placeholderElements`).
    let hasParagraphs: Bool
    private(set) var isRead = false
    fileprivate(set) var items: [Item] = []
    private(set) var ownLevel = Level()
    private(set) var paragraphs = Level()
    /// Elements of the page before and after each list, counted once when a selector first asks.
    private var before: [Int32: Int] = [:]
    private var after: [Int32: Int] = [:]

    init(text: GumboNodeRef, parent: GumboNodeRef, hasParagraphs: Bool) {
        self.text = text
        self.parent = parent
        self.hasParagraphs = hasParagraphs
        inHost = parent.tag == GUMBO_TAG_P.rawValue && parent.isHTML
    }

    /// Whether the run has a paragraph (its pieces read only when the prefilter marked paragraph tags).
    func holdsParagraphs(_ folded: FoldedElements) -> Bool { hasParagraphs && levels(folded).paragraphs.first >= 0 }

    /// The two lists, read first if need be.
    func levels(_ folded: FoldedElements) -> (own: Level, paragraphs: Level) {
        if !isRead { _ = folded.items(of: self) }
        return (ownLevel, paragraphs)
    }

    /// The state of the tags read so far: whether the host `p` still holds what comes, and the paragraph open.
    struct Reading {
        var hostOpen: Bool
        var open: Int32 = -1
    }

    /// What a piece does, read in order by `step` (the builder reads the same pieces to write them).
    enum Step {
        /// Text, in the open paragraph if any.
        case text
        /// An inline element: item `item`.
        case inline(item: Int32)
        /// Paragraph tags: `closesHost` the host `p` ends; `closes` the open paragraph ends; `opens` a paragraph
        /// starts (`empty` when a `</p>` with none open makes one and ends it at once).
        case paragraph(closesHost: Bool, closes: Int32, opens: Int32, emptyAtOnce: Bool)
    }

    func startReading() -> Reading { Reading(hostOpen: inHost) }

    /// The next piece's step; `items` must already hold the run (`read`), so this only counts.
    func step(_ piece: InlinePiece, _ state: inout Reading, next item: inout Int32) -> Step {
        if piece.tag == 0 { return .text }
        if piece.tag != GUMBO_TAG_P.rawValue {
            defer { item += 1 }
            return .inline(item: item)
        }
        if state.hostOpen {
            state.hostOpen = false
            if piece.paragraphEnd { return .paragraph(closesHost: true, closes: -1, opens: -1, emptyAtOnce: false) }
            state.open = item
            item += 1
            return .paragraph(closesHost: true, closes: -1, opens: state.open, emptyAtOnce: false)
        }
        let closing = state.open
        if piece.paragraphEnd {
            state.open = -1
            if closing >= 0 { return .paragraph(closesHost: false, closes: closing, opens: -1, emptyAtOnce: false) }
            defer { item += 1 }
            return .paragraph(closesHost: false, closes: -1, opens: item, emptyAtOnce: true)
        }
        state.open = item
        item += 1
        return .paragraph(closesHost: false, closes: closing, opens: state.open, emptyAtOnce: false)
    }

    /// Reads the run's pieces into `items`.
    fileprivate func read(_ spans: [InlinePieces.Span], from pieces: InlinePieces, text: UnsafeBufferPointer<UInt8>,
                          placeholderCount: Int) {
        isRead = true
        var state = startReading()
        var next: Int32 = 0
        var spanIndex = 0
        DocumentBuilder.forEachSegment(of: text, placeholderCount: placeholderCount) { segment, placeholder in
            guard placeholder != nil else {
                if !segment.isEmpty, state.open >= 0 { items[Int(state.open)].empty = false }
                return
            }
            var cursor = pieces.cursor(spans[spanIndex])
            spanIndex += 1
            while let piece = pieces.next(&cursor) {
                switch step(piece, &state, next: &next) {
                case .text:
                    break
                case .inline:
                    var item = Item(tag: piece.tag, parent: state.open >= 0 ? state.open : (state.hostOpen || !inHost ? -1 : -2),
                                    ordinal: 0)
                    item.classValue = piece.classValue
                    item.hasHref = piece.tag == GUMBO_TAG_A.rawValue && piece.href != nil
                    item.droppedAttributes = piece.droppedAttributes
                    if state.open >= 0 { items[Int(state.open)].empty = false }
                    append(item)
                case .paragraph(_, _, let opens, _):
                    if opens >= 0 { append(Item(tag: GUMBO_TAG_P.rawValue, parent: inHost ? -2 : -1, ordinal: 0)) }
                }
                if !piece.text.isEmpty, state.open >= 0 { items[Int(state.open)].empty = false }
            }
        }
    }

    private func append(_ item: Item) {
        var item = item
        let index = Int32(items.count)
        var last: Int32 = -1
        switch item.parent {
        case -1:
            (last, item.ordinal) = ownLevel.add(index)
        case -2:
            (last, item.ordinal) = paragraphs.add(index)
        default:
            // Inside a paragraph: the last item holding the same parent is its previous sibling.
            var k = items.count - 1
            while k > Int(item.parent), items[k].parent != item.parent { k -= 1 }
            if k > Int(item.parent) {
                last = Int32(k)
                item.ordinal = items[k].ordinal + 1
            }
        }
        item.previous = last
        item.streakStart = index
        if item.tag == GUMBO_TAG_P.rawValue, last >= 0, items[Int(last)].tag == GUMBO_TAG_P.rawValue {
            item.streakStart = items[Int(last)].streakStart
        }
        items.append(item)
        if last >= 0 { items[Int(last)].next = index }
    }

    /// The page's elements before the first of item `index`'s list, and after its last.
    func elementsAround(_ index: Int32, folded: FoldedElements) -> (before: Int, after: Int) {
        let list = folded.items(of: self)[Int(index)].parent
        if list >= 0 { return (0, 0) }
        let level = list == -1 ? ownLevel : paragraphs
        if before[list] == nil {
            var count = 0
            var sibling = PageElement(folded, run: self, item: level.first).previousSiblingElement
            while let element = sibling { count += 1; sibling = element.previousSiblingElement }
            before[list] = count
            count = 0
            sibling = PageElement(folded, run: self, item: level.last).nextSiblingElement
            while let element = sibling { count += 1; sibling = element.nextSiblingElement }
            after[list] = count
        }
        return (before[list] ?? 0, after[list] ?? 0)
    }

    func count(ofList list: Int32) -> Int32 {
        switch list {
        case -1: return ownLevel.count
        case -2: return paragraphs.count
        default:
            // A paragraph's children follow it, before the next paragraph.
            var count: Int32 = 0
            var k = Int(list) + 1
            while k < items.count, items[k].parent == list { count += 1; k += 1 }
            return count
        }
    }
}

/// An element of the page as selectors see it when its rules read siblings: one of gumbo's, or one the prefilter
/// folded (an item of a `FoldedRun`), with siblings and parent as the page has them.
struct PageElement: CSSElement {
    let folded: FoldedElements
    /// The element itself, or the text node holding the folded one.
    let node: GumboNodeRef
    let run: FoldedRun?
    let item: Int32

    init(_ folded: FoldedElements, node: GumboNodeRef) {
        self.folded = folded
        self.node = node
        run = nil
        item = -1
    }

    init(_ folded: FoldedElements, run: FoldedRun, item: Int32) {
        self.folded = folded
        node = run.text
        self.run = run
        self.item = item
    }

    private var piece: FoldedRun.Item? { run.map { folded.items(of: $0)[Int(item)] } }

    /// A folded element's `class` (`InlinePiece.classValue`).
    private var pieceClasses: [Substring] {
        guard let range = piece?.classValue else { return [] }
        let text = Substring(decoding: UnsafeBufferPointer(rebasing: folded.source[range]), as: UTF8.self)
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" })
    }

    var localName: String {
        guard let piece else { return node.localName }
        return node.localName(ofTag: piece.tag)
    }
    var typeHash: UInt32 { run == nil ? node.typeHash : CSSAncestorFilter.nameHash(localName.utf8) }
    var idHash: UInt32? { run == nil ? node.idHash : nil }
    func forEachClassHash(_ body: (UInt32) -> Void) {
        if run == nil { node.forEachClassHash(body) } else { for name in pieceClasses { body(CSSAncestorFilter.nameHash(name.utf8)) } }
    }
    func isNamed(_ lowercasedName: String) -> Bool { run == nil ? node.isNamed(lowercasedName) : localName == lowercasedName }
    var elementID: String? { run == nil ? node.elementID : nil }
    func hasClass(_ name: String) -> Bool { run == nil ? node.hasClass(name) : pieceClasses.contains { $0 == name } }
    var classNames: [String] { run == nil ? node.classNames : pieceClasses.map(String.init) }
    func attributeValue(_ lowercasedName: String) -> String? {
        guard let piece else { return node.attributeValue(lowercasedName) }
        guard lowercasedName == "class", let range = piece.classValue else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: folded.source[range]), as: UTF8.self)
    }
    var isLink: Bool {
        guard let piece else { return node.isLink }
        return piece.tag == GUMBO_TAG_A.rawValue && piece.hasHref
    }
    var attributesAreKnown: Bool { piece.map { !$0.droppedAttributes } ?? node.attributesAreKnown }

    var parentElement: PageElement? {
        guard let run, let piece else {
            guard let parent = node.node.pointee.parent, parent.pointee.type == GUMBO_NODE_ELEMENT else { return nil }
            return PageElement(folded, node: GumboNodeRef(parent))
        }
        switch piece.parent {
        case -1: return PageElement(folded, node: run.parent)
        case -2: return PageElement(folded, node: run.parent).parentElement
        default: return PageElement(folded, run: run, item: piece.parent)
        }
    }

    var previousSiblingElement: PageElement? {
        guard let run, let piece else { return folded.element(before: node) }
        if piece.previous >= 0 { return PageElement(folded, run: run, item: piece.previous) }
        switch piece.parent {
        case -1: return folded.element(before: run.text)
        case -2: return PageElement(folded, node: run.parent)  // the `p` the first paragraph tag closed
        default: return nil
        }
    }

    var previousUnlikeSibling: PageElement? {
        guard let run, let piece, piece.streakStart != item else { return previousSiblingElement }
        return PageElement(folded, run: run, item: piece.streakStart).previousSiblingElement
    }

    var nextSiblingElement: PageElement? {
        guard let run, let piece else {
            if let hosted = folded.hostedRun(node) {
                return PageElement(folded, run: hosted, item: hosted.levels(folded).paragraphs.first)
            }
            return folded.element(after: node)
        }
        if piece.next >= 0 { return PageElement(folded, run: run, item: piece.next) }
        switch piece.parent {
        case -1: return run.inHost && run.holdsParagraphs(folded) ? nil : folded.element(after: run.text)
        case -2: return folded.element(after: run.parent)
        default: return nil
        }
    }

    var hasNoChildren: Bool {
        guard let piece else { return node.hasNoChildren }
        // An inline element the prefilter folded has text that is not all spaces.
        return piece.tag == GUMBO_TAG_P.rawValue && piece.empty
    }

    var positionAmongSiblings: Int? {
        guard let run, let piece else { return nil }
        return run.elementsAround(item, folded: folded).before + Int(piece.ordinal) + 1
    }

    var positionFromEnd: Int? {
        guard let run, let piece else { return nil }
        return run.elementsAround(item, folded: folded).after + Int(run.count(ofList: piece.parent) - piece.ordinal)
    }
}
