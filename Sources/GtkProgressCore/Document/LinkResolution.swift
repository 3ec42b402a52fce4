import FoundationEssentials

/// Turning `href` and `<meta http-equiv="refresh">` values into URLs, the way browsers read them.
enum LinkResolution {
    /// Longer link targets are dropped: parsing them costs time and `NavigationPolicy` would refuse them.
    static let longestHref = AddressShape.longestAddress

    /// Strips the leading and trailing whitespace and the tabs and line breaks inside, as the URL parser does.
    static func trim(_ href: String) -> String {
        let bytes = href.utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
              let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        let inner = bytes[first...last]
        if !inner.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return first == bytes.startIndex && last == bytes.index(before: bytes.endIndex)
                ? href : String(decoding: inner, as: UTF8.self)
        }
        return String(decoding: inner.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
    }

    /// `href` resolved against `base`; an empty `href` is the base itself.
    static func resolve(_ href: String, against base: URL?) -> URL? {
        guard href.utf8.count <= longestHref else { return nil }
        if href.isEmpty { return base }
        return URL(string: href, relativeTo: base)?.absoluteURL
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
