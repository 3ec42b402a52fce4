import XCTest
@testable import GtkProgress
@testable import GtkProgressLoading
@testable import GtkProgressCore

/// A clock the tests move by hand.
final class TestClock {
    var now = 1000.0
    func read() -> Double { now }
}

/// The bar's pixels: painted offscreen on a Cairo image at scale 1 and 2, and drawn by GTK in a real window.
/// `@MainActor` with async tests: the GTK layer is main-actor isolated, and XCTest on Linux runs async tests of a
/// main-actor class on the main thread (DESIGN.md, "Swift over GTK").
@MainActor
final class ProgressBarViewTests: XCTestCase {
    static let blue = Pixel(red: 0x35, green: 0x84, blue: 0xe4, alpha: 255)
    static let clear = Pixel(red: 0, green: 0, blue: 0, alpha: 0)

    func paint(fraction: Double, opacity: Double = 1, width: Int = 400, scale: Int,
               rightToLeft: Bool = false) -> CairoImageSurface {
        let surface = CairoImageSurface(width: width, height: 10, scale: scale)
        surface.draw { cr in
            ProgressBarView.paint(ProgressSnapshot(fraction: fraction, opacity: opacity, visible: true), on: cr,
                                  barWidth: width, scale: scale, rightToLeft: rightToLeft,
                                  color: ProgressBarView.fallbackColor)
        }
        return surface
    }

    /// Columns painted in device row `y`.
    func filledColumns(_ surface: CairoImageSurface, row y: Int) -> [Int] {
        (0..<surface.deviceWidth).filter { surface.pixel(x: $0, y: y).alpha > 0 }
    }

    func testWidthHeightAndColourAtSeveralFractions() async {
        for scale in [1, 2] {
            for fraction in [0.1, 0.25, 0.35, 0.5, 0.6, 0.9, 0.95, 1.0, 1.0 / 3] {
                let surface = paint(fraction: fraction, scale: scale)
                let expected = fraction * 400 * Double(scale)
                let columns = filledColumns(surface, row: 0)
                XCTAssertEqual(Double(columns.count), expected, accuracy: 1, "width at \(fraction) ×\(scale)")
                XCTAssertEqual(columns.first, 0, "grows from the left")
                XCTAssertEqual(columns, Array(0..<columns.count), "one solid run")
                for y in 0..<surface.deviceHeight {
                    let row = filledColumns(surface, row: y)
                    XCTAssertEqual(row, y < 3 * scale ? columns : [], "row \(y) at \(fraction) ×\(scale)")
                }
                XCTAssertEqual(surface.pixel(x: 0, y: 0), Self.blue)
                XCTAssertEqual(surface.pixel(x: columns.count - 1, y: 3 * scale - 1), Self.blue)
            }
        }
    }

    /// The theme's accent as it is where it stands out from the page; a pale accent on a white page is darkened
    /// until it has the 3:1 WCAG asks of graphics.
    func testTheAccentKeepsThreeToOneOnThePage() async {
        let accent = RGBA(red: 0x35 / 255.0, green: 0x84 / 255.0, blue: 0xe4 / 255.0)
        let white = RGBA(red: 1, green: 1, blue: 1), dark = RGBA(red: 0x2d / 255.0, green: 0x2d / 255.0, blue: 0x2d / 255.0)
        XCTAssertEqual(ProgressBarView.color(theme: accent, page: white), accent)
        XCTAssertEqual(ProgressBarView.color(theme: accent, page: dark), accent, "3.65:1 on Adwaita's dark base")
        XCTAssertEqual(ProgressBarView.color(theme: nil, page: nil), ProgressBarView.fallbackColor)
        let pale = RGBA(red: 0.8, green: 0.9, blue: 1)
        let fixed = ProgressBarView.color(theme: pale, page: white)
        XCTAssertGreaterThanOrEqual(Contrast.ratio(fixed.contrastColor, white.contrastColor), 3)
        XCTAssertGreaterThan(fixed.blue, fixed.red, "still the theme's hue")
    }

    func testNothingPaintedAtZeroOrWhenHidden() async {
        XCTAssertEqual(filledColumns(paint(fraction: 0, scale: 1), row: 0), [])
        let surface = CairoImageSurface(width: 100, height: 5)
        surface.draw { cr in
            ProgressBarView.paint(.hidden, on: cr, barWidth: 100, scale: 1, rightToLeft: false, color: ProgressBarView.fallbackColor)
        }
        XCTAssertEqual(filledColumns(surface, row: 0), [])
    }

    func testRightToLeftGrowsFromTheRight() async {
        for scale in [1, 2] {
            let surface = paint(fraction: 0.35, scale: scale, rightToLeft: true)
            let columns = filledColumns(surface, row: 0)
            XCTAssertEqual(Double(columns.count), 140 * Double(scale), accuracy: 1)
            XCTAssertEqual(columns.last, surface.deviceWidth - 1, "touches the right edge")
            XCTAssertEqual(columns, Array((surface.deviceWidth - columns.count)..<surface.deviceWidth))
            XCTAssertEqual(surface.pixel(x: 0, y: 0), Self.clear)
        }
    }

    /// At scale 2 no pixel may be partly covered: fractions whose width falls between device pixels still give
    /// whole pixels, and the height is exactly 6 device rows.
    func testCrispEdgesAtScaleTwo() async {
        for fraction in [0.1234, 1.0 / 3, 0.70007, 0.90125, 0.0013] {
            for rightToLeft in [false, true] {
                let surface = paint(fraction: fraction, width: 333, scale: 2, rightToLeft: rightToLeft)
                for y in 0..<surface.deviceHeight {
                    for x in 0..<surface.deviceWidth {
                        let alpha = surface.pixel(x: x, y: y).alpha
                        XCTAssertTrue(alpha == 0 || alpha == 255, "partly covered pixel (\(x), \(y)) at \(fraction)")
                    }
                }
                let rows = (0..<surface.deviceHeight).filter { !filledColumns(surface, row: $0).isEmpty }
                XCTAssertEqual(rows, Array(0..<6))
            }
        }
    }

    func testOpacityFadesThePaint() async {
        let surface = paint(fraction: 0.5, opacity: 0.5, scale: 1)
        let pixel = surface.pixel(x: 10, y: 1)
        XCTAssertEqual(Double(pixel.alpha), 127.5, accuracy: 1)
        XCTAssertEqual(Double(pixel.blue), 0xe4, accuracy: 2)
        XCTAssertEqual(filledColumns(paint(fraction: 0.5, opacity: 0, scale: 1), row: 0), [])
    }

    func testGeometryIsPixelAligned() async {
        let rect = ProgressBarGeometry(fraction: 0.1234, barWidth: 333, scale: 2, rightToLeft: true)
        XCTAssertEqual(rect.width * 2, (rect.width * 2).rounded())
        XCTAssertEqual(rect.x * 2, (rect.x * 2).rounded())
        XCTAssertEqual(rect.x + rect.width, 333)
        XCTAssertEqual(rect.height, 3)
    }

    // MARK: - The widget in a window (needs a display)

    struct Page {
        let window: Window
        let overlay: Overlay
        let indicator: LoadIndicator
    }

    func showPage(curve: ProgressCurve = .builtInWeChat, clock: TestClock? = nil) throws -> Page {
        try requireDisplay()
        let indicator = clock.map { clock in LoadIndicator(curve: curve, clock: { clock.read() }) }
            ?? LoadIndicator(curve: curve)
        let window = Window()
        window.setDefaultSize(width: 400, height: 200)
        let overlay = Overlay()
        let page = DrawingArea()
        page.setSizeRequest(width: 400, height: 200)
        overlay.add(page)
        indicator.attach(to: overlay)
        window.add(overlay)
        window.showAll()
        addTeardownBlock { indicator.cancel(); window.destroy() }
        XCTAssertTrue(MainLoop.run(until: { page.width == 400 }, timeout: 5), "window shown")
        XCTAssertFalse(indicator.view.widget.isVisible, "an idle bar stays hidden after showAll")
        return Page(window: window, overlay: overlay, indicator: indicator)
    }

    func testAttachesToAGtkOverlayMadeElsewhere() async throws {
        try requireDisplay()
        // Another binding, or C, hands over its GtkOverlay * in either pointer form.
        let overlay = Overlay()
        let pointer = UnsafeMutableRawPointer(overlay.object)
        let raw = LoadIndicator(curve: .builtInWeChat)
        raw.attach(toOverlay: pointer)
        XCTAssertEqual(raw.widget.parentPointer, pointer)
        let opaque = LoadIndicator(curve: .builtInWeChat)
        opaque.attach(toOverlay: OpaquePointer(pointer))
        XCTAssertEqual(opaque.widget.parentPointer, pointer)
        // Attaching again moves the bar rather than adding it twice.
        let other = Overlay()
        raw.attach(to: other)
        XCTAssertEqual(raw.widget.parentPointer, UnsafeMutableRawPointer(other.object))
    }

    /// Lets GTK finish pending layout, which runs on the next frame: drawing a widget whose allocation is queued
    /// is an error.
    func settle() { _ = MainLoop.run(until: { false }, timeout: 0.2) }

    func testBarIsAThreePixelStripAcrossTheTop() async throws {
        let clock = TestClock()
        let page = try showPage(clock: clock)
        page.indicator.start()
        XCTAssertTrue(MainLoop.run(until: { page.indicator.view.widget.width == 400 && page.indicator.view.widget.height > 0 }, timeout: 5))
        XCTAssertEqual(page.indicator.view.widget.height, 3)
        XCTAssertEqual(page.indicator.view.widget.width, 400)
    }

    func testWidgetDrawsTheTrackerInTheThemeColour() async throws {
        let clock = TestClock()
        let page = try showPage(clock: clock)
        page.indicator.start()
        clock.now += 1.5
        page.indicator.tick()
        clock.now += 0.3
        page.indicator.paintFrame()
        XCTAssertEqual(page.indicator.painted.fraction, 0.35, accuracy: 1e-9, "the glide has arrived")
        XCTAssertTrue(MainLoop.run(until: { page.indicator.view.widget.width == 400 }, timeout: 5))
        settle()
        let surface = CairoImageSurface(width: 400, height: 3)
        surface.draw(page.indicator.view.widget)
        XCTAssertEqual(Double(filledColumns(surface, row: 0).count), 140, accuracy: 1, "0.35 of 400 px")
        XCTAssertEqual(filledColumns(surface, row: 2).count, filledColumns(surface, row: 0).count)
        let color = page.indicator.view.widget.themeColor("theme_selected_bg_color") ?? ProgressBarView.fallbackColor
        let pixel = surface.pixel(x: 0, y: 0)
        XCTAssertEqual(Double(pixel.red), color.red * 255, accuracy: 1)
        XCTAssertEqual(Double(pixel.green), color.green * 255, accuracy: 1)
        XCTAssertEqual(Double(pixel.blue), color.blue * 255, accuracy: 1)

        page.indicator.view.widget.setRightToLeft(true)
        settle()
        let rtl = CairoImageSurface(width: 400, height: 3)
        rtl.draw(page.indicator.view.widget)
        XCTAssertEqual(filledColumns(rtl, row: 0).last, 399)
        XCTAssertEqual(rtl.pixel(x: 0, y: 0).alpha, 0)
    }

    func testAccessibleIsAProgressBarWithAValue() async throws {
        let clock = TestClock()
        let page = try showPage(clock: clock)
        page.indicator.start()
        clock.now += 3
        page.indicator.tick()
        XCTAssertEqual(page.indicator.view.widget.accessibleRoleName, "progress bar")
        XCTAssertEqual(page.indicator.view.widget.accessibleName, "Page load progress")
        XCTAssertEqual(page.indicator.view.widget.accessibleValue ?? -1, 0.60, accuracy: 0.01)
    }

    func testTimerAndFramesRunOnlyWhileTheBarIsUnderWay() async throws {
        let page = try showPage()
        let view = page.indicator
        XCTAssertFalse(view.isTicking, "idle: no timer")
        XCTAssertFalse(view.isAnimating, "idle: no frame callback")
        view.start()
        XCTAssertTrue(view.isTicking)
        XCTAssertTrue(view.isAnimating)
        XCTAssertTrue(view.view.widget.isVisible)
        let started = MainLoop.monotonicSeconds()
        XCTAssertTrue(MainLoop.run(until: { view.snapshot.fraction > 0.2 }, timeout: 5), "the timer ticks")
        XCTAssertGreaterThan(MainLoop.monotonicSeconds() - started, 0.3)
        view.finish()
        XCTAssertTrue(MainLoop.run(until: { view.painted.fraction == 1 }, timeout: 5), "runs to the end")
        XCTAssertTrue(MainLoop.run(until: { !view.snapshot.visible }, timeout: 5), "fades and resets")
        XCTAssertTrue(MainLoop.run(until: { !view.isAnimating }, timeout: 1))
        XCTAssertFalse(view.isTicking, "no source after the reset")
        XCTAssertFalse(view.view.widget.isVisible)
        XCTAssertEqual(view.phase, .idle)
        _ = MainLoop.run(until: { false }, timeout: 0.3)
        XCTAssertFalse(view.isTicking)
        XCTAssertFalse(view.isAnimating)
        XCTAssertEqual(view.snapshot, .hidden)
    }

    /// The painted bar moves at the display's frame rate, not in the model's ten steps a second.
    func testTheBarIsPaintedAtTheFrameRate() async throws {
        let page = try showPage()
        var painted: [Double] = []
        page.indicator.start()
        // A frame callback of the test's own samples what the bar shows at each frame.
        let watch = FrameCallback(on: page.indicator.view.widget) {
            painted.append(page.indicator.painted.fraction)
            return true
        }
        defer { watch.cancel() }
        _ = MainLoop.run(until: { false }, timeout: 1.0)
        let distinct = Set(painted).count
        XCTAssertGreaterThan(distinct, 25, "one second of motion painted \(distinct) different widths (10 ticks)")
        XCTAssertEqual(painted, painted.sorted(), "never backwards")
        XCTAssertLessThanOrEqual(painted.last ?? 1, page.indicator.snapshot.fraction, "never past the model")
    }

    func testWithoutAnimationsTheModelIsPaintedOnTheTick() async throws {
        let clock = TestClock()
        let page = try showPage(clock: clock)
        Display.setAnimationsEnabled(false)
        defer { Display.setAnimationsEnabled(true) }
        page.indicator.start()
        XCTAssertFalse(page.indicator.isAnimating, "reduced motion: no frame callback")
        XCTAssertTrue(page.indicator.isTicking)
        clock.now += 1.5
        page.indicator.tick()
        XCTAssertEqual(page.indicator.painted, page.indicator.snapshot, "the model's value, directly")
        XCTAssertEqual(page.indicator.painted.fraction, 0.35, accuracy: 1e-9)
        page.indicator.finish()
        clock.now += 0.5
        page.indicator.tick()
        XCTAssertEqual(page.indicator.painted.opacity, 1, "no fade")
        XCTAssertFalse(page.indicator.isAnimating)
    }

    func testCancelRemovesTheTimerAtOnce() async throws {
        let clock = TestClock()
        let page = try showPage(clock: clock)
        page.indicator.start()
        XCTAssertTrue(page.indicator.isTicking)
        page.indicator.cancel()
        XCTAssertFalse(page.indicator.isTicking)
        XCTAssertFalse(page.indicator.view.widget.isVisible)
        page.indicator.start()
        XCTAssertTrue(page.indicator.isTicking, "a new navigation starts it again")
        XCTAssertEqual(page.indicator.snapshot.fraction, 0.10)
    }

    /// What the Pageload GObject reports from (its `fraction`, `loading` and `finished`): an update after every
    /// call and tick, and `isActive` until the bar has gone after the finish.
    func testUpdatesAreReportedUntilTheBarHasGone() async throws {
        let clock = TestClock()
        let page = try showPage(clock: clock)
        var updates: [(active: Bool, loading: Bool, fraction: Double)] = []
        page.indicator.onUpdate = { [unowned indicator = page.indicator] in
            updates.append((indicator.isActive, indicator.isLoading, indicator.snapshot.fraction))
        }
        page.indicator.start()
        XCTAssertEqual(updates.count, 1)
        XCTAssertTrue(page.indicator.isActive && page.indicator.isLoading)
        clock.now += 1
        page.indicator.tick()
        XCTAssertEqual(updates.count, 2)
        XCTAssertGreaterThan(updates[1].fraction, updates[0].fraction, "the tick's climb is reported")
        page.indicator.finish()
        XCTAssertFalse(page.indicator.isLoading)
        XCTAssertTrue(page.indicator.isActive, "the bar still runs to the end and fades")
        clock.now += page.indicator.curve.finish.reset + 0.1
        page.indicator.tick()
        XCTAssertFalse(page.indicator.isActive, "gone after the reset instant")
        XCTAssertEqual(updates.last?.active, false)
        page.indicator.start()
        page.indicator.cancel()
        XCTAssertFalse(page.indicator.isActive, "a cancelled bar goes at once")
        XCTAssertEqual(updates.suffix(2).map(\.active), [true, false])
    }

    func testFailurePaintsTheErrorColourThenFades() async throws {
        let clock = TestClock()
        let page = try showPage(clock: clock)
        page.indicator.start()
        clock.now += 2
        page.indicator.tick()
        clock.now += 0.3
        page.indicator.fail()
        XCTAssertTrue(page.indicator.view.widget.isVisible)
        XCTAssertEqual(page.indicator.painted.tone, .failure)
        settle()
        let surface = CairoImageSurface(width: 400, height: 3)
        surface.draw(page.indicator.view.widget)
        let red = page.indicator.view.widget.themeColor("error_color") ?? ProgressBarView.fallbackFailureColor
        let pixel = surface.pixel(x: 0, y: 0)
        XCTAssertEqual(Double(pixel.red), red.red * 255, accuracy: 1)
        XCTAssertEqual(Double(pixel.green), red.green * 255, accuracy: 1)
        XCTAssertEqual(Double(pixel.blue), red.blue * 255, accuracy: 1)
        XCTAssertEqual(Double(filledColumns(surface, row: 0).count), 400 * (0.10 + 0.5 * 2 / 3), accuracy: 2,
                       "where it stood")
        clock.now += 0.525
        page.indicator.paintFrame()
        XCTAssertEqual(page.indicator.painted.opacity, 0.5, accuracy: 1e-9)
        clock.now += 0.2
        page.indicator.tick()
        XCTAssertFalse(page.indicator.isTicking)
        XCTAssertFalse(page.indicator.isAnimating)
        XCTAssertFalse(page.indicator.view.widget.isVisible)
    }

    func testColourAndHeightCanBeChosen() async throws {
        let clock = TestClock()
        let page = try showPage(clock: clock)
        page.indicator.color = RGBA(red: 0, green: 0.5, blue: 0)
        page.indicator.height = 5
        page.indicator.start()
        XCTAssertTrue(MainLoop.run(until: { page.indicator.view.widget.height == 5 }, timeout: 5))
        settle()
        let surface = CairoImageSurface(width: 400, height: 8)
        surface.draw(page.indicator.view.widget)
        XCTAssertEqual(surface.pixel(x: 0, y: 4), Pixel(red: 0, green: 128, blue: 0, alpha: 255))
        XCTAssertEqual(filledColumns(surface, row: 5), [], "five rows, no more")
        XCTAssertEqual(Double(filledColumns(surface, row: 0).count), 40, accuracy: 1)
    }

    func testAccessibleValueIsReadableButNeverAnnounced() async throws {
        try requireDisplay()
        let bar = ProgressBar()
        var announcements = 0
        bar.onAccessiblePropertyChange { announcements += 1 }
        bar.setFractionQuietly(0.42)
        XCTAssertEqual(bar.accessibleValue ?? -1, 0.42, accuracy: 1e-9, "read on demand")
        XCTAssertEqual(announcements, 0, "not announced")
        bar.fraction = 0.5
        XCTAssertGreaterThan(announcements, 0, "GTK's own setter would have announced it")
    }

    func testPageBusyStateForScreenReaders() async throws {
        try requireDisplay()
        let view = TextView()
        var changes = 0
        view.onAccessibleStateChange { state, _ in
            if state == "busy" { changes += 1 }
        }
        XCTAssertFalse(view.isAccessibleBusy)
        view.isAccessibleBusy = true
        XCTAssertTrue(view.isAccessibleBusy)
        XCTAssertEqual(changes, 1, "announced once")
        view.isAccessibleBusy = true
        XCTAssertEqual(changes, 1, "no repeat")
        view.isAccessibleBusy = false
        XCTAssertFalse(view.isAccessibleBusy)
        XCTAssertEqual(changes, 2)
        XCTAssertFalse(TextView().isAccessibleBusy, "other text views are not busy")
    }
}
