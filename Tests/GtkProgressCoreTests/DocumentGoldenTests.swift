import Foundation
import GtkProgressCore
import XCTest

/// Each `Tests/Fixtures/dump/NAME.html` must dump to `NAME.txt`, and to `NAME.widthN.txt` when laid out and
/// wrapped at N columns. Run with `UPDATE_GOLDEN=1` to rewrite the expected files after a deliberate change, then review the
/// diff.
final class DocumentGoldenTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dump")
    static let baseURL = URL(string: "http://example.org/dir/page.html")!
    static let updating = ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1"

    func testEveryFixtureDumpsAsExpected() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
        let pages = files.filter { $0.hasSuffix(".html") }.sorted()
        XCTAssertGreaterThanOrEqual(pages.count, 12, "fixtures missing from \(Self.fixtures.path)")
        for page in pages {
            let name = String(page.dropLast(".html".count))
            let html = try Data(contentsOf: Self.fixtures.appendingPathComponent(page))
            let document = Document.parse(bytes: [UInt8](html), baseURL: Self.baseURL, textMarks: true)
            try check(document.dumpText(), against: name + ".txt")
            for wrapped in files where wrapped.hasPrefix(name + ".width") && wrapped.hasSuffix(".txt") {
                let width = Int(wrapped.dropFirst(name.count + ".width".count).dropLast(".txt".count))
                XCTAssertNotNil(width, wrapped)
                // Tables are fitted to the width at parse time, prose wraps to it in the dump.
                let fitted = Document.parse(bytes: [UInt8](html), baseURL: Self.baseURL,
                                            layoutWidth: width ?? Document.defaultLayoutWidth, textMarks: true)
                try check(fitted.dumpText(width: width), against: wrapped)
            }
        }
    }

    private func check(_ actual: String, against file: String) throws {
        let url = Self.fixtures.appendingPathComponent(file)
        if Self.updating {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if actual != expected {
            XCTFail("\(file) differs:\n\(Self.firstDifference(expected, actual))\n--- actual ---\n\(actual)")
        }
    }

    private static func firstDifference(_ expected: String, _ actual: String) -> String {
        let a = expected.components(separatedBy: "\n"), b = actual.components(separatedBy: "\n")
        for i in 0..<max(a.count, b.count) where i >= a.count || i >= b.count || a[i] != b[i] {
            let want = i < a.count ? a[i] : "<end>", got = i < b.count ? b[i] : "<end>"
            return "line \(i + 1):\n  expected: \(want.debugDescription)\n  actual:   \(got.debugDescription)"
        }
        return "(no line differs)"
    }
}
