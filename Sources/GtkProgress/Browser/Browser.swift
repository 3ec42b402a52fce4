import FoundationEssentials
import GtkProgressFiles

/// Wires one window together. Data flows one way: a user event asks the navigation model; the model's decision
/// starts a load or shows a cached page; loader events drive the load indicator and the document; the chrome
/// (buttons, title, address, status) is then refreshed from the model.
///
/// By concern: this file takes user events and applies the model's decisions; `Browser+Loading` handles the load
/// in flight; `Browser+Chrome` connects the window's widgets and keys and reflects the model in them.
@MainActor
package final class Browser {
    package let chrome: BrowserWindow
    package let page: PageView
    package let indicator: LoadIndicator
    package let model: NavigationModel<ShownPage>
    let loader: PageLoader
    /// The load in flight, if any.
    var session: LoadSession?
    /// Pictures of pages in the back/forward cache, and the image loads of the page on screen.
    let pictures = PictureCache()
    var shownImages: PageImageLoads?
    /// Whether this window shows the pages' images; when not, their alt text stands in and none is fetched
    /// (`--no-images`, or the reader's choice, kept in the session).
    package internal(set) var imagesShown = true
    /// A pending `<meta http-equiv="refresh">`.
    var refreshTimer: MainLoopTimer?
    /// What the page shown was built from, while its media queries read the window's width: a resize across one
    /// of their widths builds it again (`Browser+Styles.swift`).
    var restyle: PageRestyle?
    var restyleTimer: MainLoopTimer?
    var hovering = false
    /// Reload was pressed on a page that answered a form sent by POST, and the reader was asked: Reload again
    /// sends the form again. Any other navigation forgets the question.
    var resendAsked = false
    /// A message that outlives the next page load's own status (a bad curve file at startup).
    var notice: String?
    /// The text size of this window's pages.
    package internal(set) var zoom = ZoomLevel.normal
    /// Pages are shown with their author styles (`--no-css` turns them off, and the page menu's "Page Style";
    /// `Browser+Styles.swift`).
    package var pageStyles = true {
        didSet { page.pageStyles = pageStyles }
    }
    /// The addresses visited, shared with the other windows.
    package let visited: VisitedLinks
    /// Waiting for the local page being loaded to be shown (`whenLocalPageShown`), and how long at most.
    var pageShownWaiter: (() -> Void)?
    var pageShownDeadline: MainLoopTimer?
    /// The history every window records to (none in a browser made without one: nothing is recorded).
    package var historyStore: HistoryStore? {
        didSet {
            historyStore?.onChange.append { [weak self] in self?.completionChanged() }
            completionChanged()
        }
    }
    /// Suggestions from the history and the bookmarks under the address entry.
    var completion: EntryCompletion?
    var completionPending = false
    /// The page last recorded, so that a refresh of the chrome does not record it again.
    var lastRecorded: (url: URL, title: String?)?
    /// The bookmarks every window shares (none: the star is insensitive and Ctrl+D does nothing).
    package var bookmarkStore: BookmarkStore? {
        didSet {
            bookmarkStore?.onChange.append { [weak self] in
                self?.refreshStar()
                self?.completionChanged()
            }
            refreshStar()
            completionChanged()
        }
    }
    /// This window's History window, while it is open.
    var historyWindow: HistoryWindow?
    /// The keyboard shortcuts window, made the first time it is asked for and then hidden and shown again.
    var shortcutsWindow: Window?

    /// Asked to open an address in a window of its own: a link (middle-click, Ctrl+click, the link's menu,
    /// Shift+Return), or the second and later addresses of a drop. The kind carries what the new window's
    /// navigation may reach (`NavigationPolicy`). Without a handler a link opens in this window.
    package var onOpenInNewWindow: ((URL, NavigationKind) -> Void)?
    /// Ctrl+N: a new window.
    package var onNewWindow: (() -> Void)?
    /// Ctrl+Q: every window closes. Without a handler only this one does.
    package var onQuit: (() -> Void)?
    /// The reader chose another text size in this window.
    package var onZoomChanged: ((ZoomLevel) -> Void)?
    /// Something a session keeps changed: the history, the scroll position, the text size.
    package var onStateChanged: (() -> Void)?

    /// How many pages around the current one keep their rendered document for Back/Forward.
    static let cachedPages = 10

    /// `starting`: the first navigation, started before this window was built; the window takes over its model
    /// and its loader, and `resume(_:)` then shows its load.
    package init(window: Window, curve: ProgressCurve, loaderOptions: LoaderOptions = LoaderOptions(),
                visited: VisitedLinks = VisitedLinks(), starting early: EarlyNavigation? = nil) {
        self.visited = visited
        page = PageView()
        indicator = LoadIndicator(curve: curve)
        chrome = BrowserWindow(window: window, page: page.root, bar: indicator.view.widget)
        model = early?.model ?? NavigationModel<ShownPage>()
        loader = early?.loader ?? PageLoader(options: loaderOptions)
        page.isVisited = { [visited] url in visited.contains(url) }
        page.imagesShown = imagesShown
        page.onImagesToggled = { [weak self] on in self?.setImagesShown(on) }
        indicator.onStallChange = { [weak self] _ in self?.stallChanged() }
        page.onWidthChange = { [weak self] in self?.widthChanged() }
        connectChrome()
        refreshChrome()
        // The page has the keyboard from the start: Space, arrows and Tab read it, Ctrl+L reaches the address.
        page.focus()
    }

    /// Shows `message` in the status line until the page being loaded has arrived and the user moves on.
    package func showNotice(_ message: String) {
        notice = message
        chrome.statusText = message
    }

    // MARK: User events

    /// Opens `url` as a navigation of `kind` (command line, drop, typed, link).
    package func open(_ url: URL, kind: NavigationKind) {
        saveScroll()
        apply(model.navigate(to: url, kind: kind))
    }

    /// Several addresses at once (a drop, the command line): the first opens here and each of the others in a
    /// window of its own. Without anything that opens windows, the status line says how many were not opened.
    package func open(_ urls: [URL], kind: NavigationKind) {
        guard let first = urls.first else { return }
        open(first, kind: kind)
        guard urls.count > 1 else { return }
        if let onOpenInNewWindow {
            let many = ManyAddresses(urls)
            for url in many.opened.dropFirst() { onOpenInNewWindow(url, kind) }
            if let message = many.notice { showNotice([notice, message].compactMap { $0 }.joined(separator: " ")) }
            return
        }
        let others = urls.count - 1
        let message = LN("Opened the first of %ld addresses; this window shows one page at a time, so the other "
            + "one was not opened.", "Opened the first of %ld addresses; this window shows one page at a time, so the "
            + "other %ld were not opened.", others, urls.count, others)
        showNotice([notice, message].compactMap { $0 }.joined(separator: " "))
    }

    /// Text from the address entry, the command line or a drop; text that is no address leaves everything as it was.
    package func open(text: String, kind: NavigationKind, workingDirectory: String? = nil) {
        switch AddressInput.url(from: text, workingDirectory: workingDirectory) {
        case .success(let url): open(url, kind: kind)
        case .failure(.notAnAddress(let words)) where kind == .typed && hasMatches(for: words):
            // Words that are no address look through the history and the bookmarks instead.
            showHistory(query: words)
        case .failure(let failure): chrome.statusText = failure.description
        }
    }

    /// Whether the history or the bookmarks have pages that match `words`.
    func hasMatches(for words: String) -> Bool {
        guard historyStore != nil else { return false }
        return !(historyStore?.history.matches(words, limit: 1).isEmpty ?? true)
            || !(bookmarkStore?.bookmarks.matches(words, limit: 1).isEmpty ?? true)
    }

    /// The model counts from a history load in flight, so each quick press moves one entry further; the load in
    /// flight ends when the decision is applied.
    package func goBack() { saveScroll(); apply(model.goBack()) }
    package func goForward() { saveScroll(); apply(model.goForward()) }
    package func reload() {
        saveScroll()
        let resend = resendAsked
        resendAsked = false
        apply(model.reload(resendingForm: resend))
    }

    /// Sends a form of the page (`FormSubmission`), through the navigation model and its policy like a link.
    func submitForm(_ submission: FormSubmission) {
        saveScroll()
        resendAsked = false
        apply(model.submitForm(submission))
    }

    /// Whether a load is under way: its document, or, once the document is in, its images.
    var isBusy: Bool { model.isLoading || session?.images != nil }

    /// Stop: ends the transfer at once and keeps the entry and page shown before.
    package func stop() {
        guard isBusy else { return }
        stopLoading(restore: true)
        chrome.statusText = L("Stopped.")
        refreshChrome()
    }

    func followLink(_ url: URL) {
        if let current = model.current, current.page?.kind == .error, url == current.url {
            reload()
            return
        }
        saveScroll()
        let decision = model.navigate(to: url, kind: .link)
        // A refused link was not visited: it stays the colour of a link not followed.
        if case .refused = decision {} else { noteVisited(url) }
        apply(decision)
    }

    /// Opens a link of this page in a new window (or here, when nothing opens windows). This page's model decides
    /// what the link may reach, and the new window's navigation carries that decision.
    func openLinkInNewWindow(_ url: URL) {
        guard let onOpenInNewWindow else { return followLink(url) }
        switch model.linkInNewWindow(url) {
        case .success(let kind):
            noteVisited(url)
            onOpenInNewWindow(url, kind)
        case .failure(let refusal):
            chrome.statusText = refusal.message
        }
    }

    private func noteVisited(_ url: URL) {
        visited.insert(url)
        page.markVisited(url)
    }

    // MARK: Decisions

    func apply(_ decision: NavigationDecision<ShownPage>) {
        switch decision {
        case .load(let navigation):
            start(navigation)
        case .showCached(let entry):
            guard let shown = entry.page else { return }
            endSession()
            indicator.cancel()
            page.show(shown.document, scrollTo: entry.scrollOffset)
            showImages(of: shown.document, from: entry.url)
            chrome.statusText = shown.status
            focusPage()
        case .sameDocument(let entry, let scroll):
            // A load in flight is abandoned, as the model has already forgotten it.
            stopLoading(restore: true)
            guard let shown = entry.page else { break }
            if page.document?.storage !== shown.document.storage {
                page.show(shown.document, scrollTo: nil)
                showImages(of: shown.document, from: entry.url)
                chrome.statusText = shown.status
            }
            switch scroll {
            case .offset(let offset):
                page.scroll(toOffset: offset)
            case .fragment(let name):
                scrollToFragment(name)
            }
        case .refused(let message):
            chrome.statusText = message
        case .confirmResend(let entry):
            // Asked on the status line, where Reload's answers go; Reload again is the reader's yes.
            resendAsked = true
            chrome.statusText = L("This page is the answer to a form sent to %@. Reload again to send the form again.",
                                  BrowserWindow.statusString(entry.url))
        case .none:
            break
        }
        refreshChrome()
    }

    /// Scrolls to the place a fragment names; an empty fragment or `top` with no such place is the top of the
    /// page (WHATWG HTML, "find a potential indicated element" and "scroll to the fragment").
    func scrollToFragment(_ name: String) {
        if page.scroll(toAnchor: name) { return }
        let decoded = name.removingPercentEscapes ?? name
        if decoded.isEmpty || decoded.lowercased() == "top" {
            page.scroll(toOffset: 0)
        } else {
            chrome.statusText = L("This page has no place named “#%@”.", decoded)
        }
    }

    /// After a page is shown the page has the keyboard, unless the reader is typing an address or a search.
    func focusPage() {
        guard !chrome.address.hasFocus, !chrome.findBar.entry.hasFocus else { return }
        page.focus()
    }

    func saveBinary() {
        guard let entry = model.current, let shown = entry.page, case .binary = shown.kind else {
            chrome.statusText = L("Only files that are not shown as text can be saved.")
            return
        }
        let name = entry.url.lastPathComponent.isEmpty ? "download" : entry.url.lastPathComponent
        guard let path = FileChooser.save(parent: chrome.window, suggestedName: name) else { return }
        // Up to the loader's size cap: written off the main loop.
        let body = shown.body
        chrome.statusText = L("Saving to %@…", path)
        BackgroundWork.run({ LocalFile.write(body, to: path) }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                self.chrome.statusText = L("Saved %@ to %@.", GeneratedPages.formatBytes(body.count), path)
            case .failure(let error):
                self.chrome.statusText = L("Could not save to %@: %@.", path, LocalFile.describe(error.code))
            }
        })
    }
}
