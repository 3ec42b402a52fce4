#!/usr/bin/python3
# The Pageload bar (libpageload-1, namespace Pageload) from Python through PyGObject: a window with content, the bar
# over it, and buttons that simulate loads, as Examples/bar-demo does in Swift.
#
#     bar-demo.py [fast|slow|failure|stall] [--curve wechat|smooth|real|FILE.json]
#
# With the library installed outside the system's directories, point GI_TYPELIB_PATH at its girepository-1.0 folder
# and LD_LIBRARY_PATH at its library folder.
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Pageload", "1")
from gi.repository import GLib, Gtk, Pageload  # noqa: E402

M = Pageload.Milestone


def scripts():
    """Each simulated load: (tenths of a second after the start, what the bar is told)."""
    slow = [(2, lambda b: b.milestone(M.NAME_RESOLVED)), (4, lambda b: b.milestone(M.CONNECTED)),
            (6, lambda b: b.milestone(M.SECURED)), (10, lambda b: b.milestone(M.FIRST_BYTE))]
    # 200 KB in 5 KB pieces over 8 s; bytes show only above the curve's hold.
    slow += [(10 + i * 2, lambda b, i=i: b.set_real_progress(i * 5000, 200000)) for i in range(1, 41)]
    slow.append((91, lambda b: b.finish()))
    return {
        "fast": ("_Fast load", [(1, lambda b: b.milestone(M.FIRST_BYTE)), (3, lambda b: b.finish())]),
        "slow": ("_Slow load", slow),
        "failure": ("F_ailure", [(3, lambda b: b.milestone(M.FIRST_BYTE)), (15, lambda b: b.fail())]),
        "stall": ("S_tall", [(3, lambda b: b.milestone(M.FIRST_BYTE)), (5, lambda b: b.set_real_progress(2048, -1))]),
    }


class Demo:
    def __init__(self, curve):
        self.timer = 0
        self.window = Gtk.Window(title="Pageload bar demo (Python)")
        self.window.set_default_size(640, 320)
        self.window.connect("destroy", Gtk.main_quit)
        self.bar = Pageload.Bar()
        self.bar.set_curve(curve)  # raises GLib.Error naming the file and the problem
        self.bar.connect("finished", lambda _bar: self.status.set_text("The load is over."))
        self.status = Gtk.Label(label="Choose a load to simulate.")

        buttons = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=6, margin=6)
        for name, (label, script) in scripts().items():
            button = Gtk.Button.new_with_mnemonic(label)
            button.connect("clicked", lambda _b, n=name, s=script: self.simulate(n, s))
            buttons.pack_start(button, False, False, 0)
        stop = Gtk.Button.new_with_mnemonic("St_op")
        stop.connect("clicked", lambda _b: self.stop())
        buttons.pack_start(stop, False, False, 0)

        # Any content goes under the bar; the overlay keeps it from shifting when the bar appears.
        content = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin=24)
        content.pack_start(Gtk.Label(label="The page, a document, a map: whatever the window shows while it loads."),
                           False, False, 0)
        content.pack_start(self.status, False, False, 0)
        overlay = Gtk.Overlay()
        overlay.add(content)
        overlay.add_overlay(self.bar)

        layout = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        layout.pack_start(buttons, False, False, 0)
        layout.pack_start(overlay, True, True, 0)
        self.window.add(layout)
        self.window.show_all()

    def simulate(self, name, script):
        self.cancel_timer()
        self.bar.start()
        self.status.set_text(f"Simulating a {name} load…")
        pending = list(script)
        tenths = [0]

        def step():
            tenths[0] += 1
            while pending and pending[0][0] <= tenths[0]:
                pending.pop(0)[1](self.bar)
            if self.bar.props.loading and pending:
                return GLib.SOURCE_CONTINUE
            self.timer = 0
            return GLib.SOURCE_REMOVE

        self.timer = GLib.timeout_add(100, step)

    def cancel_timer(self):
        if self.timer:
            GLib.source_remove(self.timer)
            self.timer = 0

    def stop(self):
        self.cancel_timer()
        self.bar.cancel()
        self.status.set_text("Stopped: the bar went at once.")


def main(argv):
    curve = "wechat"
    if "--curve" in argv:
        i = argv.index("--curve")
        curve = argv[i + 1]
        del argv[i:i + 2]
    try:
        demo = Demo(curve)
    except GLib.Error as error:
        print(f"bar-demo.py: {error.message}", file=sys.stderr)
        return 2
    chosen = scripts().get(argv[0]) if argv else None
    if chosen:
        demo.simulate(argv[0], chosen[1])
    Gtk.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
