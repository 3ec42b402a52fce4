import FoundationEssentials

/// Why a load failed, in words the person at the screen can act on.
package struct LoadError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// Nothing listens on that port.
        case refused
        /// The name does not resolve.
        case hostNotFound
        /// No route to the host.
        case unreachable
        /// The connection could not be set up in time, or the server never answered.
        case timedOut
        /// The server answered, then stopped sending, or sent under a byte a second.
        case stalled
        /// The document was still arriving when `LoaderOptions.deadline` passed.
        case tooSlow
        /// An error status (4xx, 5xx) with an empty body: nothing to show but the status.
        case errorStatus
        /// An address longer than `AddressShape.longestAddress`.
        case addressTooLong
        /// The body ended early: fewer bytes than Content-Length, or a broken chunked stream.
        case cutOff
        /// The secure connection failed: handshake or certificate.
        case tls
        case tooManyRedirects
        /// A redirect to anything but http or https, such as `file:///etc/passwd`.
        case forbiddenRedirect
        /// The decoded document passed `LoaderOptions.maxDocumentBytes`.
        case tooLarge
        /// An address the loader does not open, or a `file:` address a page asked for.
        case unsupportedScheme
        case fileNotFound
        /// The server's answer cannot be used: not HTTP at all, headers too long or sent too slowly, or a 304
        /// Not Modified for a page the viewer holds no copy of.
        case badResponse
        /// The process has as many files and connections open as the system allows.
        case outOfDescriptors
        case other
    }

    package var kind: Kind
    /// The address that was asked for.
    package var url: URL
    /// One or two plain sentences, e.g. "The server at 127.0.0.1 redirected too many times (20)."
    package var message: String

    package init(kind: Kind, url: URL, message: String) {
        self.kind = kind
        self.url = url
        self.message = message
    }

    package var description: String { message }
}

/// Numbers as people read them in messages.
package enum ByteCount {
    /// 1234567 → "1,234,567".
    package static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    /// 67108864 → "64.0 MB", 1536 → "1.5 KB", 9_437_185 → "9.0 MB", 12 → "12 bytes" (binary multiples, as file
    /// managers show sizes). Always one decimal from a kilobyte up, so that no size reads as exact when it was
    /// rounded ("9 MB" for 9.04 MB), and the unit is chosen after rounding (1,048,575 bytes is "1.0 MB", not
    /// "1024.0 KB").
    package static func size(_ value: Int64) -> String {
        if value < 1024 { return LN("%ld byte", "%ld bytes", Int(value), Int(value)) }
        let units = ["KB", "MB", "GB", "TB"]
        var unit = 0
        var amount = Double(value) / 1024
        while unit < units.count - 1, (amount * 10).rounded(.toNearestOrAwayFromZero) >= 10240 {
            unit += 1
            amount /= 1024
        }
        return "\(amount.formatted(decimals: 1)) \(units[unit])"
    }

    /// 15 → "15 seconds", 1 → "1 second", 0.5 → "0.5 seconds", 600 → "10 minutes".
    package static func seconds(_ value: Double) -> String {
        if value >= 120, value.truncatingRemainder(dividingBy: 60) == 0 {
            let minutes = Int(value / 60)
            return LN("%ld minute", "%ld minutes", minutes, minutes)
        }
        if value == value.rounded() { return LN("%ld second", "%ld seconds", Int(value), Int(value)) }
        return L("%@ seconds", value.formatted(decimals: 1))
    }
}
