import GtkProgressCore
internal import CCurl
internal import CGLib

/// A GLib fd source watching one of libcurl's sockets; `deinit` removes it. A new watch replaces the old one
/// whenever libcurl changes what it waits for. <https://docs.gtk.org/glib/func.unix_fd_add_full.html>
final class SocketWatch {
    private let sourceID: UInt32

    /// `what` is libcurl's CURL_POLL_IN, CURL_POLL_OUT or CURL_POLL_INOUT. The multi handle outlives its
    /// watches (its `deinit` drops them first), so the source holds it unretained.
    init(socket: curl_socket_t, what: Int32, multi: CurlMultiHandle) {
        var condition = G_IO_ERR.rawValue | G_IO_HUP.rawValue
        if what == CURL_POLL_IN || what == CURL_POLL_INOUT { condition |= G_IO_IN.rawValue }
        if what == CURL_POLL_OUT || what == CURL_POLL_INOUT { condition |= G_IO_OUT.rawValue }
        sourceID = g_unix_fd_add_full(G_PRIORITY_DEFAULT, socket, GIOCondition(rawValue: condition),
                                      socketReadyCallback, Unmanaged.passUnretained(multi).toOpaque(), nil)
    }

    deinit { g_source_remove(sourceID) }
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
