import FoundationEssentials
import Glibc
import GtkProgress

/// The desktop application: windows, each its own `Browser`, opened on the last session, the welcome page or the
/// URLs it is given (one window each), also by a second launch or the desktop's `open` when a session bus exists.
@MainActor
final class ViewerApp {
    private let options: CommandLineOptions
    private var application: Application!
    /// The open windows, the one used last at the end.
    private var browsers: [Browser] = []
    private var curve = ProgressCurve.default
    /// Messages for the first window's status line (a bad curve file, an unusable session file).
    private var startupMessages: [String] = []
    private var visited = VisitedLinks()
    /// The text size chosen last: new windows start with it.
    private var lastZoom = ZoomLevel.normal
    /// The last session, read once at the first window; nil when there was none to read.
    private var lastSession: SessionState?
    private var sessionRead = false
    private let sessionFile = SessionFile.standard()
    private var saveTimer: MainLoopTimer?
    /// Saving starts once the last session has been read (or deliberately not), so it is never overwritten unread.
    private var saving = false
    /// Ctrl+Q: the windows close one by one, but the session keeps them all.
    private var quitting = false
    private var sessionProblemShown = false
    /// The bookmarks, shared by every window.
    private lazy var bookmarks: BookmarkStore = {
        let store = BookmarkStore(path: BookmarkFile.standardPath())
        store.onProblem = { [unowned self] problem in self.browsers.last?.showNotice(problem) }
        return store
    }()
    /// The pages visited, shared by every window.
    private lazy var history: HistoryStore = {
        let store = HistoryStore(file: SessionFile.history(), isPrivate: options.isPrivate)
        store.onProblem = { [unowned self] problem in self.browsers.last?.showNotice(problem) }
        return store
    }()

    /// The first address's load, started before GTK (`startFirstNavigation`), until its window takes it over.
    private var early: EarlyNavigation?
    private static let applicationID = "org.gtkprogress.Viewer"

    init(options: CommandLineOptions) { self.options = options }

    private var loaderOptions: LoaderOptions {
        var loaderOptions = LoaderOptions()
        loaderOptions.throttleBytesPerSecond = options.throttle
        return loaderOptions
    }

    /// The first address given starts loading now, before GTK starts (the display, the application's
    /// registration on the session bus, the window's widgets: about 40 ms before the first main-loop turn on
    /// this machine), so that its request is on the wire meanwhile (bench/README.md, row `imagestart`). Its
    /// window takes the load over when it is built (`newWindow`). Only when this process is going to show it: a
    /// display is named and no viewer runs already to take the addresses over.
    private func startFirstNavigation(_ uris: [String]) {
        guard let first = uris.first, let url = URL(string: first) else { return }
        let display = ["DISPLAY", "WAYLAND_DISPLAY"].contains { (name: String) in
            guard let value = getenv(name) else { return false }
            return value.pointee != 0
        }
        guard display, !Application.isRunningElsewhere(id: Self.applicationID) else { return }
        early = EarlyNavigation(opening: url, kind: .commandLine, loaderOptions: loaderOptions,
                                preloadImages: !options.noImages)
        // The connection and the request go out now, each in a main-loop turn of its own.
        MainLoop.dispatchReady()
    }

    func run() -> Int32 {
        // Targets become absolute URLs here, so relative paths and bare host names mean what the user meant.
        var uris: [String] = []
        for target in options.targets {
            switch AddressInput.url(from: target, workingDirectory: FileManager.default.currentDirectoryPath) {
            case .success(let url): uris.append(url.absoluteString)
            case .failure(let failure): report(failure.description)
            }
        }
        startFirstNavigation(uris)
        guard Display.initialize() else {
            early?.cancel()
            printError(L("cannot open a display; set DISPLAY or run it in a desktop session (--dump works without one)"))
            return 1
        }
        if early != nil { MainLoop.dispatchReady() }
        if let name = options.curve {
            do { curve = try ProgressCurve.load(nameOrPath: name) } catch {
                report(L("%@ Using the wechat curve.", "\(error)"))
            }
        }
        // Handlers first: once registered, a second launch's `open` may come in any main-loop turn, and the turns
        // below (`dispatchReady`) come before `run`.
        var application = Application(id: Self.applicationID)
        connectHandlers(application)
        if !application.register() {
            application = Application(id: Self.applicationID, unique: false)
            connectHandlers(application)
        }
        self.application = application
        // A viewer already runs: the addresses go to it and open with its curve, throttle and session. Options that
        // only this process would have used are said to be left out, not silently dropped.
        if application.isRemote {
            early?.cancel()
            early = nil
            let ignored = [options.curve.map { _ in "--curve" }, options.throttle.map { _ in "--throttle" },
                           options.newSession ? "--new-session" : nil, options.isPrivate ? "--private" : nil]
                .compactMap { $0 }
            if !ignored.isEmpty {
                printError(L("%@ not applied: a viewer is already running, and the addresses open in it as it is.",
                             ignored.joined(separator: ", ")))
            }
        }
        if early != nil { MainLoop.dispatchReady() }
        history.load()
        bookmarks.load()
        if early != nil { MainLoop.dispatchReady() }
        return application.run(arguments: [CommandLine.arguments[0]] + uris)
    }

    private func connectHandlers(_ application: Application) {
        application.onActivate { [unowned self] in self.activate() }
        application.onOpen { [unowned self] uris in self.open(uris) }
    }

    private func report(_ message: String) {
        printError(message)
        startupMessages.append(message)
    }

    // MARK: Windows

    /// Started without URLs, or launched again: the window used last comes to the front; the first time, the
    /// last session's windows come back (unless `--new-session`), else the welcome page opens.
    private func activate() {
        if let browser = browsers.last {
            browser.chrome.window.present()
            return
        }
        readSession()
        if !options.newSession, let windows = lastSession?.windows, !windows.isEmpty {
            for window in windows { newWindow(opening: nil, restoring: window) }
            return
        }
        newWindow(opening: DataFiles.localizedURL("welcome.html"))
    }

    /// URLs from the command line, a second launch or the desktop: a window each. A single URL handed to a running
    /// viewer opens in the window used last, as a new page in its history.
    private func open(_ uris: [String]) {
        readSession()
        let urls = uris.compactMap(URL.init(string:))
        if urls.count == 1, let browser = browsers.last {
            browser.open(urls[0], kind: .commandLine)
            browser.chrome.window.present()
            return
        }
        let many = ManyAddresses(urls)
        if let notice = many.notice { report(notice) }
        for url in many.opened { newWindow(opening: url) }
        // A first address no window opened after all does not go on loading.
        early?.cancel()
        early = nil
        if browsers.isEmpty { activate() }
    }

    @discardableResult
    private func newWindow(opening url: URL?, kind: NavigationKind = .commandLine, zoom: ZoomLevel? = nil,
                           images: Bool? = nil, restoring saved: SessionState.Window? = nil,
                           focusAddress: Bool = false) -> Browser {
        // The first address's load, started before the window (`startFirstNavigation`), goes on in it.
        let started = saved == nil && early?.url == url ? early : nil
        if started != nil {
            early = nil
            // What came while GTK started is taken in before the window is built (the page's bytes, and with them
            // the first images asked for: `ImagePreloads`).
            MainLoop.dispatchReady()
        }
        let browser = Browser(window: application.makeWindow(), curve: curve, loaderOptions: loaderOptions,
                              visited: visited, starting: started)
        browser.pageStyles = !options.noCSS
        browsers.append(browser)
        browser.historyStore = history
        browser.bookmarkStore = bookmarks
        browser.onOpenInNewWindow = { [unowned self, unowned browser] url, kind in
            self.newWindow(opening: url, kind: kind, zoom: browser.zoom, images: browser.imagesShown)
        }
        // Ctrl+N: the new window's address entry has the keyboard, as in GNOME Web, ready for an address.
        browser.onNewWindow = { [unowned self, unowned browser] in
            self.newWindow(opening: DataFiles.localizedURL("welcome.html"), zoom: browser.zoom,
                           images: browser.imagesShown, focusAddress: true)
        }
        browser.onQuit = { [unowned self] in self.quit() }
        browser.onStateChanged = { [unowned self] in self.sessionChanged() }
        browser.onZoomChanged = { [unowned self] level in self.lastZoom = level }
        browser.chrome.window.onFocusChange { [unowned self, weak browser] focused in
            guard focused, let browser, let index = self.browsers.firstIndex(where: { $0 === browser }) else { return }
            self.browsers.append(self.browsers.remove(at: index))
        }
        browser.chrome.window.onDestroy { [unowned self, weak browser] in
            guard let browser else { return }
            self.windowClosed(browser)
        }
        // `--no-images` holds for every window of this run, restored ones too; otherwise a window opened from
        // another shows images as that one does.
        if options.noImages || images == false { browser.setImagesShown(false) }
        if let saved {
            browser.restore(saved)
        } else {
            let zoom = zoom ?? lastZoom
            if zoom != .normal { browser.setZoom(zoom, announce: false) }
            if let started {
                browser.resume(started)
            } else if let url {
                browser.open(url, kind: kind)
            }
        }
        if !startupMessages.isEmpty {
            browser.showNotice(startupMessages.joined(separator: " "))
            startupMessages = []
        }
        // A local page is read and laid out before the window maps, so its first frame shows the page.
        browser.whenLocalPageShown(within: 200) { [unowned browser] in
            browser.chrome.window.showAll()
            browser.chrome.window.present()
            if focusAddress { browser.focusAddress() }
        }
        sessionChanged()
        return browser
    }

    /// Ctrl+Q: the session is saved with every window, then they all close.
    private func quit() {
        saveNow()
        history.saveNow()
        bookmarks.saveNow()
        quitting = true
        for browser in browsers { browser.chrome.window.close() }
    }

    /// A window closed. The session forgets it while others stay open; the last window (or all of them, on
    /// Ctrl+Q) is what the next start brings back.
    private func windowClosed(_ browser: Browser) {
        if !quitting && browsers.count == 1 {
            saveNow()
            history.saveNow()
            bookmarks.saveNow()
        }
        browsers.removeAll { $0 === browser }
        if !quitting && !browsers.isEmpty { sessionChanged() }
    }

    // MARK: Session

    /// Reads the last session once, before the first window opens: its visited addresses and text size are
    /// kept even when its windows do not come back (`--new-session`, or addresses to open). A damaged file is
    /// set aside with a one-line notice, and saving starts only now, so a session is never overwritten unread.
    private func readSession() {
        guard !sessionRead else { return }
        sessionRead = true
        // Private: the last session is neither restored nor overwritten.
        guard !options.isPrivate else { return }
        guard let sessionFile else {
            printError(SessionFile.unavailableMessage())
            return
        }
        // Another viewer that keeps the session (no session bus made them one application): this one only reads.
        let claim = sessionFile.claim()
        if let message = claim.message { printError(message) }
        defer { if claim.message == nil { startSaving() } }
        switch sessionFile.read() {
        case .missing:
            break
        case .damaged(let message):
            let aside = sessionFile.setAside()
            report(message + (aside.map { " It was kept as \($0); starting a new session." } ?? " Starting a new session."))
        case .session(let state):
            lastSession = state
            visited = VisitedLinks(restoring: state.visited)
            lastZoom = state.zoom
        }
    }

    private func startSaving() { saving = true }

    /// Something a session keeps changed: saved half a second after the last change, so scrolling or a burst of
    /// navigations writes once.
    private func sessionChanged() {
        guard saving, !quitting, saveTimer == nil, sessionFile != nil else { return }
        saveTimer = MainLoopTimer(milliseconds: 500) { [weak self] in
            guard let self else { return false }
            self.saveTimer = nil
            self.save(wait: false)
            return false
        }
    }

    private func saveNow() {
        saveTimer = nil
        save(wait: true)
    }

    private func save(wait: Bool) {
        guard saving, let sessionFile else { return }
        let windows = browsers.map(\.sessionWindow).filter { !$0.entries.isEmpty }
        let data = SessionState(windows: windows, visited: visited.urls, zoom: lastZoom).encoded()
        if wait {
            if let problem = sessionFile.saveAndWait(data) { printError(problem) }
        } else {
            // The app is main-actor isolated, and so Sendable: the file's queue hands it back to the main loop.
            sessionFile.save(data) { [weak self] problem in
                MainLoop.post { self?.sessionProblem(problem) }
            }
        }
    }

    /// A session that cannot be saved is said once, not at every scroll.
    private func sessionProblem(_ problem: String) {
        guard !sessionProblemShown else { return }
        sessionProblemShown = true
        printError(problem)
        browsers.last?.showNotice(problem)
    }
}
