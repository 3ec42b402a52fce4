"""Row "find": find in a 5 MB page, searched a slice per main-loop turn, with the main loop's answers to pings.
"""

import os
import subprocess
import time

from run import BenchError, generate_page, launch_app, ms, verdict


def row_find(bench, report):
    """Find in a 5 MB page: the letter "e" matches hundreds of thousands of times, searched a slice per main-loop
    turn; the main loop must stay as responsive as while loading."""
    page = os.path.join(bench.tmp, "find-5mb.html")
    generate_page(page, 5 * 1024 * 1024, "Find bench", seed=11)
    proc, window = launch_app(bench, page, title="Find bench", timeout=30)
    try:
        time.sleep(4.0)  # the page has gone into the view, in slices
        seconds = 8.0
        ping = subprocess.Popen([bench.xprobe, "ping", window, "5", str(seconds)], env=bench.env("infra"),
                                stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)
        bench.key(window, "ctrl+f")
        time.sleep(0.3)
        t_find = bench.key(window, "e")
        time.sleep(2.0)
        t_next = bench.key(window, "Return")
        out, _ = ping.communicate(timeout=seconds + 30)
        pings = [(float(p[1]), float(p[2])) for p in (l.split() for l in out.splitlines()) if p and p[0] == "ping"]
        if t_find is None or not pings:
            raise BenchError("no key or no ping reached the window")
        during = [rtt for t, rtt in pings if t_find <= t <= t_find + 5.0]
        lost = sum(1 for rtt in during if rtt < 0)
        answered = [rtt for rtt in during if rtt >= 0]
        worst = max(answered) if answered else None
        report.detail("find", f"method: a generated 5 MB page opened from a file; Ctrl+F, then \"e\" typed (search "
                              f"starts on GtkSearchEntry's search-changed), Return 2 s later; _NET_WM_PING round "
                              f"trips every 5 ms (bench/xprobe ping) over the 5 s after the key: worst {ms(worst)} over "
                              f"{len(during)} pings, {lost} unanswered within 2 s"
                              f"{'' if t_next else '; Return was not sent'}")
        if lost or worst is None:
            report.add("Find in page", "worst main-loop lateness while finding \"e\" in 5 MB", "> 2 s" if lost else "n/a",
                       "", "", "", "< 30 ms", "not met")
        else:
            report.add("Find in page", "worst main-loop lateness while finding \"e\" in 5 MB (ping round trip)",
                       ms(worst), "", "", "", "< 30 ms", verdict(worst < 0.030))
    finally:
        bench.end_apps()
        proc.wait(timeout=5)
