import FoundationEssentials
import Glibc
import GtkProgressCore

/// The programs that make up gtkprogress. `gtkprogress` itself answers what needs neither a window nor the network
/// (`--help`, `--version`, `--print-curve`, `--dump FILE`) without loading GTK or libcurl, and becomes one of
/// these, by exec, for the rest: the viewer for a window, the fetcher for a network address.
package enum Companion: String {
    case viewer = "gtkprogress-viewer"
    case fetch = "gtkprogress-fetch"

    /// Where it lives: beside the running binary in a build tree, in `PREFIX/libexec/gtkprogress/` once installed.
    /// `$GTKPROGRESS_LIBEXECDIR` overrides both.
    package var path: String? {
        var directories: [URL] = []
        if let override = ProcessInfo.processInfo.environment["GTKPROGRESS_LIBEXECDIR"], !override.isEmpty {
            directories.append(URL(fileURLWithPath: override))
        }
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]).deletingLastPathComponent()
        directories += [exe, exe.deletingLastPathComponent().appendingPathComponent("libexec/gtkprogress")]
        return directories.map { $0.appendingPathComponent(rawValue).path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Replaces this process with the companion, same arguments; returns only when that failed, with a message.
    package func exec(arguments: [String]) -> String {
        guard let path else { return L("%@ is not installed next to gtkprogress", rawValue) }
        let argv = ([CommandLine.arguments[0]] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        return L("cannot start %@: %@", path, String(cString: strerror(errno)))
    }
}
