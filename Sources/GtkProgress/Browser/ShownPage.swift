import Foundation

/// A page as the history caches it: the rendered document and what the status line said about it.
public struct ShownPage {
    public enum Kind: Equatable {
        case page
        /// An error page; Reload (or its "Try again" link) retries the URL.
        case error
        /// Content that is not text; `body` can be saved.
        case binary(mimeType: String)
    }

    public var document: Document
    public var kind: Kind
    /// The status line after the page finished ("404 Not Found", "Not shown: 2.1 MB of image/png").
    public var status: String
    public var body: [UInt8]

    public init(document: Document, kind: Kind, status: String, body: [UInt8] = []) {
        self.document = document; self.kind = kind; self.status = status; self.body = body
    }
}
