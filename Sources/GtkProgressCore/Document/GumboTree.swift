internal import CGumbo
import FoundationEssentials
import Glibc

/// A tree gumbo built. All its memory comes from one arena, so freeing it is releasing the arena.
///
/// Gumbo's own `gumbo_destroy_output` recurses once per level of nesting (past about 260,000 levels it overflows
/// the stack) and frees a hundred thousand small blocks one by one; with the arena neither happens, and parsing
/// itself is faster without `malloc` and `free` for every node.
final class GumboTree {
    private let arena = GumboArena()
    private let output: UnsafeMutablePointer<GumboOutput>

    /// `fragmentContext`: parse `markup` as the content of an element of that tag (HTML's fragment parsing
    /// algorithm); its nodes are then the children of `root`.
    init(parsing markup: UnsafeBufferPointer<UInt8>, fragmentContext: UInt32? = nil) {
        var options = kGumboDefaultOptions
        if let fragmentContext {
            options.fragment_context = GumboTag(rawValue: fragmentContext)
            options.fragment_namespace = GUMBO_NAMESPACE_HTML
        }
        // The document never reads parse errors, and recording each one costs an allocation.
        options.max_errors = 0
        // The tree owns the arena for the whole parse, so each call borrows it without a retain and a release
        // (about 1.4 million calls on a page of 100,000 elements).
        options.allocator = { arena, size in
            Unmanaged<GumboArena>.fromOpaque(arena!)._withUnsafeGuaranteedRef { $0.allocate(size) }
        }
        options.deallocator = { _, _ in }
        options.userdata = Unmanaged.passUnretained(arena).toOpaque()
        func parse(_ markup: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<GumboOutput> {
            markup.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { return gumbo_parse_with_options(&options, base, chars.count) }
                return gumbo_parse_with_options(&options, "", 0)
            }
        }
        if let safe = NumericReferences.boundedCopy(markup) {
            output = safe.withUnsafeBufferPointer { parse($0) }
        } else {
            output = parse(markup)
        }
        // Gumbo's `original_tag` points into the markup, which may be gone after this.
        keepUnknownTagNames()
    }

    /// Gumbo gives an element it has no tag number for (a custom element, `<my-menu>`) only `original_tag`, a
    /// piece of the markup, which the document builder frees before its walk. Each such name is copied here,
    /// lowercased (HTML tag names are ASCII case-insensitive), into the tree's own arena, and `original_tag` is
    /// pointed at the copy, so type selectors can name the element (`GumboNodeRef.unknownTagName`).
    private func keepUnknownTagNames() {
        var stack: [UnsafeMutablePointer<GumboNode>] = [output.pointee.document]
        while let node = stack.popLast() {
            let children: GumboVector
            switch node.pointee.type {
            case GUMBO_NODE_DOCUMENT:
                children = cgumbo_document(node).pointee.children
            case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE:
                let element = cgumbo_element(node)!
                if element.pointee.tag == GUMBO_TAG_UNKNOWN { element.pointee.original_tag = copiedName(element.pointee.original_tag) }
                children = element.pointee.children
            default:
                continue
            }
            for index in 0..<Int(children.length) {
                if let child = children.data[index] { stack.append(child.assumingMemoryBound(to: GumboNode.self)) }
            }
        }
    }

    /// The tag name in `<name attributes>` (or `</name>`), lowercased, in the arena; empty when there is none.
    private func copiedName(_ tag: GumboStringPiece) -> GumboStringPiece {
        guard let data = tag.data, tag.length > 1 else { return GumboStringPiece(data: nil, length: 0) }
        let bytes = UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self)
        var start = 0
        if bytes[start] == ascii("<") { start += 1 }
        if start < tag.length, bytes[start] == ascii("/") { start += 1 }
        var end = start
        while end < tag.length, !Self.endsTagName(bytes[end]) { end += 1 }
        guard end > start else { return GumboStringPiece(data: nil, length: 0) }
        let copy = arena.allocate(end - start).assumingMemoryBound(to: UInt8.self)
        for index in start..<end {
            let byte = bytes[index]
            copy[index - start] = byte >= ascii("A") && byte <= ascii("Z") ? byte + 32 : byte
        }
        return GumboStringPiece(data: UnsafeRawPointer(copy).assumingMemoryBound(to: CChar.self), length: end - start)
    }

    private static func endsTagName(_ byte: UInt8) -> Bool {
        byte == ascii(">") || byte == ascii("/") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C
            || byte == 0x0D
    }

    /// The root; valid while this tree lives.
    var document: GumboNodeRef { GumboNodeRef(output.pointee.document) }

    /// The `html` element; in a fragment, the parent of the fragment's nodes.
    var root: GumboNodeRef { GumboNodeRef(output.pointee.root) }

    /// The number of elements on the longest path from the root, for tests of the prefilter's depth model.
    var depth: Int {
        var deepest = 0
        var stack: [(GumboNodeRef, Int)] = [(document, 0)]
        while let (node, depth) = stack.popLast() {
            deepest = max(deepest, depth)
            for index in 0..<node.childCount {
                let child = node.child(index)
                if child.isElement || child.type == GUMBO_NODE_TEMPLATE { stack.append((child, depth + 1)) }
            }
        }
        return deepest
    }
}

/// Bump allocation in large chunks, all released together. Gumbo's frees are ignored, which wastes what its
/// growing buffers leave behind: at most about as much again as the tree.
private final class GumboArena {
    private static let chunkSize = 1 << 20
    private var chunks: [UnsafeMutableRawPointer] = []
    private var next: UnsafeMutableRawPointer?
    private var remaining = 0

    func allocate(_ size: Int) -> UnsafeMutableRawPointer {
        let size = (size + 15) & ~15
        if size > remaining {
            let chunkSize = max(size, Self.chunkSize)
            let chunk = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
            chunks.append(chunk)
            if size >= Self.chunkSize { return chunk }  // a large block gets a chunk of its own
            next = chunk
            remaining = chunkSize
        }
        let block = next!
        next = block + size
        remaining -= size
        return block
    }

    deinit {
        for chunk in chunks { chunk.deallocate() }
    }
}

/// A borrowed gumbo node, valid while its `GumboTree` lives.
struct GumboNodeRef {
    let node: UnsafeMutablePointer<GumboNode>

    init(_ node: UnsafeMutablePointer<GumboNode>) { self.node = node }

    var type: GumboNodeType { node.pointee.type }
    var isElement: Bool { type == GUMBO_NODE_ELEMENT }
    var isText: Bool { type == GUMBO_NODE_TEXT || type == GUMBO_NODE_WHITESPACE || type == GUMBO_NODE_CDATA }

    /// Gumbo's tag number (elements only).
    var tag: UInt32 { cgumbo_element(node).pointee.tag.rawValue }
    var isHTML: Bool { cgumbo_element(node).pointee.tag_namespace == GUMBO_NAMESPACE_HTML }

    private var childVector: GumboVector {
        switch type {
        case GUMBO_NODE_DOCUMENT: return cgumbo_document(node).pointee.children
        case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE: return cgumbo_element(node).pointee.children
        default: return GumboVector()
        }
    }

    var childCount: Int { Int(childVector.length) }

    func child(_ index: Int) -> GumboNodeRef {
        GumboNodeRef(childVector.data![index]!.assumingMemoryBound(to: GumboNode.self))
    }

    /// The decoded text of a text node, as UTF-8 (gumbo has already turned NUL into U+FFFD or dropped it).
    var text: UnsafeBufferPointer<UInt8> {
        guard let chars = cgumbo_text(node).pointee.text else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeRawPointer(chars).withMemoryRebound(to: UInt8.self, capacity: 1) { bytes in
            UnsafeBufferPointer(start: bytes, count: strlen(chars))
        }
    }

    var hasAttributes: Bool { cgumbo_element(node).pointee.attributes.length > 0 }

    /// The lowercased name of an element gumbo has no tag number for, kept by `GumboTree`; empty for others.
    var unknownTagName: UnsafeBufferPointer<UInt8> {
        let element = cgumbo_element(node).pointee
        guard element.tag == GUMBO_TAG_UNKNOWN, let data = element.original_tag.data else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        return UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self),
                                   count: element.original_tag.length)
    }

    /// An attribute's value, if the element has it.
    func attribute(_ name: String) -> String? {
        var attributes = cgumbo_element(node).pointee.attributes
        // `withCString` lends the string's own bytes (or a stack copy of a small one); passing `name` to the C
        // function directly made a heap copy of it at every call.
        guard let attribute = name.withCString({ gumbo_get_attribute(&attributes, $0) }),
              let value = attribute.pointee.value else {
            return nil
        }
        return String(cString: value)
    }

    func hasAttribute(_ name: String) -> Bool {
        var attributes = cgumbo_element(node).pointee.attributes
        return name.withCString { gumbo_get_attribute(&attributes, $0) } != nil
    }
}

/// Gumbo (0.10.1, `char_ref.c`'s `consume_numeric_ref`) adds up a numeric character reference's digits in a C
/// `int` with no bound: past 2^31 the sum wraps, a negative code point slips past its test for "beyond U+10FFFF",
/// and its UTF-8 writer turns it into a NUL (the rest of the text is lost), a stray byte (text that is not UTF-8,
/// which GTK refuses), or gumbo's "no character" (the reference kept as `&`). HTML gives every reference beyond
/// U+10FFFF the replacement character
/// (<https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-end-state>), so such
/// references are written `&#xFFFD;` before gumbo reads the markup. Pages without one are parsed as they are.
enum NumericReferences {
    private static let replacement: [UInt8] = Array("&#xFFFD;".utf8)
    private static let start: [UInt8] = Array("&#".utf8)

    /// `markup` with every numeric reference beyond U+10FFFF (and its `;`, if any) replaced; nil when there is
    /// none, the common case, found with one `memmem` pass for `&#`.
    static func boundedCopy(_ markup: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var copy: [UInt8]? = nil
        var copied = 0
        var k = 0
        while let found = firstIndex(of: start, in: markup, from: k) {
            var j = found + 2
            var hex = false
            if j < markup.count, markup[j] | 0x20 == ascii("x") { hex = true; j += 1 }
            var value = 0
            while j < markup.count, let digit = digitValue(markup[j], hex: hex) {
                value = min(value * (hex ? 16 : 10) + digit, 0x110000)
                j += 1
            }
            k = j
            guard value > 0x10FFFF else { continue }
            if j < markup.count, markup[j] == ascii(";") { j += 1 }
            if copy == nil { copy = []; copy!.reserveCapacity(markup.count + 64) }
            copy!.append(contentsOf: UnsafeBufferPointer(rebasing: markup[copied..<found]))
            copy!.append(contentsOf: replacement)
            copied = j
            k = j
        }
        guard var copy else { return nil }
        copy.append(contentsOf: UnsafeBufferPointer(rebasing: markup[copied...]))
        return copy
    }
}
