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

    /// The presets are under 2 KB; a curve file is read up to this size and refused past it, so a path such as
    /// `/dev/zero` or a file that keeps growing is never read whole.
    package static let largestFile = 1 << 20

    static func load(contentsOf url: URL, shownAs file: String) throws(CurveFileError) -> ProgressCurve {
        let data: Data
        switch LocalFile.readRegular(url.path, maxBytes: largestFile) {
        case .success(let bytes): data = Data(bytes)
        case .failure(.failed(let code)):
            let reason = code == ENOENT ? L("no such file") : LocalFile.describe(code)
            throw CurveFileError(file: file, problem: .unreadable(reason: reason))
        case .failure(.notRegular(let mode)):
            throw CurveFileError(file: file, problem: .unreadable(reason: L("it is %@", LocalFile.kind(mode))))
        case .failure(.tooLarge(let size, let grew)):
            let most = ByteCount.size(Int64(largestFile))
            let reason = grew ? L("it is larger than %@, the most a curve file may be", most)
                : L("it is %@, more than the %@ a curve file may be", LocalFile.size(size, beside: Int64(largestFile)), most)
            throw CurveFileError(file: file, problem: .unreadable(reason: reason))
        }
        var curve = try decode(data, file: file)
        if curve.name.isEmpty { curve.name = url.deletingPathExtension().lastPathComponent }
        return curve
    }

}
