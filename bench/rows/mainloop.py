"""Row "mainloop": main-loop health, the worst lateness of the window's answers to pings during a 50 MB load.
"""

import subprocess
import time

from run import BenchError, launch_app, ms, verdict


def row_mainloop(bench, report):
    proc, window = launch_app(bench, bench.url("/page?title=Start%20page"), title="Start page")
    try:
        seconds = 7.0
        ping = subprocess.Popen([bench.xprobe, "ping", window, "5", str(seconds)], env=bench.env("infra"),
                                stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)
        since = bench.mark()
        t_nav = bench.navigate(window, bench.url("/big?mb=50"))
        request = bench.wait_event(since, 10, ev="request", path="/big")
        end = request and bench.wait_event(since, 20, ev="end", id=request["id"])
        closed = request and bench.wait_event(since, 0, ev="closed", id=request["id"])
        out, _ = ping.communicate(timeout=seconds + 30)
        pings = [(float(p[1]), float(p[2])) for p in (l.split() for l in out.splitlines()) if p and p[0] == "ping"]
        if not request:
            raise BenchError("the app never requested /big?mb=50")
        if not end:
            raise BenchError(f"the transfer did not complete ({'closed early' if closed else 'no end'} in 20 s)")
        if end["t"] > pings[-1][0]:
            raise BenchError("the load outlasted the ping series")

        def worst(lo, hi):
            window_pings = [rtt for t, rtt in pings if lo <= t <= hi]
            lost = sum(1 for rtt in window_pings if rtt < 0)
            answered = [rtt for rtt in window_pings if rtt >= 0]
            return (max(answered) if answered else None), lost, len(window_pings)

        base, _, nbase = worst(pings[0][0], t_nav - 0.2)
        during, lost, n = worst(t_nav, end["t"])
        after, lost_after, n_after = worst(end["t"], end["t"] + 2.0)
        report.detail("mainloop", f"method: _NET_WM_PING round trips through the app's main loop every 5 ms "
                                  f"(bench/xprobe ping); GDK answers from the main loop, so a blocked loop delays the "
                                  f"answer as long as it delays a 0.1 s tick. Body: application/octet-stream, typed "
                                  f"into the address entry.")
        report.detail("mainloop", f"before the load: worst {ms(base)} over {nbase} pings; during (Return → server "
                                  f"saw the connection closed, {ms(end['t'] - t_nav)}): worst {ms(during)} over {n} "
                                  f"pings, {lost} unanswered within 2 s; the 2 s after: worst {ms(after)} over "
                                  f"{n_after}, {lost_after} unanswered")
        if lost:
            report.add("Main loop", "worst tick lateness during a 50 MB load", f"> 2 s ({lost} pings unanswered)",
                       "", "", "", "< 30 ms", "not met")
        elif during is None:
            report.na("Main loop", "worst tick lateness during a 50 MB load", "no ping landed during the load", "< 30 ms")
        else:
            report.add("Main loop", "worst tick lateness during a 50 MB load (ping round trip)", ms(during), "", "",
                       "", "< 30 ms", verdict(during < 0.030))
    finally:
        bench.end_apps()
        proc.wait(timeout=5)
