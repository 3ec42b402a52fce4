internal import CCurl
internal import CGLib
import Foundation
import GtkProgressCore

/// Loads one document at a time with libcurl, without blocking the GTK main loop: transfers run on libcurl's
/// multi interface, driven by GLib sources on the default main context (see `CurlMultiHandle`). All events are
/// delivered from that main loop, never from inside `load`, and never after `cancel()`.
///
/// Policy: http, https and `file:` (whether a navigation may reach an address is `NavigationPolicy`'s
/// decision, made before); redirects followed up to
/// `maxRedirects`, only to http and https; compression accepted; TLS verification always on; connect timeout;
/// a transfer that makes no progress for `stallTimeout` fails; documents capped at `maxDocumentBytes` decoded;
/// HTTP error statuses still deliver their body.
public final class PageLoader {
    public let options: LoaderOptions
    private let multi = CurlMultiHandle()
    /// The load in progress on the wire.
    private var transfer: Transfer?
    /// A failure found before any transfer started (policy, missing file), delivered from the main loop so
    /// `load` never calls back before it returns.
    private var pendingFailure: MainLoopTimer?
    private var listener: ((LoadEvent) -> Void)?
    /// Events waiting to be handed to the listener.
    private var queue: [LoadEvent] = []
    /// Bumped by every `load` and `cancel`, so a listener that starts another load or cancels stops the
    /// delivery of the old load's remaining events.
    private var generation = 0

    public init(options: LoaderOptions = .init()) {
        _ = PageLoader.curlReady
        self.options = options
        multi.delegate = self
    }

    deinit { cancel() }

    /// libcurl's global setup, once per process before any handle. <https://curl.se/libcurl/c/curl_global_init.html>
    private static let curlReady: Bool = curl_global_init(ccurl_global_default) == CURLE_OK

    /// Whether a load is under way: from `load` until its `finished` or `failed` event, or `cancel()`.
    public var isLoading: Bool { transfer != nil || pendingFailure != nil || !queue.isEmpty }

    /// Starts a load; cancels any load in progress first. Events arrive on the GLib main loop of the calling
    /// thread (the default main context, the one `gtk_main` runs).
    public func load(_ request: LoadRequest, onEvent: @escaping (LoadEvent) -> Void) {
        cancel()
        listener = onEvent
        if let refusal = LoadPolicy.refusal(of: request, options: options) {
            pendingFailure = MainLoopTimer(milliseconds: 0) { [weak self] in
                self?.deliverRefusal(refusal)
                return false
            }
            return
        }
        let transfer = Transfer(request: request, options: options)
        self.transfer = transfer
        multi.add(transfer.easy)
    }

    /// Stops the load at once: its connection is closed and no event of it arrives afterwards.
    public func cancel() {
        generation += 1
        queue.removeAll()
        pendingFailure = nil
        listener = nil
        if let transfer {
            multi.remove(transfer.easy)
            self.transfer = nil
        }
    }

    /// What has arrived so far (for progressive display), nil if nothing has. Taking it copies nothing: the bytes
    /// are shared until the transfer appends to them.
    public func arrived() -> ArrivedBody? {
        transfer?.arrived()
    }

    /// Blocking convenience for the command line (`--dump`): runs the default GLib main context until the load
    /// ends.
    public static func fetch(_ request: LoadRequest, options: LoaderOptions = .init()) -> Result<LoadedPage, LoadError> {
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
            multi.remove(easy)
            return
        }
        multi.remove(easy)
        self.transfer = nil
        let last = transfer.complete(result: result)
        queue += transfer.takeEvents()
        queue.append(last)
    }

    func multiHandleDidAct(_ multi: CurlMultiHandle) {
        if let transfer {
            transfer.noticeMilestones()
            queue += transfer.takeEvents()
        }
        deliverQueue()
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
                // The load is over: let go of the listener (and whatever it captured).
                if generation == current { self.listener = nil }
            case .response, .progress, .milestone:
                break
            }
        }
    }
}
