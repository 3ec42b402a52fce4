import FoundationEssentials

/// A window's first navigation, started before the window exists: its navigation model decides, and the page
/// load runs on the loader's libcurl multi handle, while GTK starts and the window is built. The `Browser` made
/// for it then takes the model and the loader over (`Browser.init(…, starting:)`) and the load goes on in it
/// (`Browser.resume(_:)`): the events that came meanwhile are handed to it first, in order, and the bar's curve
/// starts at the navigation's start, as the WeChat article's timer starts at the request.
///
/// Nothing here touches GTK: the model is pure and the loader needs only the GLib main context, which
/// `MainLoop.dispatchReady()` runs a turn at a time until the application's main loop takes over.
@MainActor
package final class EarlyNavigation {
    /// The address opened, as the window will be asked for it.
    package let url: URL
    let model = NavigationModel<ShownPage>()
    let loader: PageLoader
    /// The model's decision on the navigation: `.load` started the page load.
    let decision: NavigationDecision<ShownPage>
    /// When the navigation started, on `MainLoop.monotonicSeconds()`.
    let startedAt: Double
    /// The load's events until a window listens.
    private var waiting: [LoadEvent] = []
    private var listener: ((LoadEvent) -> Void)?
    private(set) var isTaken = false
    /// The images the document names, asked for as it arrives (none with `preloadImages` false).
    private(set) var preloads: ImagePreloads?

    /// Asks a new navigation model to open `url` as a navigation of `kind`, and starts the load it decides on;
    /// with `preloadImages`, the images its document names are asked for as it arrives.
    package init(opening url: URL, kind: NavigationKind, loaderOptions: LoaderOptions, preloadImages: Bool = true) {
        self.url = url
        loader = PageLoader(options: loaderOptions)
        if preloadImages { preloads = ImagePreloads(loader: loader) }
        startedAt = MainLoop.monotonicSeconds()
        decision = model.navigate(to: url, kind: kind)
        if case .load(let navigation) = decision {
            // The loader holds this navigation until its load ends, is cancelled or is replaced: the window that
            // takes it over keeps only the model and the loader.
            loader.load(LoadRequest(url: navigation.url, body: navigation.body)) { [self] event in
                received(event)
            }
        }
    }

    /// Whether the decision started a load (a refused address starts none; the window shows why).
    package var isLoading: Bool { loader.isLoading }

    /// Nobody will show it (another viewer takes the address, or there is no display): the load stops.
    package func cancel() {
        listener = nil
        waiting.removeAll()
        loader.cancel()
    }

    private func received(_ event: LoadEvent) {
        guard let listener else {
            if case .progress = event, let arrived = loader.arrived() { preloads?.look(at: arrived) }
            return waiting.append(event)
        }
        listener(event)
    }

    /// The window takes the load over: `listener` gets the events that came before, then each as it comes.
    func attach(_ listener: @escaping (LoadEvent) -> Void) {
        isTaken = true
        self.listener = listener
        let past = waiting
        waiting.removeAll()
        for event in past { listener(event) }
    }
}
