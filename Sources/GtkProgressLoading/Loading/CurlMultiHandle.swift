import GtkProgressCore
internal import CCurl
internal import CGLib

/// What the multi handle reports to its owner.
@MainActor
protocol CurlMultiHandleDelegate: AnyObject {
    /// A transfer ended with libcurl's `result`. The handle is still added; the delegate removes it.
    func multiHandle(_ multi: CurlMultiHandle, didComplete easy: CurlEasyHandle, result: CURLcode)
    /// libcurl has returned from acting on a socket or timeout: no libcurl callback is on the stack, so the
    /// owner may now hand events on, and its listeners may add or remove transfers.
    func multiHandleDidAct(_ multi: CurlMultiHandle)
}

/// One libcurl multi handle driven by the GLib main loop, the shape of curl's `docs/examples/ghiper.c`: libcurl
/// says which sockets to watch (CURLMOPT_SOCKETFUNCTION) and when to wake it (CURLMOPT_TIMERFUNCTION); a GLib
/// fd source per socket and one GLib timeout call `curl_multi_socket_action` back. No threads, and removing a
/// transfer stops it at once. <https://curl.se/libcurl/c/libcurl-multi.html>
@MainActor
final class CurlMultiHandle {
    /// The `CURLM *`.
    let rawHandle: UnsafeMutableRawPointer
    weak var delegate: CurlMultiHandleDelegate?
    /// Transfers added and not yet removed, by their `CURL *`. Holding them here keeps each easy handle alive
    /// while libcurl uses it.
    private var transfers: [UnsafeMutableRawPointer: CurlEasyHandle] = [:]
    /// The watch on each socket libcurl asked for.
    private var sockets: [curl_socket_t: SocketWatch] = [:]
    /// The single timeout libcurl asked for; each request replaces the previous one.
    private var timeout: MainLoopTimer?

    /// Nil when libcurl cannot make one: out of memory, or, more likely, out of file descriptors (the handle
    /// opens a socket pair to be woken with).
    init?() {
        guard let handle = ccurl_multi_init() else { return nil }
        rawHandle = handle
        let me = Unmanaged.passUnretained(self).toOpaque()
        ccurl_multi_setopt_socketfunction(rawHandle, socketCallback)
        ccurl_multi_setopt_pointer(rawHandle, CURLMOPT_SOCKETDATA, me)
        ccurl_multi_setopt_timerfunction(rawHandle, timerCallback)
        ccurl_multi_setopt_pointer(rawHandle, CURLMOPT_TIMERDATA, me)
        // A page and its subresources share this handle: libcurl keeps to the same limits as
        // `SubresourceQueue`, reusing a connection to a host rather than opening more.
        // <https://curl.se/libcurl/c/CURLMOPT_MAX_TOTAL_CONNECTIONS.html>
        ccurl_multi_setopt_long(rawHandle, CURLMOPT_MAX_TOTAL_CONNECTIONS, SubresourceQueue.maxTransfers + 1)
        ccurl_multi_setopt_long(rawHandle, CURLMOPT_MAX_HOST_CONNECTIONS, SubresourceQueue.maxPerHost + 1)
    }

    isolated deinit {
        // Cut libcurl off from this object first: the calls below may invoke the callbacks.
        ccurl_multi_setopt_socketfunction(rawHandle, nil)
        ccurl_multi_setopt_timerfunction(rawHandle, nil)
        for handle in transfers.keys { ccurl_multi_remove_handle(rawHandle, handle) }
        transfers.removeAll()
        sockets.removeAll()
        timeout = nil
        ccurl_multi_cleanup(rawHandle)
    }

    var isEmpty: Bool { transfers.isEmpty }

    /// Starts a transfer: libcurl asks for a timeout at once and begins on it. False when libcurl refused it
    /// (out of memory); then nothing was added.
    func add(_ easy: CurlEasyHandle) -> Bool {
        guard ccurl_multi_add_handle(rawHandle, easy.rawHandle) == CURLM_OK else { return false }
        transfers[easy.rawHandle] = easy
        return true
    }

    /// Stops a transfer at once; its sockets are closed or returned to the connection cache. Must not be called
    /// from inside a libcurl callback.
    func remove(_ easy: CurlEasyHandle) {
        guard transfers.removeValue(forKey: easy.rawHandle) != nil else { return }
        ccurl_multi_remove_handle(rawHandle, easy.rawHandle)
    }
}

// MARK: - Driving libcurl

extension CurlMultiHandle {
    /// libcurl's socket callback: watch `socket` for what libcurl wants, or stop watching it.
    /// <https://curl.se/libcurl/c/CURLMOPT_SOCKETFUNCTION.html>
    fileprivate func watch(_ socket: curl_socket_t, for what: Int32) {
        if what == CURL_POLL_REMOVE {
            sockets[socket] = nil
        } else {
            sockets[socket] = SocketWatch(socket: socket, what: what, multi: self)
        }
    }

    /// libcurl's timer callback: one timeout at a time, a new request replaces the old one and -1 deletes it.
    /// libcurl must not be called from inside this callback, so the timeout fires from the main loop, even at 0.
    /// <https://curl.se/libcurl/c/CURLMOPT_TIMERFUNCTION.html>
    fileprivate func scheduleTimeout(milliseconds: Int) {
        timeout = nil
        guard milliseconds >= 0 else { return }
        timeout = MainLoopTimer(milliseconds: UInt32(clamping: milliseconds)) { [unowned self] in
            // A listener may release the loader, and with it this handle, while it acts.
            withExtendedLifetime(self) {
                timeout = nil
                act(on: ccurl_socket_timeout, events: 0)
            }
            return false
        }
    }

    /// A watched socket is ready.
    func socketIsReady(_ socket: curl_socket_t, condition: UInt32) {
        var events: Int32 = 0
        if condition & (G_IO_IN.rawValue | G_IO_HUP.rawValue) != 0 { events |= CURL_CSELECT_IN }
        if condition & G_IO_OUT.rawValue != 0 { events |= CURL_CSELECT_OUT }
        if condition & G_IO_ERR.rawValue != 0 { events |= CURL_CSELECT_ERR }
        // Only readable, as a trickling server's socket is: read now, or once more of it has come (`ReadPacing`).
        if events == CURL_CSELECT_IN, let watch = sockets[socket] {
            let now = MainLoop.monotonicSeconds()
            let pending = Int(ccurl_socket_pending(socket))
            let wait = watch.pacing.delay(pending: pending, now: now)
            if wait > 0 {
                watch.wait(seconds: wait) { [unowned self] in
                    withExtendedLifetime(self) { self.socketIsReady(socket, condition: G_IO_IN.rawValue) }
                }
                return
            }
            watch.pacing.read(pending, at: now)
        }
        act(on: socket, events: events)
    }

    /// <https://curl.se/libcurl/c/curl_multi_socket_action.html>, then collects finished transfers
    /// (<https://curl.se/libcurl/c/curl_multi_info_read.html>).
    private func act(on socket: curl_socket_t, events: Int32) {
        var running: Int32 = 0
        ccurl_multi_socket_action(rawHandle, socket, events, &running)
        var finished: [(CurlEasyHandle, CURLcode)] = []
        var left: Int32 = 0
        while let message = ccurl_multi_info_read(rawHandle, &left) {
            // The message is only valid until the next libcurl call, so copy out what is needed.
            guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle,
                  let easy = transfers[raw] else { continue }
            finished.append((easy, ccurl_msg_result(message)))
        }
        for (easy, result) in finished where transfers[easy.rawHandle] != nil {
            delegate?.multiHandle(self, didComplete: easy, result: result)
        }
        delegate?.multiHandleDidAct(self)
    }
}

/// libcurl calls it from inside the multi handle's own calls, so on the main actor.
/// <https://curl.se/libcurl/c/CURLMOPT_SOCKETFUNCTION.html>
private let socketCallback: curl_socket_callback = { _, socket, what, userData, _ in
    let multi = Unmanaged<CurlMultiHandle>.fromOpaque(userData!)
    MainActor.assumeIsolated { multi.takeUnretainedValue().watch(socket, for: what) }
    return 0
}

/// Called, like the socket callback, from inside the multi handle's own calls.
/// <https://curl.se/libcurl/c/CURLMOPT_TIMERFUNCTION.html>
private let timerCallback: curl_multi_timer_callback = { _, milliseconds, userData in
    let multi = Unmanaged<CurlMultiHandle>.fromOpaque(userData!)
    MainActor.assumeIsolated { multi.takeUnretainedValue().scheduleTimeout(milliseconds: milliseconds) }
    return 0
}
