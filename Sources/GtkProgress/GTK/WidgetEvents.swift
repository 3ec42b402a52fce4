internal import CGtk

// What a widget reports of the person's input and its own life, as Swift values: the events GTK delivers to
// every widget <https://docs.gtk.org/gtk3/class.Widget.html#signals>.

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

/// A button press: where, which button, and the modifiers held.
package struct ButtonPress: Sendable {
    package let x: Double, y: Double
    package let button: UInt32
    package let control: Bool, shift: Bool
    /// A second or third press of a double or triple click.
    package let isRepeat: Bool
}

/// Which way the keyboard moves the focus (Tab, Shift+Tab, arrows).
package enum FocusDirection: Sendable, Equatable {
    case forward, backward, other
}

extension Widget {
    /// A mouse button released over the widget, at (x, y) in its coordinates; return true to keep the release
    /// from the widget's own handling.
    @discardableResult
    package func onButtonRelease(_ handler: @escaping (_ x: Double, _ y: Double, _ button: UInt32) -> Bool) -> SignalConnection {
        connect(.buttonReleaseEvent) { [weak self] event in
            guard let self, self.isOwn(event) else { return false }
            var x = 0.0, y = 0.0, button: UInt32 = 0
            gdk_event_get_coords(event, &x, &y)
            gdk_event_get_button(event, &button)
            return handler(x, y, button)
        }
    }

    /// The pointer moved over the widget, to (x, y) in its coordinates.
    @discardableResult
    package func onMotion(_ handler: @escaping (_ x: Double, _ y: Double) -> Bool) -> SignalConnection {
        connect(.motionNotifyEvent) { [weak self] event in
            guard let self, self.isOwn(event) else { return false }
            var x = 0.0, y = 0.0
            gdk_event_get_coords(event, &x, &y)
            return handler(x, y)
        }
    }

    /// The pointer left the widget.
    @discardableResult
    package func onLeave(_ handler: @escaping () -> Void) -> SignalConnection {
        connect(.leaveNotifyEvent) { (_: UnsafeMutablePointer<GdkEvent>) in handler(); return false }
    }

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

    /// The keyboard focus is moving into or within this widget (GtkWidget::focus). Return true when the widget
    /// keeps it (it moved to a part of it), false to let it move on to the next widget.
    @discardableResult
    package func onFocusMove(_ handler: @escaping (FocusDirection) -> Bool) -> SignalConnection {
        connect(.focus) { (direction: GtkDirectionType) in
            handler(direction == GTK_DIR_TAB_FORWARD ? .forward : direction == GTK_DIR_TAB_BACKWARD ? .backward : .other)
        }
    }

    /// The context-menu key or Shift+F10 (GtkWidget::popup-menu). Return true when a menu was shown.
    @discardableResult
    package func onPopupMenuKey(_ handler: @escaping () -> Bool) -> SignalConnection {
        connect(.popupMenu, handler)
    }

    /// Paints over what the widget drew itself, in its coordinates.
    @discardableResult
    package func onPaintAbove(_ handler: @escaping (CairoContext) -> Void) -> SignalConnection {
        connect(.draw, after: true) { (cr: CairoContext) in handler(cr); return false }
    }

    /// Button presses before the widget's own handling; return true to keep the press from it.
    @discardableResult
    package func onButtonPress(_ handler: @escaping (ButtonPress) -> Bool) -> SignalConnection {
        connect(.buttonPressEvent) { [weak self] event in
            guard let self, self.isOwn(event) else { return false }
            var x = 0.0, y = 0.0, button: UInt32 = 0
            var state = GdkModifierType(rawValue: 0)
            gdk_event_get_coords(event, &x, &y)
            gdk_event_get_button(event, &button)
            gdk_event_get_state(event, &state)
            return handler(ButtonPress(x: x, y: y, button: button,
                                       control: state.rawValue & GDK_CONTROL_MASK.rawValue != 0,
                                       shift: state.rawValue & GDK_SHIFT_MASK.rawValue != 0,
                                       isRepeat: gdk_event_get_event_type(event) != GDK_BUTTON_PRESS))
        }
    }

    /// Whether a pointer event happened in one of the widget's own windows. An event a child with a window of its
    /// own did not handle (an area anchored in a text view) goes on to its parents with the child's window and
    /// coordinates (<https://docs.gtk.org/gtk3/input-handling.html>, "Event propagation"): read as the
    /// parent's, a point over the child is some other place of the parent (a link hovered in an area cleared the
    /// page's hover; a click there could follow the page's link at those coordinates).
    private func isOwn(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        guard let window = gdk_event_get_window(event) else { return true }
        var owner: gpointer?
        gdk_window_get_user_data(window, &owner)
        return owner == nil || owner == UnsafeMutableRawPointer(widget)
    }

    /// The modifiers held during the event being handled (for button releases, which report only the button).
    package static var currentEventHasControl: Bool {
        var state = GdkModifierType(rawValue: 0)
        guard gtk_get_current_event_state(&state) != 0 else { return false }
        return state.rawValue & GDK_CONTROL_MASK.rawValue != 0
    }

    /// Scroll-wheel steps with Ctrl held, as -1 (towards the reader: up) … +1 (down), fractional for touchpads.
    /// The handler returns true to keep the scroll from scrolling.
    @discardableResult
    package func onControlScroll(_ handler: @escaping (Double) -> Bool) -> SignalConnection {
        connect(.scrollEvent) { event in
            var state = GdkModifierType(rawValue: 0)
            gdk_event_get_state(event, &state)
            guard state.rawValue & GDK_CONTROL_MASK.rawValue != 0 else { return false }
            var direction = GDK_SCROLL_UP
            if gdk_event_get_scroll_direction(event, &direction) != 0 {
                switch direction {
                case GDK_SCROLL_UP: return handler(-1)
                case GDK_SCROLL_DOWN: return handler(1)
                default: return false
                }
            }
            var dx = 0.0, dy = 0.0
            guard gdk_event_get_scroll_deltas(event, &dx, &dy) != 0 else { return false }
            return handler(dy)
        }
    }

    /// The widget gained (true) or lost (false) the keyboard focus; one connection for both signals.
    @discardableResult
    package func onFocusChange(_ handler: @escaping (Bool) -> Void) -> SignalConnection {
        let gained = connect(.focusInEvent) { (_: UnsafeMutablePointer<GdkEvent>) in handler(true); return false }
        let lost = connect(.focusOutEvent) { (_: UnsafeMutablePointer<GdkEvent>) in handler(false); return false }
        return SignalConnection(object: object, ids: gained.ids + lost.ids)
    }

    /// The theme changed (GtkWidget::style-updated): colours read from it must be read again.
    @discardableResult
    package func onStyleUpdated(_ handler: @escaping () -> Void) -> SignalConnection { connect(.styleUpdated, handler) }

    /// The widget is being destroyed (a window closed): let go of what refers to it.
    @discardableResult
    package func onDestroy(_ handler: @escaping () -> Void) -> SignalConnection { connect(.destroy, handler) }

    /// Removes `sources` (`MainLoopSources`) when the widget is destroyed: what its owner left waiting in the main
    /// loop never runs once the widget and what it holds are gone.
    package func removeOnDestroy(_ sources: MainLoopSources) {
        onDestroy { [weak sources] in sources?.removeAll() }
    }
}
