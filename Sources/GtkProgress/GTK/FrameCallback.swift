internal import CGtk

/// A function run before every frame of a widget's frame clock, at the display's frame rate and only while the
/// widget is mapped (<https://docs.gtk.org/gtk3/method.Widget.add_tick_callback.html>). It goes when the function
/// returns false, on `cancel()`, or with this object, so nothing wakes the loop once the motion is over.
@MainActor
final class FrameCallback {
    private final class State {
        let frame: () -> Bool
        var id: UInt32 = 0
        init(_ frame: @escaping () -> Bool) { self.frame = frame }
    }

    private let state: State
    private let widget: Widget

    init(on widget: Widget, _ frame: @escaping () -> Bool) {
        self.widget = widget
        state = State(frame)
        state.id = gtk_widget_add_tick_callback(widget.widget, { _, _, data in
            // The frame clock ticks on GTK's thread, the main thread.
            MainActor.assumeIsolated {
                let state = Unmanaged<State>.fromOpaque(data!).takeUnretainedValue()
                if state.frame() { return 1 }
                state.id = 0
                return 0
            }
        }, Unmanaged.passRetained(state).toOpaque(), { data in
            let state = Unmanaged<State>.fromOpaque(data!)
            state.takeUnretainedValue().id = 0
            state.release()
        })
    }

    var isRunning: Bool { state.id != 0 }

    func cancel() {
        guard state.id != 0 else { return }
        let id = state.id
        state.id = 0
        gtk_widget_remove_tick_callback(widget.widget, id)
    }

    /// Wrappers are released on the main thread, where they are used.
    deinit { MainActor.assumeIsolated { cancel() } }
}
