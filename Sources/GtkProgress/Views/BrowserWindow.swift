import FoundationEssentials

/// The window's chrome, as GNOME's applications have it (GNOME HIG, header bars): a header bar in place of the
/// title bar, holding Back and Forward, Reload/Stop, the address entry and the primary menu; the page area with the
/// progress bar overlaid at its top (pass-through, so content never shifts and the bar takes no clicks); and a
/// floating status at the page's bottom-start corner, as GNOME Web has it, shown while a page loads, while a link
/// is pointed at, and for a few seconds after a message, hidden otherwise.
/// It holds no navigation state: `Browser` tells it what to show.
@MainActor
package final class BrowserWindow {
    package let window: Window
    package let header = HeaderBar()
    package let back = Button(iconName: "go-previous-symbolic", tooltip: L("Back (Alt+Left)"), accessibleName: L("Back"))
    package let forward = Button(iconName: "go-next-symbolic", tooltip: L("Forward (Alt+Right)"), accessibleName: L("Forward"))
    package let reloadOrStop = Button(iconName: "view-refresh-symbolic", tooltip: L("Reload (F5)"), accessibleName: L("Reload"))
    package let address = Entry()
    /// The primary menu (F10).
    package let menuButton = MenuButton(iconName: "open-menu-symbolic", tooltip: L("Main Menu (F10)"),
                                        accessibleName: L("Main Menu"))
    /// The star: bookmarks the page shown, or takes the bookmark away (Ctrl+D).
    package let star = Button(iconName: "non-starred-symbolic", tooltip: L("Bookmark this page (Ctrl+D)"),
                              accessibleName: L("Add Bookmark"))
    package let status = Label()
    /// Find in page (Ctrl+F), between the header bar and the page.
    package let findBar = SearchBar(placeholder: L("Find in page"))
    private let overlay = Overlay()
    private let statusFrame = Box(vertical: false)
    /// Seconds a message stays when nothing is loading and no link is pointed at.
    package static let messageSeconds: UInt32 = 5
    private var hideTimer: MainLoopTimer?
    /// The window's idle work and timers, the browser's too: removed when the window is destroyed.
    package let sources = MainLoopSources()
    private var isLoading = false
    /// A link is pointed at (or has the keyboard focus): the status shows where it leads.
    package var isShowingLink = false {
        didSet { updateStatusVisibility(fresh: false) }
    }
    /// What the status says when nothing happens (the page's own "Done: 2.0 KB."): not shown by itself once the
    /// page is in.
    package var restingStatus: String?

    package init(window: Window, page: Widget, bar: Widget) {
        self.window = window
        window.removeOnDestroy(sources)
        window.setDefaultSize(width: 960, height: 720)
        window.setIconName("org.gtkprogress.Viewer")

        address.placeholder = L("Address or file path")
        address.setInputPurposeURL()
        address.setAccessible(name: L("Address"))
        address.tooltip = L("Address (Ctrl+L)")
        address.setExpand(horizontal: true)
        address.setSizeRequest(width: 360, height: -1)

        header.packStart(LinkedButtons([back, forward]))
        header.packStart(reloadOrStop)
        header.setCustomTitle(address)
        header.packEnd(menuButton)
        header.packEnd(star)
        window.setTitlebar(header)

        overlay.add(page)
        overlay.setExpand(horizontal: true, vertical: true)
        overlay.addOverlay(bar, passThrough: true)

        status.setAccessible(name: L("Status"))
        status.setMargins(horizontal: 6, vertical: 3)
        status.maxWidthCharacters = 80
        statusFrame.addCSSClass("floating-status")
        statusFrame.setAlignment(horizontal: .start, vertical: .end)
        statusFrame.pack(status, expand: true)
        statusFrame.setStyle("""
            .floating-status { background-color: @theme_base_color; border: 1px solid @borders;
                border-bottom-width: 0; border-left-width: 0; border-radius: 0 6px 0 0; }
            """)
        statusFrame.setNoShowAll(true)
        overlay.addOverlay(statusFrame, passThrough: true)

        let column = Box(vertical: true)
        column.pack(findBar)
        column.pack(overlay, expand: true)
        window.add(column)
        setHistory(canGoBack: false, canGoForward: false)
    }

    package func setHistory(canGoBack: Bool, canGoForward: Bool) {
        back.isSensitive = canGoBack
        forward.isSensitive = canGoForward
    }

    /// The star is filled while the page shown is bookmarked; there is no star without bookmarks to keep.
    package func setBookmarked(_ bookmarked: Bool?) {
        star.isSensitive = bookmarked != nil
        let on = bookmarked == true
        star.setIcon(on ? "starred-symbolic" : "non-starred-symbolic")
        star.tooltip = on ? L("Remove this page's bookmark (Ctrl+D)") : L("Bookmark this page (Ctrl+D)")
        star.setAccessible(name: on ? L("Remove Bookmark") : L("Add Bookmark"))
    }

    /// Reload becomes Stop while a page loads, and the status shows while it does.
    package func setLoading(_ loading: Bool) {
        reloadOrStop.setIcon(loading ? "process-stop-symbolic" : "view-refresh-symbolic")
        reloadOrStop.tooltip = loading ? L("Stop (Escape)") : L("Reload (F5)")
        reloadOrStop.setAccessible(name: loading ? L("Stop") : L("Reload"))
        guard loading != isLoading else { return }
        isLoading = loading
        updateStatusVisibility(fresh: false)
    }

    /// The status. A long message is cut with "…" to fit; its tooltip (the accessible description) holds all of it.
    package var statusText: String {
        get { status.text }
        set {
            status.text = newValue
            status.tooltip = newValue.isEmpty ? nil : newValue
            updateStatusVisibility(fresh: true)
        }
    }

    /// Whether the floating status is on screen.
    package var isStatusShown: Bool { statusFrame.isVisible }

    /// Shown while loading or pointing at a link; a new message (`fresh`) otherwise stays `messageSeconds`; the
    /// page's resting status and an empty one are not shown.
    private func updateStatusVisibility(fresh: Bool) {
        let text = status.text
        if text.isEmpty {
            hideTimer = nil
            statusFrame.hide()
        } else if isLoading || isShowingLink {
            hideTimer = nil
            statusFrame.show()
            status.show()
        } else if fresh && text != restingStatus {
            statusFrame.show()
            status.show()
            hideTimer = sources.timer(milliseconds: Self.messageSeconds * 1000, name: "gtkprogress status hide") {
                [weak self] in
                self?.hideTimer = nil
                self?.statusFrame.hide()
                return false
            }
        } else if hideTimer == nil {
            statusFrame.hide()
        }
    }

    /// The address entry shows `url`, unless the user is typing in it.
    package func showAddress(_ url: URL?) {
        guard !address.hasFocus else { return }
        address.text = url.map(Self.displayString) ?? ""
    }

    package static func displayString(_ url: URL) -> String { AddressInput.displayString(url) }

    /// Characters of an address the status shows, at most.
    package static let statusLimit = 200

    /// A link's address as the status shows it: as the address entry would (`HostDisplay`), but an address
    /// longer than `statusLimit` characters is cut there and ends in "…". A GtkLabel lays out all of its text
    /// however little of it fits, and the status's tooltip holds the same text: hovering a link whose address
    /// was a megabyte held the window for 0.4 s.
    package static func statusString(_ url: URL) -> String { AddressInput.displayString(url, limit: statusLimit) }
}
