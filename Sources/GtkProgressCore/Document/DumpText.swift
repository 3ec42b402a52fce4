extension Document {
    /// Columns of indentation per nesting level in plain text.
    static let dumpIndentWidth = 4

    /// The page as plain text, the way `lynx -dump` prints it: each link's text followed by its number in
    /// brackets, and a numbered list of the link targets under "References" at the end. Lists keep their bullets
    /// and numbers and nest by indentation. With a `width`, lines wrap at word boundaries, centred and
    /// right-aligned paragraphs are placed within it, and rules span it; preformatted text and tables keep their
    /// lines, and the numbers of links inside them go to the end of the line instead of into the code or the
    /// columns. Without a width each paragraph is one line.
    package func dumpText(width: Int? = nil) -> String {
        dumpText(width: width, numberLinks: true)
    }

    /// `numberLinks: false` leaves out the link numbers and the references, as `w3m -dump` prints a page.
    func dumpText(width: Int?, numberLinks: Bool) -> String {
        let storage = self.storage
        var dump = DumpWriter(width: width, capacity: storage.bytes.count * 9 / 8 + links.count * 64 + 1024)
        storage.bytes.withUnsafeBufferPointer { bytes in
            for run in 0..<storage.runCount {
                let style = storage.style(ofRun: run)
                let range = storage.range(ofRun: run)
                var segmentStart = range.lowerBound
                for k in range where bytes[k] == 0x0A {
                    dump.append(UnsafeBufferPointer(rebasing: bytes[segmentStart..<k]), style: style)
                    dump.endLine()
                    segmentStart = k + 1
                }
                dump.append(UnsafeBufferPointer(rebasing: bytes[segmentStart..<range.upperBound]), style: style)
                if numberLinks, let link = style.link,
                   run + 1 == storage.runCount || storage.style(ofRun: run + 1).link != link {
                    dump.appendLinkNumber(link + 1, preformatted: style.preformatted)
                }
            }
        }
        dump.endLine()
        dump.trimTrailingBlankLines()
        if numberLinks && !links.isEmpty {
            dump.appendReferences(links.map(\.absoluteString))
        }
        return String(decoding: dump.out, as: UTF8.self)
    }
}

/// One paragraph line being wrapped: the output line being filled and its columns.
private struct LineWrapper {
    let width: Int
    let indent: Int
    let alignment: TextAlignment
    var current: [UInt8] = []
    var columns = 0
    var lineIndent: Int

    init(width: Int, indent: Int, firstIndent: Int, alignment: TextAlignment) {
        self.width = width
        self.indent = indent
        self.alignment = alignment
        lineIndent = firstIndent
    }

    mutating func flush(into out: inout [UInt8]) {
        let room = max(0, width - lineIndent - columns)
        let shift = alignment == .center ? room / 2 : alignment == .right ? room : 0
        let spaces = lineIndent + shift
        if spaces > 0 { out.append(contentsOf: repeatElement(0x20, count: spaces)) }
        out.append(contentsOf: current)
        out.append(0x0A)
        current.removeAll(keepingCapacity: true)
        columns = 0
        lineIndent = indent
    }

    mutating func place(_ piece: UnsafeBufferPointer<UInt8>, _ pieceColumns: Int, spaced: Bool,
                        into out: inout [UInt8]) {
        let gap = spaced ? 1 : 0
        if !current.isEmpty && lineIndent + columns + gap + pieceColumns > width { flush(into: &out) }
        if !current.isEmpty && spaced {
            current.append(0x20)
            columns += 1
        }
        current.append(contentsOf: piece)
        columns += pieceColumns
    }
}

/// Collects one line at a time, then writes it with its indentation, wrapped and aligned if asked.
private struct DumpWriter {
    let width: Int?
    var out: [UInt8] = []
    private var line: [UInt8] = []
    private var lineStyle: TextStyle?
    /// The list marker that starts the line hangs in its indentation.
    private var markerColumns = 0
    private var markerBytes = 0
    private var preformatted = false
    /// Numbers of links in a preformatted line, written at its end.
    private var deferredNumbers: [UInt8] = []

    init(width: Int?, capacity: Int) {
        self.width = width
        out.reserveCapacity(capacity)
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, style: TextStyle) {
        guard !bytes.isEmpty else { return }
        if lineStyle == nil { lineStyle = style }
        if style.listMarker && line.count == markerBytes {
            markerBytes += bytes.count
            markerColumns += displayColumns(bytes)
        }
        if style.preformatted { preformatted = true }
        line.append(contentsOf: bytes)
    }

    /// The number goes right after the link's last word, before any space the link text ended with; in
    /// preformatted text it waits for the end of the line.
    mutating func appendLinkNumber(_ number: Int, preformatted: Bool) {
        let label = Array("[\(number)]".utf8)
        if preformatted {
            deferredNumbers += label
            return
        }
        var spaces = 0
        while let last = line.last, last == 0x20 { line.removeLast(); spaces += 1 }
        line.append(contentsOf: label)
        line.append(contentsOf: repeatElement(0x20, count: spaces))
    }

    mutating func endLine() {
        defer {
            line.removeAll(keepingCapacity: true)
            deferredNumbers.removeAll(keepingCapacity: true)
            lineStyle = nil
            markerColumns = 0
            markerBytes = 0
            preformatted = false
        }
        while let last = line.last, last == 0x20 || last == 0x09 { line.removeLast() }
        if !deferredNumbers.isEmpty {
            if !line.isEmpty { line.append(0x20) }
            line += deferredNumbers
        }
        guard !line.isEmpty else { out.append(0x0A); return }
        let indent = Document.dumpIndentWidth * (lineStyle?.indent ?? 0)
        let firstIndent = max(0, indent - markerColumns)
        if lineStyle?.rule == true {
            // A rule spans the text width, whatever characters stand for it.
            appendSpaces(indent)
            let columns = max(1, (width ?? Document.defaultLayoutWidth) - indent)
            for _ in 0..<columns { out += [0xE2, 0x94, 0x80] }  // ─
            out.append(0x0A)
            return
        }
        guard let width, !preformatted else {
            appendSpaces(firstIndent)
            out.append(contentsOf: line)
            out.append(0x0A)
            return
        }
        wrap(firstIndent: firstIndent, indent: indent, width: max(width, indent + 16),
             alignment: lineStyle?.alignment ?? .left)
    }

    /// Greedy word wrap; a word longer than the line gets a line of its own. Centred and right-aligned lines are
    /// placed in the room their indentation leaves.
    private mutating func wrap(firstIndent: Int, indent: Int, width: Int, alignment: TextAlignment) {
        var wrapper = LineWrapper(width: width, indent: indent, firstIndent: firstIndent, alignment: alignment)
        // The output moves out of `self` while `line` is read, so the two accesses never overlap.
        var out: [UInt8] = []
        swap(&out, &self.out)
        defer { swap(&out, &self.out) }
        line.withUnsafeBufferPointer { bytes in
            var k = 0
            let count = bytes.count
            while k < count {
                if bytes[k] == 0x20 { k += 1; continue }
                var end = k
                var mayBeWide = false
                while end < count && bytes[end] != 0x20 {
                    if bytes[end] >= 0xE1 { mayBeWide = true }
                    end += 1
                }
                guard mayBeWide else {
                    let word = UnsafeBufferPointer(rebasing: bytes[k..<end])
                    wrapper.place(word, displayColumns(word), spaced: true, into: &out)
                    k = end
                    continue
                }
                // East Asian text has no spaces: a line may break before and after each wide character, as
                // w3m breaks it (UAX #14's ideographic class, without its finer rules).
                var spaced = true
                var piece = k
                var pieceColumns = 0
                var j = k
                while j < end {
                    let length = utf8Length(bytes[j])
                    let character = UnsafeBufferPointer(rebasing: bytes[j..<min(end, j + length)])
                    let characterColumns = displayColumns(character)
                    if characterColumns == 2 {
                        if j > piece {
                            wrapper.place(UnsafeBufferPointer(rebasing: bytes[piece..<j]), pieceColumns, spaced: spaced,
                                          into: &out)
                            spaced = false
                        }
                        wrapper.place(character, 2, spaced: spaced, into: &out)
                        spaced = false
                        piece = j + character.count
                        pieceColumns = 0
                    } else {
                        pieceColumns += characterColumns
                    }
                    j += character.count
                }
                if end > piece {
                    wrapper.place(UnsafeBufferPointer(rebasing: bytes[piece..<end]), pieceColumns, spaced: spaced,
                                  into: &out)
                }
                k = end
            }
        }
        wrapper.flush(into: &out)
    }

    mutating func trimTrailingBlankLines() {
        while out.count >= 2 && out[out.count - 1] == 0x0A && out[out.count - 2] == 0x0A { out.removeLast() }
        if out == [0x0A] { out.removeAll() }
    }

    mutating func appendReferences(_ urls: [String]) {
        if !out.isEmpty { out.append(0x0A) }
        out.append(contentsOf: Array("References\n\n".utf8))
        for (index, url) in urls.enumerated() {
            let number = String(index + 1)
            appendSpaces(max(0, 4 - number.count))
            out.append(contentsOf: Array("\(number). \(url)\n".utf8))
        }
    }

    private mutating func appendSpaces(_ count: Int) {
        if count > 0 { out.append(contentsOf: repeatElement(0x20, count: count)) }
    }
}

/// Terminal columns the UTF-8 text takes: one per character, two for East Asian wide ones.
func displayColumns(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var columns = 0
    var k = 0
    let count = bytes.count
    while k < count {
        let lead = bytes[k]
        if lead < 0x80 { columns += 1; k += 1; continue }
        var length = 1
        var scalar = UInt32(lead)
        if lead >= 0xF0 { length = 4; scalar &= 0x07 } else if lead >= 0xE0 { length = 3; scalar &= 0x0F }
        else if lead >= 0xC0 { length = 2; scalar &= 0x1F }
        var j = 1
        while j < length && k + j < count { scalar = scalar << 6 | UInt32(bytes[k + j] & 0x3F); j += 1 }
        columns += isWide(scalar) ? 2 : 1
        k += length
    }
    return columns
}

/// The length of the UTF-8 sequence that starts with `lead` (1 for a stray continuation byte).
func utf8Length(_ lead: UInt8) -> Int {
    lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
}

/// Whether `scalar` takes two columns: East_Asian_Width Wide or Fullwidth (UAX #11), which includes the emoji
/// shown as pictures by default (🚀, ☕, ⚡). The one width rule of the project: `--dump`, table columns and the
/// page view's monospace runs all ask it. The table is generated from the Unicode Character Database
/// (scripts/east-asian-width.py).
package func isWide(_ scalar: UInt32) -> Bool {
    guard scalar >= 0x1100 else { return false }
    var low = 0, high = eastAsianWideRanges.count - 1
    while low <= high {
        let middle = (low + high) / 2
        let range = eastAsianWideRanges[middle]
        if scalar < range.lowerBound { high = middle - 1 } else if scalar > range.upperBound { low = middle + 1 } else {
            return true
        }
    }
    return false
}
