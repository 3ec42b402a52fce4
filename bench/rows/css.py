"""Row "css": what author CSS costs `--dump`: `gtkprogress --dump` with styles and with `--no-css`, beside `w3m -dump`
(which ignores CSS), on real pages with linked stylesheets and on a generated page of 100,000 elements under 5,000
rules.
"""

import html
import os
import re
import shutil
import statistics
import subprocess
import time

from run import BenchError, cpu_seconds, dpid, launch_pids, mb, ms, quiet_since, ratio, run_probe, verdict


def css_page(path, elements=100_000, rules=5_000):
    """A page of `elements` elements in nested divs, paragraphs and spans with classes, and a <style> of `rules`
    rules: class, type, descendant, child and attribute selectors, a few of which hide something."""
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>CSS bench page</title><style>"]
    for k in range(rules):
        kind = k % 5
        if kind == 0:
            parts.append(f".c{k} {{ font-weight: bold }}\n")
        elif kind == 1:
            parts.append(f"div.c{k} > p {{ font-style: italic }}\n")
        elif kind == 2:
            parts.append(f"#i{k} span.s{k % 97} {{ display: none }}\n")
        elif kind == 3:
            parts.append(f"section .c{k} a[href^='#'] {{ color: red }}\n")
        else:
            parts.append(f"p:nth-child(2n+1).c{k} {{ visibility: hidden }}\n")
    parts.append("</style></head><body>")
    count = 0
    n = 0
    while count < elements:
        parts.append(f"<div class='c{n % rules} box' id='i{n % rules}'><p class='c{(n * 7) % rules}'>Paragraph {n} "
                     f"with <span class='s{n % 97}'>a span</span> and <a href='#i{n}'>a link</a>.</p>"
                     f"<p>Second paragraph {n} of plain words.</p></div>\n")
        count += 5
        n += 1
    parts.append("</body></html>\n")
    with open(path, "w") as f:
        f.write("".join(parts))
    return path


def css_pages(bench):
    pages = []
    for path in ("/usr/share/doc/python3/python-policy.html", "/usr/share/doc/nodejs/api/addons.html",
                 "/usr/share/doc/nodejs/api/fs.html"):
        if os.path.exists(path):
            pages.append((f"{path.replace('/usr/share/doc/', '')} ({os.path.getsize(path) / 1e3:.0f} KB, real, "
                          f"linked stylesheets)", path))
    pages.append(("100,000 elements, 5,000 rules (generated)", css_page(os.path.join(bench.tmp, "css.html"))))
    return pages


def page_title(path):
    """The start of the page's <title>, as the window's title shows it."""
    with open(path, encoding="utf-8", errors="replace") as f:
        head = f.read(65536)
    found = re.search(r"<title[^>]*>(.*?)</title>", head, re.S | re.I)
    return html.unescape(re.sub(r"\s+", " ", found.group(1))).strip()[:24] if found else ""


def window_render(bench, name, cmd, title):
    """One launch of a window on the page: (exec → its final render, CPU seconds by then). The final render is the
    start of the first half second of quiet CPU after the window carries the page's title (the page parsed, styled,
    inserted and laid out)."""
    if name == "Dillo":
        dpid(bench, True)
    probe = bench.xprobe_wait("--title", title, "--no-paint", timeout=60)
    t0 = time.monotonic()
    proc = bench.popen(cmd)
    try:
        if not bench.xprobe_result(probe, watch=proc):
            raise BenchError(f"{name}: no window titled {title!r} within 60 s")
        t_quiet = quiet_since(proc.pid, 120)
        if t_quiet is None:
            raise BenchError(f"{name}: still busy 120 s after its window appeared")
        return t_quiet - t0, sum(cpu_seconds(p) or 0 for p in launch_pids(bench, dillo=name == "Dillo"))
    finally:
        bench.end_launch(proc, dillo=name == "Dillo")


def row_css_window(bench, report, label, path):
    """The viewer's final render of the page with and without its author styles, launches alternating (median of
    5), Dillo (which applies CSS) beside them."""
    title = page_title(path)
    if not title:
        report.na("Page style", f"{label}, window until the final render", "the page has no title to wait for",
                  "≤ 1.3× without CSS")
        return
    launches = [("with CSS", [bench.binary, path]), ("without CSS", [bench.binary, "--no-css", path])]
    if shutil.which("dillo"):
        launches.append(("Dillo", ["dillo", "file://" + path]))
    runs = {name: [] for name, _ in launches}
    errors = {}
    for _ in range(5 if not bench.quick else 1):
        for name, cmd in launches:
            if name in errors:
                continue
            try:
                runs[name].append(window_render(bench, name, cmd, title))
            except BenchError as error:
                errors[name] = str(error)
    medians = {}
    for name, values in runs.items():
        if name in errors or not values:
            report.detail("css", f"{label}: window, {name}: {errors.get(name, 'no run')}")
            continue
        medians[name] = (statistics.median(v[0] for v in values), statistics.median(v[1] for v in values))
        report.detail("css", f"{label}: window, {name}: final render "
                             + ", ".join(f"{t * 1000:.0f} ms ({c * 1000:.0f} ms CPU)" for t, c in values))
    app, plain = medians.get("with CSS"), medians.get("without CSS")
    if not app or not plain:
        report.na("Page style", f"{label}, window until the final render",
                  errors.get("with CSS") or errors.get("without CSS") or "no run", "≤ 1.3× without CSS")
        return
    dillo = medians.get("Dillo")
    peer = f" (Dillo {ms(dillo[0])})" if dillo else ""
    report.add("Page style", f"{label}, window until the final render{peer}", ms(app[0]), "without CSS",
               ms(plain[0]), ratio(app[0], plain[0]), "≤ 1.3×", verdict(app[0] <= 1.3 * plain[0]))
    report.add("Page style", f"{label}, window's CPU until the final render", ms(app[1]), "without CSS",
               ms(plain[1]), ratio(app[1], plain[1]), "≤ 1.3×", verdict(app[1] <= 1.3 * plain[1]))


def interleaved_times(bench, commands, rounds):
    """Wall time of each command, run in turn round after round (after one round not counted), so that a burst of
    other work on the machine falls on all of them alike rather than on the runs of one: {name: [seconds]}."""
    times = {name: [] for name, _ in commands}
    for round_index in range(rounds + 1):
        for name, cmd in commands:
            t0 = time.perf_counter()
            # No timeout: with one, subprocess waits in a loop of growing sleeps, which rounds every run up.
            done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                                  env=bench.env("app"))
            elapsed = time.perf_counter() - t0
            if done.returncode != 0:
                raise BenchError(f"{name}: exit status {done.returncode}")
            if round_index > 0:
                times[name].append(elapsed)
    return times


def row_css(bench, report):
    rounds = 25 if not bench.quick else 3
    pages = css_pages(bench)
    for label, path in pages:
        tools = [("with CSS", [bench.binary, "--dump", path]), ("without CSS", [bench.binary, "--no-css", "--dump", path]),
                 ("w3m", ["w3m", "-dump", path])]
        results = {}
        for name, cmd in tools:
            try:
                _, peak, rc, out_bytes = run_probe(bench, cmd)
                results[name] = {"error": f"exit status {rc}"} if rc != 0 else {"peak": peak, "out": out_bytes}
            except (BenchError, subprocess.TimeoutExpired, OSError) as error:
                results[name] = {"error": str(error)}
        try:
            times = interleaved_times(bench, [(n, c) for n, c in tools if "error" not in results[n]], rounds)
        except (BenchError, subprocess.TimeoutExpired, OSError) as error:
            times = {}
            for name in results:
                results[name].setdefault("error", str(error))
        for name, values in times.items():
            results[name]["time"] = statistics.median(values)
            report.detail("css", f"{label}: {name} median {ms(results[name]['time'])} (min {ms(min(values))}, max "
                                 f"{ms(max(values))}, {len(values)} runs interleaved with the others), peak RSS "
                                 f"{mb(results[name]['peak'])}, output {results[name]['out'] / 1e3:.0f} KB")
        app = results["with CSS"]
        if "error" in app:
            report.na("Page style", f"{label}, --dump time", app["error"], "≤ 1.3× without CSS")
            continue
        plain = results["without CSS"]
        if "error" not in plain:
            report.add("Page style", f"{label}, --dump time", ms(app["time"]), "without CSS", ms(plain["time"]),
                       ratio(app["time"], plain["time"]), "≤ 1.3×", verdict(app["time"] <= 1.3 * plain["time"]))
            report.add("Page style", f"{label}, peak memory", mb(app["peak"]), "without CSS", mb(plain["peak"]),
                       ratio(app["peak"], plain["peak"]), "≤ 1.3×", verdict(app["peak"] <= 1.3 * plain["peak"]))
        w3m = results["w3m"]
        if "error" not in w3m:
            report.add("Page style", f"{label}, --dump time", ms(app["time"]), "w3m", ms(w3m["time"]),
                       ratio(app["time"], w3m["time"]), "faster", verdict(app["time"] < w3m["time"]))
    for label, path in pages:
        row_css_window(bench, report, label, path)
