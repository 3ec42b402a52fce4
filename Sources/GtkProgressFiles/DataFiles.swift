import FoundationEssentials
import Glibc
import GtkProgressCore

/// Finds the files the app ships in `data/`: the welcome page, bundled pages and curve presets.
///
/// Looked up, in order: `$GTKPROGRESS_DATADIR`; `<prefix>/share/gtkprogress` of an installed binary (in `bin/` or `libexec/gtkprogress/`); the
/// `data/` folder of the source tree the binary was built from (so `swift run` and tests need no install).
package enum DataFiles {
    package static let directory: URL? = {
        var candidates: [URL] = []
        if let env = environment("GTKPROGRESS_DATADIR") {
            candidates.append(URL(fileURLWithPath: env))
        }
        // /proc/self/exe names the binary even when it was started through PATH.
        let exePath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? ""
        let executable = URL(fileURLWithPath: exePath).resolvingSymlinksInPath()
        // PREFIX/bin/gtkprogress and PREFIX/libexec/gtkprogress/gtkprogress-viewer.
        let binDirectory = executable.deletingLastPathComponent()
        candidates.append(binDirectory.deletingLastPathComponent().appendingPathComponent("share/gtkprogress"))
        candidates.append(binDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/gtkprogress"))
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("welcome.html").path) }
    }()

    /// Where the compiled message catalogues are (`LANG/LC_MESSAGES/gtkprogress.mo`): `$GTKPROGRESS_LOCALEDIR`;
    /// `<prefix>/share/locale` beside an installed `share/gtkprogress`; in the source tree, `.build/locale`, where
    /// `make` compiles `po/*.po` with msgfmt.
    package static let localeDirectory: URL? = {
        if let env = environment("GTKPROGRESS_LOCALEDIR") {
            return URL(fileURLWithPath: env)
        }
        guard let directory else { return nil }
        if directory.lastPathComponent == "gtkprogress" && directory.deletingLastPathComponent().lastPathComponent == "share" {
            return directory.deletingLastPathComponent().appendingPathComponent("locale")
        }
        return directory.deletingLastPathComponent().appendingPathComponent(".build/locale")
    }()

    /// One variable's value, nil when unset or empty: `getenv` reads it in place, where
    /// `ProcessInfo.environment` copies the whole environment into a dictionary at each call (two of them ran
    /// at every start, `--dump` included).
    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    /// The URL of a shipped file, e.g. `url("curves/wechat.json")`, if it exists.
    package static func url(_ relativePath: String) -> URL? {
        guard let url = directory?.appendingPathComponent(relativePath),
              FileManager.default.fileExists(atPath: url.path) else { return nil }
        return url
    }

    /// A bundled page in the reader's language (`PreferredLanguages`), as the messages are chosen:
    /// `welcome.html` is `welcome.ja.html` under ja_JP, `pages/shortcuts.zh_CN.html` under zh_CN, and stays English
    /// when there is no translation.
    package static func localizedURL(_ relativePath: String,
                                     environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        guard relativePath.hasSuffix(".html") else { return url(relativePath) }
        let stem = relativePath.dropLast(".html".count)
        for language in PreferredLanguages.from(environment: environment) {
            if let found = url(stem + "." + language + ".html") { return found }
        }
        return url(relativePath)
    }

    /// The application's AppStream metadata: `data/` in the source tree, `<prefix>/share/metainfo` when installed.
    package static func metainfo() -> String? {
        let name = "org.gtkprogress.Viewer.metainfo.xml"
        guard let directory else { return nil }
        for url in [directory.appendingPathComponent(name),
                    directory.deletingLastPathComponent().appendingPathComponent("metainfo/" + name)] {
            if case .success(let bytes) = LocalFile.readRegular(url.path, maxBytes: 1 << 20) {
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        return nil
    }
}
