"""Row "imagestart": how soon the image page's requests leave each program, and when its last image byte is sent,
gtkprogress (and any --variant build) beside Dillo, launched in turn in the same rounds; medians.

The page is bench/benchserver.py's /imagepage with 100 images sharing 2 MB/s, as in the `images` row; the times
come from the server's log (bench/image_timeline.py's `timeline`): exec → the page request, the first image
request and the last image byte. Nothing waits for a window: the launch ends once every image was sent whole.
"""

import statistics
import time

from image_timeline import timeline
from run import BenchError, dpid, ms, ratio, verdict
from rows.images import image_events, page_url, warm_up

COUNT = 100


def launch_once(bench, name, cmd):
    """One launch on the image page: image_timeline's times, or raises BenchError."""
    dillo = name == "Dillo"
    if dillo:
        dpid(bench, True)
    since = bench.mark()
    t0 = time.monotonic()
    proc = bench.popen(cmd)
    try:
        deadline = t0 + 60
        while time.monotonic() < deadline:
            _, sent = image_events(bench, since)
            if len(sent) >= COUNT:
                break
            if proc.poll() is not None:
                raise BenchError(f"{name} exited with status {proc.returncode}")
            time.sleep(0.05)
        with bench.events_cv:
            events = bench.events[since:]
        found = timeline(events, t0)
        _, sent = image_events(bench, since)
        if found is None or len(sent) < COUNT:
            raise BenchError(f"{name}: {len(sent)} of {COUNT} images sent whole within 60 s")
        return found
    finally:
        bench.end_launch(proc, dillo=dillo)


def row_imagestart(bench, report):
    row = "Image page start"
    warm_up(bench, COUNT)
    url = page_url(bench, COUNT)
    programs = [("gtkprogress", [bench.binary, url])]
    programs += [(f"gtkprogress, {label}", [path, url]) for label, path in bench.variants]
    programs.append(("Dillo", ["dillo", url]))
    rounds = 3 if bench.quick else 7
    results = {name: [] for name, _ in programs}
    for _ in range(rounds):
        for name, cmd in programs:
            try:
                results[name].append(launch_once(bench, name, cmd))
            except BenchError as error:
                report.detail("imagestart", str(error))
    medians = {}
    for name, rows in results.items():
        if not rows:
            continue
        medians[name] = {key: statistics.median(r[key] for r in rows) for key in rows[0]}
        report.detail("imagestart", f"{name}, {len(rows)} launches, medians after exec: "
                      + ", ".join(f"{key} {ms(value)}" for key, value in medians[name].items())
                      + "; each launch's page request and last image byte: "
                      + ", ".join(f"{ms(r['req'])}/{ms(r['last'])}" for r in rows))
    dillo = medians.get("Dillo")
    for name, _ in programs[:-1]:
        ours = medians.get(name)
        if not ours:
            report.na(row, f"{name}: every image sent", "no launch loaded the page and its images",
                      "no later than Dillo")
            continue
        label = "" if name == "gtkprogress" else f" ({name[len('gtkprogress, '):]})"
        if dillo:
            report.add(row, f"exec → page request{label} (median of {rounds})", ms(ours["req"]),
                       "Dillo", ms(dillo["req"]), ratio(ours["req"], dillo["req"]), "", "")
            report.add(row, f"exec → first image request{label}", ms(ours["img1"]), "Dillo", ms(dillo["img1"]),
                       ratio(ours["img1"], dillo["img1"]), "", "")
            report.add(row, f"exec → last image byte{label}", ms(ours["last"]), "Dillo", ms(dillo["last"]),
                       ratio(ours["last"], dillo["last"]), "no later than Dillo",
                       verdict(ours["last"] <= dillo["last"]))
        else:
            report.add(row, f"exec → page request{label} (median of {rounds})", ms(ours["req"]), "", "", "", "", "")
            report.add(row, f"exec → last image byte{label}", ms(ours["last"]), "", "", "",
                       "no later than Dillo", "n/a")
