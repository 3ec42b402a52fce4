import Foundation
import XCTest
@testable import GtkProgress
@testable import GtkProgressLoading
@testable import GtkProgressCore

/// The curves as the articles give them (docs/sources.md), at exact instants.
final class ProgressCurveTests: XCTestCase {
    func preset(_ name: String) throws -> ProgressCurve {
        do { return try ProgressCurve.load(nameOrPath: name) } catch { XCTFail("\(error)"); throw error }
    }

    func testWeChatFollowsTheWeChatArticle() throws {
        let curve = try preset("wechat")
        let expected: [(Double, Double)] = [(0, 0.10), (1.5, 0.35), (3, 0.60), (5, 0.70), (7, 0.80), (11, 0.85),
                                            (15, 0.90), (20, 0.90)]
        for (t, value) in expected {
            XCTAssertEqual(curve.value(at: t), value, accuracy: 1e-9, "wechat at \(t) s")
        }
        XCTAssertEqual(curve.hold, 0.90)
        XCTAssertEqual(curve.finish, .init(duration: 0.25, easing: .easeIn, fadeStart: 0.4, fadeEnd: 0.65, reset: 0.7),
                       "the article's opacity = 0 at +0.4 s, faded over Core Animation's 0.25 s")
        XCTAssertEqual(curve.appearAfter, 0, "10% at once")
        XCTAssertEqual(curve.milestones, [.nameResolved: 0.15, .connected: 0.20, .secured: 0.25, .firstByte: 0.30])
    }

    func testSmoothFollowsTheUIWebViewArticle() throws {
        let curve = try preset("smooth")
        // 2 s is half of the 4 s ease-out step: Core Animation's ease-out (0, 0, 0.58, 1) is at 0.684647 there.
        let expected: [(Double, Double)] = [(2, 0.60 * 0.6846431874), (4, 0.60), (9, 0.725), (14, 0.85), (19, 0.90),
                                            (24, 0.95)]
        for (t, value) in expected {
            XCTAssertEqual(curve.value(at: t), value, accuracy: 1e-6, "smooth at \(t) s")
        }
        XCTAssertEqual(curve.value(at: 0), 0)
        XCTAssertEqual(curve.value(at: 60), 0.95)
        XCTAssertEqual(curve.finish.duration, 0.5)
        XCTAssertEqual(curve.finish.easing, .easeIn)
    }

    func testRealHasNoCurveAndNoHold() throws {
        let curve = try preset("real")
        XCTAssertTrue(curve.segments.isEmpty)
        XCTAssertNil(curve.hold)
        XCTAssertNotNil(curve.realProgressRate)
        XCTAssertEqual(curve.value(at: 5), 0)
    }

    func testEasingsMatchCoreAnimation() {
        XCTAssertEqual(Easing.easeOut(0.5), 0.6846431874, accuracy: 1e-6)
        XCTAssertEqual(Easing.easeIn(0.5), 0.3153568126, accuracy: 1e-6)
        for easing in Easing.allCases {
            XCTAssertEqual(easing(0), 0)
            XCTAssertEqual(easing(1), 1)
            var previous = 0.0
            for i in 1...100 {
                let value = easing(Double(i) / 100)
                XCTAssertGreaterThanOrEqual(value, previous, "\(easing) is monotonic")
                previous = value
            }
        }
    }

    func testSegmentsAreContinuous() throws {
        for name in ["wechat", "smooth"] {
            let curve = try preset(name)
            var start = 0.0
            for segment in curve.segments {
                let end = start + segment.duration
                XCTAssertEqual(curve.value(at: end - 1e-9), curve.value(at: end), accuracy: 1e-6,
                               "\(name) is continuous at \(end) s")
                start = end
            }
        }
    }

    func testBuiltInFallbackMatchesDataFile() throws {
        XCTAssertEqual(try preset("wechat"), ProgressCurve.builtInWeChat)
        XCTAssertEqual(try preset("smooth"), ProgressCurve.builtInSmooth)
        XCTAssertEqual(try preset("real"), ProgressCurve.builtInReal)
        XCTAssertEqual(Set(ProgressCurve.builtInPresets.keys), Set(ProgressCurve.presetNames))
        XCTAssertEqual(ProgressCurve.default, ProgressCurve.builtInWeChat)
    }

    func testPresetsAreDataFiles() {
        XCTAssertEqual(Set(ProgressCurve.presetNames), ["wechat", "smooth", "real"])
        for name in ProgressCurve.presetNames {
            XCTAssertNotNil(DataFiles.url("curves/\(name).json"))
        }
    }

    func testRoundTripsThroughJSON() throws {
        for name in ["wechat", "smooth", "real"] {
            let curve = try preset(name)
            let data = try JSONEncoder().encode(curve)
            XCTAssertEqual(try ProgressCurve.decode(data, file: name), curve)
        }
    }

    func testLoadsAUserFileByPath() throws {
        let dir = try temporaryDirectory()
        let url = dir.appendingPathComponent("mine.json")
        try Data("""
            {"segments": [{"duration": 2, "from": 0.2, "to": 0.5, "easing": "easeOut"}],
             "finish": {"duration": 0.1, "fadeStart": 0.2, "fadeEnd": 0.3, "reset": 0.3}}
            """.utf8).write(to: url)
        let curve = try ProgressCurve.load(nameOrPath: url.path)
        XCTAssertEqual(curve.name, "mine")
        XCTAssertEqual(curve.value(at: 0), 0.2)
        XCTAssertEqual(curve.value(at: 9), 0.5)
        XCTAssertNil(curve.hold)
        XCTAssertEqual(curve.finish.easing, .linear)
    }

    // MARK: - Malformed files

    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gtkprogress-curves-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    /// Writes `json` to a file, loads it, and returns the error, which must name the file.
    func loadError(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> CurveFileError {
        let url = try temporaryDirectory().appendingPathComponent("broken.json")
        try Data(json.utf8).write(to: url)
        do throws(CurveFileError) {
            let curve = try ProgressCurve.load(nameOrPath: url.path)
            XCTFail("loaded \(curve)", file: file, line: line)
            return CurveFileError(file: url.path, problem: .unreadable(reason: "loaded"))
        } catch {
            XCTAssertEqual(error.file, url.path, file: file, line: line)
            XCTAssertTrue(error.description.hasPrefix(url.path + ": "), error.description, file: file, line: line)
            return error
        }
    }

    static let finish = #""finish": {"duration": 0, "fadeStart": 0.3, "fadeEnd": 0.4, "reset": 0.5}"#

    func testBadJSONGivesLineAndColumn() throws {
        let error = try loadError("{\n  \"segments\": [\n    {\"duration\": 3, \"from\": 0.1, \"to\": x}\n  ]\n}")
        guard case let .badJSON(line, column, _) = error.problem else { return XCTFail("\(error)") }
        XCTAssertEqual(line, 3)
        XCTAssertEqual(column, 40)
        XCTAssertTrue(error.description.contains("not valid JSON at line 3, column 40"), error.description)
    }

    func testEmptyFileIsBadJSON() throws {
        let error = try loadError("")
        guard case .badJSON = error.problem else { return XCTFail("\(error)") }
    }

    func testMissingField() throws {
        let error = try loadError(#"{"segments": [{"duration": 3, "from": 0.1}], \#(Self.finish)}"#)
        XCTAssertEqual(error.problem, .missingField("segments[0].to"))
        XCTAssertTrue(error.description.contains(#"missing field "segments[0].to""#), error.description)
        XCTAssertEqual(try loadError(#"{"segments": []}"#).problem, .missingField("finish"))
        XCTAssertEqual(try loadError(#"{"segments": [], "finish": {"duration": 0, "fadeStart": 0.3, "reset": 1}}"#).problem,
                       .missingField("finish.fadeEnd"))
    }

    /// Foundation reads 1e-400 as 0, and JSONDecoder then fails naming no field ("the file should be The given
    /// data was not valid JSON.").
    func testNumbersNoDoubleHolds() throws {
        let small = try loadError(#"{"segments": [{"duration": 3, "from": 1e-400, "to": 0.6}], \#(Self.finish)}"#)
        XCTAssertEqual(small.problem, .numberOutOfRange(field: "segments[0].from", text: "1e-400", tooLarge: false))
        XCTAssertTrue(small.description.hasSuffix(#": "segments[0].from" is 1e-400, a number too close to 0 for this "#
            + "program to hold; write 0 if 0 is meant."), small.description)
        let large = try loadError(#"{"segments": [], "hold": 1e400, \#(Self.finish)}"#)
        XCTAssertEqual(large.problem, .numberOutOfRange(field: "hold", text: "1e400", tooLarge: true))
        XCTAssertTrue(large.description.contains(#""hold" is 1e400, a number too large for this program to hold."#),
                      large.description)
        XCTAssertNoThrow(try ProgressCurve.decode(Data(#"{"segments": [], "hold": 0e-400, \#(Self.finish)}"#.utf8),
                                                  file: "zero.json"), "0 written with an exponent is still 0")
    }

    func testUnknownFieldsAreNamed() throws {
        let top = try loadError(#"{"segments": [], "hodl": 0.9, \#(Self.finish)}"#)
        XCTAssertEqual(top.problem, .unknownField(field: "hodl", known: ["name", "description", "segments", "hold",
                                                                         "realProgressRate", "milestones", "appearAfter",
                                                                         "minimumVisible", "finish"]))
        XCTAssertTrue(top.description.contains(#"unknown field "hodl" (did you mean "hold"?); the fields allowed "#
            + #"there are "name", "description", "segments", "hold", "realProgressRate", "milestones", "appearAfter", "#
            + #""minimumVisible", "finish""#), top.description)
        let nested = try loadError(#"{"segments": [{"duration": 3, "from": 0.1, "to": 0.6, "esaing": "easeIn"}], \#(Self.finish)}"#)
        guard case .unknownField("segments[0].esaing", _) = nested.problem else { return XCTFail("\(nested)") }
        XCTAssertTrue(nested.description.contains(#"(did you mean "easing"?)"#), nested.description)
        let finish = try loadError(#"{"segments": [], "finish": {"duration": 0, "fadeStart": 0.3, "fadeEnd": 0.4, "reset": 0.5, "colour": "red"}}"#)
        guard case .unknownField("finish.colour", _) = finish.problem else { return XCTFail("\(finish)") }
        XCTAssertFalse(finish.description.contains("did you mean"), "no guess when nothing is close")
    }

    func testTrailingCommasAreSyntaxErrors() throws {
        let object = try loadError("{\n  \"segments\": [],\n  \(Self.finish),\n}")
        XCTAssertEqual(object.problem, .badJSON(line: 3, column: 76,
                                                detail: "a comma before “}” with no field after it; remove the comma"))
        let list = try loadError(#"{"segments": [{"duration": 3, "from": 0.1, "to": 0.6},], \#(Self.finish)}"#)
        guard case .badJSON(1, 54, let detail) = list.problem else { return XCTFail("\(list)") }
        XCTAssertTrue(detail.contains("comma before “]”"), detail)
    }

    func testSegmentMustStartWhereThePreviousEnded() throws {
        let error = try loadError("""
            {"segments": [{"duration": 3, "from": 0.1, "to": 0.6}, {"duration": 4, "from": 0.5, "to": 0.8}],
             \(Self.finish)}
            """)
        XCTAssertEqual(error.problem, .discontinuous(index: 1, from: 0.5, previousEnd: 0.6))
        XCTAssertTrue(error.description.contains("segment 1 starts at 0.5 but segment 0 ended at 0.6"), error.description)
    }

    func testSegmentMustNotGoBackwards() throws {
        let error = try loadError(#"{"segments": [{"duration": 3, "from": 0.6, "to": 0.2}], \#(Self.finish)}"#)
        XCTAssertEqual(error.problem, .backwards(index: 0, from: 0.6, to: 0.2))
    }

    func testValueOutOfRange() throws {
        let error = try loadError(#"{"segments": [{"duration": 3, "from": 0.1, "to": 1.2}], \#(Self.finish)}"#)
        XCTAssertEqual(error.problem, .outOfRange(field: "segments[0].to", value: 1.2))
        XCTAssertTrue(error.description.contains("between 0 and 1"), error.description)
        XCTAssertEqual(try loadError(#"{"segments": [], "hold": -0.1, \#(Self.finish)}"#).problem,
                       .outOfRange(field: "hold", value: -0.1))
    }

    func testNegativeDuration() throws {
        let error = try loadError(#"{"segments": [{"duration": -3, "from": 0.1, "to": 0.6}], \#(Self.finish)}"#)
        XCTAssertEqual(error.problem, .negativeDuration(field: "segments[0].duration", value: -3))
        XCTAssertTrue(error.description.contains(#""segments[0].duration" is -3"#), error.description)
        XCTAssertEqual(try loadError(#"{"segments": [], "finish": {"duration": -1, "fadeStart": 0, "fadeEnd": 0, "reset": 0}}"#).problem,
                       .negativeDuration(field: "finish.duration", value: -1))
    }

    func testFinishOutOfOrder() throws {
        let error = try loadError(#"{"segments": [], "finish": {"duration": 0, "fadeStart": 0.4, "fadeEnd": 0.3, "reset": 0.5}}"#)
        XCTAssertEqual(error.problem, .finishOutOfOrder(earlier: "finish.fadeStart", earlierValue: 0.4,
                                                        later: "finish.fadeEnd", laterValue: 0.3))
    }

    func testMilestonesAppearAfterAndMinimumVisible() throws {
        let url = try temporaryDirectory().appendingPathComponent("quiet.json")
        try Data(#"""
            {"segments": [{"duration": 4, "from": 0, "to": 0.8}], "appearAfter": 0.5, "minimumVisible": 0.75,
             "milestones": {"connected": 0.1, "firstByte": 0.4}, \#(Self.finish)}
            """#.utf8).write(to: url)
        let curve = try ProgressCurve.load(nameOrPath: url.path)
        XCTAssertEqual(curve.appearAfter, 0.5)
        XCTAssertEqual(curve.minimumVisible, 0.75)
        XCTAssertEqual(curve.milestones, [.connected: 0.1, .firstByte: 0.4])
        XCTAssertEqual(try ProgressCurve.decode(JSONEncoder().encode(curve), file: "again"), curve)
        let plain = try ProgressCurve.decode(Data(#"{"segments": [], \#(Self.finish)}"#.utf8), file: "plain")
        XCTAssertEqual(plain.appearAfter, 0, "shown at once unless the file says otherwise")
        XCTAssertEqual(plain.minimumVisible, 0)
        XCTAssertEqual(plain.milestones, [:])
    }

    func testBadMilestonesAndDelays() throws {
        let unknown = try loadError(#"{"segments": [], "milestones": {"handshake": 0.2}, \#(Self.finish)}"#)
        XCTAssertEqual(unknown.problem, .unknownMilestone(field: "milestones.handshake", value: "handshake"))
        XCTAssertTrue(unknown.description.contains(#"there is no milestone "handshake"; milestones are "nameResolved", "connected", "secured", "firstByte""#),
                      unknown.description)
        let order = try loadError(#"{"segments": [], "milestones": {"connected": 0.3, "firstByte": 0.2}, \#(Self.finish)}"#)
        XCTAssertEqual(order.problem, .milestoneOutOfOrder(earlier: "connected", earlierValue: 0.3,
                                                           later: "firstByte", laterValue: 0.2))
        XCTAssertTrue(order.description.contains("never move back"), order.description)
        XCTAssertEqual(try loadError(#"{"segments": [], "milestones": {"secured": 1.5}, \#(Self.finish)}"#).problem,
                       .outOfRange(field: "milestones.secured", value: 1.5))
        XCTAssertEqual(try loadError(#"{"segments": [], "milestones": {"secured": "high"}, \#(Self.finish)}"#).problem,
                       .wrongType(field: "milestones.secured", expected: "a number"))
        XCTAssertEqual(try loadError(#"{"segments": [], "appearAfter": -1, \#(Self.finish)}"#).problem,
                       .negativeDuration(field: "appearAfter", value: -1))
        XCTAssertEqual(try loadError(#"{"segments": [], "minimumVisible": -0.5, \#(Self.finish)}"#).problem,
                       .negativeDuration(field: "minimumVisible", value: -0.5))
    }

    func testTimeReachingALevelInvertsTheCurve() throws {
        let wechat = try preset("wechat")
        XCTAssertEqual(try XCTUnwrap(wechat.time(reaching: 0.35)), 1.5, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(wechat.time(reaching: 0.60)), 3, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(wechat.time(reaching: 0.85)), 11, accuracy: 1e-9)
        XCTAssertEqual(wechat.time(reaching: 0.05), 0, "the curve starts above it")
        XCTAssertNil(wechat.time(reaching: 0.95), "the curve never gets there")
        let smooth = try preset("smooth")
        for level in [0.01, 0.2, 0.45, 0.6, 0.7, 0.9] {
            let t = try XCTUnwrap(smooth.time(reaching: level))
            XCTAssertEqual(smooth.value(at: t), level, accuracy: 1e-9, "smooth reaches \(level) at \(t) s")
            XCTAssertLessThan(smooth.value(at: t - 1e-6), level, "and not before")
        }
        XCTAssertNil(try preset("real").time(reaching: 0.1), "no segments, no time")
    }

    func testWrongTypesAndUnknownEasing() throws {
        XCTAssertEqual(try loadError(#"{"segments": [{"duration": "3", "from": 0.1, "to": 0.6}], \#(Self.finish)}"#).problem,
                       .wrongType(field: "segments[0].duration", expected: "a number"))
        XCTAssertEqual(try loadError(#"{"segments": [{"duration": 3, "from": 0.1, "to": 0.6, "easing": "bounce"}], \#(Self.finish)}"#).problem,
                       .unknownEasing(field: "segments[0].easing", value: "bounce"))
        XCTAssertEqual(try loadError("[1, 2]").problem, .notAnObject(field: ""))
        XCTAssertEqual(try loadError(#"{"segments": {}, \#(Self.finish)}"#).problem,
                       .wrongType(field: "segments", expected: "a list"))
    }

    func testMissingFileAndUnknownPreset() throws {
        do throws(CurveFileError) {
            _ = try ProgressCurve.load(nameOrPath: "/nonexistent/curve.json")
            XCTFail("loaded a missing file")
        } catch {
            XCTAssertEqual(error.problem, .unreadable(reason: "no such file"))
            XCTAssertTrue(error.description.hasPrefix("/nonexistent/curve.json: "))
        }
        do throws(CurveFileError) {
            _ = try ProgressCurve.load(nameOrPath: "bouncy")
            XCTFail("loaded an unknown preset")
        } catch {
            XCTAssertEqual(error.file, "bouncy")
            XCTAssertTrue(error.description.contains("no curve preset named \"bouncy\""), error.description)
            XCTAssertTrue(error.description.contains("smooth"), error.description)
        }
    }
}
