/// Appends text in styled runs, collapsing whitespace as a browser lays out inline text: runs of spaces become
/// one, spaces at the start and end of a line vanish, and block boundaries become line breaks (a blank line
/// between paragraphs) no matter how many nested blocks end or start at the same place.
struct RunWriter {
    private var bytes: [UInt8] = []
    private var runEnds: [Int] = []
    private var runStyles: [Int32] = []
    private var runLinks: [Int32] = []
    /// The distinct styles, without their link (`RunStorage`).
    private var styles: [TextStyle] = [TextStyle()]
    private var styleIDs: [TextStyle: Int32] = [TextStyle(): 0]
    private var current = StyleHandle.plain

    /// Nothing yet on the current line.
    private(set) var atLineStart = true
    /// A space here would collapse into the previous one (or into a list marker).
    private var suppressSpace = true
    /// The last byte is a collapsible space that goes if the line ends.
    private var trailingSpace = false
    private var trailingNewlines = 0
    /// Line breaks owed before the next content: 1 ends the line, 2 leaves a blank line.
    private var pendingBreak = 0
    /// A list marker was just written: blocks opening inside the item start on the marker's line.
    private var afterListMarker = false
    private var previousWasCarriageReturn = false
    /// Where the piece being written starts: 0, or the start of the current table cell when one writer holds all
    /// the cells of a table one after the other (`startCell`), so that a cell begins as a fresh page would.
    private var pieceStart = 0

    /// Where the line being written starts in `bytes`.
    private var lineStart = 0
    /// `bytes[lineStart..<characterMark]` holds `markCharacters` characters, and `bytes[lineStart..<columnMark]`
    /// `markColumns` columns: counted once when a long line or a tab needs them and carried forward from there, so
    /// no byte of a line is counted twice however many tabs or breaks it has.
    private var characterMark = 0
    private var markCharacters = 0
    private var columnMark = 0
    private var markColumns = 0
    /// Non-starters in a row at the end of the text (UAX #15 §13's count); past `maximumNonStarters` they go.
    private var nonStarters = 0

    /// A line longer than this many characters is broken in the model: GTK's text view has Pango lay out each
    /// paragraph as a whole, on every change and redraw, so a 10 MB line froze the window for seconds; breaking
    /// it here, not in the view, keeps the window, `--dump` and find (whose offsets are the model's) in agreement.
    static let longestLine = 2000
    /// The break goes at the last space among this many bytes before the limit; with none there, at the limit.
    static let breakSearch = 256
    /// Tab stops every 8 columns, w3m's default (`Tabstop` in its fm.h).
    static let tabStop = 8
    /// UAX #15 §13 (Stream-Safe Text Format): no more than 30 non-starters in a row. Longer runs are stacks of
    /// marks no script needs ("Zalgo" text): one cluster, however many marks, that is shaped, measured and
    /// painted as a whole, and drawn far above and below its line.
    static let maximumNonStarters = 30

    /// `capacity`: the text's likely size (a page's text is rarely longer than its markup). Reserving it up front
    /// spares copying a growing buffer; reserved pages that stay unused cost no memory.
    init(capacity: Int = 1 << 12) { bytes.reserveCapacity(capacity) }

    var style: TextStyle {
        get {
            var style = styles[Int(current.style)]
            if current.link >= 0 { style.link = Int(current.link) }
            return style
        }
        set {
            current.link = newValue.link.map { Int32($0) } ?? -1
            var bare = newValue
            bare.link = nil
            if bare == styles[Int(current.style)] { return }
            if let id = styleIDs[bare] {
                current.style = id
            } else {
                current.style = Int32(styles.count)
                styleIDs[bare] = current.style
                styles.append(bare)
            }
        }
    }

    /// The current style and link, to restore them later without looking them up again.
    var styleID: StyleHandle {
        get { current }
        set { current = newValue }
    }

    /// Bytes written so far, those `drainFinishedLines` took out included: offsets the builder keeps (anchors,
    /// where a link's text starts) count from the start of the text, drained or not.
    var byteCount: Int { drained + bytes.count }

    /// Bytes taken out by `drainFinishedLines`.
    private(set) var drained = 0

    /// Bytes held now: what `drainFinishedLines` would hand on is at most this.
    var heldBytes: Int { bytes.count }

    /// The text written since `offset` (nil when `offset` is not in this writer's text, or was drained).
    func text(since offset: Int) -> String? {
        let offset = offset - drained
        guard offset >= 0, offset <= bytes.count else { return nil }
        return String(decoding: bytes[offset...], as: UTF8.self)
    }

    /// Whether anything but spaces and line breaks was written since `offset` (not yet drained).
    func hasVisibleText(since offset: Int) -> Bool {
        bytes[max(0, offset - drained)...].contains { !isSpace($0) }
    }

    /// Takes out the lines already ended (everything before the line being written), in storage of their own,
    /// runs split where the cut falls; nil when there are none. Nothing written later can change them: a break
    /// for length, a trimmed space and the owed breaks all act on the current line or after it. The writer goes
    /// on as if they were still there (`byteCount` counts them), so a page can be printed as it is read
    /// (`DumpStream`) with its finished lines let go.
    /// `links`: each run's link as the lines go out (nil: none).
    mutating func drainFinishedLines(links: (Int) -> Int?) -> RunStorage? {
        let cut = lineStart
        guard cut > 0, !runEnds.isEmpty else { return nil }
        // The runs that end at or before the cut go whole; the one the cut falls in is split.
        var whole = 0
        while whole < runEnds.count && runEnds[whole] <= cut { whole += 1 }
        var endsOut = Array(runEnds[..<whole])
        var stylesOut = Array(runStyles[..<whole])
        var linksOut = runLinks[..<whole].map { $0 < 0 ? -1 : links(Int($0)).map { Int32($0) } ?? -1 }
        let splits = whole < runEnds.count && (whole == 0 ? 0 : runEnds[whole - 1]) < cut
        if splits {
            endsOut.append(cut)
            stylesOut.append(runStyles[whole])
            linksOut.append(runLinks[whole] < 0 ? -1 : links(Int(runLinks[whole])).map { Int32($0) } ?? -1)
        }
        let out = RunStorage(bytes: Array(bytes[..<cut]), runEnds: endsOut, runStyles: stylesOut,
                             runLinks: linksOut, styles: styles)
        bytes.removeSubrange(..<cut)
        runEnds.removeSubrange(..<whole)
        runStyles.removeSubrange(..<whole)
        runLinks.removeSubrange(..<whole)
        for index in runEnds.indices { runEnds[index] -= cut }
        drained += cut
        lineStart -= cut
        characterMark -= cut
        columnMark -= cut
        pieceStart -= cut
        return out
    }

    // MARK: Blocks

    /// Asks for `lines` line breaks (1 or 2) before whatever comes next.
    mutating func requestBreak(_ lines: Int) {
        guard !afterListMarker else { return }
        pendingBreak = max(pendingBreak, lines)
    }

    /// `<br>`: ends the line even when it is empty.
    mutating func lineBreak() {
        guard bytes.count > pieceStart else { return }
        flushPendingBreak()
        afterListMarker = false
        trimTrailingSpace()
        appendNewline()
    }

    /// Ends a list item, even one that held nothing but its marker.
    mutating func endListItem() {
        afterListMarker = false
        requestBreak(1)
    }

    /// Writes the line breaks owed now, as the next content would; returns where that content starts.
    mutating func startContent() -> Int {
        beginContent()
        return byteCount
    }

    /// Appends a line laid out elsewhere (a row of a table), as it is, and ends it.
    mutating func appendLaidOutLine(_ pieces: [LaidOutPiece]) {
        beginContent()
        let saved = current
        for piece in pieces {
            style = piece.style
            piece.bytes.withUnsafeBufferPointer { appendBytes($0) }
        }
        current = saved
        appendNewline()
    }

    /// Appends text another writer finished (a table cell read as flowing text): its line breaks kept, each run
    /// in its style as `restyle` adjusts it.
    /// `objects`: where U+FFFC object characters (pictures, controls) stand in `storage`, in order; `placed` is
    /// told the offset each one gets here (by its index in `objects`).
    mutating func appendFinished(_ storage: RunStorage, bytes piece: Range<Int>, objects: [Int] = [],
                                 placed: (Int, Int) -> Void = { _, _ in },
                                 restyle: (TextStyle) -> TextStyle) {
        guard !piece.isEmpty else { return }
        beginContent()
        let saved = current
        var next = 0
        storage.bytes.withUnsafeBufferPointer { bytes in
            var run = storage.run(containing: piece.lowerBound)
            while run < storage.runCount, storage.range(ofRun: run).lowerBound < piece.upperBound {
                defer { run += 1 }
                let whole = storage.range(ofRun: run)
                let range = max(whole.lowerBound, piece.lowerBound)..<min(whole.upperBound, piece.upperBound)
                guard !range.isEmpty else { continue }
                style = restyle(storage.style(ofRun: run))
                var start = range.lowerBound
                guard next < objects.count else {
                    for k in range where bytes[k] == 0x0A {
                        appendBytes(UnsafeBufferPointer(rebasing: bytes[start..<k]))
                        appendNewline()
                        start = k + 1
                    }
                    appendBytes(UnsafeBufferPointer(rebasing: bytes[start..<range.upperBound]))
                    continue
                }
                var k = range.lowerBound
                while k < range.upperBound {
                    if bytes[k] == 0x0A {
                        appendBytes(UnsafeBufferPointer(rebasing: bytes[start..<k]))
                        appendNewline()
                        k += 1
                        start = k
                    } else if next < objects.count && objects[next] == k && k + 3 <= range.upperBound {
                        // The object is the last character appended: a line broken for length breaks before it.
                        appendBytes(UnsafeBufferPointer(rebasing: bytes[start..<(k + 3)]))
                        placed(next, byteCount - 3)
                        next += 1
                        k += 3
                        start = k
                    } else {
                        k += 1
                    }
                }
                appendBytes(UnsafeBufferPointer(rebasing: bytes[start..<range.upperBound]))
            }
        }
        current = saved
        suppressSpace = atLineStart
        trailingSpace = false
    }

    /// Writes a list item's bullet or number at the start of a line, in the list-marker style.
    mutating func appendListMarker(_ marker: UnsafeBufferPointer<UInt8>) {
        beginContent()
        let saved = style
        var markerStyle = saved
        markerStyle.listMarker = true
        markerStyle.link = nil
        style = markerStyle
        appendBytes(marker)
        appendBytes(" ")
        style = saved
        suppressSpace = true
        trailingSpace = false
        afterListMarker = true
    }

    // MARK: Text

    /// The last character written, if any (for `text-transform: capitalize`, whose words run across elements).
    /// Nil after a requested line break, which ends any word.
    var lastScalar: Unicode.Scalar? {
        guard pendingBreak == 0, var k = bytes.indices.last else { return nil }
        while k > 0 && bytes[k] & 0xC0 == 0x80 && bytes.count - k < 4 { k -= 1 }
        var decoder = UTF8()
        var iterator = bytes[k...].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }

    /// Appends text whose whitespace collapses.
    mutating func appendText(_ text: UnsafeBufferPointer<UInt8>) {
        let count = text.count
        var k = 0
        while k < count {
            if isSpace(text[k]) {
                repeat { k += 1 } while k < count && isSpace(text[k])
                nonStarters = 0
                if !suppressSpace && pendingBreak == 0 {
                    appendBytes(" ")
                    suppressSpace = true
                    trailingSpace = true
                }
                continue
            }
            // Words separated by single spaces need no collapsing: copy them in one piece.
            let wordsStart = k
            var wordsEnd = k
            while k < count {
                let byte = text[k]
                if byte == 0x20 {
                    if k + 1 < count && !isSpace(text[k + 1]) { k += 1; continue }
                    break
                }
                if isSpace(byte) { break }
                k += 1
                wordsEnd = k
            }
            beginContent()
            appendChecked(UnsafeBufferPointer(rebasing: text[wordsStart..<wordsEnd]), expandTabs: false)
        }
    }

    mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { appendText($0) }
    }

    /// Appends text that keeps its spaces and line breaks (`<pre>`).
    mutating func appendPreformatted(_ text: UnsafeBufferPointer<UInt8>) {
        let count = text.count
        guard count > 0 else { return }
        beginContent()
        var k = 0
        var segmentStart = 0
        while k < count {
            let byte = text[k]
            if byte == 0x0A || byte == 0x0D {
                appendChecked(UnsafeBufferPointer(rebasing: text[segmentStart..<k]), expandTabs: true)
                if !(byte == 0x0A && previousWasCarriageReturn && k == segmentStart) { appendNewline(inCode: true) }
                previousWasCarriageReturn = byte == 0x0D
                k += 1
                segmentStart = k
            } else {
                previousWasCarriageReturn = false
                k += 1
            }
        }
        appendChecked(UnsafeBufferPointer(rebasing: text[segmentStart..<count]), expandTabs: true)
        suppressSpace = false
        trailingSpace = false
    }

    /// Called before anything visible: pays owed line breaks.
    private mutating func beginContent() {
        flushPendingBreak()
        afterListMarker = false
        suppressSpace = false
        trailingSpace = false
    }

    private mutating func flushPendingBreak() {
        guard pendingBreak > 0 else { return }
        if bytes.count > pieceStart {
            trimTrailingSpace()
            var owed = pendingBreak - trailingNewlines
            while owed > 0 { appendNewline(); owed -= 1 }
        }
        pendingBreak = 0
    }

    // MARK: Characters

    /// Appends text, trimming runs of combining marks past the stream-safe limit and, in preformatted text,
    /// expanding tabs. Bytes below 0xCC encode only characters below U+0300 (or continue a sequence), none of
    /// them a mark, so most text is copied in pieces without being decoded.
    private mutating func appendChecked(_ text: UnsafeBufferPointer<UInt8>, expandTabs: Bool) {
        let count = text.count
        var copied = 0
        var k = 0
        while k < count {
            let byte = text[k]
            if byte < 0x80 {
                nonStarters = 0
                if byte == 0x09 && expandTabs {
                    appendBytes(UnsafeBufferPointer(rebasing: text[copied..<k]))
                    appendTab()
                    copied = k + 1
                }
                k += 1
                continue
            }
            if byte < 0xCC {
                if byte >= 0xC0 { nonStarters = 0 }
                k += 1
                continue
            }
            let (scalar, length) = decodeScalar(text, at: k)
            if isNonStarter(scalar) {
                nonStarters += 1
                if nonStarters > Self.maximumNonStarters {
                    appendBytes(UnsafeBufferPointer(rebasing: text[copied..<k]))
                    // One U+2026 stands for the marks left out, once per run: the usual sign of text omitted,
                    // a starter (so what stays is stream-safe, the marks kept still stack on their base), one
                    // column wide in every font. UAX #15 inserts U+034F instead, which shows nothing.
                    if nonStarters == Self.maximumNonStarters + 1 { appendBytes("…") }
                    copied = k + length
                }
            } else {
                nonStarters = 0
            }
            k += length
        }
        appendBytes(UnsafeBufferPointer(rebasing: text[copied..<count]))
    }

    /// Spaces up to the next tab stop, by the column of the line as the model holds it (w3m's `HTMLlineproc0`
    /// in file.c pushes spaces until `(indent + pos) % Tabstop == 0`; here indentation is a style, drawn as a
    /// margin by the view and as spaces by the dump, so the column counts from the line's own start and the
    /// two agree). Pango would otherwise lay out the tab stops again on every redraw.
    private mutating func appendTab() {
        let spaces = Self.tabStop - lineColumns() % Self.tabStop
        let eight: StaticString = "        "
        appendBytes(UnsafeBufferPointer(start: eight.utf8Start, count: spaces))
    }

    /// Display columns of the line written so far: wide characters take two, combining marks none, as in a
    /// terminal and in the view's monospace face.
    private mutating func lineColumns() -> Int {
        if columnMark < lineStart || columnMark > bytes.count {
            columnMark = lineStart
            markColumns = 0
        }
        bytes.withUnsafeBufferPointer { bytes in
            markColumns += TextColumns.columns(UnsafeBufferPointer(rebasing: bytes[columnMark...]))
        }
        columnMark = bytes.count
        return markColumns
    }

    /// Characters of the line written so far.
    private mutating func lineCharacters() -> Int {
        if characterMark < lineStart || characterMark > bytes.count {
            characterMark = lineStart
            markCharacters = 0
        }
        bytes.withUnsafeBufferPointer { bytes in
            for k in characterMark..<bytes.count where bytes[k] & 0xC0 != 0x80 { markCharacters += 1 }
        }
        characterMark = bytes.count
        return markCharacters
    }

    // MARK: Bytes

    /// `inCode`: a line break inside preformatted text (a code block's, a `text/plain` page's) keeps the text's
    /// style, without its link, so an empty line in it is part of the block (a view paints a paragraph's background
    /// and sets its line's height by the style of its first character), and a page of short lines is one run, not
    /// two a line. Every other line break is in the plain style.
    private mutating func appendNewline(inCode: Bool = false) {
        let saved = current
        let style = styles[Int(current.style)]
        current = inCode && (style.code || style.preformatted) ? StyleHandle(style: current.style, link: -1) : .plain
        appendBytes("\n")
        current = saved
        trailingNewlines += 1
        atLineStart = true
        suppressSpace = true
        trailingSpace = false
        nonStarters = 0
    }

    private mutating func appendBytes(_ literal: StaticString) {
        appendBytes(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends bytes, breaking the line where it grows past `longestLine` characters. A line can hold no more
    /// characters than bytes, so text that keeps its line within that many bytes is copied without a look.
    private mutating func appendBytes(_ text: UnsafeBufferPointer<UInt8>) {
        guard !text.isEmpty else { return }
        if bytes.count - lineStart + text.count <= Self.longestLine {
            appendToRuns(text)
            if text.count == 1 && text[0] == 0x0A { startLine(at: bytes.count) }
            return
        }
        var characters = lineCharacters()
        var copied = 0
        for k in 0..<text.count {
            let byte = text[k]
            if byte & 0xC0 == 0x80 { continue }
            if byte == 0x0A {
                appendToRuns(UnsafeBufferPointer(rebasing: text[copied...k]))
                copied = k + 1
                startLine(at: bytes.count)
                characters = 0
                continue
            }
            if characters >= Self.longestLine && mayBreak(before: text, at: k, characters: characters) {
                appendToRuns(UnsafeBufferPointer(rebasing: text[copied..<k]))
                copied = k
                breakLine()
                characters = lineCharacters()
            }
            characters += 1
        }
        appendToRuns(UnsafeBufferPointer(rebasing: text[copied...]))
        characterMark = bytes.count
        markCharacters = characters
    }

    /// Whether an overlong line may break before the character at `text[k]`: not before a combining mark, which
    /// would leave its base behind, and not before a space while the line is only a little too long, since the
    /// next character will find that space to break at. Past twice the limit it breaks anyway, before any
    /// character.
    private func mayBreak(before text: UnsafeBufferPointer<UInt8>, at k: Int, characters: Int) -> Bool {
        if characters >= 2 * Self.longestLine { return true }
        let byte = text[k]
        if byte == 0x20 { return characters >= Self.longestLine + Self.breakSearch }
        if byte < 0xCC { return true }
        return !isCombining(decodeScalar(text, at: k).scalar)
    }

    /// Ends the line at its last space among the last `breakSearch` bytes (the space becomes the line break, as
    /// when a browser wraps), or else here, between two characters.
    private mutating func breakLine() {
        let searchStart = max(lineStart, bytes.count - Self.breakSearch)
        if let space = bytes[searchStart...].lastIndex(of: 0x20) {
            bytes[space] = 0x0A
            if space == bytes.count - 1 { trailingSpace = false }
            startLine(at: space + 1)
        } else {
            let newline: StaticString = "\n"
            appendToRuns(UnsafeBufferPointer(start: newline.utf8Start, count: 1))
            startLine(at: bytes.count)
        }
    }

    private mutating func startLine(at offset: Int) {
        lineStart = offset
        characterMark = offset
        markCharacters = 0
        columnMark = offset
        markColumns = 0
    }

    private mutating func appendToRuns(_ text: UnsafeBufferPointer<UInt8>) {
        guard !text.isEmpty else { return }
        bytes.append(contentsOf: text)
        if runStyles.last == current.style && runLinks.last == current.link {
            runEnds[runEnds.count - 1] = bytes.count
        } else {
            runEnds.append(bytes.count)
            runStyles.append(current.style)
            runLinks.append(current.link)
        }
        if text.count != 1 || text[0] != 0x0A {
            trailingNewlines = 0
            atLineStart = false
        }
    }

    private mutating func trimTrailingSpace() {
        guard trailingSpace else { return }
        trailingSpace = false
        bytes.removeLast()
        let last = runEnds.count - 1
        runEnds[last] -= 1
        if runEnds[last] == (last == 0 ? 0 : runEnds[last - 1]) {
            runEnds.removeLast()
            runStyles.removeLast()
            runLinks.removeLast()
        }
    }

    /// Starts a table cell after the cells already written: its text begins as a fresh writer's would (no
    /// break owed, spaces at its start collapsed), in `style`. One writer per table holds every cell in one byte
    /// buffer, so a cell costs its bytes and a range, not a storage of its own (a table of 100,000 rows has
    /// millions of cells).
    mutating func startCell(style: TextStyle) {
        trimTrailingSpace()
        pieceStart = bytes.count
        atLineStart = true
        suppressSpace = true
        trailingSpace = false
        trailingNewlines = 0
        pendingBreak = 0
        afterListMarker = false
        previousWasCarriageReturn = false
        nonStarters = 0
        startLine(at: bytes.count)
        current = .plain
        self.style = style
    }

    /// Ends the cell `startCell` began: its bytes, without a trailing space; owed line breaks are dropped.
    mutating func finishCell() -> Range<Int> {
        trimTrailingSpace()
        pendingBreak = 0
        return pieceStart..<bytes.count
    }

    /// The finished text: line breaks owed at the very end are dropped, and so is a trailing space.
    mutating func finish() -> RunStorage {
        trimTrailingSpace()
        return RunStorage(bytes: bytes, runEnds: runEnds, runStyles: runStyles, runLinks: runLinks, styles: styles)
    }

    /// Renumbers the runs' links once all links are resolved (nil: the link goes).
    mutating func remapLinks(_ transform: (Int) -> Int?) {
        for i in runLinks.indices where runLinks[i] >= 0 {
            runLinks[i] = transform(Int(runLinks[i])).map { Int32($0) } ?? -1
        }
    }
}

/// A style of `RunWriter`'s table and a link (-1: none): what a run is written in.
struct StyleHandle: Equatable {
    var style: Int32
    var link: Int32
    static let plain = StyleHandle(style: 0, link: -1)
}

/// The length of the UTF-8 sequence that starts with `lead` (1 for a stray continuation byte).
func utf8Length(_ lead: UInt8) -> Int {
    lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
}

/// The scalar whose UTF-8 sequence starts at `bytes[k]`, and the sequence's length (U+FFFD for a broken one; the
/// text is valid UTF-8, decoded with replacement before parsing).
@inline(__always)
func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at k: Int) -> (scalar: Unicode.Scalar, length: Int) {
    let lead = bytes[k]
    let length = min(utf8Length(lead), bytes.count - k)
    var value = UInt32(lead)
    switch length {
    case 2: value &= 0x1F
    case 3: value &= 0x0F
    case 4: value &= 0x07
    default: return (lead < 0x80 ? Unicode.Scalar(lead) : "\u{FFFD}", 1)
    }
    for j in 1..<length { value = value << 6 | UInt32(bytes[k + j] & 0x3F) }
    return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
}

/// Canonical combining class other than 0: what UAX #15 §13 counts. Below U+0300, and in the CJK ideographs and
/// Hangul syllables, every character is a starter, and in Combining Diacritical Marks (U+0300 to U+036F) every one
/// but U+034F is a non-starter (UnicodeData.txt), so most text is answered without the property table.
func isNonStarter(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x300 || (0x3400..<0xA000).contains(value) || (0xAC00..<0xD7A4).contains(value) { return false }
    if value < 0x370 { return value != 0x34F }
    return scalar.properties.canonicalCombiningClass != .notReordered
}

/// A character that belongs to the one before it: a non-starter, any mark (general category M, which includes
/// spacing marks of class 0 such as Devanagari's vowel signs), or the zero-width joiner.
func isCombining(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x300 || (0x3400..<0xA000).contains(value) || (0xAC00..<0xD7A4).contains(value) { return false }
    if value == 0x200D { return true }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return scalar.properties.canonicalCombiningClass != .notReordered
    }
}
