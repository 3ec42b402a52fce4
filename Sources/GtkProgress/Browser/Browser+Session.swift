import FoundationEssentials

/// The window as a session keeps it, and the window brought back from one.
extension Browser {
    /// This window's history, scroll position, text size, size and whether it shows images, as of now.
    package var sessionWindow: SessionState.Window {
        saveScroll()
        var window = SessionState.Window(model: model, zoom: zoom, width: chrome.window.width,
                                         height: chrome.window.height, images: imagesShown, pageStyles: pageStyles)
        window.centred = page.placement == .centred
        return window
    }

    /// Brings back a saved window: its back/forward list, its text size, and its current page, which is fetched
    /// again and shown where the reader left it. The other entries load when visited.
    package func restore(_ saved: SessionState.Window) {
        if let width = saved.width, let height = saved.height { chrome.window.setDefaultSize(width: width, height: height) }
        // `--no-css` wins over a window saved with page styles on.
        pageStyles = pageStyles && saved.pageStyles
        page.placement = saved.centred ? .centred : .left
        if saved.zoom != .normal {
            zoom = saved.zoom
            page.setZoom(saved.zoom.factor)
        }
        if !saved.images { setImagesShown(false) }
        apply(model.restore(saved.historyEntries(of: ShownPage.self), currentIndex: saved.currentIndex))
    }
}
