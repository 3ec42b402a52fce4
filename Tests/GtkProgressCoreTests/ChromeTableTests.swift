import Foundation
@testable import GtkProgressCore
import XCTest

/// The key table and what is generated from it (the shortcuts window), the About facts read from the AppStream
/// file, and the status while a document is received.
final class ChromeTableTests: XCTestCase {
    /// One table for both: every key the shortcuts window lists triggers, in its scope, the command listed beside it.
    func testEveryListedKeyDoesWhatTheShortcutsWindowSays() {
        var listed = 0
        for binding in KeyBinding.all where !binding.isAlias {
            let chord = KeyChord(binding.key, control: binding.control, alt: binding.alt, shift: binding.shift ?? false)
            let focus: BrowserCommand.Focus = switch binding.scope {
            case .window: .other
            case .page: .page
            case .find: .find
            }
            XCTAssertEqual(BrowserCommand.command(for: chord, focus: focus), binding.command, "\(binding.accelerator)")
            listed += 1
        }
        let rows = ShortcutsSheet.groups.flatMap(\.rows)
        XCTAssertEqual(rows.flatMap(\.accelerators).count, listed, "each key listed once")
        let xml = ShortcutsSheet.builderXML
        for row in rows {
            XCTAssertTrue(xml.contains(GeneratedPages.escape(row.accelerators.joined(separator: " "))), row.command.title)
        }
        // The keys the GNOME HIG asks of every application, and the page's own.
        let accelerators = Set(rows.flatMap(\.accelerators))
        for key in ["F10", "F1", "<Primary>question", "<Primary>n", "<Primary>q", "<Alt>Left", "Tab", "space"] {
            XCTAssertTrue(accelerators.contains(key), key)
        }
        XCTAssertEqual(BrowserCommand.command(for: KeyChord("F10"), focus: .address), .primaryMenu)
        XCTAssertEqual(BrowserCommand.command(for: KeyChord("question", control: true, shift: true), focus: .page),
                       .shortcuts)
        XCTAssertEqual(BrowserCommand.command(for: KeyChord("F1"), focus: .page), .shortcuts)
    }

    /// Every command has a key and a title (nothing in the enum is unreachable from the keyboard).
    func testEveryCommandHasAKey() {
        for command in BrowserCommand.allCases {
            XCTAssertTrue(KeyBinding.all.contains { $0.command == command && !$0.isAlias }, "\(command)")
            XCTAssertFalse(command.title.isEmpty)
        }
    }

    func testAboutFactsComeFromTheMetainfo() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data/org.gtkprogress.Viewer.metainfo.xml")
        let xml = try String(contentsOf: path, encoding: .utf8)
        let metadata = AppMetadata(metainfo: xml)
        XCTAssertEqual(metadata.name, "GtkProgress")
        XCTAssertEqual(metadata.version, "0.1.0")
        XCTAssertEqual(CommandLineOptions.version, "gtkprogress " + (metadata.version ?? ""), "one version")
        XCTAssertEqual(metadata.website, "https://gtkprogress.example.org/")
        XCTAssertEqual(metadata.summary?.hasPrefix("Read web pages as text"), true)
        XCTAssertEqual(AppMetadata(metainfo: xml, languages: ["ja_JP.UTF-8", "ja_JP", "ja", "C"]).summary?.hasPrefix("ウェブページ"), true)
        XCTAssertEqual(AppMetadata(metainfo: xml, languages: ["de"]).summary, metadata.summary)
        let made = AppMetadata(metainfo: "<component><project_license>MIT &amp; X</project_license>"
            + "<releases><release date=\"x\" version=\"2.0\"/><release version=\"1.0\"/></releases></component>")
        XCTAssertEqual(made.license, "MIT & X")
        XCTAssertEqual(made.version, "2.0", "the newest release, listed first")
        XCTAssertNil(made.website)
        XCTAssertNil(AppMetadata(metainfo: "<name>unclosed").name)
    }

    func testTransferStatusSaysHowMuch() {
        XCTAssertEqual(TransferStatus(received: 1_258_291, expected: 3_565_158, bytesPerSecond: 245_760).description,
                       "1.2 MB of 3.4 MB, 240.0 KB/s")
        XCTAssertEqual(TransferStatus(received: 1_258_291, expected: nil, bytesPerSecond: nil).description, "1.2 MB so far")
        XCTAssertEqual(TransferStatus(received: 2048, expected: nil, bytesPerSecond: 512).description,
                       "2.0 KB so far, 512 bytes/s")
        XCTAssertEqual(TransferStatus(received: 100, expected: 1000, bytesPerSecond: nil).description,
                       "100 bytes of 1000 bytes")
        // A server that sent more than it announced: the length is no longer said.
        XCTAssertEqual(TransferStatus(received: 5000, expected: 10, bytesPerSecond: nil).description, "4.9 KB so far")
        XCTAssertEqual(TransferStatus(received: .max, expected: nil, bytesPerSecond: .greatestFiniteMagnitude).description.isEmpty, false)
    }

    func testTransferRateOverASlidingWindow() {
        var rate = TransferRate()
        rate.note(bytes: 0, at: 10)
        XCTAssertNil(rate.bytesPerSecond(at: 10.2), "too soon to say")
        for step in 1...40 { rate.note(bytes: Int64(step) * 10_000, at: 10 + Double(step) * 0.1) }
        XCTAssertEqual(rate.bytesPerSecond(at: 14)!, 100_000, accuracy: 5_000)
        // Then a stall of two seconds: the rate falls.
        XCTAssertLessThan(rate.bytesPerSecond(at: 16)!, 50_000)
        // A new transfer (fewer bytes) starts again.
        rate.note(bytes: 10, at: 20)
        XCTAssertNil(rate.bytesPerSecond(at: 20))
    }
}
