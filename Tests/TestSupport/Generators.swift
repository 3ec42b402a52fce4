/// Inputs shared by the test targets.

/// A generated page for tests that need a large, realistic document.
public enum GeneratedPage {
    /// Headings, paragraphs with links and emphasis, lists, tables and preformatted blocks, until `bytes` long.
    public static func html(bytes: Int, textHeavy: Bool) -> String {
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

/// A small deterministic generator (SplitMix64), so generated pages, fuzz inputs and random progress sequences are
/// the same on every run and a failure can be replayed from its seed.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound.
    public mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
