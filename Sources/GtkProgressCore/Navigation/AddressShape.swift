import FoundationEssentials

/// What an address this viewer opens may look like: the one place that says which schemes exist here, that a web
/// address has a host, and how long an address may be. The address entry, the navigation policy, the loader, the
/// session and the visited links all ask it; whether a given page may *reach* an address is `NavigationPolicy`'s.
package enum AddressShape: Equatable, Sendable {
    /// http or https, with a host.
    case web
    /// `file:`, a path on this computer.
    case file

    /// The schemes an address may have here, as typed (`http`, `https`, `file`).
    package static let schemes = ["http", "https", "file"]

    /// The longest address opened, in bytes: 2 MiB, the bound Chrome puts on URLs
    /// (<https://chromium.googlesource.com/chromium/src/+/main/docs/security/url_display_guidelines/url_display_guidelines.md>,
    /// "URL Length"); libcurl's own limit is 8,000,000 bytes (CURLOPT_URL).
    package static let longestAddress = 2 * 1024 * 1024

    /// Why an address is none this viewer opens.
    package enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case tooLong(bytes: Int)
        case noHost(String)
        case noScheme(String)
        case script
        case unsupportedScheme(String)

        package var description: String {
            switch self {
            case .tooLong(let bytes):
                return L("Not opened: the address is %@ long, and addresses longer than %@ are not opened; no web "
                    + "server accepts one.", ByteCount.size(Int64(bytes)), ByteCount.size(Int64(longestAddress)))
            case .noHost(let address):
                return L("The address %@ has no server name in it.", address)
            case .noScheme(let address):
                return L("%@ is not a complete address: it does not say whether it is a web address (http:, https:) "
                    + "or a file (file:).", address)
            case .script:
                return L("Blocked a javascript: link: scripts are not run.")
            case .unsupportedScheme(let scheme):
                return L("Cannot open %@: addresses; only http, https and local files are supported.", scheme)
            }
        }
    }

    /// The shape of `url`, or why it has none this viewer opens.
    package static func of(_ url: URL) -> Result<AddressShape, Problem> {
        let length = url.absoluteString.utf8.count
        guard length <= longestAddress else { return .failure(.tooLong(bytes: length)) }
        switch url.scheme?.lowercased() ?? "" {
        case "http", "https":
            return url.host?.isEmpty == false ? .success(.web) : .failure(.noHost(url.absoluteString))
        case "file":
            return .success(.file)
        case "":
            return .failure(.noScheme(url.absoluteString))
        case "javascript":
            return .failure(.script)
        case let scheme:
            return .failure(.unsupportedScheme(scheme))
        }
    }

    /// Whether `url` is an address this viewer opens at all.
    package static func isOpenable(_ url: URL) -> Bool {
        if case .success = of(url) { return true }
        return false
    }
}
