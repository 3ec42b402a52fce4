import FoundationEssentials

/// One navigation's load, from its start until its page and the page's images are in, or it is stopped: what
/// arrived so far, which of it is shown, the parses in flight, and then the images. Parsing runs off the main loop
/// (`BackgroundWork`); a result that comes back for a session that has ended is dropped. It has one end
/// (`Browser.end(_:_:)`), whichever way it ends.
@MainActor
final class LoadSession {
    /// How a load ends: its page and every image in; its document failed (an error page); Stop; or another
    /// navigation, or a page from the cache, took its place.
    enum Ending: Equatable {
        case finished, failed, stopped, replaced
    }

    let navigation: PendingNavigation
    var response: LoadResponse?
    var schedule = ProgressiveSchedule()
    /// A progressive parse is running; another waits until it returns.
    var parsing = false
    /// The last progressive render, shown while the rest arrives.
    var partial: Document?
    /// The load itself is over (finished or failed); the final parse may still run.
    var loadEnded = false
    /// The document's events and parses no longer matter: its page is shown, or the load has ended.
    var isOver = false
    private(set) var ending: Ending?
    /// Once the document is shown, its images: the load goes on until they are in (`Browser+Images.swift`).
    var images: PageImageLoads?
    /// How much of the arriving document has been looked through for an image tag, and whether one was seen.
    var scannedBytes = 0
    var sawImageTag = false
    /// The images the document names, asked for as it arrives (none when the window shows no images).
    var preloads: ImagePreloads?
    /// The document's last progress, kept back when it came after its transfer ended (nothing left to look
    /// through for image tags) until the parse says whether the page has images.
    var heldProgress: (received: Int64, expected: Int64?)?
    /// How much of the document has arrived and how fast, for the status (`TransferStatus`).
    var transferred: (received: Int64, expected: Int64?)?
    var rate = TransferRate()
    /// When the status last said how much had arrived: it is said again at most `statusInterval` later.
    var statusShownAt = -Double.infinity
    static let statusInterval = 0.25

    init(navigation: PendingNavigation) { self.navigation = navigation }

    fileprivate func end(_ ending: Ending) {
        self.ending = ending
        isOver = true
        images?.onChange = nil
        if ending != .finished { images?.cancel() }
    }
}

extension Browser {
    /// The one end of a load: nothing of it arrives afterwards. A load stopped or replaced stops its transfers,
    /// the document's and its images', at once.
    func end(_ session: LoadSession, _ ending: LoadSession.Ending) {
        guard session.ending == nil else { return }
        session.end(ending)
        if self.session === session { self.session = nil }
        switch ending {
        case .stopped, .replaced: loader.cancel()
        // Images asked for while the document arrived (`ImagePreloads`) that no image of the page took over.
        case .finished, .failed: loader.dropUnclaimedPreloads()
        }
    }

    func start(_ navigation: PendingNavigation) {
        let session = begin(navigation, at: nil)
        loader.load(LoadRequest(url: navigation.url, body: navigation.body)) { [weak self, session] event in
            self?.handle(event, of: session)
        }
    }

    /// Takes over `early`, the first navigation, started before this window was built with the model and loader
    /// this browser was made with: its decision is applied as if it had been made here, and its load goes on
    /// here, the events that came before handed on first. The bar's curve starts when the navigation did.
    package func resume(_ early: EarlyNavigation) {
        guard !early.isTaken, early.model === model, case .load(let navigation) = early.decision,
              model.isCurrent(navigation.id) else {
            if !early.isTaken, early.model === model { apply(early.decision) }
            return
        }
        let session = begin(navigation, at: early.startedAt)
        session.preloads = imagesShown ? early.preloads : nil
        if !imagesShown { loader.dropUnclaimedPreloads() }
        early.attach { [weak self, session] event in self?.handle(event, of: session) }
        refreshChrome()
    }

    /// A load of `navigation` begins here: the load before it ends, the bar starts (at `startedAt`, or now).
    private func begin(_ navigation: PendingNavigation, at startedAt: Double?) -> LoadSession {
        refreshTimer = nil
        if let session { end(session, .replaced) }
        // The page on screen stops fetching too: its lazy images would share the new page's connections.
        shownImages?.cancel()
        let session = LoadSession(navigation: navigation)
        if imagesShown { session.preloads = ImagePreloads(loader: loader) }
        restyle = nil
        self.session = session
        indicator.start(isLocal: navigation.url.isFileURL, at: startedAt)
        chrome.statusText = loadStatus(session)
        return session
    }

    /// Runs `ready` once the local file being loaded is shown (or its error page, or the load was stopped), or
    /// after `milliseconds` if that takes longer; at once when no local file is loading. A window shown from
    /// here opens with its page in its first frame, as a window that reads its file before showing does, instead
    /// of an empty frame and the page one frame (16.7 ms at 60 Hz) later. Network pages never wait: their window
    /// shows the load indicator.
    package func whenLocalPageShown(within milliseconds: UInt32, _ ready: @escaping () -> Void) {
        guard let session, session.navigation.url.isFileURL else { return ready() }
        pageShownWaiter = ready
        pageShownDeadline = chrome.sources.timer(milliseconds: milliseconds, name: "gtkprogress local page deadline") {
            [weak self] in
            self?.pageShown()
            return false
        }
    }

    /// The load in flight ended with something on screen: whoever waited for it goes on.
    func pageShown() {
        pageShownDeadline = nil
        guard let waiter = pageShownWaiter else { return }
        pageShownWaiter = nil
        waiter()
    }

    /// Ends the transfer in flight, if any, without touching the model (which has already moved on).
    func endSession() {
        guard let session else { return }
        end(session, .replaced)
        pageShown()
    }

    /// Ends the load in flight. With `restore`, the page shown before comes back; on a first load, what has
    /// arrived stays, as the current entry, so the address shows it and Reload loads it again.
    func stopLoading(restore: Bool) {
        guard let session else { return }
        defer { pageShown() }
        end(session, .stopped)
        indicator.cancel()
        // Once part of the page was on screen it is the current entry (`commitFirstPart`): what arrived stays,
        // as the page of that entry. Before that, the entry and the page shown before are still on screen.
        if let partial = session.partial, model.hasCommittedFirstPart(of: session.navigation) {
            model.updateFirstPart(session.navigation, title: partial.title,
                                  page: ShownPage(document: partial, kind: .page, status: L("Stopped.")))
        }
        model.cancel()
    }

    // MARK: Loader events

    private func handle(_ event: LoadEvent, of session: LoadSession) {
        guard !session.isOver, model.isCurrent(session.navigation.id) else { return }
        switch event {
        case .milestone(let milestone):
            indicator.milestone(milestone)
        case .response(let response):
            session.response = response
            chrome.statusText = loadStatus(session)
        case .progress(let received, let expected):
            noteTransfer(session, received: received, expected: expected)
            if let preloads = session.preloads, let arrived = loader.arrived() { preloads.look(at: arrived) }
            guard noticeImageTags(session) else {
                session.heldProgress = (received, expected)
                break
            }
            indicator.realProgress(received: received, expected: expected)
            renderArrived(session)
        case .finished(let loaded):
            session.loadEnded = true
            buildPage(loaded, for: session) { [weak self] shown, options in
                guard let self, !session.isOver else { return }
                self.finish(session, with: loaded, shown: shown, options: options)
            }
        case .failed(let error):
            session.loadEnded = true
            fail(session, with: error)
        }
    }

    /// Looks through the bytes that arrived since the last look for an image tag (`<img`, `<picture`):
    /// a page that has images gives its document's bytes only part of the bar from then on, so the bar is not full
    /// before the images are even known. Each byte is looked at once, at most `ImageTags.bytesPerLook` per event
    /// (the main loop is not held by a page that arrived faster than its events were taken); what is left is
    /// looked at by the next events. False when the bytes cannot be looked at: the transfer has ended and its
    /// events are being handed on.
    private func noticeImageTags(_ session: LoadSession) -> Bool {
        guard !session.sawImageTag else { return true }
        guard loader.isReceiving, let arrived = loader.arrived() else { return false }
        let bytes = arrived.bytes
        guard let look = ImageTags.nextLook(scanned: session.scannedBytes, arrived: bytes.count) else { return true }
        session.scannedBytes = look.upperBound
        if ImageTags.occur(in: bytes[look]) {
            session.sawImageTag = true
            expectImages()
        }
        return true
    }

    /// The status line while `session` loads: whom it waits for when the load has stalled (no byte for three
    /// seconds), else what it is doing.
    func loadStatus(_ session: LoadSession) -> String {
        let url = session.response?.finalURL ?? session.navigation.url
        let host = url.host ?? url.lastPathComponent
        if let images = session.images { return imageStatus(images) }
        if indicator.isStalled { return L("Waiting for %@…", host) }
        guard session.response != nil else { return L("Loading %@…", host) }
        guard let transfer = transferStatus(session) else { return L("Receiving %@…", host) }
        return L("Receiving %@: %@", host, transfer.description)
    }

    /// How much has arrived, and how fast, once the first byte is in.
    func transferStatus(_ session: LoadSession) -> TransferStatus? {
        guard let transferred = session.transferred, transferred.received > 0 else { return nil }
        return TransferStatus(received: transferred.received, expected: transferred.expected,
                              bytesPerSecond: session.rate.bytesPerSecond(at: MainLoop.monotonicSeconds()))
    }

    /// A progress event: the status says how much has come (a few times a second, not at every event), and the
    /// bar's accessible description says the same to a screen reader that asks.
    private func noteTransfer(_ session: LoadSession, received: Int64, expected: Int64?) {
        let now = MainLoop.monotonicSeconds()
        session.transferred = (received, expected)
        session.rate.note(bytes: received, at: now)
        guard now - session.statusShownAt >= LoadSession.statusInterval, session.images == nil else { return }
        session.statusShownAt = now
        let status = loadStatus(session)
        indicator.view.widget.setAccessibleDescription(status)
        if !hovering { chrome.statusText = status }
    }

    /// The indicator noticed the load stall or move again.
    func stallChanged() {
        guard let session, !hovering else { return }
        chrome.statusText = loadStatus(session)
    }

    /// Progressive display: when the schedule says so, what has arrived is parsed off the main loop and shown,
    /// keeping the reader's scroll position.
    private func renderArrived(_ session: LoadSession) {
        let now = MainLoop.monotonicSeconds()
        guard !session.parsing, !session.loadEnded, loader.isReceiving, let arrived = loader.arrived(),
              session.schedule.isDue(arrived: arrived.bytes.count, now: now) else { return }
        session.schedule.rendered(arrived.bytes.count, at: now)
        session.parsing = true
        let images = imageSelection
        let styles = pageStyleOptions
        BackgroundWork.run({ arrived.document(images: images, styles: styles) }) { [weak self] document in
            session.parsing = false
            guard let self, !session.isOver, !session.loadEnded else { return }
            if let document {
                if !document.images.isEmpty { self.expectImages() }
                session.partial = document
                self.page.showProgressive(document)
                // On screen now: the page being loaded is the current entry (address, title, Reload, Back).
                let shown = ShownPage(document: document, kind: .page,
                                      status: L("Only part of this page arrived: %@.",
                                                GeneratedPages.formatBytes(arrived.bytes.count)))
                if !self.model.commitFirstPart(session.navigation, finalURL: arrived.url,
                                               title: document.title, page: shown) {
                    self.model.updateFirstPart(session.navigation, title: document.title, page: shown)
                }
                self.refreshChrome()
            }
            // Bytes that came while this parse ran may already be due.
            self.renderArrived(session)
        }
    }

    private func finish(_ session: LoadSession, with loaded: LoadedPage, shown: ShownPage,
                        options: PageStyleOptions) {
        defer { pageShown() }
        // The document is in: its events and parses are over, whether or not images follow.
        session.isOver = true
        if HTTPStatus.keepsPageShown(loaded.status), let entry = model.current, let kept = entry.page {
            end(session, .finished)
            // Nothing to show: the navigation ends and the page shown before stays, as in browsers.
            model.cancel()
            if session.partial != nil { page.show(kept.document, scrollTo: entry.scrollOffset) }
            indicator.finish()
            chrome.statusText = shown.status + " " + L("The page shown before stays.")
            refreshChrome()
            return
        }
        let navigation = session.navigation
        let shownOffset = page.verticalOffset
        model.commit(navigation, finalURL: loaded.finalURL, title: shown.document.title, page: shown)
        model.trimCache(keeping: Self.cachedPages)
        visited.insert(navigation.url)
        if let url = model.current?.url { visited.insert(url) }
        // Reload keeps the reader's place; Back or Forward to a page loaded again (or a restored one) returns
        // to where they were; a new page starts at the top, or at the place its `#fragment` names. A page shown
        // while it arrived stays where the reader has scrolled it.
        var scroll = 0.0
        var fragment: String?
        switch navigation.kind {
        case .reload: scroll = shownOffset
        case .history: scroll = model.current?.scrollOffset ?? 0
        default: fragment = model.current?.url.fragment
        }
        let readerMoved = session.partial != nil && (shownOffset > 0 || navigation.kind == .reload)
        if readerMoved { scroll = shownOffset; fragment = nil }
        if session.partial != nil, shown.kind == .page {
            // What is on screen stays: only the part that differs from the last partial render is replaced.
            page.showProgressive(shown.document)
            if !readerMoved, scroll > 0 { page.scroll(toOffset: scroll) }
        } else {
            page.show(shown.document, scrollTo: scroll)
        }
        keepForRestyle(loaded, shown: shown, options: options)
        let status = [notice ?? shown.status, loader.options.throttleNote(for: loaded.finalURL)]
            .compactMap { $0 }.joined(separator: " ")
        notice = nil
        if !shown.document.images.isEmpty { expectImages() }
        if let held = session.heldProgress { indicator.realProgress(received: held.received, expected: held.expected) }
        // The load goes on while the page's images come: it ends when the last is in, failed or refused.
        if let images = showImages(of: shown.document, from: loaded.finalURL), !images.isComplete {
            session.images = images
            awaitImages(session, status: status)
        } else {
            end(session, .finished)
            indicator.finish()
            chrome.statusText = status
        }
        if let fragment { scrollToFragment(fragment) }
        refreshChrome()
        focusPage()
        scheduleRefresh(shown.document, from: loaded.finalURL)
    }

    private func fail(_ session: LoadSession, with error: LoadError) {
        defer { pageShown() }
        end(session, .failed)
        let navigation = session.navigation
        let document = Document.parse(html: GeneratedPages.errorHTML(url: navigation.url, message: error.message),
                                      baseURL: navigation.url)
        let shown = ShownPage(document: document, kind: .error, status: error.message)
        model.commit(navigation, finalURL: navigation.url, title: document.title, page: shown, isError: true)
        page.show(document, scrollTo: 0)
        indicator.fail()
        chrome.statusText = error.message
        refreshChrome()
        focusPage()
    }

    /// `<meta http-equiv="refresh">` replaces the current entry (as `location.replace` does), after its delay (at
    /// most a minute), when the model's `AutomaticRefreshes` rule lets it.
    func scheduleRefresh(_ document: Document, from url: URL) {
        guard let refresh = document.metaRefresh else { return }
        let requested = min(max(refresh.delay, 0), 60)
        switch model.refreshes.decide(requested: requested, now: MainLoop.monotonicSeconds()) {
        case .stopped(let message):
            chrome.statusText = message
        case .after(let seconds):
            refreshTimer = chrome.sources.timer(milliseconds: max(UInt32(seconds * 1000), 1)) { [weak self] in
                guard let self else { return false }
                self.refreshTimer = nil
                if self.model.current?.url == url, !self.model.isLoading {
                    self.apply(self.model.refresh(to: refresh.url, requestedDelay: requested,
                                                  now: MainLoop.monotonicSeconds()))
                }
                return false
            }
        }
    }
}
