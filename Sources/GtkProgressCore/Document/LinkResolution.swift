import FoundationEssentials

/// Turning `href` and `<meta http-equiv="refresh">` values into URLs, the way browsers read them.
enum LinkResolution {
    /// Longer link targets are dropped: parsing them costs time and `NavigationPolicy` would refuse them.
    static let longestHref = AddressShape.longestAddress

    /// Strips the leading and trailing whitespace and the tabs and line breaks inside, as the URL parser does.
    static func trim(_ href: String) -> String {
        // Read in place: the same steps over the `UTF8View`'s indices cost several hundred instructions a link.
        var href = href
        let trimmed = href.withUTF8 { bytes -> String? in
            var start = 0, end = bytes.count
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            let inner = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if !inner.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                return start == 0 && end == bytes.count ? nil : String(decoding: inner, as: UTF8.self)
            }
            return String(decoding: inner.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
        }
        return trimmed ?? href
    }

    /// `href` resolved against `base`; an empty `href` is the base itself.
    static func resolve(_ href: String, against base: URL?) -> URL? {
        guard href.utf8.count <= longestHref else { return nil }
        if href.isEmpty { return base }
        return URL(string: href, relativeTo: base)?.absoluteURL
    }

    /// Same-document references (`#name`) resolved against one base without a URL parse each. RFC 3986 §5.2.2
    /// gives such a reference the base's scheme, authority, path and query with the reference's fragment, so the
    /// base is resolved once (with the empty fragment `#`) and each reference's fragment is appended to that text.
    /// Only fragments of RFC 3986 §3.5 characters other than `%` take this way: the parser would percent-encode
    /// anything else, and such a reference is resolved as any other link.
    struct SameDocument {
        /// The base resolved with an empty fragment, ending in `#`; nil when there is no base.
        private let prefix: [UInt8]?
        /// Whether links to the base are followable (`isFollowable`).
        let isFollowable: Bool

        init(base: URL?) {
            if let base, let resolved = resolve("#", against: base), resolved.absoluteString.utf8.last == UInt8(ascii: "#") {
                prefix = Array(resolved.absoluteString.utf8)
                isFollowable = LinkResolution.isFollowable(resolved)
            } else {
                prefix = nil
                isFollowable = false
            }
        }

        /// `href`'s absolute text given to `body`, when `href` is `#` and fragment characters; nil otherwise.
        func withResolved<R>(_ href: UnsafeBufferPointer<UInt8>, buffer: inout [UInt8],
                             _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
            guard let prefix, href.count <= longestHref, href.first == UInt8(ascii: "#"),
                  href.dropFirst().allSatisfy(Self.isFragmentByte) else { return nil }
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: prefix)
            buffer.append(contentsOf: href.dropFirst())
            return buffer.withUnsafeBufferPointer(body)
        }

        /// RFC 3986 §3.5: fragment = *( pchar / "/" / "?" ), pchar = unreserved / sub-delims / ":" / "@" (and
        /// pct-encoded, left out here).
        private static func isFragmentByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
                 UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
                 UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
                return true
            default:
                return false
            }
        }
    }

    /// `javascript:` links run code the viewer never runs; showing them as links would promise a click that does
    /// nothing.
    static func isFollowable(_ url: URL) -> Bool {
        url.scheme?.lowercased() != "javascript"
    }

    /// A short name for a link that has no text: the last path component, or the host.
    static func label(for href: String) -> String {
        let withoutQuery = href.prefix { $0 != "?" && $0 != "#" }
        let components = withoutQuery.split(separator: "/")
        let name = components.last.map(String.init) ?? ""
        let label = name.isEmpty ? (href.isEmpty ? "link" : href) : name
        return label.count > 60 ? String(label.prefix(60)) + "…" : label
    }

    /// Reads `content="5; url=next.html"`: the delay in seconds and the target, nil when the page refreshes
    /// itself. Follows the spec's lenient parsing: `,` for `;`, optional `url=`, optional quotes.
    /// <https://html.spec.whatwg.org/multipage/semantics.html#attr-meta-http-equiv-refresh>
    static func parseRefresh(_ content: String) -> (delay: Double, target: String?)? {
        var rest = Substring(content).drop { $0.isWhitespace }
        let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard !number.isEmpty, let delay = Double(number.hasPrefix(".") ? "0" + number : String(number)),
              delay.isFinite else { return nil }
        rest = rest.dropFirst(number.count).drop { $0.isWhitespace }
        guard rest.isEmpty || rest.first == ";" || rest.first == "," else { return nil }
        rest = rest.dropFirst().drop { $0.isWhitespace }
        if rest.lowercased().hasPrefix("url") {
            let afterURL = rest.dropFirst(3).drop { $0.isWhitespace }
            if afterURL.first == "=" { rest = afterURL.dropFirst().drop { $0.isWhitespace } }
        }
        if let quote = rest.first, quote == "\"" || quote == "'" {
            rest = rest.dropFirst().prefix { $0 != quote }
        }
        let target = trim(String(rest))
        return (delay, target.isEmpty ? nil : target)
    }
}
