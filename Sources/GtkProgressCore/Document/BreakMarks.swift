/// Where a window table's cell may break without a space: a U+200B ZERO WIDTH SPACE written between two
/// characters where a line break could be allowed (beside an ideograph, kana, hangul or a full-width form, and
/// after a hyphen or a slash), which the view turns into the continuation line's newline or tab when it breaks the
/// cell there, as it does a space (`TabbedRows`), so the row keeps its number of characters. These are only the
/// places to ask about: the view breaks at one only where Pango's line-break rules (UAX #14, `pango_get_log_attrs`
/// on the text without the marks) allow a break, so no line starts with "。" or ends with "「".
package enum BreakMarks {
    package static let mark: Unicode.Scalar = "\u{200B}"
    static let markBytes: [UInt8] = [0xE2, 0x80, 0x8B]

    /// East Asian scripts and forms, which break between characters (UAX #14 classes ID, CJ, H2, H3, and their
    /// punctuation OP, CL, NS around them).
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x11FF, 0x2E80...0x9FFF, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFE30...0xFE4F,
             0xFF00...0xFFEF, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    static func isCandidate(after a: UInt32, before b: UInt32) -> Bool {
        // Not beside a space (a break there takes the space) or another mark, nor beside U+FFFC (a picture or a
        // widget: its cell is never broken).
        func plain(_ v: UInt32) -> Bool { v > 0x20 && v != 0x200B && v != 0xFFFC && v != 0xA0 }
        guard plain(a), plain(b) else { return false }
        if isWide(a) || isWide(b) { return true }
        return a == 0x2D || a == 0x2010 || a == 0x2F
    }

    /// Calls `body` with each scalar of UTF-8 `bytes` (its byte range and value), in order; false when a
    /// malformed sequence stopped it.
    private static func forEachScalar(_ bytes: ArraySlice<UInt8>, _ body: (Range<Int>, UInt32) -> Void) -> Bool {
        var k = bytes.startIndex
        while k < bytes.endIndex {
            let lead = bytes[k]
            let count = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
            guard count > 0, k + count <= bytes.endIndex else { return false }
            var value = count == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (count + 1))
            for j in 1..<count {
                guard bytes[k + j] & 0xC0 == 0x80 else { return false }
                value = value << 6 | UInt32(bytes[k + j] & 0x3F)
            }
            body(k..<k + count, value)
            k += count
        }
        return true
    }

    /// The scalars of UTF-8 `bytes` with their values; nil for a malformed sequence.
    private static func scalars(_ bytes: ArraySlice<UInt8>) -> [(range: Range<Int>, value: UInt32)]? {
        var result: [(Range<Int>, UInt32)] = []
        return forEachScalar(bytes) { result.append(($0, $1)) } ? result : nil
    }

    /// How many marks `bytes` would get (none when they are malformed, as `mark` writes none there).
    static func count(in bytes: ArraySlice<UInt8>) -> Int {
        var count = 0
        var previous: UInt32?
        let wellFormed = forEachScalar(bytes) { _, value in
            if let previous, isCandidate(after: previous, before: value) { count += 1 }
            previous = value
        }
        return wellFormed ? count : 0
    }

    /// Writes the marks into a cell's pieces (`pieces[first...]`), a mark going with the piece after it.
    static func mark(_ pieces: inout [LaidOutPiece], from first: Int) {
        var previous: UInt32?
        for index in first..<pieces.count {
            guard let scalars = scalars(pieces[index].bytes[...]) else {
                previous = nil
                continue
            }
            var bytes: [UInt8] = []
            var copied = 0
            var changed = false
            for scalar in scalars {
                if let before = previous, isCandidate(after: before, before: scalar.value) {
                    bytes += pieces[index].bytes[copied..<scalar.range.lowerBound]
                    bytes += markBytes
                    copied = scalar.range.lowerBound
                    changed = true
                }
                previous = scalar.value
            }
            if changed {
                bytes += pieces[index].bytes[copied...]
                pieces[index].bytes = bytes
            }
        }
    }
}
