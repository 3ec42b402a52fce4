internal import CGumbo

/// The prefilter's pieces (`InlinePiece`) in order, packed into bytes: a page of tiny paragraphs has a piece for
/// every paragraph, and at 24 bytes each they were most of its memory, eight times its `<p>x` markup.
///
/// A piece is stored against the one before it. A paragraph's text right after its `<p>` (or `</p>`) tag, shorter
/// than 64 bytes, is one byte: `1 d l…l`, `d` saying whether the tag was 3 or 4 bytes (`<p>` or `</p>`, which
/// ends a paragraph: `InlinePiece.paragraphEnd`), `l` the length. Any other
/// piece is a byte of flags and LEB128 numbers (its start, zigzag-coded against where the last piece of its kind
/// ended; its length; its tag; its `href` or `class` against its text). The builder reads them in order, a
/// placeholder's at a time (`Span`, `next`), and the prefilter takes back pieces only at points it marked
/// (`Mark`), so nothing needs finding by index. The last piece waits unpacked until another piece, a mark or a span
/// comes: a paragraph's tag is added without its text and then given it (`replaceLast`), which costs nothing then.
struct InlinePieces {
    private var bytes: [UInt8] = []
    /// Where the last piece of source text ended, and of decoded text: the next one's start is stored against it.
    private var sourceEnd = 0
    private var decodedEnd = 0
    /// The last piece, not packed yet (`pack`); nil once a mark or a span has packed it.
    private(set) var last: InlinePiece?
    /// Pieces added, `last` included.
    private(set) var count = 0

    /// A point in the list to take pieces back to.
    struct Mark {
        fileprivate var count: Int
        fileprivate var offset: Int
        fileprivate var sourceEnd: Int
        fileprivate var decodedEnd: Int
        var pieceCount: Int { count }
    }

    /// A placeholder's pieces: the bytes between two marks, and the state to read them from.
    struct Span {
        fileprivate var start: Mark
        fileprivate var end: Int
    }

    /// Reading a span: where the next piece is and what it is stored against.
    struct Cursor {
        fileprivate var offset: Int
        fileprivate let end: Int
        fileprivate var sourceEnd: Int
        fileprivate var decodedEnd: Int
    }

    /// Bytes the packed pieces take (all of them once the last span is made).
    var byteCount: Int { bytes.count }

    init(reservingFor sourceBytes: Int = 0) {
        // About a byte for each four bytes of markup that can make a piece (`<p>x`): reserved at once, the list
        // of a page of tiny paragraphs is not copied as it grows, and reserved pages never touched cost nothing.
        if sourceBytes > 0 { bytes.reserveCapacity(sourceBytes / 4) }
    }

    var mark: Mark {
        mutating get {
            pack()
            return Mark(count: count, offset: bytes.count, sourceEnd: sourceEnd, decodedEnd: decodedEnd)
        }
    }

    /// The pieces added since `start`.
    mutating func span(since start: Mark) -> Span {
        pack()
        return Span(start: start, end: bytes.count)
    }

    static let shortParagraph: UInt8 = 0x80
    private static let decodedFlag: UInt8 = 1, droppedFlag: UInt8 = 2, hrefFlag: UInt8 = 4, paragraphFlag: UInt8 = 8,
                       tagFlag: UInt8 = 16, paragraphEndFlag: UInt8 = 32

    mutating func append(_ piece: InlinePiece) {
        pack()
        last = piece
        count += 1
    }

    /// Packs `last` after the pieces before it.
    private mutating func pack() {
        guard let piece = last else { return }
        last = nil
        let text = piece.text
        let isParagraph = piece.tag == GUMBO_TAG_P.rawValue
        if isParagraph, !piece.decoded, !piece.droppedAttributes, piece.href == nil, text.count < 64,
           text.lowerBound == sourceEnd + (piece.paragraphEnd ? 4 : 3) {
            bytes.append(Self.shortParagraph | (piece.paragraphEnd ? 0x40 : 0) | UInt8(text.count))
            sourceEnd = text.upperBound
            return
        }
        var flags: UInt8 = 0
        if piece.decoded { flags |= Self.decodedFlag }
        if piece.droppedAttributes { flags |= Self.droppedFlag }
        if piece.href != nil { flags |= Self.hrefFlag }
        if isParagraph { flags |= Self.paragraphFlag } else if piece.tag != 0 { flags |= Self.tagFlag }
        if piece.paragraphEnd { flags |= Self.paragraphEndFlag }
        bytes.append(flags)
        let before = piece.decoded ? decodedEnd : sourceEnd
        appendNumber(zigzag(text.lowerBound - before))
        appendNumber(UInt(text.count))
        if flags & Self.tagFlag != 0 { appendNumber(UInt(piece.tag)) }
        if let href = piece.href {
            appendNumber(zigzag(href.lowerBound - text.lowerBound))
            appendNumber(UInt(href.count))
        }
        if piece.decoded { decodedEnd = text.upperBound } else { sourceEnd = text.upperBound }
    }

    /// Takes back the pieces added since `mark`.
    mutating func truncate(to mark: Mark) {
        guard mark.count < count else { return }
        // A mark packs the last piece, so one not packed yet came after `mark`.
        last = nil
        // Usually a piece or two (a paragraph tag given back): `removeLast` costs a few instructions
        // a byte where `removeSubrange` costs a hundred a call.
        if bytes.count - mark.offset <= 16 {
            while bytes.count > mark.offset { bytes.removeLast() }
        } else {
            bytes.removeSubrange(mark.offset...)
        }
        count = mark.count
        sourceEnd = mark.sourceEnd
        decodedEnd = mark.decodedEnd
    }

    /// Gives the last piece, which is not packed yet (`last` is not nil), another value.
    mutating func replaceLast(with piece: InlinePiece) {
        precondition(last != nil, "the last piece is packed")
        last = piece
    }

    func cursor(_ span: Span) -> Cursor {
        Cursor(offset: span.start.offset, end: span.end, sourceEnd: span.start.sourceEnd,
               decodedEnd: span.start.decodedEnd)
    }

    /// The piece at `cursor`, which moves past it; nil at the end of its span.
    func next(_ cursor: inout Cursor) -> InlinePiece? {
        guard cursor.offset < cursor.end else { return nil }
        return bytes.withUnsafeBufferPointer { bytes in
            let header = bytes[cursor.offset]
            cursor.offset += 1
            if header & Self.shortParagraph != 0 {
                let ends = header & 0x40 != 0
                let start = cursor.sourceEnd + (ends ? 4 : 3)
                let end = start + Int(header & 0x3F)
                cursor.sourceEnd = end
                return InlinePiece.paragraph(start..<end, ends: ends)
            }
            let decoded = header & Self.decodedFlag != 0
            let start = (decoded ? cursor.decodedEnd : cursor.sourceEnd) + unzigzag(readNumber(bytes, &cursor.offset))
            let end = start + Int(readNumber(bytes, &cursor.offset))
            var tag: UInt32 = 0
            if header & Self.paragraphFlag != 0 {
                tag = GUMBO_TAG_P.rawValue
            } else if header & Self.tagFlag != 0 {
                tag = UInt32(readNumber(bytes, &cursor.offset))
            }
            var piece = InlinePiece(text: start..<end, decoded: decoded, tag: tag)
            piece.droppedAttributes = header & Self.droppedFlag != 0
            piece.paragraphEnd = header & Self.paragraphEndFlag != 0
            if header & Self.hrefFlag != 0 {
                let hrefStart = start + unzigzag(readNumber(bytes, &cursor.offset))
                piece.href = hrefStart..<(hrefStart + Int(readNumber(bytes, &cursor.offset)))
            }
            if decoded { cursor.decodedEnd = end } else { cursor.sourceEnd = end }
            return piece
        }
    }

    private mutating func appendNumber(_ value: UInt) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private func readNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> UInt {
        var value: UInt = 0
        var shift: UInt = 0
        while true {
            let byte = bytes[offset]
            offset += 1
            value |= UInt(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    private func zigzag(_ value: Int) -> UInt { UInt(bitPattern: (value << 1) ^ (value >> 63)) }
    private func unzigzag(_ value: UInt) -> Int { Int(bitPattern: value >> 1) ^ -Int(bitPattern: value & 1) }
}
