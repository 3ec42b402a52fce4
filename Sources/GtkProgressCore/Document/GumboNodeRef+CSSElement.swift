internal import CGumbo
import Glibc

/// Gumbo's elements as selectors see them. An element gumbo has no tag number for (a custom element such as
/// `<my-menu>`) is named by `unknownTagName`, which `GumboTree` keeps lowercased after the markup is gone.
extension GumboNodeRef: CSSElement {
    /// Gumbo's normalized names, by tag number.
    private static let tagNames: [String] = (0..<GUMBO_TAG_LAST.rawValue).map {
        String(cString: gumbo_normalized_tagname(GumboTag(rawValue: $0)))
    }

    private static let tagHashes: [UInt32] = tagNames.map { CSSAncestorFilter.nameHash($0.utf8) }

    var typeHash: UInt32 {
        let tag = Int(self.tag)
        return tag < Self.tagHashes.count && tag != Int(GUMBO_TAG_UNKNOWN.rawValue) ? Self.tagHashes[tag]
            : CSSAncestorFilter.nameHash(unknownTagName)
    }

    /// The value of an attribute as bytes, without making a string.
    /// `name` is a C string (callers pass literals, which need no conversion from a Swift string).
    private func withAttributeBytes<R>(_ name: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        guard let value = lowercaseAttribute(name) else { return nil }
        return body(UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self),
                                        count: strlen(value)))
    }

    /// The value of `class`, `id` or `style`, compared byte for byte: the HTML tokenizer lowercases attribute names
    /// and gumbo's foreign-content adjustments (SVG's `viewBox` and the like) never touch these three, so the
    /// `strcasecmp` of `gumbo_get_attribute` is not needed for them. `name` is lowercase ASCII.
    private func lowercaseAttribute(_ name: StaticString) -> UnsafePointer<CChar>? {
        let attributes = cgumbo_element(node).pointee.attributes
        let count = Int(attributes.length)
        guard count > 0 else { return nil }
        let wanted = name.utf8Start, length = name.utf8CodeUnitCount
        for index in 0..<count {
            guard let attribute = attributes.data[index]?.assumingMemoryBound(to: GumboAttribute.self),
                  let written = attribute.pointee.name else { continue }
            var k = 0
            // A shorter name stops at its NUL, which no byte of `wanted` equals.
            while k < length && UInt8(bitPattern: written[k]) == wanted[k] { k += 1 }
            if k == length && written[k] == 0 { return attribute.pointee.value }
        }
        return nil
    }

    var idHash: UInt32? { withAttributeBytes("id") { CSSAncestorFilter.nameHash($0) } }

    /// The element's `CSSElementKeys` and its `style` attribute's text (`styleAttributeText`), from one pass over
    /// its attributes (the first of each name counts, as for `lowercaseAttribute`).
    /// `readingStyle` false leaves the style out (nil).
    func cssKeys(readingStyle: Bool = true) -> (keys: CSSElementKeys, style: String?) {
        let attributes = cgumbo_element(node).pointee.attributes
        let count = Int(attributes.length)
        var id: UnsafePointer<CChar>?, classes: UnsafePointer<CChar>?, style: UnsafePointer<CChar>?
        for index in 0..<count {
            guard let attribute = attributes.data[index]?.assumingMemoryBound(to: GumboAttribute.self),
                  let name = attribute.pointee.name else { continue }
            // The names compared byte for byte, as `lowercaseAttribute` does.
            switch UInt8(bitPattern: name[0]) {
            case UInt8(ascii: "i") where id == nil && name[1] == 0x64 && name[2] == 0:  // "id"
                id = attribute.pointee.value
            case UInt8(ascii: "c") where classes == nil && strcmp(name, "class") == 0:
                classes = attribute.pointee.value
            case UInt8(ascii: "s") where readingStyle && style == nil && strcmp(name, "style") == 0:
                style = attribute.pointee.value
            default:
                continue
            }
        }
        var keys = CSSElementKeys(typeHash: typeHash, idHash: id.map {
            CSSAncestorFilter.nameHash(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self),
                                                           count: strlen($0)))
        })
        if let classes {
            let bytes = UnsafeRawPointer(classes).assumingMemoryBound(to: UInt8.self)
            var k = 0
            while bytes[k] != 0 {
                while isSpace(bytes[k]) { k += 1 }
                let start = k
                while bytes[k] != 0 && !isSpace(bytes[k]) { k += 1 }
                if k > start { keys.addClass(CSSAncestorFilter.nameHash(UnsafeBufferPointer(start: bytes + start, count: k - start))) }
            }
        }
        return (keys, style.map { text in
            String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self),
                                                 count: strlen(text)), as: UTF8.self)
        })
    }

    /// The `style` attribute's text, for the cascade.
    var styleAttributeText: String? { withAttributeBytes("style") { String(decoding: $0, as: UTF8.self) } }

    func forEachClassHash(_ body: (UInt32) -> Void) {
        _ = withAttributeBytes("class") { bytes in
            var k = 0
            while k < bytes.count {
                while k < bytes.count && isSpace(bytes[k]) { k += 1 }
                let start = k
                while k < bytes.count && !isSpace(bytes[k]) { k += 1 }
                if k > start { body(CSSAncestorFilter.nameHash(UnsafeBufferPointer(rebasing: bytes[start..<k]))) }
            }
        }
    }

    var localName: String {
        let tag = Int(self.tag)
        if tag == Int(GUMBO_TAG_UNKNOWN.rawValue) { return String(decoding: unknownTagName, as: UTF8.self) }
        return tag < Self.tagNames.count ? Self.tagNames[tag] : ""
    }

    func isNamed(_ lowercasedName: String) -> Bool {
        let tag = self.tag
        if tag == GUMBO_TAG_UNKNOWN.rawValue {
            let name = unknownTagName
            return !name.isEmpty && lowercasedName.utf8.elementsEqual(name)
        }
        return Int(tag) < Self.tagNames.count && Self.tagNames[Int(tag)] == lowercasedName
    }

    var elementID: String? { lowercaseAttribute("id").map { String(cString: $0) } }

    func hasClass(_ name: String) -> Bool {
        guard let value = lowercaseAttribute("class") else { return false }
        // The class list without making strings: each whitespace-separated word compared in place, up to the
        // C string's NUL (no `strlen` pass first).
        return name.utf8.withContiguousStorageIfAvailable { wanted -> Bool in
            let bytes = UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self)
            var k = 0
            while bytes[k] != 0 {
                while isSpace(bytes[k]) { k += 1 }
                let start = k
                while bytes[k] != 0 && !isSpace(bytes[k]) { k += 1 }
                if k - start == wanted.count && memcmp(bytes + start, wanted.baseAddress!, wanted.count) == 0 {
                    return true
                }
            }
            return false
        } ?? classNames.contains(name)
    }

    var classNames: [String] {
        guard let value = lowercaseAttribute("class") else { return [] }
        // Words of the C string, each made a string once (no intermediate whole-attribute string).
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self),
                                        count: strlen(value))
        var names: [String] = []
        var k = 0
        while k < bytes.count {
            while k < bytes.count && isSpace(bytes[k]) { k += 1 }
            let start = k
            while k < bytes.count && !isSpace(bytes[k]) { k += 1 }
            if k > start { names.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<k]), as: UTF8.self)) }
        }
        return names
    }

    func attributeValue(_ lowercasedName: String) -> String? { hasAttributes ? attribute(lowercasedName) : nil }

    /// `a` or `area` with an `href`, read from gumbo's attributes without making a string.
    var isLink: Bool {
        (tag == GUMBO_TAG_A.rawValue || tag == GUMBO_TAG_AREA.rawValue) && hasAttributes
            && lowercaseAttribute("href") != nil
    }

    var parentElement: GumboNodeRef? {
        guard let parent = node.pointee.parent, parent.pointee.type == GUMBO_NODE_ELEMENT else { return nil }
        return GumboNodeRef(parent)
    }

    private func siblingElement(step: Int) -> GumboNodeRef? {
        guard let parent = node.pointee.parent else { return nil }
        let siblings = GumboNodeRef(parent)
        var index = Int(node.pointee.index_within_parent) + step
        while index >= 0 && index < siblings.childCount {
            let sibling = siblings.child(index)
            if sibling.isElement { return sibling }
            index += step
        }
        return nil
    }

    /// False for a formatting element whose attributes the prefilter dropped (`MarkupPrefilter.droppedAttributesName`).
    var attributesAreKnown: Bool {
        guard hasAttributes, TagTraits.of(tag).contains(.formatting) else { return true }
        return attribute(MarkupPrefilter.droppedAttributesName) == nil
    }

    var previousSiblingElement: GumboNodeRef? { siblingElement(step: -1) }
    var nextSiblingElement: GumboNodeRef? { siblingElement(step: 1) }

    var hasNoChildren: Bool {
        for index in 0..<childCount {
            let child = child(index)
            if child.isElement || (child.isText && !child.text.isEmpty) { return false }
        }
        return true
    }
}

extension GumboNodeRef {
    /// Same namespace, tag and attributes (names and values, in order): two such children of one parent match
    /// the same selectors, except those that look at their place or children (`CSSElementStyle.shareable`).
    /// Two elements gumbo has no tag number for are alike only with the same kept name.
    func isAlike(_ other: GumboNodeRef) -> Bool {
        let a = cgumbo_element(node).pointee, b = cgumbo_element(other.node).pointee
        guard a.tag == b.tag, a.tag_namespace == b.tag_namespace,
              a.attributes.length == b.attributes.length else { return false }
        if a.tag == GUMBO_TAG_UNKNOWN {
            let name = unknownTagName
            guard !name.isEmpty, name.elementsEqual(other.unknownTagName) else { return false }
        }
        for index in 0..<Int(a.attributes.length) {
            guard let x = a.attributes.data[index]?.assumingMemoryBound(to: GumboAttribute.self),
                  let y = b.attributes.data[index]?.assumingMemoryBound(to: GumboAttribute.self),
                  let xName = x.pointee.name, let yName = y.pointee.name, strcmp(xName, yName) == 0 else { return false }
            switch (x.pointee.value, y.pointee.value) {
            case (nil, nil): continue
            case (let xValue?, let yValue?) where strcmp(xValue, yValue) == 0: continue
            default: return false
            }
        }
        return true
    }

    /// The name of a tag number, "" for one gumbo does not know.
    func localName(ofTag tag: UInt32) -> String {
        tag < GUMBO_TAG_LAST.rawValue && tag != GUMBO_TAG_UNKNOWN.rawValue ? Self.tagNames[Int(tag)] : ""
    }
}

/// An inline element the prefilter turned into a piece of text (`InlinePiece`): it had only plain text, and no
/// attributes but an anchor's `href` and a formatting element's `class` are kept, so it has a type, classes, a
/// parent and nothing else; one that had others
/// answers no selector reading id, classes or attributes (`attributesAreKnown`). Its place among its siblings is not known, so the structural
/// pseudo-classes do not match it (`CSSElement.hasKnownPosition`). Its ancestors are the document's elements.
struct PieceElement: CSSElement {
    /// The piece's tag, or nil when this stands for `node` itself (an ancestor of a piece).
    let tag: UInt32?
    let node: GumboNodeRef
    /// The piece's element had attributes the piece does not keep (`InlinePiece.droppedAttributes`).
    let droppedAttributes: Bool

    /// The piece's `class` value (`InlinePiece.classValue`).
    let classAttribute: String?
    /// The piece is a link with an `href` (`InlinePiece.href`).
    let hasHref: Bool

    init(tag: UInt32, parent: GumboNodeRef, droppedAttributes: Bool, classAttribute: String? = nil,
         hasHref: Bool = false) {
        self.tag = tag
        node = parent
        self.droppedAttributes = droppedAttributes
        self.classAttribute = classAttribute
        self.hasHref = hasHref
    }

    private init(node: GumboNodeRef) {
        tag = nil
        self.node = node
        droppedAttributes = false
        classAttribute = nil
        hasHref = false
    }

    /// The piece's classes: HTML's whitespace-separated words of its `class`.
    private var pieceClasses: [Substring] {
        classAttribute?.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }) ?? []
    }

    var localName: String { tag.map { node.localName(ofTag: $0) } ?? node.localName }
    var typeHash: UInt32 { tag == nil ? node.typeHash : CSSAncestorFilter.nameHash(localName.utf8) }
    var idHash: UInt32? { tag == nil ? node.idHash : nil }
    func forEachClassHash(_ body: (UInt32) -> Void) {
        if tag == nil { node.forEachClassHash(body) } else { for name in pieceClasses { body(CSSAncestorFilter.nameHash(name.utf8)) } }
    }
    func isNamed(_ lowercasedName: String) -> Bool { tag == nil ? node.isNamed(lowercasedName) : localName == lowercasedName }
    var elementID: String? { tag == nil ? node.elementID : nil }
    func hasClass(_ name: String) -> Bool { tag == nil ? node.hasClass(name) : pieceClasses.contains { $0 == name } }
    var classNames: [String] { tag == nil ? node.classNames : pieceClasses.map(String.init) }
    func attributeValue(_ lowercasedName: String) -> String? {
        tag == nil ? node.attributeValue(lowercasedName) : lowercasedName == "class" ? classAttribute : nil
    }
    var parentElement: PieceElement? {
        tag == nil ? node.parentElement.map { PieceElement(node: $0) } : PieceElement(node: node)
    }
    var previousSiblingElement: PieceElement? { tag == nil ? node.previousSiblingElement.map { PieceElement(node: $0) } : nil }
    var nextSiblingElement: PieceElement? { tag == nil ? node.nextSiblingElement.map { PieceElement(node: $0) } : nil }
    var hasNoChildren: Bool { tag == nil ? node.hasNoChildren : false }
    var hasKnownPosition: Bool { tag == nil }
    var isLink: Bool { tag == nil ? node.isLink : tag == GUMBO_TAG_A.rawValue && hasHref }
    var attributesAreKnown: Bool { tag == nil ? node.attributesAreKnown : !droppedAttributes }
}
