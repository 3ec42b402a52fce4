// The Pageload bar (libpageload-1) from Vala: a window with content, the bar over it, and buttons that simulate
// loads, as Examples/bar-demo does in Swift. It builds with the binding installed beside the library:
//
//     valac --pkg pageload-1 bar-demo.vala
//     ./bar-demo [fast|slow|failure|stall] [--curve wechat|smooth|real|FILE.json]

delegate void Step (Pageload.Bar bar);

class Timed {
    public int tenths;
    public Step step;
    public Timed (int tenths, owned Step step) { this.tenths = tenths; this.step = (owned) step; }
}

class Demo : Object {
    Pageload.Bar bar;
    Gtk.Label status;
    uint timer = 0;

    static GenericArray<Timed> script (string name) {
        var steps = new GenericArray<Timed> ();
        switch (name) {
        case "fast":
            steps.add (new Timed (1, (b) => b.milestone (Pageload.Milestone.FIRST_BYTE)));
            steps.add (new Timed (3, (b) => b.finish ()));
            break;
        case "slow":
            steps.add (new Timed (2, (b) => b.milestone (Pageload.Milestone.NAME_RESOLVED)));
            steps.add (new Timed (4, (b) => b.milestone (Pageload.Milestone.CONNECTED)));
            steps.add (new Timed (6, (b) => b.milestone (Pageload.Milestone.SECURED)));
            steps.add (new Timed (10, (b) => b.milestone (Pageload.Milestone.FIRST_BYTE)));
            // 200 KB in 5 KB pieces over 8 s; bytes show only above the curve's hold.
            for (int i = 1; i <= 40; i++) {
                int64 received = i * 5000;
                steps.add (new Timed (10 + i * 2, (b) => b.set_real_progress (received, 200000)));
            }
            steps.add (new Timed (91, (b) => b.finish ()));
            break;
        case "failure":
            steps.add (new Timed (3, (b) => b.milestone (Pageload.Milestone.FIRST_BYTE)));
            steps.add (new Timed (15, (b) => b.fail ()));
            break;
        case "stall":
            steps.add (new Timed (3, (b) => b.milestone (Pageload.Milestone.FIRST_BYTE)));
            steps.add (new Timed (5, (b) => b.set_real_progress (2048, -1)));
            break;
        }
        return steps;
    }

    public Demo (string curve) throws Error {
        bar = new Pageload.Bar ();
        bar.set_curve (curve);
        status = new Gtk.Label ("Choose a load to simulate.");
        bar.finished.connect (() => status.set_text ("The load is over."));

        var window = new Gtk.Window ();
        window.title = "Pageload bar demo (Vala)";
        window.set_default_size (640, 320);
        window.destroy.connect (Gtk.main_quit);
        var buttons = new Gtk.Box (Gtk.Orientation.HORIZONTAL, 6);
        buttons.margin = 6;
        string[] names = { "fast", "slow", "failure", "stall" };
        string[] labels = { "_Fast load", "_Slow load", "F_ailure", "S_tall" };
        for (int i = 0; i < names.length; i++) {
            var name = names[i];
            var button = new Gtk.Button.with_mnemonic (labels[i]);
            button.clicked.connect (() => simulate (name));
            buttons.pack_start (button, false, false, 0);
        }
        var stop = new Gtk.Button.with_mnemonic ("St_op");
        stop.clicked.connect (() => {
            cancel_timer ();
            bar.cancel ();
            status.set_text ("Stopped: the bar went at once.");
        });
        buttons.pack_start (stop, false, false, 0);

        // Any content goes under the bar; the overlay keeps it from shifting when the bar appears.
        var content = new Gtk.Box (Gtk.Orientation.VERTICAL, 12);
        content.margin = 24;
        content.pack_start (new Gtk.Label ("The page, a document, a map: whatever the window shows while it loads."),
                            false, false, 0);
        content.pack_start (status, false, false, 0);
        var overlay = new Gtk.Overlay ();
        overlay.add (content);
        overlay.add_overlay (bar);
        var layout = new Gtk.Box (Gtk.Orientation.VERTICAL, 0);
        layout.pack_start (buttons, false, false, 0);
        layout.pack_start (overlay, true, true, 0);
        window.add (layout);
        window.show_all ();
    }

    void cancel_timer () {
        if (timer != 0)
            Source.remove (timer);
        timer = 0;
    }

    public void simulate (string name) {
        cancel_timer ();
        bar.start ();
        status.set_text ("Simulating a %s load…".printf (name));
        var steps = script (name);
        int tenths = 0, next = 0;
        timer = Timeout.add (100, () => {
            tenths++;
            while (next < steps.length && steps[next].tenths <= tenths)
                steps[next++].step (bar);
            if (bar.loading && next < steps.length)
                return Source.CONTINUE;
            timer = 0;
            return Source.REMOVE;
        });
    }
}

int main (string[] args) {
    Gtk.init (ref args);
    string curve = "wechat";
    string? chosen = null;
    for (int i = 1; i < args.length; i++) {
        if (args[i] == "--curve" && i + 1 < args.length)
            curve = args[++i];
        else
            chosen = args[i];
    }
    Demo demo;
    try {
        demo = new Demo (curve);
    } catch (Error error) {
        printerr ("bar-demo: %s\n", error.message);
        return 2;
    }
    if (chosen != null)
        demo.simulate (chosen);
    Gtk.main ();
    return 0;
}
