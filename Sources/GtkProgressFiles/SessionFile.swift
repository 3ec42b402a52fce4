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
/// Nothing another user planted is followed. The directory must be the user's own and private (the XDG
/// specification asks for 0700): it is opened with `O_NOFOLLOW`, and the temporary file, the rename and the lock
/// are made relative to that open directory (`openat`, `renameat`), so it cannot be swapped meanwhile. The
/// temporary file has a name no one can guess (`session.json.tmp-PID-RANDOM`) and is created with
/// `O_CREAT | O_EXCL | O_NOFOLLOW`, which POSIX makes fail on any existing name, a symbolic link included. The file
/// is read with `O_NOFOLLOW | O_NONBLOCK` and only when `fstat` finds a regular file, so a link to a device or a
/// FIFO is refused at once.
package final class SessionFile: @unchecked Sendable {
    package let url: URL
    private let queue = SerialWorker(name: "gtkprogress-save")
    /// The random part of a temporary file's name (tests choose their own, to plant links where writes go).
    private let temporarySuffix: @Sendable () -> String
    /// The lock file's descriptor while this process keeps the session (`claim`), else -1.
    private let lock = Mutex<Int32>(-1)

    /// What the file holds, as its messages name it ("session", "history").
    package let noun: String

    package init(url: URL, noun: String = "session",
                 temporarySuffix: @escaping @Sendable () -> String = SessionFile.randomSuffix) {
        self.url = url
        self.noun = noun
        self.temporarySuffix = temporarySuffix
    }

    deinit { release() }

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

    /// The history file: `$XDG_DATA_HOME/gtkprogress/history.json` (`~/.local/share/…` when the variable is unset),
    /// where the XDG Base Directory Specification keeps a user's data; written as the session is.
    package static func history(environment: [String: String] = ProcessInfo.processInfo.environment) -> SessionFile? {
        let base: URL
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = URL(fileURLWithPath: data, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        } else {
            return nil
        }
        return SessionFile(url: base.appendingPathComponent("gtkprogress/history.json"), noun: "history")
    }

    /// Why `standard` has no place for the file, in one line for the user (when it has one, the same line names
    /// both variables as they are).
    package static func unavailableMessage(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let reasons = ["XDG_STATE_HOME", "HOME"].map { name in
            guard let value = environment[name], !value.isEmpty else { return "\(name) is not set" }
            return "\(name) is “\(value)”, not an absolute path"
        }
        return "This session will not be saved: \(reasons.joined(separator: " and ")), so there is no folder to keep "
            + "it in."
    }

    /// What reading found.
    package enum Contents: Sendable {
        /// No file: the first run, or the session was never saved.
        case missing
        case session(SessionState)
        /// The file exists but cannot be used; `message` says why, in one line.
        case damaged(String)
    }

    /// Session files are a few kilobytes; anything this large is not one. `SessionState.encoded` keeps what it
    /// writes below `SessionState.largestEncoding`, which is under this.
    package static let largestFile = 8 * 1024 * 1024

    /// Reads the file (on the calling thread: it is small). Temporary files left by a viewer killed mid-write are
    /// removed first; the file itself is whole, as the rename never happened.
    package func read() -> Contents {
        switch readData() {
        case .missing: return .missing
        case .damaged(let message): return .damaged(message)
        case .data(let data):
            switch SessionState.decode(data) {
            case .success(let state): return .session(state)
            case .failure(let failure): return .damaged("The saved session \(url.path) was not restored: \(failure.description).")
            }
        }
    }

    /// What reading the bytes found.
    package enum RawContents: Sendable {
        case missing
        case data(Data)
        case damaged(String)
    }

    /// Reads the file's bytes, for a file other than the session's (the history) to decode.
    package func readData() -> RawContents {
        removeLeftovers()
        let path = url.path
        switch LocalFile.readRegular(path, maxBytes: Self.largestFile, followLinks: false) {
        case .success(let bytes):
            return .data(Data(bytes))
        case .failure(.failed(let code)):
            if code == ENOENT { return .missing }
            return .damaged("The saved \(noun) \(path) could not be read: \(LocalFile.describe(code)).")
        case .failure(.notRegular(let mode)):
            return .damaged("The saved \(noun) \(path) was not restored: it is \(LocalFile.kind(mode)).")
        case .failure(.tooLarge(let size, let grew)):
            let most = ByteCount.size(Int64(Self.largestFile))
            if grew {
                return .damaged("The saved \(noun) \(path) was not restored: it grew past \(most) while it was read, "
                                + "more than a \(noun) file may hold.")
            }
            return .damaged("The saved \(noun) \(path) was not restored: it is "
                            + "\(LocalFile.size(size, beside: Int64(Self.largestFile))), more than the \(most) a \(noun) "
                            + "file may hold.")
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

    /// The session's directory, created if need be and opened, once it is known to be the user's own: not a
    /// symbolic link, owned by the effective user, and private (a looser mode is narrowed to 0700, as the XDG
    /// specification asks). The open descriptor, or a message saying why the directory is not used.
    private func openDirectory() -> Result<Int32, Failure> {
        let directory = url.deletingLastPathComponent().path
        func failure(_ reason: String) -> Result<Int32, Failure> {
            .failure(Failure(message: "Cannot save the \(noun) in \(directory): \(reason)."))
        }
        if let code = Self.makeDirectories(directory) { return failure(LocalFile.describe(code)) }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            var info = stat()
            if lstat(directory, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
                return failure("it is \(LocalFile.kind(info.st_mode)), and the \(noun) is kept only in a folder of your own")
            }
            return failure(LocalFile.describe(code))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            return failure(LocalFile.describe(code))
        }
        guard info.st_uid == geteuid() else {
            close(fd)
            return failure("the folder belongs to user \(info.st_uid), not to you (user \(geteuid())), so it was not used")
        }
        if info.st_mode & 0o077 != 0 {
            guard fchmod(fd, 0o700) == 0 else {
                let code = errno
                close(fd)
                return failure("the folder is open to other users (mode \(String(info.st_mode & 0o7777, radix: 8))) and "
                               + "could not be made private: \(LocalFile.describe(code))")
            }
        }
        return .success(fd)
    }

    /// A message for the user, as an error.
    private struct Failure: Error {
        let message: String
    }

    /// The temporary file's name for process `pid`: `session.json.tmp-PID-RANDOM`.
    private func temporaryName(pid: pid_t, suffix: String) -> String {
        url.lastPathComponent + ".tmp-\(pid)-" + suffix
    }

    /// Sixteen hexadecimal digits from the system's random source (`getrandom`), so no one can plant a file
    /// or link at the name a save will use.
    package static func randomSuffix() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Temporary files of processes that no longer run (`kill(pid, 0)` fails with ESRCH): `session.json.tmp-PID`
    /// and `session.json.tmp-PID-RANDOM`.
    private func removeLeftovers() {
        let directory = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let pid = pid_t(rest.prefix { $0 != "-" }), pid > 0, pid != getpid() else { continue }
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

    // MARK: One viewer keeps the session

    /// Whether this process keeps the session.
    package enum Claim: Equatable, Sendable {
        /// This process holds the lock: its saves are the session.
        case kept
        /// Another viewer holds it (its process id, when it wrote one): this one must not save.
        case keptByAnother(pid: Int32?)
        /// The lock could not be taken at all (the directory is unusable); saving will say why.
        case failed(String)

        /// The line for the user when another viewer keeps the session, else nil.
        package var message: String? {
            guard case .keptByAnother(let pid) = self else { return nil }
            let which = pid.map { "Another gtkprogress viewer (process \($0))" } ?? "Another gtkprogress viewer"
            return which + " is keeping the session, so the windows of this one will not be saved."
        }
    }

    /// Takes the session for this process, so two viewers that cannot find each other (no session bus, so no
    /// single instance) do not overwrite each other's windows: `flock(2)` on `session.json.lock`, held until the
    /// process ends (the kernel drops it even on a crash, so no stale lock is left). The holder writes its process
    /// id into the file, for the message of the viewer that finds it taken.
    package func claim() -> Claim {
        lock.withLock { held in
            if held >= 0 { return .kept }
            let directory: Int32
            switch openDirectory() {
            case .success(let fd): directory = fd
            case .failure(let failure): return .failed(failure.message)
            }
            defer { close(directory) }
            let name = url.lastPathComponent + ".lock"
            let fd = openat(directory, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                return .failed("Cannot keep the session in \(url.path).lock: \(LocalFile.describe(errno)).")
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                defer { close(fd) }
                guard code == EWOULDBLOCK else {
                    return .failed("Cannot keep the session in \(url.path).lock: \(LocalFile.describe(code)).")
                }
                var bytes = [UInt8](repeating: 0, count: 16)
                let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
                let text = count > 0 ? String(decoding: bytes[..<count], as: UTF8.self) : ""
                return .keptByAnother(pid: Int32(text.trimmed()).flatMap { $0 > 0 ? $0 : nil })
            }
            let pid = Array("\(getpid())\n".utf8)
            if ftruncate(fd, 0) == 0 { _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
            held = fd
            return .kept
        }
    }

    /// Lets the session go (closing the lock file drops the lock); a later `claim` may take it again.
    package func release() {
        lock.withLock { held in
            if held >= 0 { close(held) }
            held = -1
        }
    }

    // MARK: Saving

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

    /// How many taken names in a row a save tries before it gives up: with random names, one is already a sign
    /// that someone is planting them.
    static let temporaryAttempts = 8

    /// Write to a new temporary file, fsync, rename, fsync the directory. Returns a message on failure.
    private func write(_ data: Data) -> String? {
        let directory: Int32
        switch openDirectory() {
        case .success(let fd): directory = fd
        case .failure(let failure): return failure.message
        }
        defer { close(directory) }
        let folder = url.deletingLastPathComponent().path
        var created: (fd: Int32, name: String)?
        for _ in 0..<Self.temporaryAttempts {
            let name = temporaryName(pid: getpid(), suffix: temporarySuffix())
            let fd = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 {
                created = (fd, name)
                break
            }
            guard errno == EEXIST else {
                return "Cannot save the \(noun) to \(folder)/\(name): \(LocalFile.describe(errno))."
            }
        }
        guard let (fd, temporary) = created else {
            return "Cannot save the \(noun) in \(folder): \(Self.temporaryAttempts) new temporary names in a row were "
                + "already taken, so nothing was written."
        }
        var problem = data.withUnsafeBytes { LocalFile.writeAll($0, to: fd) }.map(LocalFile.describe)
        if problem == nil, fsync(fd) != 0 { problem = LocalFile.describe(errno) }
        close(fd)
        if problem == nil, renameat(directory, temporary, directory, url.lastPathComponent) != 0 {
            problem = LocalFile.describe(errno)
        }
        if let problem {
            unlinkat(directory, temporary, 0)
            return "Cannot save the \(noun) to \(url.path): \(problem)."
        }
        fsync(directory)
        return nil
    }
}
