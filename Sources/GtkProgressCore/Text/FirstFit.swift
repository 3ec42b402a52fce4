/// The one greedy line-breaking rule, first fit as w3m and lynx break lines: a line takes pieces while they fit in
/// its room, and a piece that does not fit begins the next line, so a piece wider than the room gets a line of its
/// own and is never cut.
///
/// The measure is the caller's: a piece is given by where it starts and ends as if the text stood on one unbroken
/// line, in terminal columns (`TextColumns.wrap`, for `--dump` and table cells) or in Pango pixels
/// (`TabbedRows.breakWords`, for the window's table cells). A line's width runs from its first piece's start to
/// its last piece's end, so what lies between pieces (spaces, a font's spacing) counts inside a line and not at
/// its ends.
package struct FirstFit: Sendable {
    private var lineStart = 0
    private var lineEnd = 0
    private var isEmpty = true
    private var room: Int
    private let otherLines: Int

    /// `firstLine` is the room of the first line, `otherLines` the room of every line after it.
    package init(firstLine: Int, otherLines: Int) {
        room = firstLine
        self.otherLines = otherLines
    }

    /// The width of the line being filled (0 before the first piece).
    package var lineWidth: Int { lineEnd - lineStart }

    /// Places the piece spanning `start` to `end`: on the current line if it fits there (or the line is empty),
    /// else at the start of the next line. Returns the width of the line the piece closed, or nil when the piece
    /// joined the current line.
    package mutating func place(from start: Int, to end: Int) -> Int? {
        if isEmpty {
            isEmpty = false
            lineStart = start
            lineEnd = end
            return nil
        }
        if end - lineStart > room {
            let closed = lineWidth
            lineStart = start
            lineEnd = end
            room = otherLines
            return closed
        }
        lineEnd = end
        return nil
    }
}
