import Foundation
@testable import GtkProgress
import XCTest

final class DocumentScratchPhaseTests: XCTestCase {
    func testPhases() throws {
        guard ProcessInfo.processInfo.environment["DOCUMENT_TIMING"] == "1" else { throw XCTSkip("") }
        var html = try String(contentsOfFile: "/tmp/gt/gen5.html", encoding: .utf8)
        html.withUTF8 { source in
            for _ in 0..<3 {
                var t = Date()
                func lap(_ name: String) { print(name, String(format: "%.1f ms", Date().timeIntervalSince(t) * 1000)); t = Date() }
                let markup = MarkupPrefilter.prefilter(source)
                lap("prefilter \(markup.bytes.count) bytes, \(markup.placeholders.count) placeholders")
                let tree = markup.bytes.withUnsafeBufferPointer { GumboTree(parsing: $0) }
                lap("gumbo")
                _ = tree
                let doc = DocumentBuilder.build(source: source, baseURL: URL(string: "http://example.org/"))
                lap("whole build")
                _ = doc.dumpText()
                lap("dump")
                var urls: [URL] = []
                for i in 0..<68000 { if let u = URL(string: "item\(i)-2.html", relativeTo: URL(string: "http://example.org/")) { urls.append(u.absoluteURL) } }
                lap("68k url resolutions")
            }
        }
    }
}
final class DocumentScratchPeek: XCTestCase {
    func testPeek() throws {
        guard ProcessInfo.processInfo.environment["DOCUMENT_TIMING"] == "1" else { throw XCTSkip("") }
        var html = try String(contentsOfFile: "/tmp/gt/gen5.html", encoding: .utf8)
        html.withUTF8 { source in
            let markup = MarkupPrefilter.prefilter(source)
            try! Data(markup.bytes).write(to: URL(fileURLWithPath: "/tmp/gt/gen5.pre.html"))
        }
    }
}
