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
        let width = page.pictureWidth
        return PageStyleOptions(media: width >= 200 ? CSSMedia(width: Double(width))
                                    : CSSMedia.forColumns(Document.defaultLayoutWidth))
    }

    /// Builds the finished page with its stylesheets and hands it to `done` on the main loop (not at all once the
    /// session has ended).
    /// What the bounds on hostile CSS cut (`Document.styleNotes`) is said in the status line, first note first.
    func buildPage(_ loaded: LoadedPage, for session: LoadSession, done: @escaping (ShownPage) -> Void) {
        let images = imageSelection
        let options = pageStyleOptions
        let reported: (ShownPage) -> Void = { [weak self] shown in
            if let self, self.notice == nil, let note = shown.document.styleNotes.first { self.notice = note }
            done(shown)
        }
        BackgroundWork.run({ ShownPage(loaded: loaded, images: images, styles: options, tabbedTables: true) }) { [weak self] shown in
            guard let self, !session.isOver else { return }
            self.fetchStyleSheets(of: shown, loaded: loaded, options: options, round: 0, for: session, done: reported)
        }
    }

    /// One round: the sheets the last build lacked are fetched, then the page is built again; `@import`s found in
    /// them make another round, up to `PageStyleOptions.maximumImportDepth`.
    private func fetchStyleSheets(of shown: ShownPage, loaded: LoadedPage, options: PageStyleOptions, round: Int,
                                  for session: LoadSession, done: @escaping (ShownPage) -> Void) {
        let wanted = shown.document.missingStyleSheets.filter {
            options.sheets[$0] == nil && NavigationPolicy.subresourceRefusal(for: $0, page: loaded.finalURL) == nil
        }
        guard !wanted.isEmpty, round <= PageStyleOptions.maximumImportDepth,
              options.sheets.count < PageStyleOptions.maximumSheets else {
            done(shown)
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
                    done(rebuilt)
                }
            }
        }
        timer = MainLoopTimer(milliseconds: Self.styleSheetWait, name: "gtkprogress style sheet wait") {
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
