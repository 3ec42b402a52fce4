import Glibc

/// Writing to standard output and standard error with write(2), whole: a pipe may take a long text in several
/// pieces, and a reader that went away (`| head`) ends the writing quietly rather than with SIGPIPE's death.
package enum StandardStreams {
    package static func output(_ text: String) {
        signal(SIGPIPE, SIG_IGN)
        write(text, to: STDOUT_FILENO)
    }
    /// Bytes for standard output, as they are printed a stretch at a time (`PageDump.write`).
    package static func output(_ bytes: UnsafeBufferPointer<UInt8>) {
        signal(SIGPIPE, SIG_IGN)
        _ = LocalFile.writeAll(UnsafeRawBufferPointer(bytes), to: STDOUT_FILENO)
    }
    package static func error(_ text: String) { write(text, to: STDERR_FILENO) }

    private static func write(_ text: String, to fd: Int32) {
        var text = text
        _ = text.withUTF8 { LocalFile.writeAll(UnsafeRawBufferPointer($0), to: fd) }
    }
}
