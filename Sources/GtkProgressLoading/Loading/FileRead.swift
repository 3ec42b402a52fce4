import FoundationEssentials
import Glibc
import GtkProgressCore
import GtkProgressFiles
import Synchronization

/// Reads a local file off the main loop. libcurl's `file:` protocol reads the whole file inside one call of the
/// multi interface, so a large file, a slow disk or a network mount would stall the window; here a worker thread
/// reads it in pieces, reports progress, honours the throttle, and stops at the next piece when cancelled.
/// Events come back on the main loop through `MainLoop.post`; the loader drops those of a cancelled read.
///
/// `LoadPolicy` lets only regular files through, and the read checks again what it opened, so the open never waits
/// for a writer (a FIFO would).
final class FileRead: @unchecked Sendable {
    let url: URL
    private let options: LoaderOptions
    /// What has arrived, and whether the read was cancelled.
    private let state = Mutex<(body: [UInt8], cancelled: Bool)>(([], false))
    /// Each read has a thread of its own, so a slow disk holds up no other window.
    private let worker = SerialWorker(name: "gtkprogress-read")

    init(url: URL, options: LoaderOptions) {
        self.url = url
        self.options = options
    }

    /// Starts reading; `deliver` gets each event on the main loop.
    func start(deliver: @escaping @MainActor (LoadEvent) -> Void) {
        worker.async { [self] in
            self.read { event in MainLoop.post { deliver(event) } }
        }
    }

    func cancel() {
        state.withLock { $0.cancelled = true }
    }

    /// What has arrived so far (shared, not copied, until the next piece is appended).
    func arrived() -> ArrivedBody? {
        let body = state.withLock { $0.body }
        return body.isEmpty ? nil : ArrivedBody(bytes: body, contentType: nil, url: url)
    }

    private var isCancelled: Bool {
        state.withLock { $0.cancelled }
    }

    private func read(post: (LoadEvent) -> Void) {
        // The file may have been replaced since `LoadPolicy` looked at it: O_NONBLOCK keeps a FIFO's open from
        // waiting for a writer (POSIX open), and fstat says what was really opened.
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            post(.failed(LoadError(kind: .fileNotFound, url: url, message: L("The file %@ could not be opened: %@.",
                                                                       url.path, LocalFile.describe(errno)))))
            return
        }
        defer { close(fd) }
        var info = stat()
        let size: Int64? = fstat(fd, &info) == 0 ? Int64(info.st_size) : nil
        if size != nil, info.st_mode & S_IFMT == S_IFDIR {
            return list(post: post)
        }
        if size != nil, let message = LocalFile.notRegular(url.path, mode: info.st_mode) {
            post(.failed(LoadError(kind: .fileNotFound, url: url, message: message)))
            return
        }
        post(.response(LoadResponse(status: 200, finalURL: url, contentType: nil, expectedLength: size)))
        // With a throttle, a tenth of a second's worth per piece, one piece per tenth of a second.
        let throttle = options.throttleBytesPerSecond
        let piece = throttle.map { max(Int($0 / 10), 1) } ?? 256 * 1024
        var buffer = [UInt8](repeating: 0, count: piece)
        var received: Int64 = 0
        while !isCancelled {
            let started = MainLoop.monotonicSeconds()
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                post(.failed(LoadError(kind: .other, url: url, message: L("Reading %@ failed after %@: %@.",
                                       url.path, ByteCount.size(received), LocalFile.describe(errno)))))
                return
            }
            let data = buffer[..<count]
            if data.isEmpty { break }
            received += Int64(data.count)
            if options.keepsBody {
                guard received <= Int64(options.maxDocumentBytes) else {
                    post(.failed(LoadError(kind: .tooLarge, url: url, message: L("The file %@ is larger "
                        + "than %@, the most this viewer loads, so it was not loaded.", url.path,
                        ByteCount.size(Int64(options.maxDocumentBytes))))))
                    return
                }
                state.withLock { $0.body.append(contentsOf: data) }
            }
            post(.progress(received: received, expected: size))
            if throttle != nil {
                let rest = 0.1 - (MainLoop.monotonicSeconds() - started)
                if rest > 0 { usleep(useconds_t(rest * 1_000_000)) }
            }
        }
        guard !isCancelled else { return }
        let whole = state.withLock { $0.body }
        post(.finished(LoadedPage(decoding: whole, finalURL: url, status: 200, contentType: nil)))
    }

    /// A folder: its listing page (`LocalFolder`), generated here, off the main loop.
    private func list(post: (LoadEvent) -> Void) {
        switch LocalFolder.listing(url) {
        case .failure(let error):
            post(.failed(error))
        case .success(let html):
            let bytes = Array(html.utf8)
            post(.response(LoadResponse(status: 200, finalURL: url, contentType: "text/html; charset=utf-8",
                                        expectedLength: Int64(bytes.count))))
            guard !isCancelled else { return }
            state.withLock { $0.body = bytes }
            post(.progress(received: Int64(bytes.count), expected: Int64(bytes.count)))
            post(.finished(LoadedPage(decoding: bytes, finalURL: url, status: 200, contentType: "text/html; charset=utf-8")))
        }
    }
}
