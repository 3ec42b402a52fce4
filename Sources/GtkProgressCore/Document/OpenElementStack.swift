internal import CGumbo

/// An approximation of gumbo's stack of open elements and list of active formatting elements, kept by the markup
/// prefilter while it scans the tags.
///
/// Gumbo's tree construction searches the whole stack for many start tags (`div`, `ul`, `pre` look for an open `p`
/// in button scope), so nesting costs quadratic time: 100,000 nested `<div>`s take 30 s. Following the stack here
/// lets the prefilter drop start tags that would nest deeper than `limit`, as browsers cap the depth of the tree
/// (Blink at 512). The model follows the spec's implied closings (`p`, `li`, table cells, …) so that ordinary pages
/// full of unclosed paragraphs and cells never reach the limit, and it reconstructs formatting elements as gumbo
/// does, because misnested `<b>`s reopened after every block also deepen the tree. Where it must guess, it guesses
/// deeper than gumbo: a shallow guess would let gumbo's stack grow without bound.
/// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody>
struct OpenElementStack {
    /// Gumbo tag numbers, bottom first; SVG and MathML elements carry a namespace bit.
    private(set) var tags: [UInt32] = []
    /// For unknown tags, a hash of the lower-cased name, so `</my-widget>` closes `<my-widget>`.
    private var names: [UInt32] = []
    /// Increasing identities of the open elements, so formatting entries can find theirs.
    private var serials: [Int] = []
    private var nextSerial = 0
    /// The list of active formatting elements; a marker has tag 0.
    private var formatting: [(tag: UInt32, serial: Int)] = []
    /// How many HTML elements of each tag are open, so most searches of the stack end before they start.
    private var openCount = [Int32](repeating: 0, count: Int(GUMBO_TAG_LAST.rawValue) + 1)
    let limit: Int
    /// The deepest the stack has been, for tests that compare it with gumbo's tree.
    private(set) var deepest = 0

    static let svg: UInt32 = 1 << 31
    static let mathML: UInt32 = 1 << 30
    static let foreign: UInt32 = svg | mathML

    init(limit: Int) {
        self.limit = limit
        tags.reserveCapacity(64)
        names.reserveCapacity(64)
        serials.reserveCapacity(64)
    }

    enum StartTagEffect {
        /// The tag would nest too deep: leave it out of the markup.
        case drop
        /// Keep the tag; `opened` says whether it stays open (it has content that follows).
        case keep(opened: Bool)
    }

    // MARK: Namespaces

    /// Whether tags follow the foreign-content rules: the current node is SVG or MathML and not an integration
    /// point, where HTML resumes.
    var inForeignContent: Bool {
        guard let top = tags.last, top & Self.foreign != 0 else { return false }
        return !traits(of: top).contains(.integrationPoint)
    }

    /// Whether the current node is an SVG or MathML element (its text is never raw text).
    var topIsForeign: Bool { (tags.last ?? 0) & Self.foreign != 0 }

    private func traits(of entry: UInt32) -> TagTraits {
        if entry & Self.foreign == 0 { return TagTraits.of(entry) }
        return TagTraits.ofForeign(entry & ~Self.foreign, svg: entry & Self.svg != 0)
    }

    private func traits(at k: Int) -> TagTraits { traits(of: tags[k]) }

    // MARK: Start tags

    mutating func startTag(_ tag: UInt32, name: UInt32, selfClosing: Bool, fontBreaksOut: Bool) -> StartTagEffect {
        let traits = TagTraits.of(tag)
        if inForeignContent {
            if traits.contains(.breaksOutOfForeignContent) || (tag == Self.font && fontBreaksOut) {
                while inForeignContent { pop() }
            } else {
                // A foreign element takes the namespace of the element it opens in.
                let namespace = tags.last! & Self.foreign
                return selfClosing ? .keep(opened: false) : push(tag | namespace, name)
            }
        }
        switch tag {
        case Self.html, Self.head, Self.body, Self.frameset:
            // Merged into the existing element or ignored; nested framesets cost gumbo nothing.
            return .keep(opened: false)
        default:
            break
        }
        if inSelect, let effect = startTagInSelect(tag) { return effect }
        // What a start tag closes comes first; phrasing content then reopens misnested formatting.
        switch tag {
        case Self.button:
            if let k = indexInScope(Self.button) { truncate(to: k) }
        case Self.a:
            if let entry = lastFormattingEntry(Self.a) { adopt(entry) }
        case Self.option, Self.optgroup:
            if tags.last == Self.option { pop() }
        default:
            break
        }
        if Self.reconstructs(tag, traits) { reconstructFormatting() }
        if traits.contains(.void) {
            if traits.contains(.closesParagraph) { closeParagraph() }
            return .keep(opened: false)
        }
        if traits.contains(.tablePart) { return startTablePart(tag, name) }
        switch tag {
        case Self.table:
            // In a table (not in one of its cells) a new table ends the current one, even when elements
            // foster-parented out of the table are open above it.
            if let k = currentTableOutsideCells() { truncate(to: k) } else { closeParagraph() }
        case Self.li:
            closeListItem(matching: { $0 == Self.li })
            closeParagraph()
        case Self.dd, Self.dt:
            closeListItem(matching: { $0 == Self.dd || $0 == Self.dt })
            closeParagraph()
        case Self.form:
            if isOpen(Self.form) { return .keep(opened: false) }
            closeParagraph()
        case Self.nobr:
            if indexInScope(Self.nobr) != nil, let entry = lastFormattingEntry(Self.nobr) {
                adopt(entry)
                reconstructFormatting()
            }
        case Self.rb, Self.rtc, Self.rp, Self.rt:
            if indexInScope(Self.ruby) != nil {
                while let top = tags.last, top == Self.rb || top == Self.rp || top == Self.rt
                    || (top == Self.rtc && (tag == Self.rb || tag == Self.rtc)) { pop() }
            }
        default:
            if traits.contains(.closesParagraph) { closeParagraph() }
            if traits.contains(.heading), let top = tags.last, TagTraits.of(top).contains(.heading) { pop() }
        }
        if traits.contains(.foreignRoot) {
            let namespace = tag == Self.svgTag ? Self.svg : Self.mathML
            return selfClosing ? .keep(opened: false) : push(tag | namespace, name)
        }
        let effect = push(tag, name)
        if case .keep = effect {
            if traits.contains(.formatting) { addFormatting(tag) }
            if Self.marksFormattingScope(tag) { formatting.append((0, -1)) }
        }
        return effect
    }

    /// Inside a select gumbo ignores all but a few tags.
    private mutating func startTagInSelect(_ tag: UInt32) -> StartTagEffect? {
        switch tag {
        case Self.option:
            if tags.last == Self.option { pop() }
            return push(tag, 0)
        case Self.optgroup:
            if tags.last == Self.option { pop() }
            if tags.last == Self.optgroup { pop() }
            return push(tag, 0)
        case Self.select:
            popThrough(Self.select)
            return .keep(opened: false)
        case Self.input, Self.keygen, Self.textarea:
            popThrough(Self.select)
            return nil
        case Self.script, Self.template, Self.style:
            return nil
        default:
            return .keep(opened: false)
        }
    }

    private mutating func push(_ tag: UInt32, _ name: UInt32, ignoringLimit: Bool = false) -> StartTagEffect {
        guard ignoringLimit || tags.count < limit else { return .drop }
        if tag & Self.foreign == 0 { openCount[Int(tag)] += 1 }
        tags.append(tag)
        names.append(name)
        serials.append(nextSerial)
        nextSerial += 1
        deepest = max(deepest, tags.count)
        return .keep(opened: true)
    }

    /// Cells, rows and sections close their open siblings; outside any table gumbo ignores them.
    private mutating func startTablePart(_ tag: UInt32, _ name: UInt32) -> StartTagEffect {
        let isCell = tag == Self.td || tag == Self.th
        let isSection = tag == Self.tbody || tag == Self.thead || tag == Self.tfoot
        var k = tags.count - 1
        var keepFrom: Int?
        while k >= 0 && keepFrom == nil {
            let open = tags[k]
            let openIsSection = open == Self.tbody || open == Self.thead || open == Self.tfoot
            if open == Self.table || open == Self.template {
                keepFrom = k + 1
            } else if open == Self.html {
                break
            } else if isCell && (open == Self.td || open == Self.th) {
                keepFrom = k
            } else if isCell && (open == Self.tr || openIsSection) {
                keepFrom = k + 1
            } else if tag == Self.tr && open == Self.tr {
                keepFrom = k
            } else if tag == Self.tr && openIsSection {
                keepFrom = k + 1
            } else if isSection && openIsSection {
                keepFrom = k
            }
            k -= 1
        }
        guard let keepFrom else { return .keep(opened: false) }
        truncate(to: keepFrom)
        let effect = push(tag, name)
        if case .keep = effect, Self.marksFormattingScope(tag) { formatting.append((0, -1)) }
        return effect
    }

    func isOpen(_ tag: UInt32) -> Bool { openCount[Int(tag)] > 0 }

    private func currentTableOutsideCells() -> Int? {
        guard isOpen(Self.table) else { return nil }
        var k = tags.count - 1
        while k >= 0 {
            switch tags[k] {
            case Self.table: return k
            case Self.td, Self.th, Self.caption, Self.template, Self.html: return nil
            default: k -= 1
            }
        }
        return nil
    }

    private mutating func closeParagraph() {
        guard isOpen(Self.p) else { return }
        if let k = indexInScope(Self.p, alsoBoundedBy: Self.button) { truncate(to: k) }
    }

    /// `li` closes an open `li` (and `dd`/`dt` each other) unless a special element other than address, div or p
    /// lies between.
    private mutating func closeListItem(matching isItem: (UInt32) -> Bool) {
        guard isOpen(Self.li) || isOpen(Self.dd) || isOpen(Self.dt) else { return }
        var k = tags.count - 1
        while k >= 0 {
            let open = tags[k]
            if isItem(open) { truncate(to: k); return }
            if traits(at: k).contains(.special) && open != Self.address && open != Self.div && open != Self.p {
                return
            }
            k -= 1
        }
    }

    private var inSelect: Bool {
        guard isOpen(Self.select) else { return false }
        var k = tags.count - 1
        while k >= 0 && (tags[k] == Self.option || tags[k] == Self.optgroup) { k -= 1 }
        return k >= 0 && tags[k] == Self.select
    }

    // MARK: Active formatting elements

    /// Start tags before which gumbo reopens formatting elements that were closed by misnesting: phrasing content,
    /// as opposed to blocks, table parts and the head's elements.
    private static func reconstructs(_ tag: UInt32, _ traits: TagTraits) -> Bool {
        if traits.contains(.closesParagraph) || traits.contains(.tablePart) { return false }
        switch tag {
        case Self.base, Self.link, Self.meta, Self.script, Self.style, Self.template, Self.title,
             GUMBO_TAG_NOSCRIPT.rawValue, GUMBO_TAG_PARAM.rawValue, GUMBO_TAG_SOURCE.rawValue,
             GUMBO_TAG_TRACK.rawValue, GUMBO_TAG_IFRAME.rawValue, GUMBO_TAG_NOEMBED.rawValue,
             GUMBO_TAG_NOFRAMES.rawValue, Self.textarea, GUMBO_TAG_FRAME.rawValue, GUMBO_TAG_COL.rawValue,
             Self.rb, Self.rp, Self.rt, Self.rtc:
            return false
        default:
            return true
        }
    }

    private static func marksFormattingScope(_ tag: UInt32) -> Bool {
        tag == Self.td || tag == Self.th || tag == Self.caption || tag == Self.applet || tag == Self.marquee
            || tag == Self.object || tag == Self.template
    }

    /// Text (and phrasing start tags) reopen formatting elements that misnesting closed, as gumbo does.
    mutating func reconstructFormatting() {
        guard let last = formatting.last, last.tag != 0, stackIndex(of: last.serial) == nil else { return }
        var first = formatting.count - 1
        while first > 0, formatting[first - 1].tag != 0, stackIndex(of: formatting[first - 1].serial) == nil {
            first -= 1
        }
        for entry in first..<formatting.count {
            // Not droppable: gumbo creates these without a tag in the markup. The list bounds them.
            _ = push(formatting[entry].tag, 0, ignoringLimit: true)
            formatting[entry].serial = serials[serials.count - 1]
        }
    }

    /// Adds the element just pushed; the spec's Noah's Ark clause keeps at most three alike after the last marker
    /// (attributes are equal because the prefilter strips them from formatting elements).
    private mutating func addFormatting(_ tag: UInt32) {
        var alike: [Int] = []
        var k = formatting.count - 1
        while k >= 0 && formatting[k].tag != 0 {
            if formatting[k].tag == tag { alike.append(k) }
            k -= 1
        }
        if alike.count >= 3, let earliest = alike.last { formatting.remove(at: earliest) }
        formatting.append((tag, serials[serials.count - 1]))
    }

    private func lastFormattingEntry(_ tag: UInt32) -> Int? {
        var k = formatting.count - 1
        while k >= 0 && formatting[k].tag != 0 {
            if formatting[k].tag == tag { return k }
            k -= 1
        }
        return nil
    }

    /// The adoption agency algorithm closes a misnested formatting element. Elements that are not formatting
    /// elements between it and the first block opened inside it close with it; the block stays open (under a
    /// clone that the algorithm's next round closes again). Without such a block, everything above it closes.
    private mutating func adopt(_ entry: Int) {
        let serial = formatting[entry].serial
        formatting.remove(at: entry)
        guard let k = stackIndex(of: serial) else { return }
        guard let block = ((k + 1)..<tags.count).first(where: { traits(at: $0).contains(.special) }) else {
            truncate(to: k)
            return
        }
        for between in stride(from: block - 1, through: k, by: -1)
        where between == k || !formatting.contains(where: { $0.serial == serials[between] }) {
            remove(at: between)
        }
    }

    private func stackIndex(of serial: Int) -> Int? {
        var low = 0, high = serials.count
        while low < high {
            let middle = (low + high) / 2
            if serials[middle] < serial { low = middle + 1 } else { high = middle }
        }
        return low < serials.count && serials[low] == serial ? low : nil
    }

    // MARK: End tags

    mutating func endTag(_ tag: UInt32, name: UInt32) {
        let traits = TagTraits.of(tag)
        if inForeignContent, let k = indexInForeignContent(tag, name) {
            truncate(to: k)
            return
        }
        switch tag {
        case Self.html, Self.body, Self.head, Self.br:
            return
        case Self.p:
            closeParagraph()
        case Self.form:
            if isOpen(Self.form), let k = tags.lastIndex(of: Self.form) { remove(at: k) }
        case Self.li:
            if let k = indexInScope(Self.li, alsoBoundedBy: Self.ol, Self.ul) { truncate(to: k) }
        case Self.template, Self.select:
            popThrough(tag)
        case Self.option, Self.optgroup:
            if tags.last == tag { pop() }
        case Self.table, Self.caption, Self.colgroup, Self.tbody, Self.thead, Self.tfoot, Self.tr, Self.td,
             Self.th, Self.applet, Self.marquee, Self.object:
            if let k = indexInTableScope(tag) { truncate(to: k) }
        default:
            if traits.contains(.heading) {
                if let k = indexOfHeadingInScope() { truncate(to: k) }
            } else if traits.contains(.formatting) {
                closeFormatting(tag, name)
            } else if traits.contains(.special) {
                if let k = indexInScope(tag) { truncate(to: k) }
            } else {
                closeOther(tag, name)
            }
        }
    }

    /// The end tag of a formatting element runs the adoption agency on the last such element in the list.
    private mutating func closeFormatting(_ tag: UInt32, _ name: UInt32) {
        guard let entry = lastFormattingEntry(tag) else { closeOther(tag, name); return }
        guard let k = stackIndex(of: formatting[entry].serial) else {
            formatting.remove(at: entry)
            return
        }
        if ((k + 1)..<tags.count).contains(where: { traits(at: $0).contains(.scopeBoundary) }) { return }
        adopt(entry)
    }

    /// "Any other end tag": closes the nearest element with that name unless a special element comes first.
    private mutating func closeOther(_ tag: UInt32, _ name: UInt32) {
        guard isOpen(tag) else { return }
        var k = tags.count - 1
        while k >= 0 {
            if tags[k] == tag && names[k] == name { truncate(to: k); return }
            if traits(at: k).contains(.special) { return }
            k -= 1
        }
    }

    /// An end tag in SVG or MathML closes the nearest foreign element of that name; at the first HTML element
    /// the HTML rules take over.
    private func indexInForeignContent(_ tag: UInt32, _ name: UInt32) -> Int? {
        var k = tags.count - 1
        while k >= 0 && tags[k] & Self.foreign != 0 {
            if tags[k] & ~Self.foreign == tag && names[k] == name { return k }
            k -= 1
        }
        return nil
    }

    private func indexInScope(_ tag: UInt32, alsoBoundedBy extra1: UInt32 = .max, _ extra2: UInt32 = .max) -> Int? {
        guard isOpen(tag) else { return nil }
        var k = tags.count - 1
        while k >= 0 {
            let open = tags[k]
            if open == tag { return k }
            if open == extra1 || open == extra2 || traits(at: k).contains(.scopeBoundary) { return nil }
            k -= 1
        }
        return nil
    }

    private func indexOfHeadingInScope() -> Int? {
        guard Self.headings.contains(where: isOpen) else { return nil }
        var k = tags.count - 1
        while k >= 0 {
            let traits = traits(at: k)
            if traits.contains(.heading) && tags[k] & Self.foreign == 0 { return k }
            if traits.contains(.scopeBoundary) { return nil }
            k -= 1
        }
        return nil
    }

    private func indexInTableScope(_ tag: UInt32) -> Int? {
        guard isOpen(tag) else { return nil }
        var k = tags.count - 1
        while k >= 0 {
            let open = tags[k]
            if open == tag { return k }
            if open == Self.html || open == Self.template || (open == Self.table && tag != Self.table) {
                return nil
            }
            k -= 1
        }
        return nil
    }

    // MARK: Popping

    private mutating func pop() { truncate(to: tags.count - 1) }

    private mutating func popThrough(_ tag: UInt32) {
        if isOpen(tag), let k = tags.lastIndex(of: tag) { truncate(to: k) }
    }

    /// Closes every element from index `k` up. Closing a cell, caption, object or template also forgets the
    /// formatting opened inside it (back to its marker).
    private mutating func truncate(to k: Int) {
        guard k < tags.count else { return }
        for index in stride(from: tags.count - 1, through: k, by: -1) { closed(tags[index]) }
        tags.removeSubrange(k...)
        names.removeSubrange(k...)
        serials.removeSubrange(k...)
    }

    private mutating func remove(at k: Int) {
        closed(tags[k])
        tags.remove(at: k)
        names.remove(at: k)
        serials.remove(at: k)
    }

    private mutating func closed(_ tag: UInt32) {
        guard tag & Self.foreign == 0 else { return }
        openCount[Int(tag)] -= 1
        if Self.marksFormattingScope(tag) {
            while let entry = formatting.popLast(), entry.tag != 0 {}
        }
    }

    private static let html = GUMBO_TAG_HTML.rawValue, head = GUMBO_TAG_HEAD.rawValue, body = GUMBO_TAG_BODY.rawValue
    private static let frameset = GUMBO_TAG_FRAMESET.rawValue
    private static let p = GUMBO_TAG_P.rawValue, li = GUMBO_TAG_LI.rawValue, div = GUMBO_TAG_DIV.rawValue
    private static let address = GUMBO_TAG_ADDRESS.rawValue
    private static let dd = GUMBO_TAG_DD.rawValue, dt = GUMBO_TAG_DT.rawValue
    private static let table = GUMBO_TAG_TABLE.rawValue, template = GUMBO_TAG_TEMPLATE.rawValue
    private static let td = GUMBO_TAG_TD.rawValue, th = GUMBO_TAG_TH.rawValue, tr = GUMBO_TAG_TR.rawValue
    private static let tbody = GUMBO_TAG_TBODY.rawValue, thead = GUMBO_TAG_THEAD.rawValue
    private static let tfoot = GUMBO_TAG_TFOOT.rawValue
    private static let select = GUMBO_TAG_SELECT.rawValue, option = GUMBO_TAG_OPTION.rawValue
    private static let optgroup = GUMBO_TAG_OPTGROUP.rawValue
    private static let form = GUMBO_TAG_FORM.rawValue, button = GUMBO_TAG_BUTTON.rawValue
    private static let a = GUMBO_TAG_A.rawValue, nobr = GUMBO_TAG_NOBR.rawValue
    private static let font = GUMBO_TAG_FONT.rawValue, br = GUMBO_TAG_BR.rawValue
    private static let ruby = GUMBO_TAG_RUBY.rawValue
    private static let rb = GUMBO_TAG_RB.rawValue, rp = GUMBO_TAG_RP.rawValue, rt = GUMBO_TAG_RT.rawValue
    private static let rtc = GUMBO_TAG_RTC.rawValue
    private static let input = GUMBO_TAG_INPUT.rawValue, keygen = GUMBO_TAG_KEYGEN.rawValue
    private static let textarea = GUMBO_TAG_TEXTAREA.rawValue, script = GUMBO_TAG_SCRIPT.rawValue
    private static let style = GUMBO_TAG_STYLE.rawValue, title = GUMBO_TAG_TITLE.rawValue
    private static let base = GUMBO_TAG_BASE.rawValue, link = GUMBO_TAG_LINK.rawValue
    private static let meta = GUMBO_TAG_META.rawValue
    private static let ol = GUMBO_TAG_OL.rawValue, ul = GUMBO_TAG_UL.rawValue
    private static let applet = GUMBO_TAG_APPLET.rawValue, marquee = GUMBO_TAG_MARQUEE.rawValue
    private static let object = GUMBO_TAG_OBJECT.rawValue, caption = GUMBO_TAG_CAPTION.rawValue
    private static let colgroup = GUMBO_TAG_COLGROUP.rawValue
    private static let svgTag = GUMBO_TAG_SVG.rawValue
    private static let headings = [GUMBO_TAG_H1, GUMBO_TAG_H2, GUMBO_TAG_H3, GUMBO_TAG_H4, GUMBO_TAG_H5,
                                   GUMBO_TAG_H6].map(\.rawValue)
}
