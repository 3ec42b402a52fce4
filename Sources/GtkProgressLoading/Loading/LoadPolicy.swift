import FoundationEssentials
import GtkProgressCore
import GtkProgressFiles

/// What the loader can load, checked before any connection: http and https with a host, and `file:` addresses
/// of readable files within the size cap. Whether a navigation *may* reach an address is not decided here but
/// in `NavigationPolicy`; redirects are kept to its `redirectSchemes` by libcurl itself (see `Transfer`).
enum LoadPolicy {
    /// The reason `request` cannot be loaded, or nil if it can.
    static func refusal(of request: LoadRequest, options: LoaderOptions) -> LoadError? {
        let url = request.url
        let length = url.absoluteString.utf8.count
        if length > LoadRequest.longestURL {
            return LoadError(kind: .addressTooLong, url: url,
                             message: L("This address is %@ characters long, more than the %@ browsers accept, so "
                                 + "it was not loaded.", ByteCount.grouped(Int64(length)),
                                        ByteCount.grouped(Int64(LoadRequest.longestURL))))
        }
        let scheme = url.scheme?.lowercased() ?? ""
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else {
                return LoadError(kind: .other, url: url,
                                 message: L("The address %@ has no server name in it.", url.absoluteString))
            }
            return nil
        case "file":
            return fileRefusal(url, options: options)
        case "":
            return LoadError(kind: .unsupportedScheme, url: url,
                             message: L("%@ is not a complete address: it does not say whether it "
                                 + "is a web address (http:, https:) or a file (file:).", url.absoluteString))
        default:
            return LoadError(kind: .unsupportedScheme, url: url,
                             message: L("%@: addresses cannot be opened here; only http, https and file "
                                 + "addresses can.", scheme))
        }
    }

    private static func fileRefusal(_ url: URL, options: LoaderOptions) -> LoadError? {
        LocalFile.refusal(url, maxBytes: options.maxDocumentBytes)
    }

    /// How messages name a server: its host name, or "this computer" for files.
    static func hostDescription(_ url: URL) -> String {
        if url.isFileURL { return "this computer" }
        return url.host ?? url.absoluteString
    }
}
