import FoundationEssentials

/// Why a curve file could not be used, naming the file and the field, in words a user writing one can act on.
public struct CurveFileError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// What is wrong, without the file name; `sentence` says it in words.
    public enum Problem: Error, Equatable, Sendable {
        /// No preset has this name (and it is not a path); `available` lists the presets.
        case noSuchPreset(name: String, available: [String])
        /// The file could not be read: missing, a directory, no permission.
        case unreadable(reason: String)
        /// `line` and `column` count from 1; nil when the parser gave no position.
        case badJSON(line: Int?, column: Int?, detail: String)
        /// `field` (empty: the whole file) should be a JSON object.
        case notAnObject(field: String)
        /// A required field is absent: `segments`, `finish` or one of their fields.
        case missingField(String)
        /// A field the curve format does not have (a misspelling would otherwise be silently ignored); `known`
        /// lists the fields allowed where it stands.
        case unknownField(field: String, known: [String])
        /// A number no `Double` holds: `1e400` (too large) or `1e-400` (too close to 0, not 0).
        case numberOutOfRange(field: String, text: String, tooLarge: Bool)
        /// `field` has the wrong JSON type; `expected` names the right one ("a number").
        case wrongType(field: String, expected: String)
        /// An easing other than `linear`, `easeIn` or `easeOut`.
        case unknownEasing(field: String, value: String)
        /// A duration or instant below 0.
        case negativeDuration(field: String, value: Double)
        /// A fraction of the bar outside 0…1.
        case outOfRange(field: String, value: Double)
        /// `realProgressRate` is 0 or below.
        case notPositive(field: String, value: Double)
        /// The UIWebView progress article's continuity rule: segment `index` must start where the previous one ended.
        case discontinuous(index: Int, from: Double, previousEnd: Double)
        /// Segment `index` goes down: the bar never moves backwards.
        case backwards(index: Int, from: Double, to: Double)
        /// The finish's instants must come in the order duration ≤ fadeStart ≤ fadeEnd ≤ reset.
        case finishOutOfOrder(earlier: String, earlierValue: Double, later: String, laterValue: Double)
        /// A milestone other than `nameResolved`, `connected`, `secured` or `firstByte`.
        case unknownMilestone(field: String, value: String)
        /// A later milestone of the load may not lift the bar less than an earlier one.
        case milestoneOutOfOrder(earlier: String, earlierValue: Double, later: String, laterValue: Double)
    }

    /// The file's path as given, or the preset name when no file was found.
    public let file: String
    /// What is wrong with it.
    public let problem: Problem

    /// An error about `file` (a path, or a preset name).
    public init(file: String, problem: Problem) {
        self.file = file; self.problem = problem
    }

    /// `FILE: the problem.`, one sentence for a message or a log.
    public var description: String { L("%@: %@.", file, problem.sentence) }
    /// The same as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension CurveFileError.Problem {
    /// The problem alone, without the file name.
    public var sentence: String {
        switch self {
        case let .noSuchPreset(name, available):
            return L("there is no curve preset named \"%@\" (presets: %@); give a path to a .json file for a curve "
                + "of your own", name, available.joined(separator: ", "))
        case let .unreadable(reason):
            return L("cannot read the file (%@)", reason)
        case let .badJSON(line?, column?, detail):
            return L("not valid JSON at line %ld, column %ld (%@)", line, column, detail)
        case let .badJSON(_, _, detail):
            return L("not valid JSON (%@)", detail)
        case let .notAnObject(field):
            return L("%@ should be a JSON object", Self.name(field))
        case let .missingField(field):
            return L("missing field \"%@\"", field)
        case let .unknownField(field, known):
            let name = field.split(separator: ".").last.map(String.init) ?? field
            let allowed = known.map { "\"\($0)\"" }.joined(separator: ", ")
            if let guess = known.first(where: { Self.isLikelyTypo(name, of: $0) }) {
                return L("unknown field \"%@\" (did you mean \"%@\"?); the fields allowed there are %@", field, guess, allowed)
            }
            return L("unknown field \"%@\"; the fields allowed there are %@", field, allowed)
        case let .numberOutOfRange(field, text, tooLarge):
            return tooLarge ? L("%@ is %@, a number too large for this program to hold", Self.name(field), text)
                : L("%@ is %@, a number too close to 0 for this program to hold; write 0 if 0 is meant", Self.name(field), text)
        case let .wrongType(field, expected):
            return L("%@ should be %@", Self.name(field), expected)
        case let .unknownEasing(field, value):
            return L("\"%@\" is \"%@\"; easing must be one of %@", field, value,
                     Easing.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
        case let .negativeDuration(field, value):
            return L("\"%@\" is %@; a time cannot be negative", field, Self.number(value))
        case let .outOfRange(field, value):
            return L("\"%@\" is %@; progress values must lie between 0 and 1", field, Self.number(value))
        case let .notPositive(field, value):
            return L("\"%@\" is %@; it must be above 0", field, Self.number(value))
        case let .discontinuous(index, from, previousEnd):
            return L("segment %ld starts at %@ but segment %ld ended at %@; each segment must start where the "
                + "previous one ended", index, Self.number(from), index - 1, Self.number(previousEnd))
        case let .backwards(index, from, to):
            return L("segment %ld goes backwards, from %@ to %@; the bar must never move back", index,
                     Self.number(from), Self.number(to))
        case let .finishOutOfOrder(earlier, earlierValue, later, laterValue):
            return L("\"%@\" (%@) comes before \"%@\" (%@); the finish must reach 1.0, then fade, then reset, in that "
                + "order", later, Self.number(laterValue), earlier, Self.number(earlierValue))
        case let .unknownMilestone(_, value):
            return L("there is no milestone \"%@\"; milestones are %@", value,
                     LoadMilestone.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
        case let .milestoneOutOfOrder(earlier, earlierValue, later, laterValue):
            return L("milestone \"%@\" (%@) is below \"%@\" (%@), which comes before it in a load; the bar must "
                + "never move back", later, Self.number(laterValue), earlier, Self.number(earlierValue))
        }
    }

    private static func name(_ field: String) -> String { field.isEmpty ? L("the file") : "\"\(field)\"" }

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
