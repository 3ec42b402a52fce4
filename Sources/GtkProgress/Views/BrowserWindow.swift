import FoundationEssentials

/// The window's chrome: toolbar (Back, Forward, Reload/Stop, address entry), the page area with the progress bar
/// overlaid at its top (pass-through, so content never shifts and the bar takes no clicks), and a status line.
/// It holds no navigation state: `Browser` tells it what to show.
public final class BrowserWindow {
    public let window: Window
    public let back = Button(iconName: "go-previous-symbolic", tooltip: "Back (Alt+Left)", accessibleName: "Back")
    public let forward = Button(iconName: "go-next-symbolic", tooltip: "Forward (Alt+Right)", accessibleName: "Forward")
    public let reloadOrStop = Button(iconName: "view-refresh-symbolic", tooltip: "Reload (F5)", accessibleName: "Reload")
    public let address = Entry()
    public let status = Label()
    private let overlay = Overlay()

    public init(window: Window, page: Widget, bar: Widget) {
        self.window = window
        window.setDefaultSize(width: 960, height: 720)
        window.setIconName("org.gtkprogress.Viewer")

        address.placeholder = "Address or file path"
        address.setInputPurposeURL()
        address.setAccessible(name: "Address")
        address.tooltip = "Address (Ctrl+L)"
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

        status.setAccessible(name: "Status")
        status.setMargins(horizontal: 8, vertical: 3)
        let statusBox = Box(vertical: false)
        statusBox.addCSSClass("statusbar")
        statusBox.pack(status, expand: true)

        let column = Box(vertical: true)
        column.pack(toolbar)
        column.pack(overlay, expand: true)
        column.pack(statusBox)
        window.add(column)
        setHistory(canGoBack: false, canGoForward: false)
    }

    public func setHistory(canGoBack: Bool, canGoForward: Bool) {
        back.isSensitive = canGoBack
        forward.isSensitive = canGoForward
    }

    /// Reload becomes Stop while a page loads.
    public func setLoading(_ loading: Bool) {
        reloadOrStop.setIcon(loading ? "process-stop-symbolic" : "view-refresh-symbolic")
        reloadOrStop.tooltip = loading ? "Stop (Escape)" : "Reload (F5)"
        reloadOrStop.setAccessible(name: loading ? "Stop" : "Reload")
    }

    /// The status line. A long message is cut with "…" to fit the window; its tooltip holds all of it.
    public var statusText: String {
        get { status.text }
        set {
            status.text = newValue
            status.tooltip = newValue.isEmpty ? nil : newValue
        }
    }

    /// The address entry shows `url`, unless the user is typing in it.
    public func showAddress(_ url: URL?) {
        guard !address.hasFocus else { return }
        address.text = url.map(Self.displayString) ?? ""
    }

    public static func displayString(_ url: URL) -> String { AddressInput.displayString(url) }
}
