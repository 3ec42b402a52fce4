import Foundation

extension ProgressCurve {
    /// The preset used when none is asked for: seed 000's WeChat curve.
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
        if nameOrPath == defaultPresetName { return .builtInWeChat }
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
            return [defaultPresetName]
        }
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    static func load(contentsOf url: URL, shownAs file: String) throws(CurveFileError) -> ProgressCurve {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path) ? error.localizedDescription : "no such file"
            throw CurveFileError(file: file, problem: .unreadable(reason: reason))
        }
        var curve = try decode(data, file: file)
        if curve.name.isEmpty { curve.name = url.deletingPathExtension().lastPathComponent }
        return curve
    }

    /// Decodes and validates curve JSON; `file` names the source in the error.
    public static func decode(_ data: Data, file: String) throws(CurveFileError) -> ProgressCurve {
        // JSONDecoder reports broken syntax without a position; JSONSerialization gives the byte offset.
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw CurveFileError(file: file, problem: syntaxProblem(error, in: data))
        }
        do {
            return try JSONDecoder().decode(ProgressCurve.self, from: data)
        } catch let problem as CurveFileError.Problem {
            throw CurveFileError(file: file, problem: problem)
        } catch let error as DecodingError {
            throw CurveFileError(file: file, problem: problem(for: error))
        } catch {
            throw CurveFileError(file: file, problem: .badJSON(line: nil, column: nil, detail: "\(error)"))
        }
    }

    private static func problem(for error: DecodingError) -> CurveFileError.Problem {
        switch error {
        case let .keyNotFound(key, context):
            return .missingField(CurveFileError.fieldPath(context.codingPath + [key]))
        case let .typeMismatch(type, context), let .valueNotFound(type, context):
            let field = CurveFileError.fieldPath(context.codingPath)
            if type is [String: Any].Type || "\(type)".contains("KeyedDecodingContainer") {
                return .notAnObject(field: field)
            }
            if type is [Any].Type || "\(type)".contains("UnkeyedDecodingContainer") {
                return .wrongType(field: field, expected: "a list")
            }
            return .wrongType(field: field, expected: type == String.self ? "a string" : "a number")
        case let .dataCorrupted(context):
            return .wrongType(field: CurveFileError.fieldPath(context.codingPath), expected: context.debugDescription)
        @unknown default:
            return .badJSON(line: nil, column: nil, detail: "\(error)")
        }
    }

    /// Turns Foundation's "… around character N." (a byte offset) into a line and column.
    private static func syntaxProblem(_ error: Error, in data: Data) -> CurveFileError.Problem {
        let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        let bytes = [UInt8](data)
        var offset: Int?
        if let range = detail.range(of: "character ") {
            offset = Int(detail[range.upperBound...].prefix { $0.isNumber })
        } else if detail.localizedCaseInsensitiveContains("end of file") || bytes.isEmpty {
            offset = bytes.count
        }
        let shortDetail = detail.split(separator: " around ").first.map(String.init) ?? detail
        guard let offset, offset <= bytes.count else {
            return .badJSON(line: nil, column: nil, detail: shortDetail)
        }
        var line = 1, lineStart = 0
        for (i, byte) in bytes[..<offset].enumerated() where byte == UInt8(ascii: "\n") {
            line += 1; lineStart = i + 1
        }
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return .badJSON(line: line, column: column,
                        detail: shortDetail.trimmingCharacters(in: CharacterSet(charactersIn: ".")))
    }
}

extension ProgressCurve {
    /// A copy of `data/curves/wechat.json` (a test keeps them equal), used only when the data files are missing.
    public static let builtInWeChat = ProgressCurve(
        name: "wechat",
        segments: [
            Segment(duration: 3, from: 0.10, to: 0.60),
            Segment(duration: 4, from: 0.60, to: 0.80),
            Segment(duration: 8, from: 0.80, to: 0.90),
        ],
        hold: 0.90,
        finish: Finish(duration: 0, fadeStart: 0.3, fadeEnd: 0.4, reset: 0.5))
}
