/// What the viewer's keys do, decided without a display: the window turns a key press into a `KeyChord`, says
/// which part of the window has the keyboard, asks for its command, and carries it out.
package enum BrowserCommand: Sendable, Equatable {
    case back, forward, reload
    /// Stop a load in progress; with nothing loading, put back the address of the page shown.
    case stopOrRestoreAddress
    case focusAddress
    case closeWindow
    /// Close every window (the session keeps them all).
    case quit
    case newWindow
    case save
    /// Move the keyboard focus to the next or previous link of the page; past the last one it leaves the page.
    case nextLink, previousLink
    /// Follow the link that has the keyboard focus, here or in a new window.
    case activateLink, activateLinkInNewWindow
    case pageDown, pageUp, scrollToTop, scrollToBottom
    case find, findNext, findPrevious, closeFind
    case zoomIn, zoomOut, zoomReset

    /// Which part of the window has the keyboard: keys that mean something to an entry stay with it.
    package enum Focus: Sendable, Equatable {
        /// The page (the text view), as after a page loads.
        case page
        /// The address entry.
        case address
        /// The find bar's entry.
        case find
        /// Anything else (a toolbar button).
        case other
    }

    /// The command a key chord triggers, or nil to let the focused widget have the key.
    package static func command(for chord: KeyChord, focus: Focus) -> BrowserCommand? {
        if focus == .find, let command = findCommand(chord) { return command }
        if let command = windowCommand(chord) { return command }
        return focus == .page ? pageCommand(chord) : nil
    }

    /// Keys that act wherever the focus is.
    private static func windowCommand(_ chord: KeyChord) -> BrowserCommand? {
        switch (chord.name, chord.control, chord.alt, chord.shift) {
        case ("Left", false, true, _): return .back
        case ("Right", false, true, _): return .forward
        case ("F5", _, false, _), ("r", true, false, _): return .reload
        case ("Escape", false, false, _): return .stopOrRestoreAddress
        case ("l", true, false, _): return .focusAddress
        case ("w", true, false, false): return .closeWindow
        case ("q", true, false, false): return .quit
        case ("n", true, false, false): return .newWindow
        case ("s", true, false, false): return .save
        case ("f", true, false, false): return .find
        case ("F3", false, false, false), ("g", true, false, false): return .findNext
        case ("F3", false, false, true), ("g", true, false, true), ("G", true, false, _): return .findPrevious
        // Ctrl+plus is Ctrl+Shift+equal on most layouts, and Ctrl+equal where plus needs no Shift.
        case ("plus", true, false, _), ("equal", true, false, _), ("KP_Add", true, false, _): return .zoomIn
        case ("minus", true, false, _), ("underscore", true, false, _), ("KP_Subtract", true, false, _): return .zoomOut
        case ("0", true, false, false), ("KP_0", true, false, _), ("KP_Insert", true, false, _): return .zoomReset
        default: return nil
        }
    }

    /// Keys of the page, as Firefox, w3m and lynx read them.
    private static func pageCommand(_ chord: KeyChord) -> BrowserCommand? {
        guard !chord.alt else { return nil }
        switch (chord.name, chord.control, chord.shift) {
        case ("Tab", false, false): return .nextLink
        // Shift+Tab arrives as ISO_Left_Tab on X11.
        case ("Tab", false, true), ("ISO_Left_Tab", false, _): return .previousLink
        case ("Return", false, false), ("KP_Enter", false, false): return .activateLink
        case ("Return", _, _), ("KP_Enter", _, _): return .activateLinkInNewWindow
        case ("space", false, false): return .pageDown
        case ("space", false, true): return .pageUp
        case ("Home", false, _), ("KP_Home", false, _): return .scrollToTop
        case ("End", false, _), ("KP_End", false, _): return .scrollToBottom
        default: return nil
        }
    }

    /// Keys of the find bar: Return goes to the next match, Shift+Return to the previous, Escape closes the bar
    /// (GtkSearchEntry's own keys, with Return added as in Firefox).
    private static func findCommand(_ chord: KeyChord) -> BrowserCommand? {
        switch (chord.name, chord.control, chord.alt, chord.shift) {
        case ("Return", false, false, false), ("KP_Enter", false, false, false): return .findNext
        case ("Return", false, false, true), ("KP_Enter", false, false, true): return .findPrevious
        case ("Escape", false, false, _): return .closeFind
        default: return nil
        }
    }
}

/// A key press as shortcuts see it: the key's X11 name (`"Left"`, `"F5"`, `"r"`) and the modifiers held.
package struct KeyChord: Sendable, Equatable {
    package var name: String
    package var control: Bool
    package var alt: Bool
    package var shift: Bool

    package init(_ name: String, control: Bool = false, alt: Bool = false, shift: Bool = false) {
        self.name = name
        self.control = control
        self.alt = alt
        self.shift = shift
    }
}
