import FoundationEssentials

/// Decides whether a document is HTML, text, or something to save rather than show: by `Content-Type` first,
/// then, when the type says nothing useful, by its first bytes
/// (<https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type>, simplified).
package enum ContentSniffer {
    /// How many leading bytes the byte rules look at.
    package static let sniffLength = 512

    package static func kind(contentType: String?, url: URL?, bytes: ArraySlice<UInt8>) -> ContentKind {
        let head = bytes.prefix(sniffLength)
        if let type = contentType.flatMap(MediaType.init), !type.isUninformative {
            if type.isHTML { return .html }
            // text/plain is what misconfigured servers send for everything, so binary bytes still win.
            if type.essence == "text/plain" {
                return hasBinaryBytes(head) ? .binary(mimeType: magicType(head) ?? "application/octet-stream") : .text
            }
            if type.isText { return .text }
            return .binary(mimeType: type.essence)
        }
        if let url, url.isFileURL, let type = typeByExtension[url.pathExtension.lowercased()] {
            return type
        }
        if let magic = magicType(head) { return .binary(mimeType: magic) }
        if hasBinaryBytes(head) { return .binary(mimeType: "application/octet-stream") }
        return looksLikeHTML(head) ? .html : .text
    }

    /// The MIME type to describe a document as, for the kinds that have none of their own.
    package static func mimeType(of kind: ContentKind) -> String {
        switch kind {
        case .html: return "text/html"
        case .text: return "text/plain"
        case .binary(let type): return type
        }
    }

    /// Control bytes no text file contains (NUL among them). Text in UTF-16 with a byte order mark is text.
    static func hasBinaryBytes(_ head: ArraySlice<UInt8>) -> Bool {
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) { return false }
        return head.contains { byte in
            byte <= 0x08 || byte == 0x0B || (0x0E...0x1A).contains(byte) || (0x1C...0x1F).contains(byte)
        }
    }

    /// Types recognised by their signature.
    static func magicType(_ head: ArraySlice<UInt8>) -> String? {
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image/png"),
            ([0xFF, 0xD8, 0xFF], "image/jpeg"),
            (Array("GIF87a".utf8), "image/gif"),
            (Array("GIF89a".utf8), "image/gif"),
            (Array("%PDF-".utf8), "application/pdf"),
            ([0x50, 0x4B, 0x03, 0x04], "application/zip"),
            ([0x1F, 0x8B, 0x08], "application/gzip"),
            (Array("BM".utf8), "image/bmp"),
            ([0x00, 0x00, 0x01, 0x00], "image/x-icon"),
            (Array("OggS".utf8) + [0x00], "application/ogg"),
            (Array("ID3".utf8), "audio/mpeg"),
            ([0x7F, 0x45, 0x4C, 0x46], "application/x-executable"),
        ]
        for (signature, type) in signatures where head.starts(with: signature) {
            // "BM" also starts plain words; only a bitmap has binary bytes after it.
            if type == "image/bmp" && !hasBinaryBytes(head) { continue }
            return type
        }
        if head.starts(with: Array("RIFF".utf8)), head.count >= 12,
           head.dropFirst(8).prefix(4).elementsEqual(Array("WEBP".utf8)) {
            return "image/webp"
        }
        return nil
    }

    /// The WHATWG "identifying an unknown MIME type" HTML signatures, after leading white space.
    static func looksLikeHTML(_ head: ArraySlice<UInt8>) -> Bool {
        var start = head.startIndex
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < head.endIndex && MetaCharsetScanner.isSpace(head[start]) { start += 1 }
        let rest = head[start...]
        let tags = ["<!doctype html", "<html", "<head", "<script", "<iframe", "<h1", "<div", "<font", "<table",
                    "<a", "<style", "<title", "<b", "<body", "<br", "<p", "<!--"]
        for tag in tags {
            let pattern = Array(tag.utf8)
            guard rest.count > pattern.count,
                  rest.prefix(pattern.count).elementsEqual(pattern, by: { MetaCharsetScanner.lowered($0) == $1 })
            else { continue }
            let next = rest[rest.startIndex + pattern.count]
            if next == UInt8(ascii: " ") || next == UInt8(ascii: ">") { return true }
        }
        return false
    }

    private static let typeByExtension: [String: ContentKind] = [
        "html": .html, "htm": .html, "xhtml": .html,
        "txt": .text, "text": .text, "md": .text, "markdown": .text, "csv": .text, "log": .text,
        "json": .text, "xml": .text, "css": .text, "js": .text,
    ]
}
