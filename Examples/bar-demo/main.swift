// bar-demo: the GtkProgress load indicator over any content, driven by buttons that simulate loads (no network).
// It uses only the library's public API; Tests/adopter builds it as an application outside this package would.
//
//     bar-demo [fast|slow|failure|stall] [--curve wechat|smooth|real|FILE.json]
import Foundation
import GtkProgress

/// A simulated load: what happens at which tenth of a second after it starts.
/// The library's widgets are `@MainActor`: GTK is used from the main thread only.
typealias Script = [(tenths: Int, step: @MainActor (LoadIndicator) -> Void)]

@MainActor
func scripts() -> [(label: String, name: String, script: Script)] {
    var slow: Script = [(2, { $0.milestone(.nameResolved) }), (4, { $0.milestone(.connected) }),
                        (6, { $0.milestone(.secured) }), (10, { $0.milestone(.firstByte) })]
    for i in 1...40 {  // 200 KB in 5 KB pieces over 8 s; bytes show only above the curve's hold
        slow.append((10 + i * 2, { $0.realProgress(received: Int64(i) * 5_000, expected: 200_000) }))
    }
    slow.append((91, { $0.finish() }))
    let fast: Script = [(1, { $0.milestone(.firstByte) }), (3, { $0.finish() })]
    let failure: Script = [(3, { $0.milestone(.firstByte) }), (15, { $0.fail() })]
    let stall: Script = [(3, { $0.milestone(.firstByte) }), (5, { $0.realProgress(received: 2_048, expected: nil) })]
    return [("_Fast load", "fast", fast), ("_Slow load", "slow", slow), ("F_ailure", "failure", failure),
            ("S_tall", "stall", stall)]
}

@MainActor
func runDemo(_ arguments: [String]) -> Int32 {
    var arguments = arguments
    var curveName = ProgressCurve.defaultPresetName
    if let i = arguments.firstIndex(of: "--curve"), i + 1 < arguments.count {
        curveName = arguments[i + 1]
        arguments.removeSubrange(i...(i + 1))
    }
    let curve: ProgressCurve
    do { curve = try ProgressCurve.load(nameOrPath: curveName) } catch {
        FileHandle.standardError.write(Data("bar-demo: \(error)\n".utf8))
        return 2
    }
    var timer: MainLoopTimer?
    let app = Application(id: "org.gtkprogress.BarDemo", unique: false)
    app.onActivate {
        // Widgets, the bar among them, are made once GTK is running: here, not before `run`.
        let bar = LoadIndicator(curve: curve)
        let status = Label("Choose a load to simulate.")
        bar.onStallChange = { stalled in
            if stalled { status.text = "No byte for 3 s: the bar pulses quietly until Stop." }
        }
        @MainActor func simulate(_ name: String, _ script: Script) {
            timer?.cancel()
            bar.start()
            status.text = "Simulating a \(name) load…"
            var tenths = 0, pending = script
            timer = MainLoopTimer(milliseconds: 100, name: "bar-demo script") {
                tenths += 1
                while let next = pending.first, next.tenths <= tenths {
                    pending.removeFirst()
                    next.step(bar)
                }
                if !bar.isLoading { status.text = "The \(name) load is over." }
                return bar.isLoading && !pending.isEmpty
            }
        }
        let window = app.makeWindow()
        window.title = "GtkProgress bar demo"
        window.setDefaultSize(width: 640, height: 320)
        let buttons = Box(vertical: false, spacing: 6)
        buttons.setMargins(horizontal: 6, vertical: 6)
        for (label, name, script) in scripts() {
            let button = Button(label: label)
            button.onClicked { simulate(name, script) }
            buttons.pack(button)
        }
        let stop = Button(label: "St_op")
        stop.onClicked {
            timer?.cancel()
            bar.cancel()
            status.text = "Stopped: the bar went at once."
        }
        buttons.pack(stop)
        // Any content goes under the bar; the overlay keeps it from shifting when the bar appears.
        let overlay = Overlay()
        let content = Box(vertical: true, spacing: 12)
        content.setMargins(horizontal: 24, vertical: 24)
        content.pack(Label("The page, a document, a map: whatever the window shows while it loads."))
        content.pack(status)
        overlay.add(content)
        bar.attach(to: overlay)
        let layout = Box(vertical: true)
        layout.pack(buttons)
        layout.pack(overlay, expand: true)
        window.add(layout)
        window.showAll()
        if let chosen = scripts().first(where: { $0.name == arguments.first }) { simulate(chosen.name, chosen.script) }
    }
    // The simulation is chosen here, not by GApplication, which would take the words for files to open.
    return app.run(arguments: [CommandLine.arguments[0]])
}

exit(runDemo(Array(CommandLine.arguments.dropFirst())))
