import Foundation
import GtkProgress
import XCTest

/// Prints how long a 5 MB page takes to parse and dump; asserts nothing about time, which depends on the machine.
/// Opt in with `DOCUMENT_TIMING=1` and measure the release build:
/// `DOCUMENT_TIMING=1 swift test -c release --filter DocumentTimingTests`
/// (optionally `DOCUMENT_TIMING_FILE=page.html` to time a page of your own).
final class DocumentTimingTests: XCTestCase {
    func testTimeOfFiveMegabytePage() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DOCUMENT_TIMING"] == "1" else { throw XCTSkip("set DOCUMENT_TIMING=1 to time") }
        let pages: [(String, String)]
        if let file = environment["DOCUMENT_TIMING_FILE"] {
            pages = [(file, try String(contentsOfFile: file, encoding: .utf8))]
        } else {
            pages = [("mixed markup", Self.generatedPage(bytes: 5_000_000, textHeavy: false)),
                     ("long paragraphs", Self.generatedPage(bytes: 5_000_000, textHeavy: true))]
        }
        for (name, html) in pages {
            var best = Double.infinity
            var dumpBytes = 0
            for _ in 0..<5 {
                let start = Date()
                let document = Document.parse(html: html, baseURL: URL(string: "http://example.org/"))
                let dump = document.dumpText()
                best = min(best, Date().timeIntervalSince(start))
                dumpBytes = dump.utf8.count
            }
            print(String(format: "document timing: %@, %d bytes of HTML: parse + dumpText %.1f ms (best of 5), "
                         + "%d bytes dumped", name, html.utf8.count, best * 1000, dumpBytes))
        }
    }

    /// Headings, paragraphs with links and emphasis, lists, tables and preformatted blocks, until `bytes` long.
    static func generatedPage(bytes: Int, textHeavy: Bool) -> String {
        var random = SeededRandom(seed: 1)
        let words = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "lorem", "ipsum", "dolor",
                     "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod", "tempor"]
        func sentence(_ count: Int) -> String {
            (0..<count).map { _ in words[random.next(words.count)] }.joined(separator: " ")
        }
        var html = "<!DOCTYPE html><html><head><title>Big page</title><style>p{color:red}</style></head><body>\n"
        var section = 0
        while html.utf8.count < bytes {
            section += 1
            if textHeavy {
                html += "<p>\(sentence(200))</p>\n"
                continue
            }
            html += "<h2>Section \(section)</h2>\n<p>\(sentence(20)) <a href=\"/page/\(section)\">link \(section)</a> "
            html += "\(sentence(10)) <b>\(sentence(3))</b> <em>\(sentence(2))</em> &amp; more.</p>\n<ul>"
            for item in 0..<3 { html += "<li>\(sentence(5)) <a href='item\(section)-\(item).html'>item</a></li>" }
            html += "</ul>\n"
            if section % 5 == 0 {
                html += "<table><tr><th>a</th><th>b</th></tr>"
                for row in 0..<3 { html += "<tr><td>\(sentence(2))</td><td>\(row)</td></tr>" }
                html += "</table>\n"
            }
            if section % 7 == 0 { html += "<pre>  code \(section)\n    indented\tline</pre>\n" }
        }
        return html + "</body></html>\n"
    }
}

/// A small deterministic generator (SplitMix64), so generated pages and fuzz inputs are the same on every run.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound.
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
