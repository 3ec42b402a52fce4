internal import CGtk

/// A connected handler (or a pair, for events that come in two signals); `disconnect()` removes it and so
/// releases its closure.
///
/// The object is held by a GWeakRef, not a pointer: the connection may outlive the object, and once the object is
/// finalized the reference reads NULL (GObject has dropped the handlers with it), so `disconnect()` does nothing
/// instead of touching freed memory. A GWeakRef must stay at one address while it is in use, hence a class that
/// owns its storage. <https://docs.gtk.org/gobject/struct.WeakRef.html>
@MainActor
public final class SignalConnection {
    /// GWeakRef calls are thread-safe, so `deinit` may clear it wherever the connection goes.
    nonisolated(unsafe) private let reference = UnsafeMutablePointer<GWeakRef>.allocate(capacity: 1)
    let ids: [UInt]

    init(object: UnsafeMutablePointer<GObject>, ids: [UInt]) {
        self.ids = ids
        reference.initialize(to: GWeakRef())
        g_weak_ref_init(reference, UnsafeMutableRawPointer(object))
    }

    deinit {
        g_weak_ref_clear(reference)
        reference.deallocate()
    }

    /// The object, with a strong reference the caller drops; nil once it is finalized.
    /// <https://docs.gtk.org/gobject/method.WeakRef.get.html>
    private func withObject<T>(_ body: (UnsafeMutablePointer<GObject>) -> T) -> T? {
        guard let raw = g_weak_ref_get(reference) else { return nil }
        let object = raw.assumingMemoryBound(to: GObject.self)
        defer { g_object_unref(object) }
        return body(object)
    }

    /// Whether the object is alive and every handler of the connection still connected.
    package var isConnected: Bool {
        withObject { object in ids.allSatisfy { g_signal_handler_is_connected(object, $0) != 0 } } ?? false
    }

    /// Disconnects the handlers; their closures are released. Safe to call again, and after the object is gone.
    public func disconnect() {
        _ = withObject { object in
            for id in ids where g_signal_handler_is_connected(object, id) != 0 { g_signal_handler_disconnect(object, id) }
        }
    }
}
