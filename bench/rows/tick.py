"""Row "tick": the bar while a page holds back most of its bytes for 14 s — its strip repaints (XDamage) and CPU
while it moves and while it pulses on a stalled server — and the wake-ups of an idle window beside a bare GTK 3
window.
"""

import os
import subprocess
import time

from run import (BenchError, context_switches, cpu_seconds, exit_text, launch_app, startup_page, STARTUP_TITLE, verdict,
                 wakeups_between)


def idle_wakeups(bench, pid, window, seconds):
    subprocess.run(["xdotool", "windowfocus", "--sync", window], env=bench.env("infra"), capture_output=True,
                   timeout=10)
    # The bar's finish is over and focus-in redraws are done within 2 s; libdispatch ends its idle worker thread
    # (the one that parsed the page) about 5 s after its last job, a one-off that is not the window idling.
    time.sleep(6.0)
    before = context_switches(pid)
    time.sleep(seconds)
    return wakeups_between(before, context_switches(pid))


def damage(bench, window, seconds):
    """(strip repaints, other repaints, strip reports, tallest strip report) in `window` over `seconds`."""
    out = subprocess.run([bench.xprobe, "damage", window, str(seconds), "4"], env=bench.env("infra"),
                         capture_output=True, text=True, timeout=seconds + 10).stdout.split()
    if not out or out[0] != "damage":
        raise BenchError("xprobe damage printed nothing")
    return tuple(int(v) for v in out[1:5])


def row_tick(bench, report):
    # /hold: 2 KB of a 200 KB page at once, the rest 14 s later. The bar moves along the curve from the start and
    # the load counts as stalled from 3 s after the 2 KB (the bar also pulses).
    since = bench.mark()
    proc, window = launch_app(bench, bench.url("/hold?seconds=14&size=200000"))
    try:
        request = bench.wait_event(since, 10, ev="request", path="/hold")
        if not request:
            raise BenchError("the app did not request the page")
        phases = {}
        for name, start, seconds in (("moving", 0.4, 2.0), ("stalled", 4.5, 4.0)):
            time.sleep(max(0.0, request["t"] + start - time.monotonic()))
            c0, t0 = cpu_seconds(proc.pid), time.monotonic()
            strip, other, reports, tallest = damage(bench, window, seconds)
            c1, t1 = cpu_seconds(proc.pid), time.monotonic()
            phases[name] = dict(strip=strip / seconds, other=other, reports=reports, tallest=tallest,
                                cpu=(c1 - c0) / (t1 - t0), span=(start, start + seconds))
        polls = bench.strace_polls(proc.pid, 2.0)
        if bench.wait_event(since, 0, ev="sent", id=request["id"]):
            raise BenchError("the page finished loading before the measurement ended")
        for name, what in (("moving", "the bar moving along the curve"),
                           ("stalled", "no byte since 2 KB: the curve moving and the stall pulse")):
            p = phases[name]
            report.detail("tick", f"{what}, {p['span'][0]:.1f}–{p['span'][1]:.1f} s after the request: "
                                  f"{p['strip']:.1f} strip repaints/s ({p['reports']} XDamage reports no taller "
                                  f"than 4 px, the tallest {p['tallest']} px; {p['other']} other repaints), CPU "
                                  f"{p['cpu'] * 100:.2f}% of one core (all threads)")
        if polls:
            returns, timeouts = polls
            report.detail("tick", f"strace over 2 s while stalled: {returns} poll returns, timeouts by poll timeout "
                                  f"argument {dict(sorted(timeouts.items(), key=lambda kv: -kv[1])[:6])}")
        moving, stalled = phases["moving"], phases["stalled"]
        report.add("The bar", "strip repaints per second while the bar moves (XDamage)", f"{moving['strip']:.0f}/s",
                   "", "", "", "≥ 45/s (frame rate; the 0.1 s tick alone: 10)", verdict(moving["strip"] >= 45))
        report.add("The bar", "CPU while the bar moves", f"{moving['cpu'] * 100:.1f}%", "", "", "",
                   "< 5% of a core", verdict(moving["cpu"] < 0.05))
        report.add("The bar", "CPU while the bar pulses on a stalled server", f"{stalled['cpu'] * 100:.1f}%", "", "",
                   "", "< 5% of a core", verdict(stalled["cpu"] < 0.05))
    finally:
        bench.end_apps()
        proc.wait(timeout=5)

    # Idle: a loaded page, the bar finished; gtkprogress vs the bare window (the floor).
    page = startup_page(os.path.join(bench.tmp, "idle.html"))
    results, reasons = {}, {}
    for name, cmd in (("gtkprogress", [bench.binary, page]), ("bare GTK 3 window", [bench.bare, page])):
        offset = bench.log_offset()
        proc = bench.popen(cmd)
        try:
            window = bench.window_of(proc, timeout=20, title=STARTUP_TITLE)
            if not window:
                results[name] = None
                status = proc.poll()
                reasons[name] = ("no window with the page's title within 20 s" if status is None else
                                 f"{exit_text(status)} without showing the page"
                                 + (f": “{bench.log_reason(offset)}”" if bench.log_reason(offset) else ""))
                report.detail("tick", f"{name}: {reasons[name]}")
                continue
            wakeups, ended = idle_wakeups(bench, proc.pid, window, 5.0)
            polls = bench.strace_polls(proc.pid, 5.0) if name == "gtkprogress" else None
            results[name] = wakeups
            extra = ""
            if polls:
                returns, timeouts = polls
                extra = (f"; then strace for 5 s more: {returns} poll returns, of which timeouts "
                         f"{dict(sorted(timeouts.items(), key=lambda kv: -kv[1])[:6])} (key: poll timeout in ms)")
            report.detail("tick", f"{name}: {wakeups} context switches (all threads"
                                  f"{f'; {ended} thread(s) ended, counted once each' if ended else ''}) in 5 s idle, "
                                  f"starting 6 s after the page was shown and the window focused{extra}")
        finally:
            bench.end_apps()
            proc.wait(timeout=5)
    app, bare = results.get("gtkprogress"), results.get("bare GTK 3 window")
    if app is None:
        report.na("The bar", "wakeups in 5 s of an idle window", reasons.get("gtkprogress", "not measured"), "none")
    else:
        report.add("The bar", "wakeups in 5 s of an idle window", str(app), "bare GTK 3 window",
                   "n/a" if bare is None else str(bare), "—", "none", verdict(app == 0))
