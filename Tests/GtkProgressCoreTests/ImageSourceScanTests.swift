import FoundationEssentials
@testable import GtkProgressCore
import XCTest

/// The images a document names, read from its bytes as they arrive: only those the parsed document surely has
/// at the same address, whatever pieces the bytes come in.
final class ImageSourceScanTests: XCTestCase {
    private let base = URL(string: "https://example.org/dir/page.html")!

    private func scanned(_ html: String) -> [String] {
        var scan = ImageSourceScan()
        return scan.scan(Array(html.utf8), base: base).map(\.absoluteString)
    }

    private let page = """
        <!DOCTYPE html><html><head><title>t</title><script>var s = "<img src=no-script.png>";</script>
        <style>p { content: "<img src=no-style.png>" }</style></head><body>
        <!-- <img src=no-comment.png> -->
        <p><img src="a.png" alt=a> <IMG SRC='/b.png?x=1&amp;y=2'> <img alt="x>y" src=c.png width=3>
        <img src="lazy.png" loading=lazy> <img src="wide.png" srcset="wide-2x.png 2x">
        <picture><source srcset="p.webp" type="image/webp"><img src="p.png"></picture>
        <img src="  d.png  "> <img src="https://other.example/e.png"> <img src="&#x66;.png">
        <textarea><img src=no-textarea.png></textarea><img src=g.png>
        """

    func testTheImagesADocumentSurelyHasAreNamedInOrder() {
        XCTAssertEqual(scanned(page), ["https://example.org/dir/a.png", "https://example.org/b.png?x=1&y=2",
                                       "https://example.org/dir/c.png", "https://example.org/dir/d.png",
                                       "https://other.example/e.png", "https://example.org/dir/f.png",
                                       "https://example.org/dir/g.png"])
    }

    /// Each address named is one the parse gives the document's images (with the window's choices at their
    /// defaults), in the same order.
    func testWhatItNamesTheParsedDocumentHas() {
        let document = Document.parse(html: page, baseURL: base,
                                      images: ImageSelection(scale: 1, viewportWidth: 1000, types: ["image/png"]))
        let parsed = document.images.compactMap(\.url?.absoluteString)
        let named = scanned(page)
        XCTAssertEqual(parsed.filter(named.contains), named, "parsed: \(parsed)")
    }

    func testBytesInPiecesNameTheSameAsAtOnce() {
        let bytes = Array(page.utf8)
        let whole = scanned(page)
        for cut in stride(from: 1, to: bytes.count, by: 7) {
            var scan = ImageSourceScan()
            let named = scan.scan(Array(bytes[..<cut]), base: base) + scan.scan(bytes, base: base)
            XCTAssertEqual(named.map(\.absoluteString), whole, "cut at \(cut)")
        }
        var scan = ImageSourceScan()
        var named: [URL] = []
        for _ in 0..<bytes.count where scan.scanned < bytes.count {
            named += scan.scan(bytes, base: base, limit: 5)
        }
        XCTAssertEqual(named.map(\.absoluteString), whole, "five bytes a look")
    }

    func testABaseEndsTheLookAndUnknownReferencesAreLeftToTheParse() {
        XCTAssertEqual(scanned("<img src=a.png><base href=/x/><img src=b.png>"), ["https://example.org/dir/a.png"])
        XCTAssertEqual(scanned("<img src='a&copy;.png'><img src='caf\u{E9}.png'><img src=b.png>"),
                       ["https://example.org/dir/b.png"])
        XCTAssertEqual(scanned("<img src=a.png"), [], "a tag not all in yet")
        XCTAssertEqual(scanned("<img src=\"\"><img><img src=c.png>"), ["https://example.org/dir/c.png"])
    }
}
