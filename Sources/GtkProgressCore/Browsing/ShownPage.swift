import FoundationEssentials

/// A page as the history caches it: the rendered document and what the status line said about it.
package struct ShownPage: Sendable {
    package enum Kind: Equatable, Sendable {
        case page
        /// An error page; Reload (or its "Try again" link) retries the URL.
        case error
        /// Content that is not text; `body` can be saved.
        case binary(mimeType: String)
    }

    package var document: Document
    package var kind: Kind
    /// The status line after the page finished ("404 Not Found", "Not shown: 2.1 MB of image/png").
    package var status: String
    package var body: [UInt8]

    package init(document: Document, kind: Kind, status: String, body: [UInt8] = []) {
        self.document = document; self.kind = kind; self.status = status; self.body = body
    }

    /// The page for what arrived: HTML and text rendered, anything else described with an offer to save it.
    /// Tables are fitted to `layoutWidth` columns.
    /// With `images`, the document has its images in place for the window (`Document.parse`).
    /// `styles`: whether and how the page's author styles apply (`PageStyleOptions`). With `textMarks`, the
    /// marks of plain text (`Document.parse`). With `tabbedTables` (the window), tables for the view to lay out.
    package init(loaded: LoadedPage, layoutWidth: Int = Document.defaultLayoutWidth, images: ImageSelection? = nil,
                 styles: PageStyleOptions = PageStyleOptions(), textMarks: Bool = false, tabbedTables: Bool = false) {
        var statusLine = loaded.status >= 400 ? "HTTP \(loaded.status) \(HTTPStatus.reason(loaded.status))"
            : HTTPStatus.keepsPageShown(loaded.status) ? HTTPStatus.nothingToShow(loaded.status, from: loaded.finalURL)
            : L("Done: %@.", GeneratedPages.formatBytes(loaded.byteCount))
        // A guessed encoding may be wrong; the reader who sees mojibake should know why.
        if loaded.charsetGuessed {
            statusLine += (statusLine.hasSuffix(".") ? " " : ". ") + L("Encoding guessed: %@.", loaded.charset)
        }
        switch loaded.kind {
        case .html:
            self.init(document: Document.parse(html: loaded.text, baseURL: loaded.finalURL, layoutWidth: layoutWidth,
                                                     images: images, styles: styles, textMarks: textMarks,
                                                     tabbedTables: tabbedTables),
                      kind: .page,
                             status: statusLine)
        case .text:
            var document = Document.plainText(loaded.text)
            if document.title == nil { document.title = loaded.finalURL.lastPathComponent }
            self.init(document: document, kind: .page, status: statusLine)
        case .binary(let mimeType):
            let html = GeneratedPages.binaryHTML(url: loaded.finalURL, mimeType: mimeType, byteCount: loaded.byteCount)
            self.init(document: Document.parse(html: html, baseURL: loaded.finalURL), kind: .binary(mimeType: mimeType),
                             status: L("Not shown: %@ of %@. Ctrl+S saves it.", GeneratedPages.formatBytes(loaded.byteCount), mimeType),
                             body: loaded.body)
        }
    }

}
