internal import CGumbo
import FoundationEssentials
import Glibc

/// HTML rewritten for gumbo, and what the document builder needs to undo the rewriting.
struct PrefilteredMarkup {
    /// The markup gumbo parses.
    var bytes: [UInt8]
    /// Placeholder `n` in gumbo's text stands for the pieces of `placeholders[n]`, read in order from `pieces`.
    var placeholders: [InlinePieces.Span]
    /// What placeholder `n` holds besides text: 1 an inline element, 2 a paragraph tag (`placeholderHoldsInline`,
    /// `placeholderHoldsParagraphs`), the elements a selector reading siblings must count (`FoldedElements`).
    /// A stretch's pieces taken back may leave a mark with nothing behind it.
    var placeholderElements: [UInt8]
    static let placeholderHoldsInline: UInt8 = 1, placeholderHoldsParagraphs: UInt8 = 2
    var pieces: InlinePieces
    /// Text of character references the prefilter decoded; pieces with `decoded` set point here.
    var decoded: [UInt8]
    /// The deepest the prefilter's model of gumbo's stack of open elements went.
    var deepestNesting: Int
    /// The names of the attributes the prefilter left out of gumbo's input, and those it kept beside the ones the
    /// document model reads (`MarkupPrefilter.prefilter`'s `keeping`).
    var droppedAttributes = DroppedAttributeNames()
    var selectedAttributes = SelectedAttributeNames()

    /// Whether every attribute of this (lowercase) name that the page gave its elements reaches the tree: kept by
    /// the prefilter, or dropped from none. A selector testing any other cannot be answered (`DocumentStyles`).
    /// Inline elements the prefilter made pieces of answer for themselves (`InlinePiece.droppedAttributes`).
    func answers(attribute name: String) -> Bool {
        Self.answers(attribute: name, dropped: droppedAttributes, selected: selectedAttributes)
    }

    static func answers(attribute name: String, dropped: DroppedAttributeNames,
                        selected: SelectedAttributeNames) -> Bool {
        MarkupPrefilter.keepsByDefault(name) || selected.contains(name) || !dropped.mayHold(name)
    }
}

/// A set of attribute names the prefilter dropped, as a Bloom filter of 4,096 bits (two bits a name): constant
/// memory and a few operations a dropped attribute whatever the page, at the price of an occasional false "may
/// hold", which only costs a second parse (`DocumentBuilder.build`).
struct DroppedAttributeNames {
    /// Empty until the first name is inserted: most pages drop nothing.
    private var bits: [UInt64] = []
    private static let wordCount = 64

    mutating func insert(_ name: UnsafeBufferPointer<UInt8>) {
        if bits.isEmpty { bits = [UInt64](repeating: 0, count: Self.wordCount) }
        let (first, second) = Self.positions(Self.hash(name))
        bits[first >> 6] |= 1 << UInt64(first & 63)
        bits[second >> 6] |= 1 << UInt64(second & 63)
    }

    /// False only when no attribute of this (lowercase) name was dropped. A name with characters outside ASCII may
    /// have been written in another case in the page (HTML folds ASCII letters only), so it always may.
    func mayHold(_ name: String) -> Bool {
        guard !bits.isEmpty else { return false }
        var name = name
        return name.withUTF8 { bytes in
            if bytes.contains(where: { $0 >= 0x80 }) { return true }
            let (first, second) = Self.positions(Self.hash(bytes))
            return bits[first >> 6] & (1 << UInt64(first & 63)) != 0 && bits[second >> 6] & (1 << UInt64(second & 63)) != 0
        }
    }

    /// FNV-1a of the name with ASCII letters lowercased (<http://www.isthe.com/chongo/tech/comp/fnv/>).
    private static func hash(_ name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name {
            hash ^= UInt64(isLetter(byte) ? byte | 0x20 : byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    private static func positions(_ hash: UInt64) -> (Int, Int) {
        let mask = UInt64(wordCount * 64 - 1)
        return (Int(hash & mask), Int((hash >> 32) & mask))
    }
}

/// Attribute names a page's selectors test, which the prefilter keeps as it keeps those the document model reads,
/// and for which an inline element stays an element (`MarkupScanner.inlineElement`): lowercase, at most `limit`.
struct SelectedAttributeNames {
    /// Past this many names the rest are dropped as before, and the selectors testing them left out: gumbo checks
    /// each attribute of an element against all earlier ones, so an element's list stays short.
    static let limit = 64
    private(set) var names: [[UInt8]] = []
    /// Each name's length and first byte, packed as `KeptAttribute`'s keys are.
    private var keys: [Int] = []

    init() {}

    /// The names in a fixed order (so a page is parsed alike every time), without the prefilter's own mark
    /// (`MarkupPrefilter.droppedAttributesName`), which a page must not be able to forge.
    init(_ selected: [String]) {
        for name in selected.sorted() where !name.isEmpty && name != MarkupPrefilter.droppedAttributesName {
            guard names.count < Self.limit else { break }
            let bytes = Array(name.utf8)
            names.append(bytes)
            keys.append(bytes.count << 8 | Int(bytes[0]))
        }
    }

    var isEmpty: Bool { names.isEmpty }

    func contains(_ name: String) -> Bool { names.contains(Array(name.utf8)) }

    func index(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !keys.isEmpty, let first = name.first else { return nil }
        let key = name.count << 8 | Int(isLetter(first) ? first | 0x20 : first)
        for index in keys.indices where keys[index] == key {
            if names[index].withUnsafeBufferPointer({ equalsIgnoringCase(name, $0) }) { return index }
        }
        return nil
    }
}

/// A stretch of text the prefilter took out of gumbo's input, with the inline element that wrapped it, if any.
/// A large page has hundreds of thousands of them, held packed (`InlinePieces`); offsets are 32-bit numbers:
/// documents are capped far below 2 GiB (`LoaderOptions.maxDocumentBytes`).
struct InlinePiece {
    private var textStart: Int32
    private var textEnd: Int32
    private var hrefStart: Int32 = -1
    private var hrefEnd: Int32 = -1
    /// Gumbo's tag number of the element around the text (`em`, `code`, `a`, …), or 0 for bare text.
    var tag: UInt32 = 0
    var decoded = false
    /// The element had attributes the piece does not keep (any but an anchor's `href`): selectors that read its
    /// id, classes or attributes cannot be answered for it (`PieceElement.attributesAreKnown`).
    var droppedAttributes = false
    /// A paragraph piece (`tag` is `p`) that ends the paragraph open before it: a `</p>`, or the break that closes a
    /// stretch's last paragraph (`MarkupScanner.endParagraphs`). Any other paragraph piece is a `<p>`, which ends
    /// the open paragraph and starts another.
    var paragraphEnd = false

    init(text: Range<Int>, decoded: Bool = false, tag: UInt32 = 0) {
        textStart = Int32(text.lowerBound)
        textEnd = Int32(text.upperBound)
        self.decoded = decoded
        self.tag = tag
    }

    /// A paragraph piece: a `<p>` (`ends` false) or what ends a paragraph (`paragraphEnd`).
    static func paragraph(_ text: Range<Int>, ends: Bool) -> InlinePiece {
        var piece = InlinePiece(text: text, tag: GUMBO_TAG_P.rawValue)
        piece.paragraphEnd = ends
        return piece
    }

    /// The value of the element's `class` attribute, in the source, when `tag` is not `a` (it shares the
    /// place of an anchor's `href`, so a piece stays 24 bytes). Only a plain value (no character reference) is
    /// kept; any other is counted in `droppedAttributes`.
    var classValue: Range<Int>? {
        get { tag == GUMBO_TAG_A.rawValue ? nil : href }
        set { if tag != GUMBO_TAG_A.rawValue { href = newValue } }
    }

    /// The text, in the source (or in `PrefilteredMarkup.decoded`).
    var text: Range<Int> { Int(textStart)..<Int(textEnd) }

    /// A link's `href` value, in the source, when `tag` is `a`.
    var href: Range<Int>? {
        get { hrefStart < 0 ? nil : Int(hrefStart)..<Int(hrefEnd) }
        set {
            hrefStart = newValue.map { Int32($0.lowerBound) } ?? -1
            hrefEnd = newValue.map { Int32($0.upperBound) } ?? -1
        }
    }
}

/// Rewrites HTML before gumbo parses it, changing what gumbo builds only where gumbo itself would fail.
///
/// - Bounded time and stack. Gumbo's tree construction is quadratic in the nesting depth (100,000 nested `<div>`s
///   take 30 s) and its recursive `gumbo_destroy_output` overflows the stack past about 260,000 levels. Start tags
///   that would nest deeper than `maximumDepth` are left out (see `NestingBound`).
/// - Bounded lists. Gumbo compares attributes to cap its list of active formatting elements (the spec's Noah's Ark
///   clause) and checks each attribute against all earlier ones. Attributes the document model never reads are
///   dropped, and formatting elements such as `<b>` keep none, so neither list grows with hostile input.
/// - Speed. Gumbo spends about 60 ns on every byte and a microsecond on every element. Inline content that
///   gumbo would turn into nothing but styled text is replaced by a placeholder, U+E000 index U+E001, and the
///   builder puts the pieces back: plain text (no `<`, NUL, or a character gumbo replaces with U+FFFD), the
///   unambiguous character references (`&amp;`, `&eacute;`, `&#233;`), and simple phrasing elements around plain
///   text (`<em>word</em>`, `<a href>` when no other link is open). Gumbo would reconstruct formatting before
///   each such element, insert it and close it again, which is what text in the same place gets. A placeholder
///   starts at a visible character, so gumbo places it exactly as that text (foster parenting, the newline after
///   `<pre>`, text in `<head>`). Placeholders are off for a document that already contains U+E000, as UTF-8 or as
///   a character reference.
enum MarkupPrefilter {
    /// Twice as deep as Blink lets a tree grow (512): the count errs deeper than gumbo where pages misnest, and
    /// real pages stay far below it. Gumbo parses 1,000 nested elements in about 2 ms.
    static let maximumDepth = 1024
    /// Below this, plain text costs gumbo less as it is than as a placeholder.
    static let shortestPlaceholderText = 12
    /// U+E000 and U+E001, private-use characters gumbo passes through unchanged (it replaces control characters).
    static let placeholderStart: [UInt8] = [0xEE, 0x80, 0x80]
    static let placeholderEnd: [UInt8] = [0xEE, 0x80, 0x81]
    static let placeholderScalar = 0xE000
    /// Written (with its leading space) into a formatting element whose attributes were dropped, so the builder
    /// knows that selectors testing its id, classes or attributes cannot be answered (`attributesAreKnown`).
    static let droppedAttributesName = "gtkprogress-dropped"
    static let droppedAttributesMark: [UInt8] = Array(" \(droppedAttributesName)".utf8)

    /// `keeping`: attribute names the page's selectors test (`CSSRuleSet.attributeNames`), kept beside those the
    /// document model reads (`SelectedAttributeNames`).
    static func prefilter(_ source: UnsafeBufferPointer<UInt8>, maximumDepth: Int = maximumDepth,
                          placeholders: Bool = true, keeping selected: [String] = []) -> PrefilteredMarkup {
        let usePlaceholders = placeholders && firstIndex(of: placeholderStart, in: source, from: 0) == nil
        let selected = SelectedAttributeNames(selected)
        var scanner = MarkupScanner(source: source, maximumDepth: maximumDepth, placeholders: usePlaceholders,
                                    selected: selected)
        if scanner.run() { return scanner.result }
        // A character reference to U+E000 could forge a placeholder: scan again without them.
        var plain = MarkupScanner(source: source, maximumDepth: maximumDepth, placeholders: false, selected: selected)
        _ = plain.run()
        return plain.result
    }
}

/// One pass over the source bytes. Everything not rewritten is copied in large spans.
struct MarkupScanner {
    let source: UnsafeBufferPointer<UInt8>
    let count: Int
    let placeholders: Bool
    private var out: [UInt8] = []
    private var copiedUpTo = 0
    var placeholderPieces: [InlinePieces.Span] = []
    /// `PrefilteredMarkup.placeholderElements`.
    var placeholderElements: [UInt8] = []
    var pieces: InlinePieces
    var decoded: [UInt8] = []
    /// Gumbo may still hold an `<a>` in its list of active formatting elements (one that was not closed by its
    /// own end tag); a new link then closes it, so links cannot become placeholders.
    var anchorMayBeActive = false
    var stack: NestingBound
    var position = 0
    var forgedPlaceholder = false
    /// The last `<p>` start tag had no attributes: a paragraph whose `hidden`, `align` or `id` the text that a
    /// stretch puts inside it would take on is not one (`scanText`'s paragraphs).
    var lastParagraphIsBare = false
    var attributes: [AttributeSpan] = []
    /// The distinct attribute lists formatting elements kept so far (`rewriteAttributes`), at most
    /// `formattingVocabularyLimit`.
    /// A list, not a set: at most `formattingVocabularyLimit` entries, compared by length and bytes, cost less
    /// than hashing every list byte by byte.
    var formattingVocabulary: [[UInt8]] = []
    /// The kept attributes' indices (`rewriteAttributes`), a buffer reused from tag to tag.
    var keptAttributes: [Int] = []
    /// Gumbo's list of active formatting elements holds at most three alike elements (same tag and attributes)
    /// after a marker (HTML's Noah's Ark clause); with this many distinct attribute lists it stays under a few
    /// hundred entries whatever the page, while the classes real pages put on `<code>`, `<em>` or `<b>` reach the
    /// cascade.
    static let formattingVocabularyLimit = 32
    /// A start tag that belongs in the body has been seen (`headContent`): the head, if any, is behind.
    var inBody = false
    /// The attribute names kept for the page's selectors, and the names of those left out.
    let selected: SelectedAttributeNames
    var droppedAttributes = DroppedAttributeNames()

    struct AttributeSpan {
        var nameStart: Int, nameEnd: Int, end: Int
    }

    init(source: UnsafeBufferPointer<UInt8>, maximumDepth: Int, placeholders: Bool,
         selected: SelectedAttributeNames = SelectedAttributeNames()) {
        self.source = source
        count = source.count
        self.placeholders = placeholders
        self.selected = selected
        stack = NestingBound(limit: maximumDepth)
        out.reserveCapacity(placeholders ? count / 4 + 256 : count + 256)
        pieces = InlinePieces(reservingFor: placeholders ? count : 0)
    }

    var result: PrefilteredMarkup {
        PrefilteredMarkup(bytes: out, placeholders: placeholderPieces, placeholderElements: placeholderElements,
                          pieces: pieces, decoded: decoded,
                          deepestNesting: stack.deepest, droppedAttributes: droppedAttributes,
                          selectedAttributes: selected)
    }

    /// Returns false when placeholders turned out to be unsafe.
    mutating func run() -> Bool {
        while position < count {
            if source[position] == ascii("<") {
                scanMarkup()
                continue
            }
            if placeholders {
                scanText()
                if forgedPlaceholder { return false }
            } else {
                position = find(ascii("<"), from: position)
            }
        }
        flush(upTo: count)
        return true
    }

    // MARK: Output

    mutating func flush(upTo end: Int) {
        if end > copiedUpTo {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: source[copiedUpTo..<end]))
        }
        copiedUpTo = max(copiedUpTo, end)
    }

    /// Replaces `source[start..<end]` in the output with `replacement`.
    mutating func replace(_ start: Int, _ end: Int, with replacement: (inout [UInt8]) -> Void) {
        flush(upTo: start)
        replacement(&out)
        copiedUpTo = end
    }

    // MARK: Markup

    private mutating func scanMarkup() {
        let next = position + 1 < count ? source[position + 1] : 0
        if isLetter(next) {
            scanStartTag()
        } else if next == ascii("/") {
            scanEndTag()
        } else if next == ascii("!") {
            scanDeclaration()
        } else if next == ascii("?") {
            position = endOfBogusComment(from: position + 2)
        } else {
            position += 1  // a '<' that is text
        }
    }

    private mutating func scanStartTag() {
        let tagStart = position
        let nameStart = position + 1
        var k = nameStart
        while k < count && !isSpace(source[k]) && source[k] != ascii("/") && source[k] != ascii(">") { k += 1 }
        let nameEnd = k
        guard let (end, selfClosing) = scanAttributes(from: k) else {
            position = count  // gumbo drops a tag cut off by the end of input
            return
        }
        position = end
        let name = UnsafeBufferPointer(rebasing: source[nameStart..<nameEnd])
        let tag = GumboTag.named(name).rawValue
        let traits = TagTraits.of(tag)
        let fontBreaksOut = tag == GUMBO_TAG_FONT.rawValue && attributes.contains { attribute in
            let name = attributeName(attribute)
            return equalsLowercase(name, "color") || equalsLowercase(name, "face") || equalsLowercase(name, "size")
        }
        let wasForeign = stack.inForeignContent
        if tag == GUMBO_TAG_NOSCRIPT.rawValue && !wasForeign && !inBody {
            dropNoscript(tagStart: tagStart, name: name)
            return
        }
        if !inBody && !Self.headContent.contains(tag) { inBody = true }
        if tag == GUMBO_TAG_A.rawValue { anchorMayBeActive = true }
        if tag == GUMBO_TAG_P.rawValue { lastParagraphIsBare = attributes.isEmpty && !selfClosing }
        switch stack.startTag(tag, selfClosing: selfClosing, fontBreaksOut: fontBreaksOut) {
        case .drop:
            replace(tagStart, end) { _ in }
        case .keep(let opened):
            rewriteAttributes(tagStart: tagStart, nameEnd: nameEnd, end: end, tag: tag, selfClosing: selfClosing)
            if opened && !stack.topIsForeign {
                skipRawText(traits: traits, name: name)
            }
        }
    }

    private mutating func scanEndTag() {
        let afterSlash = position + 2
        guard afterSlash < count else { position = count; return }
        if source[afterSlash] == ascii(">") { position = afterSlash + 1; return }
        guard isLetter(source[afterSlash]) else { position = endOfBogusComment(from: afterSlash); return }
        var k = afterSlash
        while k < count && !isSpace(source[k]) && source[k] != ascii("/") && source[k] != ascii(">") { k += 1 }
        let name = UnsafeBufferPointer(rebasing: source[afterSlash..<k])
        guard let (end, _) = scanAttributes(from: k) else { position = count; return }
        position = end
        let tag = GumboTag.named(name).rawValue
        let closesOpenAnchor = tag == GUMBO_TAG_A.rawValue && stack.tags.last == tag
        stack.endTag(tag)
        if closesOpenAnchor { anchorMayBeActive = false }
    }

    private mutating func scanDeclaration() {
        let start = position + 2
        if matches("--", at: start) {
            position = endOfComment(from: start + 2)
        } else if matches("[CDATA[", at: start) && stack.topIsForeign {
            position = find("]]>", from: start + 7).map { $0 + 3 } ?? count
        } else {
            position = endOfBogusComment(from: start)
        }
    }

    /// `-->` ends a comment, and so do `--!>`, `<!-->` and `<!--->`.
    private func endOfComment(from start: Int) -> Int {
        if start < count && source[start] == ascii(">") { return start + 1 }
        if matches("->", at: start) { return start + 2 }
        var k = start
        while let dash = find("--", from: k) {
            if matches(">", at: dash + 2) { return dash + 3 }
            if matches("!>", at: dash + 2) { return dash + 4 }
            k = dash + 1
        }
        return count
    }

    private func endOfBogusComment(from start: Int) -> Int {
        let close = find(ascii(">"), from: start)
        return close < count ? close + 1 : count
    }

    /// Follows the tokenizer's attribute states so a quoted `>` does not end the tag. Fills `attributes`; returns
    /// the index after the tag's `>` and whether it ended with `/>`, or nil when the input ends inside the tag.
    mutating func scanAttributes(from start: Int) -> (end: Int, selfClosing: Bool)? {
        attributes.removeAll(keepingCapacity: true)
        var k = start
        while true {
            while k < count && isSpace(source[k]) { k += 1 }
            guard k < count else { return nil }
            let byte = source[k]
            if byte == ascii(">") { return (k + 1, false) }
            if byte == ascii("/") {
                if k + 1 < count && source[k + 1] == ascii(">") { return (k + 2, true) }
                k += 1
                continue
            }
            let nameStart = k
            k += 1  // the first character may be '='
            while k < count && !isSpace(source[k]) && source[k] != ascii("/") && source[k] != ascii(">")
                && source[k] != ascii("=") { k += 1 }
            let nameEnd = k
            var valueEnd = k
            var afterName = k
            while afterName < count && isSpace(source[afterName]) { afterName += 1 }
            if afterName < count && source[afterName] == ascii("=") {
                k = afterName + 1
                while k < count && isSpace(source[k]) { k += 1 }
                guard k < count else { return nil }
                let quote = source[k]
                if quote == ascii("\"") || quote == ascii("'") {
                    let close = find(quote, from: k + 1)
                    guard close < count else { return nil }
                    k = close + 1
                } else {
                    while k < count && !isSpace(source[k]) && source[k] != ascii(">") { k += 1 }
                }
                valueEnd = k
            }
            attributes.append(AttributeSpan(nameStart: nameStart, nameEnd: nameEnd, end: valueEnd))
        }
    }

    /// Keeps only the attributes the document model reads and those the page's selectors test (the first of each
    /// name, as gumbo does), and notes the names of the others (`droppedAttributes`). Formatting
    /// elements keep theirs only while their list is one of `formattingVocabularyLimit` distinct ones; past that
    /// they keep none, except that `<font>` keeps the names that make it break out of SVG.
    private mutating func rewriteAttributes(tagStart: Int, nameEnd: Int, end: Int, tag: UInt32, selfClosing: Bool) {
        guard !attributes.isEmpty else { return }
        // The buffer taken out while in use, so appending to it never copies it.
        var keep: [Int] = []
        swap(&keep, &keptAttributes)
        keep.removeAll(keepingCapacity: true)
        defer { swap(&keep, &keptAttributes) }
        var seen: UInt64 = 0
        var seenSelected: UInt64 = 0
        for (index, attribute) in attributes.enumerated() {
            let name = attributeName(attribute)
            if let known = KeptAttribute.index(of: name) {
                guard seen & (1 << known) == 0 else { continue }
                seen |= 1 << known
            } else if let known = selected.index(of: name) {
                guard seenSelected & (1 << known) == 0 else { continue }
                seenSelected |= 1 << known
            } else {
                droppedAttributes.insert(name)
                continue
            }
            keep.append(index)
        }
        var stripAll = false
        if TagTraits.of(tag).contains(.formatting) && tag != GUMBO_TAG_A.rawValue && !keep.isEmpty {
            var list = Array(source[(tagStart + 1)..<nameEnd])
            for index in keep {
                list.append(ascii(" "))
                list.append(contentsOf: UnsafeBufferPointer(rebasing: source[attributes[index].nameStart..<attributes[index].end]))
            }
            if !formattingVocabulary.contains(list) {
                if formattingVocabulary.count < Self.formattingVocabularyLimit {
                    formattingVocabulary.append(list)
                } else {
                    stripAll = true
                    let spans = self.attributes
                    keep = keep.filter { index in
                        tag == GUMBO_TAG_FONT.rawValue
                            && KeptAttribute.index(of: attributeName(spans[index])).map(KeptAttribute.fontBreakout.contains) == true
                    }
                }
            }
        }
        if !stripAll && keep.count == attributes.count { return }
        let source = self.source
        let attributes = self.attributes
        replace(tagStart, end) { out in
            out.append(contentsOf: UnsafeBufferPointer(rebasing: source[tagStart..<nameEnd]))
            // The same name on every such element, so gumbo's Noah's Ark clause still caps the list of active
            // formatting elements, and one the page cannot forge: unknown names are dropped above.
            if stripAll { out.append(contentsOf: MarkupPrefilter.droppedAttributesMark) }
            for index in keep {
                let attribute = attributes[index]
                out.append(ascii(" "))
                let upTo = stripAll ? attribute.nameEnd : attribute.end
                out.append(contentsOf: UnsafeBufferPointer(rebasing: source[attribute.nameStart..<upTo]))
            }
            if selfClosing { out.append(ascii("/")) }
            out.append(ascii(">"))
        }
    }

    /// After `<script>`, `<style>`, `<title>`, `<textarea>` and the like, everything up to the matching end tag is
    /// text for gumbo, not markup; after `<plaintext>` everything is.
    private mutating func skipRawText(traits: TagTraits, name: UnsafeBufferPointer<UInt8>) {
        if GumboTag.named(name) == GUMBO_TAG_PLAINTEXT { position = count; return }
        guard traits.contains(.rawText) || traits.contains(.escapableRawText) else { return }
        position = endOfRawText(from: position, name: name)
    }

    /// No script runs here, so a `<noscript>` in the body is what its author wrote for this reader, and gumbo
    /// parses it as HTML does with scripting disabled. One in the head is another matter: it holds styles and
    /// tracking pixels, and gumbo would move its `<img>`s and `<p>`s into the body
    /// (<https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inheadnoscript>). That one is left out.
    private mutating func dropNoscript(tagStart: Int, name: UnsafeBufferPointer<UInt8>) {
        let endTag = endOfRawText(from: position, name: name)
        var end = count
        if endTag < count, let (afterEndTag, _) = scanAttributes(from: endTag + 2 + name.count) { end = afterEndTag }
        replace(tagStart, end) { _ in }
        position = end
    }

    /// Start tags the head holds (<https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead>);
    /// any other starts the body.
    private static let headContent: Set<UInt32> = Set([
        GUMBO_TAG_HTML, GUMBO_TAG_HEAD, GUMBO_TAG_TITLE, GUMBO_TAG_META, GUMBO_TAG_LINK, GUMBO_TAG_STYLE,
        GUMBO_TAG_SCRIPT, GUMBO_TAG_BASE, GUMBO_TAG_BASEFONT, GUMBO_TAG_BGSOUND, GUMBO_TAG_NOSCRIPT,
        GUMBO_TAG_TEMPLATE, GUMBO_TAG_NOFRAMES,
    ].map(\.rawValue))

    /// The index of the `<` of the end tag that closes raw text named `name`, or the end of the input.
    private func endOfRawText(from start: Int, name: UnsafeBufferPointer<UInt8>) -> Int {
        var k = start
        while true {
            let open = find(ascii("<"), from: k)
            guard open + 1 < count else { return count }
            if source[open + 1] == ascii("/"), open + 2 + name.count <= count {
                let candidate = UnsafeBufferPointer(rebasing: source[(open + 2)..<(open + 2 + name.count)])
                let after = open + 2 + name.count
                if equalsIgnoringCase(candidate, name)
                    && (after == count || isSpace(source[after]) || source[after] == ascii("/")
                        || source[after] == ascii(">")) {
                    return open
                }
            }
            k = open + 1
        }
    }

    // MARK: Bytes

    func attributeName(_ attribute: AttributeSpan) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: source[attribute.nameStart..<attribute.nameEnd])
    }

    /// The value without its quotes, or nil when the attribute has none.
    func attributeValue(_ attribute: AttributeSpan) -> Range<Int>? {
        var k = attribute.nameEnd
        while k < attribute.end && source[k] != ascii("=") { k += 1 }
        guard k < attribute.end else { return nil }
        k += 1
        while k < attribute.end && isSpace(source[k]) { k += 1 }
        guard k < attribute.end else { return k..<k }
        let quote = source[k]
        if quote == ascii("\"") || quote == ascii("'") { return (k + 1)..<(attribute.end - 1) }
        return k..<attribute.end
    }

    func find(_ byte: UInt8, from start: Int) -> Int {
        guard start < count else { return count }
        let base = source.baseAddress! + start
        guard let hit = memchr(base, Int32(byte), count - start) else { return count }
        return start + (UnsafeRawPointer(hit) - UnsafeRawPointer(base))
    }

    func find(_ needle: StaticString, from start: Int) -> Int? {
        let first = needle.utf8Start.pointee
        var k = start
        while k < count {
            let hit = find(first, from: k)
            guard hit < count else { return nil }
            if matches(needle, at: hit) { return hit }
            k = hit + 1
        }
        return nil
    }

    func matches(_ needle: StaticString, at start: Int) -> Bool {
        let length = needle.utf8CodeUnitCount
        guard start + length <= count else { return false }
        for i in 0..<length where source[start + i] != needle.utf8Start[i] { return false }
        return true
    }
}

/// The attributes the document model reads (tables' spans, borders and widths, alignment, images' sources), plus those that change
/// how gumbo builds the tree (`type` on `<input>`, `encoding` on MathML annotations, `color`/`face`/`size` on
/// `<font>` inside SVG).
extension MarkupPrefilter {
    /// Whether elements keep attributes of this (lowercase) name through the prefilter whatever the page's
    /// selectors (`PrefilteredMarkup.answers`).
    static func keepsByDefault(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { KeptAttribute.index(of: $0) != nil }
    }
}

private enum KeptAttribute {
    /// At most 64, one bit each in `rewriteAttributes`' `seen`.
    static let names: [[UInt8]] = ["href", "alt", "src", "http-equiv", "content", "charset", "start", "reversed",
                                   "type", "value", "id", "name", "hidden", "encoding", "color", "face", "size",
                                   "open", "colspan", "rowspan", "border", "align", "valign", "style", "width",
                                   "cellpadding", "cellspacing",
                                   // Images: `PageImage`'s sources, declared size and loading.
                                   "srcset", "height", "loading", "media",
                                   // Author styles: class selectors and `<link rel="stylesheet">`.
                                   "class", "rel",
                                   // Embedded content: an object's source, a frame's title.
                                   "data", "title",
                                   // Forms (`PageForm`, `FormControl`).
                                   "action", "method", "enctype", "checked", "selected", "disabled", "rows",
                                   "cols", "placeholder", "multiple", "label", "for",
                                   // Selectors that hide: dialogs, menus and icons marked for assistive
                                   // technology (`[aria-hidden=true]`, `[role=dialog]`, WAI-ARIA 1.2), a page's
                                   // language and direction (`[lang|=en]`, `[dir=rtl]`).
                                   "aria-hidden", "role", "lang", "dir"].map { Array($0.utf8) }
    static let fontBreakout = Set(["color", "face", "size"].compactMap { names.firstIndex(of: Array($0.utf8)) })

    /// Each name's length and lowercase first letter, packed (`length << 8 | letter`): most candidates are ruled
    /// out by one compare, without touching (and retaining) their arrays.
    private static let keys: [Int] = names.map { $0.count << 8 | Int($0[0]) }

    static func index(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = name.first else { return nil }
        let key = name.count << 8 | Int(isLetter(first) ? first | 0x20 : first)
        return keys.withUnsafeBufferPointer { keys in
            for index in keys.indices where keys[index] == key {
                if names[index].withUnsafeBufferPointer({ equalsIgnoringCase(name, $0) }) { return index }
            }
            return nil
        }
    }
}

// MARK: Byte helpers shared by the document code

/// Where `needle` first occurs in `haystack` at or after `start`.
func firstIndex(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let first = needle.first, let base = haystack.baseAddress else { return nil }
    var k = start
    while k + needle.count <= haystack.count {
        guard let hit = memchr(base + k, Int32(first), haystack.count - k) else { return nil }
        let index = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        guard index + needle.count <= haystack.count else { return nil }
        if needle.indices.allSatisfy({ haystack[index + $0] == needle[$0] }) { return index }
        k = index + 1
    }
    return nil
}

@inline(__always) func ascii(_ scalar: Unicode.Scalar) -> UInt8 { UInt8(truncatingIfNeeded: scalar.value) }

/// HTML's ASCII whitespace (and CR, which gumbo turns into LF).
@inline(__always) func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0C || byte == 0x0D
}

@inline(__always) func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

@inline(__always) func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || (byte >= 0x30 && byte <= 0x39) }

func digitValue(_ byte: UInt8, hex: Bool) -> Int? {
    if byte >= 0x30 && byte <= 0x39 { return Int(byte - 0x30) }
    let lower = byte | 0x20
    if hex && lower >= 0x61 && lower <= 0x66 { return Int(lower - 0x61 + 10) }
    return nil
}

func equalsIgnoringCase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    for i in 0..<a.count {
        let x = a[i], y = b[i]
        if x != y && !(isLetter(x) && (x | 0x20) == (y | 0x20)) { return false }
    }
    return true
}

func equalsLowercase(_ a: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
    equalsIgnoringCase(a, UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount))
}

func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    // Digits into a fixed buffer from the right, then one append (a recursive digit-by-digit append cost a call
    // and a capacity check per digit).
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var magnitude = value.magnitude
    let negative = value < 0
    withUnsafeMutableBytes(of: &digits) { buffer in
        var k = buffer.count
        repeat {
            k -= 1
            buffer[k] = UInt8(truncatingIfNeeded: 0x30 + magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if negative {
            k -= 1
            buffer[k] = ascii("-")
        }
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[k...]))
    }
}
