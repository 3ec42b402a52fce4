internal import CGtk

// One C thunk per signal shape; each forwards at once into the boxed Swift closure.

typealias EventHandler = ClosureBox<(UnsafeMutablePointer<GdkEvent>) -> Bool>
typealias DrawHandler = ClosureBox<(CairoContext) -> Bool>
typealias InsertTextHandler = ClosureBox<(UnsafeMutableRawPointer, String) -> Void>

private let voidThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
    Unmanaged<VoidHandler>.fromOpaque(data!).takeUnretainedValue().call()
}

typealias PointerHandler = ClosureBox<(UnsafeMutableRawPointer?) -> Void>

private let pointerThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                                          UnsafeMutableRawPointer?) -> Void = { _, argument, data in
    Unmanaged<PointerHandler>.fromOpaque(data!).takeUnretainedValue().call(argument)
}

typealias PointerFlagHandler = ClosureBox<(UnsafeMutableRawPointer?, Bool) -> Void>

private let pointerFlagThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, gboolean,
                                              UnsafeMutableRawPointer?) -> Void = { _, argument, flag, data in
    Unmanaged<PointerFlagHandler>.fromOpaque(data!).takeUnretainedValue().call(argument, flag != 0)
}

private let eventThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEvent>?,
                                        UnsafeMutableRawPointer?) -> gboolean = { _, event, data in
    Unmanaged<EventHandler>.fromOpaque(data!).takeUnretainedValue().call(event!) ? 1 : 0
}

private let drawThunk: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?,
                                       UnsafeMutableRawPointer?) -> gboolean = { _, cr, data in
    Unmanaged<DrawHandler>.fromOpaque(data!).takeUnretainedValue().call(CairoContext(cr!)) ? 1 : 0
}

/// GtkEditable's `insert-text`: the instance, the text (not NUL-terminated when its length is given), its length
/// in bytes or -1, and the position. <https://docs.gtk.org/gtk3/signal.Editable.insert-text.html>
private let insertTextThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32,
                                             UnsafeMutablePointer<Int32>?, UnsafeMutableRawPointer?) -> Void = {
    instance, text, length, _, data in
    guard let instance, let text else { return }
    let string = length < 0 ? String(cString: text)
        : String(decoding: UnsafeRawBufferPointer(start: text, count: Int(length)), as: UTF8.self)
    Unmanaged<InsertTextHandler>.fromOpaque(data!).takeUnretainedValue().call(instance, string)
}

extension GObjectHandle {
    /// GtkEditable's `insert-text`, before the text goes in; the handler receives the instance to stop the
    /// signal on.
    @discardableResult
    func onInsertText(_ handler: @escaping (UnsafeMutableRawPointer, String) -> Void) -> SignalConnection {
        connect("insert-text", thunk: unsafeBitCast(insertTextThunk, to: GCallback.self), box: InsertTextHandler(handler))
    }

    /// Signals whose handler takes no arguments: `clicked`, `activate`, `destroy`, `changed`, …
    @discardableResult
    package func on(_ signal: String, _ handler: @escaping () -> Void) -> SignalConnection {
        connect(signal, thunk: unsafeBitCast(voidThunk, to: GCallback.self), box: VoidHandler(handler))
    }

    /// Signals whose handler takes one pointer and returns nothing: `notify`, ATK's `property-change`, …
    @discardableResult
    func onSignal(_ signal: String, _ handler: @escaping (UnsafeMutableRawPointer?) -> Void) -> SignalConnection {
        connect(signal, thunk: unsafeBitCast(pointerThunk, to: GCallback.self), box: PointerHandler(handler))
    }

    /// Signals whose handler takes a pointer and a boolean: ATK's `state-change` (state name, on or off), …
    @discardableResult
    func onSignal(_ signal: String, _ handler: @escaping (UnsafeMutableRawPointer?, Bool) -> Void) -> SignalConnection {
        connect(signal, thunk: unsafeBitCast(pointerFlagThunk, to: GCallback.self), box: PointerFlagHandler(handler))
    }

    @discardableResult
    func onEvent(_ signal: String, _ handler: @escaping (UnsafeMutablePointer<GdkEvent>) -> Bool) -> SignalConnection {
        connect(signal, thunk: unsafeBitCast(eventThunk, to: GCallback.self), box: EventHandler(handler))
    }

    @discardableResult
    func onDraw(_ handler: @escaping (CairoContext) -> Bool) -> SignalConnection {
        connect("draw", thunk: unsafeBitCast(drawThunk, to: GCallback.self), box: DrawHandler(handler))
    }

    /// Emits a signal that has no arguments and no return value (tests and the app use it to act as the user).
    package func emit(_ signal: String) {
        cgtk_emit(UnsafeMutableRawPointer(object), signal)
    }
}

