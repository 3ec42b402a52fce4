import Foundation
@testable import GtkProgress
import XCTest

/// A page with images in the window, against the loopback server: what is fetched, what shows, and when the load
/// ends.
@MainActor
final class PageImagesTests: XCTestCase {
    let server = TestServer.shared

    override func setUp() async throws {
        try requireDisplay()
    }

    private func makeBrowser() -> Browser {
        Browser(window: Window(), curve: .builtInWeChat, loaderOptions: LoaderOptions())
    }

    @discardableResult
    private func wait(timeout: Double = 15, _ condition: () -> Bool) -> Bool {
        MainLoop.run(until: condition, timeout: timeout)
    }

    /// A /page whose body is `html`.
    private func page(_ title: String, _ html: String) -> URL {
        var parts = URLComponents(url: server.url("/page"), resolvingAgainstBaseURL: false)!
        parts.queryItems = [URLQueryItem(name: "title", value: title), URLQueryItem(name: "body", value: html)]
        return parts.url!
    }

    /// Opens `url` and waits until the load, images included, is over.
    private func open(_ browser: Browser, _ url: URL, file: StaticString = #filePath, line: UInt = #line) {
        browser.open(url, kind: .typed)
        XCTAssertTrue(wait { !browser.model.isLoading && browser.session == nil }, "\(url) loads", file: file, line: line)
    }

    private func looks(_ browser: Browser) -> [Int: ImageLook] { browser.page.images.looks }

    private func isPicture(_ look: ImageLook?) -> Bool { if case .picture = look { return true } else { return false } }

    /// The buffer offset of the first character of `fragment` in the page's text, which leaves out the pictures:
    /// `pictures` of them stand before it.
    private func offset(of fragment: String, in browser: Browser, picturesBefore pictures: Int) throws -> Int {
        let text = browser.page.text
        let scalars = text.unicodeScalars
        return scalars.distance(from: scalars.startIndex, to: try XCTUnwrap(text.range(of: fragment)).lowerBound)
            + pictures
    }

    /// Where the character at `offset` starts on screen, in the view's coordinates.
    private func x(_ browser: Browser, _ offset: Int) -> Double? {
        browser.page.textView.rectangles(fromCharacter: offset, to: offset + 1).first?.x
    }

    private func failure(_ look: ImageLook?) -> String? { if case .failed(let why) = look { return why } else { return nil } }

    func testImagesLoadAndShowInPlace() async throws {
        let browser = makeBrowser()
        open(browser, server.url("/images?count=5&delay=0"))
        let loads = try XCTUnwrap(browser.shownImages)
        XCTAssertEqual(loads.shown, 5)
        for index in 0..<5 { XCTAssertTrue(isPicture(looks(browser)[index]), "image \(index)") }
        XCTAssertEqual(browser.page.imagesInBuffer, 5)
        XCTAssertEqual(browser.chrome.statusText.hasPrefix("Done"), true, browser.chrome.statusText)
        XCTAssertFalse(browser.page.text.contains("Image 0"), "the alt text gives way to the picture")
    }

    func testAWebPageNeverFetchesALocalFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gtkprogress-img-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let local = folder.appendingPathComponent("secret.png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: local)
        let browser = makeBrowser()
        open(browser, page("Refused", "<img src=\"\(local.absoluteString)\" alt=\"Local picture\"><img src=/image?n=1>"))
        let loads = try XCTUnwrap(browser.shownImages)
        XCTAssertFalse(loads.fetched.contains(local), "never read: \(loads.fetched)")
        XCTAssertEqual(loads.fetched.count, 1)
        XCTAssertTrue(failure(looks(browser)[0])?.contains("local file") == true, "\(String(describing: looks(browser)[0]))")
        XCTAssertTrue(isPicture(looks(browser)[1]))
        XCTAssertFalse(browser.model.current?.isError ?? true, "never an error page")
    }

    func testALocalPageShowsALocalImage() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gtkprogress-img-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/images/photo.jpg")
        let html = folder.appendingPathComponent("page.html")
        try "<title>Local</title><p><img src=\"\(photo.absoluteString)\" alt=Photo></p>".write(to: html, atomically: true,
                                                                                             encoding: .utf8)
        let browser = makeBrowser()
        open(browser, html)
        XCTAssertTrue(wait { browser.shownImages?.shown == 1 })
        XCTAssertTrue(isPicture(looks(browser)[0]))
    }

    func testBrokenRefusedAndOversizedImagesLeaveTheirAltText() async throws {
        let browser = makeBrowser()
        server.resetCounts()
        open(browser, page("Broken", """
            <img src="/image?broken=1" alt="Broken cat"> <img src="/image?bomb=1" alt="Bomb">
            <img src="/404"> <img src="data:image/png;base64,@@@" alt="">
            <img src="/image?n=5" alt="Fine">
            """))
        let loads = try XCTUnwrap(browser.shownImages)
        XCTAssertEqual(loads.failed, 4)
        XCTAssertEqual(loads.shown, 1)
        XCTAssertNotNil(failure(looks(browser)[0]))
        XCTAssertTrue(failure(looks(browser)[1])?.contains("100000") == true, "\(String(describing: looks(browser)[1]))")
        XCTAssertNotNil(failure(looks(browser)[2]))
        XCTAssertTrue(isPicture(looks(browser)[4]))
        XCTAssertFalse(browser.model.current?.isError ?? true, "never an error page")
        XCTAssertEqual(browser.model.current?.title, "Broken")
        let labels = frameLabels(browser)
        XCTAssertTrue(labels.contains("Broken cat"), "\(labels)")
        XCTAssertTrue(labels.contains("Bomb"), "\(labels)")
    }

    func testTheLoadEndsOnlyWhenTheSlowImageIsIn() async throws {
        let browser = makeBrowser()
        browser.open(page("Slow", "<p>Text first.</p><img src=\"/image?n=9&delay=1.5\" alt=Slow>"), kind: .typed)
        XCTAssertTrue(wait { browser.page.text.contains("Text first.") && browser.session?.images != nil })
        XCTAssertTrue(browser.indicator.isLoading, "the bar is still under way")
        XCTAssertEqual(browser.chrome.statusText, "Images 0 of 1")
        XCTAssertLessThan(browser.indicator.snapshot.fraction, 0.9,
                          "the document's bytes alone never fill the bar of a page with images")
        XCTAssertTrue(browser.page.textView.isAccessibleBusy, "the page is busy, and the button is Stop")
        XCTAssertTrue(wait { browser.session == nil })
        XCTAssertTrue(isPicture(looks(browser)[0]))
        XCTAssertFalse(browser.indicator.isLoading, "the bar finishes with the image")
    }

    func testStopCancelsTheImages() async throws {
        let browser = makeBrowser()
        browser.open(page("Stopped", "<img src=\"/image?n=1&delay=5\" alt=One><img src=\"/image?n=2&delay=5\">"),
                     kind: .typed)
        XCTAssertTrue(wait { browser.session?.images != nil })
        XCTAssertTrue(wait { browser.loader.subresourceStatistics.running == 2 })
        browser.stop()
        XCTAssertNil(browser.session)
        XCTAssertEqual(browser.loader.subresourceStatistics.running, 0, "every image transfer ended at once")
        XCTAssertFalse(browser.indicator.isLoading)
        XCTAssertEqual(browser.chrome.statusText, "Stopped.")
    }

    func testBackShowsTheImagesWithoutARequest() async throws {
        let browser = makeBrowser()
        open(browser, server.url("/images?count=4&delay=0&title=Pictures"))
        open(browser, server.url("/page?title=Elsewhere"))
        server.resetCounts()
        browser.goBack()
        XCTAssertTrue(wait { browser.model.current?.title == "Pictures" && browser.shownImages?.shown == 4 })
        for index in 0..<4 { XCTAssertTrue(isPicture(looks(browser)[index])) }
        XCTAssertEqual(server.requestCount(for: "/image"), 0, "from the page cache")
        XCTAssertEqual(server.requestCount(for: "/images"), 0)
    }

    func testAnImageInALinkIsPartOfTheLink() async throws {
        let browser = makeBrowser()
        open(browser, page("Linked", "<a href=\"/page?title=Next\"><img src=\"/image?n=3\" alt=Next></a>"))
        let offset = try XCTUnwrap(browser.page.characterOffset(ofImage: 0))
        let link = try XCTUnwrap(browser.page.linkRanges.first { $0.start <= offset && offset < $0.end }?.link,
                                 "the picture's character is in the link's range: a click on it follows the link")
        XCTAssertEqual(browser.page.url(ofLink: link)?.query, "title=Next")
        XCTAssertTrue(isPicture(looks(browser)[0]))
        // Its link's colour and place go with it, not the underline: a picture has no text to underline.
        let tags = browser.page.textView.tagNames(atCharacter: offset)
        XCTAssertTrue(tags.contains("link"), tags.description)
        XCTAssertFalse(tags.contains("underline"), tags.description)
    }

    /// A picture keeps the tags of the character it takes the place of: a line takes its margins, tab stops and
    /// justification from its first character, so a picture starting a centred paragraph, a quotation or a table
    /// row sets its line as the rest of the paragraph is set, not at the page's bare margin.
    func testAPictureStartingALineKeepsItsParagraphsLook() async throws {
        let browser = makeBrowser()
        open(browser, page("Starts", "<p align=center><img src=\"/image?n=1&w=80&h=20\" alt=A> centred</p>"
                            + "<blockquote><img src=\"/image?n=2&w=80&h=20\" alt=B> quoted</blockquote>"
                            + "<table><tr><td><img src=\"/image?n=3&w=80&h=20\" alt=C></td><td>one</td><td>two</td></tr>"
                            + "<tr><td>x</td><td>y</td><td>z</td></tr></table>"))
        XCTAssertTrue((0..<3).allSatisfy { isPicture(looks(browser)[$0]) })
        func tags(_ image: Int) throws -> [String] {
            browser.page.textView.tagNames(atCharacter: try XCTUnwrap(browser.page.characterOffset(ofImage: image)))
        }
        let centred = try tags(0), quoted = try tags(1), row = try tags(2)
        XCTAssertTrue(centred.contains("center"), "\(centred)")
        XCTAssertTrue(quoted.contains { $0.hasPrefix("indent") }, "\(quoted)")
        XCTAssertTrue(row.contains("table0"), "\(row)")
        // The row's cells sit at the table's tab stops: "one" starts where "y" does (three pictures before both).
        let one = try offset(of: "one", in: browser, picturesBefore: 3)
        let y = try offset(of: "\ty", in: browser, picturesBefore: 3) + 1
        XCTAssertTrue(wait { x(browser, one) != nil && x(browser, one) == x(browser, y) },
                      "the picture's row keeps the table's columns: \(String(describing: x(browser, one))) against "
                      + "\(String(describing: x(browser, y)))")
    }

    /// A picture whose size the page does not give takes its own when it arrives: the table holding it measures
    /// its cells again, so the next column starts right of the picture and the rows keep one grid.
    func testATableRefitsWhenAPictureOfNoDeclaredSizeArrives() async throws {
        let browser = makeBrowser()
        open(browser, page("Sizes", "<table><tr><td><img src=\"/image?n=5&w=120&h=20\" alt=D></td><td>one</td></tr>"
                            + "<tr><td>x</td><td>y</td></tr></table>"))
        XCTAssertTrue(isPicture(looks(browser)[0]))
        let one = try offset(of: "one", in: browser, picturesBefore: 1)
        let y = try offset(of: "\ty", in: browser, picturesBefore: 1) + 1
        let view = browser.page.textView
        func x(_ offset: Int) -> Double? { self.x(browser, offset) }
        let picture = try XCTUnwrap(browser.page.characterOffset(ofImage: 0))
        // The picture is as wide as it is (at most the view's width for pictures), more than the one pixel it
        // was measured at before it came.
        let width = try XCTUnwrap(view.objectWidth(atCharacter: picture))
        XCTAssertGreaterThan(width, 32)
        XCTAssertTrue(wait {
            guard let a = x(one), let b = x(y), let left = x(picture) else { return false }
            return a == b && a >= left + Double(width)
        }, "the second column right of the \(width) px picture: \(String(describing: x(one))), "
                      + "\(String(describing: x(y))), picture at \(String(describing: x(picture)))")
    }

    /// One address at several declared sizes (a spacer image indenting replies by depth, an icon at two sizes):
    /// one request and one picture, each image at its own size.
    func testTheSamePictureAtTwoDeclaredSizesShowsAtEach() async throws {
        let browser = makeBrowser()
        open(browser, page("Spacers", "<p><img src=\"/image?n=6&w=40&h=10\" width=40 height=10 alt=a> one</p>"
                            + "<p><img src=\"/image?n=6&w=40&h=10\" width=60 height=10 alt=b> two</p>"
                            + "<p><img src=\"/image?n=6&w=40&h=10\" width=20 alt=c> three</p>"))
        XCTAssertTrue((0..<3).allSatisfy { isPicture(looks(browser)[$0]) })
        let widths = try (0..<3).map { index in
            try XCTUnwrap(browser.page.textView.objectWidth(atCharacter: try XCTUnwrap(browser.page.characterOffset(ofImage: index))))
        }
        XCTAssertEqual(widths, [40, 60, 20], "at most the view's width for pictures, 64 px here")
    }

    /// Each picture is a widget whose accessible a screen reader reaches, as a child of the page's accessible,
    /// with role image and its alt text as name, before it arrives and after; a link made of a picture is named
    /// by that alt text when the keyboard focus reaches it.
    func testAltTextIsEachPicturesAccessibleName() async throws {
        let browser = makeBrowser()
        open(browser, page("Named", "<p>A <img src=\"/image?n=1&delay=0\" alt=\"A red square\" width=40 "
                                + "height=30> and <a href=\"/page?title=Next\"><img src=\"/image?n=2\" "
                                + "alt=\"Next page\"></a> and <img src=\"/image?n=3\" alt=\"\">.</p>"))
        XCTAssertTrue((0..<3).allSatisfy { isPicture(looks(browser)[$0]) })
        let first = try XCTUnwrap(browser.page.pictureWidget(ofImage: 0))
        XCTAssertEqual(first.accessibleName, "A red square")
        XCTAssertEqual(first.accessibleRoleName, "image")
        XCTAssertEqual(browser.page.pictureWidget(ofImage: 1)?.accessibleName, "Next page")
        XCTAssertEqual(browser.page.pictureWidget(ofImage: 2)?.accessibleName ?? "", "", "alt=\"\" names nothing")
        XCTAssertEqual(first.parentPointer, UnsafeMutableRawPointer(browser.page.textView.widget),
                       "in the page's text view, whose accessible lists it among its children")
        // GTK 3's text view lists its anchored widgets newest first (`gtk_container_forall`).
        XCTAssertEqual(browser.page.textView.accessibleChildNames.filter { !$0.isEmpty }.sorted(),
                       ["A red square", "Next page"])
        browser.page.focus()
        XCTAssertTrue(browser.page.focusLink(forward: true))
        XCTAssertEqual(browser.page.focusedLinkURL?.query, "title=Next")
        XCTAssertEqual(browser.page.textView.accessibleDescription?.hasPrefix("Link: Next page, "), true,
                       browser.page.textView.accessibleDescription ?? "")
    }

    /// Past `PageViewImages.widgetLimit` images a page's pictures go in the buffer as pixbufs, not widgets (GTK 3's
    /// text view walks all its anchored widgets at every allocation); they still show, and nothing else changes.
    func testAPageWithManyImagesPutsItsPicturesInTheBuffer() async throws {
        let browser = makeBrowser()
        let count = PageViewImages.widgetLimit + 1
        open(browser, server.url("/images?count=\(count)&delay=0&w=8&h=6"))
        XCTAssertFalse(browser.page.picturesAreWidgets)
        XCTAssertEqual(browser.shownImages?.settled, count)
        guard case .picture(let picture)? = looks(browser)[0] else { return XCTFail("the first is a picture") }
        XCTAssertTrue(picture.isInBuffer)
        XCTAssertNil(browser.page.pictureWidget(ofImage: 0))
        XCTAssertTrue(browser.page.textView.accessibleChildNames.isEmpty, "no widget per picture")

        open(browser, server.url("/images?count=3&delay=0&w=8&h=6"))
        XCTAssertTrue(browser.page.picturesAreWidgets)
        guard case .picture(let small)? = looks(browser)[0] else { return XCTFail("the first is a picture") }
        XCTAssertFalse(small.isInBuffer)
        XCTAssertNotNil(browser.page.pictureWidget(ofImage: 0))
    }

    /// On a screen of scale 2 a picture with the pixels for it is decoded at twice its size on the page, with
    /// a device scale of 2; one with fewer pixels is decoded at its size on the page (scaling it up would add
    /// memory and no detail).
    func testPicturesAreDecodedAtTheScreensScaleWhenTheyHaveThePixels() async throws {
        // 64 × 48 pixels.
        let photo = try Array(Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/images/photo.jpg")))
        func decoded(_ width: Int?, _ height: Int?, maxWidth: Int = 800, scale: Int) -> [Int] {
            guard case .picture(let picture) = PictureDecoder.decodeNow(photo, declaredWidth: width, declaredHeight: height,
                                                                        maxWidth: maxWidth, scale: scale) else { return [] }
            return [picture.width, picture.height, picture.pixelWidth, picture.pixelHeight, picture.scale]
        }
        XCTAssertEqual(decoded(32, 24, scale: 2), [32, 24, 64, 48, 2], "sharp: twice as many pixels as on the page")
        XCTAssertEqual(decoded(64, 48, scale: 2), [64, 48, 64, 48, 1], "no more pixels than on the page: as is")
        XCTAssertEqual(decoded(nil, nil, maxWidth: 40, scale: 2), [40, 30, 80, 60, 2], "fitted to the view's width")
        XCTAssertEqual(decoded(32, 24, scale: 1), [32, 24, 32, 24, 1])
        XCTAssertEqual(PictureDecoder.decodeScale(natural: (6000, 6000), shown: (5000, 5000), screenScale: 2), 1,
                       "never past the largest area")
    }

    func testImagesTurnedOffShowAltTextAndFetchNothingUntilTurnedOn() async throws {
        let browser = makeBrowser()
        browser.setImagesShown(false)
        XCTAssertEqual(browser.sessionWindow.images, false, "the session keeps the choice")
        server.resetCounts()
        open(browser, server.url("/images?count=3&delay=0&title=Off"))
        XCTAssertEqual(server.requestCount(for: "/image"), 0, "no image is asked for")
        XCTAssertNil(browser.shownImages)
        XCTAssertEqual(frameLabels(browser), ["Image 0", "Image 1", "Image 2"], "alt text stands in, framed")
        XCTAssertTrue(failure(looks(browser)[0])?.contains("turned off") == true)
        XCTAssertFalse(browser.indicator.isLoading, "the load is over with the document")

        browser.setImagesShown(true)
        XCTAssertTrue(wait { (0..<3).allSatisfy { self.isPicture(self.looks(browser)[$0]) } })
        for index in 0..<3 { XCTAssertTrue(isPicture(looks(browser)[index]), "image \(index) on again") }
        XCTAssertEqual(server.requestCount(for: "/image"), 3)
        XCTAssertEqual(browser.sessionWindow.images, true)
    }

    func testTurningImagesOffEndsALoadWaitingForThem() async throws {
        let browser = makeBrowser()
        browser.open(page("Waiting", "<p>Text.</p><img src=\"/image?n=4&delay=5\" alt=Late>"), kind: .typed)
        XCTAssertTrue(wait { browser.session?.images != nil })
        browser.setImagesShown(false)
        XCTAssertNil(browser.session, "the load was waiting only for its image")
        XCTAssertEqual(browser.loader.subresourceStatistics.running, 0, "its transfer ended")
        XCTAssertEqual(frameLabels(browser), ["Late"])
        XCTAssertEqual(browser.model.current?.title, "Waiting", "the page stays")
    }

    /// 60 pictures of 600 × 400 (about 56 MB decoded) on a page whose resident budget is 32 MiB: those far from
    /// the view give way to blanks of their size, and come back from their kept bytes, without a request, when
    /// the reader goes there.
    func testPicturesFarFromTheViewAreLetGoAndComeBackWithoutARequest() async throws {
        let browser = makeBrowser()
        browser.chrome.window.setDefaultSize(width: 900, height: 700)
        browser.chrome.window.showAll()
        XCTAssertTrue(wait { browser.page.pictureWidth > 640 }, "the window is shown, wide enough")
        server.resetCounts()
        open(browser, server.url("/images?count=60&delay=0&w=600&h=400&title=Many"))
        let loads = try XCTUnwrap(browser.shownImages)
        XCTAssertEqual(loads.settled, 60, "every image is in")
        XCTAssertEqual(server.requestCount(for: "/image"), 60)
        XCTAssertLessThanOrEqual(loads.pixelBytes, PageImageLoads.residentPixelBudget + 600 * 400 * 4,
                                 "decoded pixels stay within the budget")
        XCTAssertFalse(loads.held.isEmpty, "some pictures far from the view wait as blanks")
        XCTAssertTrue(isPicture(looks(browser)[0]), "the first, on screen, is a picture")
        let last = 59
        if case .held(let w, let h)? = looks(browser)[last] {
            XCTAssertEqual([w, h], [600, 400], "the blank keeps the picture's size, so nothing moves")
        } else if case .none = looks(browser)[last] {
            // It arrived far from the view with the budget spent: its bytes wait undecoded, in the place its
            // declared size keeps.
            XCTAssertTrue(loads.held.contains(try XCTUnwrap(browser.page.document?.images[last].url)))
        } else if !isPicture(looks(browser)[last]) {
            XCTFail("the last image is held, waiting or shown: \(String(describing: looks(browser)[last]))")
        }

        browser.page.scroll(toOffset: 1e9)
        XCTAssertTrue(wait { self.isPicture(self.looks(browser)[last]) }, "the last picture comes back at the end")
        XCTAssertFalse(loads.held.isEmpty, "those in between still wait")
        XCTAssertLessThanOrEqual(loads.pixelBytes, PageImageLoads.residentPixelBudget + 600 * 400 * 4)
        XCTAssertEqual(server.requestCount(for: "/image"), 60, "decoded again from kept bytes: no new request")
    }

    /// A page shown in a view GTK has not laid out yet (a window not drawn, or the first frame still to come) has
    /// every line 0 px high, where GTK places every height on the last line: its images are asked for from the
    /// page's top, not from its bottom.
    func testAPageNotLaidOutYetAsksForItsImagesFromItsTop() async throws {
        let browser = makeBrowser()
        XCTAssertNil(browser.page.textView.charactersNearView(screensAbove: 1, screensBelow: 2),
                     "nothing is near a view that is not laid out")
        open(browser, server.url("/images?count=6&delay=0"))
        let loads = try XCTUnwrap(browser.shownImages)
        XCTAssertEqual(loads.fetched.map { URLComponents(url: $0, resolvingAgainstBaseURL: false)?
                           .queryItems?.first { $0.name == "n" }?.value },
                       (0..<6).map { String($0) }, "asked for in the page's order")
    }

    /// Once the lines on screen are laid out, near is the screenful and the screens around it, even where GTK has
    /// not laid out the lines below yet: never the whole page.
    func testNearTheViewIsAFewScreensOnceLaidOut() async throws {
        let window = Window()
        window.setDefaultSize(width: 600, height: 400)
        let view = TextView()
        window.add(view)
        window.showAll()
        let text = Array(String(repeating: "A line of text.\n", count: 20_000).utf8)
        text.withUnsafeBufferPointer { view.appendUTF8($0, tagging: []) }
        XCTAssertTrue(wait { view.charactersNearView(screensAbove: 1, screensBelow: 2) != nil }, "laid out on screen")
        let near = try XCTUnwrap(view.charactersNearView(screensAbove: 1, screensBelow: 2))
        XCTAssertEqual(near.lowerBound, 0, "at the top, near starts at the page's top")
        XCTAssertGreaterThan(near.upperBound, view.visibleCharacters.upperBound, "and reaches below the screen")
        XCTAssertLessThan(near.upperBound, 16 * 400, "a few screens of 16-character lines, not the whole page")
        window.close()
    }

    func testImageTagsAreNoticedAsTheyArrive() async {
        XCTAssertTrue(ImageTags.occur(in: Array("<p>a <IMG src=x>".utf8)[...]))
        XCTAssertTrue(ImageTags.occur(in: Array("<Picture>".utf8)[...]))
        XCTAssertFalse(ImageTags.occur(in: Array("<p>an image</p><i>mg</i><im".utf8)[...]))
        XCTAssertFalse(ImageTags.occur(in: Array("<".utf8)[...]))
        XCTAssertFalse(ImageTags.occur(in: Array("<pictur".utf8)[...]))
        XCTAssertTrue(ImageTags.occur(in: Array("x<<<iMg".utf8)[...]), "a tag at the very end")
    }

    /// A page that arrived faster than its progress events were taken (a local file: read in 256 KB pieces, the
    /// first event finding megabytes in) is looked through a bounded share per event, and the looks, one per
    /// event, still see every byte, a tag cut by the end of one look included.
    func testImageTagsAreLookedForABoundedShareAtEachEvent() async {
        let size = 6 * 1024 * 1024
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: size)
        // `<img` across the end of the third look.
        let cut = 3 * ImageTags.bytesPerLook
        bytes.replaceSubrange(cut - 2..<cut + 2, with: Array("<img".utf8))
        var scanned = 0, looks = 0, found: Int?
        for _ in 0..<(size / (256 * 1024)) {
            guard let look = ImageTags.nextLook(scanned: scanned, arrived: size) else { break }
            XCTAssertLessThanOrEqual(look.count, ImageTags.bytesPerLook + ImageTags.overlap)
            XCTAssertLessThanOrEqual(look.lowerBound, scanned, "no byte is skipped")
            scanned = look.upperBound
            looks += 1
            if found == nil, ImageTags.occur(in: bytes[look]) { found = looks }
        }
        XCTAssertEqual(scanned, size, "every byte was looked at by the last event")
        XCTAssertEqual(found, 4, "the tag cut by the third look's end is seen by the fourth")
        XCTAssertNil(ImageTags.nextLook(scanned: size, arrived: size))
        XCTAssertEqual(ImageTags.nextLook(scanned: 100, arrived: 150), 92..<150)
    }

    /// The texts of the frames standing for images that could not be shown.
    private func frameLabels(_ browser: Browser) -> [String] {
        browser.page.images.offsets.compactMap { browser.page.textView.framedText(atCharacter: $0) }
    }
}
