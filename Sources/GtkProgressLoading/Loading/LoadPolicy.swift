import FoundationEssentials
import GtkProgressCore
import GtkProgressFiles

/// What the loader can load, checked before any connection: http and https with a host, and `file:` addresses
/// of readable files within the size cap. Whether a navigation *may* reach an address is not decided here but
/// in `NavigationPolicy`; redirects are kept to its `redirectSchemes` by libcurl itself (see `Transfer`).
enum LoadPolicy {
    /// The reason `request` cannot be loaded, or nil if it can. What an address may look like is
    /// `AddressShape`'s to say; a file must also be there, readable and within the size cap.
    static func refusal(of request: LoadRequest, options: LoaderOptions) -> LoadError? {
        let url = request.url
        switch AddressShape.of(url) {
        case .success(.web): return nil
        case .success(.file): return fileRefusal(url, options: options)
        case .failure(let problem):
            let kind: LoadError.Kind
            switch problem {
            case .tooLong: kind = .addressTooLong
            case .noHost: kind = .other
            case .noScheme, .script, .unsupportedScheme: kind = .unsupportedScheme
            }
            return LoadError(kind: kind, url: url, message: problem.description)
        }
    }

    private static func fileRefusal(_ url: URL, options: LoaderOptions) -> LoadError? {
        LocalFile.refusal(url, maxBytes: options.maxDocumentBytes)
    }

    /// How messages name a server: its host name, or "this computer" for files.
    static func hostDescription(_ url: URL) -> String {
        if url.isFileURL { return L("this computer") }
        return url.host ?? url.absoluteString
    }
}
