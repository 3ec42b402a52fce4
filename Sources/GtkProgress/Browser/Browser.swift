import FoundationEssentials
import GtkProgressFiles

/// Wires one window together. Data flows one way: a user event asks the navigation model; the model's decision
/// starts a load or shows a cached page; loader events drive the load indicator and the document; the chrome
/// (buttons, title, address, status) is then refreshed from the model.
///
/// By concern: this file takes user events and applies the model's decisions; `Browser+Loading` handles the load
/// in flight; `Browser+Chrome` connects the window's widgets and keys and reflects the model in them.
public final class Browser {
    public let chrome: BrowserWindow
    public let page: PageView
    public let indicator: LoadIndicator
    public let model = NavigationModel<ShownPage>()
    let loader: PageLoader
    /// The load in flight, if any.
    var session: LoadSession?
    /// A pending `<meta http-equiv="refresh">`.
    var refreshTimer: MainLoopTimer?
    var hovering = false
    /// A message that outlives the next page load's own status (a bad curve file at startup).
    var notice: String?

    /// How many pages around the current one keep their rendered document for Back/Forward.
    static let cachedPages = 10

    public init(window: Window, curve: ProgressCurve, loaderOptions: LoaderOptions = LoaderOptions()) {
        page = PageView()
        indicator = LoadIndicator(curve: curve)
        chrome = BrowserWindow(window: window, page: page.root, bar: indicator.view.widget)
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

    /// Several addresses at once (a drop, the command line). This window shows one page at a time: the first
    /// opens, and the status line says how many did not.
    public func open(_ urls: [URL], kind: NavigationKind) {
        guard let first = urls.first else { return }
        open(first, kind: kind)
        guard urls.count > 1 else { return }
        let others = urls.count - 1
        let message = "Opened the first of \(urls.count) addresses; this window shows one page at a time, so "
            + (others == 1 ? "the other one was not opened." : "the other \(others) were not opened.")
        showNotice([notice, message].compactMap { $0 }.joined(separator: " "))
    }

    /// Text from the address entry, the command line or a drop; text that is no address leaves everything as it was.
    public func open(text: String, kind: NavigationKind, workingDirectory: String? = nil) {
        switch AddressInput.url(from: text, workingDirectory: workingDirectory) {
        case .success(let url): open(url, kind: kind)
        case .failure(let failure): chrome.statusText = failure.description
        }
    }

    /// The model counts from a history load in flight, so each quick press moves one entry further; the load in
    /// flight ends when the decision is applied.
    public func goBack() { saveScroll(); apply(model.goBack()) }
    public func goForward() { saveScroll(); apply(model.goForward()) }
    public func reload() { saveScroll(); apply(model.reload()) }

    /// Stop: ends the transfer at once and keeps the entry and page shown before.
    public func stop() {
        guard model.isLoading else { return }
        stopLoading(restore: true)
        chrome.statusText = "Stopped."
        refreshChrome()
    }

    func followLink(_ url: URL) {
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

    func apply(_ decision: NavigationDecision<ShownPage>) {
        switch decision {
        case .load(let navigation):
            start(navigation)
        case .showCached(let entry):
            guard let shown = entry.page else { return }
            endSession()
            indicator.cancel()
            page.show(shown.document, scrollTo: entry.scrollOffset)
            chrome.statusText = shown.status
        case .refused(let message):
            chrome.statusText = message
        case .none:
            break
        }
        refreshChrome()
    }

    static func withoutFragment(_ url: URL) -> String {
        url.absoluteString.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
    }

    func saveBinary() {
        guard let entry = model.current, let shown = entry.page, case .binary = shown.kind else {
            chrome.statusText = "Only files that are not shown as text can be saved."
            return
        }
        let name = entry.url.lastPathComponent.isEmpty ? "download" : entry.url.lastPathComponent
        guard let path = FileChooser.save(parent: chrome.window, suggestedName: name) else { return }
        // Up to the loader's size cap: written off the main loop.
        let body = shown.body
        chrome.statusText = "Saving to \(path)…"
        BackgroundWork.run({ LocalFile.write(body, to: path) }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                self.chrome.statusText = "Saved \(GeneratedPages.formatBytes(body.count)) to \(path)."
            case .failure(let error):
                self.chrome.statusText = "Could not save to \(path): \(LocalFile.describe(error.code))."
            }
        })
    }
}
