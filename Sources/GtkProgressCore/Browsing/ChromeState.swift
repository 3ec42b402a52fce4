import FoundationEssentials

/// Everything the window's chrome shows, computed from the navigation model alone, so the chrome never keeps
/// state of its own and what it shows is testable without a display.
package struct ChromeState: Equatable, Sendable {
    package var canGoBack: Bool
    package var canGoForward: Bool
    /// Reload turns into Stop while this is true.
    package var isLoading: Bool
    /// The address of the page being loaded, else of the page shown.
    package var address: URL?
    package var windowTitle: String

    package init<Page>(model: NavigationModel<Page>, partialTitle: String? = nil) {
        canGoBack = model.canGoBack
        canGoForward = model.canGoForward
        isLoading = model.isLoading
        address = model.pending?.url ?? model.current?.url
        if model.isLoading, let partialTitle, !partialTitle.isEmpty {
            // The `<title>` of the page arriving, as soon as it has arrived.
            windowTitle = partialTitle
        } else {
            windowTitle = Self.windowTitle(url: model.current?.url, title: model.current?.title)
        }
    }

    /// The page title, or the host when the page has none (as browsers title a page without `<title>`).
    package static func windowTitle(url: URL?, title: String?) -> String {
        guard let url else { return "GtkProgress" }
        if let title = title?.trimmed(), !title.isEmpty { return title }
        if let host = url.host, !host.isEmpty { return host }
        return url.lastPathComponent.isEmpty ? "GtkProgress" : url.lastPathComponent
    }
}
