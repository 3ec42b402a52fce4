internal import CGtk

extension Widget {
    /// The widget's accessible object (ATK), for watching what it tells assistive technologies.
    var accessibleObject: GObjectHandle { GObjectHandle(retaining: UnsafeMutableRawPointer(gtk_widget_get_accessible(widget)!)) }

    /// The accessible's role as AT-SPI reports it ("progress bar", "push button", …).
    package var accessibleRoleName: String {
        String(cString: atk_role_get_name(atk_object_get_role(gtk_widget_get_accessible(widget))))
    }

    /// The accessible announced a change of a property, its value for one (ATK's `property-change`): what a
    /// screen reader may speak.
    @discardableResult
    package func onAccessiblePropertyChange(_ handler: @escaping () -> Void) -> SignalConnection {
        accessibleObject.connect(.accessiblePropertyChange) { (_: UnsafeMutableRawPointer?) in handler() }
    }

    /// The accessible announced a state turning on or off, by the state's name ("busy", …; ATK's `state-change`).
    @discardableResult
    package func onAccessibleStateChange(_ handler: @escaping (_ state: String, _ on: Bool) -> Void) -> SignalConnection {
        accessibleObject.connect(.accessibleStateChange, handler)
    }

    package var accessibleName: String? {
        atk_object_get_name(gtk_widget_get_accessible(widget)).map { String(cString: $0) }
    }

    package var accessibleDescription: String? {
        atk_object_get_description(gtk_widget_get_accessible(widget)).map { String(cString: $0) }
    }

    /// The names of the accessible's children, as AT-SPI lists them (a text view's include its anchored widgets).
    package var accessibleChildNames: [String] {
        let accessible = gtk_widget_get_accessible(widget)
        return (0..<max(atk_object_get_n_accessible_children(accessible), 0)).map { k in
            guard let child = atk_object_ref_accessible_child(accessible, k) else { return "" }
            defer { g_object_unref(child) }
            return atk_object_get_name(child).map { String(cString: $0) } ?? ""
        }
    }

    /// The value a screen reader reads, for accessibles that implement AtkValue (nil otherwise).
    package var accessibleValue: Double? {
        let accessible = gtk_widget_get_accessible(widget)
        guard g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(accessible)), atk_value_get_type()) != 0
        else { return nil }
        var value = 0.0
        var text: UnsafeMutablePointer<gchar>?
        atk_value_get_value_and_text(OpaquePointer(accessible), &value, &text)
        g_free(text)
        return value
    }

    /// Whether the accessible says it is busy (ATK_STATE_BUSY): a screen reader hears a page load once, when it
    /// starts and when it ends (GeckoView does the same: percent announcements were too chatty).
    package var isAccessibleBusy: Bool {
        get {
            let set = atk_object_ref_state_set(gtk_widget_get_accessible(widget))
            defer { g_object_unref(set) }
            return atk_state_set_contains_state(set, ATK_STATE_BUSY) != 0
        }
        set {
            let accessible = gtk_widget_get_accessible(widget)!
            BusyState.patchClass(of: accessible)
            let object = UnsafeMutableRawPointer(accessible).assumingMemoryBound(to: GObject.self)
            guard (g_object_get_qdata(object, BusyState.quark) != nil) != newValue else { return }
            g_object_set_qdata(object, BusyState.quark, newValue ? UnsafeMutableRawPointer(bitPattern: 1) : nil)
            atk_object_notify_state_change(accessible, AtkState(ATK_STATE_BUSY.rawValue), newValue ? 1 : 0)
        }
    }
}

/// GTK 3 computes a widget accessible's states in its class's `ref_state_set` and offers no call to add one, so
/// that function is wrapped, once per accessible class: the wrapper adds BUSY to the accessibles marked with
/// `quark` and leaves every other accessible as it was.
private enum BusyState {
    typealias RefStateSet = @convention(c) (UnsafeMutablePointer<AtkObject>?) -> UnsafeMutablePointer<AtkStateSet>?

    static let quark = g_quark_from_static_string("gtkprogress-accessible-busy")
    /// The functions replaced, by the class they were replaced in. Only the main thread touches it (GTK's).
    nonisolated(unsafe) static var originals: [GType: RefStateSet] = [:]

    static let wrapper: RefStateSet = { accessible in
        let set = BusyState.original(for: accessible)?(accessible) ?? atk_state_set_new()
        let object = UnsafeMutableRawPointer(accessible).map { $0.assumingMemoryBound(to: GObject.self) }
        if let object, g_object_get_qdata(object, BusyState.quark) != nil {
            atk_state_set_add_state(set, ATK_STATE_BUSY)
        }
        return set
    }

    static func classOf(_ accessible: UnsafeMutableRawPointer) -> UnsafeMutablePointer<GTypeClass> {
        accessible.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class
    }

    /// The replaced function of the nearest class up the accessible's hierarchy: a subclass made after the
    /// wrapping inherits the wrapper, and must reach its parent's original.
    static func original(for accessible: UnsafeMutablePointer<AtkObject>?) -> RefStateSet? {
        guard let accessible else { return nil }
        var type = classOf(UnsafeMutableRawPointer(accessible)).pointee.g_type
        while type != 0 {
            if let original = originals[type] { return original }
            type = g_type_parent(type)
        }
        return nil
    }

    static func patchClass(of accessible: UnsafeMutablePointer<AtkObject>) {
        let typeClass = classOf(UnsafeMutableRawPointer(accessible))
        let atkClass = UnsafeMutableRawPointer(typeClass).assumingMemoryBound(to: AtkObjectClass.self)
        guard let current = atkClass.pointee.ref_state_set,
              unsafeBitCast(current, to: UnsafeRawPointer.self) != unsafeBitCast(wrapper, to: UnsafeRawPointer.self)
        else { return }
        originals[typeClass.pointee.g_type] = current
        atkClass.pointee.ref_state_set = wrapper
    }
}
