"""Row "load": a large body fetched from the loopback server by gtkprogress's loader beside `curl -o /dev/null`, as
throughput.
"""

import re
import subprocess
import time

from run import median, ms, ratio, verdict

LOADER_FLAGS = ("--load-only", "--fetch-only", "--download-only", "--discard", "--fetch")


def app_help(bench):
    try:
        return subprocess.run([bench.binary, "--help"], capture_output=True, text=True, timeout=10,
                              env=bench.env("app")).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""


def row_load(bench, report):
    help_text = app_help(bench)
    flag = next((f for f in LOADER_FLAGS if re.search(re.escape(f) + r"\b", help_text)), None)
    if flag:
        size_mb, app_cmd = 200, lambda url: [bench.binary, flag, url]
        how = f"`gtkprogress {flag} URL`"
    else:
        # --dump holds the body within the 64 MiB size cap, so a 200 MB body would fail: 60 MB instead.
        size_mb, app_cmd = 60, lambda url: [bench.binary, "--dump", url]
        how = "`gtkprogress --dump URL` (no loader-only flag in --help; 200 MB exceeds the 64 MiB cap, so 60 MB)"
    url = bench.url(f"/big?mb={size_mb}")
    total = size_mb * 1_000_000
    commands = {"gtkprogress": app_cmd(url), "curl": ["curl", "-s", "-o", "/dev/null", url]}
    speeds = {"gtkprogress": [], "curl": []}
    walls = {"gtkprogress": [], "curl": []}
    errors = {}
    runs = 5 if not bench.quick else 2
    for i in range(runs + 1):
        for name, cmd in commands.items():
            if name in errors:
                continue
            since = bench.mark()
            t0 = time.monotonic()
            result = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=bench.env("app"),
                                    timeout=120)
            wall = time.monotonic() - t0
            request = bench.wait_event(since, 5, ev="request", path="/big")
            end = request and bench.wait_event(since, 5, ev="end", id=request["id"])
            sent = request and bench.wait_event(since, 0, ev="sent", id=request["id"])
            if result.returncode != 0 or not end or not sent:
                closed = request and bench.wait_event(since, 0, ev="closed", id=request["id"])
                errors[name] = (f"exit status {result.returncode}, "
                                + (f"connection closed after {closed['bytes'] / 1e6:.1f} MB" if closed else
                                   "no complete transfer in the server log")
                                + (f": {result.stderr.decode(errors='replace').strip()[-120:]}" if result.stderr else ""))
                continue
            if i > 0:
                speeds[name].append(total / (end["t"] - request["t"]))
                walls[name].append(wall)
    report.detail("load", f"method: {how}; throughput = body bytes / (request received → client closed the "
                          f"connection after the whole body), server-side; median of {runs} runs after one discarded")
    for name in commands:
        if speeds[name]:
            report.detail("load", f"{name}: median {median(speeds[name]) / 1e6:.0f} MB/s (runs: "
                                  f"{', '.join(f'{s / 1e6:.0f}' for s in speeds[name])}), process wall time median "
                                  f"{ms(median(walls[name]))}")
        if name in errors:
            report.detail("load", f"{name}: failed: {errors[name]}")
    label = f"{size_mb} MB from loopback, throughput"
    if "gtkprogress" in errors:
        report.na("Loading", label, errors["gtkprogress"], "≥ 0.9× curl")
    elif "curl" in errors:
        report.add("Loading", label, f"{median(speeds['gtkprogress']) / 1e6:.0f} MB/s", "curl -o /dev/null",
                   f"n/a ({errors['curl']})", "n/a", "≥ 0.9× curl", "n/a")
    else:
        a, c = median(speeds["gtkprogress"]), median(speeds["curl"])
        report.add("Loading", label + ("" if size_mb == 200 else " (200 MB is over the 64 MiB cap)"),
                   f"{a / 1e6:.0f} MB/s", "curl -o /dev/null", f"{c / 1e6:.0f} MB/s", ratio(a, c), "≥ 0.9× curl",
                   verdict(a >= 0.9 * c))
