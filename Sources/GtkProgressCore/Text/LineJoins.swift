/// Which of a page's line breaks a text view may hold as U+2028 LINE SEPARATOR instead of a newline, so that runs
/// of short lines take one line of the view's buffer instead of one each.
///
/// GtkTextBuffer keeps a structure of its own for every line of its text (a `GtkTextLine`, its segments, its place
/// in the B-tree, the layout's data once measured), about 150 bytes whatever the line holds: a page of 750,000 tiny
/// paragraphs (`<p>x`, a blank line between each) held 110 MB of them for 3 MB of text. A line separator is a
/// break Pango makes inside a paragraph (UAX #14 class BK: a mandatory break), so the lines show as before, while
/// GTK counts a buffer line only at a newline (<https://docs.gtk.org/gtk3/class.TextBuffer.html>: "a line is a
/// paragraph"). Both are one character, so every character offset of the page (links, images, find, the scroll
/// position) stays what the document says; a copy gives the newlines back (`TextView.copyLeavingOut`).
///
/// GTK takes a paragraph's margins, indentation and spacing from the tags at its first character, and lays a
/// whole buffer line out at once. So a line is joined to the one before only when both begin in runs of the same
/// style (so with the same tags), a style whose tags leave no line to itself (the view's say: a heading's spacing,
/// a list marker's hanging indent or a rule's band keep theirs), when the buffer line stays short
/// (`maximumBytes`, `maximumLines`: what a paragraph of prose takes, never a page laid out at once), and only once
/// the view holds `threshold` lines: a page of ordinary length keeps one buffer line per line.
package struct LineJoins: Sendable {
    /// A buffer line takes in at most this many of the page's lines and bytes.
    package static let maximumLines = 64
    package static let maximumBytes = 2_048
    /// Lines are joined once the view holds this many.
    package static let threshold = 4_096

    /// The byte where the buffer line being written began, in the document's bytes.
    private var lineStart = 0
    /// The style of the run it began in; nil when that style keeps its lines to themselves, or when not known (the
    /// view took text out from the middle of a line), so that nothing is joined to it.
    private var lineStyle: TextStyle?
    /// Nothing is written yet: the first line begins with the first piece.
    private var beginning = true
    /// The page's lines in the buffer line being written.
    private var lines = 1
    /// The buffer's lines so far.
    private var bufferLines = 1

    /// Joins for a page going into an empty view; `bufferLines` says otherwise.
    package init(bufferLines: Int = 1) {
        self.bufferLines = bufferLines
    }

    /// Insertion starts again after text was taken out, on a buffer of `bufferLines` lines: nothing joins the line
    /// it goes on.
    package mutating func restart(bufferLines: Int) {
        lineStyle = nil
        beginning = false
        lines = 1
        self.bufferLines = bufferLines
    }

    /// The line breaks of `bytes[piece]`, a piece of run `run` of the document's `bytes`, that go into the view as
    /// line separators, in order; the state moves past the piece. `style` is the run's style and `nextStyle` that
    /// of the run after it, each nil when its lines keep to themselves.
    package mutating func separators(in bytes: UnsafeBufferPointer<UInt8>, piece: Range<Int>, run: Range<Int>,
                                     style: TextStyle?, nextStyle: TextStyle?) -> [Int] {
        if beginning {
            beginning = false
            lineStart = piece.lowerBound
            lineStyle = style
        }
        var found: [Int] = []
        var k = piece.lowerBound
        while k < piece.upperBound {
            guard let newline = Self.firstNewline(bytes, from: k, to: piece.upperBound) else { break }
            // The next line begins in this run or, right after its end, in the next.
            let next = newline + 1 < run.upperBound ? style : nextStyle
            if bufferLines >= Self.threshold && next != nil && next == lineStyle
                && joins(bytes, at: newline, run: run, style: style, nextStyle: nextStyle) {
                found.append(newline)
                lines += 1
            } else {
                lineStart = newline + 1
                lineStyle = next
                lines = 1
                bufferLines += 1
            }
            k = newline + 1
        }
        return found
    }

    /// Whether the line after the newline at `at` joins the buffer line: there is room for it, it ends within
    /// `maximumBytes` of the buffer line's start (a bounded look), and, when it is empty, the break that ends it
    /// joins too. Pango makes no line of a line separator that ends a paragraph, so a buffer line ending with one
    /// would lose the blank line the page has there.
    private func joins(_ bytes: UnsafeBufferPointer<UInt8>, at newline: Int, run: Range<Int>, style: TextStyle?,
                       nextStyle: TextStyle?) -> Bool {
        let limit = min(bytes.count, lineStart + Self.maximumBytes)
        var at = newline, count = lines
        while true {
            guard count < Self.maximumLines, at + 1 < limit,
                  let end = Self.firstNewline(bytes, from: at + 1, to: limit) else { return false }
            guard end == at + 1 else { return true }
            // An empty line: the break after it must join as well, beginning a line of the same style (in this run
            // or the next; further on is not known here, so it is not joined).
            let following = end + 1 < run.upperBound ? style : end + 1 == run.upperBound ? nextStyle : nil
            guard following != nil, following == lineStyle else { return false }
            at = end
            count += 1
        }
    }

    private static func firstNewline(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        var k = from
        while k < to {
            if bytes[k] == 0x0A { return k }
            k += 1
        }
        return nil
    }

    /// `text` from a view's buffer as the page has it: its line separators newlines again.
    package static func newlines(_ text: String) -> String {
        guard text.unicodeScalars.contains(separatorScalar) else { return text }
        var lines = String.UnicodeScalarView()
        for character in text.unicodeScalars { lines.append(character == separatorScalar ? "\n" : character) }
        return String(lines)
    }

    /// U+2028 LINE SEPARATOR in UTF-8.
    package static let separator: [UInt8] = [0xE2, 0x80, 0xA8]
    package static let separatorScalar: Unicode.Scalar = "\u{2028}"
}
