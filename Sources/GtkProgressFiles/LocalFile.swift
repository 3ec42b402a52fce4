import FoundationEssentials
import Glibc
import GtkProgressCore

/// The checks a local file passes before it is opened, and the whole-file read of the command line. Shared by the
/// loader (which then reads files on a worker thread) and `gtkprogress --dump FILE` (which needs no loader).
package enum LocalFile {
    /// Why `url` cannot be loaded, or nil: it must exist, be a regular readable file of at most `maxBytes`, or a
    /// folder (listed).
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
        // A folder is shown as its listing (`LocalFolder`).
        if info.st_mode & S_IFMT == S_IFDIR { return nil }
        // Opening a FIFO waits for a writer, and a device or socket is no document: only regular files are read.
        if let message = notRegular(path, mode: info.st_mode) {
            return LoadError(kind: .fileNotFound, url: url, message: message)
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


    /// The sentence for a file that is not a regular one (`mode` from `stat`), or nil for a regular file.
    package static func notRegular(_ path: String, mode: mode_t) -> String? {
        mode & S_IFMT == S_IFREG ? nil : L("%1$@ is %2$@, so it was not opened.", path, kind(mode))
    }

    /// What a file that is not a regular one is, for a sentence: "a device, not a regular file".
    package static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return L("a regular file")
        case S_IFDIR: return L("a folder, not a file")
        case S_IFCHR, S_IFBLK: return L("a device, not a regular file")
        case S_IFSOCK: return L("a socket, not a regular file")
        case S_IFLNK: return L("a symbolic link, not a regular file")
        default: return L("a named pipe (FIFO), not a regular file")
        }
    }

    /// Reads a file that passed `refusal` in one go: for the command line, where nothing else waits. The file is
    /// checked again once open (it may have changed since), and never read past `maxBytes`.
    package static func read(_ url: URL, maxBytes: Int) -> Result<[UInt8], LoadError> {
        readRegular(url.path, maxBytes: maxBytes).mapError { problem in
            switch problem {
            case .failed(let code):
                return LoadError(kind: .other, url: url,
                                 message: L("The file %@ could not be read: %@.", url.path, describe(code)))
            case .notRegular(let mode):
                return LoadError(kind: .fileNotFound, url: url, message: notRegular(url.path, mode: mode) ?? "")
            case .tooLarge:
                return LoadError(kind: .tooLarge, url: url,
                                 message: L("The file %@ is larger than %@, the most this viewer loads, so it was not loaded.",
                                            url.path, ByteCount.size(Int64(maxBytes))))
            }
        }
    }

    /// Why `readRegular` read nothing.
    package enum ReadProblem: Error, Equatable {
        /// `open` or `read` failed with this `errno`.
        case failed(Int32)
        /// Not a regular file (a folder, device, FIFO, socket, or a symbolic link when links are not followed):
        /// its `st_mode`.
        case notRegular(mode_t)
        /// Larger than the limit: `size` is what `fstat` gave, or, for a file that grew while it was read, the
        /// bytes read when reading stopped (one more than the limit; `grew` is then true).
        case tooLarge(size: Int64, grew: Bool)
    }

    /// At most `maxBytes` of a regular file, without waiting and without holding more than `maxBytes + 1` bytes.
    ///
    /// POSIX `open` with `O_NONBLOCK` returns at once for a FIFO with no writer (where a plain open waits for one);
    /// `fstat` on the open descriptor then says what was opened, so a file swapped after an earlier `stat` is seen
    /// as it is. Only a regular file is read, and a file that grows while it is read (a log, a download under
    /// way) stops being read one byte past the limit. With `followLinks: false`, `O_NOFOLLOW` refuses a symbolic
    /// link in the last component of `path`.
    package static func readRegular(_ path: String, maxBytes: Int, followLinks: Bool = true) -> Result<[UInt8], ReadProblem> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else {
            let code = errno
            // POSIX gives ELOOP for a symbolic link under O_NOFOLLOW (and for too many links on the way).
            var info = stat()
            if code == ELOOP, !followLinks, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                return .failure(.notRegular(info.st_mode))
            }
            return .failure(.failed(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.failed(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular(info.st_mode)) }
        let limit = max(maxBytes, 0)
        let size = Int64(info.st_size)
        if size > Int64(limit) { return .failure(.tooLarge(size: size, grew: false)) }
        // Reads stop at limit + 1 bytes: enough to know the file passed the limit, whatever it does meanwhile.
        let wanted = limit < Int.max ? limit + 1 : limit
        var bytes = [UInt8](repeating: 0, count: min(Int(size), wanted - 1) + 1)
        var filled = 0
        while filled < wanted {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, wanted - filled))) }
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.failed(errno))
            }
            filled += count
        }
        if filled > limit { return .failure(.tooLarge(size: Int64(filled), grew: true)) }
        bytes.removeSubrange(filled...)
        return .success(bytes)
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

    /// `size` as `ByteCount.size` writes it ("9 MB", "8.5 MB"), or in bytes ("8,388,609 bytes") when the rounded
    /// figure would read the same as `limit`'s, so "it is 8 MB, more than 8 MB" is never said.
    package static func size(_ size: Int64, beside limit: Int64) -> String {
        let rounded = ByteCount.size(size)
        guard size != limit, rounded == ByteCount.size(limit) else { return rounded }
        return L("%@ bytes", ByteCount.grouped(size))
    }

    /// The C library's sentence for an `errno` value, lower-cased to sit inside a message.
    package static func describe(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
