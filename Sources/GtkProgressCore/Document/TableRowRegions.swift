internal import CGumbo
import Glibc

/// The rows of a long table, cut out of gumbo's input so that gumbo never holds the whole table's tree: the
/// document is parsed with one empty marker row in their place, and the rows are parsed a chunk at a time as
/// fragments in their table section's context (HTML's fragment parsing algorithm,
/// <https://html.spec.whatwg.org/multipage/parsing.html#parsing-html-fragments>), each chunk's tree walked and
/// released before the next is parsed. Gumbo's tree costs about 30 bytes for each byte of a table of short cells.
///
/// The two parses build the same rows only where nothing in the rows reaches outside the table section, and the
/// scan vouches for that conservatively, in the tokenizer's data state:
/// - between rows and between cells: ASCII whitespace, `<tr>`, `<td>`, `<th>`, `</tr>`, `</td>`, `</th>` only
///   (other content there is foster-parented before the table, which a fragment has not got);
/// - inside a cell: text and any element except those that change the tokenizer's state (`script`, `style`,
///   `textarea`, `title`, `plaintext` and the other raw-text elements), nest a table or a `template`, enter SVG
///   or MathML, open a `select`, or touch what the parser keeps for the whole document (`form`'s element
///   pointer, `html`/`body`/`head` attributes, `frameset`, style sheets and `base` that `DocumentStyles` reads
///   before the walk), and no comment, declaration or processing instruction.
///
/// A cell is closed by `<tr>` whatever is open inside it (HTML's "in cell" insertion mode), and closing a cell
/// clears the list of active formatting elements back to the cell's marker, so every `<tr>` the scan passes
/// leaves the parser as a fragment parse in `tbody` context starts: there the rows can be cut. Where the scan
/// meets anything else, the rows end at the start of that row and the rest of the table is parsed with the
/// document. The document parse proves the rest: the marker must come out as a row of a `tbody`, `thead` or
/// `tfoot` of a table (`DocumentBuilder` parses the whole page otherwise).
struct RowRegion: Equatable {
    /// The rows' bytes in the prefiltered markup, from a `<tr` to the token that ends the rows.
    var range: Range<Int>
    /// Where each chunk after the first starts (always at a `<tr`), inside `range`.
    var cuts: [Int]
    /// The section end tag (`</tbody>`, `</thead>`, `</tfoot>`) that ends the rows, if one does: the section
    /// must be that one, or gumbo would have ignored the end tag and gone on in the cell.
    var closingSection: UInt32?

    /// The chunks' ranges in the markup.
    var chunks: [Range<Int>] {
        let starts = [range.lowerBound] + cuts
        return starts.indices.map { starts[$0]..<($0 + 1 < starts.count ? starts[$0 + 1] : range.upperBound) }
    }
}

/// How long a table's rows must be before they are parsed in chunks, and how large a chunk is.
struct RowChunking: Equatable {
    /// Rows shorter than this are parsed with the document.
    var minimumBytes: Int
    /// A chunk ends at the first `<tr` past this many bytes.
    var chunkBytes: Int

    /// About a 4 MB tree at a time.
    static let standard = RowChunking(minimumBytes: 256 << 10, chunkBytes: 128 << 10)
}

enum TableRowRegions {
    /// The marker row's attribute; its value is the region's index. The prefilter drops attributes the
    /// document model does not read, so a page cannot write it on an element of its own.
    static let markerName = "gtkprogress-rows"

    /// The document gumbo parses: `bytes` with each region replaced by its marker row.
    static func document(_ bytes: UnsafeBufferPointer<UInt8>, without regions: [RowRegion]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count - regions.reduce(0) { $0 + $1.range.count } + 48 * regions.count)
        var copied = 0
        for (index, region) in regions.enumerated() {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<region.range.lowerBound]))
            out.append(contentsOf: "<tr \(markerName)=\"\(index)\"></tr>".utf8)
            copied = region.range.upperBound
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
        return out
    }

    /// The regions of rows worth parsing in chunks, in order.
    static func find(in bytes: UnsafeBufferPointer<UInt8>, chunking: RowChunking) -> [RowRegion] {
        guard mayHoldRow(bytes) else { return [] }
        var scan = Scan(bytes: bytes)
        return scan.regions(chunking)
    }

    /// Whether `<tr` appears anywhere, in any case: every region starts at such a tag, so a page without one (most
    /// pages that are not tables) needs no tokenizer-following scan. `memchr` finds each `<` at once.
    private static func mayHoldRow(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var k = 0
        while k + 2 < bytes.count {
            guard let hit = memchr(base + k, Int32(ascii("<")), bytes.count - k) else { return false }
            let open = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            if open + 2 < bytes.count, bytes[open + 1] | 0x20 == ascii("t"), bytes[open + 2] | 0x20 == ascii("r") {
                return true
            }
            k = open + 1
        }
        return false
    }

    /// Elements a cell's content may not hold for the rows to be cut (see `RowRegion`'s comment).
    private static let unsafeInCell: Set<UInt32> = Set([
        GUMBO_TAG_SCRIPT, GUMBO_TAG_STYLE, GUMBO_TAG_XMP, GUMBO_TAG_IFRAME, GUMBO_TAG_NOEMBED, GUMBO_TAG_NOFRAMES,
        GUMBO_TAG_NOSCRIPT, GUMBO_TAG_TEXTAREA, GUMBO_TAG_TITLE, GUMBO_TAG_PLAINTEXT, GUMBO_TAG_TEMPLATE,
        GUMBO_TAG_SVG, GUMBO_TAG_MATH, GUMBO_TAG_SELECT, GUMBO_TAG_KEYGEN, GUMBO_TAG_FORM, GUMBO_TAG_ISINDEX,
        GUMBO_TAG_FRAMESET, GUMBO_TAG_FRAME, GUMBO_TAG_HTML, GUMBO_TAG_BODY, GUMBO_TAG_HEAD, GUMBO_TAG_LINK,
        GUMBO_TAG_BASE, GUMBO_TAG_META, GUMBO_TAG_APPLET, GUMBO_TAG_MARQUEE, GUMBO_TAG_OBJECT, GUMBO_TAG_TABLE,
        GUMBO_TAG_CAPTION, GUMBO_TAG_COLGROUP, GUMBO_TAG_COL, GUMBO_TAG_TBODY, GUMBO_TAG_THEAD, GUMBO_TAG_TFOOT,
    ].map(\.rawValue))

    private struct Scan {
        let bytes: UnsafeBufferPointer<UInt8>
        let count: Int

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            count = bytes.count
        }

        /// Follows the tokenizer through the document, trying each `<tr` it finds in the data state. A wrong
        /// guess here (a `<tr` inside a CDATA section, say) costs a second parse: the marker does not come out
        /// as a row, and the builder parses the whole page.
        mutating func regions(_ chunking: RowChunking) -> [RowRegion] {
            var found: [RowRegion] = []
            var k = 0
            while k < count {
                let open = find(ascii("<"), from: k)
                guard open + 1 < count else { break }
                let next = bytes[open + 1]
                if isLetter(next) {
                    let nameEnd = tagNameEnd(from: open + 1)
                    guard let end = tagEnd(from: nameEnd) else { break }
                    let tag = GumboTag.named(UnsafeBufferPointer(rebasing: bytes[(open + 1)..<nameEnd])).rawValue
                    if tag == GUMBO_TAG_TR.rawValue {
                        let region = rows(from: open, firstTagEnd: end, chunking)
                        if region.range.count >= max(chunking.minimumBytes, 1) {
                            found.append(region)
                            k = region.range.upperBound
                        } else {
                            k = end
                        }
                    } else if tag == GUMBO_TAG_PLAINTEXT.rawValue {
                        break
                    } else if !TagTraits.of(tag).isDisjoint(with: [.rawText, .escapableRawText]) {
                        // Text up to its end tag, outside the rows. (`noscript` is markup: gumbo parses with
                        // scripting off.)
                        k = endOfRawText(from: end, name: UnsafeBufferPointer(rebasing: bytes[(open + 1)..<nameEnd]))
                    } else {
                        k = end
                    }
                } else if next == ascii("/") {
                    if open + 2 < count, isLetter(bytes[open + 2]) {
                        guard let end = tagEnd(from: tagNameEnd(from: open + 2)) else { break }
                        k = end
                    } else {
                        k = endOfBogusComment(from: open + 2)
                    }
                } else if next == ascii("!") {
                    k = matches("--", at: open + 2) ? endOfComment(from: open + 4) : endOfBogusComment(from: open + 2)
                } else if next == ascii("?") {
                    k = endOfBogusComment(from: open + 2)
                } else {
                    k = open + 1
                }
            }
            return found
        }

        private enum Place: Equatable { case betweenRows, inRow, inCell(UInt32) }

        /// The rows from the `<tr` at `start` to the token that ends them (see `RowRegion`).
        private func rows(from start: Int, firstTagEnd: Int, _ chunking: RowChunking) -> RowRegion {
            var place = Place.inRow
            var rowStart = start
            var chunkStart = start
            var cuts: [Int] = []
            var k = firstTagEnd
            func region(endingAt end: Int, closing: UInt32? = nil) -> RowRegion {
                RowRegion(range: start..<end, cuts: cuts.filter { $0 < end }, closingSection: closing)
            }
            // The rows end before the row that holds what the scan cannot vouch for.
            var unsafe: RowRegion { region(endingAt: rowStart) }
            while true {
                guard k < count else { return region(endingAt: count) }
                let open: Int
                if case .inCell = place {
                    open = find(ascii("<"), from: k)
                    guard open < count else { return region(endingAt: count) }
                } else {
                    var j = k
                    while j < count && isSpace(bytes[j]) { j += 1 }
                    guard j < count else { return region(endingAt: count) }
                    guard bytes[j] == ascii("<") else { return unsafe }
                    open = j
                }
                guard open + 1 < count else {
                    if case .inCell = place { return region(endingAt: count) }
                    return unsafe
                }
                let next = bytes[open + 1]
                if isLetter(next) {
                    let nameEnd = tagNameEnd(from: open + 1)
                    guard let end = tagEnd(from: nameEnd) else { return unsafe }
                    let tag = GumboTag.named(UnsafeBufferPointer(rebasing: bytes[(open + 1)..<nameEnd])).rawValue
                    switch tag {
                    case GUMBO_TAG_TR.rawValue:
                        rowStart = open
                        if open - chunkStart >= chunking.chunkBytes {
                            cuts.append(open)
                            chunkStart = open
                        }
                        place = .inRow
                    case GUMBO_TAG_TD.rawValue, GUMBO_TAG_TH.rawValue:
                        place = .inCell(tag)
                    case GUMBO_TAG_TBODY.rawValue, GUMBO_TAG_THEAD.rawValue, GUMBO_TAG_TFOOT.rawValue,
                         GUMBO_TAG_CAPTION.rawValue, GUMBO_TAG_COLGROUP.rawValue, GUMBO_TAG_COL.rawValue:
                        // Each closes the cell, the row and the section, in both parses.
                        return region(endingAt: open)
                    default:
                        guard case .inCell = place, !TableRowRegions.unsafeInCell.contains(tag) else { return unsafe }
                    }
                    k = end
                } else if next == ascii("/") {
                    guard open + 2 < count, isLetter(bytes[open + 2]) else { return unsafe }
                    let nameEnd = tagNameEnd(from: open + 2)
                    guard let end = tagEnd(from: nameEnd) else { return unsafe }
                    let tag = GumboTag.named(UnsafeBufferPointer(rebasing: bytes[(open + 2)..<nameEnd])).rawValue
                    switch tag {
                    case GUMBO_TAG_TR.rawValue:
                        place = .betweenRows
                    case GUMBO_TAG_TD.rawValue, GUMBO_TAG_TH.rawValue:
                        // An end tag of the other kind of cell is ignored, as one outside a cell is.
                        if place == .inCell(tag) { place = .inRow }
                    case GUMBO_TAG_TABLE.rawValue:
                        return region(endingAt: open)
                    case GUMBO_TAG_TBODY.rawValue, GUMBO_TAG_THEAD.rawValue, GUMBO_TAG_TFOOT.rawValue:
                        return region(endingAt: open, closing: tag)
                    default:
                        guard case .inCell = place, !TableRowRegions.unsafeInCell.contains(tag) else { return unsafe }
                    }
                    k = end
                } else {
                    // A `<` that is text, or a comment, a declaration or a processing instruction.
                    guard case .inCell = place, next != ascii("!"), next != ascii("?") else { return unsafe }
                    k = open + 1
                }
            }
        }

        // MARK: Tokens

        /// Where a tag name that starts at `start` ends (the tokenizer's tag name state).
        private func tagNameEnd(from start: Int) -> Int {
            var k = start
            while k < count && !isSpace(bytes[k]) && bytes[k] != ascii("/") && bytes[k] != ascii(">") { k += 1 }
            return k
        }

        /// The index after the `>` that ends a tag whose attributes start at `start`, following the tokenizer's
        /// attribute states so a quoted `>` does not end it; nil when the input ends inside the tag.
        private func tagEnd(from start: Int) -> Int? {
            var k = start
            while true {
                while k < count && isSpace(bytes[k]) { k += 1 }
                guard k < count else { return nil }
                let byte = bytes[k]
                if byte == ascii(">") { return k + 1 }
                if byte == ascii("/") { k += 1; continue }
                k += 1  // the first character of a name may be '='
                while k < count && !isSpace(bytes[k]) && bytes[k] != ascii("/") && bytes[k] != ascii(">")
                    && bytes[k] != ascii("=") { k += 1 }
                var afterName = k
                while afterName < count && isSpace(bytes[afterName]) { afterName += 1 }
                guard afterName < count, bytes[afterName] == ascii("=") else { continue }
                k = afterName + 1
                while k < count && isSpace(bytes[k]) { k += 1 }
                guard k < count else { return nil }
                let quote = bytes[k]
                if quote == ascii("\"") || quote == ascii("'") {
                    let close = find(quote, from: k + 1)
                    guard close < count else { return nil }
                    k = close + 1
                } else {
                    while k < count && !isSpace(bytes[k]) && bytes[k] != ascii(">") { k += 1 }
                }
            }
        }

        /// `-->` ends a comment, and so do `--!>`, `<!-->` and `<!--->`.
        private func endOfComment(from start: Int) -> Int {
            if start < count && bytes[start] == ascii(">") { return start + 1 }
            if matches("->", at: start) { return start + 2 }
            var k = start
            while k < count {
                let dash = find(ascii("-"), from: k)
                guard dash < count else { return count }
                if matches("-->", at: dash) { return dash + 3 }
                if matches("--!>", at: dash) { return dash + 4 }
                k = dash + 1
            }
            return count
        }

        private func endOfBogusComment(from start: Int) -> Int {
            let close = find(ascii(">"), from: start)
            return close < count ? close + 1 : count
        }

        /// The index of the `<` of the end tag that closes raw text named `name`, or the end of the input.
        private func endOfRawText(from start: Int, name: UnsafeBufferPointer<UInt8>) -> Int {
            var k = start
            while true {
                let open = find(ascii("<"), from: k)
                guard open + 1 < count else { return count }
                let after = open + 2 + name.count
                if bytes[open + 1] == ascii("/"), after <= count,
                   equalsIgnoringCase(UnsafeBufferPointer(rebasing: bytes[(open + 2)..<after]), name),
                   after == count || isSpace(bytes[after]) || bytes[after] == ascii("/") || bytes[after] == ascii(">") {
                    return open
                }
                k = open + 1
            }
        }

        private func find(_ byte: UInt8, from start: Int) -> Int {
            guard start < count else { return count }
            let base = bytes.baseAddress! + start
            guard let hit = memchr(base, Int32(byte), count - start) else { return count }
            return start + (UnsafeRawPointer(hit) - UnsafeRawPointer(base))
        }

        private func matches(_ needle: StaticString, at start: Int) -> Bool {
            let length = needle.utf8CodeUnitCount
            guard start >= 0, start + length <= count else { return false }
            for i in 0..<length where bytes[start + i] != needle.utf8Start[i] { return false }
            return true
        }
    }
}

extension TableRowRegions {
    /// The table section each region's marker row came out in, or nil when one did not come out as a row of a
    /// `tbody`, `thead` or `tfoot` of a table, or not once, or not in the section whose end tag ended the rows.
    static func sections(of document: GumboNodeRef, regions: [RowRegion]) -> [GumboNodeRef]? {
        var sections = [GumboNodeRef?](repeating: nil, count: regions.count)
        var stack: [GumboNodeRef] = [document]
        while let node = stack.popLast() {
            for index in 0..<node.childCount {
                let child = node.child(index)
                guard child.isElement || child.type == GUMBO_NODE_TEMPLATE else { continue }
                stack.append(child)
                guard child.tag == GUMBO_TAG_TR.rawValue, child.hasAttributes,
                      let value = child.attribute(markerName) else { continue }
                guard let region = Int(value), regions.indices.contains(region), sections[region] == nil,
                      child.isHTML, node.isElement, node.isHTML,
                      [GUMBO_TAG_TBODY.rawValue, GUMBO_TAG_THEAD.rawValue, GUMBO_TAG_TFOOT.rawValue].contains(node.tag),
                      regions[region].closingSection.map({ $0 == node.tag }) ?? true,
                      let table = node.parentElement, table.isHTML, table.tag == GUMBO_TAG_TABLE.rawValue
                else { return nil }
                sections[region] = node
            }
        }
        let found = sections.compactMap { $0 }
        return found.count == regions.count ? found : nil
    }
}

/// The rows `DocumentBuilder` parses a chunk at a time: each chunk's markup, copied out of the page's so that
/// the page's goes before the walk and each chunk's after it is parsed, and the section each region's rows
/// belong to.
struct TableRows {
    private var chunks: [[[UInt8]]]
    let sections: [GumboNodeRef]

    init(markup: [UInt8], regions: [RowRegion], sections: [GumboNodeRef]) {
        chunks = regions.map { region in region.chunks.map { Array(markup[$0]) } }
        self.sections = sections
    }

    func chunkCount(region: Int) -> Int { chunks[region].count }

    /// Chunk `chunk` of region `region`'s rows, which is let go: each chunk is parsed once.
    mutating func takeChunk(region: Int, chunk: Int) -> [UInt8] {
        defer { chunks[region][chunk] = [] }
        return chunks[region][chunk]
    }

    /// The region whose marker `row` is.
    func region(marker row: GumboNodeRef) -> Int? {
        guard let value = row.attribute(TableRowRegions.markerName), let index = Int(value),
              sections.indices.contains(index), row.node.pointee.parent == sections[index].node else { return nil }
        return index
    }
}
