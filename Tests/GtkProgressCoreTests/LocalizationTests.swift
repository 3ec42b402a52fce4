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

/// Which language a bundled page is chosen in: as gettext chooses the messages' language.
final class PreferredLanguagesTests: XCTestCase {
    func testTheLocaleOfMessagesThenLanguageAsGettextReadsThem() {
        XCTAssertEqual(PreferredLanguages.from(environment: ["LANG": "ja_JP.UTF-8"]), ["ja_JP", "ja"])
        XCTAssertEqual(PreferredLanguages.from(environment: ["LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"]),
                       ["zh_CN", "zh"])
        XCTAssertEqual(PreferredLanguages.from(environment: ["LC_ALL": "de_DE@euro", "LANG": "ja_JP"]), ["de_DE", "de"])
        XCTAssertEqual(PreferredLanguages.from(environment: ["LANG": "fr_FR.UTF-8", "LANGUAGE": "ja:zh_CN"]),
                       ["ja", "zh_CN", "zh", "fr_FR", "fr"])
        // In the C locale gettext ignores LANGUAGE: everything stays English.
        XCTAssertEqual(PreferredLanguages.from(environment: ["LANG": "C.UTF-8", "LANGUAGE": "ja"]), [])
        XCTAssertEqual(PreferredLanguages.from(environment: [:]), [])
        XCTAssertEqual(PreferredLanguages.from(environment: ["LC_ALL": "", "LANG": "POSIX"]), [])
    }
}
