/// The one rule for how many terminal columns text takes and where a line of it may break, asked by `--dump`,
/// table cells (`CellText`), the columns of preformatted text and tab stops (`RunWriter`), and the window's
/// monospace runs (`isWide`).
///
/// Text is counted by grapheme cluster (UAX #29 extended grapheme clusters, as the standard library's `Character`
/// segments them), so a cluster that a terminal draws as one picture counts once: 👩‍💻 (a ZWJ sequence), 👍🏽 (an
/// emoji with its skin-tone modifier) and 🇯🇵 (two regional indicators) take two columns, not four or six; a
/// combining mark takes none; a character that is text by default takes two when U+FE0F asks for its emoji
/// presentation (❤️, as Unicode's emoji-variation-sequences.txt lists them). Otherwise a cluster is as wide as
/// its first character: two for East_Asian_Width Wide or Fullwidth (UAX #11, `isWide`), none for a mark or a
/// format character, one for the rest, and a spacing mark after it adds its column as `wcwidth` counts it.
package enum TextColumns {
    /// Columns the UTF-8 `text` takes.
    package static func columns(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        var total = 0
        forEachCluster(text) { _, columns in total += columns }
        return total
    }

    /// Columns of one grapheme cluster.
    package static func columns(of cluster: Character) -> Int {
        var scalars = cluster.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return 0 }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }  // a flag: regional indicators draw as one
        var columns = isWide(first.value) ? 2 : isZeroWidth(first) ? 0 : 1
        var emoji = false
        while let next = scalars.next() {
            if next.value == 0xFE0F { emoji = true }
            if next.properties.generalCategory == .spacingMark { columns += 1 }
        }
        return emoji ? max(columns, 2) : columns
    }

    /// Calls `body` with each grapheme cluster of the UTF-8 `text` (its bytes) and its columns. A cluster
    /// boundary falls before every ASCII byte but a line feed after a carriage return (UAX #29, GB3 to GB999: only
    /// non-ASCII characters extend or join), so ASCII is counted byte by byte and the standard library segments
    /// what lies between.
    package static func forEachCluster(_ text: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, Int) -> Void) {
        let count = text.count
        var k = 0
        while k < count {
            if text[k] < 0x80 && (k + 1 == count || text[k + 1] < 0x80) {
                body(k..<(k + 1), 1)
                k += 1
                continue
            }
            var end = k + 1
            while end < count && text[end] >= 0x80 { end += 1 }
            // The text is valid UTF-8 (pages are decoded with replacement before parsing); were it not, the
            // replacement characters would shift the offsets, so they are kept within the stretch.
            var offset = k
            for cluster in String(decoding: UnsafeBufferPointer(rebasing: text[k..<end]), as: UTF8.self) {
                let start = min(offset, end)
                offset += cluster.utf8.count
                body(start..<min(offset, end), columns(of: cluster))
            }
            k = end
        }
    }

    /// Calls `body` with each piece of `text` a line may break around, its columns, and how many spaces precede
    /// it: words between spaces, and each two-column cluster on its own, since East Asian text has no spaces
    /// (w3m breaks it anywhere, as UAX #14 allows between ideographs and emoji).
    package static func forEachBreakablePiece(_ text: UnsafeBufferPointer<UInt8>,
                                              _ body: (_ piece: Range<Int>, _ columns: Int, _ spaces: Int) -> Void) {
        var spaces = 0
        var start = -1
        var columns = 0
        func endPiece(at end: Int) {
            guard start >= 0 else { return }
            body(start..<end, columns, spaces)
            spaces = 0
            start = -1
            columns = 0
        }
        func add(_ cluster: Range<Int>, _ clusterColumns: Int) {
            if text[cluster.lowerBound] == 0x20 {
                endPiece(at: cluster.lowerBound)
                spaces += 1
            } else if clusterColumns == 2 {
                endPiece(at: cluster.lowerBound)
                body(cluster, 2, spaces)
                spaces = 0
            } else {
                if start < 0 { start = cluster.lowerBound }
                columns += clusterColumns
            }
        }
        // The clusters of `forEachCluster`, with its ASCII bytes (each a cluster of one column) taken a run at a
        // time: most text is ASCII words and spaces.
        let count = text.count
        var k = 0
        while k < count {
            var j = k
            while j < count, text[j] < 0x80, text[j] != 0x20, j + 1 == count || text[j + 1] < 0x80 { j += 1 }
            if j > k {
                if start < 0 { start = k }
                columns += j - k
                k = j
                continue
            }
            if text[k] == 0x20 && (k + 1 == count || text[k + 1] < 0x80) {
                endPiece(at: k)
                spaces += 1
                k += 1
                continue
            }
            // Non-ASCII, with the ASCII byte before it that a mark may join: the stretch `forEachCluster` reads.
            var end = k + 1
            while end < count && text[end] >= 0x80 { end += 1 }
            forEachCluster(UnsafeBufferPointer(rebasing: text[k..<end])) { cluster, clusterColumns in
                add((cluster.lowerBound + k)..<(cluster.upperBound + k), clusterColumns)
            }
            k = end
        }
        endPiece(at: text.count)
    }

    /// Lines of `text` broken by the first-fit rule (`FirstFit`) in columns: `firstLine` columns for the first
    /// line, `otherLines` for the rest. `line` gets each line's bytes, from its first piece to its last (the
    /// spaces between pieces as they are in `text`, none at either end), and its columns.
    package static func wrap(_ text: UnsafeBufferPointer<UInt8>, firstLine: Int, otherLines: Int,
                             _ line: (_ bytes: Range<Int>, _ columns: Int) -> Void) {
        var fit = FirstFit(firstLine: firstLine, otherLines: otherLines)
        var lineStart = -1, lineEnd = 0
        var position = 0  // columns from the text's start, as if it stood on one line
        forEachBreakablePiece(text) { piece, pieceColumns, spaces in
            let start = position + spaces
            position = start + pieceColumns
            if let columns = fit.place(from: start, to: position) {
                line(lineStart..<lineEnd, columns)
                lineStart = piece.lowerBound
            } else if lineStart < 0 {
                lineStart = piece.lowerBound
            }
            lineEnd = piece.upperBound
        }
        if lineStart >= 0 { line(lineStart..<lineEnd, fit.lineWidth) }
    }
}

/// Whether `scalar` takes two columns: East_Asian_Width Wide or Fullwidth (UAX #11), which includes the emoji
/// shown as pictures by default (🚀, ☕, ⚡). `TextColumns` counts clusters with it, and the page view's monospace
/// runs ask it. The table is generated from the Unicode Character Database (scripts/east-asian-width.py).
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

/// A character that takes no column of its own: a non-spacing or enclosing mark, or a format character such as
/// the zero-width joiner (as `wcwidth` counts them; a spacing mark takes its column).
func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x300 || (0x3400..<0xA000).contains(value) || (0xAC00..<0xD7A4).contains(value) { return false }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return true
    default: return false
    }
}
