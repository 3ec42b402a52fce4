import FoundationEssentials
import Glibc
import GtkProgressCore

extension ProgressCurve {
    /// The preset used when none is asked for: the WeChat article's curve.
    public static let defaultPresetName = "wechat"

    /// Loads a preset by name (`wechat`, `smooth`, `real`: `data/curves/NAME.json`) or a curve file by path.
    /// A path is anything containing `/` or ending in `.json`, so a stray file in the current directory never
    /// shadows a preset.
    public static func load(nameOrPath: String) throws(CurveFileError) -> ProgressCurve {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") {
            return try load(contentsOf: URL(fileURLWithPath: nameOrPath), shownAs: nameOrPath)
        }
        if let url = DataFiles.url("curves/\(nameOrPath).json") {
            return try load(contentsOf: url, shownAs: url.path)
        }
        if let builtIn = builtInPresets[nameOrPath] { return builtIn }
        throw CurveFileError(file: nameOrPath, problem: .noSuchPreset(name: nameOrPath, available: presetNames))
    }

    /// The default curve from its data file, or the built-in copy when the data files are missing or broken, so
    /// the bar works in any install.
    public static var `default`: ProgressCurve {
        (try? load(nameOrPath: defaultPresetName)) ?? .builtInWeChat
    }

    /// The names of the presets shipped in `data/curves/`.
    public static var presetNames: [String] {
        guard let directory = DataFiles.url("curves"),
              let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            return builtInPresets.keys.sorted()
        }
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    static func load(contentsOf url: URL, shownAs file: String) throws(CurveFileError) -> ProgressCurve {
        let data: Data
        switch LocalFile.readBytes(url.path) {
        case .success(let bytes): data = Data(bytes)
        case .failure(let error):
            let reason = error.code == ENOENT ? L("no such file") : LocalFile.describe(error.code)
            throw CurveFileError(file: file, problem: .unreadable(reason: reason))
        }
        var curve = try decode(data, file: file)
        if curve.name.isEmpty { curve.name = url.deletingPathExtension().lastPathComponent }
        return curve
    }

}
