internal import CGtk

/// Owns one strong reference to a GObject. `deinit` is the one place that drops it.
///
/// Floating references (every new widget) are sunk on wrap, so the Swift wrapper and the GTK container each hold
/// their own reference and either may go first. <https://docs.gtk.org/gobject/floating-refs.html>
///
/// GTK is not thread-safe: every call into it is made from the thread that runs its main loop, the main thread
/// (<https://docs.gtk.org/gtk3/question_index.html>, "Is GTK thread safe?"), so the wrappers are `@MainActor`.
/// Only `deinit` is not: the object may be released wherever the last wrapper goes, and `g_object_unref` is safe
/// from any thread.
@MainActor
public class GObjectHandle {
    nonisolated(unsafe) let object: UnsafeMutablePointer<GObject>

    init(retaining pointer: UnsafeMutableRawPointer) {
        object = pointer.assumingMemoryBound(to: GObject.self)
        g_object_ref_sink(object)
    }

    /// Wraps a reference the caller already owns (a `_new` function that returns a full reference).
    init(adopting pointer: UnsafeMutableRawPointer) {
        object = pointer.assumingMemoryBound(to: GObject.self)
        if g_object_is_floating(object) != 0 { g_object_ref_sink(object); g_object_unref(object) }
    }

    deinit { g_object_unref(object) }

    func cast<T>(_: T.Type) -> UnsafeMutablePointer<T> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: T.self)
    }

    /// The current reference count; tests use it to prove a wrapper releases what it took.
    package var referenceCount: UInt32 { object.pointee.ref_count }
}
