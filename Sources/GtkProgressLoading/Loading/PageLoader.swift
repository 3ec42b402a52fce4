internal import CCurl
internal import CGLib
import FoundationEssentials
import Glibc
import GtkProgressCore

/// Loads one document at a time with libcurl, without blocking the GTK main loop: transfers run on libcurl's
/// multi interface, driven by GLib sources on the default main context (see `CurlMultiHandle`). All events are
/// delivered from that main loop, never from inside `load`, and never after `cancel()`.
///
/// Policy: http, https and `file:` (whether a navigation may reach an address is `NavigationPolicy`'s
/// decision, made before); redirects followed up to
/// `maxRedirects`, only to http and https; compression accepted; TLS verification always on; connect timeout;
/// a transfer under a byte a second for `stallTimeout` fails, and so does one still arriving at `deadline`;
/// documents capped at `maxDocumentBytes` decoded; addresses capped at `AddressShape.longestAddress`; HTTP error
/// statuses deliver their body, or fail when it is blank (`Transfer.complete`).
///
/// The loader belongs to the main actor: it lives on the default GLib main context, which the main thread runs.
@MainActor
package final class PageLoader {
    package let options: LoaderOptions
    /// Made at the first network load: a viewer that starts on a local page never initialises libcurl (nor the
    /// TLS library under it), which is a good part of its start-up. Let go of `idleRelease` seconds after the last
    /// transfer, with the connections it keeps for reuse, so that an idle window holds no file descriptors.
    private(set) var multi: CurlMultiHandle?
    /// The page's subresources (`fetch(_:onEvent:)`), on the same multi handle.
    let subresources = SubresourceQueue()
    private var releaseTimer: MainLoopTimer?
    /// Milliseconds an idle loader keeps its connections for the next load.
    package var idleRelease: UInt32 = 30_000
    /// The load in progress on the wire.
    private var transfer: Transfer?
    /// The load of a local file in progress, on its own thread.
    private var fileRead: FileRead?
    /// A finished transfer's body is being decoded off the main loop.
    private var decoding = false
    /// A finished transfer's bytes, readable through `arrived()` until its last event is handed on: the progress
    /// events it queued at its end come after it was let go, and a page that arrives whole in one turn of the main
    /// loop would otherwise have shown nothing arrived to those who look at each progress event (`ImagePreloads`).
    private var completedBody: ArrivedBody?
    /// A failure found before any transfer started (policy, missing file), delivered from the main loop so
    /// `load` never calls back before it returns.
    private var pendingFailure: MainLoopTimer?
    private var listener: ((LoadEvent) -> Void)?
    /// Events waiting to be handed to the listener.
    private var queue: [LoadEvent] = []
    /// Bumped by every `load` and `cancel`, so a listener that starts another load or cancels stops the
    /// delivery of the old load's remaining events.
    private var generation = 0

    package init(options: LoaderOptions = .init()) {
        self.options = options
    }

    isolated deinit { cancel() }

    /// Opens libcurl (see `CCurl`) and runs its global setup, once per process before any handle; nil when that
    /// worked, else why not. <https://curl.se/libcurl/c/curl_global_init.html>
    static let curlProblem: String? = {
        var error = [CChar](repeating: 0, count: 512)
        guard ccurl_load(&error, error.count) else {
            return L("Web addresses cannot be opened: libcurl could not be loaded (%@).",
                     String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard ccurl_global_init(ccurl_global_default) == CURLE_OK else {
            return L("Web addresses cannot be opened: libcurl could not be initialised.")
        }
        return nil
    }()

    /// Whether a load is under way: from `load` until its `finished` or `failed` event, or `cancel()`.
    package var isLoading: Bool {
        transfer != nil || fileRead != nil || decoding || pendingFailure != nil || !queue.isEmpty
    }

    /// Starts a load; cancels any load in progress first. Events arrive on the GLib main loop of the calling
    /// thread (the default main context, the one `gtk_main` runs).
    package func load(_ request: LoadRequest, onEvent: @escaping (LoadEvent) -> Void) {
        cancel()
        listener = onEvent
        if let refusal = LoadPolicy.refusal(of: request, options: options) {
            pendingFailure = MainLoopTimer(milliseconds: 0) { [weak self] in
                self?.deliverRefusal(refusal)
                return false
            }
            return
        }
        if request.url.isFileURL {
            startFileRead(request.url)
            return
        }
        if let problem = PageLoader.curlProblem {
            let error = LoadError(kind: .other, url: request.url, message: problem)
            pendingFailure = MainLoopTimer(milliseconds: 0) { [weak self] in
                self?.deliverRefusal(error)
                return false
            }
            return
        }
        let transfer = Transfer(request: request, options: options)
        if let failure = transfer.setupFailure {
            pendingFailure = MainLoopTimer(milliseconds: 0) { [weak self] in
                self?.deliverRefusal(failure)
                return false
            }
            return
        }
        guard let multi = ensureMulti(), multi.add(transfer.easy) else {
            let failure = LoadError(kind: .outOfDescriptors, url: request.url, message: Self.noConnectionMessage())
            pendingFailure = MainLoopTimer(milliseconds: 0) { [weak self] in
                self?.deliverRefusal(failure)
                return false
            }
            return
        }
        self.transfer = transfer
    }

    /// Why a connection could not even be started: almost always the process's limit of open files.
    nonisolated static func noConnectionMessage() -> String {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return L("No connection could be opened: this viewer has as many files and connections open as the "
            + "system allows (%@). Close some windows and try again.", ByteCount.grouped(Int64(limit.rlim_cur)))
    }

    /// The multi handle, made at the first network transfer and kept while transfers come.
    func ensureMulti() -> CurlMultiHandle? {
        releaseTimer = nil
        if multi == nil {
            multi = CurlMultiHandle()
            multi?.delegate = self
        }
        return multi
    }

    /// After the last transfer, the handle and the connections it keeps go after `idleRelease` seconds.
    func releaseWhenIdle() {
        guard transfer == nil, subresources.running.isEmpty, multi != nil else { return }
        releaseTimer = MainLoopTimer(milliseconds: idleRelease, name: "gtkprogress idle connections") {
            [weak self] in
            guard let self else { return false }
            self.releaseTimer = nil
            if self.transfer == nil, self.subresources.running.isEmpty { self.multi = nil }
            return false
        }
    }

    /// Lets go of the connections kept for reuse now (tests; a window closing).
    package func releaseConnections() {
        guard transfer == nil, subresources.running.isEmpty else { return }
        releaseTimer = nil
        multi = nil
    }

    /// Whether connections are kept open (the multi handle exists).
    package var holdsConnections: Bool { multi != nil }

    /// Stops the load at once, its subresources too: its connections are closed and no event of it arrives
    /// afterwards.
    package func cancel() {
        cancelSubresources()
        generation += 1
        queue.removeAll()
        completedBody = nil
        pendingFailure = nil
        listener = nil
        if let transfer {
            multi?.remove(transfer.easy)
            self.transfer = nil
            releaseWhenIdle()
        }
        fileRead?.cancel()
        fileRead = nil
        decoding = false
    }

    /// Whether the document's bytes are still coming: its transfer or file read is under way. Its last events
    /// are handed on after that (`arrived()` still gives its bytes then).
    package var isReceiving: Bool { transfer != nil || fileRead != nil }

    /// What has arrived so far (for progressive display), nil if nothing has. Taking it copies nothing: the bytes
    /// are shared until the transfer appends to them.
    package func arrived() -> ArrivedBody? {
        transfer?.arrived() ?? fileRead?.arrived() ?? completedBody
    }

    /// Blocking convenience for the command line (`--dump`): runs the default GLib main context until the load
    /// ends.
    package static func fetch(_ request: LoadRequest, options: LoaderOptions = .init()) -> Result<LoadedPage, LoadError> {
        let loader = PageLoader(options: options)
        var result: Result<LoadedPage, LoadError>?
        loader.load(request) { event in
            switch event {
            case .finished(let page): result = .success(page)
            case .failed(let error): result = .failure(error)
            case .response, .progress, .milestone: break
            }
        }
        while result == nil { g_main_context_iteration(nil, 1) }
        return result!
    }
}

// MARK: - Delivery

extension PageLoader: CurlMultiHandleDelegate {
    func multiHandle(_ multi: CurlMultiHandle, didComplete easy: CurlEasyHandle, result: CURLcode) {
        guard let transfer, transfer.easy === easy else {
            if !subresourceDidComplete(easy, result: result, on: multi) { multi.remove(easy) }
            return
        }
        multi.remove(easy)
        self.transfer = nil
        releaseWhenIdle()
        let ending = transfer.complete(result: result)
        queue += transfer.takeEvents()
        completedBody = transfer.arrived()
        switch ending {
        case .failure(let error):
            queue.append(.failed(error))
        case .success(let decode):
            // Decoding a large body takes long enough to stall the window: it runs off the main loop, and the
            // `finished` event follows the events already queued once it is done.
            let generation = self.generation
            decoding = true
            BackgroundWork.run(decode) { [weak self] page in
                guard let self, self.generation == generation else { return }
                self.decoding = false
                self.queue.append(.finished(page))
                self.deliverQueue()
            }
        }
    }

    func multiHandleDidAct(_ multi: CurlMultiHandle) {
        if let transfer {
            transfer.noticeMilestones()
            queue += transfer.takeEvents()
        }
        deliverQueue()
        deliverSubresourceEvents()
    }

    private func startFileRead(_ url: URL) {
        let read = FileRead(url: url, options: options)
        fileRead = read
        let generation = self.generation
        read.start { [weak self] event in
            // Runs on the main loop (see `FileRead.start`).
            guard let loader = self, loader.generation == generation, loader.fileRead === read else { return }
            switch event {
            case .finished, .failed: loader.fileRead = nil
            case .response, .progress, .milestone: break
            }
            loader.queue.append(event)
            loader.deliverQueue()
        }
    }

    private func deliverRefusal(_ error: LoadError) {
        pendingFailure = nil
        queue.append(.failed(error))
        deliverQueue()
    }

    /// Hands queued events to the listener in order. The listener may cancel or start another load; then the
    /// rest of the old load's events are dropped.
    private func deliverQueue() {
        let current = generation
        while generation == current, !queue.isEmpty, let listener {
            let event = queue.removeFirst()
            listener(event)
            switch event {
            case .finished, .failed:
                // The load is over: let go of the listener (and whatever it captured), and of its bytes.
                if generation == current {
                    self.listener = nil
                    completedBody = nil
                }
            case .response, .progress, .milestone:
                break
            }
        }
    }
}
