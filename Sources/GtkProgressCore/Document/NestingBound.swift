internal import CGumbo

/// A rough count of how deep gumbo's stack of open elements is, kept by the markup prefilter while it scans the
/// tags, so that start tags nesting deeper than `limit` can be left out of gumbo's input.
///
/// Gumbo's tree construction searches the whole stack for many start tags (`div`, `ul`, `pre` look for an open
/// `p`), so its time is quadratic in the nesting depth: 5,000 levels take about 40 ms, 100,000 take 30 s.
/// Bounding the depth bounds that time. The count only needs to be right within a constant factor, and where it
/// is wrong it must err deeper than gumbo, never shallower, or hostile markup could grow gumbo's stack while the
/// count stays flat. So it follows only the spec's plain rules
/// (<https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody>):
/// - void elements never open; `html`, `head`, `body` merge into the ones already open;
/// - the implied closings that keep ordinary pages flat: a block closes an open `p`, an `li` closes the open `li`
///   (`dd`/`dt` likewise), a cell closes the open cell, a row the open row, a heading the open heading;
/// - an end tag closes the nearest open element of its name, unless a scope boundary (`table`, `td`, `object`,
///   SVG, MathML, …) lies between, or, for an element that is not "special", any special element does (gumbo
///   ignores such end tags);
/// - formatting elements (`b`, `font`, …) closed by anything but their own end tag stay counted, because gumbo
///   reopens them before the next text (`<div><b></div>x` repeated nests `b`s without end);
/// - in SVG and MathML, tags nest as foreign elements until one of the tags that break out of it.
/// Everything else gumbo does (the adoption agency, foster parenting, implied `tbody`s) either closes more than
/// this count does or adds a bounded number of levels per tag.
struct NestingBound {
    /// Gumbo tag numbers, bottom first; SVG and MathML elements carry a namespace bit.
    private(set) var tags: [UInt32] = []
    /// The traits of each open element, looked up once when it opens.
    private var entryTraits: [TagTraits] = []
    /// How many HTML elements of each tag are open, so most searches of the stack end before they start.
    private var openCount = [Int32](repeating: 0, count: Int(GUMBO_TAG_LAST.rawValue) + 1)
    let limit: Int
    /// The deepest the count has been, for tests that compare it with gumbo's tree.
    private(set) var deepest = 0

    static let svg: UInt32 = 1 << 31
    static let mathML: UInt32 = 1 << 30
    static let foreign: UInt32 = svg | mathML

    init(limit: Int) {
        self.limit = limit
        tags.reserveCapacity(64)
        entryTraits.reserveCapacity(64)
    }

    enum StartTagEffect {
        /// The tag would nest too deep: leave it out of the markup.
        case drop
        /// Keep the tag; `opened` says whether it stays open (it has content that follows).
        case keep(opened: Bool)
    }

    /// Whether tags follow the foreign-content rules: the current node is SVG or MathML and not an integration
    /// point, where HTML resumes.
    var inForeignContent: Bool {
        guard let top = tags.last, top & Self.foreign != 0 else { return false }
        return !entryTraits[entryTraits.count - 1].contains(.integrationPoint)
    }

    /// Whether the current node is an SVG or MathML element (its text is never raw text).
    var topIsForeign: Bool { (tags.last ?? 0) & Self.foreign != 0 }

    func isOpen(_ tag: UInt32) -> Bool { openCount[Int(tag)] > 0 }

    private func traits(of entry: UInt32) -> TagTraits {
        if entry & Self.foreign == 0 { return TagTraits.of(entry) }
        // SVG and MathML roots bound every search, so nothing inside them closes what is outside.
        let tag = entry & ~Self.foreign
        if tag == Self.svgTag || tag == Self.math { return [.scopeBoundary, .special] }
        return TagTraits.ofForeign(tag, svg: entry & Self.svg != 0)
    }

    // MARK: Start tags

    mutating func startTag(_ tag: UInt32, selfClosing: Bool, fontBreaksOut: Bool) -> StartTagEffect {
        let traits = TagTraits.of(tag)
        if inForeignContent {
            if traits.contains(.breaksOutOfForeignContent) || (tag == Self.font && fontBreaksOut) {
                while inForeignContent { pop() }
            } else {
                // A foreign element takes the namespace of the element it opens in.
                let namespace = tags.last! & Self.foreign
                return selfClosing ? .keep(opened: false) : push(tag | namespace)
            }
        }
        if inSelect {
            // In a select gumbo keeps only options; another select, or a form control, ends it.
            if tag == Self.select || tag == Self.input || tag == Self.textarea {
                if let k = tags.lastIndex(of: Self.select) { close(k) }
                if tag == Self.select { return .keep(opened: false) }
            } else if tag != Self.option && tag != Self.optgroup && tag != Self.template {
                return .keep(opened: false)
            }
        }
        if tag == Self.html || tag == Self.head || tag == Self.body || traits.contains(.void) {
            return .keep(opened: false)
        }
        if traits.contains(.tablePart) && !isOpen(Self.table) && !isOpen(Self.template) { return .keep(opened: false) }
        if traits.contains(.closesParagraph), isOpen(Self.p), let k = index(of: Self.p, boundedBy: Self.button) {
            close(k)
        }
        switch tag {
        case Self.table:
            // A table directly in a table (not in a cell) ends the open one.
            if let k = tags.lastIndex(where: { $0 == Self.table || $0 == Self.td || $0 == Self.th
                || $0 == Self.caption || $0 == Self.template || $0 & Self.foreign != 0 }), tags[k] == Self.table {
                close(k)
            }
        case Self.button:
            if isOpen(tag), let k = index(of: tag, boundedBy: .max) { close(k) }
        case Self.a:
            // A link in a link closes the outer one (the adoption agency), here only when nothing special is
            // open inside it; otherwise both stay counted.
            if isOpen(tag), let k = tags.lastIndex(of: tag),
               !entryTraits[(k + 1)...].contains(where: { $0.contains(.special) }) {
                close(k)
            }
        case Self.form:
            if isOpen(tag) { return .keep(opened: false) }
        case Self.li:
            closeListItem { $0 == Self.li }
        case Self.dd, Self.dt:
            closeListItem { $0 == Self.dd || $0 == Self.dt }
        case Self.td, Self.th:
            closeInTable { $0 == Self.td || $0 == Self.th }
        case Self.tr:
            closeInTable { $0 == Self.tr || $0 == Self.td || $0 == Self.th }
        case Self.tbody, Self.thead, Self.tfoot:
            closeInTable { TagTraits.of($0).contains(.tablePart) && $0 != Self.caption }
        case Self.option, Self.optgroup:
            if tags.last == Self.option { pop() }
        default:
            if traits.contains(.heading), let top = tags.last, TagTraits.of(top).contains(.heading) { pop() }
        }
        if traits.contains(.foreignRoot) {
            let namespace = tag == Self.svgTag ? Self.svg : Self.mathML
            return selfClosing ? .keep(opened: false) : push(tag | namespace)
        }
        return push(tag)
    }

    private var inSelect: Bool {
        guard isOpen(Self.select) else { return false }
        var k = tags.count - 1
        while k >= 0 && (tags[k] == Self.option || tags[k] == Self.optgroup) { k -= 1 }
        return k >= 0 && tags[k] == Self.select
    }

    private mutating func push(_ tag: UInt32) -> StartTagEffect {
        guard tags.count < limit else { return .drop }
        if tag & Self.foreign == 0 { openCount[Int(tag)] += 1 }
        tags.append(tag)
        entryTraits.append(traits(of: tag))
        deepest = max(deepest, tags.count)
        return .keep(opened: true)
    }

    /// `li` closes an open `li` (and `dd`/`dt` each other) unless a special element other than address, div or p
    /// lies between.
    private mutating func closeListItem(matching isItem: (UInt32) -> Bool) {
        guard isOpen(Self.li) || isOpen(Self.dd) || isOpen(Self.dt) else { return }
        var k = tags.count - 1
        while k >= 0 {
            let open = tags[k]
            if isItem(open) { close(k); return }
            if entryTraits[k].contains(.special) && open != Self.address && open != Self.div && open != Self.p {
                return
            }
            k -= 1
        }
    }

    /// A cell, row or row group closes the open one of its kind in the same table.
    private mutating func closeInTable(matching isPart: (UInt32) -> Bool) {
        guard isOpen(Self.table) || isOpen(Self.template) else { return }
        var k = tags.count - 1
        while k >= 0 {
            let open = tags[k]
            if open == Self.table || open == Self.template || open & Self.foreign != 0 { return }
            if isPart(open) { close(k); return }
            k -= 1
        }
    }

    // MARK: End tags

    mutating func endTag(_ tag: UInt32) {
        if inForeignContent {
            var k = tags.count - 1
            while k >= 0 && tags[k] & Self.foreign != 0 {
                if tags[k] & ~Self.foreign == tag { close(k); return }
                k -= 1
            }
        }
        if tag == Self.html || tag == Self.body || tag == Self.head || tag == Self.br { return }
        let tagTraits = TagTraits.of(tag)
        let heading = tagTraits.contains(.heading)
        let special = tagTraits.contains(.special) || heading
        guard isOpen(tag) || (heading && Self.headings.contains(where: isOpen)) else { return }
        let tablePart = tag == Self.table || tagTraits.contains(.tablePart)
        var k = tags.count - 1
        while k >= 0 {
            let open = tags[k]
            if open == tag
                || (heading && open & Self.foreign == 0 && entryTraits[k].contains(.heading)) {
                close(k)
                return
            }
            let openTraits = entryTraits[k]
            if tablePart {
                // Table scope: only the table itself (and SVG or MathML) bounds the search.
                if open == Self.table || open == Self.template || open & Self.foreign != 0 { return }
            } else if openTraits.contains(.scopeBoundary) || (!special && openTraits.contains(.special))
                || (tag == Self.li && (open == Self.ol || open == Self.ul)) || (tag == Self.p && open == Self.button) {
                return
            }
            k -= 1
        }
    }

    /// The nearest open `tag` with no scope boundary (nor `extra`) above it.
    private func index(of tag: UInt32, boundedBy extra: UInt32) -> Int? {
        var k = tags.count - 1
        while k >= 0 {
            let open = tags[k]
            if open == tag { return k }
            if open == extra || entryTraits[k].contains(.scopeBoundary) { return nil }
            k -= 1
        }
        return nil
    }

    // MARK: Popping

    private mutating func pop() { close(tags.count - 1) }

    /// Closes the element at `k` and what is open inside it. Formatting elements (`b`, `em`, `font`, …) inside
    /// it stay counted, unless a cell, caption or object between closes their scope: gumbo reopens them before
    /// the next text (the spec's "reconstruct the active formatting elements"), so forgetting them would let
    /// misnested formatting grow gumbo's stack while the count stays flat.
    private mutating func close(_ k: Int) {
        guard k < tags.count else { return }
        var kept = k
        var scopeEnded = Self.endsFormattingScope(tags[k])
        for index in k..<tags.count {
            let tag = tags[index]
            if index > k && !scopeEnded && tag & Self.foreign == 0 && entryTraits[index].contains(.formatting) {
                tags[kept] = tag
                entryTraits[kept] = entryTraits[index]
                kept += 1
                continue
            }
            if Self.endsFormattingScope(tag) { scopeEnded = true }
            if tag & Self.foreign == 0 { openCount[Int(tag)] -= 1 }
        }
        tags.removeSubrange(kept...)
        entryTraits.removeSubrange(kept...)
    }

    /// Elements that put a marker in the list of active formatting elements: closing one forgets the formatting
    /// opened inside it.
    private static func endsFormattingScope(_ tag: UInt32) -> Bool {
        tag == td || tag == th || tag == caption || tag == object || tag == applet || tag == marquee
            || tag == template || tag & foreign != 0
    }

    private static let html = GUMBO_TAG_HTML.rawValue, head = GUMBO_TAG_HEAD.rawValue, body = GUMBO_TAG_BODY.rawValue
    private static let p = GUMBO_TAG_P.rawValue, li = GUMBO_TAG_LI.rawValue, div = GUMBO_TAG_DIV.rawValue
    private static let address = GUMBO_TAG_ADDRESS.rawValue
    private static let dd = GUMBO_TAG_DD.rawValue, dt = GUMBO_TAG_DT.rawValue
    private static let table = GUMBO_TAG_TABLE.rawValue, caption = GUMBO_TAG_CAPTION.rawValue
    private static let td = GUMBO_TAG_TD.rawValue, th = GUMBO_TAG_TH.rawValue, tr = GUMBO_TAG_TR.rawValue
    private static let tbody = GUMBO_TAG_TBODY.rawValue, thead = GUMBO_TAG_THEAD.rawValue
    private static let tfoot = GUMBO_TAG_TFOOT.rawValue
    private static let option = GUMBO_TAG_OPTION.rawValue, optgroup = GUMBO_TAG_OPTGROUP.rawValue
    private static let button = GUMBO_TAG_BUTTON.rawValue, font = GUMBO_TAG_FONT.rawValue
    private static let br = GUMBO_TAG_BR.rawValue, select = GUMBO_TAG_SELECT.rawValue
    private static let a = GUMBO_TAG_A.rawValue, form = GUMBO_TAG_FORM.rawValue, input = GUMBO_TAG_INPUT.rawValue
    private static let textarea = GUMBO_TAG_TEXTAREA.rawValue
    private static let object = GUMBO_TAG_OBJECT.rawValue, applet = GUMBO_TAG_APPLET.rawValue
    private static let marquee = GUMBO_TAG_MARQUEE.rawValue, template = GUMBO_TAG_TEMPLATE.rawValue
    private static let ol = GUMBO_TAG_OL.rawValue, ul = GUMBO_TAG_UL.rawValue
    private static let headings = [GUMBO_TAG_H1, GUMBO_TAG_H2, GUMBO_TAG_H3, GUMBO_TAG_H4, GUMBO_TAG_H5,
                                   GUMBO_TAG_H6].map(\.rawValue)
    private static let svgTag = GUMBO_TAG_SVG.rawValue, math = GUMBO_TAG_MATH.rawValue
}
