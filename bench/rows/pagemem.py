"""Row "pagemem": peak memory per byte of page, `--dump` beside `w3m -dump` and the window beside Dillo's.
"""

import os
import shutil
import subprocess
import time

from run import BenchError, dpid, exit_text, launch_pids, mb, proc_status, ratio, run_probe, verdict, wait_idle

PAGEMEM_TABLE_TITLE = "Page memory bench: table"
PAGEMEM_PARAS_TITLE = "Page memory bench: paragraphs"


def pagemem_pages(bench):
    """A table of 40,000 rows of 50 short cells (about 22 MB) and 3 MB of `<p>x` paragraphs: the shapes whose
    memory used to grow about 100× the page. Returns [(name, path, title)]."""
    table = os.path.join(bench.tmp, "pagemem-table.html")
    with open(table, "w", encoding="utf-8") as f:
        f.write(f"<!DOCTYPE html><html><head><title>{PAGEMEM_TABLE_TITLE}</title></head><body><table>\n")
        for r in range(40000):
            f.write("<tr>" + "".join(f"<td>{(r * 50 + c) % 997}</td>" for c in range(50)) + "</tr>\n")
        f.write("</table></body></html>\n")
    paras = os.path.join(bench.tmp, "pagemem-paragraphs.html")
    with open(paras, "w", encoding="utf-8") as f:
        f.write(f"<!DOCTYPE html><html><head><title>{PAGEMEM_PARAS_TITLE}</title></head><body>\n")
        f.write("<p>x" * 750000)
        f.write("\n</body></html>\n")
    return [(f"table, 40,000 rows × 50 cells ({mb(os.path.getsize(table))})", table, PAGEMEM_TABLE_TITLE),
            (f"3 MB of <p>x ({mb(os.path.getsize(paras))})", paras, PAGEMEM_PARAS_TITLE)]


def window_peak(bench, name, cmd, title, timeout=300):
    """Peak RSS (VmHWM, summed over the processes the launch started, Dillo's dpid included) once the window
    shows the page and the program is idle (under 0.1 s of CPU in a second); (bytes, seconds to idle)."""
    if name == "Dillo":
        dpid(bench, True)
    probe = bench.xprobe_wait("--title", title, "--no-paint", timeout=timeout)
    t0 = time.monotonic()
    proc = bench.popen(cmd)
    try:
        found = bench.xprobe_result(probe, watch=proc)
        if not found:
            raise BenchError(f"{name}: no window titled {title!r} within {timeout} s"
                             + (f" ({exit_text(proc.poll())})" if proc.poll() is not None else ""))
        if not wait_idle(proc.pid, timeout):
            raise BenchError(f"{name}: still busy {timeout} s after the window appeared")
        pids = launch_pids(bench, dillo=name == "Dillo")
        return sum(proc_status(p, "VmHWM") or 0 for p in pids), time.monotonic() - t0
    finally:
        bench.end_launch(proc, dillo=name == "Dillo")


def floor_page(bench, path, title):
    """The page's text as the viewer shows it (`--dump`), titled, for the GTK floor (bench/bare-gtk-window.c): a
    text view holding the same text with no styles, links or document model."""
    text = path + ".txt"
    with open(text, "wb") as f:
        f.write(f"<title>{title}</title>\n".encode())
        f.flush()
        subprocess.run([bench.binary, "--dump", path], stdout=f, stderr=bench.log, check=True, timeout=300,
                       env=bench.env("infra"))
    return text


def row_pagemem(bench, report):
    """Peak RSS per byte of page, `--dump` beside `w3m -dump` and the window beside Dillo's, one run each (the
    figures are deterministic within a few percent; the pages take tens of seconds)."""
    for page_name, path, title in pagemem_pages(bench):
        size = os.path.getsize(path)

        def per_byte(peak):
            return f"{mb(peak)} ({peak / size:.1f}× the page)"

        dumps = {}
        for name, cmd in [("gtkprogress", [bench.binary, "--dump", path]), ("w3m", ["w3m", "-dump", path])]:
            if name == "w3m" and not shutil.which("w3m"):
                dumps[name] = None
                continue
            elapsed, peak, rc, out_size = run_probe(bench, cmd)
            dumps[name] = peak if rc == 0 and peak else None
            report.detail("pagemem", f"{page_name}, {name} --dump: peak RSS {mb(peak) if peak else 'n/a'}, "
                                     f"{elapsed:.1f} s, exit {rc}, {out_size} bytes out")
        app, w3m = dumps["gtkprogress"], dumps["w3m"]
        if app is None:
            report.na("Page memory", f"--dump peak RSS, {page_name}", "gtkprogress --dump failed", "≤ 5× the page")
        else:
            report.add("Page memory", f"--dump peak RSS, {page_name}", per_byte(app), "w3m -dump",
                       per_byte(w3m) if w3m else "n/a", ratio(app, w3m) if w3m else "n/a",
                       "≤ 5× the page, below w3m", verdict(app <= 5 * size and (w3m is None or app < w3m)))

        windows = {}
        try:
            floor = [("GTK floor", [bench.bare, floor_page(bench, path, title)])]
        except (OSError, subprocess.SubprocessError) as error:
            floor = []
            report.detail("pagemem", f"{page_name}, the page's text for the GTK floor: {error}")
        for name, cmd in [("gtkprogress", [bench.binary, path]), ("Dillo", ["dillo", "file://" + path])] + floor:
            if name == "Dillo" and not shutil.which("dillo"):
                windows[name] = None
                continue
            try:
                peak, settled = window_peak(bench, name, cmd, title)
                windows[name] = peak
                report.detail("pagemem", f"{page_name}, {name} window: peak RSS {mb(peak)}, idle "
                                         f"{settled:.1f} s after exec")
            except BenchError as error:
                windows[name] = None
                report.detail("pagemem", f"{page_name}, {name} window: {error}")
        app, dillo = windows["gtkprogress"], windows["Dillo"]
        gtk = windows.get("GTK floor")
        page_name_floor = f"{page_name} (GTK floor {per_byte(gtk)})" if gtk else page_name
        if app is None:
            report.na("Page memory", f"window peak RSS, {page_name}", "no window (details)", "≤ 10× the page")
        else:
            report.add("Page memory", f"window peak RSS, {page_name_floor}", per_byte(app), "Dillo",
                       per_byte(dillo) if dillo else "n/a", ratio(app, dillo) if dillo else "n/a",
                       "≤ 10× the page", verdict(app <= 10 * size))
