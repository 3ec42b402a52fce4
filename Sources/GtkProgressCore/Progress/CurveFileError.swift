import FoundationEssentials

/// Why a curve file could not be used, naming the file and the field, in words a user writing one can act on.
public struct CurveFileError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    public enum Problem: Error, Equatable, Sendable {
        case noSuchPreset(name: String, available: [String])
        case unreadable(reason: String)
        /// `line` and `column` count from 1; nil when the parser gave no position.
        case badJSON(line: Int?, column: Int?, detail: String)
        case notAnObject(field: String)
        case missingField(String)
        /// A field the curve format does not have (a misspelling would otherwise be silently ignored); `known`
        /// lists the fields allowed where it stands.
        case unknownField(field: String, known: [String])
        /// A number no `Double` holds: `1e400` (too large) or `1e-400` (too close to 0, not 0).
        case numberOutOfRange(field: String, text: String, tooLarge: Bool)
        case wrongType(field: String, expected: String)
        case unknownEasing(field: String, value: String)
        case negativeDuration(field: String, value: Double)
        case outOfRange(field: String, value: Double)
        case notPositive(field: String, value: Double)
        /// The UIWebView progress article's continuity rule: segment `index` must start where the previous one ended.
        case discontinuous(index: Int, from: Double, previousEnd: Double)
        case backwards(index: Int, from: Double, to: Double)
        case finishOutOfOrder(earlier: String, earlierValue: Double, later: String, laterValue: Double)
    }

    /// The file's path as given, or the preset name when no file was found.
    public let file: String
    public let problem: Problem

    public init(file: String, problem: Problem) {
        self.file = file; self.problem = problem
    }

    public var description: String { "\(file): \(problem.sentence)." }
    public var errorDescription: String? { description }
}

extension CurveFileError.Problem {
    /// The problem alone, without the file name.
    public var sentence: String {
        switch self {
        case let .noSuchPreset(name, available):
            return "there is no curve preset named \"\(name)\" (presets: \(available.joined(separator: ", "))); "
                + "give a path to a .json file for a curve of your own"
        case let .unreadable(reason):
            return "cannot read the file (\(reason))"
        case let .badJSON(line?, column?, detail):
            return "not valid JSON at line \(line), column \(column) (\(detail))"
        case let .badJSON(_, _, detail):
            return "not valid JSON (\(detail))"
        case let .notAnObject(field):
            return "\(Self.name(field)) should be a JSON object"
        case let .missingField(field):
            return "missing field \"\(field)\""
        case let .unknownField(field, known):
            let name = field.split(separator: ".").last.map(String.init) ?? field
            let guess = known.first { Self.isLikelyTypo(name, of: $0) }.map { " (did you mean \"\($0)\"?)" } ?? ""
            return "unknown field \"\(field)\"\(guess); the fields allowed there are "
                + known.map { "\"\($0)\"" }.joined(separator: ", ")
        case let .numberOutOfRange(field, text, tooLarge):
            return "\(Self.name(field)) is \(text), a number too \(tooLarge ? "large" : "close to 0") for this program "
                + "to hold\(tooLarge ? "" : "; write 0 if 0 is meant")"
        case let .wrongType(field, expected):
            return "\(Self.name(field)) should be \(expected)"
        case let .unknownEasing(field, value):
            return "\"\(field)\" is \"\(value)\"; easing must be one of "
                + Easing.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        case let .negativeDuration(field, value):
            return "\"\(field)\" is \(Self.number(value)); a time cannot be negative"
        case let .outOfRange(field, value):
            return "\"\(field)\" is \(Self.number(value)); progress values must lie between 0 and 1"
        case let .notPositive(field, value):
            return "\"\(field)\" is \(Self.number(value)); it must be above 0"
        case let .discontinuous(index, from, previousEnd):
            return "segment \(index) starts at \(Self.number(from)) but segment \(index - 1) ended at "
                + "\(Self.number(previousEnd)); each segment must start where the previous one ended"
        case let .backwards(index, from, to):
            return "segment \(index) goes backwards, from \(Self.number(from)) to \(Self.number(to)); "
                + "the bar must never move back"
        case let .finishOutOfOrder(earlier, earlierValue, later, laterValue):
            return "\"\(later)\" (\(Self.number(laterValue))) comes before \"\(earlier)\" (\(Self.number(earlierValue))); "
                + "the finish must reach 1.0, then fade, then reset, in that order"
        }
    }

    private static func name(_ field: String) -> String { field.isEmpty ? "the file" : "\"\(field)\"" }

    /// Whether `name` is `field` with a slip of the keyboard: another case, or at most two letters changed,
    /// added, dropped or swapped.
    static func isLikelyTypo(_ name: String, of field: String) -> Bool {
        let a = Array(name.lowercased()), b = Array(field.lowercased())
        if a == b { return true }
        guard abs(a.count - b.count) <= 2 else { return false }
        // Optimal string alignment distance (Levenshtein plus adjacent transpositions).
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count] <= min(2, max(1, b.count / 3))
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
