import FoundationEssentials
import GtkProgressCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The session file: `$XDG_STATE_HOME/gtkprogress/session.json` (`~/.local/state/…` when the variable is unset),
/// the place the XDG Base Directory Specification gives to state that should persist between restarts but is not
/// worth backing up.
///
/// Writes are atomic: the bytes go to a temporary file in the same directory, which is flushed to disk (`fsync`)
/// and then renamed over the old file (`rename(2)` replaces it in one step), and the directory is flushed so the
/// rename itself survives a crash. A kill or power loss mid-write leaves the previous file, whole. Writes run on
/// a worker thread of their own (`SerialWorker`), in the order they were asked for.
///
/// The file is read with `O_NOFOLLOW | O_NONBLOCK` and only when `fstat` finds a regular file, so a link to a
/// device or a FIFO is refused at once.
package final class SessionFile: @unchecked Sendable {
    package let url: URL
    private let queue = SerialWorker(name: "gtkprogress-save")

    package init(url: URL) { self.url = url }

    /// The file's place for this user, or nil when neither `XDG_STATE_HOME` nor `HOME` gives one.
    package static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SessionFile? {
        let base: URL
        // The specification says a relative path in the variable is invalid and must be ignored.
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = URL(fileURLWithPath: state, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/state", isDirectory: true)
        } else {
            return nil
        }
        return SessionFile(url: base.appendingPathComponent("gtkprogress/session.json"))
    }

    /// What reading found.
    package enum Contents: Sendable {
        /// No file: the first run, or the session was never saved.
        case missing
        case session(SessionState)
        /// The file exists but cannot be used; `message` says why, in one line.
        case damaged(String)
    }

    /// Session files are a few kilobytes; anything this large is not one.
    package static let largestFile = 8 * 1024 * 1024

    /// Reads the file (on the calling thread: it is small). Temporary files left by a viewer killed mid-write are
    /// removed first; the file itself is whole, as the rename never happened.
    package func read() -> Contents {
        removeLeftovers()
        let path = url.path
        let data: Data
        switch LocalFile.readRegular(path, maxBytes: Self.largestFile, followLinks: false) {
        case .success(let bytes):
            data = Data(bytes)
        case .failure(.failed(let code)):
            if code == ENOENT { return .missing }
            return .damaged("The saved session \(path) could not be read: \(LocalFile.describe(code)).")
        case .failure(.notRegular(let mode)):
            return .damaged("The saved session \(path) was not restored: it is \(LocalFile.kind(mode)).")
        case .failure(.tooLarge(let size, let grew)):
            let most = ByteCount.size(Int64(Self.largestFile))
            if grew {
                return .damaged("The saved session \(path) was not restored: it grew past \(most) while it was read, "
                                + "more than a session file may hold.")
            }
            return .damaged("The saved session \(path) was not restored: it is "
                            + "\(LocalFile.size(size, beside: Int64(Self.largestFile))), more than the \(most) a session "
                            + "file may hold.")
        }
        switch SessionState.decode(data) {
        case .success(let state): return .session(state)
        case .failure(let failure): return .damaged("The saved session \(path) was not restored: \(failure.description).")
        }
    }

    /// `mkdir -p`, private to the user (0700, as the XDG specification asks of its directories); the `errno`
    /// that stopped it, or nil.
    private static func makeDirectories(_ path: String) -> Int32? {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST { return errno }
        }
        return nil
    }

    /// `session.json.tmp-PID` files of processes that no longer run (`kill(pid, 0)` fails with ESRCH).
    private func removeLeftovers() {
        let directory = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { unlink(directory + "/" + name) }
        }
    }

    /// Renames a damaged file out of the way (`session.json.damaged`), so the next save does not destroy what
    /// may still be recovered by hand. Returns the new path.
    @discardableResult
    package func setAside() -> String? {
        let aside = url.path + ".damaged"
        unlink(aside)
        return rename(url.path, aside) == 0 ? aside : nil
    }

    /// Saves `data` in the background; `failed` runs on the writing queue, not the caller's thread, with a message
    /// if it could not be written (the caller hops back to its own loop).
    package func save(_ data: Data, failed: @escaping @Sendable (String) -> Void = { _ in }) {
        queue.async { [self] in
            if let problem = write(data) { failed(problem) }
        }
    }

    /// Saves `data` now, after any save still under way (when the viewer quits). Returns a message on failure.
    @discardableResult
    package func saveAndWait(_ data: Data) -> String? {
        let result = Mutex<String?>(nil)
        queue.sync { [self] in result.withLock { $0 = write(data) } }
        return result.withLock { $0 }
    }

    /// Write to a temporary file, fsync, rename, fsync the directory. Returns a message on failure.
    private func write(_ data: Data) -> String? {
        let directory = url.deletingLastPathComponent().path
        if let code = Self.makeDirectories(directory) {
            return "Cannot save the session in \(directory): \(LocalFile.describe(code))."
        }
        let temporary = url.path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return "Cannot save the session to \(temporary): \(LocalFile.describe(errno))" }
        var problem = data.withUnsafeBytes { LocalFile.writeAll($0, to: fd) }.map(LocalFile.describe)
        if problem == nil, fsync(fd) != 0 { problem = LocalFile.describe(errno) }
        close(fd)
        if problem == nil, rename(temporary, url.path) != 0 { problem = LocalFile.describe(errno) }
        if let problem {
            unlink(temporary)
            return "Cannot save the session to \(url.path): \(problem)"
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
        return nil
    }
}
