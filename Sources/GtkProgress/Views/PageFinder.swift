import FoundationEssentials

/// Find in page on the text the view shows. The buffer is searched a slice at a time from idle callbacks
/// (`FindScanner`), so a page of many megabytes never holds the main loop for long, and what is found shows at
/// once. Only the matches on and near the screen carry the highlight tag, re-tagged as the view scrolls: tagging
/// every "e" of a 5 MB page would cost seconds. Counting stops at `FindResults.matchLimit` matches. Offsets count
/// the page as read, grids shown in areas of their own included (`PageView+GridArea.swift`).
@MainActor
final class PageFinder {
    private unowned let page: PageView
    private var textView: TextView { page.textView }
    /// The matches of the current search, nil when nothing is searched.
    private(set) var results: FindResults?
    private var scanner: FindScanner?
    private var needle = ""
    /// Bumped by each new search: slices of an older one stop.
    private var searchID = 0
    /// The page generation the search runs on.
    private var pageGeneration = -1
    private var highlighted: [Int] = []
    private var currentHighlight: Range<Int>?
    private var waitTimer: MainLoopTimer?
    private var scrollConnection: SignalConnection?
    /// The results changed (found more, moved, or ended).
    var onChange: ((FindResults?) -> Void)?

    /// Characters searched per main-loop turn: a few milliseconds of work.
    static let sliceCharacters = 64 * 1024
    /// Matches highlighted around the screen, at most.
    static let highlightLimit = 4000

    init(page: PageView) {
        self.page = page
    }

    /// Searches for `text` from the start of the page; the first match at or after `anchor` (else the first
    /// one) becomes current. With no anchor: the current match, if any, or the top of the view.
    func search(_ text: String, anchor: Int? = nil) {
        searchID += 1
        waitTimer = nil
        clearHighlights()
        needle = text
        guard let scanner = FindScanner(text) else {
            self.scanner = nil
            results = nil
            onChange?(nil)
            return
        }
        let start = anchor ?? results?.currentRange?.lowerBound ?? page.visibleReadingCharacters.lowerBound
        self.scanner = scanner
        results = FindResults(length: scanner.length, anchor: start)
        pageGeneration = page.generation
        if scrollConnection == nil {
            scrollConnection = page.scrolledWindow.onVerticalScroll { [weak self] in self?.highlightVisible() }
        }
        onChange?(results)
        scanNextSlice(searchID)
    }

    /// Goes to the next (or previous) match and shows it.
    func move(forward: Bool) {
        guard var results, !results.matches.isEmpty else { return }
        results.move(forward: forward)
        self.results = results
        showCurrent()
        onChange?(results)
    }

    /// The page shown changed: a running search starts again on the new text, keeping its place.
    func pageChanged() {
        guard scanner != nil else { return }
        search(needle, anchor: results?.currentRange?.lowerBound)
    }

    /// Ends the search: the highlights go, and the current match stays selected where it is, so the view does
    /// not move and Ctrl+C copies it.
    func end() {
        searchID += 1
        waitTimer = nil
        let current = results?.currentRange
        clearHighlights()
        scanner = nil
        results = nil
        scrollConnection?.disconnect()
        scrollConnection = nil
        // A match in a table shown in an area of its own is selected there.
        if let current, !page.revealInTableArea(current, highlight: nil) {
            let start = page.pageOffset(ofReading: current.lowerBound)
            textView.select(fromCharacter: start, to: start + current.count)
        }
    }

    private func scanNextSlice(_ id: Int) {
        page.sources.idle { [weak self] in
            guard let self, id == self.searchID else { return }
            self.scanSlice(id)
        }
    }

    private func scanSlice(_ id: Int) {
        guard var scanner, var results, page.generation == pageGeneration else { return }
        let total = page.readingCharacterCount
        if scanner.position >= total {
            if page.isComplete {
                // The results are stored before the view is moved: `showCurrent` reads them.
                let wrapped = results.finish()
                self.results = results
                if wrapped { showCurrent() }
                highlightVisible()
                onChange?(results)
            } else {
                // The rest of the page is still going into the buffer.
                waitTimer = page.sources.timer(milliseconds: 50) { [weak self] in
                    guard let self, id == self.searchID else { return false }
                    self.waitTimer = nil
                    self.scanSlice(id)
                    return false
                }
            }
            return
        }
        let sliceEnd = min(scanner.position + Self.sliceCharacters, total)
        let text = page.readingText(from: scanner.position, to: min(sliceEnd + scanner.length - 1, total))
        let found = scanner.scan(text[...].unicodeScalars, sliceEnd: sliceEnd)
        results.stretched.merge(scanner.stretched) { _, new in new }
        let becameCurrent = results.append(found)
        self.scanner = scanner
        self.results = results
        if becameCurrent { showCurrent() } else if !found.isEmpty { highlightVisible() }
        onChange?(results)
        // Past `FindResults.matchLimit` matches the count stops, and so does the scan.
        if !results.isComplete { scanNextSlice(id) }
    }

    /// Scrolls the current match into view (into the middle half of the screen) and highlights around it.
    private func showCurrent() {
        guard let range = results?.currentRange else { return }
        // In a table shown in an area of its own, the page goes to the area and the area to the match.
        if !page.revealInTableArea(range, highlight: page.shared(.findCurrent)) {
            textView.scrollIntoView(character: page.pageOffset(ofReading: range.lowerBound), margin: 0.25)
        }
        highlightVisible()
    }

    /// An area of the page scrolled up or down on its own (`PageView+GridArea.swift`): its rows on screen changed.
    func areaScrolled() {
        guard results != nil else { return }
        highlightVisible()
    }

    /// Tags the matches on screen and a screen above and below it.
    private func highlightVisible() {
        guard let results else { return }
        let visible = page.visibleReadingCharacters
        let margin = max(visible.count, 2000)
        let around = max(visible.lowerBound - margin, 0)..<(visible.upperBound + margin)
        let wanted = Array(results.matches(startingIn: around).prefix(Self.highlightLimit))
        let match = page.shared(.findMatch)
        if wanted != highlighted {
            for start in highlighted { page.tagReading(match, start..<(start + results.length(at: start)), on: false) }
            for start in wanted { page.tagReading(match, start..<(start + results.length(at: start)), on: true) }
            highlighted = wanted
        }
        if results.currentRange != currentHighlight {
            let current = page.shared(.findCurrent)
            if let old = currentHighlight { page.tagReading(current, old, on: false) }
            if let new = results.currentRange { page.tagReading(current, new, on: true) }
            currentHighlight = results.currentRange
        }
    }

    private func clearHighlights() {
        guard let results else { return }
        // Text replaced by a new page took its tags with it; removing them again past the end is harmless.
        let total = page.readingCharacterCount
        let match = page.shared(.findMatch)
        for start in highlighted where start < total {
            page.tagReading(match, start..<min(start + results.length(at: start), total), on: false)
        }
        if let old = currentHighlight, old.lowerBound < total {
            page.tagReading(page.shared(.findCurrent), old.lowerBound..<min(old.upperBound, total), on: false)
        }
        highlighted = []
        currentHighlight = nil
        page.clearTableAreaHighlight()
    }
}
