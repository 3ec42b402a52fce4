/// The thin load indicator at the top of the page: a `ProgressTracker` shown as a 3 px Cairo-painted strip in the
/// theme's accent colour, overlaid so the page never shifts (GNOME Web's `ephy-embed.c` does the same).
///
/// A 0.1 s timer (seed 000's tick) runs only while the bar is visible and is removed when it hides, so an idle
/// window gets no wakeups from it. Each tick redraws only the bar's strip, and only when what it shows changed.
public final class ProgressBarView {
    /// The widget to put in an `Overlay` (see `attach(to:)`).
    public let widget: ProgressBar
    /// Adwaita's accent, for themes that define no `theme_selected_bg_color`.
    public static let fallbackColor = RGBA(red: 0x35 / 255.0, green: 0x84 / 255.0, blue: 0xe4 / 255.0)
    /// The tracker's tick, in milliseconds.
    public static let tickMilliseconds: UInt32 = 100

    private var tracker: ProgressTracker
    private var timer: MainLoopTimer?
    private let clock: () -> Double
    /// What the last redraw showed, so an unchanged tick (the hold at 0.90) costs no drawing.
    private var drawn: ProgressSnapshot = .hidden

    /// `clock` gives seconds on a monotonic scale; tests pass their own.
    public init(curve: ProgressCurve = .default, clock: @escaping () -> Double = MainLoop.monotonicSeconds) {
        tracker = ProgressTracker(curve: curve)
        self.clock = clock
        widget = ProgressBar()
        widget.setExactHeight(ProgressBarGeometry.height)
        widget.setAlignment(horizontal: .fill, vertical: .start)
        widget.setExpand(horizontal: true)
        widget.setAccessible(name: "Page load progress")
        widget.onPaint { [weak self] cr in self?.paint(on: cr) }
        widget.hide()
    }

    deinit { timer?.cancel() }

    /// The curve for the next navigation; one under way keeps its own.
    public var curve: ProgressCurve {
        get { tracker.curve }
        set { tracker.curve = newValue }
    }

    /// What the bar shows now.
    public var snapshot: ProgressSnapshot { tracker.snapshot }
    public var phase: ProgressTracker.Phase { tracker.phase }
    /// Whether the tick timer is installed (only while the bar is visible).
    public var isTicking: Bool { timer?.isRunning ?? false }

    /// Puts the bar at the top of `overlay`'s page; clicks fall through to the page below.
    public func attach(to overlay: Overlay) {
        overlay.addOverlay(widget, passThrough: true)
    }

    /// A navigation started (a new one restarts the bar from the curve's beginning).
    public func start() {
        tracker.fadesEnabled = widget.animationsEnabled
        tracker.start(at: clock())
        update()
    }

    /// Bytes arrived; `expected` nil when the length is unknown.
    public func realProgress(received: Int64, expected: Int64?) {
        tracker.realProgress(received: received, expected: expected)
        update()
    }

    public func finish() { tracker.finish(at: clock()); update() }
    public func fail() { tracker.fail(at: clock()); update() }
    public func cancel() { tracker.cancel(at: clock()); update() }

    /// Advances the tracker to the clock's present; the timer calls it, tests may too.
    public func tick() {
        tracker.tick(now: clock())
        update()
    }

    private func update() {
        let shown = tracker.snapshot
        guard shown.visible else {
            timer?.cancel()
            timer = nil
            if widget.isVisible { widget.hide() }
            drawn = .hidden
            return
        }
        if !widget.isVisible { widget.show() }
        if !isTicking {
            timer = MainLoopTimer(milliseconds: Self.tickMilliseconds) { [weak self] in
                guard let self else { return false }
                self.tick()
                return self.tracker.snapshot.visible
            }
        }
        if shown != drawn {
            // Assistive technologies hear every change of the fraction; whole percents are enough for them.
            if (shown.fraction * 100).rounded() != (widget.fraction * 100).rounded() { widget.fraction = shown.fraction }
            widget.queueDraw(x: 0, y: 0, width: widget.width, height: ProgressBarGeometry.height)
            drawn = shown
        }
    }

    private func paint(on cr: CairoContext) {
        Self.paint(tracker.snapshot, on: cr, barWidth: widget.width, scale: widget.scaleFactor,
                   rightToLeft: widget.isRightToLeft,
                   color: widget.themeColor("theme_selected_bg_color") ?? Self.fallbackColor)
    }

    /// The whole look of the bar: one pixel-aligned rectangle in a solid colour, faded by the snapshot's opacity.
    public static func paint(_ snapshot: ProgressSnapshot, on cr: CairoContext, barWidth: Int, scale: Int,
                             rightToLeft: Bool, color: RGBA) {
        guard snapshot.visible, snapshot.opacity > 0 else { return }
        let rect = ProgressBarGeometry(fraction: snapshot.fraction, barWidth: barWidth, scale: scale,
                                       rightToLeft: rightToLeft)
        guard !rect.isEmpty else { return }
        cr.setColor(color, alpha: snapshot.opacity)
        cr.rectangle(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        cr.fill()
    }
}
