#!/usr/bin/gjs
// The Pageload bar (libpageload-1, namespace Pageload) from JavaScript through GJS: a window with content, the bar
// over it, and buttons that simulate loads, as Examples/bar-demo does in Swift.
//
//     gjs bar-demo.js [fast|slow|failure|stall] [--curve wechat|smooth|real|FILE.json]
//
// With the library installed outside the system's directories, point GI_TYPELIB_PATH at its girepository-1.0 folder
// and LD_LIBRARY_PATH at its library folder.
imports.gi.versions.Gtk = '3.0';
imports.gi.versions.Pageload = '1';
const {GLib, Gtk, Pageload} = imports.gi;

const M = Pageload.Milestone;

/** Each simulated load: [tenths of a second after the start, what the bar is told]. */
function scripts() {
    const slow = [[2, b => b.milestone(M.NAME_RESOLVED)], [4, b => b.milestone(M.CONNECTED)],
        [6, b => b.milestone(M.SECURED)], [10, b => b.milestone(M.FIRST_BYTE)]];
    // 200 KB in 5 KB pieces over 8 s; bytes show only above the curve's hold.
    for (let i = 1; i <= 40; i++)
        slow.push([10 + i * 2, b => b.set_real_progress(i * 5000, 200000)]);
    slow.push([91, b => b.finish()]);
    return {
        fast: ['_Fast load', [[1, b => b.milestone(M.FIRST_BYTE)], [3, b => b.finish()]]],
        slow: ['_Slow load', slow],
        failure: ['F_ailure', [[3, b => b.milestone(M.FIRST_BYTE)], [15, b => b.fail()]]],
        stall: ['S_tall', [[3, b => b.milestone(M.FIRST_BYTE)], [5, b => b.set_real_progress(2048, -1)]]],
    };
}

function main(argv) {
    let curve = 'wechat';
    const at = argv.indexOf('--curve');
    if (at >= 0) {
        curve = argv[at + 1];
        argv.splice(at, 2);
    }
    Gtk.init(null);
    const bar = new Pageload.Bar();
    try {
        bar.set_curve(curve);
    } catch (error) {
        printerr(`bar-demo.js: ${error.message}`);
        return 2;
    }
    const status = new Gtk.Label({label: 'Choose a load to simulate.'});
    bar.connect('finished', () => status.set_text('The load is over.'));
    let timer = 0;
    const cancelTimer = () => {
        if (timer)
            GLib.source_remove(timer);
        timer = 0;
    };
    const simulate = (name, script) => {
        cancelTimer();
        bar.start();
        status.set_text(`Simulating a ${name} load…`);
        const pending = script.slice();
        let tenths = 0;
        timer = GLib.timeout_add(GLib.PRIORITY_DEFAULT, 100, () => {
            tenths += 1;
            while (pending.length > 0 && pending[0][0] <= tenths)
                pending.shift()[1](bar);
            if (bar.loading && pending.length > 0)
                return GLib.SOURCE_CONTINUE;
            timer = 0;
            return GLib.SOURCE_REMOVE;
        });
    };

    const window = new Gtk.Window({title: 'Pageload bar demo (GJS)', default_width: 640, default_height: 320});
    window.connect('destroy', () => Gtk.main_quit());
    const buttons = new Gtk.Box({orientation: Gtk.Orientation.HORIZONTAL, spacing: 6, margin: 6});
    for (const [name, [label, script]] of Object.entries(scripts())) {
        const button = Gtk.Button.new_with_mnemonic(label);
        button.connect('clicked', () => simulate(name, script));
        buttons.pack_start(button, false, false, 0);
    }
    const stop = Gtk.Button.new_with_mnemonic('St_op');
    stop.connect('clicked', () => {
        cancelTimer();
        bar.cancel();
        status.set_text('Stopped: the bar went at once.');
    });
    buttons.pack_start(stop, false, false, 0);

    // Any content goes under the bar; the overlay keeps it from shifting when the bar appears.
    const content = new Gtk.Box({orientation: Gtk.Orientation.VERTICAL, spacing: 12, margin: 24});
    content.pack_start(new Gtk.Label({label: 'The page, a document, a map: whatever the window shows while it loads.'}),
        false, false, 0);
    content.pack_start(status, false, false, 0);
    const overlay = new Gtk.Overlay();
    overlay.add(content);
    overlay.add_overlay(bar);
    const layout = new Gtk.Box({orientation: Gtk.Orientation.VERTICAL});
    layout.pack_start(buttons, false, false, 0);
    layout.pack_start(overlay, true, true, 0);
    window.add(layout);
    window.show_all();

    const chosen = scripts()[argv[0]];
    if (chosen)
        simulate(argv[0], chosen[1]);
    Gtk.main();
    return 0;
}

imports.system.exit(main(ARGV));
