/// A page load as the bar shows it: the `ProgressTracker` (the model, on the curve's time scale) ticked by a
/// 0.1 s GLib timer, as the WeChat article's timer ticks its bar, and painted by a `ProgressBarView`.
///
/// Whoever receives the loader's events drives it (`start`, `realProgress`, `finish`, `fail`, `cancel`). The
/// timer runs only while the bar is visible and is removed when it hides, so an idle window gets no wakeups.
public final class LoadIndicator {
    /// The tracker's tick, in milliseconds.
    public static let tickMilliseconds: UInt32 = 100

    public let view: ProgressBarView
    private var tracker: ProgressTracker
    private var timer: MainLoopTimer?
    private let clock: () -> Double

    /// `clock` gives seconds on a monotonic scale; tests pass their own.
    public init(curve: ProgressCurve = .default, clock: @escaping () -> Double = MainLoop.monotonicSeconds) {
        tracker = ProgressTracker(curve: curve)
        self.clock = clock
        view = ProgressBarView()
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

    /// A navigation started (a new one restarts the bar from the curve's beginning).
    public func start() {
        tracker.fadesEnabled = view.animationsEnabled
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
        view.show(shown)
        guard shown.visible else {
            timer?.cancel()
            timer = nil
            return
        }
        if !isTicking {
            timer = MainLoopTimer(milliseconds: Self.tickMilliseconds) { [weak self] in
                guard let self else { return false }
                self.tick()
                return self.tracker.snapshot.visible
            }
        }
    }
}
