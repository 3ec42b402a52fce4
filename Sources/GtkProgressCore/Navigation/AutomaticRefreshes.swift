import FoundationEssentials

/// The rule for `<meta http-equiv="refresh">`, the one navigation a page starts without the person doing
/// anything. A page that refreshes itself at once (`content="0"`, or `0;url=` naming itself) would otherwise ask
/// for itself hundreds of times a second for as long as it is open. So automatic refreshes come at most once per
/// `minimumInterval`, and a chain of quick ones stops after `limit`, as a redirect loop does
/// (`LoaderOptions.maxRedirects`); the page shown stays. A page that refreshes itself on a slower timer (a status
/// board every 30 seconds) is what refresh is for, and never stops.
///
/// The HTML standard leaves the timing to the browser: a refresh comes due once its time has elapsed "adjusted to
/// take into account user or user agent preferences"
/// (<https://html.spec.whatwg.org/multipage/document-lifecycle.html#shared-declarative-refresh-steps>).
package struct AutomaticRefreshes: Sendable, Equatable {
    /// Quick refreshes in a row before they stop.
    package var limit = 20
    /// Seconds at least between two automatic refreshes.
    package var minimumInterval = 1.0
    /// A refresh the page asks for sooner than this (seconds) is a quick one, and counts toward `limit`.
    package var quickDelay = 5.0

    /// Quick refreshes since the person last navigated (or the page last refreshed slowly).
    package private(set) var chain = 0
    /// When the last automatic refresh ran (monotonic seconds).
    private var lastRun: Double?

    package init() {}

    /// What happens to the refresh a page asks for after `requested` seconds, at `now` (monotonic seconds).
    package enum Decision: Equatable, Sendable {
        /// Refresh after this many seconds.
        case after(Double)
        /// The chain stopped; the message is for the status line.
        case stopped(String)
    }

    package func decide(requested: Double, now: Double) -> Decision {
        if requested < quickDelay && chain >= limit {
            return .stopped(LN("Stopped this page from refreshing itself: it did so %ld time in a row without you "
                + "doing anything. Press F5 to load it again.", "Stopped this page from refreshing itself: it did so "
                + "%ld times in a row without you doing anything. Press F5 to load it again.", limit, limit))
        }
        let wait = lastRun.map { minimumInterval - (now - $0) } ?? 0
        return .after(max(requested, wait, 0))
    }

    /// An automatic refresh asked for after `requestedDelay` seconds ran at `now`.
    mutating func ran(requestedDelay: Double, at now: Double) {
        chain = requestedDelay < quickDelay ? chain + 1 : 0
        lastRun = now
    }

    /// The person navigated (typed, clicked, dropped, reloaded, went back or forward): a new chain starts.
    mutating func personNavigated() {
        chain = 0
        lastRun = nil
    }
}
