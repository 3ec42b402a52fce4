import FoundationEssentials
import Glibc
import GtkProgressCore

/// The checks a local file passes before it is opened, and the whole-file read of the command line. Shared by the
/// loader (which then reads files on a worker thread) and `gtkprogress --dump FILE` (which needs no loader).
package enum LocalFile {
    /// Why `url` cannot be loaded, or nil: it must exist, be a regular readable file, and be at most `maxBytes`.
    package static func refusal(_ url: URL, maxBytes: Int) -> LoadError? {
        let path = url.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = errno
            if reason == ENOENT || reason == ENOTDIR {
                return LoadError(kind: .fileNotFound, url: url, message: L("There is no file at %@.", path))
            }
            return LoadError(kind: .fileNotFound, url: url,
                             message: L("The file %@ cannot be read: %@.", path, Self.describe(reason)))
        }
        // Opening a FIFO waits for a writer, and a device or socket is no document: only regular files are read.
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR:
            return LoadError(kind: .fileNotFound, url: url, message: L("%@ is a folder, not a file.", path))
        default:
            let what: String
            switch info.st_mode & S_IFMT {
            case S_IFCHR, S_IFBLK: what = L("%@ is a device, not a regular file, so it was not opened.", path)
            case S_IFSOCK: what = L("%@ is a socket, not a regular file, so it was not opened.", path)
            default: what = L("%@ is a named pipe (FIFO), not a regular file, so it was not opened.", path)
            }
            return LoadError(kind: .fileNotFound, url: url, message: what)
        }
        guard access(path, R_OK) == 0 else {
            return LoadError(kind: .fileNotFound, url: url,
                             message: L("The file %@ cannot be read: you do not have permission to read it.", path))
        }
        let size = Int64(info.st_size)
        if size > Int64(maxBytes) {
            return LoadError(kind: .tooLarge, url: url,
                             message: L("The file %@ is larger than %@, the most this viewer loads, so it was not loaded.",
                                            path, ByteCount.size(Int64(maxBytes))))
        }
        return nil
    }


    /// Reads a file that passed `refusal` in one go: for the command line, where nothing else waits.
    public static func read(_ url: URL) -> Result<[UInt8], LoadError> {
        readBytes(url.path).mapError { unreadable(url, $0) }
    }

    /// The whole file, or the `errno` that stopped reading it.
    package static func readBytes(_ path: String) -> Result<[UInt8], Errno> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Errno(code: errno)) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size > 0 { bytes.reserveCapacity(Int(info.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return .success(bytes) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Errno(code: errno))
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Writes `bytes` to `path` whole (created or replaced), or says which `errno` stopped it.
    package static func write(_ bytes: [UInt8], to path: String) -> Result<Void, Errno> {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return .failure(Errno(code: errno)) }
        if let code = bytes.withUnsafeBytes({ writeAll($0, to: fd) }) {
            close(fd)
            return .failure(Errno(code: code))
        }
        guard close(fd) == 0 else { return .failure(Errno(code: errno)) }
        return .success(())
    }

    /// write(2) until every byte is taken (a pipe or a full disk may take them in pieces); the `errno` that
    /// stopped it, or nil.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    package struct Errno: Error {
        package var code: Int32
    }

    private static func unreadable(_ url: URL, _ error: Errno) -> LoadError {
        LoadError(kind: .other, url: url,
                  message: L("The file %@ could not be read: %@.", url.path, describe(error.code)))
    }

    /// The C library's sentence for an `errno` value, lower-cased to sit inside a message.
    package static func describe(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
