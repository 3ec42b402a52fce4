import Foundation
import GtkProgressCore

/// Reads a local file off the main loop. libcurl's `file:` protocol reads the whole file inside one call of the
/// multi interface, so a large file, a slow disk or a network mount would stall the window; here a worker thread
/// reads it in pieces, reports progress, honours the throttle, and stops at the next piece when cancelled.
/// Events come back on the main loop through `MainLoop.post`; the loader drops those of a cancelled read.
///
/// `LoadPolicy` lets only regular files through, so the open never waits for a writer (a FIFO would).
final class FileRead: @unchecked Sendable {
    let url: URL
    private let options: LoaderOptions
    private let lock = NSLock()
    /// Guarded by `lock`: what has arrived, and whether the read was cancelled.
    private var body: [UInt8] = []
    private var cancelled = false

    init(url: URL, options: LoaderOptions) {
        self.url = url
        self.options = options
    }

    /// Starts reading; `deliver` gets each event on the main loop.
    func start(deliver: @escaping @Sendable (LoadEvent) -> Void) {
        Thread.detachNewThread { [self] in
            self.read { event in MainLoop.post { deliver(event) } }
        }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    /// What has arrived so far (shared, not copied, until the next piece is appended).
    func arrived() -> ArrivedBody? {
        lock.lock()
        defer { lock.unlock() }
        return body.isEmpty ? nil : ArrivedBody(bytes: body, contentType: nil, url: url)
    }

    private var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    private func read(post: (LoadEvent) -> Void) {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            post(.failed(LoadError(kind: .fileNotFound, url: url,
                                   message: "The file \(url.path) could not be opened.")))
            return
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()).map(Int64.init)
        _ = try? handle.seek(toOffset: 0)
        post(.response(LoadResponse(status: 200, finalURL: url, contentType: nil, expectedLength: size)))
        // With a throttle, a tenth of a second's worth per piece, one piece per tenth of a second.
        let throttle = options.throttleBytesPerSecond
        let piece = throttle.map { max(Int($0 / 10), 1) } ?? 256 * 1024
        var received: Int64 = 0
        while !isCancelled {
            let started = Date()
            let data: Data
            do {
                data = try handle.read(upToCount: piece) ?? Data()
            } catch {
                post(.failed(LoadError(kind: .other, url: url, message: "Reading \(url.path) failed after "
                                       + "\(ByteCount.size(received)): \(error.localizedDescription)")))
                return
            }
            if data.isEmpty { break }
            received += Int64(data.count)
            if options.keepsBody {
                guard received <= Int64(options.maxDocumentBytes) else {
                    post(.failed(LoadError(kind: .tooLarge, url: url, message: "The file \(url.path) is larger "
                        + "than \(ByteCount.size(Int64(options.maxDocumentBytes))), the most this viewer loads, "
                        + "so it was not loaded.")))
                    return
                }
                lock.lock()
                body.append(contentsOf: data)
                lock.unlock()
            }
            post(.progress(received: received, expected: size))
            if throttle != nil {
                let rest = 0.1 - Date().timeIntervalSince(started)
                if rest > 0 { Thread.sleep(forTimeInterval: rest) }
            }
        }
        guard !isCancelled else { return }
        lock.lock()
        let whole = body
        lock.unlock()
        post(.finished(LoadedPage(decoding: whole, finalURL: url, status: 200, contentType: nil)))
    }
}
