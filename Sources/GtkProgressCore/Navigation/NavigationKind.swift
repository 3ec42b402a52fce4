import FoundationEssentials

/// Why a navigation started; it decides how the history changes when the page arrives.
package enum NavigationKind: Sendable, Equatable {
    /// Typed in the address entry.
    case typed
    /// A link clicked in the page.
    case link
    /// A URL or file dropped onto the window.
    case dropped
    /// Given on the command line or by the desktop (`open`).
    case commandLine
    /// Reload of the current entry, always from the network.
    case reload
    /// Back or forward to the entry at this index, when it has no cached page.
    case history(index: Int)
    /// `<meta http-equiv="refresh">`: replaces the current entry (as `location.replace` does).
    case replace
    /// A link of another window's page, opened in a new window (middle click, Ctrl+click, Shift or Ctrl+Return,
    /// the link's menu). It may reach what the page that opened it may reach, no more.
    case openedFrom(NavigationPolicy.Source)
}

/// A navigation in flight: what was asked for, and how it will change the history when it ends.
package struct PendingNavigation: Sendable, Equatable {
    /// Increases with every navigation; events of an older one are stale.
    package let id: Int
    package let url: URL
    package let kind: NavigationKind
    /// A form's data sent by POST (`FormSubmission`); nil for every other navigation.
    package var body: [UInt8]? = nil
}
