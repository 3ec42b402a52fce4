internal import CGtk

/// A key press reduced to what shortcuts look at.
package struct KeyPress: Sendable {
    package let keyval: UInt32
    package let control: Bool
    package let alt: Bool
    package let shift: Bool

    package static func value(_ name: String) -> UInt32 { gdk_keyval_from_name(name) }

    /// The key as `BrowserCommand` reads it, by its X11 name.
    package var chord: KeyChord {
        let name = gdk_keyval_name(keyval).map { String(cString: $0) } ?? ""
        return KeyChord(name, control: control, alt: alt, shift: shift)
    }
}

extension Widget {
    /// Key presses before the focused widget sees them; return true to consume the key.
    @discardableResult
    package func onKeyPress(_ handler: @escaping (KeyPress) -> Bool) -> SignalConnection {
        connect(.keyPressEvent) { event in
            var keyval: UInt32 = 0
            var state = GdkModifierType(rawValue: 0)
            gdk_event_get_keyval(event, &keyval)
            gdk_event_get_state(event, &state)
            let s = state.rawValue
            return handler(KeyPress(keyval: keyval,
                                    control: s & GDK_CONTROL_MASK.rawValue != 0,
                                    alt: s & GDK_MOD1_MASK.rawValue != 0,
                                    shift: s & GDK_SHIFT_MASK.rawValue != 0))
        }
    }
}
