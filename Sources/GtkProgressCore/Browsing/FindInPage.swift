/// Find in page, decided without a display: how text is compared, how a long page is searched a slice at a
/// time, and which match is current.
///
/// Offsets count Unicode scalars, as GtkTextBuffer's character offsets do, so a match found in a slice of the
/// buffer's text is a range of the buffer with no conversion. Case is ignored scalar by scalar (a scalar whose
/// lowercase is several scalars, such as U+0130, is compared as it is), which keeps that one-to-one mapping.
package struct FindScanner: Sendable {
    /// The text looked for, case-folded.
    package let needle: [UInt32]
    /// Where the next slice must start: the end of the last slice, or of the last match if it ran past it.
    package private(set) var position = 0
    /// The matches found with the zero width spaces a window table's cells hold (`BreakMarks`) inside them, which
    /// are passed over: their start and their length in the page's characters (longer than `length`), for the
    /// last slice scanned.
    package private(set) var stretched: [Int: Int] = [:]

    /// Nil for empty text: there is nothing to find.
    package init?(_ text: String) {
        // Zero width spaces are passed over in the page (`scan`), and so in the text looked for.
        let folded = text.unicodeScalars.filter { $0 != BreakMarks.mark }.map(Self.fold)
        guard !folded.isEmpty else { return nil }
        needle = folded
    }

    package var length: Int { needle.count }

    /// Finds the matches that start in `position ..< sliceEnd`. `text` is the page from `position` on; it should
    /// reach `length - 1` scalars past `sliceEnd` (or to the end of the page), so a match that crosses into the
    /// next slice is found here, once. Matches do not overlap. Returns their offsets, in order.
    package mutating func scan(_ text: Substring.UnicodeScalarView, sliceEnd: Int) -> [Int] {
        var found: [Int] = []
        stretched = [:]
        let first = needle[0]
        var window: [UInt32] = []
        window.reserveCapacity(text.count)
        // Where each scalar of `window` is in `text`: U+200B is left out (nil while there is none).
        var at: [Int]?
        for (k, scalar) in text.enumerated() {
            if scalar == BreakMarks.mark {
                if at == nil { at = Array(0..<window.count) }
                continue
            }
            window.append(Self.fold(scalar))
            at?.append(k)
        }
        var i = 0
        let starts = sliceEnd - position
        var resume = sliceEnd
        while i + needle.count <= window.count && (at?[i] ?? i) < starts {
            if window[i] == first && window[i..<(i + needle.count)].elementsEqual(needle) {
                let start = at?[i] ?? i, end = (at?[i + needle.count - 1] ?? (i + needle.count - 1)) + 1
                found.append(position + start)
                if end - start != needle.count { stretched[position + start] = end - start }
                i += needle.count
                resume = max(resume, position + end)
            } else {
                i += 1
            }
        }
        position = resume
        return found
    }

    /// ASCII and single-scalar lowercase mappings; everything else stays as it is.
    static func fold(_ scalar: Unicode.Scalar) -> UInt32 {
        let value = scalar.value
        if value < 0x80 { return value >= 0x41 && value <= 0x5A ? value + 0x20 : value }
        guard scalar.properties.changesWhenLowercased else { return value }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first!.value : value
    }
}

/// The matches found so far and the one the view shows.
///
/// Counting stops at `matchLimit`, as Firefox's find bar stops at 1,000 and says "More than 1000 matches"
/// (`findbar.ftl`): a page of megabytes has hundreds of thousands of "e", a number no reader uses, and each kept
/// match is memory and a step of the search. Matches before the current one give way to later ones, so the
/// reader's place is found however far down the page it is, and the search stops once `matchLimit` matches are
/// kept from there on.
package struct FindResults: Equatable, Sendable {
    /// Start offsets of the matches kept, in order.
    package private(set) var matches: [Int] = []
    /// How long each match is, in characters.
    package let length: Int
    /// Index into `matches` of the current match.
    package private(set) var current: Int?
    /// The whole page has been searched, or as much of it as fills the matches kept.
    package private(set) var isComplete = false
    /// The page has more matches than `matchLimit`; `matches` holds that many of them.
    package private(set) var isCapped = false
    /// The first match at or after this offset becomes current (the top of the view, or the match shown
    /// before the text changed, so refining the text keeps the reader's place).
    package let anchor: Int
    /// Matches kept and counted, at most (the label names the number).
    package static let matchLimit = 10_000

    package init(length: Int, anchor: Int) {
        self.length = length
        self.anchor = anchor
    }

    /// Adds matches found after those already known; returns whether the current match changed. Past the limit,
    /// the matches before the current one (all of them, while it is not found) give way to later ones; the search
    /// is complete once the limit is kept from the current match on.
    @discardableResult
    package mutating func append(_ offsets: [Int]) -> Bool {
        guard !isComplete, !offsets.isEmpty else { return false }
        let before = matches.count
        matches.append(contentsOf: offsets)
        var changed = false
        if current == nil, let index = matches[before...].firstIndex(where: { $0 >= anchor }) {
            current = index
            changed = true
        }
        let overflow = matches.count - Self.matchLimit
        guard overflow > 0 else { return changed }
        isCapped = true
        let front = min(overflow, current ?? overflow)
        matches.removeFirst(front)
        if let index = current { current = index - front }
        if overflow > front {
            matches.removeLast(overflow - front)
            isComplete = true
        }
        return changed
    }

    /// The search reached the end of the page; with no match after the anchor, the first one kept is current.
    @discardableResult
    package mutating func finish() -> Bool {
        isComplete = true
        guard current == nil, !matches.isEmpty else { return false }
        current = 0
        return true
    }

    /// Matches longer than `length` (passing over zero width spaces, `FindScanner.stretched`) by their start.
    package var stretched: [Int: Int] = [:]

    /// How many characters the match at `start` covers.
    package func length(at start: Int) -> Int { stretched[start] ?? length }

    /// The current match's range.
    package var currentRange: Range<Int>? { current.map { matches[$0]..<(matches[$0] + length(at: matches[$0])) } }

    /// Moves to the next match (or the previous one), wrapping around at the ends of the page.
    package mutating func move(forward: Bool) {
        guard !matches.isEmpty else { return }
        guard let index = current else {
            current = forward ? 0 : matches.count - 1
            return
        }
        current = forward ? (index + 1) % matches.count : (index + matches.count - 1) % matches.count
    }

    /// The matches that start in `range`, for highlighting the part of the page on screen.
    package func matches(startingIn range: Range<Int>) -> ArraySlice<Int> {
        matches[lowerIndex(range.lowerBound)..<lowerIndex(range.upperBound)]
    }

    private func lowerIndex(_ offset: Int) -> Int {
        var low = 0, high = matches.count
        while low < high {
            let middle = (low + high) / 2
            if matches[middle] < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// What the find bar says: "3 of 17", while searching "3 of 17…", "No matches", or past the limit "More
    /// than 10,000 matches" (a position among the matches kept would not be the match's place in the page).
    package var label: String {
        if isCapped { return L("More than 10,000 matches") }
        if matches.isEmpty { return isComplete ? L("No matches") : L("Searching…") }
        let position = current.map { "\($0 + 1)" } ?? "–"
        return isComplete ? L("%@ of %ld", position, matches.count) : L("%@ of %ld…", position, matches.count)
    }
}
