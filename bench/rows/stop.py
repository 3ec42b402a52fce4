"""Row "stop": how soon Escape on a streaming load closes the connection at the server.
"""

import time

from run import BenchError, launch_app, median, ms, verdict


def row_stop(bench, report):
    samples, notes = [], []
    for _ in range(5 if not bench.quick else 3):
        since = bench.mark()
        proc, window = launch_app(bench, bench.url("/stream?rate=100000"))
        try:
            request = bench.wait_event(since, 10, ev="request", path="/stream")
            if not request:
                raise BenchError("the app did not request /stream")
            time.sleep(max(0.0, request["t"] + 0.7 - time.monotonic()))
            early = bench.wait_event(since, 0, ev="closed", id=request["id"])
            if early:
                raise BenchError(f"the app closed the connection {ms(early['t'] - request['t'])} after the request, "
                                 f"before Stop ({early['bytes']} bytes received)")
            t_key = bench.key(window, "Escape")
            closed = bench.wait_event(since, 5, ev="closed", id=request["id"])
            if not closed:
                notes.append("no close within 5 s of Escape")
                continue
            samples.append(closed["t"] - t_key)
            notes.append(f"{ms(closed['t'] - t_key)} ({closed['how']}, {closed['bytes'] / 1e3:.0f} KB sent)")
        finally:
            bench.end_apps()
            proc.wait(timeout=5)
    report.detail("stop", "method: the page /stream (100 KB/s, Content-Length 50 MB) loads for 0.7 s, then Escape through XTEST "
                          "(bench/xprobe key); the server notes when it sees the client's FIN or RST. Samples: "
                          + ", ".join(notes))
    if not samples:
        report.na("Stop", "Escape → connection closed at the server", notes[0] if notes else "no sample", "< 50 ms")
    else:
        report.add("Stop", f"Escape → connection closed at the server (median; max {ms(max(samples))})",
                   ms(median(samples)), "", "", "", "< 50 ms", verdict(median(samples) < 0.050))
