import Foundation
@testable import GtkProgressCore
import XCTest

/// `--dump` measured against `w3m -dump` on real documentation pages: the documentation of the packages the
/// build and test dependencies install (scripts/install-deps.sh), found under /usr/share/doc. Both are laid out
/// at 80 columns and compared word for word; each page must reach a similarity of 0.97, difflib's ratio
/// (2 × matched words / all words) over the word sequences.
///
/// What is not a word on either side is left out: link numbers and the reference list (w3m prints none), box
/// drawing (table borders), list bullets (w3m's are □ and ☆ below the first level) and the brackets around
/// image descriptions. East Asian characters count one by one, since those lines have no spaces to split at.
final class W3mCorpusTests: XCTestCase {
    static let w3m = "/usr/bin/w3m"
    static let width = 80
    static let threshold = 0.97
    /// Packages whose documentation holds HTML pages, all pulled in by scripts/install-deps.sh test.
    static let packages = ["w3m", "libffi8", "libffi-dev", "base-passwd", "adduser", "fontconfig", "zlib1g-dev",
                           "libexpat1-dev", "xtrans-dev", "libxi-dev", "shared-mime-info"]
    /// Pages where w3m breaks differently on purpose, with the reason.
    static let exceptions = [
        // w3m breaks URLs after a slash when they do not fit the rest of a line; the dump keeps a URL whole.
        "shared-mime-info/shared-mime-info-spec.html/b518.html",
    ]

    func testDumpMatchesW3mWordForWord() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.w3m) else {
            XCTFail("w3m is missing: scripts/install-deps.sh test installs it")
            return
        }
        let pages = Self.corpus()
        XCTAssertGreaterThanOrEqual(pages.filter { $0.path.hasPrefix("/usr/share/doc/w3m/") }.count, 4,
                                    "w3m's own manual pages are part of the corpus")
        for page in pages {
            let bytes = try [UInt8](Data(contentsOf: page))
            let loaded = LoadedPage(decoding: bytes, finalURL: page, status: 200, contentType: nil)
            // w3m applies no CSS: the comparison is of the text without the page's author styles (which hide,
            // for example, texinfo's ¶ anchors).
            let ours = ShownPage(loaded: loaded, layoutWidth: Self.width, styles: .off).document
                .dumpText(width: Self.width, numberLinks: false)
            let theirs = try Self.w3mDump(page)
            let similarity = Self.similarity(Self.words(theirs), Self.words(ours))
            XCTAssertGreaterThanOrEqual(similarity, Self.threshold, "\(page.path) differs from w3m -dump")
        }
    }

    /// The similarity measure itself: equal texts are 1, disjoint ones 0, one word in ten changed about 0.9.
    func testSimilarityIsDifflibsRatio() {
        XCTAssertEqual(Self.similarity(["a", "b", "c"], ["a", "b", "c"]), 1)
        XCTAssertEqual(Self.similarity(["a", "b"], ["c", "d"]), 0)
        let words = (0..<100).map { "w\($0)" }
        var changed = words
        for k in stride(from: 0, to: 100, by: 10) { changed[k] = "x" }
        XCTAssertEqual(Self.similarity(words, changed), 0.9, accuracy: 0.001)
        XCTAssertEqual(Self.words("│Key │ 日本 • a [pic]"), ["Key", "日", "本", "a", "pic"])
    }

    // MARK: Helpers

    static func corpus() -> [URL] {
        var pages: [URL] = []
        for package in packages {
            let root = URL(fileURLWithPath: "/usr/share/doc/\(package)")
            guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where ["html", "htm"].contains(url.pathExtension.lowercased()) {
                let resolved = url.resolvingSymlinksInPath()
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory),
                      !isDirectory.boolValue,
                      !exceptions.contains(where: { url.path.hasSuffix($0) }) else { continue }
                pages.append(resolved)
            }
        }
        return Array(Set(pages)).sorted { $0.path < $1.path }
    }

    static func w3mDump(_ page: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: w3m)
        process.arguments = ["-dump", "-cols", String(width), "-T", "text/html", "-o", "display_charset=UTF-8",
                             page.path]
        process.environment = ["HOME": NSTemporaryDirectory(), "LANG": "C.UTF-8", "TERM": "dumb"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Words, with borders, bullets and brackets taken out and East Asian characters one by one.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isSpace = scalar.properties.isWhitespace || (0x2500...0x257F).contains(value)
                || "•◦▪□☆○●■[]".unicodeScalars.contains(scalar)
            let isWide = GtkProgressCore.isWide(value)
            if isSpace || isWide {
                if !word.isEmpty { words.append(word); word = "" }
                if isWide { words.append(String(scalar)) }
            } else {
                word.unicodeScalars.append(scalar)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// 2 × (longest common subsequence) / (total words), the longest common subsequence found with Myers' O(ND)
    /// difference algorithm; on long texts, past 3 × (1 − threshold) of edits it stops and reports less than that
    /// bound allows.
    static func similarity(_ a: [String], _ b: [String]) -> Double {
        let total = a.count + b.count
        guard total > 0 else { return 1 }
        var ids: [String: Int] = [:]
        func id(_ word: String) -> Int {
            if let id = ids[word] { return id }
            ids[word] = ids.count
            return ids.count - 1
        }
        let x = a.map(id), y = b.map(id)
        let n = x.count, m = y.count
        let maxD = total < 2000 ? total : min(total, Int(Double(total) * 3 * (1 - threshold)) + 2)
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * offset + 1)
        for d in 0...maxD {
            for k in stride(from: -d, through: d, by: 2) {
                var i: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    i = v[offset + k + 1]
                } else {
                    i = v[offset + k - 1] + 1
                }
                var j = i - k
                while i < n && j < m && x[i] == y[j] { i += 1; j += 1 }
                v[offset + k] = i
                if i >= n && j >= m { return Double(total - d) / Double(total) }
            }
        }
        return Double(total - maxD - 1) / Double(total)
    }
}
