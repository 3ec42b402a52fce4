/// What the viewer's keys do, decided without a display: the window turns a key press into a `KeyChord`, says
/// which part of the window has the keyboard, asks for its command, and carries it out. The keys are one table
/// (`KeyBinding.all`): the key handling reads it, and the shortcuts window (`ShortcutsSheet`) is generated from it,
/// so the two cannot disagree.
package enum BrowserCommand: Sendable, Equatable, CaseIterable {
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
    /// The header bar's primary menu (F10, as in every GNOME application).
    case primaryMenu
    /// The keyboard shortcuts window (Ctrl+?, F1).
    case shortcuts
    /// The History window (Ctrl+H).
    case history
    /// Bookmark the page shown, or take its bookmark away (Ctrl+D).
    case bookmark

    /// Which part of the window has the keyboard: keys that mean something to an entry stay with it.
    package enum Focus: Sendable, Equatable {
        /// The page (the text view), as after a page loads.
        case page
        /// The address entry.
        case address
        /// The find bar's entry.
        case find
        /// Anything else (a header bar button).
        case other
    }

    /// The command a key chord triggers, or nil to let the focused widget have the key.
    package static func command(for chord: KeyChord, focus: Focus) -> BrowserCommand? {
        if focus == .find, let command = KeyBinding.match(chord, in: .find) { return command }
        if let command = KeyBinding.match(chord, in: .window) { return command }
        return focus == .page ? KeyBinding.match(chord, in: .page) : nil
    }

    /// What the command does, as the shortcuts window lists it.
    package var title: String {
        switch self {
        case .back: L("Go back")
        case .forward: L("Go forward")
        case .reload: L("Reload the page")
        case .stopOrRestoreAddress: L("Stop loading, or put back the address being edited")
        case .focusAddress: L("Edit the address")
        case .closeWindow: L("Close the window")
        case .quit: L("Quit: close every window (the next start brings them back)")
        case .newWindow: L("Open a new window")
        case .save: L("Save a file that is not shown as text")
        case .nextLink: L("Next link")
        case .previousLink: L("Previous link")
        case .activateLink: L("Follow the link")
        case .activateLinkInNewWindow: L("Follow the link in a new window")
        case .pageDown: L("Scroll down a page")
        case .pageUp: L("Scroll up a page")
        case .scrollToTop: L("Go to the top of the page")
        case .scrollToBottom: L("Go to the end of the page")
        case .find: L("Find in page")
        case .findNext: L("Find the next match")
        case .findPrevious: L("Find the previous match")
        case .closeFind: L("Close the find bar")
        case .zoomIn: L("Larger text")
        case .zoomOut: L("Smaller text")
        case .zoomReset: L("Normal text size")
        case .primaryMenu: L("Open the main menu")
        case .shortcuts: L("Show the keyboard shortcuts")
        case .history: L("Show the history")
        case .bookmark: L("Bookmark the page, or remove its bookmark")
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

/// One row of the key table: a key (its X11 name), the modifiers it needs, where it acts, and its command.
package struct KeyBinding: Sendable, Equatable {
    /// Where a key acts: anywhere in the window, only on the page (the same keys edit text in an entry), or only
    /// in the find bar.
    package enum Scope: Sendable, Equatable, CaseIterable {
        case window, page, find
    }

    package var key: String
    package var control: Bool
    package var alt: Bool
    /// nil: with or without Shift.
    package var shift: Bool?
    package var scope: Scope
    package var command: BrowserCommand
    /// Another name for a key listed already (the shifted form of a chord, a keypad key with Num Lock off): it is
    /// handled but not listed twice in the shortcuts window.
    package var isAlias: Bool

    init(_ key: String, control: Bool = false, alt: Bool = false, shift: Bool? = false, _ scope: Scope,
         _ command: BrowserCommand, alias: Bool = false) {
        self.key = key
        self.control = control
        self.alt = alt
        self.shift = shift
        self.scope = scope
        self.command = command
        isAlias = alias
    }

    package func matches(_ chord: KeyChord) -> Bool {
        chord.name == key && chord.control == control && chord.alt == alt && (shift == nil || shift == chord.shift)
    }

    /// The chord in GTK's accelerator syntax (`gtk_accelerator_parse`), as GtkShortcutsShortcut shows it.
    /// <https://docs.gtk.org/gtk3/func.accelerator_parse.html>
    package var accelerator: String {
        (control ? "<Primary>" : "") + (alt ? "<Alt>" : "") + (shift == true ? "<Shift>" : "") + key
    }

    /// The first binding of `scope` that `chord` matches, in the table's order.
    package static func match(_ chord: KeyChord, in scope: Scope) -> BrowserCommand? {
        all.first { $0.scope == scope && $0.matches(chord) }?.command
    }

    /// Every key the viewer knows. Order matters where two rows could match one chord: the first wins.
    package static let all: [KeyBinding] = [
        // Anywhere in the window.
        KeyBinding("Left", alt: true, shift: nil, .window, .back),
        KeyBinding("Right", alt: true, shift: nil, .window, .forward),
        KeyBinding("F5", shift: nil, .window, .reload),
        KeyBinding("F5", control: true, shift: nil, .window, .reload, alias: true),
        KeyBinding("r", control: true, shift: nil, .window, .reload),
        KeyBinding("Escape", shift: nil, .window, .stopOrRestoreAddress),
        KeyBinding("l", control: true, shift: nil, .window, .focusAddress),
        KeyBinding("w", control: true, .window, .closeWindow),
        KeyBinding("q", control: true, .window, .quit),
        KeyBinding("n", control: true, .window, .newWindow),
        KeyBinding("s", control: true, .window, .save),
        KeyBinding("f", control: true, .window, .find),
        KeyBinding("F3", .window, .findNext),
        KeyBinding("g", control: true, .window, .findNext),
        KeyBinding("F3", shift: true, .window, .findPrevious),
        KeyBinding("g", control: true, shift: true, .window, .findPrevious),
        KeyBinding("G", control: true, shift: nil, .window, .findPrevious, alias: true),
        // Ctrl+plus is Ctrl+Shift+equal on most layouts, and Ctrl+equal where plus needs no Shift.
        KeyBinding("plus", control: true, shift: nil, .window, .zoomIn),
        KeyBinding("equal", control: true, shift: nil, .window, .zoomIn),
        KeyBinding("KP_Add", control: true, shift: nil, .window, .zoomIn, alias: true),
        KeyBinding("minus", control: true, shift: nil, .window, .zoomOut),
        KeyBinding("underscore", control: true, shift: nil, .window, .zoomOut, alias: true),
        KeyBinding("KP_Subtract", control: true, shift: nil, .window, .zoomOut, alias: true),
        KeyBinding("0", control: true, .window, .zoomReset),
        KeyBinding("KP_0", control: true, shift: nil, .window, .zoomReset, alias: true),
        KeyBinding("KP_Insert", control: true, shift: nil, .window, .zoomReset, alias: true),
        KeyBinding("F10", .window, .primaryMenu),
        KeyBinding("h", control: true, .window, .history),
        KeyBinding("d", control: true, .window, .bookmark),
        // Ctrl+? is Ctrl+Shift+slash on most layouts (GNOME HIG, "Keyboard shortcuts").
        KeyBinding("question", control: true, shift: nil, .window, .shortcuts),
        KeyBinding("F1", .window, .shortcuts),
        // The page, as Firefox, w3m and lynx read it.
        KeyBinding("Tab", .page, .nextLink),
        KeyBinding("Tab", shift: true, .page, .previousLink),
        // Shift+Tab arrives as ISO_Left_Tab on X11.
        KeyBinding("ISO_Left_Tab", shift: nil, .page, .previousLink, alias: true),
        KeyBinding("Return", .page, .activateLink),
        KeyBinding("KP_Enter", .page, .activateLink),
        KeyBinding("Return", shift: true, .page, .activateLinkInNewWindow),
        KeyBinding("Return", control: true, shift: nil, .page, .activateLinkInNewWindow),
        KeyBinding("KP_Enter", shift: true, .page, .activateLinkInNewWindow, alias: true),
        KeyBinding("KP_Enter", control: true, shift: nil, .page, .activateLinkInNewWindow, alias: true),
        KeyBinding("space", .page, .pageDown),
        KeyBinding("space", shift: true, .page, .pageUp),
        KeyBinding("Home", shift: nil, .page, .scrollToTop),
        KeyBinding("KP_Home", shift: nil, .page, .scrollToTop, alias: true),
        KeyBinding("End", shift: nil, .page, .scrollToBottom),
        KeyBinding("KP_End", shift: nil, .page, .scrollToBottom, alias: true),
        // The find bar: GtkSearchEntry's own keys, with Return added as in Firefox.
        KeyBinding("Return", .find, .findNext),
        KeyBinding("KP_Enter", .find, .findNext, alias: true),
        KeyBinding("Return", shift: true, .find, .findPrevious),
        KeyBinding("KP_Enter", shift: true, .find, .findPrevious, alias: true),
        KeyBinding("Escape", shift: nil, .find, .closeFind),
    ]
}
