import CGLib
import XCTest
@testable import GtkProgress
@testable import GtkProgressLoading
@testable import GtkProgressCore

/// The thin GTK layer: closures connected to signals and timers run, and are released when GLib lets go of them.
/// `@MainActor` with async tests: the GTK layer is main-actor isolated, and XCTest on Linux runs async tests of a
/// main-actor class on the main thread (DESIGN.md, "Swift over GTK").
@MainActor
final class GtkLayerTests: XCTestCase {
    /// Captured by closures; its deinit tells that GLib released the closure's box.
    private final class Witness {
        var calls = 0
        let onDeinit: () -> Void
        init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    override func setUp() async throws {
        try requireDisplay()
    }

    func testSignalClosureRunsAndIsReleasedWithTheObject() async {
        var released = false
        var button: Button? = Button(iconName: "go-next-symbolic", tooltip: "t", accessibleName: "a")
        do {
            let witness = Witness { released = true }
            button!.onClicked { witness.calls += 1 }
            button!.click()
            button!.click()
            XCTAssertEqual(witness.calls, 2, "the closure runs each time the signal fires")
        }
        XCTAssertFalse(released, "the object still holds the closure")
        XCTAssertEqual(button!.referenceCount, 1, "the wrapper holds the only reference (floating ref sunk)")
        button = nil
        XCTAssertTrue(released, "finalizing the object released the closure")
    }

    func testDisconnectReleasesTheClosureAndStopsCalls() async {
        var released = false
        let entry = Entry()
        var calls = 0
        do {
            let witness = Witness { released = true }
            let connection = entry.onActivate { witness.calls += 1; calls = witness.calls }
            entry.emit(.activate)
            XCTAssertEqual(calls, 1)
            connection.disconnect()
            connection.disconnect() // a second disconnect is harmless
        }
        XCTAssertTrue(released)
        entry.emit(.activate)
        XCTAssertEqual(calls, 1, "no call after disconnect")
    }

    func testDisconnectAfterTheObjectIsFinalizedDoesNothing() async {
        var released = false
        var button: Button? = Button(iconName: "go-next-symbolic", tooltip: "t", accessibleName: "a")
        var connection: SignalConnection?
        do {
            let witness = Witness { released = true }
            connection = button!.onClicked { witness.calls += 1 }
        }
        XCTAssertTrue(connection!.isConnected)
        button = nil
        XCTAssertTrue(released, "the object is finalized")
        // The connection's weak reference now reads NULL: no handler lookup on freed memory.
        XCTAssertFalse(connection!.isConnected, "a finalized object has no handlers")
        connection!.disconnect()
        connection!.disconnect()
        connection = nil
    }

    func testFocusChangeConnectionHoldsBothSignals() async {
        let entry = Entry()
        var changes: [Bool] = []
        let connection = entry.onFocusChange { changes.append($0) }
        XCTAssertEqual(connection.ids.count, 2, "focus-in-event and focus-out-event")
        XCTAssertTrue(connection.isConnected)
        connection.disconnect()
        XCTAssertFalse(connection.isConnected, "both handlers are gone, focus-in's too")
        XCTAssertEqual(changes, [])
    }

    func testWidgetInsideADestroyedWindowIsSafe() async {
        var released = false
        let window = Window()
        let button = Button(iconName: "go-next-symbolic", tooltip: "t", accessibleName: "a")
        window.add(button)
        do {
            let witness = Witness { released = true }
            button.onClicked { witness.calls += 1 }
        }
        window.destroy()
        // GTK destroys the child with the window and drops its handlers; our wrapper still owns valid memory.
        XCTAssertTrue(released, "destroy disconnects handlers and releases their closures")
        button.click()
        XCTAssertFalse(button.isVisible)
    }

    func testTimerFiresAndStops() async {
        var fired = 0
        let timer = MainLoopTimer(milliseconds: 10) {
            fired += 1
            return fired < 3
        }
        XCTAssertTrue(timer.isRunning)
        XCTAssertTrue(MainLoop.run(until: { fired == 3 && !timer.isRunning }, timeout: 5))
        _ = MainLoop.run(until: { false }, timeout: 0.1)
        XCTAssertEqual(fired, 3, "a timer that returned false fires no more")
        timer.cancel() // its source id was zeroed: cancelling again removes nothing
    }

    func testCancelledTimerReleasesItsClosure() async {
        var released = false
        var fired = 0
        var timer: MainLoopTimer?
        do {
            let witness = Witness { released = true }
            timer = MainLoopTimer(milliseconds: 5) { witness.calls += 1; fired = witness.calls; return true }
        }
        XCTAssertTrue(MainLoop.run(until: { fired >= 2 }, timeout: 5), "the timer fires until cancelled")
        timer?.cancel()
        XCTAssertFalse(timer!.isRunning)
        let firedBeforeCancel = fired
        _ = MainLoop.run(until: { false }, timeout: 0.05)
        XCTAssertEqual(fired, firedBeforeCancel, "no tick after cancel")
        XCTAssertFalse(released, "the wrapper still holds the closure")
        timer = nil
        XCTAssertTrue(released, "GLib dropped its reference on cancel and the wrapper its own: the closure is gone")
    }

    func testIdleRunsOnce() async {
        var runs = 0
        MainLoop.idle { runs += 1 }
        XCTAssertTrue(MainLoop.run(until: { runs == 1 }, timeout: 2))
        _ = MainLoop.run(until: { false }, timeout: 0.05)
        XCTAssertEqual(runs, 1)
    }

    /// The sources of one owner run while it is open and are removed together with their closures when it goes;
    /// work asked for after that is dropped.
    func testSourcesAreRemovedTogetherWhenTheirWidgetIsDestroyed() async {
        let window = Window()
        let sources = MainLoopSources()
        window.removeOnDestroy(sources)
        var idles = 0, ticks = 0, released = false
        sources.idle { idles += 1 }
        XCTAssertTrue(MainLoop.run(until: { idles == 1 && sources.pendingCount == 0 }, timeout: 2),
                      "an idle runs once, and is forgotten once it has")
        do {
            let witness = Witness { released = true }
            sources.idle { witness.calls += 1; idles += 1 }
            sources.beforeNextFrame { witness.calls += 1; idles += 1 }
            sources.idleAfterOtherIdleWork { witness.calls += 1; idles += 1 }
        }
        let timer = sources.timer(milliseconds: 5) { ticks += 1; return true }
        XCTAssertTrue(timer.isRunning)
        XCTAssertEqual(sources.pendingCount, 4)
        window.destroy()
        XCTAssertEqual(sources.pendingCount, 0)
        XCTAssertTrue(released, "the waiting closures were released with their sources")
        XCTAssertFalse(timer.isRunning, "the timer went with the others")
        timer.cancel() // its id was zeroed: cancelling it removes nothing
        sources.idle { idles += 1 }
        let late = sources.timer(milliseconds: 5) { ticks += 1; return true }
        XCTAssertFalse(late.isRunning, "nothing is added once the owner is gone")
        _ = MainLoop.run(until: { false }, timeout: 0.1)
        XCTAssertEqual(idles, 1)
        XCTAssertEqual(ticks, 0)
    }

    /// A waiting closure may hold the last reference to the owner of another waiting timer: removing the closure
    /// removes that timer first (`MainLoopTimer`'s deinit), and removing them all must not remove it again, which
    /// GLib reports as a critical ("Source ID … was not found").
    func testRemovingSourcesWhoseClosuresOwnTheOtherTimers() async {
        final class Owner { var timer: MainLoopTimer? }
        let sources = MainLoopSources()
        for _ in 0..<20 {
            let owner = Owner()
            owner.timer = sources.timer(milliseconds: 60_000) { true }
            sources.idle { _ = owner }
        }
        XCTAssertEqual(sources.pendingCount, 40)
        GLibCriticals.count = 0
        let handler = g_log_set_handler("GLib", G_LOG_LEVEL_CRITICAL, { _, _, _, _ in GLibCriticals.count += 1 }, nil)
        sources.removeAll()
        g_log_remove_handler("GLib", handler)
        XCTAssertEqual(sources.pendingCount, 0)
        XCTAssertEqual(GLibCriticals.count, 0, "no source was removed twice")
    }
}

/// GLib criticals counted by a test's log handler (a C function, which captures nothing).
private enum GLibCriticals {
    nonisolated(unsafe) static var count = 0
}
