/// What the viewer's keys do, decided without a display: the window turns a key press into a `KeyChord`, asks
/// for its command, and carries it out.
package enum BrowserCommand: Sendable, Equatable {
    case back, forward, reload
    /// Stop a load in progress; with nothing loading, put back the address of the page shown.
    case stopOrRestoreAddress
    case focusAddress
    case closeWindow
    case save

    /// The command a key chord triggers, or nil to let the focused widget have the key.
    package static func command(for chord: KeyChord) -> BrowserCommand? {
        switch (chord.name, chord.control, chord.alt) {
        case ("Left", false, true): return .back
        case ("Right", false, true): return .forward
        case ("F5", _, false), ("r", true, false): return .reload
        case ("Escape", false, false): return .stopOrRestoreAddress
        case ("l", true, false): return .focusAddress
        case ("w", true, false), ("q", true, false): return .closeWindow
        case ("s", true, false): return .save
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
