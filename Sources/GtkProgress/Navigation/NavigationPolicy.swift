import Foundation

/// Which URLs a navigation may reach.
public enum NavigationPolicy {
    /// Nil when allowed; otherwise a message for the status line. A page (link, refresh, redirect) may lead only to
    /// http and https; `javascript:`, `data:`, `file:` and unknown schemes from a page are refused. The user may
    /// also open `file:` URLs.
    public static func refusal(for url: URL, fromUser: Bool) -> String? {
        let scheme = url.scheme?.lowercased() ?? ""
        switch scheme {
        case "http", "https":
            return url.host?.isEmpty == false ? nil : "“\(url.absoluteString)” has no host name."
        case "file" where fromUser:
            return nil
        case "file":
            return "Blocked a link to a local file (\(url.path)): pages may only open web addresses."
        case "javascript":
            return "Blocked a javascript: link: scripts are not run."
        case "data":
            return "Blocked a data: link: pages may only open web addresses."
        case "":
            return "“\(url.absoluteString)” is not a web address."
        default:
            return "Cannot open \(scheme): links; only http and https are supported."
        }
    }
}
