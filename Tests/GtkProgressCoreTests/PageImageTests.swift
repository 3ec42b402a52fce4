import FoundationEssentials
@testable import GtkProgressCore
import XCTest

/// The document's images: where they stand, which source is chosen, and what a hostile page cannot do.
final class PageImageTests: XCTestCase {
    private let base = URL(string: "https://example.org/dir/page.html")!

    private func window(_ html: String, scale: Double = 1, width: Int = 1000,
                        types: Set<String> = ["image/png", "image/jpeg"]) -> Document {
        Document.parse(html: html, baseURL: base,
                       images: ImageSelection(scale: scale, viewportWidth: width, types: types))
    }

    func testAnImageIsOneObjectCharacterWhereItStands() {
        let document = window("<p>before <img src=a.png alt='A cat' width=40 height=30> after</p>")
        XCTAssertEqual(document.text, "before \u{FFFC} after")
        XCTAssertEqual(document.images.count, 1)
        let image = document.images[0]
        XCTAssertEqual(Array(document.storage.bytes[image.offset..<image.offset + 3]), Array("\u{FFFC}".utf8))
        XCTAssertEqual(image.url, URL(string: "https://example.org/dir/a.png"))
        XCTAssertEqual(image.alt, "A cat")
        XCTAssertEqual(image.width, 40)
        XCTAssertEqual(image.height, 30)
        XCTAssertFalse(image.lazy)
    }

    func testTheDumpKeepsAltTextAndAnImageWithoutAltLeavesNothing() {
        let html = "<p>a <img src=x.png alt='the  alt'> b <img src=y.png> c</p>"
        let dump = Document.parse(html: html, baseURL: base)
        XCTAssertEqual(dump.text, "a [the alt] b c")
        XCTAssertTrue(dump.images.isEmpty)
        XCTAssertEqual(window(html).images.count, 2)
    }

    func testSrcsetIsChosenForTheScaleFactor() {
        let html = "<img src=1.png srcset='1.png 1x, 2.png 2x, 3.png 3x'>"
        XCTAssertEqual(window(html, scale: 1).images[0].url?.lastPathComponent, "1.png")
        XCTAssertEqual(window(html, scale: 2).images[0].url?.lastPathComponent, "2.png")
        XCTAssertEqual(window(html, scale: 4).images[0].url?.lastPathComponent, "3.png", "the largest when none suffices")
        let widths = "<img src=s.png srcset='small.png 400w, big.png 1600w'>"
        XCTAssertEqual(window(widths, width: 800).images[0].url?.lastPathComponent, "big.png",
                       "400w in an 800 px viewport is half a pixel per pixel: too small")
        XCTAssertEqual(window(widths, width: 300).images[0].url?.lastPathComponent, "small.png")
        XCTAssertEqual(window(widths, width: 300).images[0].candidates.last?.lastPathComponent, "s.png",
                       "src stays a fallback")
    }

    func testSrcsetParsingFollowsTheSpec() {
        let candidates = Srcset.parse("a.png, data:image/png;base64,AAAA 2x,c.png 3x bogus, d.png 1.5x", viewportWidth: 1000)
        XCTAssertEqual(candidates.map(\.url), ["a.png", "data:image/png;base64,AAAA", "d.png"])
        XCTAssertEqual(candidates.map(\.density), [1, 2, 1.5])
        XCTAssertTrue(Srcset.parse("e.png -1x, f.png 0w, g.png 1e999x", viewportWidth: 1000).isEmpty)
    }

    func testPictureSourcesComeBeforeTheImage() {
        let html = """
            <picture>
              <source srcset="photo.avif" type="image/avif">
              <source srcset="wide.jpg" media="(min-width: 1200px)">
              <source srcset="photo.jpg 1x, photo@2x.jpg 2x" type="image/jpeg">
              <img src="fallback.png" alt="Photo">
            </picture>
            """
        XCTAssertEqual(window(html, scale: 2).images[0].url?.lastPathComponent, "photo@2x.jpg",
                       "AVIF is not read here and the media query does not hold")
        XCTAssertEqual(window(html, width: 1300).images[0].url?.lastPathComponent, "wide.jpg")
        XCTAssertEqual(window(html, types: ["image/avif"]).images[0].url?.lastPathComponent, "photo.avif")
        XCTAssertEqual(window(html).images[0].candidates.last?.lastPathComponent, "fallback.png")
        XCTAssertEqual(window(html).images[0].alt, "Photo")
    }

    func testInputTypeImageAndLazyAndLinkedImages() {
        let document = window("""
            <form><input type=image src=go.png alt=Go></form>
            <a href=next.html><img src=n.png loading=lazy></a>
            """)
        XCTAssertEqual(document.images.count, 2)
        XCTAssertEqual(document.images[0].url?.lastPathComponent, "go.png")
        XCTAssertEqual(document.images[0].alt, "Go")
        XCTAssertTrue(document.images[1].lazy)
        let link = try! XCTUnwrap(document.images[1].link)
        XCTAssertEqual(document.links[link]?.lastPathComponent, "next.html")
        XCTAssertFalse(document.text.contains("[next.html]"), "the image is what is clicked")
    }

    func testBaseHrefResolvesImagesAsLinks() {
        let document = window("<base href='https://cdn.example.net/img/'><img src=a.png>")
        XCTAssertEqual(document.images[0].url?.absoluteString, "https://cdn.example.net/img/a.png")
    }

    func testHostileSizesAreClamped() {
        let document = window("""
            <img src=a.png width=9223372036854775807 height=-5><img src=b.png width=99999999999999999999999 height=12px>
            <img src=c.png width=abc>
            """)
        XCTAssertEqual(document.images[0].width, PageImage.largestDimension)
        XCTAssertNil(document.images[0].height, "a negative size is no size")
        XCTAssertEqual(document.images[1].width, PageImage.largestDimension)
        XCTAssertEqual(document.images[1].height, 12)
        XCTAssertNil(document.images[2].width)
    }

    func testDataURLsDecodeInPlace() throws {
        let png = try XCTUnwrap(DataURL.decode("data:image/png;base64,iVBO Rw0K\nGgo=", limit: 100))
        XCTAssertEqual(png.mimeType, "image/png")
        XCTAssertEqual(png.bytes, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let text = try XCTUnwrap(DataURL.decode("data:,a%20b%zz", limit: 100))
        XCTAssertEqual(text.mimeType, "text/plain")
        XCTAssertEqual(text.bytes, Array("a b%zz".utf8))
        XCTAssertNil(DataURL.decode("data:image/png;base64,@@@@", limit: 100), "not base64")
        XCTAssertNil(DataURL.decode("data:image/png;base64," + String(repeating: "A", count: 4000), limit: 1000),
                     "past the size cap")
        XCTAssertNil(DataURL.decode("https://example.org/,", limit: 100))
    }

    func testManyImagesInOneParentStayLinear() {
        let html = "<div>" + String(repeating: "<img src=a.png>", count: 20_000) + "</div>"
        XCTAssertEqual(window(html).images.count, 20_000)
    }

    func testImagesInTableCellsShowTheirAltText() {
        let document = window("<table><tr><td><img src=a.png alt=cell></td><td>x</td></tr></table>")
        XCTAssertTrue(document.text.contains("[cell]"))
        XCTAssertTrue(document.images.isEmpty)
    }
}
