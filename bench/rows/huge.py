"""Row "huge": the main loop while the window leaves a huge page for a small one, goes Back to it, reloads it, and
closes the window holding it while a second stays open.
"""

import html
import os
import re
import subprocess
import threading
import time

from nodelike import dense_page
from run import BenchError, launch_app, ms, PingSeries, verdict, wait_idle, WORDS

NODE_ALL_HTML = "/usr/share/doc/nodejs/api/all.html"


def huge_page(bench):
    """Node.js's all.html (8.4 MB, one document of its whole API) when installed, else a generated 8 MB page of
    the same shape (dense_page); returns (path, title, description)."""
    if os.path.exists(NODE_ALL_HTML):
        with open(NODE_ALL_HTML, encoding="utf-8", errors="replace") as f:
            head = f.read(65536)
        found = re.search(r"<title>([^<]*)", head)
        title = html.unescape(found.group(1)).strip() if found else None
        return NODE_ALL_HTML, title, f"Node.js's {NODE_ALL_HTML} ({os.path.getsize(NODE_ALL_HTML) / 1e6:.1f} MB)"
    path = os.path.join(bench.tmp, "huge-8mb.html")
    dense_page(path, 8 * 1024 * 1024, "Huge page bench", seed=33, words=WORDS)
    return path, "Huge page bench", "a generated 8 MB page dense with tags (Node.js's all.html is not installed)"


# An assistive technology's side of AT-SPI, as a screen reader has it: registered for the events a text view and
# its children send, so that the bridge in the application sends them (at-spi2-core's registry tells the bridge
# which events some client listens to; with none, it sends none). It counts what it gets.
READER = r"""
import sys, pyatspi
counts = {}
def on(event):
    kind = event.type.major + ":" + event.type.minor if event.type.minor else event.type.major
    counts[kind] = counts.get(kind, 0) + 1
for kind in ("object:text-changed", "object:children-changed", "object:state-changed", "object:text-caret-moved"):
    pyatspi.Registry.registerEventListener(on, kind)
def report():
    print("ready" if not counts else " ".join(f"{k}={v}" for k, v in sorted(counts.items())), flush=True)
    return True
from gi.repository import GLib
GLib.timeout_add(500, report)
pyatspi.Registry.start()
"""

A11Y_ENV = {"NO_AT_BRIDGE": "0", "GTK_A11Y": "atk"}


def row_huge(bench, report, a11y=None):
    """The main loop while the window leaves a huge page for a small one, goes Back to it, reloads it, and while a
    second window stays open as the one holding it closes. `a11y`: None runs it as every other row, without the
    accessibility bridge; "bridge" with GTK's ATK bridge on the session's accessibility bus (at-spi2-core's bus
    launcher and registry, started on demand by the bench's session bus, as in a desktop session) and no client
    listening; "reader" with a client registered for text, children and state events as a screen reader is."""
    page, title, what = huge_page(bench)
    reader, reader_lines = None, []
    if a11y == "reader":
        reader = subprocess.Popen(["/usr/bin/python3", "-c", READER], env=bench.env("infra"), stdout=subprocess.PIPE,
                                  stderr=bench.log, text=True)
        first = reader.stdout.readline()
        if not first.strip():
            raise BenchError("the AT-SPI client did not start")

        def read_reader():
            for line in reader.stdout:
                reader_lines.append(line.strip())
        threading.Thread(target=read_reader, daemon=True).start()
    try:
        proc, window = launch_app(bench, page, title=title, timeout=60, extra_env=A11Y_ENV if a11y else None)
    except BenchError:
        if reader:
            reader.terminate()
            reader.wait(timeout=5)
        raise
    phases, notes, second, failure = [], [], None, None
    pings = None
    try:
        t_open = time.monotonic()
        if not wait_idle(proc.pid, 240):
            raise BenchError("the huge page was still going in after 240 s")
        notes.append(f"first showing settled {time.monotonic() - t_open:.1f} s after the window appeared")
        pings = PingSeries(bench, window)
        time.sleep(1.0)

        def phase(name, act, shown_title):
            t0 = act()
            if t0 is None:
                raise BenchError(f"{name}: the key did not reach the window")
            deadline = time.monotonic() + 180
            while bench.title_of(window) != shown_title and time.monotonic() < deadline:
                time.sleep(0.05)
            if bench.title_of(window) != shown_title:
                raise BenchError(f"{name}: the title did not become {shown_title!r} within 180 s")
            t_title = time.monotonic()
            if not wait_idle(proc.pid, 240):
                raise BenchError(f"{name}: the app was still busy 240 s later")
            t_end = time.monotonic()
            phases.append((name, pings.between(t0, t_end), t_title - t0, t_end - t0))
            time.sleep(0.5)

        other = "Other page"
        phase("leave", lambda: bench.navigate(window, bench.url("/page?title=Other%20page")), other)
        phase("back", lambda: bench.key(window, "alt+Left"), title)
        phase("reload", lambda: bench.key(window, "F5"), title)
        pings.stop()

        # A second window of the same process (Ctrl+N opens one on the welcome page).
        probe = bench.xprobe_wait("--pid", str(proc.pid), "--title", "Welcome to GtkProgress", "--exact",
                                  "--no-paint", timeout=30)
        bench.key(window, "ctrl+n")
        found = bench.xprobe_result(probe, watch=proc)
        if not found or found[3] == window:
            raise BenchError("Ctrl+N opened no second window")
        second = found[3]
        time.sleep(1.0)
        pings = PingSeries(bench, second)
        time.sleep(0.5)
        t0 = bench.key(window, "ctrl+w")
        deadline = time.monotonic() + 180
        while bench.title_of(window) and time.monotonic() < deadline:
            time.sleep(0.05)
        t_gone = time.monotonic()
        wait_idle(proc.pid, 240)
        t_end = time.monotonic()
        phases.append(("close", pings.between(t0, t_end), t_gone - t0, t_end - t0))
    except BenchError as error:
        failure = error
    finally:
        if pings:
            pings.stop()
        bench.end_apps()
        proc.wait(timeout=5)
        if reader:
            reader.terminate()
            reader.wait(timeout=5)
    if reader:
        notes.append("the AT-SPI client received " + (reader_lines[-1] if reader_lines else "nothing"))

    mode = {None: "", "bridge": " (accessibility bridge on, no AT-SPI client listening)",
            "reader": " (accessibility bridge on, an AT-SPI client listening for text, children and state events)"}[a11y]
    texts = []
    for name, (worst, n, lost, stall), t_shown, t_settled in phases:
        texts.append(f"{name}: worst round trip {ms(worst)} over {n} pings, {lost} unanswered within 2 s"
                     + (f", longest stall {stall:.1f} s" if lost else "")
                     + f"; shown after {ms(t_shown)}, idle again after {t_settled:.1f} s")
    report.detail("huge", f"method{mode}: {what} opened from the command line and left to go in completely; then a small "
                          f"page typed into the address entry (leave), Alt+Left (back, from the page cache), F5 "
                          f"(reload), and Ctrl+W on its window while a second window of the same process is open "
                          f"(close; the pings go to the second window). _NET_WM_PING round trips every 5 ms "
                          f"(bench/xprobe ping) from the key until the app is idle again (less than 0.1 s of CPU in "
                          f"a second). " + "; ".join(texts) + ". " + "; ".join(notes))
    if failure:
        raise failure
    lost = sum(p[1][2] for p in phases)
    worst = max((p[1][0] for p in phases if p[1][0] is not None), default=None)
    stall = max(p[1][3] for p in phases)
    measure = "worst main-loop lateness leaving, going back to, reloading and closing an 8 MB page" + mode
    if lost:
        report.add("Huge page", measure, f"stalls up to {stall:.1f} s ({lost} pings unanswered within 2 s)", "",
                   "", "", "< 30 ms", "not met")
    elif worst is None:
        report.na("Huge page", measure, "no ping was answered", "< 30 ms")
    else:
        report.add("Huge page", measure + " (ping round trip)", ms(worst), "", "", "", "< 30 ms",
                   verdict(worst < 0.030))
