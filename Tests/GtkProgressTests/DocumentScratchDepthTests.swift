import Foundation
@testable import GtkProgress
import XCTest

final class DocumentScratchDepthTests: XCTestCase {
    func testExplore() throws {
        guard ProcessInfo.processInfo.environment["DOCUMENT_TIMING"] == "1" else { throw XCTSkip("") }
        var random = SeededRandom(seed: 11)
        var results: [(Double, String, Int, Int)] = []
        for _ in 0..<4000 {
            let n = 1 + random.next(5)
            var pattern = ""
            for _ in 0..<n {
                let tag = RandomMarkup.tags[random.next(RandomMarkup.tags.count)]
                switch random.next(10) {
                case 0...5: pattern += "<\(tag)>"
                case 6...8: pattern += "</\(tag)>"
                default: pattern += random.next(2) == 0 ? "<\(tag)/>" : "x"
                }
            }
            let page = Array(String(repeating: pattern, count: 200).utf8)
            let (g, m) = page.withUnsafeBufferPointer { b in
                { let m = MarkupPrefilter.prefilter(b, maximumDepth: .max, placeholders: false); return (m.bytes.withUnsafeBufferPointer { GumboTree(parsing: $0).depth }, m.deepestNesting) }()
            }
            results.append((Double(g + 5) / Double(m + 5), pattern, g, m))
        }
        results.sort { $0.0 > $1.0 }
        print("GUMBO DEEPER:"); for r in results.prefix(25) { print(r) }
        print("MODEL DEEPER:"); for r in results.suffix(25) { print(r) }
    }
}
