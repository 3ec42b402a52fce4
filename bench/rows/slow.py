"""Rows "slow" and "slowcjk": CPU for a large page arriving slowly (progressive display), in Latin and in CJK and
mixed scripts, beside Dillo and NetSurf on the same page.
"""

import os
import subprocess
import time

from run import BenchError, cpu_seconds, dpid, gone, launch_app, marked_pids, median, ms, ratio, verdict


def slow_page_cpu(bench, name, cmd_for, script="latin", words=60):
    """CPU seconds a program spends showing /slowpage?kb=1000&rate=100000 (10 s), from exec until 2 s after the
    last byte was sent (its final render included). `script`: the page's words, `words`: words per paragraph
    (bench/benchserver.py)."""
    since = bench.mark()
    if name.startswith("Dillo"):
        dpid(bench, True)
    proc = bench.popen(cmd_for(bench.url(f"/slowpage?kb=1000&rate=100000&script={script}&words={words}")))
    try:
        request = bench.wait_event(since, 20, ev="request", path="/slowpage")
        if not request:
            raise BenchError(f"{name} did not request the page")
        sent = bench.wait_event(since, 40, ev="sent", id=request["id"])
        if not sent:
            raise BenchError(f"{name}: the page was not sent within 40 s")
        time.sleep(2.0)
        pids = [p for p in marked_pids(f"{bench.tag}-app") if not gone(p)]
        return sum(cpu_seconds(p) or 0 for p in pids)
    finally:
        bench.end_launch(proc)


def row_slow(bench, report):
    # CPU for a 1 MB page at 100 KB/s, against Dillo and NetSurf on the same page.
    programs = [("gtkprogress", lambda url: [bench.binary, url]), ("Dillo", lambda url: ["dillo", url]),
                ("NetSurf", lambda url: ["netsurf-gtk", url])]
    cpu = {}
    for name, cmd_for in programs:
        try:
            cpu[name] = slow_page_cpu(bench, name, cmd_for)
        except (BenchError, OSError, subprocess.SubprocessError) as error:
            report.detail("slow", f"{name}: {error}")
    report.detail("slow", "CPU: exec → 2 s after the last byte of a 1 MB HTML page sent at 100 KB/s (10 s), all "
                          "threads of the program's processes (schedstat). " +
                  ", ".join(f"{n} {v:.2f} s" for n, v in cpu.items()))
    ours = cpu.get("gtkprogress")
    for peer in ("Dillo", "NetSurf"):
        if ours is None or peer not in cpu:
            report.na("Slow large page", f"CPU for 1 MB at 100 KB/s vs {peer}", "not measured", "≤ 2× Dillo")
            continue
        target = "≤ 2× Dillo" if peer == "Dillo" else ""
        report.add("Slow large page", "CPU seconds for a 1 MB page arriving at 100 KB/s", f"{ours:.2f} s", peer,
                   f"{cpu[peer]:.2f} s", ratio(ours, cpu[peer]), target,
                   verdict(ours <= 2 * cpu[peer]) if peer == "Dillo" else "")

    # The main loop while a 6 MB page arrives at 600 KB/s and is rendered at the end.
    proc, window = launch_app(bench, bench.url("/page?title=Start%20page"), title="Start page")
    try:
        seconds = 17.0
        ping = subprocess.Popen([bench.xprobe, "ping", window, "5", str(seconds)], env=bench.env("infra"),
                                stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)
        since = bench.mark()
        t_nav = bench.navigate(window, bench.url("/slowpage?kb=6000&rate=600000"))
        request = bench.wait_event(since, 10, ev="request", path="/slowpage")
        sent = request and bench.wait_event(since, 20, ev="sent", id=request["id"])
        out, _ = ping.communicate(timeout=seconds + 30)
        pings = [(float(p[1]), float(p[2])) for p in (l.split() for l in out.splitlines()) if p and p[0] == "ping"]
        if not sent:
            raise BenchError("the 6 MB page was not sent within 20 s")
        span = [rtt for t, rtt in pings if t_nav <= t <= sent["t"] + 4.0]
        lost = sum(1 for rtt in span if rtt < 0)
        answered = [rtt for rtt in span if rtt >= 0]
        over = sum(1 for rtt in answered if rtt > 0.030)
        worst = max(answered) if answered else None
        report.detail("slow", f"main loop: _NET_WM_PING every 5 ms from Return until 4 s after the last byte of a 6 MB "
                              f"page at 600 KB/s (its final render included): worst {ms(worst)} over {len(span)} "
                              f"pings, {over} over 30 ms, {lost} unanswered")
        if lost or worst is None:
            report.add("Slow large page", "worst main-loop round trip, 6 MB at 600 KB/s", "n/a" if worst is None
                       else f"> 2 s ({lost} lost)", "", "", "", "< 30 ms", "not met")
        else:
            report.add("Slow large page", "worst main-loop round trip, 6 MB at 600 KB/s + final render", ms(worst),
                       "", "", "", "< 30 ms", verdict(worst < 0.030))
    finally:
        bench.end_apps()
        proc.wait(timeout=5)

    # Stop while that page arrives, after 3 s (1.8 MB in, shown progressively).
    samples, notes = [], []
    for _ in range(5 if not bench.quick else 3):
        since = bench.mark()
        proc, window = launch_app(bench, bench.url("/slowpage?kb=6000&rate=600000"))
        try:
            request = bench.wait_event(since, 10, ev="request", path="/slowpage")
            if not request:
                raise BenchError("the app did not request /slowpage")
            time.sleep(max(0.0, request["t"] + 3.0 - time.monotonic()))
            t_key = bench.key(window, "Escape")
            closed = bench.wait_event(since, 5, ev="closed", id=request["id"])
            if not closed:
                notes.append("no close within 5 s of Escape")
                continue
            samples.append(closed["t"] - t_key)
            notes.append(f"{ms(closed['t'] - t_key)} ({closed['bytes'] / 1e6:.1f} MB sent)")
        finally:
            bench.end_apps()
            proc.wait(timeout=5)
    report.detail("slow", "Stop: Escape 3 s into the 6 MB page at 600 KB/s; samples " + ", ".join(notes))
    if samples:
        report.add("Slow large page", f"Stop during it: Escape → connection closed (median; max {ms(max(samples))})",
                   ms(median(samples)), "", "", "", "< 50 ms", verdict(max(samples) < 0.050))
    else:
        report.na("Slow large page", "Stop during it", notes[0] if notes else "no sample", "< 50 ms")


def floor_text(bench, script, words):
    """The text of /slowpage?kb=1000&script=…&words=… as the viewer shows it (`--dump`, served at full speed), in
    a file for the GTK floor. At the dump's widest width (10,000 columns) each paragraph is one line, as in the
    viewer's buffer, where GTK wraps it: at 80 columns the floor laid out the dump's own short lines instead, which
    cost GTK 10–15% more than the same paragraphs whole."""
    path = os.path.join(bench.tmp, f"slow-{script}-{words}.txt")
    if not os.path.exists(path):
        url = bench.url(f"/slowpage?kb=1000&rate=1000000000&script={script}&words={words}")
        with open(path, "wb") as f:
            subprocess.run([bench.binary, "--dump", "--width", "10000", url], stdout=f, stderr=bench.log,
                           check=True, timeout=60, env=bench.env("infra"))
    return path


def floor_cpu(bench, text):
    """CPU seconds of the GTK floor (bench/bare-gtk-window.c) appending `text` in 4 KB slices over the 10 s the
    page takes to arrive, from exec until 2 s after the last slice: what GTK itself costs to show that text as it
    comes, with no HTML, no network and no styles."""
    proc = bench.popen([bench.bare, text, "10"])
    try:
        time.sleep(12.0)
        if proc.poll() is not None:
            raise BenchError(f"the GTK floor ended early (exit status {proc.returncode})")
        return cpu_seconds(proc.pid) or 0
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def row_slow_cjk(bench, report):
    # CPU for the slow 1 MB page written in CJK, with paragraphs of the usual length and ten times as long, and with
    # Latin paragraphs mixing CJK, Cyrillic, Greek and Arabic words, against Dillo on the same page: programs
    # alternate, median of 3 runs each (2 with --quick).
    programs = [("gtkprogress", lambda url: [bench.binary, url]), ("Dillo", lambda url: ["dillo", url])]
    for script, words, label in (("cjk", 60, "CJK in every paragraph"),
                                 ("cjk", 600, "CJK, paragraphs 10× as long"),
                                 ("mixed", 60, "CJK, Cyrillic, Greek, Arabic")):
        cpu = {name: [] for name, _ in programs}
        cpu["GTK floor"] = []
        try:
            text = floor_text(bench, script, words)
        except (OSError, subprocess.SubprocessError) as error:
            text = None
            report.detail("slowcjk", f"{script}, the page's text for the GTK floor: {error}")
        for _ in range(2 if bench.quick else 3):
            for name, cmd_for in programs:
                try:
                    cpu[name].append(slow_page_cpu(bench, name, cmd_for, script, words))
                except (BenchError, OSError, subprocess.SubprocessError) as error:
                    report.detail("slowcjk", f"{script}, {name}: {error}")
            if text:
                try:
                    cpu["GTK floor"].append(floor_cpu(bench, text))
                except (BenchError, OSError) as error:
                    report.detail("slowcjk", f"{script}, GTK floor: {error}")
        report.detail("slowcjk", f"{label}: CPU, exec → 2 s after the last byte of a 1 MB page at 100 KB/s "
                                 f"(/slowpage?script={script}&words={words}), all threads (schedstat); the GTK "
                                 f"floor appends the page's --dump text over the same 10 s: " +
                      "; ".join(f"{n} " + ", ".join(f"{v:.2f} s" for v in vs) for n, vs in cpu.items()))
        if not cpu["gtkprogress"] or not cpu["Dillo"]:
            report.na("Slow non-Latin page", f"CPU for 1 MB at 100 KB/s, {label}", "not measured", "≤ 2× Dillo")
            continue
        ours, theirs = median(cpu["gtkprogress"]), median(cpu["Dillo"])
        floor = f" (GTK floor {median(cpu['GTK floor']):.2f} s)" if cpu["GTK floor"] else ""
        report.add("Slow non-Latin page", f"CPU seconds for a 1 MB page at 100 KB/s, {label}{floor}",
                   f"{ours:.2f} s", "Dillo", f"{theirs:.2f} s", ratio(ours, theirs), "≤ 2× Dillo",
                   verdict(ours <= 2 * theirs))
