extension Document {
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
        var out: [UInt8] = []
        var stream = DumpStream(width: width, numberLinks: numberLinks,
                                capacity: storage.bytes.count * 9 / 8 + links.count * 64 + 1024)
        stream.take(storage)
        stream.finish(links: links)
        stream.hand { out.append(contentsOf: $0) }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The dump written as the text arrives: the runs of each stretch of finished lines (`take`), then the end of the
/// page and its references (`finish`). A page read in stretches prints what the same page read whole prints: a
/// link's number waits for the next run, which may come in the next stretch, to know whether the link goes on.
struct DumpStream {
    private var dump: DumpWriter
    private let numberLinks: Bool
    /// The link the last run was part of, and whether it was preformatted: its number is written before a run
    /// not in it, or at the end.
    private var openLink: (link: Int, preformatted: Bool)?

    init(width: Int?, numberLinks: Bool = true, capacity: Int = 1 << 16) {
        dump = DumpWriter(width: width, capacity: capacity)
        self.numberLinks = numberLinks
    }

    /// Bytes of output ready to be handed on (`hand`).
    var pendingBytes: Int { dump.out.count }

    mutating func take(_ storage: RunStorage) {
        storage.bytes.withUnsafeBufferPointer { bytes in
            for run in 0..<storage.runCount {
                let style = storage.style(ofRun: run)
                if let open = openLink, style.link != open.link {
                    dump.appendLinkNumber(open.link + 1, preformatted: open.preformatted)
                }
                openLink = nil
                let range = storage.range(ofRun: run)
                var segmentStart = range.lowerBound
                for k in range where bytes[k] == 0x0A {
                    dump.append(UnsafeBufferPointer(rebasing: bytes[segmentStart..<k]), style: style)
                    dump.endLine()
                    segmentStart = k + 1
                }
                dump.append(UnsafeBufferPointer(rebasing: bytes[segmentStart..<range.upperBound]), style: style)
                if numberLinks, let link = style.link { openLink = (link, style.preformatted) }
            }
        }
    }

    /// Ends the page: the last link's number, the last line, and the references.
    mutating func finish(links: LinkTable) {
        if let open = openLink { dump.appendLinkNumber(open.link + 1, preformatted: open.preformatted) }
        openLink = nil
        dump.endLine()
        dump.trimTrailingBlankLines()
        if numberLinks && !links.isEmpty {
            dump.appendReferences(links)
        }
    }

    /// Gives `body` the output written so far and lets it go, but for the line breaks at its end, which the end
    /// of the page may still trim (`finish`): call it again after `finish` for the rest.
    mutating func hand(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        dump.handOut(body)
    }
}

/// Collects one line at a time, then writes it with its indentation, wrapped and aligned if asked.
private struct DumpWriter {
    let width: Int?
    private(set) var out: [UInt8] = []
    /// Output already handed on (`handOut`): the page is not empty, and only the line breaks at the end of
    /// `out` may still be trimmed.
    private var handedOut = false
    private var finished = false
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
            markerColumns += TextColumns.columns(bytes)
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
        let indent = Indentation.columns(level: lineStyle?.indent ?? 0)
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

    /// The line wrapped at `width` (`TextColumns.wrap`), each output line placed after its indentation: centred
    /// and right-aligned lines within the room the indentation leaves.
    private mutating func wrap(firstIndent: Int, indent: Int, width: Int, alignment: TextAlignment) {
        // The output moves out of `self` while `line` is read, so the two accesses never overlap.
        var out: [UInt8] = []
        swap(&out, &self.out)
        defer { swap(&out, &self.out) }
        var lineIndent = firstIndent
        line.withUnsafeBufferPointer { bytes in
            TextColumns.wrap(bytes, firstLine: width - firstIndent, otherLines: width - indent) { range, columns in
                let room = max(0, width - lineIndent - columns)
                let shift = alignment == .center ? room / 2 : alignment == .right ? room : 0
                if lineIndent + shift > 0 { out.append(contentsOf: repeatElement(0x20, count: lineIndent + shift)) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
                out.append(0x0A)
                lineIndent = indent
            }
        }
    }

    mutating func trimTrailingBlankLines() {
        while out.count >= 2 && out[out.count - 1] == 0x0A && out[out.count - 2] == 0x0A { out.removeLast() }
        if out == [0x0A] && !handedOut { out.removeAll() }
        finished = true
    }

    /// `out` to `body`, then emptied; until the page is finished, its trailing line breaks stay (at least one,
    /// so `trimTrailingBlankLines` still sees a line end before them).
    mutating func handOut(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var keep = 0
        if !finished {
            while keep < out.count && out[out.count - 1 - keep] == 0x0A { keep += 1 }
            if keep == out.count { return }
            keep = min(keep + 1, out.count)
        }
        out.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<(out.count - keep)])) }
        handedOut = true
        out.removeSubrange(..<(out.count - keep))
    }

    /// The numbered list of the links' addresses, written from the table's bytes (no string per link).
    mutating func appendReferences(_ links: LinkTable) {
        if !out.isEmpty || handedOut { out.append(0x0A) }
        out.append(contentsOf: "References\n\n".utf8)
        for index in links.indices {
            let number = index + 1
            var digits = 1, rest = number
            while rest >= 10 {
                rest /= 10
                digits += 1
            }
            appendSpaces(max(0, 4 - digits))
            appendDecimal(number, to: &out)
            out.append(contentsOf: ". ".utf8)
            links.withBytes(at: index) { out.append(contentsOf: $0) }
            out.append(0x0A)
        }
    }

    private mutating func appendSpaces(_ count: Int) {
        if count > 0 { out.append(contentsOf: repeatElement(0x20, count: count)) }
    }
}

/// `--dump` written out while the page is read: the lines the document builder finishes go through a
/// `DumpStream` to `write` in stretches, so a long page is not held whole, as text and as output, before the first
/// byte is printed.
final class DumpOutput {
    private var stream: DumpStream
    private let write: (UnsafeBufferPointer<UInt8>) -> Void
    /// The builder hands on its finished lines, and output goes to `write`, in stretches of about this many bytes.
    let stretchBytes: Int

    init(width: Int?, stretchBytes: Int = 1 << 16, write: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.stretchBytes = max(stretchBytes, 1)
        stream = DumpStream(width: width, capacity: min(self.stretchBytes, 1 << 20) * 5 / 4)
        self.write = write
    }

    func take(_ lines: RunStorage) {
        stream.take(lines)
        if stream.pendingBytes >= stretchBytes { stream.hand(write) }
    }

    /// The rest of the page (the document's own text) and its references.
    func finish(_ document: Document) {
        stream.take(document.storage)
        stream.finish(links: document.links)
        stream.hand(write)
    }
}
