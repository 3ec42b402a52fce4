"""Row "longtext": the main loop while a 1 MB tabs page and a 10 MB single line are opened and scrolled with the
keyboard.
"""

import os
import time

from run import BenchError, launch_app, ms, PingSeries, verdict, wait_idle


def long_text_pages(bench):
    """A 1 MB page of tab-separated columns in <pre> and a 10 MB page that is one line of words: the text GTK lays
    out badly (tab stops measured again at every paint, a paragraph shaped as a whole)."""
    tabs = os.path.join(bench.tmp, "tabs-1mb.html")
    with open(tabs, "w") as f:
        f.write("<title>Tabs bench</title><pre>")
        row = "\t".join(f"c{i}" for i in range(12)) + "\n"
        f.write(row * (1024 * 1024 // len(row)))
        f.write("</pre>")
    line = os.path.join(bench.tmp, "line-10mb.html")
    with open(line, "w") as f:
        f.write("<title>One line bench</title><p>")
        words = "lorem ipsum dolor sit amet consectetur adipiscing elit "
        f.write(words * (10 * 1024 * 1024 // len(words)))
        f.write("</p>")
    return [(tabs, "Tabs bench", "1 MB of tabs in <pre>"), (line, "One line bench", "a 10 MB single line")]


def row_longtext(bench, report):
    """The main loop while a 1 MB tabs page and a 10 MB single line are opened and scrolled with the keyboard."""
    results = []
    for page, title, what in long_text_pages(bench):
        proc, window = launch_app(bench, page, title=title, timeout=60)
        pings = None
        try:
            pings = PingSeries(bench, window)
            t0 = time.monotonic()
            if not wait_idle(proc.pid, 240):
                raise BenchError(f"{what}: still busy 240 s after opening")
            for key in ["Page_Down"] * 10 + ["End", "Home"]:
                bench.key(window, key)
                time.sleep(0.1)
            wait_idle(proc.pid, 60)
            results.append((what, pings.between(t0, time.monotonic())))
        finally:
            if pings:
                pings.stop()
            bench.end_apps()
            proc.wait(timeout=5)
    texts = [f"{what}: worst round trip {ms(worst)} over {n} pings, {lost} unanswered within 2 s"
             for what, (worst, n, lost, stall) in results]
    report.detail("longtext", "method: each page opened from the command line, then Page_Down ten times, End and "
                              "Home, 0.1 s apart; _NET_WM_PING round trips every 5 ms (bench/xprobe ping) from the "
                              "window's appearance until the app is idle. " + "; ".join(texts) + ".")
    for what, (worst, n, lost, stall) in results:
        measure = f"worst main-loop lateness opening and scrolling {what}"
        if lost:
            report.add("Huge page", measure, f"stalls up to {stall:.1f} s ({lost} pings unanswered within 2 s)", "",
                       "", "", "< 30 ms", "not met")
        elif worst is None:
            report.na("Huge page", measure, "no ping was answered", "< 30 ms")
        else:
            report.add("Huge page", measure + " (ping round trip)", ms(worst), "", "", "", "< 30 ms",
                       verdict(worst < 0.030))
