import Foundation

/// The desktop viewer is a separate executable, `gtkprogress-viewer`, so the command-line paths (`--dump`,
/// `--print-curve`, `--help`, …) never map GTK's libraries into memory. `gtkprogress` without such an option
/// replaces itself with the viewer (same process id, same arguments).
enum ViewerExecutable {
    static let name = "gtkprogress-viewer"

    /// Where the viewer lives: beside this binary in a build tree, in `PREFIX/libexec/gtkprogress/` once installed.
    /// `$GTKPROGRESS_VIEWER` overrides both.
    static func path() -> String? {
        if let override = ProcessInfo.processInfo.environment["GTKPROGRESS_VIEWER"], !override.isEmpty {
            return override
        }
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [exe.appendingPathComponent(name),
                          exe.deletingLastPathComponent().appendingPathComponent("libexec/gtkprogress/\(name)")]
        return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Only returns when the viewer could not be started.
    static func exec(arguments: [String]) -> Int32 {
        guard let viewer = path() else {
            printError("the viewer (\(name)) is not installed next to this program; --dump works without it")
            return 1
        }
        let argv = ([CommandLine.arguments[0]] + arguments).map { strdup($0) } + [nil]
        execv(viewer, argv)
        printError("cannot start \(viewer): \(String(cString: strerror(errno)))")
        return 1
    }
}
