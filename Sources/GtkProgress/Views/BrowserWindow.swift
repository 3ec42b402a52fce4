import FoundationEssentials

/// The window's chrome: toolbar (Back, Forward, Reload/Stop, address entry), the page area with the progress bar
/// overlaid at its top (pass-through, so content never shifts and the bar takes no clicks), and a status line.
/// It holds no navigation state: `Browser` tells it what to show.
@MainActor
package final class BrowserWindow {
    package let window: Window
    package let back = Button(iconName: "go-previous-symbolic", tooltip: L("Back (Alt+Left)"), accessibleName: L("Back"))
    package let forward = Button(iconName: "go-next-symbolic", tooltip: L("Forward (Alt+Right)"), accessibleName: L("Forward"))
    package let reloadOrStop = Button(iconName: "view-refresh-symbolic", tooltip: L("Reload (F5)"), accessibleName: L("Reload"))
    package let address = Entry()
    package let status = Label()
    /// Find in page (Ctrl+F), between the toolbar and the page.
    package let findBar = SearchBar(placeholder: L("Find in page"))
    private let overlay = Overlay()

    package init(window: Window, page: Widget, bar: Widget) {
        self.window = window
        window.setDefaultSize(width: 960, height: 720)
        window.setIconName("org.gtkprogress.Viewer")

        address.placeholder = L("Address or file path")
        address.setInputPurposeURL()
        address.setAccessible(name: L("Address"))
        address.tooltip = L("Address (Ctrl+L)")
        address.setExpand(horizontal: true)

        let toolbar = Box(vertical: false, spacing: 4)
        toolbar.addCSSClass("toolbar")
        toolbar.setMargins(horizontal: 4, vertical: 4)
        toolbar.pack(back)
        toolbar.pack(forward)
        toolbar.pack(reloadOrStop)
        toolbar.pack(address, expand: true)

        overlay.add(page)
        overlay.setExpand(horizontal: true, vertical: true)
        overlay.addOverlay(bar, passThrough: true)

        status.setAccessible(name: L("Status"))
        status.setMargins(horizontal: 8, vertical: 3)
        let statusBox = Box(vertical: false)
        statusBox.addCSSClass("statusbar")
        statusBox.pack(status, expand: true)

        let column = Box(vertical: true)
        column.pack(toolbar)
        column.pack(findBar)
        column.pack(overlay, expand: true)
        column.pack(statusBox)
        window.add(column)
        setHistory(canGoBack: false, canGoForward: false)
    }

    package func setHistory(canGoBack: Bool, canGoForward: Bool) {
        back.isSensitive = canGoBack
        forward.isSensitive = canGoForward
    }

    /// Reload becomes Stop while a page loads.
    package func setLoading(_ loading: Bool) {
        reloadOrStop.setIcon(loading ? "process-stop-symbolic" : "view-refresh-symbolic")
        reloadOrStop.tooltip = loading ? L("Stop (Escape)") : L("Reload (F5)")
        reloadOrStop.setAccessible(name: loading ? L("Stop") : L("Reload"))
    }

    /// The status line. A long message is cut with "…" to fit the window; its tooltip holds all of it.
    package var statusText: String {
        get { status.text }
        set {
            status.text = newValue
            status.tooltip = newValue.isEmpty ? nil : newValue
        }
    }

    /// The address entry shows `url`, unless the user is typing in it.
    package func showAddress(_ url: URL?) {
        guard !address.hasFocus else { return }
        address.text = url.map(Self.displayString) ?? ""
    }

    package static func displayString(_ url: URL) -> String { AddressInput.displayString(url) }

    /// Characters of an address the status line shows, at most.
    package static let statusLimit = 200

    /// A link's address as the status line shows it: as the address entry would (`HostDisplay`), but an address
    /// longer than `statusLimit` characters is cut there and ends in "…". A GtkLabel lays out all of its text
    /// however little of it fits, and the status line's tooltip holds the same text: hovering a link whose address
    /// was a megabyte held the window for 0.4 s.
    package static func statusString(_ url: URL) -> String { AddressInput.displayString(url, limit: statusLimit) }
}
