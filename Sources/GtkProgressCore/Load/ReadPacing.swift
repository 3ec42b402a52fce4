/// When to read a socket that has become readable. A slow server trickles its page a packet at a time (a page
/// at 100 KB/s comes as a kilobyte every 10 ms), and reading each packet as it comes costs a main-loop turn of its
/// own: libcurl's receive, the transfer's bookkeeping, a progress event for the bar and the window. A socket whose
/// last reads came slowly and that holds little is read at most once every `gatherSeconds`, so the packets that
/// came meanwhile are taken in one turn; a fast transfer, or one that holds `enoughBytes` already, is read at once.
/// The first read of a socket, and any read after a fast one, is never put off.
package struct ReadPacing: Sendable, Equatable {
    /// The longest a read is put off: half the bar's 0.1 s tick, and small beside the progressive display's
    /// schedule (`ProgressiveSchedule`, at most a render a second while a page is small), so what arrives reaches
    /// the bar and the page at most this much later.
    package static let gatherSeconds = 0.05
    /// Reads coming slower than this are gathered.
    package static let slowBytesPerSecond = 256.0 * 1024
    /// A socket holding this much is read at once (libcurl's default receive buffer,
    /// <https://curl.se/libcurl/c/CURLOPT_BUFFERSIZE.html>).
    package static let enoughBytes = 16 * 1024

    /// When the socket was last read, and how fast bytes came up to then (bytes a second).
    package private(set) var lastReadAt: Double?
    package private(set) var lastRate = Double.infinity

    package init() {}

    /// Seconds to wait before reading a socket on which `pending` bytes wait at `now` (0: read now). `pending` is
    /// negative when the system cannot tell, and 0 at the end of the stream: both are read at once.
    package func delay(pending: Int, now: Double) -> Double {
        guard let last = lastReadAt, pending > 0, pending < Self.enoughBytes,
              lastRate < Self.slowBytesPerSecond else { return 0 }
        let wait = last + Self.gatherSeconds - now
        return wait > 0 ? min(wait, Self.gatherSeconds) : 0
    }

    /// The socket is read at `now`, `pending` bytes waiting.
    package mutating func read(_ pending: Int, at now: Double) {
        if let last = lastReadAt, now > last, pending >= 0 {
            lastRate = Double(pending) / (now - last)
        } else {
            lastRate = .infinity
        }
        lastReadAt = now
    }
}
