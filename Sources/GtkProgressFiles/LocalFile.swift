import Foundation
import GtkProgressCore

/// The checks a local file passes before it is opened, and the whole-file read of the command line. Shared by the
/// loader (which then reads files on a worker thread) and `gtkprogress --dump FILE` (which needs no loader).
public enum LocalFile {
    /// Why `url` cannot be loaded, or nil: it must exist, be a regular readable file, and be at most `maxBytes`.
    public static func refusal(_ url: URL, maxBytes: Int) -> LoadError? {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return LoadError(kind: .fileNotFound, url: url, message: "There is no file at \(path).")
        }
        if isDirectory.boolValue {
            return LoadError(kind: .fileNotFound, url: url, message: "\(path) is a folder, not a file.")
        }
        // Opening a FIFO waits for a writer, and a device or socket is no document: only regular files are read.
        // The attributes are those of the file a symbolic link leads to (`attributesOfItem` does not follow it).
        let target = url.resolvingSymlinksInPath().path
        let type = (try? FileManager.default.attributesOfItem(atPath: target)[.type] as? FileAttributeType) ?? .typeRegular
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
        let size = (try? FileManager.default.attributesOfItem(atPath: target)[.size] as? NSNumber)?.int64Value ?? 0
        if size > Int64(maxBytes) {
            return LoadError(kind: .tooLarge, url: url,
                             message: "The file \(path) is larger than "
                                 + "\(ByteCount.size(Int64(maxBytes))), the most this viewer loads, "
                                 + "so it was not loaded.")
        }
        return nil
    }


    /// Reads a file that passed `refusal` in one go: for the command line, where nothing else waits.
    public static func read(_ url: URL) -> Result<[UInt8], LoadError> {
        do {
            return .success([UInt8](try Data(contentsOf: url)))
        } catch {
            return .failure(LoadError(kind: .other, url: url,
                                      message: "The file \(url.path) could not be read: \(error.localizedDescription)"))
        }
    }
}
