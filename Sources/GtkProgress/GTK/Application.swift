internal import CGtk

/// A `GtkApplication` that handles `open`, so desktop launchers, `gio open` and a second launch can hand it URLs.
/// With a session bus a second instance forwards its URLs to the first; without one each runs on its own.
public final class Application: GObjectHandle {
    /// `unique: false` runs without a session bus: no forwarding to a running instance.
    public init(id: String, unique: Bool = true) {
        let flags = unique ? G_APPLICATION_HANDLES_OPEN
                           : GApplicationFlags(G_APPLICATION_HANDLES_OPEN.rawValue | G_APPLICATION_NON_UNIQUE.rawValue)
        super.init(adopting: gtk_application_new(id, flags))
    }

    /// Starts connecting to the session bus in GDBus's worker thread, so the handshake overlaps GTK's own start-up
    /// and `register()` finds the connection made. Only when a bus address is set: without one GLib would try to
    /// launch a bus. <https://docs.gtk.org/gio/func.bus_get.html>
    package static func connectToSessionBusEarly() {
        guard let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0 else { return }
        g_bus_get(G_BUS_TYPE_SESSION, nil, nil, nil)
    }

    /// Whether a process already owns `id` on the session bus, so that this one would hand its addresses over
    /// and exit: asked before GTK starts (the bus's NameHasOwner, one round trip on the connection
    /// `connectToSessionBusEarly` began), so that a process which will not keep its addresses starts no load.
    /// False without a session bus, or when the bus does not answer within a second.
    /// <https://dbus.freedesktop.org/doc/dbus-specification.html#bus-messages-name-has-owner>
    package static func isRunningElsewhere(id: String) -> Bool {
        guard let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0 else { return false }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            if let error { g_error_free(error) }
            return false
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var name: OpaquePointer? = g_variant_new_string(id)
        let arguments = g_variant_new_tuple(&name, 1)
        let replyType = g_variant_type_new("(b)")
        defer { g_variant_type_free(replyType) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                      "org.freedesktop.DBus", "NameHasOwner", arguments, replyType,
                                                      G_DBUS_CALL_FLAGS_NONE, 1000, nil, &error) else {
            if let error { g_error_free(error) }
            return false
        }
        defer { g_variant_unref(reply) }
        guard let owned = g_variant_get_child_value(reply, 0) else { return false }
        defer { g_variant_unref(owned) }
        return g_variant_get_boolean(owned) != 0
    }

    /// Decoded pictures are let go as the reader moves away from them (PageImageLoads), and their memory should go
    /// back to the system with them. glibc raises its mmap threshold each time a mapped block is freed (up to
    /// 32 MiB), after which picture-sized blocks come from the heap and stay there once freed; a fixed threshold
    /// turns that off (mallopt(3): "setting this parameter disables the dynamic adjustment").
    package static func returnLargeBlocksToTheSystem() {
        _ = cgtk_fix_mmap_threshold(256 * 1024)
    }

    /// Registers on the session bus; false when there is none (then use `unique: false`).
    package func register() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let ok = g_application_register(cast(GApplication.self), nil, &error) != 0
        if let error { g_error_free(error) }
        return ok
    }

    /// Whether another process already owns the application id (this one will hand over and exit).
    package var isRemote: Bool { g_application_get_is_remote(cast(GApplication.self)) != 0 }

    /// Runs `handler` when the application starts without files to open: make its windows there.
    @discardableResult
    public func onActivate(_ handler: @escaping () -> Void) -> SignalConnection { connect(.activate, handler) }

    /// `open` hands the URIs of the files or URLs the application was asked to open.
    @discardableResult
    package func onOpen(_ handler: @escaping ([String]) -> Void) -> SignalConnection {
        connect(.open, handler)
    }

    /// A window that belongs to the application: it quits when its last such window closes.
    public func makeWindow() -> Window { Window(applicationWindowOf: self) }

    /// Runs the main loop until the last window closes; returns the exit status.
    public func run(arguments: [String]) -> Int32 {
        var cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        return cStrings.withUnsafeMutableBufferPointer { buffer in
            g_application_run(cast(GApplication.self), Int32(buffer.count), buffer.baseAddress)
        }
    }
}
