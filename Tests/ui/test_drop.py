"""Real XDND drops from a second X client onto the page area, the toolbar and the address entry."""

import os
import select
import subprocess
import time
from urllib.parse import quote

from harness import HERE, App, Server, check, handled, wait_for, xdotool

SOURCE_X, SOURCE_Y = 1000, 860


def drag(app, kind, payload, target_x, target_y):
    """Drags from a new drag-source window to screen point (target_x, target_y), in steps as a hand does."""
    source = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "dragsource.py"), kind, payload,
                               str(SOURCE_X), str(SOURCE_Y)], stdout=subprocess.PIPE, text=True)
    try:
        check(source.stdout.readline().strip() == "ready", "the drag source started")
        window = wait_for(lambda: xdotool("search", "--onlyvisible", "--pid", source.pid, "--name", "^drag source$",
                                          check_rc=False).split(), what="the drag source's window").pop()
        sx, sy = SOURCE_X + 80, SOURCE_Y + 30
        xdotool("mousemove", sx, sy)
        # The source has handled the pointer's arrival (its window mapped and under the pointer) before the press.
        check(handled(window), "the drag source answers _NET_WM_PING")
        xdotool("mousedown", 1)
        steps = 12
        for i in range(1, steps + 1):
            xdotool("mousemove", sx + (target_x - sx) * i // steps, sy + (target_y - sy) * i // steps)
            # Pacing for XDND, not a wait for a state: a drag moved in one jump, or without pauses, drops nothing
            # under Xvfb (DESIGN.md, "Testing as a person would": steps with 0.1 s between, 0.3 s before the release).
            time.sleep(0.1)
        time.sleep(0.3)   # the same pacing before the release (DESIGN.md)
        xdotool("mouseup", 1)
        ready, _, _ = select.select([source.stdout], [], [], 15)
        check(ready and source.stdout.readline().strip() == "end", "the drag ended at the source")
    finally:
        source.terminate()
        source.wait()


def test_dropped_link_opens_wherever_it_lands(binary):
    server = Server()
    app = App(binary, server.url("/page?title=Start"))
    try:
        app.wait_title("Start")
        x, y, w, h = app.geometry()
        # Page area (the read-only text view).
        drag(app, "uri", server.url("/page?title=" + quote("Dropped on the page")), x + w // 2, y + h // 2)
        app.wait_title("Dropped on the page")
        # Address entry.
        drag(app, "moz", server.url("/page?title=" + quote("Dropped on the entry")), x + w // 2, y + 18)
        app.wait_title("Dropped on the entry")
        address = app.find_address()
        check(address.count("http://") == 1, f"the entry shows the page's address, nothing inserted: {address!r}")
        # Plain text that is an address.
        drag(app, "text", server.url("/page?title=" + quote("Plain text drop")), x + w // 3, y + h // 2)
        app.wait_title("Plain text drop")
        app.key("alt+Left")
        app.wait_title("Dropped on the entry")
    finally:
        app.close()
        server.stop()


def test_dropped_garbage_is_refused_and_the_page_stays(binary):
    server = Server()
    app = App(binary, server.url("/page?title=Keep"))
    try:
        app.wait_title("Keep")
        x, y, w, h = app.geometry()
        requests = server.count("/page")
        drag(app, "text", "this is not an address at all", x + w // 2, y + h // 2)
        app.wait_status("not an address")
        check(app.title == "Keep", "the page stays")
        check("This is a test page." in app.page_text(), "its text stays")
        check("this is not an address" not in app.page_text(), "the text was not inserted")
        check(server.count("/page") == requests, "nothing was requested")
    finally:
        app.close()
        server.stop()


def test_dropped_local_file_opens(binary, path="/tmp/gtkprogress-ui-dropped.html"):
    with open(path, "w") as f:
        f.write("<title>A dropped file</title><p>Local text.</p>")
    app = App(binary)
    try:
        app.wait_title("Welcome to GtkProgress")
        x, y, w, h = app.geometry()
        drag(app, "uri", "file://" + path, x + w // 2, y + h // 2)
        app.wait_title("A dropped file")
        app.wait_text("Local text.")
    finally:
        app.close()
