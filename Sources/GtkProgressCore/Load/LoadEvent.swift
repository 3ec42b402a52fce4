import FoundationEssentials

/// The final response's head, after every redirect has been followed.
package struct LoadResponse: Sendable, Equatable {
    /// The HTTP status (200 for a file that could be read).
    package var status: Int
    /// Where the document really came from, after redirects.
    package var finalURL: URL
    /// The `Content-Type` header as sent, if any.
    package var contentType: String?
    /// `Content-Length` in *transfer* bytes (compressed, if the server compressed), or nil when unknown:
    /// chunked, close-delimited, 204 and 304 responses have none (the WKWebView progress article, docs/sources.md).
    package var expectedLength: Int64?

    package init(status: Int, finalURL: URL, contentType: String?, expectedLength: Int64?) {
        self.status = status
        self.finalURL = finalURL
        self.contentType = contentType
        self.expectedLength = expectedLength
    }
}

/// What a document is, judged by its `Content-Type` and then by its first bytes.
package enum ContentKind: Sendable, Equatable {
    case html
    case text
    /// Not shown as text: the viewer says what it is and how large, and offers to save it.
    case binary(mimeType: String)
}

/// A document that arrived in full.
package struct LoadedPage: Sendable, Equatable {
    package var finalURL: URL
    package var status: Int
    package var contentType: String?
    package var kind: ContentKind
    /// The document as text, always valid UTF-8 (undecodable bytes became U+FFFD); empty for binary content.
    package var text: String
    /// The encoding `text` was decoded from, by its WHATWG name ("UTF-8", "windows-1252", "Shift_JIS", …);
    /// empty for binary content.
    package var charset: String
    /// Nothing declared `charset` and the bytes were not UTF-8, so it was guessed (the status line says so).
    package var charsetGuessed: Bool
    /// Size of the decoded (decompressed) document, not the bytes on the wire.
    package var byteCount: Int
    /// `byteCount` as a person reads it: "12 bytes", "1.5 KB", "64 MB".
    package var sizeDescription: String { ByteCount.size(Int64(byteCount)) }
    /// The document's bytes after content decoding, for saving binary content as it was sent; empty for a
    /// document shown as text, which `text` holds (a large page is not kept twice).
    package var body: [UInt8]

    package init(finalURL: URL, status: Int, contentType: String?, kind: ContentKind, text: String, charset: String,
                charsetGuessed: Bool = false, body: [UInt8]) {
        self.finalURL = finalURL
        self.status = status
        self.contentType = contentType
        self.kind = kind
        self.text = text
        self.charset = charset
        self.charsetGuessed = charsetGuessed
        self.byteCount = body.count
        if case .binary = kind { self.body = body } else { self.body = [] }
    }
}

extension LoadedPage {
    /// The document for a complete body: its kind sniffed, its text decoded. Pure work that grows with the
    /// page, so loaders do it off the main loop where they can.
    package init(decoding body: [UInt8], finalURL: URL, status: Int, contentType: String?) {
        let kind = ContentSniffer.kind(contentType: contentType, url: finalURL, bytes: body[...])
        var text = ""
        var charset = ""
        var guessed = false
        if kind == .html || kind == .text {
            let decoded = CharsetDecoder.decode(body, contentType: contentType, isHTML: kind == .html)
            text = decoded.text
            charset = decoded.encoding.name
            guessed = decoded.isGuessed
        }
        self.init(finalURL: finalURL, status: status, contentType: contentType, kind: kind, text: text,
                  charset: charset, charsetGuessed: guessed, body: body)
    }
}

/// What a load reports, in this order: `milestone`s as the connection comes up (each at most once, in
/// `LoadMilestone`'s order, the last of them before `response`), `response` once, `progress` any number of
/// times, then exactly one of `finished` or `failed`. A cancelled load reports nothing more, not even `failed`.
package enum LoadEvent: Sendable, Equatable {
    /// A phase of the connection is done (libcurl's phase times); a local file reports none.
    case milestone(LoadMilestone)
    case response(LoadResponse)
    /// Transfer bytes from libcurl's progress callback: compressed bytes against the compressed Content-Length,
    /// never decoded bytes against it (the WKWebView progress article, docs/sources.md). `expected` is nil while the length is unknown.
    case progress(received: Int64, expected: Int64?)
    case finished(LoadedPage)
    case failed(LoadError)
}

/// The part of a document that has arrived while it loads: a copy of the bytes (copy-on-write, so taking it costs
/// nothing until the transfer appends again) and what is needed to read them. Decoding and parsing it are pure
/// work that may run off the main loop.
package struct ArrivedBody: Sendable {
    package var bytes: [UInt8]
    package var contentType: String?
    package var url: URL

    package init(bytes: [UInt8], contentType: String?, url: URL) {
        self.bytes = bytes
        self.contentType = contentType
        self.url = url
    }

    /// What has arrived as a document, or nil when it is not text.
    /// `styles`: the page's author styles as the window shows them (its linked sheets come only with the final build).
    package func document(images: ImageSelection? = nil, styles: PageStyleOptions = PageStyleOptions()) -> Document? {
        guard !bytes.isEmpty else { return nil }
        let kind = ContentSniffer.kind(contentType: contentType, url: url, bytes: bytes[...])
        if case .binary = kind { return nil }
        let text = CharsetDecoder.decode(bytes, contentType: contentType, isHTML: kind == .html, isComplete: false).text
        return kind == .html ? Document.parse(html: text, baseURL: url, images: images, styles: styles,
                                                   tabbedTables: true)
            : Document.plainText(text)
    }
}
