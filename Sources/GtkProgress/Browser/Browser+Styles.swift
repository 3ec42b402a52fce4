import FoundationEssentials
import GtkProgressCore
import GtkProgressLoading

/// A page's author styles in the window: the document is built off the main loop with the page's own `<style>`s;
/// its linked stylesheets are fetched as its images are (the page loader's subresources, the navigation policy's
/// refusals, a size cap) and the document built again with them. A sheet that has not come within
/// `styleSheetWait` is done without: it never keeps the page from showing.
extension Browser {
    /// How long the page waits for its stylesheets (Blink and Gecko wait for ever; a viewer that shows text
    /// first would rather show it unstyled).
    static let styleSheetWait: UInt32 = 3000

    /// The options the window builds pages with: the width of its text in pixels as the screen's (before the
    /// window has its size, the dump's nominal desktop width), author styles on unless turned off.
    var pageStyleOptions: PageStyleOptions {
        guard pageStyles else { return .off }
        let width = viewportWidth
        return PageStyleOptions(media: width >= 200 ? CSSMedia(width: width)
                                    : CSSMedia.forColumns(Document.defaultLayoutWidth))
    }

    /// The page area's width in CSS pixels, for media queries (Media Queries 3 §4.1: the viewport's width, text
    /// size changes included): the whole view, not the reading measure within it.
    var viewportWidth: Double { Double(page.textView.width) / max(page.zoom, 0.1) }

    /// Builds the finished page with its stylesheets and hands it to `done` on the main loop (not at all once the
    /// session has ended), with the options it was built with (the sheets that arrived among them).
    /// What the bounds on hostile CSS cut (`Document.styleNotes`) is said in the status line, first note first.
    func buildPage(_ loaded: LoadedPage, for session: LoadSession,
                   done: @escaping (ShownPage, PageStyleOptions) -> Void) {
        let images = imageSelection
        let options = pageStyleOptions
        let reported: (ShownPage, PageStyleOptions) -> Void = { [weak self] shown, options in
            if let self, self.notice == nil, let note = shown.document.styleNotes.first { self.notice = note }
            done(shown, options)
        }
        BackgroundWork.run({ ShownPage(loaded: loaded, images: images, styles: options, tabbedTables: true) }) { [weak self] shown in
            guard let self, !session.isOver else { return }
            self.fetchStyleSheets(of: shown, loaded: loaded, options: options, round: 0, for: session, done: reported)
        }
    }

    /// One round: the sheets the last build lacked are fetched, then the page is built again; `@import`s found in
    /// them make another round, up to `PageStyleOptions.maximumImportDepth`.
    private func fetchStyleSheets(of shown: ShownPage, loaded: LoadedPage, options: PageStyleOptions, round: Int,
                                  for session: LoadSession, done: @escaping (ShownPage, PageStyleOptions) -> Void) {
        let wanted = shown.document.missingStyleSheets.filter {
            options.sheets[$0] == nil && NavigationPolicy.subresourceRefusal(for: $0, page: loaded.finalURL) == nil
        }
        guard !wanted.isEmpty, round <= PageStyleOptions.maximumImportDepth,
              options.sheets.count < PageStyleOptions.maximumSheets else {
            done(shown, options)
            return
        }
        let requests = wanted.prefix(PageStyleOptions.maximumSheets).enumerated().map { index, url in
            SubresourceRequest(id: index, url: url, maxBytes: PageStyleOptions.maximumSheetBytes)
        }
        var arrived = options.sheets
        var pending = Set(requests.map(\.id))
        var finished = false
        var timer: MainLoopTimer?
        let images = imageSelection
        let finish: () -> Void = { [weak self] in
            guard let self, !finished else { return }
            finished = true
            timer?.cancel()
            // The images come next, on the same loader: no sheet event may reach them.
            self.loader.cancelSubresources()
            guard !session.isOver else { return }
            if !pending.isEmpty {
                self.notice = LN("Page style: %ld style sheet did not arrive in time; the page is shown without it.",
                                 "Page style: %ld style sheets did not arrive in time; the page is shown without them.",
                                 pending.count, pending.count)
            }
            var withSheets = options
            withSheets.sheets = arrived
            let next = withSheets
            BackgroundWork.run({ ShownPage(loaded: loaded, images: images, styles: next, tabbedTables: true) }) { [weak self] rebuilt in
                guard let self, !session.isOver else { return }
                if pending.isEmpty {
                    self.fetchStyleSheets(of: rebuilt, loaded: loaded, options: next, round: round + 1,
                                          for: session, done: done)
                } else {
                    done(rebuilt, next)
                }
            }
        }
        timer = chrome.sources.timer(milliseconds: Self.styleSheetWait, name: "gtkprogress style sheet wait") {
            finish()
            return false
        }
        loader.cancelSubresources()
        loader.fetch(requests) { event in
            guard !finished else { return }
            switch event {
            case .finished(let id, let bytes, _):
                arrived[requests[id].url] = bytes
                pending.remove(id)
            case .failed(let id, let message):
                // A sheet that fails (refused, too large, gone) is left out, as browsers leave it out; the status
                // line says why.
                arrived[requests[id].url] = []
                pending.remove(id)
                if self.notice == nil { self.notice = L("Page style: %@", message) }
            case .started, .response, .received:
                break
            }
            if pending.isEmpty { finish() }
        }
    }
}

extension Browser {
    /// The page menu's "Page Style": the choice is the window's (kept in the session), and the page is loaded
    /// again to be built with or without its author styles, keeping the reader's place as Reload does.
    func setPageStyles(_ on: Bool) {
        guard on != pageStyles else { return }
        pageStyles = on
        onStateChanged?()
        if model.current != nil { reload() }
    }
}

/// What a shown page was built from, kept while its media queries read the window's width.
struct PageRestyle {
    let loaded: LoadedPage
    /// The stylesheets it was built with, so that a new build needs no request.
    let sheets: [URL: [UInt8]]
    /// The width (CSS pixels) its media queries were read at.
    var width: Double
    /// `PageView.shows` when it was shown: another page shown since makes this stale.
    var shows: Int
}

/// Media queries read again when the window is resized (Media Queries 3 §4.1 "width": the viewport's). A page
/// whose queries change their answer at a width the window crosses is built again off the main loop, from the
/// bytes and stylesheets it was built with (no request), and shown at the reader's place, as browsers apply their
/// responsive layouts on resize.
extension Browser {
    /// How long the width must stay still before the page is built again (a drag resizes many times).
    static let restyleDelay: UInt32 = 250

    func keepForRestyle(_ loaded: LoadedPage, shown: ShownPage, options: PageStyleOptions) {
        guard options.enabled, shown.kind == .page, !shown.document.mediaWidths.isEmpty else {
            restyle = nil
            return
        }
        restyle = PageRestyle(loaded: loaded, sheets: options.sheets, width: options.media.width, shows: page.shows)
    }

    func widthChanged() {
        guard restyle != nil else { return }
        restyleTimer?.cancel()
        restyleTimer = chrome.sources.timer(milliseconds: Self.restyleDelay, name: "gtkprogress-restyle") { [weak self] in
            self?.restyleTimer = nil
            self?.restyleForWidth()
            return false
        }
    }

    private func restyleForWidth() {
        // The page on screen is the one kept (`shows`): its document says where its queries change their answer.
        guard let kept = restyle, kept.shows == page.shows, pageStyles, session == nil,
              let widths = page.document?.mediaWidths else { return }
        let media = pageStyleOptions.media
        let width = media.width
        guard CSSMedia.answersChange(from: kept.width, to: width, at: widths) else { return }
        let withSheets = PageStyleOptions(media: media, sheets: kept.sheets)
        let images = imageSelection
        let loaded = kept.loaded
        restyle?.width = width
        BackgroundWork.run({ ShownPage(loaded: loaded, images: images, styles: withSheets, tabbedTables: true) }) {
            [weak self] shown in
            guard let self, let current = self.restyle, current.shows == kept.shows, self.page.shows == kept.shows,
                  self.session == nil else { return }
            self.model.replaceCurrentPage(shown)
            self.page.show(shown.document, scrollTo: self.page.verticalOffset)
            self.restyle?.shows = self.page.shows
            self.showImages(of: shown.document, from: loaded.finalURL)
        }
    }
}

