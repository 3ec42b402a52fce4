import XCTest
@testable import GtkProgressCore

/// Without a catalogue (the tests bind none), messages are the English msgids, with their arguments filled in.
final class LocalizationTests: XCTestCase {
    func testPlaceholdersTakeTheArgumentsInOrder() {
        XCTAssertEqual(Localization.fill("Saved %@ to %@.", ["1.5 KB", "/tmp/a"]), "Saved 1.5 KB to /tmp/a.")
        XCTAssertEqual(Localization.fill("port %ld of %@", [8080, "host"]), "port 8080 of host")
    }

    func testNumberedPlaceholdersLetATranslationReorderThem() {
        XCTAssertEqual(Localization.fill("%2$@ に %1$@ を保存しました", ["1 KB", "/tmp/a"]), "/tmp/a に 1 KB を保存しました")
        XCTAssertEqual(Localization.fill("%2$ld / %1$ld", [3, 7]), "7 / 3")
    }

    func testPercentSignsAndMissingArgumentsStayAsWritten() {
        XCTAssertEqual(Localization.fill("100%% of %@", ["it"]), "100% of it")
        XCTAssertEqual(Localization.fill("50% done", []), "50% done")
        XCTAssertEqual(Localization.fill("%@ and %@", ["one"]), "one and %@")
    }

    func testPluralFormsFallBackToEnglish() {
        XCTAssertEqual(LN("%ld byte", "%ld bytes", 1, 1), "1 byte")
        XCTAssertEqual(LN("%ld byte", "%ld bytes", 2, 2), "2 bytes")
        XCTAssertEqual(ByteCount.seconds(1), "1 second")
        XCTAssertEqual(ByteCount.seconds(0.5), "0.5 seconds")
        XCTAssertEqual(L("A message no catalogue holds."), "A message no catalogue holds.")
    }
}
