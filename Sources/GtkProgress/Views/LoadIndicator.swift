internal import CGtk

/// A page-load progress bar for any GTK 3 window: a thin strip across the top of a `GtkOverlay`'s content that
/// moves along a time curve while a page loads, so loading feels fast (the WeChat in-app browser's bar), and
/// leaves with a short run to the end and a fade.
///
/// Attach it to an overlay, choose a curve, and drive it with the load's events:
///
/// ```swift
/// let bar = try LoadIndicator(curveNamed: "wechat")
/// bar.attach(to: overlay)
/// bar.start()                                      // a navigation began
/// bar.milestone(.firstByte)                        // the server answered
/// bar.realProgress(received: 4096, expected: nil)  // bytes arrived; nil when the length is unknown
/// bar.finish()                                     // or fail() or cancel()
/// ```
///
/// Make it once GTK is running (in the application's `activate` handler, or after `gtk_init`), like any widget.
///
/// The bar follows the text direction (it grows from the right in a right-to-left locale) and the desktop's
/// reduced-motion setting (`gtk-enable-animations`: no glide, no fade, no pulse) by itself. Nothing of it runs
/// while it is hidden: an idle window gets no wakeups.
///
/// Inside, a `ProgressTracker` (the model) is ticked by a 0.1 s GLib timer, as the WeChat article's timer ticks
/// its bar, and a `ProgressMotion` turns it into frames painted from the widget's frame clock while the bar moves.
@MainActor
public final class LoadIndicator {
    /// The model's tick, in milliseconds.
    package static let tickMilliseconds: UInt32 = 100

    let view: ProgressBarView
    private var tracker: ProgressTracker
    private var motion = ProgressMotion()
    private var timer: MainLoopTimer?
    private var frames: FrameCallback?
    /// The tick's timer goes with the bar: removed when the bar's widget is destroyed.
    private let sources = MainLoopSources()
    private let clock: () -> Double

    /// A bar that follows `curve` (by default the `wechat` preset).
    public convenience init(curve: ProgressCurve = .default) {
        self.init(curve: curve, clock: MainLoop.monotonicSeconds)
    }

    /// A bar that follows a preset (`wechat`, `smooth`, `real`) or a curve file (a path to a `.json` file).
    ///
    /// - Throws: ``CurveFileError`` naming the file and what is wrong with it.
    public convenience init(curveNamed nameOrPath: String) throws(CurveFileError) {
        self.init(curve: try ProgressCurve.load(nameOrPath: nameOrPath))
    }

    /// `clock` gives seconds on a monotonic scale; tests pass their own.
    package init(curve: ProgressCurve, clock: @escaping () -> Double) {
        tracker = ProgressTracker(curve: curve)
        self.clock = clock
        view = ProgressBarView()
        view.widget.removeOnDestroy(sources)
    }

    /// An indicator is released on the main thread, where it is used.
    deinit {
        MainActor.assumeIsolated {
            timer?.cancel()
            frames?.cancel()
        }
    }

    // MARK: Placing and styling

    /// Puts the bar over the top edge of `overlay`'s content; clicks pass through to the content.
    public func attach(to overlay: Overlay) {
        view.widget.removeFromParent()
        view.attach(to: overlay)
    }

    /// Puts the bar over the top edge of the content of a `GtkOverlay` made elsewhere (another binding, or C).
    ///
    /// - Parameter gtkOverlay: a `GtkOverlay *`; anything else stops the program with a message.
    public func attach(toOverlay gtkOverlay: UnsafeMutableRawPointer) {
        attach(to: Overlay(borrowing: gtkOverlay))
    }

    /// Puts the bar over the top edge of the content of a `GtkOverlay` made elsewhere (another binding, or C).
    ///
    /// - Parameter gtkOverlay: a `GtkOverlay *`; anything else stops the program with a message.
    public func attach(toOverlay gtkOverlay: OpaquePointer) {
        attach(toOverlay: UnsafeMutableRawPointer(gtkOverlay))
    }

    /// Puts the bar into a `GtkContainer` made elsewhere that holds only it (the Pageload GObject, a `GtkBin`):
    /// the container is what goes into the overlay.
    package func attach(toContainer gtkContainer: UnsafeMutableRawPointer) {
        view.widget.removeFromParent()
        gtk_container_add(gtkContainer.assumingMemoryBound(to: GtkContainer.self), view.widget.widget)
    }

    /// The curve for the next load; a load under way keeps its own, so the bar never jumps.
    public var curve: ProgressCurve {
        get { tracker.curve }
        set { tracker.curve = newValue }
    }

    /// The bar's colour; nil (the default) takes the theme's accent, `theme_selected_bg_color`.
    public var color: RGBA? {
        get { view.color }
        set { view.color = newValue }
    }

    /// The colour of a failed load's bar; nil (the default) takes the theme's `error_color`.
    public var failureColor: RGBA? {
        get { view.failureColor }
        set { view.failureColor = newValue }
    }

    /// The bar's height in logical pixels (3 by default, as the WeChat bar).
    public var height: Int {
        get { view.height }
        set { view.height = max(1, newValue) }
    }

    // MARK: Driving it

    /// Called when the load stalls (`true`: no byte for three seconds) and when bytes come again (`false`); the
    /// bar pulses quietly meanwhile. A window might say whom it is waiting for.
    public var onStallChange: ((Bool) -> Void)?

    /// Whether the load under way has had no byte for three seconds.
    public private(set) var isStalled = false

    /// Whether a load is under way (from `start` until `finish`, `fail` or `cancel`).
    public var isLoading: Bool { tracker.phase == .loading }

    /// Whether the bar runs: from `start` until it has gone after `finish`, `fail` or `cancel`.
    package var isActive: Bool { tracker.isActive }

    /// Called after every change of the model (each call and each tick), for a wrapper that reports the bar's
    /// state elsewhere (the Pageload GObject's properties and signal).
    package var onUpdate: (() -> Void)?

    /// A load began; a new one restarts the bar from the curve's beginning.
    ///
    /// - Parameter isLocal: the load reads a local file: the bar appears only if it takes more than a quarter
    ///   second, since it waits for no network and would only flash.
    public func start(isLocal: Bool = false) {
        start(isLocal: isLocal, at: nil)
    }

    /// A load that began at `time` (on the indicator's clock; nil: now), before the bar could be shown: the
    /// curve starts there, so the bar stands where it would had it been on screen from the start.
    package func start(isLocal: Bool, at time: Double?) {
        let now = clock()
        tracker.fadesEnabled = view.animationsEnabled
        tracker.start(at: min(time ?? now, now), isLocal: isLocal)
        update()
    }

    /// Bytes of the document arrived: `received` so far of `expected` (nil when the length is unknown, as for a
    /// chunked response). Counted only above the curve's `hold`; below it the time curve decides.
    public func realProgress(received: Int64, expected: Int64?) {
        tracker.realProgress(received: received, expected: expected, at: clock())
        update()
    }

    /// The load reached `milestone` (name resolved, connected, TLS done, first byte): the bar rises to the
    /// curve's level for it, if the curve gives one.
    public func milestone(_ milestone: LoadMilestone) {
        tracker.milestone(milestone, at: clock())
        update()
    }

    /// The page has subresources to wait for (its images): the document's bytes fill only part of the bar.
    package func expectSubresources() { tracker.expectSubresources(); update() }

    /// The subresources' estimated progress (`ResourceProgress.value`): the rest of the bar, never backwards,
    /// and never full before `finish`.
    package func subresourceProgress(_ estimate: Double) {
        tracker.subresourceProgress(estimate, at: clock())
        update()
    }

    /// The load is done: the bar runs to the end, stays a moment, fades and resets.
    public func finish() { tracker.finish(at: clock()); update() }

    /// The load failed: the bar takes the error colour where it stands, then fades.
    public func fail() { tracker.fail(at: clock()); update() }

    /// The load was stopped or replaced: the bar goes at once.
    public func cancel() { tracker.cancel(at: clock()); update() }

    // MARK: Inside

    /// What the model shows now (on the tracker's tick).
    package var snapshot: ProgressSnapshot { tracker.snapshot }
    package var phase: ProgressTracker.Phase { tracker.phase }
    /// What is painted now.
    package var painted: ProgressSnapshot { view.shown }
    /// Whether the model's timer is installed (from the start until the bar is reset).
    package var isTicking: Bool { timer?.isRunning ?? false }
    /// Whether the frame callback is installed (only while the painted bar moves).
    package var isAnimating: Bool { frames?.isRunning ?? false }
    /// The bar's widget, for tests that look at it.
    package var widget: ProgressBar { view.widget }

    /// Advances the model to the clock's present; the timer calls it, tests may too.
    package func tick() {
        tracker.tick(now: clock())
        update()
    }

    /// Paints the frame for the clock's present, as the frame clock does; returns whether frames are still needed.
    @discardableResult
    package func paintFrame() -> Bool {
        let now = clock()
        if motion.frameDue(at: now) { view.show(motion.frame(at: now)) }
        return motion.isMoving(at: now)
    }

    private func update() {
        let now = clock()
        motion.animated = view.animationsEnabled
        motion.follow(tracker, at: now)
        view.show(motion.frame(at: now))
        if tracker.snapshot.visible { view.setAccessibleValue(tracker.snapshot.fraction) }
        if !tracker.isActive {
            timer?.cancel()
            timer = nil
        } else if !isTicking {
            timer = sources.timer(milliseconds: Self.tickMilliseconds, name: "gtkprogress bar tick") { [weak self] in
                guard let self else { return false }
                self.tick()
                return self.tracker.isActive
            }
        }
        if !motion.isMoving(at: now) {
            frames?.cancel()
            frames = nil
        } else if !isAnimating {
            frames = FrameCallback(on: view.widget) { [weak self] in self?.paintFrame() ?? false }
        }
        if tracker.isStalled != isStalled {
            isStalled = tracker.isStalled
            onStallChange?(isStalled)
        }
        onUpdate?()
    }
}
