import FoundationEssentials
/// The JSON form of a curve (see `data/curves/wechat.json`). Decoding validates, so a decoded curve is always
/// usable; problems are thrown as `CurveFileError.Problem` naming the field, and `ProgressCurve.load` adds the file.
extension ProgressCurve: Codable {
    /// `description` is text for the file's readers (the presets have one); it is checked, not kept.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, about = "description", segments, hold, realProgressRate, milestones, appearAfter, minimumVisible, finish
    }

    /// Decodes and validates a curve file's JSON; errors are `CurveFileError.Problem`s naming the field.
    public init(from decoder: Decoder) throws {
        try CurveFileError.rejectUnknownFields(in: decoder, known: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        _ = try container.decodeIfPresent(String.self, forKey: .about)
        segments = try container.decode([Segment].self, forKey: .segments)
        hold = try container.decodeIfPresent(Double.self, forKey: .hold)
        realProgressRate = try container.decodeIfPresent(Double.self, forKey: .realProgressRate)
        milestones = [:]
        for (key, level) in try container.decodeIfPresent([String: Double].self, forKey: .milestones) ?? [:] {
            guard let milestone = LoadMilestone(rawValue: key) else {
                throw CurveFileError.Problem.unknownMilestone(field: "milestones." + key, value: key)
            }
            milestones[milestone] = level
        }
        appearAfter = try container.decodeIfPresent(Double.self, forKey: .appearAfter) ?? 0
        minimumVisible = try container.decodeIfPresent(Double.self, forKey: .minimumVisible) ?? 0
        finish = try container.decode(Finish.self, forKey: .finish)
        try validate()
    }

    /// Checks what JSON's types cannot: ranges, signs, the UIWebView progress article's continuity rule, and the order of the finish.
    public func validate() throws(CurveFileError.Problem) {
        var previousEnd: Double?
        for (index, segment) in segments.enumerated() {
            let field = "segments[\(index)]"
            if segment.duration < 0 { throw .negativeDuration(field: field + ".duration", value: segment.duration) }
            try Self.checkFraction(segment.from, field + ".from")
            try Self.checkFraction(segment.to, field + ".to")
            if let previousEnd, abs(segment.from - previousEnd) > 1e-9 {
                throw .discontinuous(index: index, from: segment.from, previousEnd: previousEnd)
            }
            if segment.to < segment.from { throw .backwards(index: index, from: segment.from, to: segment.to) }
            previousEnd = segment.to
        }
        if let hold { try Self.checkFraction(hold, "hold") }
        if let realProgressRate, !(realProgressRate > 0) {
            throw .notPositive(field: "realProgressRate", value: realProgressRate)
        }
        let reached = LoadMilestone.allCases.compactMap { m in milestones[m].map { (m, $0) } }
        for (milestone, level) in reached { try Self.checkFraction(level, "milestones." + milestone.rawValue) }
        for (earlier, later) in zip(reached, reached.dropFirst()) where later.1 < earlier.1 {
            throw .milestoneOutOfOrder(earlier: earlier.0.rawValue, earlierValue: earlier.1,
                                       later: later.0.rawValue, laterValue: later.1)
        }
        if appearAfter < 0 { throw .negativeDuration(field: "appearAfter", value: appearAfter) }
        if minimumVisible < 0 { throw .negativeDuration(field: "minimumVisible", value: minimumVisible) }
        let order: [(String, Double)] = [("finish.duration", finish.duration), ("finish.fadeStart", finish.fadeStart),
                                         ("finish.fadeEnd", finish.fadeEnd), ("finish.reset", finish.reset)]
        for (field, value) in order where value < 0 { throw .negativeDuration(field: field, value: value) }
        for (earlier, later) in zip(order, order.dropFirst()) where later.1 < earlier.1 {
            throw .finishOutOfOrder(earlier: earlier.0, earlierValue: earlier.1, later: later.0, laterValue: later.1)
        }
    }

    private static func checkFraction(_ value: Double, _ field: String) throws(CurveFileError.Problem) {
        if !(0...1).contains(value) { throw .outOfRange(field: field, value: value) }
    }

    /// Writes the curve file format, leaving out optional fields at their defaults.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(segments, forKey: .segments)
        try container.encodeIfPresent(hold, forKey: .hold)
        try container.encodeIfPresent(realProgressRate, forKey: .realProgressRate)
        if !milestones.isEmpty {
            try container.encode(Dictionary(uniqueKeysWithValues: milestones.map { ($0.key.rawValue, $0.value) }),
                                 forKey: .milestones)
        }
        if appearAfter > 0 { try container.encode(appearAfter, forKey: .appearAfter) }
        if minimumVisible > 0 { try container.encode(minimumVisible, forKey: .minimumVisible) }
        try container.encode(finish, forKey: .finish)
    }
}

extension ProgressCurve.Segment: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case duration, from, to, easing }

    /// Decodes one segment of a curve file; `easing` defaults to `linear`.
    public init(from decoder: Decoder) throws {
        try CurveFileError.rejectUnknownFields(in: decoder, known: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        duration = try container.decode(Double.self, forKey: .duration)
        from = try container.decode(Double.self, forKey: .from)
        to = try container.decode(Double.self, forKey: .to)
        easing = try Easing.decode(from: container, key: .easing)
    }

    /// Writes one segment of a curve file.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(duration, forKey: .duration)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(easing, forKey: .easing)
    }
}

extension ProgressCurve.Finish: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case duration, easing, fadeStart, fadeEnd, reset }

    /// Decodes a curve file's `finish` object; `easing` defaults to `linear`.
    public init(from decoder: Decoder) throws {
        try CurveFileError.rejectUnknownFields(in: decoder, known: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        duration = try container.decode(Double.self, forKey: .duration)
        easing = try Easing.decode(from: container, key: .easing)
        fadeStart = try container.decode(Double.self, forKey: .fadeStart)
        fadeEnd = try container.decode(Double.self, forKey: .fadeEnd)
        reset = try container.decode(Double.self, forKey: .reset)
    }

    /// Writes a curve file's `finish` object.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(duration, forKey: .duration)
        try container.encode(easing, forKey: .easing)
        try container.encode(fadeStart, forKey: .fadeStart)
        try container.encode(fadeEnd, forKey: .fadeEnd)
        try container.encode(reset, forKey: .reset)
    }
}

extension Easing {
    /// Easing is optional (linear) and an unknown name is reported with its field rather than as corrupt data.
    static func decode<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, key: Key) throws -> Easing {
        guard let name = try container.decodeIfPresent(String.self, forKey: key) else { return .linear }
        guard let easing = Easing(rawValue: name) else {
            throw CurveFileError.Problem.unknownEasing(field: CurveFileError.fieldPath(container.codingPath + [key]), value: name)
        }
        return easing
    }
}

extension CurveFileError {
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A misspelled field (`"hodl"` for `"hold"`) would otherwise be ignored and its value lost without a word;
    /// it is an error naming the field, the first in alphabetical order when there are several.
    static func rejectUnknownFields<Keys: CodingKey & CaseIterable>(in decoder: Decoder, known: Keys.Type) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let names = Keys.allCases.map(\.stringValue)
        guard let unknown = container.allKeys.map(\.stringValue).filter({ !names.contains($0) }).min() else { return }
        throw Problem.unknownField(field: fieldPath(decoder.codingPath + [AnyKey(stringValue: unknown)]), known: names)
    }

    /// `segments[1].duration` for the coding path segments → 1 → duration.
    package static func fieldPath(_ codingPath: [CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue { path += "[\(index)]" } else { path += (path.isEmpty ? "" : ".") + key.stringValue }
        }
        return path
    }
}

extension ProgressCurve {
    /// Decodes and validates curve JSON; `file` names the source in the error.
    public static func decode(_ data: Data, file: String) throws(CurveFileError) -> ProgressCurve {
        if let problem = StrictJSON.problem(in: [UInt8](data)) { throw CurveFileError(file: file, problem: problem) }
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
                return .wrongType(field: field, expected: L("a list"))
            }
            return .wrongType(field: field, expected: type == String.self ? L("a string") : L("a number"))
        case let .dataCorrupted(context):
            let field = CurveFileError.fieldPath(context.codingPath)
            return .badJSON(line: nil, column: nil,
                            detail: field.isEmpty ? context.debugDescription : "\(field): \(context.debugDescription)")
        @unknown default:
            return .badJSON(line: nil, column: nil, detail: "\(error)")
        }
    }
}

extension ProgressCurve {
    /// A copy of `data/curves/wechat.json` (a test keeps them equal), used only when the data files are missing.
    package static let builtInWeChat = ProgressCurve(
        name: "wechat",
        segments: [
            Segment(duration: 3, from: 0.10, to: 0.60),
            Segment(duration: 4, from: 0.60, to: 0.80),
            Segment(duration: 8, from: 0.80, to: 0.90),
        ],
        hold: 0.90,
        milestones: [.nameResolved: 0.15, .connected: 0.20, .secured: 0.25, .firstByte: 0.30],
        finish: Finish(duration: 0.25, easing: .easeIn, fadeStart: 0.4, fadeEnd: 0.65, reset: 0.7))

    /// A copy of `data/curves/smooth.json` (a test keeps them equal).
    package static let builtInSmooth = ProgressCurve(
        name: "smooth",
        segments: [
            Segment(duration: 4, from: 0.00, to: 0.60, easing: .easeOut),
            Segment(duration: 10, from: 0.60, to: 0.85),
            Segment(duration: 10, from: 0.85, to: 0.95),
        ],
        hold: 0.95,
        milestones: [.nameResolved: 0.10, .connected: 0.15, .secured: 0.20, .firstByte: 0.30],
        appearAfter: 0.25, minimumVisible: 0.5,
        finish: Finish(duration: 0.5, easing: .easeIn, fadeStart: 0.55, fadeEnd: 0.8, reset: 0.85))

    /// A copy of `data/curves/real.json` (a test keeps them equal).
    package static let builtInReal = ProgressCurve(
        name: "real", segments: [], hold: nil, realProgressRate: 2.0,
        milestones: [.nameResolved: 0.10, .connected: 0.15, .secured: 0.20, .firstByte: 0.30],
        appearAfter: 0.5, minimumVisible: 0.5,
        finish: Finish(duration: 0.2, easing: .easeOut, fadeStart: 0.4, fadeEnd: 0.65, reset: 0.7))

    /// The presets compiled in, so an application that ships without the data files still has every one.
    package static let builtInPresets: [String: ProgressCurve] = [
        "wechat": builtInWeChat, "smooth": builtInSmooth, "real": builtInReal,
    ]
}
