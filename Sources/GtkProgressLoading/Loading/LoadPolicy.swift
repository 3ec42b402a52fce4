import Foundation
import GtkProgressCore

/// What the loader can load, checked before any connection: http and https with a host, and `file:` addresses
/// of readable files within the size cap. Whether a navigation *may* reach an address is not decided here but
/// in `NavigationPolicy`; redirects are kept to its `redirectSchemes` by libcurl itself (see `Transfer`).
enum LoadPolicy {
    /// The reason `request` cannot be loaded, or nil if it can.
    static func refusal(of request: LoadRequest, options: LoaderOptions) -> LoadError? {
        let url = request.url
        let scheme = url.scheme?.lowercased() ?? ""
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else {
                return LoadError(kind: .other, url: url,
                                 message: "The address \(url.absoluteString) has no server name in it.")
            }
            return nil
        case "file":
            return fileRefusal(url, options: options)
        case "":
            return LoadError(kind: .unsupportedScheme, url: url,
                             message: "\(url.absoluteString) is not a complete address: it does not say whether it "
                                 + "is a web address (http:, https:) or a file (file:).")
        default:
            return LoadError(kind: .unsupportedScheme, url: url,
                             message: "\(scheme): addresses cannot be opened here; only http, https and file "
                                 + "addresses can.")
        }
    }

    private static func fileRefusal(_ url: URL, options: LoaderOptions) -> LoadError? {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return LoadError(kind: .fileNotFound, url: url, message: "There is no file at \(path).")
        }
        if isDirectory.boolValue {
            return LoadError(kind: .fileNotFound, url: url, message: "\(path) is a folder, not a file.")
        }
        // Opening a FIFO waits for a writer, and a device or socket is no document: only regular files are read.
        let type = (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) ?? .typeRegular
        if type != .typeRegular {
            let what: String
            switch type {
            case .typeCharacterSpecial, .typeBlockSpecial: what = "a device"
            case .typeSocket: what = "a socket"
            default: what = "a named pipe (FIFO)"
            }
            return LoadError(kind: .fileNotFound, url: url,
                             message: "\(path) is \(what), not a regular file, so it was not opened.")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            return LoadError(kind: .fileNotFound, url: url,
                             message: "The file \(path) cannot be read: you do not have permission to read it.")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        if size > Int64(options.maxDocumentBytes) {
            return LoadError(kind: .tooLarge, url: url,
                             message: "The file \(path) is larger than "
                                 + "\(ByteCount.size(Int64(options.maxDocumentBytes))), the most this viewer loads, "
                                 + "so it was not loaded.")
        }
        return nil
    }

    /// How messages name a server: its host name, or "this computer" for files.
    static func hostDescription(_ url: URL) -> String {
        if url.isFileURL { return "this computer" }
        return url.host ?? url.absoluteString
    }
}
