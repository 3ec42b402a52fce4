import FoundationEssentials
import Glibc

/// The page as styled text in a read-only, word-wrapping text view, with clickable links
/// (the shape of GTK's `gtk-demo/hypertext.c`: button release → the link at that place, unless text is selected).
///
/// Large documents are inserted in slices from idle callbacks, so the first screen shows at once and the window
/// keeps repainting while the rest goes in; a new `show` drops the slices still pending. GTK lays text out at a
/// higher idle priority than the slices, so each slice is laid out before the next one goes in.
///
/// Links share one look tag; which link a character belongs to is kept in a sorted table of ranges, not in a tag
/// per link as in the GTK demo, because GtkTextBuffer searches its tags linearly on every tag application: with the
/// 70,000 links of a 5 MB page, inserting slowed to seconds per slice. A `link:N` tag is made only on request
/// (`linkLocation`), for tests and tools that look for a link by its tag.
@MainActor
package final class PageView {
    /// The widget to put in the window: a scrolled window holding the text view.
    package var root: Widget { scrolled }
    package var scrolledWindow: ScrolledWindow { scrolled }
    package let textView = TextView()
    private let scrolled = ScrolledWindow()

    /// A link was clicked (button 1 released over it, with no text selected).
    package var onLinkActivated: ((URL) -> Void)?
    /// The pointer entered a link (its URL) or left every link (nil).
    package var onLinkHover: ((URL?) -> Void)?
    /// A link was middle-clicked or Ctrl+clicked, or chosen from its menu or with Shift/Ctrl+Return, to open in
    /// a window of its own.
    package var onLinkOpenInNewWindow: ((URL) -> Void)?
    /// The keyboard focus moved to a link (its URL) or off the links (nil).
    package var onLinkFocused: ((URL?) -> Void)?
    /// Ctrl+scroll asked for larger (+1) or smaller (-1) text.
    package var onZoomStep: ((Int) -> Void)?
    /// Whether a link's address has been visited; visited links get the theme's visited colour.
    package var isVisited: (URL) -> Bool = { _ in false }

    private(set) var document: Document?
    /// Where insertion stands: runs before `nextRun` are in the buffer, and `nextByte` bytes of `nextRun`.
    private var nextRun = 0
    private var nextByte = 0
    /// Which line breaks go in as line separators, so that runs of short lines share a buffer line (`LineJoins`).
    private var lineJoins = LineJoins()
    /// The character offset in the buffer where each run inserted so far starts.
    private var runStarts: [Int] = []
    /// Which characters belong to which link, in buffer order.
    private(set) var linkRanges: [(start: Int, end: Int, link: Int)] = []
    private var styleTags: [TextStyle: [TextTag]] = [:]
    private(set) var sharedTags: [PageTag: TextTag] = [:]
    /// `link:N` tags made on request; removed with the document.
    private var linkTags: [Int: TextTag] = [:]
    private var hoveredLink: Int?
    /// Bumped by every `show`; pending slices of an older one stop.
    private(set) var generation = 0
    private var restoreTimer: MainLoopTimer?
    /// Every idle callback and timer of the view and its finder: they go when the text view is destroyed.
    let sources = MainLoopSources()
    /// Whether the last document shown has been inserted completely.
    package private(set) var isComplete = true
    /// The link range (an index into `linkRanges`) that has the keyboard focus.
    var focusedRange: Int?
    /// Whether the window shows images, for the context menu's check item (nil: no such item), and the reader's
    /// choice from it.
    package var imagesShown: Bool?
    package var onImagesToggled: ((Bool) -> Void)?
    /// The context menu last shown; destroyed when the next one is made.
    var contextMenu: Menu?
    /// Whether the page menu's "Page Style" is ticked, and what choosing it does (`Browser.pageStyles`).
    package var pageStyles = true
    package var onPageStyleToggled: ((Bool) -> Void)?
    /// Text size, a factor of the theme's.
    package internal(set) var zoom = 1.0
    /// How many documents `show` has shown: what a caller built for one shown page is stale once this moves.
    package private(set) var shows = 0
    /// The view's width changed (the window was resized).
    package var onWidthChange: (() -> Void)?
    /// Where the text sits in a window wider than its measure (`fitMeasure`); the reader chooses.
    package var placement: ReadingPlacement = .left {
        didSet { if placement != oldValue { fitMeasure() } }
    }
    /// A `fitMeasure` waits for the main loop.
    private var measurePending = false
    /// The reader chose a placement from the page's menu (the window keeps it in the session).
    package var onPlacementChosen: ((ReadingPlacement) -> Void)?
    lazy var finder = PageFinder(page: self)
    /// The page's images in the buffer (`PageView+Images.swift`).
    var images = PageViewImages()
    /// The page's form controls in the buffer and what is filled in (`PageView+Forms.swift`).
    var forms = PageViewForms()
    /// The page's tables laid out at the view's width (`PageView+Tables.swift`).
    var tables = PageViewTables()
    /// The page's monospace grids shown in areas of their own (`PageView+GridArea.swift`).
    var grids = PageViewGrids()
    /// A form was sent (a submit button, or Return in a field): where to go and, for POST, the body.
    package var onFormSubmitted: ((FormSubmission) -> Void)?
    /// A form could not be sent, and why.
    package var onFormRefused: ((String) -> Void)?

    /// About this much text goes in per main-loop turn after the first. GtkTextView lays out what was inserted in
    /// its own idle turns, 2,000 pixels of lines a turn (`incremental_validate_callback` in gtktextview.c), and a
    /// turn cannot stop inside a paragraph: it lays out at most what the last slice put in, and all of it when
    /// that is less than 2,000 pixels. 4 KB of prose is about 55 lines at the reading measure, so each of those
    /// turns shapes at most 4 KB (1–3 ms of CPU, where 32 KB slices left 2,000-pixel turns of up to 10 ms), and a
    /// shared, loaded machine preempts a short turn less often. Pango lays out a paragraph as a whole, so the
    /// document model breaks overlong lines and expands tabs before the text gets here (`RunWriter.longestLine`).
    private static let sliceBytes = 4 * 1024
    /// The slice that goes in with `show` itself is larger: the first screen is there with the next paint.
    private static let firstSliceBytes = 32 * 1024
    /// A slice also ends after this many tagged stretches, since GtkTextBuffer's work goes by tag application,
    /// not by character (`coalesced`): a 32 KB slice of Node.js's all.html carried 5,747 and took 20 ms of CPU
    /// in the main-loop turn that shows the page on Back or Reload, where 32 KB of plain words take one or two.
    /// 400 keeps the turn that shows the page, and the one that lays out and draws its first screen, under 20 ms
    /// of CPU (perf, Back to all.html); the rest of the first screen follows in the next turn.
    private static let rangesPerSlice = 400
    /// What placing one image costs against a slice's bytes (a buffer edit and a pixbuf or a label widget).
    private static let imageBytes = 256
    /// Characters `showProgressive` deletes from the buffer on screen, at most.
    private static let largestDeletion = 64 * 1024

    package init() {
        scrolled.add(textView)
        textView.setAccessible(name: L("Page"))
        textView.onMotion { [weak self] x, y in self?.pointerMoved(x: x, y: y); return false }
        textView.onLeave { [weak self] in self?.setHovered(nil) }
        textView.onButtonRelease { [weak self] x, y, button in
            self?.buttonReleased(x: x, y: y, button: button) ?? false
        }
        connectReading()
        // After the allocation, not inside it: a resize GTK is asked for while it allocates is lost.
        textView.onWidthChange { [weak self] _ in
            self?.tablesWidthChanging()
            self?.gridAreasNeedSize()
            self?.scheduleFitMeasure()
            self?.onWidthChange?()
        }
        // A line that does not wrap (a grid in the page's text) makes the text view as wide as itself: narrowed
        // below that, the scrolled window changes width while the text view does not. The measure is fitted
        // again all the same, and with it the grids' areas and the grids in the page's text (`fitMeasure`).
        scrolled.onWidthChange { [weak self] _ in self?.scheduleFitMeasure() }
        // A closing window's text view lets its buffer go, tags and all (`TextView`): the page's work still
        // waiting in the main loop (slices, the measure and the tables' refit, scrolls, the finder's scan) is
        // removed with it, so none of it touches the buffer or its tags after that; what the view holds of the
        // page goes a piece a turn (`closing`).
        textView.removeOnDestroy(sources)
        textView.onDestroy { [weak self] in self?.closing() }
        textView.blendSideSpace()
        // A table shown in an area of its own is hidden in the page: a copy across it takes its rows from the area.
        // So is a grid shown in an area: it stands in the page as one character.
        textView.copyLeavingOut(BreakMarks.mark) { [weak self] range in
            guard let self else { return nil }
            return self.selectedTextAcrossGrids(range) { part in
                self.selectedTextAcrossAreas(part)
                    ?? self.textView.visibleText(fromCharacter: part.lowerBound, to: part.upperBound) ?? ""
            } ?? self.selectedTextAcrossAreas(range)
        }
    }

    /// `fitMeasure` once the main loop comes back (once for any number of asks before then).
    func scheduleFitMeasure() {
        guard !measurePending else { return }
        measurePending = true
        sources.idle { [weak self] in
            self?.measurePending = false
            self?.fitMeasure()
        }
    }

    /// Lines of prose no longer than about this many characters of the text's font: typographers' comfortable
    /// measure is 45 to 75 (Bringhurst, "The Elements of Typographic Style", 2.1.2); browsers leave it to pages.
    static let measureCharacters = 75

    /// Leaves the space beyond the measure empty beside the text, to its right or on both sides. Runs when the
    /// view's width or the text size changes: two numbers set on the view, whose new width GTK lays out anyway.
    func fitMeasure() {
        let margins = 32
        // Lines that keep their shape (code, tables) are never cut: the measure takes in the widest of them.
        let preformatted = Double(document?.widestPreformattedColumns ?? 0) * textView.monospaceCharacterWidth
            + Double(2 * PageTag.codeBlockPadding)
        let prose = Double(Self.measureCharacters) * textView.averageCharacterWidth
        // A table takes the window's width up to its preferred one.
        let measure = Int(max(prose, preformatted, Double(widestTable)).rounded(.up)) + margins
        // The space beside the text is the scrolled window's to give: a text view wider than it (a line that does
        // not wrap) gets none.
        let room = max(0, min(textView.width, scrolled.width) - measure)
        switch placement {
        case .left: textView.setSideSpace(left: 0, right: room)
        case .centred: textView.setSideSpace(left: room / 2, right: room - room / 2)
        }
        refitTables()
        // The areas of grids take the space beside the measure into account (`gridLineRoom`), and a grid in the
        // page's text that no longer fits moves into an area of its own.
        gridAreasNeedSize()
        gridsNeedRoom()
    }

    /// The text shown, for tests and the accessible name: the document's text, line breaks the buffer holds as line
    /// separators (`LineJoins`) newlines again.
    package var text: String { LineJoins.newlines(textView.text) }

    /// The reader's vertical scroll position, in pixels.
    package var verticalOffset: Double {
        get { scrolled.verticalOffset }
        set { scrolled.verticalOffset = newValue }
    }

    /// Drops on the text view go to the window's handler instead.
    package func refuseOwnDrops() { textView.refuseOwnDrops() }

    /// Shows `document` from the top, or at `offset` once enough of it is laid out.
    package func show(_ document: Document, scrollTo offset: Double?) {
        shows += 1
        let replaced = startOver(with: document)
        // Letting a large page's buffer go takes GtkTextView a walk over all its lines (`TextView.replaceBuffer`,
        // 12 ms for Node.js's all.html) and the first slice of a large page up to 400 tagged stretches (6–9 ms):
        // when both are large, the slice goes in a turn of its own, still before the next frame.
        insertInSlices(firstApart: replaced > Self.largestDeletion
                           && document.storage.bytes.count > Self.firstSliceBytes)
        restore(offset ?? 0)
        finder.pageChanged()
        fitMeasure()
    }

    /// Shows a partly arrived page again, keeping the reader where they are. Only what changed is replaced:
    /// the runs the new document shares with the one on screen stay, so the text above the reader never moves.
    package func showProgressive(_ document: Document) {
        guard let shown = self.document else {
            show(document, scrollTo: nil)
            return
        }
        let offset = verticalOffset
        let common = Self.commonRuns(shown, document, limit: nextRun)
        if common == runStarts.count - 1, let kept = grownRun(common, of: shown, in: document) {
            // The last run only grew (a paragraph, or a page of plain text, that went on arriving): what is in
            // the buffer stays and the run goes on from there. Cutting it would lay it out again, and a page
            // that is one long run would go in again from the top at every render.
            continueProgressive(document, run: common, keptBytes: kept, offset: offset)
            return
        }
        let cut = common < runStarts.count ? runStarts[common] : textView.characterCount
        if common < runStarts.count && textView.characterCount - runStarts[common] > Self.largestDeletion
            || !tablesReplaced(from: cut) || !gridsReplaceable(from: cut) {
            // Deleting that much from the buffer on screen would hold the main loop as leaving a large page did
            // (`TextView.replaceBuffer`): the page goes in again from the top, into a new buffer.
            show(document, scrollTo: offset)
            return
        }
        generation += 1
        restoreTimer = nil
        linksReplaced()
        if common < runStarts.count {
            setHovered(nil)
            let cut = runStarts[common]
            textView.deleteToEnd(fromCharacter: cut)
            cutImages(at: cut)
            cutControls(at: cut)
            runStarts.removeSubrange(common...)
            lineJoins.restart(bufferLines: textView.lineCount)
            while let last = linkRanges.last, last.end > cut {
                linkRanges.removeLast()
                if last.start < cut { linkRanges.append((last.start, cut, last.link)) }
            }
        }
        self.document = document
        // The arrived part's tables may have grown: prepared and measured again.
        tablesUpdated(from: cut)
        formsUpdated(to: document)
        nextRun = common
        nextByte = 0
        // The grids from the cut on go in again (none of them is in an area: `gridsReplaceable`).
        let cutByte = common < document.storage.runCount ? document.storage.range(ofRun: common).lowerBound
            : document.storage.bytes.count
        grids.next = document.grids.firstIndex { $0.bytes.lowerBound >= cutByte } ?? document.grids.count
        gridsCut(at: cut)
        insertInSlices()
        verticalOffset = offset
        restore(offset)
        finder.pageChanged()
        fitMeasure()
    }

    /// The bytes of run `run` in the buffer when `document`'s run `run` starts with them, in the same style and
    /// link; nil otherwise. `run` is the last run begun, and begins at the same byte in both documents
    /// (`commonRuns` compared everything before it).
    private func grownRun(_ run: Int, of shown: Document, in document: Document) -> Int? {
        let a = shown.storage, b = document.storage
        guard run < a.runCount, run < b.runCount else { return nil }
        let ra = a.range(ofRun: run), rb = b.range(ofRun: run)
        let inserted = run < nextRun ? ra.count : nextByte
        guard inserted > 0, ra.lowerBound == rb.lowerBound, inserted <= rb.count,
              a.style(ofRun: run) == b.style(ofRun: run), a.style(ofRun: run).table == nil else { return nil }
        if let link = a.style(ofRun: run).link, !shown.links.same(link, as: link, in: document.links) { return nil }
        let same = a.bytes.withUnsafeBufferPointer { old in
            b.bytes.withUnsafeBufferPointer { new in
                memcmp(old.baseAddress! + ra.lowerBound, new.baseAddress! + rb.lowerBound, inserted) == 0
            }
        }
        return same ? inserted : nil
    }

    /// `showProgressive` when the buffer holds a beginning of `document` that stays: the run `run` goes on from
    /// `keptBytes`, nothing is deleted.
    private func continueProgressive(_ document: Document, run: Int, keptBytes: Int, offset: Double) {
        generation += 1
        restoreTimer = nil
        linksReplaced()
        self.document = document
        // Tables not yet in the buffer may have grown: prepared again from the new document.
        tablesUpdated(from: textView.characterCount)
        formsUpdated(to: document)
        if keptBytes == document.storage.range(ofRun: run).count {
            nextRun = run + 1
            nextByte = 0
        } else {
            nextRun = run
            nextByte = keptBytes
        }
        insertInSlices()
        verticalOffset = offset
        restore(offset)
        finder.pageChanged()
        fitMeasure()
    }

    /// Window coordinates of link `index`'s first character, for tests that click. Tags the link `link:N`.
    package func linkLocation(index: Int) -> (x: Int, y: Int)? {
        let ranges = linkRanges.filter { $0.link == index }
        guard !ranges.isEmpty else { return nil }
        let tag = linkTags[index] ?? textView.createTag("link:\(index)")
        linkTags[index] = tag
        for range in ranges { textView.applyTag(tag, fromCharacter: range.start, to: range.end) }
        return textView.windowLocation(ofTag: tag.name)
    }

    // MARK: Inserting

    /// Empties the view for `document`; returns how many characters the buffer it replaced held.
    private func startOver(with document: Document) -> Int {
        generation += 1
        linksReplaced()
        restoreTimer = nil
        setHovered(nil)
        let replaced = textView.characterCount
        // A new buffer, not a deletion: deleting a large page from the buffer on screen blocks the main loop
        // for seconds (`TextView.replaceBuffer`). Every tag went with the old buffer's tag table; the looks are
        // made again on first use.
        textView.replaceBuffer()
        styleTags = [:]
        sharedTags = [:]
        linkTags = [:]
        verticalOffset = 0
        linkRanges = []
        // What the view held of the old page goes later, a piece a turn: freeing a large page's tables took 9 ms
        // and its document (when no history entry holds it, as after Reload) 5 ms of the turn that shows the
        // next one (perf, Node.js's all.html).
        if let old = self.document { Self.releaseLater(old) }
        Self.releaseLater(tables)
        Self.releaseLater(images)
        Self.releaseLater(grids)
        self.document = document
        nextRun = 0
        nextByte = 0
        lineJoins = LineJoins()
        runStarts = []
        images = PageViewImages()
        tables = PageViewTables()
        grids = PageViewGrids()
        formsReplaced(by: document)
        textView.scrollToStart()
        return replaced
    }

    /// The window is closing. Its text view lets its buffer go, tags and all (`TextView`): the page's work still
    /// waiting in idle turns (slices, the tables' refit) must not touch it after that. What the view holds of the
    /// page goes later, a piece a turn, as when a page is left (`startOver`): freed in the closing turn, a large
    /// page's tables and document kept the other windows from answering (7 ms of a closing turn of 18 ms, perf,
    /// Node.js's all.html).
    private func closing() {
        generation += 1
        if let old = document {
            Self.releaseLater(old)
            document = nil
        }
        Self.releaseLater(tables)
        tables = PageViewTables()
        Self.releaseLater(images)
        images = PageViewImages()
        Self.releaseLater(grids)
        grids = PageViewGrids()
    }

    /// What the view held of pages shown before and has not let go yet (`releaseLater`).
    private static var leftBehind: [Any] = []

    /// Lets `value` go in a main-loop turn of its own once nothing else waits, after the slices of the page shown
    /// now: one value a turn, as GLib dispatches every ready idle source of the same priority in one turn.
    private static func releaseLater(_ value: Any) {
        leftBehind.append(value)
        guard leftBehind.count == 1 else { return }
        MainLoop.whenNothingWaits {
            MainActor.assumeIsolated {
                _ = PageView.leftBehind.removeFirst()
                return !PageView.leftBehind.isEmpty
            }
        }
    }

    /// The first slice goes in now, or with `firstApart` in a turn of its own before the next frame, so the first
    /// screen is there with the next paint; the rest follow from idle.
    private func insertInSlices(firstApart: Bool = false) {
        isComplete = false
        let current = generation
        if firstApart {
            sources.beforeNextFrame { [weak self] in
                guard let self, self.generation == current else { return }
                self.insertInSlices()
            }
            return
        }
        if insertSlice(bytes: Self.firstSliceBytes) { return }
        // The sources, not the view: the slice waiting holds no reference to the view.
        let sources = sources
        func scheduleNext() {
            // Below the view's other idle work (fitting the measure and tables to a new width, the finder's scan,
            // emptying a detached buffer), each of which otherwise shared a turn with a slice: 21–42 ms of CPU in
            // the turns near the end of Back to Node.js's all.html, where a slice alone takes 4–8.
            sources.idleAfterOtherIdleWork { [weak self] in
                guard let self, self.generation == current else { return }
                if !self.insertSlice(bytes: Self.sliceBytes) { scheduleNext() }
            }
        }
        scheduleNext()
    }

    /// Inserts about `budget` bytes of the document in one go; returns true when the document is complete. A slice
    /// may end inside a run (a page of plain text is a single run), but never inside a character, and there it
    /// ends at a line break when one is near (`lineEnd`).
    private func insertSlice(bytes budget: Int) -> Bool {
        guard let document else { return true }
        let storage = document.storage
        var slice: [UInt8] = []
        slice.reserveCapacity(2 * budget + 4096)
        var ranges: [TextView.TaggedRange] = []
        var characters = 0
        // An image is three bytes of text (U+FFFC) but a picture or a framed label to place (`placeImages`): each
        // counts as `imageBytes` of the slice, so a page of thousands of images is placed a dozen or so a turn.
        var imageCharge = 0
        // A grid shown in an area of its own goes into the area's buffer instead of the page's
        // (`PageView+GridArea.swift`): a slice goes into one or the other, up to where the grid begins or ends.
        gridBoundary(at: insertedByte(storage), of: document)
        let target = sliceTarget(document)
        let sliceStart = target.view.characterCount
        storage.bytes.withUnsafeBufferPointer { bytes in
            while nextRun < storage.runCount, slice.count + imageCharge < budget,
                  ranges.count < Self.rangesPerSlice, storage.range(ofRun: nextRun).lowerBound + nextByte < target.limit {
                let run = storage.range(ofRun: nextRun)
                if nextByte == 0 { runStarts.append(target.anchor ?? sliceStart + characters) }
                let from = run.lowerBound + nextByte
                var to = min(run.upperBound, from + max(budget - slice.count - imageCharge, 1))
                while to < run.upperBound && bytes[to] & 0xC0 == 0x80 { to += 1 }
                if to < run.upperBound {
                    to = Self.lineEnd(bytes, from: from, to: to, limit: run.upperBound, budget: budget)
                }
                // The grid's bounds fall between characters, at line breaks.
                to = min(to, target.limit)
                let startCharacters = characters
                let startByte = slice.count
                let piece = UnsafeBufferPointer(rebasing: bytes[from..<to])
                slice.append(contentsOf: piece)
                let tally = Self.tally(piece)
                characters += tally.characters
                imageCharge += Self.imageBytes * tally.images
                let style = storage.style(ofRun: nextRun)
                let tags = tags(for: style, text: bytes[run])
                if let table = style.table, target.anchor == nil { tableInserted(table, at: sliceStart + startCharacters) }
                if let caption = style.caption, target.anchor == nil {
                    captionInserted(caption, characters: sliceStart + startCharacters ..< sliceStart + characters)
                }
                if style.monospace {
                    tagMonospace(slice[startByte...], characters: startCharacters..<characters, tags: tags,
                                 into: &ranges)
                } else if !tags.isEmpty {
                    ranges.append(TextView.TaggedRange(start: startCharacters, length: characters - startCharacters,
                                                       tags: tags))
                }
                if target.anchor == nil {
                    let following = nextRun + 1 < storage.runCount ? storage.style(ofRun: nextRun + 1) : nil
                    let grids = !document.grids.isEmpty
                    let joined = lineJoins.separators(in: bytes, piece: from..<to, run: run,
                                                      style: Self.joinsLines(style, grids: grids) ? style : nil,
                                                      nextStyle: following.flatMap {
                                                          Self.joinsLines($0, grids: grids) ? $0 : nil })
                    if !joined.isEmpty { Self.separate(&slice, from: startByte, pieceStart: from, at: joined) }
                }
                if let link = style.link {
                    if target.anchor == nil {
                        addLinkRange(sliceStart + startCharacters, sliceStart + characters, link)
                    } else {
                        addGridLink(sliceStart + startCharacters, sliceStart + characters, link)
                    }
                }
                if to == run.upperBound {
                    nextRun += 1
                    nextByte = 0
                } else {
                    nextByte = to - run.lowerBound
                }
            }
        }
        let tagging = Self.coalesced(ranges)
        slice.withUnsafeBufferPointer { target.view.appendUTF8($0, tagging: tagging) }
        if target.anchor != nil, let last = grids.areas.indices.last {
            grids.areas[last].characters += characters
        }
        isComplete = nextRun >= storage.runCount
        let inserted = insertedByte(storage)
        gridBoundary(at: inserted, of: document)
        placeImages(insertedBytes: inserted)
        placeControls(insertedBytes: inserted)
        // The grids in the page's text are looked at once all are in: a resize while one was going in passed it by.
        if isComplete { gridsNeedRoom() }
        // The rows can be broken at their columns once they are all in, with the pictures and widgets in their
        // cells, whose widths the columns take in. The refit's first step gets a turn of its own: with the last
        // slice it took 35 ms of CPU at the end of Back to Node.js's all.html.
        if isComplete && !tables.fitted.isEmpty {
            let current = generation
            sources.idle { [weak self] in
                guard let self, self.generation == current else { return }
                self.refitTables()
            }
        }
        return isComplete
    }

    /// The byte of the document insertion has reached.
    private func insertedByte(_ storage: RunStorage) -> Int {
        nextRun >= storage.runCount ? storage.bytes.count : storage.range(ofRun: nextRun).lowerBound + nextByte
    }

    /// The characters in UTF-8 `bytes`, and the images among them: EF BF BC is U+FFFC, the character that stands
    /// for an image (one in the page text counts too). A loop in a nonisolated function, not `count(where:)`: a
    /// closure written in this main-actor class checks that it runs on the main actor every time it is called
    /// (Swift 6's dynamic isolation checks), and called once a byte those checks took half of `insertSlice`'s CPU
    /// (perf, the slow CJK page).
    nonisolated private static func tally(_ bytes: UnsafeBufferPointer<UInt8>) -> (characters: Int, images: Int) {
        var characters = 0
        var images = 0
        for k in bytes.indices {
            let byte = bytes[k]
            if byte & 0xC0 != 0x80 { characters += 1 }
            if byte == 0xBC && k >= 2 && bytes[k - 1] == 0xBF && bytes[k - 2] == 0xEF { images += 1 }
        }
        return (characters, images)
    }

    /// Whether `text` has a lead byte of 0xE1 or above (a loop, for the reason `tally` gives).
    nonisolated private static func mayHoldWide(_ text: ArraySlice<UInt8>) -> Bool {
        for byte in text where byte >= 0xE1 { return true }
        return false
    }

    /// Whether lines of this style may share a buffer line (`LineJoins`): GTK takes a paragraph's spacing, first-line
    /// indentation and band from its first character's tags, so a heading's spacing, a list marker's hanging
    /// indent, a rule's or code block's band and a table's or caption's tab stops keep their lines to themselves.
    /// Monospace lines that keep their shape (a `text/plain` page's) share them too, but not on a page with grids
    /// (`PageView+GridArea.swift`), whose lines are monospace and which a narrower window moves from the page's
    /// text into areas of their own, line by line as the buffer holds them. U+2028 breaks a line that is not
    /// wrapped as it breaks one that is.
    private static func joinsLines(_ style: TextStyle, grids: Bool) -> Bool {
        let shapeKept = style.monospace && style.preformatted
        guard shapeKept ? !grids : !style.monospace && !style.preformatted else { return false }
        return style.heading == 0 && !style.listMarker && !style.rule && !style.code && style.table == nil
            && style.caption == nil
    }

    /// `slice` from `from` on, which holds document bytes from `pieceStart`, with the newlines at document bytes
    /// `positions` written as line separators.
    private static func separate(_ slice: inout [UInt8], from: Int, pieceStart: Int, at positions: [Int]) {
        var rewritten: [UInt8] = []
        rewritten.reserveCapacity(slice.count - from + 2 * positions.count)
        var k = from
        for position in positions {
            let at = from + position - pieceStart
            rewritten.append(contentsOf: slice[k..<at])
            rewritten.append(contentsOf: LineJoins.separator)
            k = at + 1
        }
        rewritten.append(contentsOf: slice[k...])
        slice.replaceSubrange(from..., with: rewritten)
    }

    /// Where a slice cut inside a run at `to` should end instead: after the last line break in `from..<to`, or after
    /// the first one within `budget` more bytes, or at `to` when there is none. GtkTextView lays a paragraph out as
    /// a whole: a paragraph cut in two by a slice is laid out once with its first part and again, whole, when the
    /// rest comes.
    private static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, limit: Int,
                                budget: Int) -> Int {
        if let newline = bytes[from..<to].lastIndex(of: 0x0A) { return newline + 1 }
        if let newline = bytes[to..<min(limit, to + budget)].firstIndex(of: 0x0A) { return newline + 1 }
        return to
    }

    /// The same tagging with each tag applied once over each stretch of characters it covers without a break.
    /// Runs carry their block's tags (a list item's indent, a heading's size) and are cut by every link, code span
    /// or bold word, so run by run one tag went on many touching ranges: over 5,000 applications for a 32 KB slice
    /// of Node.js's all.html. GtkTextBuffer does its work per application, not per character: the "apply-tag"
    /// signal, the tag's toggles in the B-tree, the view told to lay out or redraw the range
    /// (`gtk_text_buffer_apply_tag`). Applying a tag to touching ranges or to their union tags the same characters.
    /// The result stays in order of start, as `TextView.appendUTF8` wants.
    private static func coalesced(_ ranges: [TextView.TaggedRange]) -> [TextView.TaggedRange] {
        var merged: [TextView.TaggedRange] = []
        merged.reserveCapacity(ranges.count)
        // For each tag, the range in `merged` that it was last applied over.
        var last: [ObjectIdentifier: Int] = [:]
        for range in ranges where range.length > 0 {
            for tag in range.tags {
                let key = ObjectIdentifier(tag)
                if let index = last[key], merged[index].start + merged[index].length == range.start {
                    merged[index].length += range.length
                } else {
                    last[key] = merged.count
                    merged.append(TextView.TaggedRange(start: range.start, length: range.length, tags: [tag]))
                }
            }
        }
        return merged
    }

    /// Tags a monospace run, leaving its wide characters (CJK, full-width forms, emoji) in the page's own face. Every
    /// CJK font draws those one em wide whether or not it calls itself monospace, so columns line up the same,
    /// but fontconfig would pick a second CJK face for them (WenQuanYi Micro Hei Mono beside WenQuanYi Micro Hei,
    /// Noto Sans Mono CJK beside Noto Sans CJK), and each face Pango opens costs its tables and glyph-name index:
    /// about 2 MB for the same glyphs (README, "How it works": start-up).
    private func tagMonospace(_ text: ArraySlice<UInt8>, characters: Range<Int>, tags: [TextTag],
                              into ranges: inout [TextView.TaggedRange]) {
        // UTF-8 lead bytes below 0xE1 encode code points below U+1000, where no character is wide.
        guard Self.mayHoldWide(text) else {
            ranges.append(TextView.TaggedRange(start: characters.lowerBound, length: characters.count, tags: tags))
            return
        }
        let wideTags = tags.filter { $0 !== sharedTags[.monospace] }
        var segmentStart = characters.lowerBound, character = segmentStart, segmentWide = false
        func endSegment() {
            let segmentTags = segmentWide ? wideTags : tags
            if character > segmentStart && !segmentTags.isEmpty {
                ranges.append(TextView.TaggedRange(start: segmentStart, length: character - segmentStart,
                                                   tags: segmentTags))
            }
            segmentStart = character
        }
        // By grapheme cluster, so that a ZWJ sequence or a flag is drawn in one face, as one picture.
        text.withUnsafeBufferPointer { bytes in
            TextColumns.forEachCluster(bytes) { cluster, columns in
                let wide = columns == 2
                if wide != segmentWide {
                    endSegment()
                    segmentWide = wide
                }
                for k in cluster where bytes[k] & 0xC0 != 0x80 { character += 1 }
            }
        }
        endSegment()
    }

    /// Link ranges `range` replaced by `ranges` (in order, within the same stretch of text): a table row's
    /// characters moved (`PageView+Tables.swift`).
    func replaceLinkRanges(_ range: Range<Int>, with ranges: [(start: Int, end: Int, link: Int)]) {
        linkRanges.replaceSubrange(range, with: ranges)
        if let focused = focusedRange, focused >= range.lowerBound { focusedRange = nil }
    }

    private func addLinkRange(_ start: Int, _ end: Int, _ link: Int) {
        if let last = linkRanges.last, last.link == link, last.end == start {
            linkRanges[linkRanges.count - 1].end = end
        } else {
            linkRanges.append((start, end, link))
        }
    }

    /// How many leading runs two documents share (same text, same look, links to the same URLs), counting no
    /// further than `limit`.
    private static func commonRuns(_ old: Document, _ new: Document, limit: Int) -> Int {
        let a = old.storage, b = new.storage
        let count = min(limit, a.runCount, b.runCount)
        var run = 0
        while run < count {
            let ra = a.range(ofRun: run), rb = b.range(ofRun: run)
            let sa = a.style(ofRun: run), sb = b.style(ofRun: run)
            guard ra == rb, sa == sb, a.bytes[ra].elementsEqual(b.bytes[rb]) else { break }
            if let link = sa.link, !old.links.same(link, as: link, in: new.links) { break }
            run += 1
        }
        return run
    }

    /// Scrolls to the place named `anchor` (a `#fragment`); false when the page has no such place. The slice that
    /// holds it may still be on its way into the buffer: then the scroll waits for it.
    @discardableResult
    package func scroll(toAnchor anchor: String) -> Bool {
        guard let reading = document?.characterOffset(ofAnchor: anchor) else { return false }
        let offset = pageOffset(ofReading: reading)
        restoreTimer = nil
        if textView.scroll(toCharacter: offset) && isComplete { return true }
        restoreTimer = sources.timer(milliseconds: 15) { [weak self] in
            guard let self else { return false }
            guard self.textView.scroll(toCharacter: offset), self.isComplete else { return true }
            self.restoreTimer = nil
            return false
        }
        return true
    }

    /// Scrolls to `offset` pixels from the top, once the text view has laid out that far.
    package func scroll(toOffset offset: Double) {
        restoreTimer = nil
        verticalOffset = offset
        restore(offset)
    }

    /// Scrolls to `offset` as soon as the text view has laid out that far (it lays out in idle time).
    private func restore(_ offset: Double) {
        guard offset > 0 else { return }
        var triesSinceComplete = 0
        restoreTimer = sources.timer(milliseconds: 15) { [weak self] in
            guard let self else { return false }
            let range = self.scrolled.verticalRange
            self.verticalOffset = min(offset, max(range.upper - range.page, 0))
            if self.isComplete { triesSinceComplete += 1 }
            if abs(self.verticalOffset - offset) < 1 || triesSinceComplete > 100 {
                self.restoreTimer = nil
                return false
            }
            return true
        }
    }

    // MARK: Tags

    private func tags(for style: TextStyle, text: Slice<UnsafeBufferPointer<UInt8>>) -> [TextTag] {
        // Links share their look, so tags are keyed by style without the link's number: 0 for a link not
        // visited, 1 for a visited one.
        var key = style
        if let link = style.link { key.link = url(ofLink: link).map(isVisited) == true ? 1 : 0 }
        if style.listMarker {
            // A marker's width depends on its text, so marker tags are looked up per width.
            let characters = Self.tally(UnsafeBufferPointer(rebasing: text)).characters
            return baseTags(for: key) + [shared(.listMarker(characters: characters))]
        }
        if let tags = styleTags[key] { return tags }
        let tags = baseTags(for: key)
        styleTags[key] = tags
        return tags
    }

    private func baseTags(for style: TextStyle) -> [TextTag] {
        var tags: [TextTag] = []
        if style.heading > 0 { tags.append(shared(.heading(level: min(style.heading, 6)))) }
        if style.bold { tags.append(shared(.bold)) }
        if style.italic { tags.append(shared(.italic)) }
        if style.monospace { tags.append(shared(.monospace)) }
        if style.preformatted { tags.append(shared(.preformatted)) }
        if style.code && style.preformatted {
            // The block's band sets its own margin, at the block's depth.
            tags.append(shared(.codeBlock(depth: style.indent)))
        } else if style.indent > 0 {
            tags.append(shared(.indent(depth: style.indent)))
        }
        if style.code && !style.preformatted { tags.append(shared(.code)) }
        if style.strikethrough { tags.append(shared(.strikethrough)) }
        // A link is underlined unless its own rules say otherwise; `<u>` and `text-decoration` inside it still are.
        if style.underline || style.link != nil && !style.linkPlain { tags.append(shared(.underline)) }
        if style.highlight { tags.append(shared(.highlight)) }
        switch style.baseline {
        case .normal: break
        case .lowered: tags.append(shared(.lowered))
        case .raised: tags.append(shared(.raised))
        }
        // A link the page colours itself keeps that colour, visited or not, as in browsers; the others take the
        // theme's link colours, which mark the visited ones.
        if let link = style.link, !style.linkColored { tags.append(shared(link == 1 ? .visited : .link)) }
        switch style.alignment {
        case .left: break
        case .center: tags.append(shared(.center))
        case .right: tags.append(shared(.right))
        }
        if style.rule { tags.append(shared(.rule)) }
        if let table = style.table { tags.append(tableTag(table)) }
        if let caption = style.caption { tags.append(captionTag(caption)) }
        // A link keeps the theme's link colours unless the page colours it, code and marked text their own
        // backgrounds.
        if style.link == nil || style.linkColored, !style.code, !style.highlight,
           style.color != nil || style.background != nil {
            tags.append(shared(.pageColors(text: style.color, background: style.background,
                                           block: style.blockBackground && style.background != nil)))
        }
        return tags
    }

    /// The tag of each look, made once per view.
    func shared(_ look: PageTag) -> TextTag {
        if let tag = sharedTags[look] { return tag }
        let tag = textView.createTag(look.name, look: look.look)
        sharedTags[look] = tag
        if look == .link || look == .visited { applyLinkColors() }
        if case .codeBlock = look { applyCodeColors() }
        if look == .code { applyCodeColors() }
        if case .pageColors = look {
            tag.setLowestPriority()
            applyPageColors(look, to: tag)
        }
        return tag
    }

    // MARK: Pointer

    /// The link under window coordinates (x, y).
    func link(atX x: Double, y: Double) -> Int? {
        guard let offset = textView.characterOffset(atWindowX: x, y: y) else { return nil }
        return Self.link(at: offset, in: linkRanges)
    }

    /// The link holding character `offset` among `ranges` (in order, apart): a binary search.
    static func link(at offset: Int, in ranges: [(start: Int, end: Int, link: Int)]) -> Int? {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].start <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0, offset < ranges[low - 1].end else { return nil }
        return ranges[low - 1].link
    }

    func url(ofLink link: Int?) -> URL? {
        guard let link else { return nil }
        return document?.links[link]
    }

    private func pointerMoved(x: Double, y: Double) {
        setHovered(link(atX: x, y: y))
    }

    /// A click follows a link; a release that ends a selection does not. The middle button, or Ctrl with the
    /// first, opens the link in a new window.
    private func buttonReleased(x: Double, y: Double, button: UInt32) -> Bool {
        linkReleased(link(atX: x, y: y), button: button, selecting: textView.hasSelection)
    }

    /// A button released over `link` (nil: over no link) follows it, unless it ended a selection (`selecting`).
    func linkReleased(_ link: Int?, button: UInt32, selecting: Bool) -> Bool {
        guard button == 1 || button == 2, !selecting, let url = url(ofLink: link) else {
            return false
        }
        if button == 2 || Widget.currentEventHasControl {
            openInNewWindow(url)
            return button == 2
        }
        onLinkActivated?(url)
        return false
    }

    func setHovered(_ link: Int?) {
        guard link != hoveredLink else { return }
        hoveredLink = link
        textView.setPointer(hand: link != nil)
        onLinkHover?(url(ofLink: link))
    }
}

/// Where the text of a page sits in a window wider than its measure.
package enum ReadingPlacement: Sendable {
    /// At the left, with the space beyond the measure to its right.
    case left
    /// In the middle, the space shared on both sides.
    case centred
}
