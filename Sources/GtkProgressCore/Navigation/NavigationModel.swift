import FoundationEssentials

/// What the shell has to do after asking the model for a navigation.
package enum NavigationDecision<Page> {
    /// Start loading `navigation` from the network (cancelling anything in flight).
    case load(PendingNavigation)
    /// Show this cached entry at once, with no request (Back/Forward from the page cache).
    case showCached(HistoryEntry<Page>)
    /// The entry shows the document already on screen: only the scroll position changes (a `#fragment` link, or
    /// Back/Forward between places in one page). `entry` is the new current entry.
    case sameDocument(HistoryEntry<Page>, scroll: SameDocumentScroll)
    /// Refused before anything changed; the message is for the status line.
    case refused(String)
    /// Reload of a page that answered a form sent by POST: loading it again sends the form again, so the reader
    /// is asked first (`reload(resendingForm: true)` sends it).
    case confirmResend(HistoryEntry<Page>)
    /// Nothing to do (Back at the first entry, Reload with no page).
    case none
}

/// Why a navigation was not started, in words for the status line.
package struct NavigationRefusal: Error, Equatable {
    package let message: String
    package init(_ message: String) { self.message = message }
}

/// Where a same-document navigation scrolls to.
package enum SameDocumentScroll: Equatable, Sendable {
    /// The place the fragment names; an empty fragment or `top` with no such place is the top of the page
    /// (WHATWG HTML, "scroll to the fragment").
    case fragment(String)
    /// Where the reader was when they left this entry (Back/Forward).
    case offset(Double)
}

/// The navigation model: the back/forward list, the navigation in flight, and the history rules of the UIWebView analysis (docs/sources.md).
/// Pure Swift: the window reflects it and the loader serves it.
package final class NavigationModel<Page> {
    package private(set) var list: BackForwardList<Page>
    package private(set) var pending: PendingNavigation? {
        didSet { if pending?.id != firstPartCommitted { firstPartCommitted = nil } }
    }
    /// The navigation in flight whose first part is already the current entry (`commitFirstPart`).
    private var firstPartCommitted: Int?
    /// `<meta http-equiv="refresh">` navigations since the person last navigated, and how soon the next may run.
    package var refreshes = AutomaticRefreshes()
    private var nextID = 1
    private var nextDocumentID = 1

    package init(capacity: Int = 50) { list = BackForwardList(capacity: capacity) }

    package var current: HistoryEntry<Page>? { list.current }
    /// Back and Forward count from the entry a history load in flight is going to: each quick press moves one
    /// entry further, even while the entry before is still loading.
    package var canGoBack: Bool { historyIndex > 0 }
    package var canGoForward: Bool { historyIndex + 1 < list.entries.count }
    package var isLoading: Bool { pending != nil }

    /// The entry Back and Forward move from: the target of a history load in flight, else the current entry.
    private var historyIndex: Int {
        if case .history(let index)? = pending?.kind { return index }
        return list.currentIndex
    }

    /// Starts a navigation of `kind` to `url`, if `NavigationPolicy` lets the navigation reach it.
    package func navigate(to url: URL, kind: NavigationKind) -> NavigationDecision<Page> {
        if let decision = navigateWithinDocument(to: url, kind: kind) { return decision }
        let source = NavigationPolicy.source(of: kind, on: current?.url)
        if let refusal = NavigationPolicy.refusal(for: url, source: source) {
            return .refused(refusal)
        }
        return .load(begin(url, kind))
    }

    /// Sends a form of the current page (`FormSubmission`): by GET, a navigation like a link's; by POST, the
    /// same navigation carrying the form's data, which the page it brings remembers (`HistoryEntry.formBody`).
    package func submitForm(_ submission: FormSubmission) -> NavigationDecision<Page> {
        guard let body = submission.body else { return navigate(to: submission.url, kind: .link) }
        let source = NavigationPolicy.source(of: .link, on: current?.url)
        if let refusal = NavigationPolicy.refusal(for: submission.url, source: source) { return .refused(refusal) }
        if submission.url.isFileURL { return .refused(FormRefusal.postToFile.description) }
        var navigation = begin(submission.url, .link)
        navigation.body = body
        pending = navigation
        return .load(navigation)
    }

    /// A link of the current page to open in a new window: the kind that window's navigation carries, so that the
    /// policy applied there is this page's, or the refusal when this page may not open `url` at all (then no
    /// window opens).
    package func linkInNewWindow(_ url: URL) -> Result<NavigationKind, NavigationRefusal> {
        let source = NavigationPolicy.source(of: .link, on: current?.url)
        if let refusal = NavigationPolicy.refusal(for: url, source: source) { return .failure(NavigationRefusal(refusal)) }
        return .success(.openedFrom(source))
    }

    /// Reload always goes to the network, including for an error page (it retries the failed URL). An entry from
    /// a saved session was never checked: it is, as if typed.
    ///
    /// A page that answered a form sent by POST is loaded again only with `resendingForm`: loading it sends the
    /// form again (an order placed twice), so the reader is asked first, as browsers ask.
    package func reload(resendingForm: Bool = false) -> NavigationDecision<Page> {
        guard let entry = current else { return .none }
        if let refusal = NavigationPolicy.refusal(for: entry.url, source: .user) { return .refused(refusal) }
        if let body = entry.formBody {
            guard resendingForm else { return .confirmResend(entry) }
            var navigation = begin(entry.url, .reload)
            navigation.body = body
            pending = navigation
            return .load(navigation)
        }
        return .load(begin(entry.url, .reload))
    }

    package func goBack() -> NavigationDecision<Page> { go(to: historyIndex - 1) }
    package func goForward() -> NavigationDecision<Page> { go(to: historyIndex + 1) }

    /// Back/Forward shows the cached page without a request; an entry without one is loaded again. Either ends a
    /// load in flight.
    package func go(to index: Int) -> NavigationDecision<Page> {
        guard list.entries.indices.contains(index), index != historyIndex else { return .none }
        let entry = list.entries[index]
        if entry.page == nil, let refusal = NavigationPolicy.refusal(for: entry.url, source: .user) {
            return .refused(refusal)
        }
        pending = nil
        refreshes.personNavigated()
        if entry.page != nil {
            let sameDocument = index != list.currentIndex && current?.page != nil
                && current?.documentID == entry.documentID
            list.move(to: index)
            return sameDocument ? .sameDocument(entry, scroll: .offset(entry.scrollOffset)) : .showCached(entry)
        }
        return .load(begin(entry.url, .history(index: index)))
    }

    /// The page's `<meta http-equiv="refresh">` runs, replacing the current entry, after `requestedDelay` seconds
    /// (what the page asked for); `now` is a monotonic clock in seconds. Ask `refreshes.decide` first.
    package func refresh(to url: URL, requestedDelay: Double, now: Double) -> NavigationDecision<Page> {
        let decision = navigate(to: url, kind: .replace)
        if case .load = decision { refreshes.ran(requestedDelay: requestedDelay, at: now) }
        return decision
    }

    /// The current entry's page built again (for another window width): Back and Forward return to this one.
    package func replaceCurrentPage(_ page: Page) {
        list.update(at: list.currentIndex) { $0.page = page }
    }

    /// Remembers where the reader is on the current page, so Back/Forward can return there.
    package func saveScroll(_ offset: Double) {
        list.update(at: list.currentIndex) { $0.scrollOffset = offset }
    }

    /// Frees the cached page of entries more than `keep` steps from the current one; they load again when visited.
    /// The answer to a form sent by POST stays: loading it again would send the form again.
    package func trimCache(keeping keep: Int) {
        for index in list.entries.indices where abs(index - list.currentIndex) > keep
            && list.entries[index].formBody == nil {
            list.update(at: index) { $0.page = nil }
        }
    }

    /// The page of `navigation` arrived (or failed, with an error page): it becomes the current entry.
    /// Returns false for a stale navigation, which changes nothing.
    ///
    /// A redirect that names no fragment keeps the one asked for (WHATWG Fetch, "HTTP-redirect fetch": the
    /// location URL inherits the request's fragment), so the address still shows `#section`. Reload and Back to an
    /// entry without a cached page load the same document again: the entry keeps its place in the page, and
    /// the other entries of that document (its `#fragment` jumps) get the new page too.
    @discardableResult
    package func commit(_ navigation: PendingNavigation, finalURL: URL, title: String?, page: Page,
                       isError: Bool = false) -> Bool {
        guard navigation == pending else { return false }
        let entryExists = firstPartCommitted == navigation.id
        pending = nil
        let url = Self.keepingFragment(of: navigation.url, in: finalURL)
        if entryExists {
            // The entry exists since its first part was shown: it gets the whole page.
            list.update(at: list.currentIndex) { entry in
                entry.url = url
                entry.title = title
                entry.page = page
                entry.isError = isError
            }
            return true
        }
        var entry = HistoryEntry(url: url, title: title, page: page, isError: isError)
        entry.formBody = navigation.body
        switch navigation.kind {
        case .typed, .link, .dropped, .commandLine, .openedFrom:
            entry.documentID = newDocumentID()
            list.push(entry)
        case .replace:
            entry.documentID = newDocumentID()
            list.replaceCurrent(entry)
        case .reload:
            reloaded(&entry, at: list.currentIndex)
        case .history(let index):
            if list.entries.indices.contains(index) {
                list.move(to: index)
                reloaded(&entry, at: index)
            } else {
                entry.documentID = newDocumentID()
                list.push(entry)
            }
        }
        return true
    }

    /// The first part of `navigation`'s page is on screen: from now on it is the current entry (the address, the
    /// title, Reload and Back speak of it), while the rest still arrives. Stop then keeps what arrived, and the
    /// navigation's `commit` completes this entry instead of adding another. Browsers commit a navigation when
    /// its response starts to be shown (WHATWG HTML, "navigate": the document is made active before it has
    /// finished loading). Returns false for a stale navigation, or one already committed this way.
    @discardableResult
    package func commitFirstPart(_ navigation: PendingNavigation, finalURL: URL, title: String?, page: Page) -> Bool {
        guard navigation == pending, firstPartCommitted != navigation.id else { return false }
        commit(navigation, finalURL: finalURL, title: title, page: page)
        pending = navigation
        firstPartCommitted = navigation.id
        return true
    }

    /// What has arrived of a navigation whose first part is already the current entry, shown again (a later
    /// progressive render, or what Stop keeps).
    package func updateFirstPart(_ navigation: PendingNavigation, title: String?, page: Page) {
        guard hasCommittedFirstPart(of: navigation) else { return }
        list.update(at: list.currentIndex) { entry in
            entry.title = title
            entry.page = page
        }
    }

    /// Whether `navigation`, still in flight, already has its entry (`commitFirstPart`).
    package func hasCommittedFirstPart(of navigation: PendingNavigation) -> Bool {
        navigation == pending && firstPartCommitted == navigation.id
    }

    /// Puts a fresh load of the document of the entry at `index` in its place.
    private func reloaded(_ entry: inout HistoryEntry<Page>, at index: Int) {
        guard let old = list.current else {
            entry.documentID = newDocumentID()
            list.push(entry)
            return
        }
        entry.scrollOffset = old.scrollOffset
        guard Self.withoutFragment(entry.url) == Self.withoutFragment(old.url) else {
            entry.documentID = newDocumentID()
            list.replaceCurrent(entry)
            return
        }
        entry.documentID = old.documentID
        list.replaceCurrent(entry)
        for sibling in list.entries.indices where sibling != index && list.entries[sibling].documentID == old.documentID {
            list.update(at: sibling) { $0.page = entry.page; $0.isError = entry.isError }
        }
    }

    /// A link to a place in the page shown, or such an address typed or dropped, moves within the page: a new
    /// entry for the same document, and no request (WHATWG HTML, "navigate to a fragment"). Navigating to the
    /// very address shown replaces the entry instead of adding one, as the standard says. A load in flight is
    /// abandoned. Reload, history and meta refresh always load.
    private func navigateWithinDocument(to url: URL, kind: NavigationKind) -> NavigationDecision<Page>? {
        switch kind {
        case .typed, .link, .dropped, .commandLine, .openedFrom: break
        case .reload, .history, .replace: return nil
        }
        guard let current, current.page != nil, !current.isError, let fragment = url.fragment,
              Self.withoutFragment(url) == Self.withoutFragment(current.url) else { return nil }
        pending = nil
        refreshes.personNavigated()
        var entry = current
        entry.url = url
        entry.scrollOffset = 0
        if url == current.url { list.replaceCurrent(entry) } else { list.push(entry) }
        return .sameDocument(entry, scroll: .fragment(fragment))
    }

    /// Puts back a saved back/forward list. Nothing of it is cached: the current entry is loaded again (a
    /// `.history` navigation, so it lands in its place and keeps its scroll position), the others when visited.
    package func restore(_ entries: [HistoryEntry<Page>], currentIndex: Int) -> NavigationDecision<Page> {
        pending = nil
        list = BackForwardList(capacity: list.capacity, entries: entries.map { entry in
            var entry = entry
            entry.page = nil
            return entry
        }, currentIndex: currentIndex)
        nextDocumentID = (list.entries.map(\.documentID).max() ?? 0) + 1
        guard let current else { return .none }
        return .load(begin(current.url, .history(index: list.currentIndex)))
    }

    /// `url` without its `#fragment`: two addresses that differ only there name the same document.
    package static func withoutFragment(_ url: URL) -> String {
        url.absoluteString.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
    }

    /// `final` with the fragment of `requested` when it has none of its own.
    static func keepingFragment(of requested: URL, in final: URL) -> URL {
        guard final.fragment == nil, let fragment = requested.fragment,
              let url = URL(string: withoutFragment(final) + "#" + fragment) else { return final }
        return url
    }

    private func newDocumentID() -> Int {
        defer { nextDocumentID += 1 }
        return nextDocumentID
    }

    /// Stop, or a load ending without a page: the entry and page shown before stay.
    package func cancel() { pending = nil }

    /// Whether events for `id` still matter.
    package func isCurrent(_ id: Int) -> Bool { pending?.id == id }

    private func begin(_ url: URL, _ kind: NavigationKind) -> PendingNavigation {
        if kind != .replace { refreshes.personNavigated() }
        let navigation = PendingNavigation(id: nextID, url: url, kind: kind)
        nextID += 1
        pending = navigation
        return navigation
    }
}
