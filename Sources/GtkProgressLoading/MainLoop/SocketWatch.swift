import GtkProgressCore
internal import CCurl
internal import CGLib

/// A GLib fd source watching one of libcurl's sockets; `deinit` removes it. A new watch replaces the old one
/// whenever libcurl changes what it waits for. <https://docs.gtk.org/glib/func.unix_fd_add_full.html>
final class SocketWatch {
    private let socket: curl_socket_t
    private let condition: GIOCondition
    private let multi: UnsafeMutableRawPointer
    /// The GLib source, 0 while the watch waits (`wait`).
    private var sourceID: UInt32 = 0
    /// Ends a wait: the watch is back and the socket is read.
    private var resume: MainLoopTimer?
    /// When the socket is read (`ReadPacing`).
    var pacing = ReadPacing()

    /// `what` is libcurl's CURL_POLL_IN, CURL_POLL_OUT or CURL_POLL_INOUT. The multi handle outlives its
    /// watches (its `deinit` drops them first), so the source holds it unretained.
    init(socket: curl_socket_t, what: Int32, multi: CurlMultiHandle) {
        var condition = G_IO_ERR.rawValue | G_IO_HUP.rawValue
        if what == CURL_POLL_IN || what == CURL_POLL_INOUT { condition |= G_IO_IN.rawValue }
        if what == CURL_POLL_OUT || what == CURL_POLL_INOUT { condition |= G_IO_OUT.rawValue }
        self.socket = socket
        self.condition = GIOCondition(rawValue: condition)
        self.multi = Unmanaged.passUnretained(multi).toOpaque()
        add()
    }

    private func add() {
        sourceID = g_unix_fd_add_full(G_PRIORITY_DEFAULT, socket, condition, socketReadyCallback, multi, nil)
    }

    /// Stops watching for `seconds`, then watches again and calls `then`. Leaving the readable socket in the poll
    /// would wake the loop at once, turn after turn. Released before then, the watch ends and `then` is not called.
    func wait(seconds: Double, then: @escaping () -> Void) {
        guard resume == nil else { return }
        if sourceID != 0 { g_source_remove(sourceID) }
        sourceID = 0
        let milliseconds = UInt32(clamping: Int((seconds * 1000).rounded(.up)))
        resume = MainLoopTimer(milliseconds: milliseconds, name: "gtkprogress socket gather") { [weak self] in
            guard let self else { return false }
            self.resume = nil
            self.add()
            then()
            return false
        }
    }

    deinit {
        resume?.cancel()
        if sourceID != 0 { g_source_remove(sourceID) }
    }
}

/// The source stays until libcurl says CURL_POLL_REMOVE, so it always asks GLib to keep it.
private let socketReadyCallback: GUnixFDSourceFunc = { socket, condition, userData in
    // The default main context's sources run on the main actor (`MainLoop.post`).
    let handle = Unmanaged<CurlMultiHandle>.fromOpaque(userData!)
    MainActor.assumeIsolated {
        let multi = handle.takeUnretainedValue()
        // A listener may release the loader, and with it the multi handle, while it acts.
        withExtendedLifetime(multi) { multi.socketIsReady(socket, condition: condition.rawValue) }
    }
    return 1
}
