import XCTest
@testable import GtkProgressCore

final class CommandLineOptionsTests: XCTestCase {
    private func parse(_ args: String...) -> CommandLineOptions? { try? CommandLineOptions.parse(args).get() }
    private func failure(_ args: String...) -> String? {
        if case .failure(let f) = CommandLineOptions.parse(args) { return f.description }
        return nil
    }

    /// Without a catalogue for the language, --help is the text as written: splitting it into messages by option
    /// and paragraph and joining the translations loses nothing.
    func testLocalizedUsageWithoutACatalogueIsTheUsage() {
        XCTAssertEqual(CommandLineOptions.localizedUsage, CommandLineOptions.usage)
        let line = "    --finish-at SECONDS      with --print-curve: the load finishes at this time"
        let split = CommandLineOptions.optionColumnEnd(line)
        XCTAssertEqual(split.map { String(line[$0...]) }, "with --print-curve: the load finishes at this time")
        XCTAssertNil(CommandLineOptions.optionColumnEnd("Escape stop, Ctrl+L address entry."))
    }

    func testBrowseWithTargetsAndOptions() {
        let o = parse("--curve", "smooth", "--throttle", "20000", "example.org", "b.html")
        XCTAssertEqual(o?.action, .browse)
        XCTAssertEqual(o?.curve, "smooth")
        XCTAssertEqual(o?.throttle, 20000)
        XCTAssertEqual(o?.targets, ["example.org", "b.html"])
    }

    func testNoImages() {
        XCTAssertEqual(parse("--no-images", "a.html")?.noImages, true)
        XCTAssertEqual(parse("--no-images", "a.html")?.targets, ["a.html"])
        XCTAssertEqual(parse("a.html")?.noImages, false)
    }

    func testNewSession() {
        XCTAssertEqual(parse("--new-session")?.newSession, true)
        XCTAssertEqual(parse("--new-session")?.targets, [])
        XCTAssertEqual(parse("a.html")?.newSession, false)
        XCTAssertEqual(parse("--", "--new-session")?.targets, ["--new-session"])
    }

    func testPrintCurveWithEqualsForm() {
        let o = parse("--print-curve=wechat", "--finish-at", "2.5", "--until=4")
        XCTAssertEqual(o?.action, .printCurve("wechat"))
        XCTAssertEqual(o?.finishAt, 2.5)
        XCTAssertEqual(o?.until, 4)
    }

    func testHelpWinsAndDumpNeedsOneTarget() {
        XCTAssertEqual(parse("--version", "--help")?.action, .help)
        XCTAssertEqual(parse("--dump", "a.html")?.action, .dump)
        XCTAssertNotNil(failure("--dump"))
        XCTAssertNotNil(failure("--dump", "a", "b"))
    }

    func testDumpWidth() {
        XCTAssertEqual(parse("--dump", "a.html", "--width", "100")?.width, 100)
        XCTAssertEqual(parse("--width=72", "--dump", "a.html")?.width, 72)
        XCTAssertNil(parse("--dump", "a.html")?.width)
        XCTAssertEqual(failure("--dump", "a.html", "--width", "wide"),
                       "--width needs a number of columns from 20 to 10000, not “wide”.")
        XCTAssertNotNil(failure("--width", "5", "--dump", "a.html"))
        XCTAssertTrue(CommandLineOptions.usage.contains("--width COLUMNS"))
    }

    func testBadInputGetsAClearMessage() {
        XCTAssertEqual(failure("--bogus"), "Unknown option “--bogus”. Try gtkprogress --help.")
        XCTAssertEqual(failure("--curve"), "--curve needs a value.")
        XCTAssertEqual(failure("--throttle", "fast"),
                       "--throttle needs a positive number of bytes per second, not “fast”.")
        XCTAssertEqual(failure("--print-curve", "x", "--until", "-1"), "--until needs a number of seconds, not “-1”.")
    }

    /// Each tenth of a second is a printed line: `--until 1e308` would print until the disk or memory ran out.
    func testPrintCurveTimesAreBoundedToAnHour() {
        XCTAssertEqual(failure("--print-curve", "wechat", "--until", "1e308"),
                       "--until needs a number of seconds from 0 to 3600, not “1e308”.")
        XCTAssertEqual(failure("--print-curve", "wechat", "--finish-at=3600.5"),
                       "--finish-at needs a number of seconds from 0 to 3600, not “3600.5”.")
        XCTAssertEqual(parse("--print-curve", "wechat", "--until", "3600", "--finish-at", "3600")?.until, 3600)
        XCTAssertEqual(parse("--print-curve", "wechat", "--until", "3600", "--finish-at", "3600")?.finishAt, 3600)
    }

    /// A curve file's finish may reset at any time it likes; the timeline printed stops at the hour all the same.
    func testATimelineEndsAtTheHourWhateverTheCurveSays() {
        var curve = ProgressCurve.builtInWeChat
        curve.finish.reset = 1e300
        curve.finish.fadeEnd = 1e300
        let lines = CurveTimeline.render(curve: curve, finishAt: 1).split(separator: "\n")
        XCTAssertEqual(lines.count, 36_001, "0.0 to 3600.0 by tenths")
        XCTAssertEqual(lines.last?.split(separator: "\t").first, "3600.0")
    }

    func testDoubleDashEndsOptions() {
        XCTAssertEqual(parse("--", "--help")?.targets, ["--help"])
    }
}

final class CommandLineLoadOnlyTests: XCTestCase {
    func testLoadOnlyNeedsOneURL() {
        XCTAssertEqual(try? CommandLineOptions.parse(["--load-only", "http://x.test/"]).get().action, .loadOnly)
        if case .success = CommandLineOptions.parse(["--load-only"]) { XCTFail("needs a URL") }
    }
}
