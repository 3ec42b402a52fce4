/// The rows of a window table (`DocumentBuilder.emitTabbed`, `PageTable`) with their cells wrapped inside their
/// columns: a row is one buffer line per line of its tallest cell, each line holding every cell's part for that
/// line at its column's tab stop.
///
/// As written by the builder a row is one line: its cells' texts, a tab before each column after the first. When a
/// cell is broken, the space at each break goes, and the line that carries the cell's continuation gets a newline
/// (its first part) or a tab (any later part) instead: the row keeps its number of characters, so every offset in
/// the page outside the row stays where the document has it (anchors, images, form controls, link ranges). A row
/// holding an image or a form control is broken only in the cells after the last one holding one, so that
/// picture or widget keeps its offset too (`PageView+Tables.swift`, `keptWhole`).
/// Breaks happen only at a single space or at a single U+200B the builder wrote where a line may break without a
/// space (`BreakMarks`: between ideographs, after a hyphen) for that reason, the latter only where Pango's rules
/// allow a break there; a cell's narrowest width is measured the same way (`CellWords.narrowest`).
package enum TabbedRows {
    /// A cell of a row: its column, its length in Unicode scalars (as the text buffer counts characters), and
    /// where its continuation lines start (scalar offsets; the scalar before each is the space the break takes).
    package struct Cell: Equatable, Sendable {
        package var column: Int
        package var length: Int
        package var breaks: [Int]
        package init(column: Int, length: Int, breaks: [Int] = []) {
            self.column = column
            self.length = length
            self.breaks = breaks
        }

        /// The scalars of line `line` of the cell (empty past its last line).
        package func segment(_ line: Int) -> Range<Int>? {
            guard line <= breaks.count else { return nil }
            let start = line == 0 ? 0 : breaks[line - 1]
            let end = line < breaks.count ? breaks[line] - 1 : length
            return start..<max(start, end)
        }
    }

    /// What a row is made of, in buffer order.
    package enum Piece: Equatable, Sendable {
        /// Scalars `range` of cell `cell` (an index into the row's cells).
        case text(cell: Int, range: Range<Int>)
        case tab
        case newline
    }

    /// The row's pieces in buffer order, and for each line after the first, the columns that have a part on it
    /// (the first line has all of them at the table's tab stops).
    package static func arrange(_ cells: [Cell]) -> (pieces: [Piece], continuations: [[Int]]) {
        var pieces: [Piece] = []
        var column = 0
        for (index, cell) in cells.enumerated() {
            while column < cell.column {
                pieces.append(.tab)
                column += 1
            }
            if let first = cell.segment(0), !first.isEmpty { pieces.append(.text(cell: index, range: first)) }
        }
        let lines = 1 + (cells.map(\.breaks.count).max() ?? 0)
        var continuations: [[Int]] = []
        for line in 1..<max(lines, 1) {
            var columns: [Int] = []
            for (index, cell) in cells.enumerated() {
                guard let segment = cell.segment(line) else { continue }
                pieces.append(columns.isEmpty ? .newline : .tab)
                columns.append(cell.column)
                if !segment.isEmpty { pieces.append(.text(cell: index, range: segment)) }
            }
            continuations.append(columns)
        }
        return (pieces, continuations)
    }

    /// The number of characters `pieces` make.
    package static func length(_ pieces: [Piece]) -> Int {
        pieces.reduce(0) { total, piece in
            if case .text(_, let range) = piece { return total + range.count }
            return total + 1
        }
    }

    /// Where each scalar of each cell is, counted from the row's start, as `pieces` place them; nil for a space
    /// a break took.
    package static func positions(_ cells: [Cell], _ pieces: [Piece]) -> [[Int?]] {
        var result = cells.map { [Int?](repeating: nil, count: $0.length) }
        var offset = 0
        for piece in pieces {
            switch piece {
            case .text(let cell, let range):
                for k in range { result[cell][k] = offset + (k - range.lowerBound) }
                offset += range.count
            case .tab, .newline:
                offset += 1
            }
        }
        return result
    }

    /// Greedy breaks of one cell at `width` pixels, by the first-fit rule (`FirstFit`): the first word of each
    /// continuation line (`CellWords` indices). `starts` and `ends` are each word's left and right edge on one
    /// line, in pixels; a line runs from its first word's start to its last word's end. A word that may not start
    /// a line stays on the line before, and the words after it that may not start a line go with it; a word wider
    /// than the room is put on a line of its own.
    package static func breakWords(starts: [Int], ends: [Int], breakable: [Bool], width: Int) -> [Int] {
        var breaks: [Int] = []
        var fit = FirstFit(firstLine: width, otherLines: width)
        var word = 0
        while word < starts.count {
            // The words up to the next place a line may break go together.
            var last = word
            while last + 1 < starts.count && !breakable[last + 1] { last += 1 }
            if fit.place(from: starts[word], to: ends[last]) != nil { breaks.append(word) }
            word = last + 1
        }
        return breaks
    }
}

/// A cell's text cut into what lines may break between: words between spaces and the zero width spaces of
/// `BreakMarks`, each word whatever touches it without either (Latin words, a run of ideographs the builder left
/// unmarked). A line may break before a word only where exactly one space or one mark precedes it (`TabbedRows`);
/// the view further keeps a mark breakable only where Pango's line-break rules allow a break (`marked`).
package struct CellWords: Equatable, Sendable {
    /// Each word's UTF-8 byte range in the text (Pango's indexes) and its first scalar.
    package var bytes: [Range<Int>] = []
    package var scalars: [Int] = []
    /// Whether a line may break before each word.
    package var breakable: [Bool] = []
    /// The words a single mark (U+200B) precedes, where a line may break only if Pango says so.
    package var marked: [Int] = []
    /// The text's length in scalars.
    package var scalarCount = 0

    package init(_ text: String) {
        var byte = 0, scalar = 0
        var wordStart: (byte: Int, scalar: Int)?
        var separators = 0
        var separatorIsMark = false
        func endWord() {
            guard let start = wordStart else { return }
            bytes.append(start.byte..<byte)
            scalars.append(start.scalar)
            let single = separators == 1 && bytes.count > 1
            breakable.append(single)
            if single && separatorIsMark { marked.append(bytes.count - 1) }
            wordStart = nil
            separators = 0
        }
        for character in text.unicodeScalars {
            if character == " " || character == BreakMarks.mark {
                endWord()
                separators += 1
                separatorIsMark = character == BreakMarks.mark
            } else if wordStart == nil {
                wordStart = (byte, scalar)
            }
            byte += character.utf8.count
            scalar += 1
        }
        endWord()
        scalarCount = scalar
    }

    /// The widest stretch no line may break inside, from each word's left and right edge in pixels.
    package func narrowest(starts: [Int], ends: [Int]) -> Int {
        var widest = 0, stretchStart = 0
        for word in starts.indices {
            if word == 0 || breakable[word] { stretchStart = starts[word] }
            widest = max(widest, ends[word] - stretchStart)
        }
        return widest
    }
}
