/// A step of a load that shows the server is answering before any byte of the document arrives, read from
/// libcurl's phase times (<https://curl.se/libcurl/c/curl_easy_getinfo.html#TIMES>). GeckoView moves its bar on
/// such milestones rather than on bytes; here a curve may say how far each one lifts the bar
/// (``ProgressCurve/milestones``).
///
/// They come in this order; `secured` only for `https`. A redirect's new connection reports nothing again.
public enum LoadMilestone: String, Sendable, Equatable, Hashable, CaseIterable, Comparable {
    /// The host name is resolved to an address (`CURLINFO_NAMELOOKUP_TIME_T`).
    case nameResolved
    /// The TCP connection is up (`CURLINFO_CONNECT_TIME_T`).
    case connected
    /// The TLS handshake is done (`CURLINFO_APPCONNECT_TIME_T`).
    case secured
    /// The first byte of the response has arrived (`CURLINFO_STARTTRANSFER_TIME_T`).
    case firstByte

    /// Milestones order as a load meets them: `nameResolved` first, `firstByte` last.
    public static func < (lhs: LoadMilestone, rhs: LoadMilestone) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
