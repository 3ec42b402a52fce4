import Foundation

/// Reads the URL out of what was dropped on the window: `text/uri-list`, `text/x-moz-url` (UTF-16, URL then title),
/// `_NETSCAPE_URL` (URL then title) or plain text.
public enum DroppedURL {
    public static func url(target: String, bytes: [UInt8], uris: [String]) -> Result<URL, AddressInput.Failure> {
        if let first = uris.first(where: { !$0.hasPrefix("#") && !$0.isEmpty }) {
            return AddressInput.url(from: first)
        }
        let text: String
        switch target {
        case "text/x-moz-url":
            text = utf16(bytes)
        default:
            text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        let candidate: String
        switch target {
        case "text/uri-list":
            candidate = lines.first { !$0.hasPrefix("#") && !$0.isEmpty } ?? ""
        case "text/x-moz-url", "_NETSCAPE_URL":
            candidate = lines.first ?? ""
        default:
            // Plain text must be one address, not a sentence that happens to contain one.
            candidate = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return AddressInput.url(from: candidate)
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
