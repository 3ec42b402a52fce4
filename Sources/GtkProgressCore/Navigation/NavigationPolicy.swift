import FoundationEssentials

/// What a navigation may reach: the one place this is decided. The loader is told the decision (it loads what it
/// is given) and enforces only what must happen inside libcurl: the schemes a redirect may follow.
///
/// | navigation                                   | http, https | file | anything else |
/// |----------------------------------------------|-------------|------|---------------|
/// | typed, dropped, command line, reload, history | yes         | yes  | no            |
/// | link or meta refresh on a local (file:) page | yes         | yes  | no            |
/// | link or meta refresh on a web page           | yes         | no   | no            |
/// | redirect (decided inside libcurl)            | yes         | no   | no            |
/// | a link opened in a new window                | as the page that opened it               |
///
/// What a page may fetch for itself (its images), decided here too (`subresourceRefusal`):
///
/// | page that asks          | http, https | data | file | anything else |
/// |-------------------------|-------------|------|------|---------------|
/// | a web page (or error)   | yes         | yes  | no   | no            |
/// | a local (file:) page    | yes         | yes  | yes  | no            |
///
/// `data:` is never navigated to, but an image in a `data:` URL is the page's own bytes, decoded in place.
///
/// Whatever the source, an address longer than `AddressShape.longestAddress` is refused: no server accepts one,
/// and libcurl refuses a URL over 8,000,000 bytes outright.
///
/// A web page reaching into the file system is the classic hole browsers close (the WHATWG Fetch standard treats
/// `file:` as an opaque, browser-specific scheme); local pages linking to each other is what makes a folder of
/// HTML files, such as the viewer's own bundled pages, usable.
package enum NavigationPolicy {
    /// Who is asking, as far as the table above is concerned.
    package enum Source: Sendable, Equatable {
        /// The person at the screen: the address entry, a drop, the command line, Reload, Back and Forward.
        case user
        /// A link or `<meta http-equiv="refresh">` on a page loaded from `file:`.
        case localPage
        /// A link or `<meta http-equiv="refresh">` on a page loaded from the web (or an error page).
        case webPage
    }

    /// The schemes a redirect may lead to; the loader hands them to libcurl (`CURLOPT_REDIR_PROTOCOLS_STR`,
    /// <https://curl.se/libcurl/c/CURLOPT_REDIR_PROTOCOLS_STR.html>), which checks every hop.
    package static let redirectSchemes = ["http", "https"]

    /// The source of a navigation of `kind` started while `current` is shown.
    package static func source(of kind: NavigationKind, on current: URL?) -> Source {
        switch kind {
        case .typed, .dropped, .commandLine, .reload, .history: return .user
        case .link, .replace: return current?.isFileURL == true ? .localPage : .webPage
        // The opener is asked, never the new window's own (empty) page: a web page's link to a file stays a
        // web page's link in every window.
        case .openedFrom(let opener): return opener == .user ? .webPage : opener
        }
    }

    /// Nil when the page at `page` may fetch `url` for itself (an image); otherwise why not, for the image's
    /// tooltip and the tests. A web page never reaches into the file system, not even for a picture.
    package static func subresourceRefusal(for url: URL, page: URL) -> String? {
        if url.scheme?.lowercased() == "data" {
            let length = url.absoluteString.utf8.count
            return length > AddressShape.longestAddress ? AddressShape.Problem.tooLong(bytes: length).description : nil
        }
        switch AddressShape.of(url) {
        case .success(.web):
            return nil
        case .success(.file):
            return page.isFileURL ? nil
                : L("Blocked an image from a local file (%@): web pages may only load web addresses.", url.path)
        case .failure(let problem):
            return problem.description
        }
    }

    /// Nil when `url` may be opened by `source`; otherwise a message for the status line. What an address may
    /// look like at all is `AddressShape`'s to say; what each source may reach is this table's.
    package static func refusal(for url: URL, source: Source) -> String? {
        switch AddressShape.of(url) {
        case .success(.web):
            return nil
        case .success(.file):
            return source == .webPage
                ? L("Blocked a link to a local file (%@): web pages may only open web addresses.", url.path) : nil
        case .failure(.unsupportedScheme(let scheme)) where scheme == "data":
            return L("Blocked a data: link: pages may only open web addresses.")
        case .failure(let problem):
            return problem.description
        }
    }
}
