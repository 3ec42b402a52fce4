"""Row "images": a page of images arriving over a slow link, beside Dillo and NetSurf on the same page in the same
run, and how truthfully the `real` curve tells the bytes that arrived, beside WebKit's and Chromium's estimators.

The page is bench/benchserver.py's /imagepage: text with 100 images (PNG, JPEG, WebP, SVG in turn, 5-200 KB, each
with a declared size, every other one without Content-Length), the page and its images sharing 2 MB/s.
"""

import os
import shutil
import statistics
import subprocess
import time

from run import (BenchError, PingSeries, cpu_seconds, dpid, launch_pids, mb, ms, proc_status,
                 quiet_since, ratio, verdict)

TITLE = "Image page"
RATE = 2_000_000
PROGRAMS = [("gtkprogress", lambda bench, url: [bench.binary, url]),
            ("gtkprogress --no-images", lambda bench, url: [bench.binary, "--no-images", url]),
            ("Dillo", lambda bench, url: ["dillo", url]),
            ("NetSurf", lambda bench, url: ["netsurf-gtk", url])]


def page_url(bench, count):
    return bench.url(f"/imagepage?count={count}&rate={RATE}&seed=1")


def warm_up(bench, count):
    """Has the server make the page's images before anything is timed (a few seconds of encoding)."""
    import urllib.request
    urllib.request.urlopen(bench.url(f"/img?n=0&count={count}&seed=1&rate=1000000000"), timeout=120).read()


def image_events(bench, since):
    """The /img requests since `since`, and which of them have been sent whole, with when."""
    with bench.events_cv:
        events = bench.events[since:]
    requests = {e["id"]: e for e in events if e.get("ev") == "request" and e.get("path") == "/img"}
    sent = {e["id"]: e["t"] for e in events if e.get("ev") == "sent" and e["id"] in requests}
    return requests, sent


def first_text(bench, cmd):
    """Exec → first paint after the window carries the page's title; the program is ended at once."""
    probe = bench.xprobe_wait("--title", TITLE, timeout=30)
    t0 = time.monotonic()
    proc = bench.popen(cmd)
    try:
        found = bench.xprobe_result(probe, watch=proc)
        if not found:
            raise BenchError(f"no window titled {TITLE!r} within 30 s")
        return found[2] - t0
    finally:
        bench.end_launch(proc)


def load_once(bench, name, cmd, count, ping=False):
    """One program opening the image page: a dict of what was seen, or raises BenchError."""
    if name == "Dillo":
        dpid(bench, True)
    since = bench.mark()
    probe = bench.xprobe_wait("--title", TITLE, timeout=30)
    t0 = time.monotonic()
    proc = bench.popen(cmd)
    pings = None
    try:
        found = bench.xprobe_result(probe, watch=proc)
        if not found:
            raise BenchError(f"{name}: no window titled {TITLE!r} within 30 s")
        _, _, t_paint, window, _, _ = found
        if ping:
            pings = PingSeries(bench, window, seconds=120)
        images_wanted = 0 if "--no-images" in cmd else count
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            requests, sent = image_events(bench, since)
            if images_wanted and len(sent) >= images_wanted:
                break
            if not images_wanted and time.monotonic() - t_paint > 3:
                break
            # Polled finely: the quiet measure below starts here, so a coarse poll would add up to its period.
            time.sleep(0.02)
        requests, sent = image_events(bench, since)
        t_images = max(sent.values()) if sent else None
        t_idle = quiet_since(proc.pid, 90)
        if t_idle is None:
            raise BenchError(f"{name}: still busy 90 s after the page")
        pids = launch_pids(bench, dillo=name == "Dillo")
        result = {"first_text": t_paint - t0, "requested": len(requests), "sent": len(sent),
                  "images_in": (t_images - t0) if t_images else None,
                  "settled": t_idle - t0,
                  "rss": sum(proc_status(p, "VmHWM") or 0 for p in pids),
                  "cpu": sum(cpu_seconds(p) or 0 for p in pids)}
        if pings:
            worst, count_pings, lost, stall = pings.between(t_paint, t_idle)
            result.update(worst_ping=worst, pings=count_pings, lost=lost)
        return result
    finally:
        if pings:
            pings.stop()
        bench.end_launch(proc, dillo=name == "Dillo")


def row_images(bench, report):
    row = "Images"
    count = 100
    warm_up(bench, count)
    results = {}
    for name, cmd_for in PROGRAMS:
        program = cmd_for(bench, "")[0]
        if not (os.path.exists(program) or shutil.which(program)):
            report.detail("images", f"{name}: not installed")
            continue
        try:
            results[name] = load_once(bench, name, cmd_for(bench, page_url(bench, count)), count,
                                      ping=name.startswith("gtkprogress"))
        except BenchError as error:
            report.detail("images", f"{name}: {error}")
            continue
        r = results[name]
        images_in = "n/a" if r["images_in"] is None else f"{r['images_in']:.2f} s"
        pinged = (f", worst main-loop round trip {ms(r['worst_ping'])} over {r['pings']} pings "
                  f"({r['lost']} unanswered)") if "worst_ping" in r else ""
        report.detail("images", f"{name}: first text {ms(r['first_text'])}, {r['requested']} images asked for, "
                                f"{r['sent']} sent whole, last image byte sent {images_in} after exec, CPU quiet "
                                f"again {r['settled']:.2f} s after exec, peak RSS {mb(r['rss'])}, "
                                f"CPU {r['cpu']:.2f} s{pinged}")
    ours, off = results.get("gtkprogress"), results.get("gtkprogress --no-images")
    dillo, netsurf = results.get("Dillo"), results.get("NetSurf")
    if not ours:
        report.na(row, "a page of 100 images at 2 MB/s", "gtkprogress did not show it (details)")
        return
    if off:
        # First text alone, five launches each, alternating, median: one launch is too noisy for a 5% target.
        firsts = {"on": [], "off": []}
        for _ in range(5):
            for key, cmd in (("on", [bench.binary]), ("off", [bench.binary, "--no-images"])):
                try:
                    firsts[key].append(first_text(bench, cmd + [page_url(bench, count)]))
                except BenchError as error:
                    report.detail("images", f"first text ({key}): {error}")
        if firsts["on"] and firsts["off"]:
            on, off_time = statistics.median(firsts["on"]), statistics.median(firsts["off"])
            report.detail("images", "first text, five launches each: with images "
                          + ", ".join(ms(t) for t in firsts["on"]) + "; --no-images "
                          + ", ".join(ms(t) for t in firsts["off"]))
            report.add(row, "time to first text, 100 images at 2 MB/s (median of 5)", ms(on), "itself, --no-images",
                       ms(off_time), ratio(on, off_time), "within 5%", verdict(on <= off_time * 1.05))
    # Until every image is in: two more launches of gtkprogress and Dillo, alternating, and the median of three
    # each, since one launch on a shared link differs from the next by more than the two programs do.
    settled = {"gtkprogress": [ours["settled"]], "Dillo": [dillo["settled"]] if dillo else []}
    if dillo:
        for _ in range(2):
            for name in ("gtkprogress", "Dillo"):
                cmd_for = dict(PROGRAMS)[name]
                try:
                    settled[name].append(load_once(bench, name, cmd_for(bench, page_url(bench, count)),
                                                   count)["settled"])
                except BenchError as error:
                    report.detail("images", f"{name}, again: {error}")
        report.detail("images", "until every image is in and the CPU quiet, three launches each, alternating: "
                      + "; ".join(f"{name} " + ", ".join(f"{t:.3f} s" for t in times)
                                  for name, times in settled.items()))
    for peer_name, peer in (("Dillo", dillo), ("NetSurf", netsurf)):
        if not peer:
            continue
        mine = statistics.median(settled["gtkprogress"]) if peer_name == "Dillo" else ours["settled"]
        theirs = statistics.median(settled["Dillo"]) if peer_name == "Dillo" else peer["settled"]
        measure = ("until every image is in and the CPU quiet" + (" (median of 3)" if peer_name == "Dillo" else ""))
        report.add(row, measure, f"{mine:.3f} s", peer_name, f"{theirs:.3f} s", ratio(mine, theirs),
                   "no later than Dillo" if peer_name == "Dillo" else "",
                   verdict(mine <= theirs) if peer_name == "Dillo" else "")
    for peer_name, peer in (("Dillo", dillo), ("NetSurf", netsurf)):
        if not peer:
            continue
        report.add(row, "peak RSS, 100 images", mb(ours["rss"]), peer_name, mb(peer["rss"]),
                   ratio(ours["rss"], peer["rss"]), "≤ NetSurf" if peer_name == "NetSurf" else "",
                   verdict(ours["rss"] <= peer["rss"]) if peer_name == "NetSurf" else "")
        report.add(row, "CPU seconds, 100 images", f"{ours['cpu']:.2f} s", peer_name, f"{peer['cpu']:.2f} s",
                   ratio(ours["cpu"], peer["cpu"]), "", "")
    if ours.get("worst_ping") is not None:
        report.add(row, "worst main-loop round trip while they arrive", ms(ours["worst_ping"]), "", "", "",
                   "< 30 ms", verdict(ours["worst_ping"] < 0.030 and not ours["lost"]))

    # 300 images: memory stays bounded.
    try:
        warm_up(bench, 300)
        big = load_once(bench, "gtkprogress", [bench.binary, page_url(bench, 300)], 300)
        report.detail("images", f"300 images: peak RSS {mb(big['rss'])}, settled {big['settled']:.1f} s, "
                                f"{big['sent']} of 300 sent whole")
        report.add(row, "peak RSS, 300 images", mb(big["rss"]), "", "", "", "< 150 MB",
                   verdict(big["rss"] < 150e6))
    except BenchError as error:
        report.na(row, "peak RSS, 300 images", str(error), "< 150 MB")

    truthfulness(bench, report, row, count)


# ---------------------------------------------------------------------------------------------------------------
# Truthfulness of the `real` curve

POLLER = r"""
import sys, time, pyatspi
pid, seconds = int(sys.argv[1]), float(sys.argv[2])
def bar():
    for app in pyatspi.Registry.getDesktop(0):
        try:
            if app is None or app.get_process_id() != pid:
                continue
        except Exception:
            continue
        found = pyatspi.findDescendant(app, lambda a: a is not None and a.getRole() == pyatspi.ROLE_PROGRESS_BAR)
        if found:
            return found
found, end = None, time.monotonic() + seconds
while found is None and time.monotonic() < end:
    found = bar()
    if found is None:
        time.sleep(0.05)
if found is None:
    print("nobar", flush=True)
    sys.exit(1)
value = found.queryValue()
while time.monotonic() < end:
    try:
        print(f"{time.monotonic():.4f} {value.currentValue:.5f}", flush=True)
    except Exception:
        pass
    time.sleep(0.05)
"""


def truthfulness(bench, report, row, count):
    """The bar's value read over AT-SPI every 50 ms while the image page loads with `--curve real`, against the
    fraction of the page's bytes (document and images) the server had sent by then; and, on the same byte
    timeline, the estimates of WebKit's and Chromium's ProgressTracker re-implemented from their constants."""
    since = bench.mark()
    extra = {"NO_AT_BRIDGE": "0", "GTK_A11Y": "atk"}
    proc = bench.popen([bench.binary, "--curve", "real", page_url(bench, count)], extra_env=extra)
    poller = subprocess.Popen(["/usr/bin/python3", "-c", POLLER, str(proc.pid), "60"], env=bench.env("infra"),
                              stdout=subprocess.PIPE, text=True)
    try:
        samples = []
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            requests, sent = image_events(bench, since)
            if len(sent) >= count:
                break
            time.sleep(0.2)
        time.sleep(2.0)
        poller.terminate()
        out, _ = poller.communicate(timeout=10)
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2:
                samples.append((float(parts[0]), float(parts[1])))
    finally:
        bench.end_launch(proc)
    with bench.events_cv:
        events = bench.events[since:]
    trace = byte_trace(events)
    if not samples or not trace:
        report.na(row, "truthfulness of the real curve", "no bar values read over AT-SPI" if not samples
                  else "no byte timeline", "below WebKit and Chromium")
        return
    start, end = trace["start"], trace["end"]
    times = [t for t, _ in samples if start <= t <= end]
    if len(times) < 10:
        report.na(row, "truthfulness of the real curve", f"{len(times)} samples during the load",
                  "below WebKit and Chromium")
        return
    ours = {t: v for t, v in samples}
    distance = {
        "gtkprogress": mean(abs(ours[t] - true_fraction(trace, t)) for t in times),
        "WebKit": mean(abs(webkit_estimate(trace, t) - true_fraction(trace, t)) for t in times),
        "Chromium": mean(abs(blink_estimate(trace, t) - true_fraction(trace, t)) for t in times),
    }
    report.detail("images", f"truthfulness, --curve real: mean |shown − bytes sent ÷ all bytes| over {len(times)} "
                            f"samples from the page's request to its last image byte ({end - start:.1f} s): "
                            + ", ".join(f"{k} {v:.3f}" for k, v in distance.items()))
    for peer in ("WebKit", "Chromium"):
        report.add(row, "real curve: mean distance from the true byte fraction", f"{distance['gtkprogress']:.3f}",
                   f"{peer}'s estimator", f"{distance[peer]:.3f}", ratio(distance["gtkprogress"], distance[peer]),
                   "lower than both", verdict(distance["gtkprogress"] < distance[peer]))


def mean(values):
    values = list(values)
    return sum(values) / len(values) if values else float("nan")


def byte_trace(events):
    """Per response of the page: when it was asked for, its length when it had one, and its bytes over time."""
    requests = {e["id"]: e for e in events if e.get("ev") == "request" and e.get("path") in ("/imagepage", "/img")}
    if not any(r["path"] == "/imagepage" for r in requests.values()):
        return None
    items = {cid: {"start": r["t"], "document": r["path"] == "/imagepage",
                   "known": r["path"] == "/imagepage" or "n=" in r["query"] and int(
                       r["query"].split("n=")[1].split("&")[0]) % 2 == 0,
                   "chunks": [], "total": 0, "done": None} for cid, r in requests.items()}
    for e in events:
        item = items.get(e.get("id"))
        if not item:
            continue
        if e["ev"] == "bytes":
            item["chunks"].append((e["t"], e["bytes"]))
            item["total"] += e["bytes"]
        elif e["ev"] == "sent":
            item["done"] = e["t"]
    document = next(i for i in items.values() if i["document"])
    dones = [i["done"] for i in items.values() if i["done"]]
    return {"items": list(items.values()), "start": document["start"], "end": max(dones) if dones else None,
            "all": sum(i["total"] for i in items.values()), "document": document}


def true_fraction(trace, t):
    got = sum(n for item in trace["items"] for when, n in item["chunks"] if when <= t)
    return got / trace["all"] if trace["all"] else 0.0


def webkit_estimate(trace, t):
    """WebKit's Source/WebCore/loader/ProgressTracker.cpp replayed to time t: starts at 0.1; each item counts its
    Content-Length, or 16 KiB when it has none, re-estimated at twice what arrived once overrun; each chunk moves
    the value by (ceiling − value) × bytes ÷ bytes remaining; the ceiling is 0.5 until the first layout (taken here
    as the document's last byte) and 0.9 until every item is done; then 1.0."""
    default = 16 * 1024
    value, received, to_load = 0.1, 0, 0
    estimated = {}
    first_layout = trace["document"]["done"] or float("inf")
    happenings = []
    for index, item in enumerate(trace["items"]):
        happenings.append((item["start"], 0, index, 0))
        for when, n in item["chunks"]:
            happenings.append((when, 1, index, n))
    happenings.sort()
    done_all = trace["end"]
    if done_all is not None and t >= done_all:
        return 1.0
    got = {}
    pending = 0
    for when, kind, index, n in happenings:
        if when > t:
            break
        item = trace["items"][index]
        if kind == 0:
            estimated[index] = item["total"] if item["known"] else default
            to_load += estimated[index]
            pending += 1
            continue
        got[index] = got.get(index, 0) + n
        if got[index] > estimated[index]:
            to_load += got[index] * 2 - estimated[index]
            estimated[index] = got[index] * 2
        remaining = to_load - received
        share = n / remaining if remaining > 0 else 1.0
        ceiling = 0.9 if when >= first_layout else 0.5
        value = min(value + (ceiling - value) * share, ceiling)
        received += n
    return value


def blink_estimate(trace, t):
    """Blink's third_party/blink/renderer/core/loader/progress_tracker.cc replayed to time t: 0.1 at the start,
    +0.1 when the document's response commits, +0.1 when it is parsed (its last byte), +0.1 at first contentful
    paint (taken as the commit), and 0.5 × bytes ÷ estimate of the high-priority requests (the document; images
    load at low priority), an unknown length estimated at 1 MiB; 1.0 when the load event fires (the last image)."""
    if trace["end"] is not None and t >= trace["end"]:
        return 1.0
    document = trace["document"]
    chunks = document["chunks"]
    if not chunks or t < chunks[0][0]:
        return 0.1
    value = 0.1 + 0.1 + 0.1
    if document["done"] is not None and t >= document["done"]:
        value += 0.1
    got = sum(n for when, n in chunks if when <= t)
    estimate = document["total"] if document["known"] else 1024 * 1024
    return min(value + 0.5 * min(got / estimate, 1.0), 1.0)
