import Foundation

/// Wires one window together. Data flows one way: a user event asks the navigation model; the model's decision
/// starts the loader or shows a cached page; loader events drive the progress bar and the document; the chrome
/// (buttons, title, address, status) is then refreshed from the model.
public final class Browser {
    public let chrome: BrowserWindow
    public let page: PageView
    public let bar: ProgressBarView
    public let model = NavigationModel<ShownPage>()
    private let loader: PageLoader
    /// Re-renders the part of the page that has arrived, at most every 0.5 s.
    private var progressiveTimer: MainLoopTimer?
    private var progressiveLength = 0
    private var showingPartial = false
    /// A pending `<meta http-equiv="refresh">`.
    private var refreshTimer: MainLoopTimer?
    private var response: LoadResponse?
    private var hovering = false
    /// A message that outlives the next page load's own status (a bad curve file at startup).
    private var notice: String?

    /// How many pages around the current one keep their rendered document for Back/Forward.
    private static let cachedPages = 10

    public init(window: Window, curve: ProgressCurve, loaderOptions: LoaderOptions = LoaderOptions()) {
        page = PageView()
        bar = ProgressBarView(curve: curve)
        chrome = BrowserWindow(window: window, page: page.root, bar: bar.widget)
        loader = PageLoader(options: loaderOptions)
        connectChrome()
        refreshChrome()
    }

    /// Shows `message` in the status line until the page being loaded has arrived and the user moves on.
    public func showNotice(_ message: String) {
        notice = message
        chrome.statusText = message
    }

    // MARK: User events

    /// Opens `url` as a navigation of `kind` (command line, drop, typed, link).
    public func open(_ url: URL, kind: NavigationKind) {
        saveScroll()
        apply(model.navigate(to: url, kind: kind))
    }

    /// Text from the address entry, the command line or a drop; text that is no address leaves everything as it was.
    public func open(text: String, kind: NavigationKind, workingDirectory: String? = nil) {
        switch AddressInput.url(from: text, workingDirectory: workingDirectory) {
        case .success(let url): open(url, kind: kind)
        case .failure(let failure): chrome.statusText = failure.description
        }
    }

    public func goBack() { saveScroll(); stopLoading(restore: false); apply(model.goBack()) }
    public func goForward() { saveScroll(); stopLoading(restore: false); apply(model.goForward()) }
    public func reload() { saveScroll(); apply(model.reload()) }

    /// Stop: ends the transfer at once and keeps the entry and page shown before.
    public func stop() {
        guard model.isLoading else { return }
        stopLoading(restore: true)
        chrome.statusText = "Stopped."
        refreshChrome()
    }

    private func followLink(_ url: URL) {
        if let current = model.current, current.page?.kind == .error, url == current.url {
            reload()
            return
        }
        // A link to a place in the page being read scrolls there; loading the page again would lose the page.
        if let current = model.current, let fragment = url.fragment,
           Self.withoutFragment(url) == Self.withoutFragment(current.url) {
            chrome.statusText = page.scroll(toAnchor: fragment) ? "" : "This page has no place named “#\(fragment)”."
            return
        }
        open(url, kind: .link)
    }

    // MARK: Decisions

    private func apply(_ decision: NavigationDecision<ShownPage>) {
        switch decision {
        case .load(let navigation):
            start(navigation)
        case .showCached(let entry):
            guard let shown = entry.page else { return }
            bar.cancel()
            page.show(shown.document, scrollTo: entry.scrollOffset)
            chrome.statusText = shown.status
        case .refused(let message):
            chrome.statusText = message
        case .none:
            break
        }
        refreshChrome()
    }

    private func start(_ navigation: PendingNavigation) {
        refreshTimer = nil
        progressiveTimer = nil
        progressiveLength = 0
        response = nil
        bar.start()
        chrome.statusText = "Loading \(navigation.url.host ?? navigation.url.lastPathComponent)…"
        let request = LoadRequest(url: navigation.url)
        loader.load(request) { [weak self] event in self?.handle(event, of: navigation) }
        progressiveTimer = MainLoopTimer(milliseconds: 500) { [weak self] in self?.renderArrived() ?? false }
    }

    private func stopLoading(restore: Bool) {
        guard model.isLoading else { return }
        loader.cancel()
        model.cancel()
        bar.cancel()
        progressiveTimer = nil
        if restore, showingPartial, let entry = model.current, let shown = entry.page {
            page.show(shown.document, scrollTo: entry.scrollOffset)
        }
        showingPartial = false
    }

    // MARK: Loader events

    private func handle(_ event: LoadEvent, of navigation: PendingNavigation) {
        guard model.isCurrent(navigation.id) else { return }
        switch event {
        case .response(let response):
            self.response = response
            chrome.statusText = "Receiving \(response.finalURL.host ?? response.finalURL.lastPathComponent)…"
        case .progress(let received, let expected):
            bar.realProgress(received: received, expected: expected)
        case .finished(let loaded):
            finish(navigation, with: loaded)
        case .failed(let error):
            fail(navigation, with: error)
        }
    }

    private func finish(_ navigation: PendingNavigation, with loaded: LoadedPage) {
        progressiveTimer = nil
        let shown = ShownPage(loaded: loaded)
        let scroll = navigation.kind == .reload ? page.verticalOffset : 0
        model.commit(navigation, finalURL: loaded.finalURL, title: shown.document.title, page: shown)
        model.trimCache(keeping: Self.cachedPages)
        showingPartial = false
        page.show(shown.document, scrollTo: scroll)
        bar.finish()
        chrome.statusText = notice ?? shown.status
        notice = nil
        refreshChrome()
        scheduleRefresh(shown.document, from: loaded.finalURL)
    }

    private func fail(_ navigation: PendingNavigation, with error: LoadError) {
        progressiveTimer = nil
        let document = Document.parse(html: GeneratedPages.errorHTML(url: navigation.url, message: error.message),
                                      baseURL: navigation.url)
        let shown = ShownPage(document: document, kind: .error, status: error.message)
        model.commit(navigation, finalURL: navigation.url, title: document.title, page: shown, isError: true)
        showingPartial = false
        page.show(document, scrollTo: 0)
        bar.fail()
        chrome.statusText = error.message
        refreshChrome()
    }

    /// Progressive display: what has arrived is rendered, keeping the reader's scroll position.
    private func renderArrived() -> Bool {
        guard model.isLoading else { return false }
        guard let text = loader.partialText(), text.utf8.count != progressiveLength else { return true }
        progressiveLength = text.utf8.count
        let base = response?.finalURL ?? model.pending?.url
        let isHTML = response?.contentType.map { $0.lowercased().contains("html") } ?? true
        page.showProgressive(isHTML ? Document.parse(html: text, baseURL: base) : Document.plainText(text))
        showingPartial = true
        return true
    }

    /// `<meta http-equiv="refresh">` replaces the current entry (seed 003), after its delay (at most a minute).
    private func scheduleRefresh(_ document: Document, from url: URL) {
        guard let refresh = document.metaRefresh else { return }
        let delay = UInt32(min(max(refresh.delay, 0), 60) * 1000)
        refreshTimer = MainLoopTimer(milliseconds: max(delay, 1)) { [weak self] in
            guard let self else { return false }
            self.refreshTimer = nil
            if self.model.current?.url == url, !self.model.isLoading { self.apply(self.model.navigate(to: refresh.url, kind: .replace)) }
            return false
        }
    }

    // MARK: Chrome

    private func saveScroll() { if !showingPartial { model.saveScroll(page.verticalOffset) } }

    /// Everything the chrome shows comes from the model.
    private func refreshChrome() {
        chrome.setHistory(canGoBack: model.canGoBack, canGoForward: model.canGoForward)
        chrome.setLoading(model.isLoading)
        chrome.showAddress(model.pending?.url ?? model.current?.url)
        chrome.window.title = Self.windowTitle(for: model.current)
    }

    static func withoutFragment(_ url: URL) -> String {
        url.absoluteString.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
    }

    /// The page title, or the host when the page has none (seed 003 §3.3).
    public static func windowTitle(for entry: HistoryEntry<ShownPage>?) -> String {
        guard let entry else { return "GtkProgress" }
        if let title = entry.title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty { return title }
        if let host = entry.url.host, !host.isEmpty { return host }
        return entry.url.lastPathComponent.isEmpty ? "GtkProgress" : entry.url.lastPathComponent
    }

    private func connectChrome() {
        chrome.back.on("clicked") { [weak self] in self?.goBack() }
        chrome.forward.on("clicked") { [weak self] in self?.goForward() }
        chrome.reloadOrStop.on("clicked") { [weak self] in
            guard let self else { return }
            if self.model.isLoading { self.stop() } else { self.reload() }
        }
        chrome.address.on("activate") { [weak self] in
            guard let self else { return }
            self.open(text: self.chrome.address.text, kind: .typed)
            if self.model.isLoading { self.page.root.grabFocus() }
        }
        chrome.window.onKeyPress { [weak self] key in self?.handleKey(key) ?? false }
        // A drop anywhere navigates: the text view and the entry would otherwise keep it for themselves.
        page.refuseOwnDrops()
        chrome.address.refuseOwnDrops()
        chrome.window.acceptDrops { [weak self] dropped in
            guard let self else { return false }
            switch DroppedURL.url(target: dropped.target, bytes: dropped.bytes, uris: dropped.uris) {
            case .success(let url):
                self.open(url, kind: .dropped)
                return true
            case .failure(let failure):
                self.chrome.statusText = "Dropped text is not an address: \(failure.description)"
                return false
            }
        }
        page.onLinkActivated = { [weak self] url in self?.followLink(url) }
        page.onLinkHover = { [weak self] url in
            guard let self else { return }
            if let url {
                self.hovering = true
                self.chrome.statusText = BrowserWindow.displayString(url)
            } else if self.hovering {
                self.hovering = false
                self.chrome.statusText = self.model.isLoading ? "Loading…" : (self.model.current?.page?.status ?? "")
            }
        }
    }

    private func handleKey(_ key: KeyPress) -> Bool {
        switch (key.keyval, key.control, key.alt) {
        case (KeyPress.value("Left"), false, true): goBack()
        case (KeyPress.value("Right"), false, true): goForward()
        case (KeyPress.value("F5"), _, false), (KeyPress.value("r"), true, false): reload()
        case (KeyPress.value("Escape"), false, false):
            guard model.isLoading else {
                // Escape in the address entry puts back the address of the page shown.
                if chrome.address.hasFocus { chrome.address.text = model.current.map { BrowserWindow.displayString($0.url) } ?? ""; page.root.grabFocus() }
                return false
            }
            stop()
        case (KeyPress.value("l"), true, false):
            chrome.address.grabFocus()
            chrome.address.selectAll()
        case (KeyPress.value("w"), true, false), (KeyPress.value("q"), true, false):
            chrome.window.close()
        case (KeyPress.value("s"), true, false):
            saveBinary()
        default:
            return false
        }
        return true
    }

    private func saveBinary() {
        guard let entry = model.current, let shown = entry.page, case .binary = shown.kind else {
            chrome.statusText = "Only files that are not shown as text can be saved."
            return
        }
        let name = entry.url.lastPathComponent.isEmpty ? "download" : entry.url.lastPathComponent
        guard let path = FileChooser.save(parent: chrome.window, suggestedName: name) else { return }
        do {
            try Data(shown.body).write(to: URL(fileURLWithPath: path))
            chrome.statusText = "Saved \(GeneratedPages.formatBytes(shown.body.count)) to \(path)."
        } catch {
            chrome.statusText = "Could not save to \(path): \(error.localizedDescription)"
        }
    }
}
