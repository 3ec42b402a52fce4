internal import CGtk

// Every signal handler the layer connects, one C thunk per handler signature. A thunk takes the boxed Swift
// closure back from the data pointer and forwards at once; the typed handlers (`onClicked`, `onButtonPress`, …)
// turn the arguments into Swift values. A thunk must match the signal's C signature exactly: GLib calls it with the
// signal's arguments whatever type the callback was cast to. <https://docs.gtk.org/gobject/concepts.html#signals>

extension GObjectHandle {
    /// Connects `handler`, boxed for `thunk`. The box is retained here and released by the destroy-notify when the
    /// handler is disconnected or the object is finalized. `after` runs the handler after the class handler
    /// (G_CONNECT_AFTER). <https://docs.gtk.org/gobject/func.signal_connect_data.html>
    private func connect<Handler>(_ signal: Signal, after: Bool, thunk: GCallback, _ handler: Handler) -> SignalConnection {
        let data = Unmanaged.passRetained(ClosureBox(handler)).toOpaque()
        let id = g_signal_connect_data(UnsafeMutableRawPointer(object), signal.rawValue, thunk, data, { data, _ in
            if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
        }, after ? G_CONNECT_AFTER : GConnectFlags(rawValue: 0))
        return SignalConnection(object: object, ids: [id])
    }

    /// `void (*)(gpointer instance, gpointer data)`: `clicked`, `activate`, `destroy`, `changed`, …
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false, _ handler: @escaping () -> Void) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(voidThunk, to: GCallback.self), handler)
    }

    /// `gboolean (*)(gpointer instance, gpointer data)`: `popup-menu`.
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false, _ handler: @escaping () -> Bool) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(boolThunk, to: GCallback.self), handler)
    }

    /// `void (*)(gpointer instance, gpointer argument, gpointer data)`: `notify::…` (a GParamSpec), ATK's
    /// `property-change` (an AtkPropertyValues).
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false,
                 _ handler: @escaping (UnsafeMutableRawPointer?) -> Void) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(pointerThunk, to: GCallback.self), handler)
    }

    /// `void (*)(gpointer instance, const gchar *name, gboolean on, gpointer data)`: ATK's `state-change`.
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false, _ handler: @escaping (String, Bool) -> Void) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(nameFlagThunk, to: GCallback.self), handler)
    }

    /// `gboolean (*)(gpointer instance, GdkEvent *event, gpointer data)`: the `…-event` signals.
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false,
                 _ handler: @escaping (UnsafeMutablePointer<GdkEvent>) -> Bool) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(eventThunk, to: GCallback.self), handler)
    }

    /// `gboolean (*)(gpointer instance, cairo_t *cr, gpointer data)`: `draw`.
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false, _ handler: @escaping (CairoContext) -> Bool) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(drawThunk, to: GCallback.self), handler)
    }

    /// `gboolean (*)(gpointer instance, GtkDirectionType direction, gpointer data)`: `focus`.
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false,
                 _ handler: @escaping (GtkDirectionType) -> Bool) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(directionThunk, to: GCallback.self), handler)
    }

    /// `void (*)(gpointer instance, const gchar *text, gint length, gint *position, gpointer data)`: GtkEditable's
    /// `insert-text`, before the text goes in. The handler gets the instance, to stop the emission on, and the
    /// text. <https://docs.gtk.org/gtk3/signal.Editable.insert-text.html>
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false,
                 _ handler: @escaping (UnsafeMutableRawPointer, String) -> Void) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(insertTextThunk, to: GCallback.self), handler)
    }

    /// `void (*)(gpointer instance, GFile **files, gint count, const gchar *hint, gpointer data)`: GApplication's
    /// `open`; the handler gets the files' URIs. <https://docs.gtk.org/gio/signal.Application.open.html>
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false, _ handler: @escaping ([String]) -> Void) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(openThunk, to: GCallback.self), handler)
    }

    /// `void (*)(gpointer instance, GdkDragContext *context, gint x, gint y, GtkSelectionData *selection,
    /// guint info, guint time, gpointer data)`: `drag-data-received`; the handler gets the selection.
    /// <https://docs.gtk.org/gtk3/signal.Widget.drag-data-received.html>
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false, _ handler: @escaping (OpaquePointer) -> Void) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(selectionThunk, to: GCallback.self), handler)
    }

    /// `gboolean (*)(gpointer instance, GdkDragContext *context, gint x, gint y, guint time, gpointer data)`:
    /// `drag-motion` and `drag-drop`; the handler gets the pointer's position.
    /// <https://docs.gtk.org/gtk3/signal.Widget.drag-motion.html>
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false, _ handler: @escaping (Int, Int) -> Bool) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(dragPositionThunk, to: GCallback.self), handler)
    }

    /// `void (*)(gpointer instance, gint argument, gpointer data)`: GtkDialog's `response`.
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false, _ handler: @escaping (Int) -> Void) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(intThunk, to: GCallback.self), handler)
    }

    /// `gboolean (*)(gpointer instance, GtkTreeModel *model, GtkTreeIter *iter, gpointer data)`: GtkEntryCompletion's
    /// `match-selected`.
    @discardableResult
    func connect(_ signal: Signal, after: Bool = false,
                 _ handler: @escaping (OpaquePointer, UnsafeMutableRawPointer) -> Bool) -> SignalConnection {
        connect(signal, after: after, thunk: unsafeBitCast(modelIterThunk, to: GCallback.self), handler)
    }

    /// Emits a signal that has no arguments and no return value (tests and the app use it to act as the user).
    package func emit(_ signal: Signal) {
        cgtk_emit(UnsafeMutableRawPointer(object), signal.rawValue)
    }
}

/// The closure boxed by `connect` for a handler of type `Handler`.
///
/// A handler runs on the thread that emits the signal (<https://docs.gtk.org/gobject/func.signal_emit.html>). GTK
/// emits on the thread that runs its main loop, the main thread, and the closures were made by `@MainActor` code
/// for it: the program stops here rather than run one on another thread.
private func handler<Handler>(_ data: UnsafeMutableRawPointer?) -> Handler {
    MainActor.preconditionIsolated("a GLib signal was emitted off the main thread")
    return Unmanaged<ClosureBox<Handler>>.fromOpaque(data!).takeUnretainedValue().call
}

private let voidThunk: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
    (handler(data) as () -> Void)()
}

private let boolThunk: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
    (handler(data) as () -> Bool)() ? 1 : 0
}

private let pointerThunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
    (handler(data) as (UnsafeMutableRawPointer?) -> Void)(argument)
}

private let nameFlagThunk: @convention(c) (gpointer?, UnsafePointer<CChar>?, gboolean, gpointer?) -> Void = {
    _, name, flag, data in
    (handler(data) as (String, Bool) -> Void)(name.map { String(cString: $0) } ?? "", flag != 0)
}

private let eventThunk: @convention(c) (gpointer?, UnsafeMutablePointer<GdkEvent>?, gpointer?) -> gboolean = {
    _, event, data in
    (handler(data) as (UnsafeMutablePointer<GdkEvent>) -> Bool)(event!) ? 1 : 0
}

private let drawThunk: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, cr, data in
    (handler(data) as (CairoContext) -> Bool)(CairoContext(cr!)) ? 1 : 0
}

private let directionThunk: @convention(c) (gpointer?, GtkDirectionType, gpointer?) -> gboolean = {
    _, direction, data in
    (handler(data) as (GtkDirectionType) -> Bool)(direction) ? 1 : 0
}

/// The text is not NUL-terminated when its length is given (-1: it is).
private let insertTextThunk: @convention(c) (gpointer?, UnsafePointer<CChar>?, gint, UnsafeMutablePointer<gint>?,
                                             gpointer?) -> Void = { instance, text, length, _, data in
    guard let instance, let text else { return }
    let string = length < 0 ? String(cString: text)
        : String(decoding: UnsafeRawBufferPointer(start: text, count: Int(length)), as: UTF8.self)
    (handler(data) as (UnsafeMutableRawPointer, String) -> Void)(instance, string)
}

private let openThunk: @convention(c) (gpointer?, UnsafeMutablePointer<OpaquePointer?>?, gint, UnsafePointer<CChar>?,
                                       gpointer?) -> Void = { _, files, count, _, data in
    var uris: [String] = []
    for i in 0..<Int(max(count, 0)) {
        guard let file = files?[i], let uri = g_file_get_uri(file) else { continue }
        uris.append(String(cString: uri))
        g_free(uri)
    }
    (handler(data) as ([String]) -> Void)(uris)
}

private let selectionThunk: @convention(c) (gpointer?, OpaquePointer?, gint, gint, OpaquePointer?, guint, guint,
                                            gpointer?) -> Void = { _, _, _, _, selection, _, _, data in
    guard let selection else { return }
    (handler(data) as (OpaquePointer) -> Void)(selection)
}

private let dragPositionThunk: @convention(c) (gpointer?, OpaquePointer?, gint, gint, guint, gpointer?) -> gboolean = {
    _, _, x, y, _, data in
    (handler(data) as (Int, Int) -> Bool)(Int(x), Int(y)) ? 1 : 0
}

private let intThunk: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, value, data in
    (handler(data) as (Int) -> Void)(Int(value))
}

private let modelIterThunk: @convention(c) (gpointer?, OpaquePointer?, gpointer?, gpointer?) -> gboolean = {
    _, model, iter, data in
    guard let model, let iter else { return 0 }
    return (handler(data) as (OpaquePointer, UnsafeMutableRawPointer) -> Bool)(model, iter) ? 1 : 0
}
