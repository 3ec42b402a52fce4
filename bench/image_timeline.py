#!/usr/bin/python3
"""When each program asks for the image page and its images, and how long the shared link sat idle meanwhile.

Usage: bench/image_timeline.py ROUNDS NAME=COMMAND [NAME=COMMAND ...]
    e.g. scripts/xvfb-session dbus-run-session -- /usr/bin/python3 bench/image_timeline.py 5 \\
             ours=.build/release/gtkprogress dillo=dillo

Each round launches every program in turn on bench/benchserver.py's /imagepage (100 images sharing 2 MB/s, as the
`images` row of bench/run.py), waits until the server has sent every image whole, and prints, in milliseconds after
exec: the page request (`req`), the page sent whole (`psent`), the first and the sixth image request (`img1`,
`img6`), the last image byte (`last`) and `idle`: the time the link's budget sent nothing although the page was not
all in (gaps between 16 KB slices longer than a slice takes, less that). The medians of each program follow.
"""

import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
COUNT = 100
RATE = 2_000_000
SLICE_SECONDS = 16384 / RATE


def timeline(seen, start):
    """From the server's events of one launch and the launch's start (both on CLOCK_MONOTONIC): the times after
    exec, in seconds, of the page request, the page sent whole, the first and sixth image request and the last
    byte sent, and the idle time of the link; None when the page and six images were not asked for."""
    page = [e for e in seen if e.get("ev") == "request" and e.get("path") == "/imagepage"]
    images = [e for e in seen if e.get("ev") == "request" and e.get("path") == "/img"]
    sent = [e for e in seen if e.get("ev") == "sent"]
    if not page or len(images) < 6 or not sent:
        return None
    page_sent = [e["t"] for e in sent if e["id"] == page[0]["id"]]
    slices = [e["t"] for e in seen if e.get("ev") == "bytes" and e["t"] >= page[0]["t"]]
    idle = sum(b - a - SLICE_SECONDS for a, b in zip(slices, slices[1:]) if b - a > SLICE_SECONDS + 0.002)
    return {"req": page[0]["t"] - start, "psent": (page_sent[0] - start) if page_sent else float("nan"),
            "img1": images[0]["t"] - start, "img6": images[5]["t"] - start,
            "last": max(e["t"] for e in sent) - start, "idle": idle}


def main():
    rounds = int(sys.argv[1])
    programs = dict(arg.split("=", 1) for arg in sys.argv[2:])
    server = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "benchserver.py")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    events = []
    threading.Thread(target=lambda: [events.append(json.loads(line)) for line in server.stdout], daemon=True).start()
    base = f"http://127.0.0.1:{port}"
    # The server makes the images once, before anything is timed.
    urllib.request.urlopen(f"{base}/img?n=0&count={COUNT}&seed=1&rate=1000000000", timeout=120).read()
    url = f"{base}/imagepage?count={COUNT}&rate={RATE}&seed=1"
    results = {name: [] for name in programs}
    for _ in range(rounds):
        for name, command in programs.items():
            since = len(events)
            start = time.monotonic()
            proc = subprocess.Popen(command.split() + [url], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = start + 60
            while time.monotonic() < deadline:
                seen = events[since:]
                ids = {e["id"] for e in seen if e.get("ev") == "request" and e.get("path") == "/img"}
                if sum(1 for e in seen if e.get("ev") == "sent" and e["id"] in ids) >= COUNT:
                    break
                time.sleep(0.1)
            proc.terminate()
            proc.wait()
            if os.path.basename(command.split()[0]) == "dillo":
                subprocess.run(["pkill", "-x", "dpid"])
            row = timeline(events[since:], start)
            if row is None:
                print(name, "did not load the page and its images")
                continue
            results[name].append(row)
            print(name, " ".join(f"{key}={value * 1000:.0f}" for key, value in row.items()), flush=True)
    for name, rows in results.items():
        if rows:
            print(name, "median", " ".join(f"{key}={statistics.median(r[key] for r in rows) * 1000:.0f}"
                                           for key in rows[0]))
    server.stdin.close()
    server.wait()


if __name__ == "__main__":
    main()
