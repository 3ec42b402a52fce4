import FoundationEssentials

/// What the shell has to do after asking the model for a navigation.
public enum NavigationDecision<Page> {
    /// Start loading `navigation` from the network (cancelling anything in flight).
    case load(PendingNavigation)
    /// Show this cached entry at once, with no request (Back/Forward from the page cache).
    case showCached(HistoryEntry<Page>)
    /// Refused before anything changed; the message is for the status line.
    case refused(String)
    /// Nothing to do (Back at the first entry, Reload with no page).
    case none
}

/// The navigation model: the back/forward list, the navigation in flight, and the history rules of the UIWebView analysis (docs/sources.md).
/// Pure Swift: the window reflects it and the loader serves it.
public final class NavigationModel<Page> {
    public private(set) var list: BackForwardList<Page>
    public private(set) var pending: PendingNavigation?
    /// `<meta http-equiv="refresh">` navigations since the person last navigated, and how soon the next may run.
    public var refreshes = AutomaticRefreshes()
    private var nextID = 1

    public init(capacity: Int = 50) { list = BackForwardList(capacity: capacity) }

    public var current: HistoryEntry<Page>? { list.current }
    /// Back and Forward count from the entry a history load in flight is going to: each quick press moves one
    /// entry further, even while the entry before is still loading.
    public var canGoBack: Bool { historyIndex > 0 }
    public var canGoForward: Bool { historyIndex + 1 < list.entries.count }
    public var isLoading: Bool { pending != nil }

    /// The entry Back and Forward move from: the target of a history load in flight, else the current entry.
    private var historyIndex: Int {
        if case .history(let index)? = pending?.kind { return index }
        return list.currentIndex
    }

    /// Starts a navigation of `kind` to `url`, if `NavigationPolicy` lets the navigation reach it.
    public func navigate(to url: URL, kind: NavigationKind) -> NavigationDecision<Page> {
        let source = NavigationPolicy.source(of: kind, on: current?.url)
        if let refusal = NavigationPolicy.refusal(for: url, source: source) {
            return .refused(refusal)
        }
        return .load(begin(url, kind))
    }

    /// Reload always goes to the network, including for an error page (it retries the failed URL).
    public func reload() -> NavigationDecision<Page> {
        guard let entry = current else { return .none }
        return .load(begin(entry.url, .reload))
    }

    public func goBack() -> NavigationDecision<Page> { go(to: historyIndex - 1) }
    public func goForward() -> NavigationDecision<Page> { go(to: historyIndex + 1) }

    /// Back/Forward shows the cached page without a request; an entry without one is loaded again. Either ends a
    /// load in flight.
    public func go(to index: Int) -> NavigationDecision<Page> {
        guard list.entries.indices.contains(index), index != historyIndex else { return .none }
        pending = nil
        refreshes.personNavigated()
        let entry = list.entries[index]
        if entry.page != nil {
            list.move(to: index)
            return .showCached(entry)
        }
        return .load(begin(entry.url, .history(index: index)))
    }

    /// The page's `<meta http-equiv="refresh">` runs, replacing the current entry, after `requestedDelay` seconds
    /// (what the page asked for); `now` is a monotonic clock in seconds. Ask `refreshes.decide` first.
    public func refresh(to url: URL, requestedDelay: Double, now: Double) -> NavigationDecision<Page> {
        let decision = navigate(to: url, kind: .replace)
        if case .load = decision { refreshes.ran(requestedDelay: requestedDelay, at: now) }
        return decision
    }

    /// Remembers where the reader is on the current page, so Back/Forward can return there.
    public func saveScroll(_ offset: Double) {
        list.update(at: list.currentIndex) { $0.scrollOffset = offset }
    }

    /// Frees the cached page of entries more than `keep` steps from the current one; they load again when visited.
    public func trimCache(keeping keep: Int) {
        for index in list.entries.indices where abs(index - list.currentIndex) > keep {
            list.update(at: index) { $0.page = nil }
        }
    }

    /// The page of `navigation` arrived (or failed, with an error page): it becomes the current entry.
    /// Returns false for a stale navigation, which changes nothing.
    @discardableResult
    public func commit(_ navigation: PendingNavigation, finalURL: URL, title: String?, page: Page,
                       isError: Bool = false) -> Bool {
        guard navigation == pending else { return false }
        pending = nil
        let entry = HistoryEntry(url: finalURL, title: title, page: page, isError: isError)
        switch navigation.kind {
        case .typed, .link, .dropped, .commandLine:
            list.push(entry)
        case .reload, .replace:
            list.replaceCurrent(entry)
        case .history(let index):
            if list.move(to: index) { list.replaceCurrent(entry) } else { list.push(entry) }
        }
        return true
    }

    /// Stop, or a load ending without a page: the entry and page shown before stay.
    public func cancel() { pending = nil }

    /// Whether events for `id` still matter.
    public func isCurrent(_ id: Int) -> Bool { pending?.id == id }

    private func begin(_ url: URL, _ kind: NavigationKind) -> PendingNavigation {
        if kind != .replace { refreshes.personNavigated() }
        let navigation = PendingNavigation(id: nextID, url: url, kind: kind)
        nextID += 1
        pending = navigation
        return navigation
    }
}
