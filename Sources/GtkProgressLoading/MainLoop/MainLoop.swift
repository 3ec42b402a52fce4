import FoundationEssentials
import GtkProgressCore
import GtkProgressFiles
internal import CGLib

/// A repeating GLib timeout. The closure returns `true` to keep going; the source is removed when it returns
/// `false`, on `cancel()`, or when the timer is released. Its id is zeroed as soon as GLib drops the source, so a
/// later `cancel()` never removes someone else's source.
public final class MainLoopTimer {
    private final class State {
        let tick: () -> Bool
        var sourceID: UInt32 = 0
        /// The sources this timer goes with (`MainLoopSources`), and its id among them.
        weak var owner: MainLoopSources?
        var ownedID: UInt32 = 0
        init(_ tick: @escaping () -> Bool) { self.tick = tick }
    }
    private let state: State

    /// Starts firing every `milliseconds`. A `name` tells a profiler or `G_DEBUG` which timer woke the loop.
    public convenience init(milliseconds: UInt32, name: String? = nil, _ tick: @escaping () -> Bool) {
        self.init(milliseconds: milliseconds, name: name, in: nil, tick)
    }

    /// A timer removed with `owner`'s other sources (`MainLoopSources.timer`); it never fires when they are gone.
    init(milliseconds: UInt32, name: String?, in owner: MainLoopSources?, _ tick: @escaping () -> Bool) {
        state = State(tick)
        if owner?.isClosed == true { return }
        let data = Unmanaged.passRetained(state).toOpaque()
        state.sourceID = g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
            let state = Unmanaged<State>.fromOpaque(data!).takeUnretainedValue()
            if state.tick() { return 1 }
            state.sourceID = 0
            return 0
        }, data, { data in
            let state = Unmanaged<State>.fromOpaque(data!)
            let timer = state.takeUnretainedValue()
            // Removed with its owner's sources, the timer no longer runs.
            timer.sourceID = 0
            timer.owner?.forget(timer.ownedID)
            state.release()
        })
        if let name { g_source_set_name_by_id(state.sourceID, name) }
        if let owner {
            state.owner = owner
            state.ownedID = state.sourceID
            owner.adopt(state.sourceID)
        }
    }

    /// Whether the timer still fires.
    public var isRunning: Bool { state.sourceID != 0 }

    /// Stops the timer; calling it again does nothing.
    public func cancel() {
        if state.sourceID != 0 {
            let id = state.sourceID
            state.sourceID = 0
            g_source_remove(id)
        }
    }

    deinit { cancel() }
}

package enum MainLoop {
    /// Runs `work` once on the GLib main loop when it is idle.
    package static func idle(_ work: @escaping () -> Void) {
        once(at: G_PRIORITY_DEFAULT_IDLE, work)
    }

    /// Runs `work` once on the GLib main loop when it is idle and no `idle` work is waiting either
    /// (G_PRIORITY_DEFAULT_IDLE + 10). GLib dispatches every ready source of the highest ready priority in the same
    /// turn (g_main_context_check): work that re-schedules itself turn after turn at the priority of other idle
    /// work would share a turn with each of them.
    package static func idleAfterOtherIdleWork(_ work: @escaping () -> Void) {
        once(at: G_PRIORITY_DEFAULT_IDLE + 10, work)
    }

    /// Runs `work` once on the GLib main loop in a turn of its own, after the events already waiting (input, the
    /// window manager's pings: G_PRIORITY_DEFAULT) and before GTK sizes and paints the windows (GTK's resize idle
    /// at G_PRIORITY_HIGH_IDLE + 10, GDK's redraw at G_PRIORITY_HIGH_IDLE + 20; gtkmain.h, gdkevents.h): what it
    /// changes is in the next frame, as if it had been done in the turn that asked for it.
    package static func beforeNextFrame(_ work: @escaping () -> Void) {
        once(at: G_PRIORITY_HIGH_IDLE, work)
    }

    /// Runs `work` once from an idle source at `priority`. <https://docs.gtk.org/glib/func.idle_add_full.html>
    private static func once(at priority: Int32, _ work: @escaping () -> Void) {
        let data = Unmanaged.passRetained(VoidHandler(work)).toOpaque()
        g_idle_add_full(priority, { data in
            Unmanaged<VoidHandler>.fromOpaque(data!).takeUnretainedValue().call()
            return 0
        }, data, { data in
            Unmanaged<VoidHandler>.fromOpaque(data!).release()
        })
    }

    /// Runs `step` on the GLib main loop in turns when nothing else is waiting (G_PRIORITY_LOW, below the idle
    /// work of G_PRIORITY_DEFAULT_IDLE), one call a turn, until it returns false.
    package static func whenNothingWaits(_ step: @escaping () -> Bool) {
        let data = Unmanaged.passRetained(ClosureBox<() -> Bool>(step)).toOpaque()
        g_idle_add_full(G_PRIORITY_LOW, { data in
            Unmanaged<ClosureBox<() -> Bool>>.fromOpaque(data!).takeUnretainedValue().call() ? 1 : 0
        }, data, { data in
            Unmanaged<ClosureBox<() -> Bool>>.fromOpaque(data!).release()
        })
    }

    /// Dispatches pending events without blocking; returns whether anything was dispatched.
    @discardableResult
    package static func iterate(blocking: Bool = false) -> Bool {
        g_main_context_iteration(nil, blocking ? 1 : 0) != 0
    }

    /// Runs the loop until `condition` holds or `timeout` seconds pass; returns whether it held.
    package static func run(until condition: () -> Bool, timeout: Double) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while !condition() {
            if monotonicSeconds() > deadline { return false }
            if !iterate() { g_usleep(1000) }
        }
        return true
    }

    /// GLib's monotonic clock in seconds.
    package static func monotonicSeconds() -> Double { Double(g_get_monotonic_time()) / 1_000_000 }

    /// Dispatches what is ready on the default main context now, without waiting: a program that does work of its
    /// own before it runs its main loop (GTK's start-up) lets a load started earlier move on meanwhile (libcurl's
    /// connect and its request, each a turn). At most `turns` turns, so a source that is always ready cannot hold
    /// it. <https://docs.gtk.org/glib/method.MainContext.iteration.html>
    package static func dispatchReady(turns: Int = 8) {
        for _ in 0..<turns {
            if g_main_context_iteration(nil, 0) == 0 { return }
        }
    }
}

/// A plain boxed closure, so it can travel through a `gpointer`.
package final class ClosureBox<F> {
    package let call: F
    package init(_ call: F) { self.call = call }
}

package typealias VoidHandler = ClosureBox<() -> Void>

/// Work that grows with the page (decoding, parsing) runs here, off the main loop, one job at a time on a
/// `SerialWorker`; its result
/// comes back on the main loop through a GLib idle source (`g_idle_add_full` may be called from any thread).
/// Neither the job nor the result may touch GTK.
package enum BackgroundWork {
    private static let queue = SerialWorker(name: "gtkprogress-work")

    /// Runs `job` on the background queue (or on `worker`), then `done` with its result on the main loop. `done`
    /// is isolated to the main actor, so it may hold what belongs to the main loop and travel through the worker
    /// untouched.
    package static func run<Result: Sendable>(on worker: SerialWorker? = nil, _ job: @escaping @Sendable () -> Result,
                                             then done: @escaping @MainActor (Result) -> Void) {
        (worker ?? queue).async {
            let result = job()
            MainLoop.post { done(result) }
        }
    }
}

extension MainLoop {
    /// Runs `work` once on the main loop, from any thread. The default main context is the one the main thread
    /// iterates (`gtk_main`, `g_main_context_iteration` in the programs and tests), so its callbacks run on the
    /// main actor; `MainActor.assumeIsolated` checks that at run time.
    package static func post(_ work: @escaping @MainActor @Sendable () -> Void) {
        let data = Unmanaged.passRetained(ClosureBox<@MainActor @Sendable () -> Void>(work)).toOpaque()
        g_idle_add_full(G_PRIORITY_DEFAULT, { data in
            let work = Unmanaged<ClosureBox<@MainActor @Sendable () -> Void>>.fromOpaque(data!).takeUnretainedValue().call
            MainActor.assumeIsolated { work() }
            return 0
        }, data, { data in
            Unmanaged<ClosureBox<@MainActor @Sendable () -> Void>>.fromOpaque(data!).release()
        })
    }
}
