import FoundationEssentials

/// Turns what a person typed, dropped or passed on the command line into a URL.
package enum AddressInput {
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case empty
        case notAnAddress(String)
        case unsupportedScheme(String)
        /// Typed or pasted text that would make the address entry longer than it can hold.
        case tooLong(characters: Int, limit: Int)

        package var description: String {
            switch self {
            case .empty: return L("Type an address, such as example.org.")
            case .notAnAddress(let text): return L("“%@” is not a web address or a file path.", text)
            case .unsupportedScheme(let scheme): return AddressShape.Problem.unsupportedScheme(scheme).description
            case let .tooLong(characters, limit):
                return L("Not pasted: the address would be %@ characters long, and the address entry holds at "
                    + "most %@. No web server accepts an address that long.",
                         ByteCount.grouped(Int64(characters)), ByteCount.grouped(Int64(limit)))
            }
        }
    }

    /// `example.org` → `https://example.org/`; `localhost:8000`, `127.0.0.1`, `[::1]` → `http://…/`; `/tmp/a.html`
    /// and `~/a.html` → `file:`; `http(s)://` and `file://` as given. `relativeTo` resolves a relative file path (command line).
    package static func url(from input: String, workingDirectory: String? = nil) -> Result<URL, Failure> {
        let text = input.trimmed()
        guard !text.isEmpty else { return .failure(.empty) }
        if text.hasPrefix("/") { return .success(URL(fileURLWithPath: text)) }
        if text == "~" || text.hasPrefix("~/") {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
            return .success(URL(fileURLWithPath: home + text.dropFirst()))
        }
        if let schemeEnd = text.firstRange(of: "://") ?? text.firstRange(of: ":"), text[..<schemeEnd.lowerBound].allSatisfy({
            $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "."
        }), text[..<schemeEnd.lowerBound].first?.isLetter == true {
            let scheme = text[..<schemeEnd.lowerBound].lowercased()
            switch scheme {
            case _ where AddressShape.schemes.contains(scheme):
                guard let url = URL(string: text) ?? URL(string: percentEscaped(text)),
                      scheme == "file" || url.host?.isEmpty == false else { return .failure(.notAnAddress(text)) }
                return .success(url)
            default:
                // `localhost:8080/x` and `example.org:443` look like a scheme but are a host and port.
                if schemeEnd.upperBound < text.endIndex, text[schemeEnd.upperBound...].first?.isNumber == true,
                   let url = hostURL(text) { return .success(url) }
                return .failure(.unsupportedScheme(scheme))
            }
        }
        if let workingDirectory, looksLikeFile(text) {
            return .success(URL(fileURLWithPath: text, relativeTo: URL(fileURLWithPath: workingDirectory,
                                                                         isDirectory: true)).standardizedFileURL)
        }
        if let url = hostURL(text) { return .success(url) }
        return .failure(.notAnAddress(text))
    }

    /// A bare host name with an optional port and path becomes https, except `localhost`, `*.localhost` (RFC 6761
    /// §6.3 reserves them for loopback) and IP literals, where development servers listen without TLS. Firefox and Chromium type those as http too.
    private static func hostURL(_ text: String) -> URL? {
        guard !text.contains(" "), !text.contains("\t") else { return nil }
        let hostPart = text.split(separator: "/", maxSplits: 1).first.map(String.init) ?? text
        let host: String
        if hostPart.hasPrefix("[") {
            // An IPv6 literal in brackets, as in URLs (RFC 3986 §3.2.2): `[::1]:8000`.
            guard let close = hostPart.firstIndex(of: "]") else { return nil }
            host = String(hostPart[...close])
        } else {
            host = hostPart.split(separator: ":", maxSplits: 1).first.map(String.init) ?? hostPart
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let isHost = host.lowercased() == "localhost" || isIPv6Literal(host)
            || (labels.count >= 2 && labels.allSatisfy { label in
                !label.isEmpty && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
            })
        let scheme = isLocal(host) ? "http://" : "https://"
        guard isHost, let url = URL(string: scheme + text) ?? URL(string: scheme + percentEscaped(text)),
              url.host != nil else { return nil }
        return url.path.isEmpty ? URL(string: url.absoluteString + "/") : url
    }

    /// `localhost`, a name under `.localhost`, or an IP address literal (IPv4 dotted quad, IPv6 in brackets).
    static func isLocal(_ host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if isIPv6Literal(name) { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                && Int(part).map { $0 <= 255 } == true
        }
    }

    private static func isIPv6Literal(_ host: String) -> Bool {
        guard host.hasPrefix("["), host.hasSuffix("]"), host.count > 2 else { return false }
        return host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }

    private static func looksLikeFile(_ text: String) -> Bool {
        FileManager.default.fileExists(atPath: text) || text.hasPrefix("./") || text.hasPrefix("../")
    }

    private static func percentEscaped(_ text: String) -> String {
        text.escapingForURLFragment
    }

    /// An address as the entry and messages show it (`HostDisplay`): no password, hosts that could pass for
    /// another as punycode, percent-escapes decoded for the web, file URLs as they are.
    package static func displayString(_ url: URL) -> String { HostDisplay.string(url) }

    /// The same, cut at `limit` characters with "…" (the status line, a screen reader's description).
    package static func displayString(_ url: URL, limit: Int) -> String { HostDisplay.string(url, limit: limit) }
}
