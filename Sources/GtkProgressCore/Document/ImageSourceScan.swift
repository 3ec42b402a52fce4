import FoundationEssentials

/// The addresses of the images a document names, read from its bytes as they arrive, before any parse: what the
/// engines' preload scanners do (WebKit's `HTMLPreloadScanner`, Chromium's `HTMLPreloadScanner`), so an image's
/// request need not wait for the whole document to be parsed and shown.
///
/// Only what the document build will surely choose the same way (`PageImages.add`): an `<img>` with a `src` and no
/// `srcset`, outside `<picture>`, not `loading="lazy"`, its address resolved against the document's own address as
/// links are. The look ends at a `<base>` (which moves every address after it). What it names is a hint: the parsed
/// document says which images the page has, and an address asked for that it does not name is let go.
package struct ImageSourceScan {
    /// Bytes looked through; a tag cut by the end of what has arrived is looked at again whole next time.
    package private(set) var scanned = 0
    /// A `<base>` was met: nothing after it is named.
    package private(set) var isOver = false
    /// The end tag a raw text element (script, style, …) or a comment runs to, while inside one.
    private var skippingTo: [UInt8]?
    private var inPicture = false

    package init() {}

    /// Elements whose content is not markup, or not shown as the page's images (WHATWG HTML §13.2.5: raw text,
    /// escapable raw text; `template` and `noscript` content is not the document's).
    private static let skipped: [String] = ["script", "style", "template", "textarea", "title", "xmp", "noscript",
                                                "iframe", "noembed", "noframes", "plaintext"]

    /// The images named in `bytes` after what was looked through before, resolved against `base`, in document
    /// order. New tags are looked for in at most `limit` bytes per call (a tag that starts there is read whole),
    /// so a large arrival is looked through over several calls.
    package mutating func scan(_ bytes: [UInt8], base: URL, limit: Int = 512 * 1024) -> [URL] {
        var found: [URL] = []
        let count = bytes.count
        let (sum, overflow) = scanned.addingReportingOverflow(max(limit, 1))
        let stop = overflow ? count : min(count, sum)
        var p = scanned
        while !isOver, p < stop {
            if let closing = skippingTo {
                let to = min(count, max(stop, p + 2 * closing.count))
                guard let at = Self.find(closing, in: bytes, from: p, to: to) else {
                    // The end tag may be cut where the look ended: looked for again from where it could start.
                    p = max(p, to - (closing.count - 1))
                    if to == count { break }
                    continue
                }
                skippingTo = nil
                p = at + closing.count
                continue
            }
            guard let open = bytes[p..<stop].firstIndex(of: UInt8(ascii: "<")) else {
                p = stop
                break
            }
            guard let tag = Self.tag(in: bytes, at: open, end: count) else {
                // Cut by the end of what arrived (or a lone `<` at the end): looked at again next time.
                p = open
                break
            }
            p = tag.next
            switch tag.kind {
            case .comment:
                skippingTo = Array("-->".utf8)
            case .end(let name):
                if name == .picture { inPicture = false }
            case .start(let name, let attributes):
                switch name {
                case .base:
                    isOver = true
                case .picture:
                    inPicture = true
                case .img:
                    // An address with other than ASCII in it depends on the document's encoding: left to the parse.
                    guard !inPicture, attributes["srcset"] == nil,
                          attributes["loading"]?.lowercased() != "lazy", let src = attributes["src"],
                          src.utf8.allSatisfy({ $0 < 0x80 }) else { break }
                    let href = LinkResolution.trim(src)
                    if !href.isEmpty, let url = LinkResolution.resolve(href, against: base) { found.append(url) }
                case .skipped(let k):
                    skippingTo = Self.skippedEndTags[k]
                case .other:
                    break
                }
            case .other:
                break
            }
        }
        scanned = max(scanned, p)
        return found
    }

    private enum TagKind {
        case start(Name, [String: String])
        case end(Name)
        case comment
        case other
    }

    /// The names this look acts on; any other is `.other`.
    private enum Name: Equatable {
        case img, base, picture, skipped(Int), other
    }

    private static let skippedNames: [[UInt8]] = skipped.map { Array($0.utf8) }
    private static let skippedEndTags: [[UInt8]] = skipped.map { Array("</\($0)".utf8) }

    /// The name in `bytes[range]`, in any case, compared byte by byte: a string a tag would cost more than the rest
    /// of the look (a look at 512 KB of Node.js's all.html took 56 ms of one main-loop turn making them).
    private static func name(_ bytes: [UInt8], _ range: Range<Int>) -> Name {
        func named(_ word: [UInt8]) -> Bool {
            word.count == range.count && word.indices.allSatisfy { bytes[range.lowerBound + $0] | 0x20 == word[$0] }
        }
        switch range.count {
        case 3: if named(Self.img) { return .img }
        case 4: if named(Self.baseName) { return .base }
        case 7: if named(Self.pictureName) { return .picture }
        default: break
        }
        for k in skippedNames.indices where named(skippedNames[k]) { return .skipped(k) }
        return .other
    }

    private static let img = Array("img".utf8), baseName = Array("base".utf8), pictureName = Array("picture".utf8)

    /// The tag at `open` (a `<`) and the index after it; nil when it is not all in `bytes[..<end]`.
    private static func tag(in bytes: [UInt8], at open: Int, end: Int) -> (kind: TagKind, next: Int)? {
        var i = open + 1
        guard i < end else { return nil }
        if bytes[i] == UInt8(ascii: "!") {
            guard i + 2 < end else { return nil }
            if bytes[i + 1] == UInt8(ascii: "-"), bytes[i + 2] == UInt8(ascii: "-") { return (.comment, i + 3) }
            guard let close = bytes[i..<end].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            return (.other, close + 1)
        }
        let isEnd = bytes[i] == UInt8(ascii: "/")
        if isEnd { i += 1 }
        let nameStart = i
        while i < end, isNameByte(bytes[i]) { i += 1 }
        guard i < end else { return nil }
        guard i > nameStart, isLetter(bytes[nameStart]) else { return (.other, open + 1) }
        let name = Self.name(bytes, nameStart..<i)
        // Only an `<img>`'s attributes are read; any other tag's are passed over without making a string of them.
        let reads = !isEnd && name == .img
        var attributes: [String: String] = [:]
        // Attributes as HTML's tokenizer reads them (§13.2.5.32–.40): names up to `=`, space, `/` or `>`; values
        // quoted or up to space or `>`; the first of a name counts.
        while true {
            while i < end, isSpace(bytes[i]) || bytes[i] == UInt8(ascii: "/") { i += 1 }
            guard i < end else { return nil }
            if bytes[i] == UInt8(ascii: ">") { break }
            let attributeStart = i
            i += 1
            while i < end, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: "="), bytes[i] != UInt8(ascii: ">"),
                  bytes[i] != UInt8(ascii: "/") { i += 1 }
            let attributeEnd = i
            while i < end, isSpace(bytes[i]) { i += 1 }
            guard i < end else { return nil }
            var valueBytes = i..<i
            if bytes[i] == UInt8(ascii: "=") {
                i += 1
                while i < end, isSpace(bytes[i]) { i += 1 }
                guard i < end else { return nil }
                let quote = bytes[i]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    guard let close = bytes[(i + 1)..<end].firstIndex(of: quote) else { return nil }
                    valueBytes = (i + 1)..<close
                    i = close + 1
                } else {
                    let valueStart = i
                    while i < end, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">") { i += 1 }
                    valueBytes = valueStart..<i
                }
            }
            guard reads else { continue }
            let attribute = String(decoding: bytes[attributeStart..<attributeEnd], as: UTF8.self).lowercased()
            let value = String(decoding: bytes[valueBytes], as: UTF8.self)
            guard let decoded = decodeReferences(value) else {
                // A reference this look does not decode: the address is left to the parse.
                if attribute == "src" { attributes["srcset"] = "" }
                continue
            }
            if attributes[attribute] == nil { attributes[attribute] = decoded }
        }
        return (isEnd ? .end(name) : .start(name, attributes), i + 1)
    }

    /// Finds `needle` (lowercase ASCII) in `bytes[from..<to]`, in any case.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int, to: Int) -> Int? {
        guard let first = needle.first, to - from >= needle.count else { return nil }
        var i = from
        while i + needle.count <= to {
            guard let at = bytes[i..<(to - needle.count + 1)].firstIndex(of: first) else { return nil }
            if (1..<needle.count).allSatisfy({ bytes[at + $0] | 0x20 == needle[$0] | 0x20 }) { return at }
            i = at + 1
        }
        return nil
    }

    /// The character references an address can hold decoded (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and
    /// numeric ones); nil when it holds another, which only the parse decodes as the document build does.
    static func decodeReferences(_ value: String) -> String? {
        guard value.contains("&") else { return value }
        var out = ""
        var rest = Substring(value)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[rest.index(after: amp)...]
            guard let semicolon = rest.firstIndex(of: ";"), rest.distance(from: rest.startIndex, to: semicolon) <= 10
            else { return nil }
            let name = rest[..<semicolon]
            rest = rest[rest.index(after: semicolon)...]
            switch name {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                guard name.first == "#" else { return nil }
                let digits = name.dropFirst()
                let code = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16)
                                                                       : UInt32(digits, radix: 10)
                guard let code, code > 0, let scalar = Unicode.Scalar(code) else { return nil }
                out.unicodeScalars.append(scalar)
            }
        }
        return out + rest
    }

    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
    }
    private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
    private static func isNameByte(_ b: UInt8) -> Bool {
        !isSpace(b) && b != UInt8(ascii: "/") && b != UInt8(ascii: ">")
    }
}
