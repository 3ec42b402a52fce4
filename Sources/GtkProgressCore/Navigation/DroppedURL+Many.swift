import Foundation

extension DroppedURL {
    /// Every address in a drop, in order: a `text/uri-list` of several files or links, or a `text/x-moz-url` of
    /// several URL and title pairs; any other drop gives the one address `url(target:bytes:uris:)` reads. Entries
    /// that are no address are left out; a drop with none at all fails as the first one did.
    public static func urls(target: String, bytes: [UInt8], uris: [String]) -> Result<[URL], AddressInput.Failure> {
        var candidates: [String] = uris.filter { !$0.hasPrefix("#") && !$0.isEmpty }
        if candidates.isEmpty {
            switch target {
            case "text/uri-list":
                // RFC 2483: one URI a line, CRLF-separated, `#` lines are comments.
                candidates = lines(String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self))
                    .filter { !$0.hasPrefix("#") }
            case "text/x-moz-url":
                // Mozilla's drag data: URL, newline, title, repeated.
                let text = String(decoding: utf16Units(bytes), as: UTF16.self)
                candidates = lines(text, keepingEmpty: true).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                    .filter { !$0.isEmpty }
            default:
                break
            }
        }
        guard candidates.count > 1 else { return url(target: target, bytes: bytes, uris: uris).map { [$0] } }
        var found: [URL] = []
        var firstFailure: AddressInput.Failure?
        for candidate in candidates {
            switch AddressInput.url(from: candidate) {
            case .success(let url): found.append(url)
            case .failure(let failure): firstFailure = firstFailure ?? failure
            }
        }
        if found.isEmpty, let firstFailure { return .failure(firstFailure) }
        return .success(found)
    }

    private static func lines(_ text: String, keepingEmpty: Bool = false) -> [String] {
        text.split(omittingEmptySubsequences: !keepingEmpty, whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { keepingEmpty || !$0.isEmpty }
    }

    private static func utf16Units(_ bytes: [UInt8]) -> [UInt16] {
        var units: [UInt16] = []
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
        return units
    }
}
