import FoundationEssentials

/// Reads the URLs out of what was dropped on the window: `text/uri-list`, `text/x-moz-url` (UTF-16, URL and title
/// lines in turn), `_NETSCAPE_URL` (URL then title) or plain text with one address on each line. Every address
/// comes back, in order: two addresses dropped together are two URLs, never one with a line break in it.
package enum DroppedURL {
    package static func urls(target: String, bytes: [UInt8], uris: [String]) -> Result<[URL], AddressInput.Failure> {
        let listed = uris.filter { !$0.hasPrefix("#") && !$0.isEmpty }
        if !listed.isEmpty { return addresses(listed, strict: false) }
        let text: String
        switch target {
        case "text/x-moz-url":
            text = utf16(bytes)
        default:
            text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmed() }
        switch target {
        case "text/uri-list":
            // RFC 2483: one URI a line, lines starting with # are comments.
            return addresses(lines.filter { !$0.hasPrefix("#") && !$0.isEmpty }, strict: false)
        case "text/x-moz-url":
            return addresses(lines.enumerated().filter { $0.offset % 2 == 0 }.map(\.element), strict: false)
        case "_NETSCAPE_URL":
            return addresses(Array(lines.prefix(1)), strict: false)
        default:
            // Plain text must be addresses, one a line, not a sentence that happens to contain one.
            return addresses(lines.filter { !$0.isEmpty }, strict: true)
        }
    }

    /// The URLs of `candidates`. A list that names its entries as URIs keeps those that are addresses; plain text
    /// (`strict`) is refused as a whole when any line is not an address.
    private static func addresses(_ candidates: [String], strict: Bool) -> Result<[URL], AddressInput.Failure> {
        var urls: [URL] = []
        var firstFailure: AddressInput.Failure?
        for candidate in candidates {
            switch AddressInput.url(from: candidate) {
            case .success(let url): urls.append(url)
            case .failure(let failure):
                if strict { return .failure(failure) }
                firstFailure = firstFailure ?? failure
            }
        }
        if urls.isEmpty { return .failure(firstFailure ?? .empty) }
        return .success(urls)
    }

    private static func utf16(_ bytes: [UInt8]) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = 0
        var littleEndian = true
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { littleEndian = false; i = 2 }
        else if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { i = 2 }
        while i + 1 < bytes.count {
            let unit = littleEndian ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
                                    : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])
            if unit == 0 { break }
            units.append(unit)
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}
