internal import CGLib

/// The GLib sources one owner has added to the main loop (idle work and timers), all removed at once when the owner
/// goes: a window that closes removes what its views left waiting, so no callback of theirs runs after the GTK
/// objects it works on are gone. Once removed, nothing more is added: work asked for then is dropped.
///
/// The alternative, a check in each callback that its object is still there, has to be remembered in every one;
/// here a source either runs while its owner is open or never runs. A removed source's closure is released by its
/// destroy notify (<https://docs.gtk.org/glib/method.Source.destroy.html>). Used from the main loop's thread only,
/// as the sources it adds run there.
package final class MainLoopSources {
    /// The sources added and not yet gone (dispatched for the last time, or removed).
    private var pending: Set<UInt32> = []
    /// Whether `removeAll()` has run: the owner is gone.
    package private(set) var isClosed = false

    package init() {}

    /// Runs `work` once when the main loop is idle (`MainLoop.idle`).
    package func idle(_ work: @escaping () -> Void) {
        once(at: G_PRIORITY_DEFAULT_IDLE, work)
    }

    /// Runs `work` once when no other idle work waits (`MainLoop.idleAfterOtherIdleWork`).
    package func idleAfterOtherIdleWork(_ work: @escaping () -> Void) {
        once(at: G_PRIORITY_DEFAULT_IDLE + 10, work)
    }

    /// Runs `work` once in a turn of its own before the next frame (`MainLoop.beforeNextFrame`).
    package func beforeNextFrame(_ work: @escaping () -> Void) {
        once(at: G_PRIORITY_HIGH_IDLE, work)
    }

    /// A repeating timer that goes with the others (`MainLoopTimer`); one that never fires once they are removed.
    package func timer(milliseconds: UInt32, name: String? = nil, _ tick: @escaping () -> Bool) -> MainLoopTimer {
        MainLoopTimer(milliseconds: milliseconds, name: name, in: self, tick)
    }

    /// Removes every source still waiting and refuses new ones. Calling it again does nothing.
    package func removeAll() {
        isClosed = true
        // One at a time, each looked up as it goes: a removed source's destroy notify releases its closure, and
        // with it perhaps the last reference to an owner of another of these sources (a `MainLoopTimer`), whose
        // deinit removes that one first. A source already destroyed, whose notify waits for its dispatch to
        // end, is no longer found (g_main_context_find_source_by_id), and is left to GLib.
        while let id = pending.first {
            pending.remove(id)
            if let source = g_main_context_find_source_by_id(nil, id) { g_source_destroy(source) }
        }
    }

    /// Keeps `id`, a source just added while the owner is open.
    func adopt(_ id: UInt32) {
        pending.insert(id)
    }

    /// Forgets `id`: GLib has let the source go.
    func forget(_ id: UInt32) {
        pending.remove(id)
    }

    /// How many sources wait: for tests.
    package var pendingCount: Int { pending.count }

    private final class Once {
        let work: () -> Void
        weak var owner: MainLoopSources?
        var id: UInt32 = 0
        init(_ work: @escaping () -> Void, owner: MainLoopSources) {
            self.work = work
            self.owner = owner
        }
    }

    /// <https://docs.gtk.org/glib/func.idle_add_full.html>
    private func once(at priority: Int32, _ work: @escaping () -> Void) {
        guard !isClosed else { return }
        let box = Once(work, owner: self)
        box.id = g_idle_add_full(priority, { data in
            Unmanaged<Once>.fromOpaque(data!).takeUnretainedValue().work()
            return 0
        }, Unmanaged.passRetained(box).toOpaque(), { data in
            let box = Unmanaged<Once>.fromOpaque(data!)
            let once = box.takeUnretainedValue()
            once.owner?.forget(once.id)
            box.release()
        })
        adopt(box.id)
    }
}
