#!/usr/bin/python3
"""Takes the README's screenshots of the real app under the current X display:
docs/screenshot.png (the welcome page), docs/loading.png (the bundled large page arriving over a throttled loopback
connection, with the progress bar under way), docs/images.png (a page with pictures in four formats and one that
is missing) and docs/reading.png (a bordered table at the window's width, a form, inline marks, a code block and a
banner its stylesheet hides). Usage: screenshot.py BINARY

screenshot.py --bar-demo BAR_DEMO takes docs/bar-demo.png instead: the library's example window 2.6 s into its
simulated slow load."""

import functools
import http.server
import os
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
bar_demo = len(sys.argv) > 2 and sys.argv[1] == "--bar-demo"
binary = os.path.abspath(sys.argv[-1] if len(sys.argv) > 1 else ".build/release/gtkprogress")
docs = os.path.join(ROOT, "docs")


def window_of(proc, title):
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        out = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(proc.pid)],
                             capture_output=True, text=True).stdout.split()
        for wid in out:
            name = subprocess.run(["xdotool", "getwindowname", wid], capture_output=True, text=True).stdout.strip()
            if title is None or name == title:
                return wid
        time.sleep(0.1)
    raise SystemExit(f"no window titled {title!r}")


def shot(wid, path):
    subprocess.run(["import", "-window", wid, path], check=True)
    print("wrote", path)


if bar_demo:
    demo = subprocess.Popen([binary, "slow"])
    try:
        wid = window_of(demo, "GtkProgress bar demo")
        time.sleep(max(0.0, 2.6 - 0.1))
        shot(wid, os.path.join(docs, "bar-demo.png"))
    finally:
        demo.terminate()
        demo.wait()
    sys.exit(0)

handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=os.path.join(ROOT, "data"))
handler.log_message = lambda *a: None
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}/welcome.html"

app = subprocess.Popen([binary, url])
try:
    wid = window_of(app, "Welcome to GtkProgress")
    time.sleep(1.5)
    shot(wid, os.path.join(docs, "screenshot.png"))
finally:
    app.terminate()
    app.wait()

app = subprocess.Popen([binary, "--throttle", "100000", url.replace("welcome.html", "pages/large.html")])
try:
    wid = window_of(app, None)
    time.sleep(4.0)
    shot(wid, os.path.join(docs, "loading.png"))
finally:
    app.terminate()
    app.wait()
server.shutdown()

# A page of pictures: the test fixtures (JPEG, WebP, SVG, GIF) and one missing, served from a folder of its own.
import shutil
import tempfile
folder = tempfile.mkdtemp(prefix="gtkprogress-shot-")
for name in ("photo.jpg", "solid.webp", "solid.svg", "solid.gif"):
    shutil.copy(os.path.join(ROOT, "Tests", "Fixtures", "images", name), folder)
with open(os.path.join(folder, "pictures.html"), "w") as f:
    f.write("""<!DOCTYPE html><meta charset="utf-8"><title>Pictures</title><h1>Pictures</h1>
<p>A photo, decoded off the main loop at the size the page gives it:</p>
<p><img src="photo.jpg" width="256" height="192" alt="A photo"></p>
<p>WebP, SVG and GIF through Debian's gdk-pixbuf loaders:
<img src="solid.webp" width="80" height="60" alt="WebP"> <img src="solid.svg" width="80" height="60" alt="SVG">
<img src="solid.gif" width="80" height="60" alt="GIF"></p>
<p>A picture that is not there leaves its alt text in a thin frame:
<img src="missing.png" alt="The harbour at dawn"></p>""")


def shoot_served(folder, page, title, png):
    """Serves `folder` on loopback, opens its `page`, and once the window titled `title` has had two seconds to
    load its subresources, writes docs/`png`; the folder is removed after."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=folder)
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    app = subprocess.Popen([binary, f"http://127.0.0.1:{server.server_address[1]}/{page}"])
    try:
        wid = window_of(app, title)
        time.sleep(2.0)
        shot(wid, os.path.join(docs, png))
    finally:
        app.terminate()
        app.wait()
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


shoot_served(folder, "pictures.html", "Pictures", "images.png")

# A page of today's parts: its stylesheet hides a cookie banner; a bordered table, a form, marks and code.
folder = tempfile.mkdtemp(prefix="gtkprogress-shot-")
with open(os.path.join(folder, "reading.html"), "w") as f:
    f.write("""<!DOCTYPE html><meta charset="utf-8"><title>Plans and prices</title>
<style>.cookie-banner { display: none } .note { color: #555 } th { text-align: left }</style>
<div class="cookie-banner">We use cookies. <button>Accept all</button></div>
<h1>Plans and prices</h1>
<p class="note">Prices per month; the Team plan was <del>€15</del> <ins>€12</ins> until 1 March. Water is
H<sub>2</sub>O and the area is 12 m<sup>2</sup>. Press <kbd>Ctrl</kbd>+<kbd>F</kbd> to find.</p>
<table border="1" cellpadding="4"><caption>What each plan includes</caption>
<tr><th>Plan</th><th>Price</th><th>Users</th><th>Storage</th><th>Support</th><th>Notes</th></tr>
<tr><td>Free</td><td align="right">€0</td><td align="right">1</td><td>5 GB</td><td>Forum</td>
<td>For trying things out; no card needed.</td></tr>
<tr><td>Team</td><td align="right">€12</td><td align="right">10</td><td>100 GB</td><td>Email, next working day</td>
<td>Shared folders, and a history of every change kept for a year.</td></tr>
<tr><td>Company</td><td align="right">€40</td><td align="right">Unlimited</td><td>1 TB</td><td>Phone, around the clock</td>
<td>Single sign-on and an audit log.</td></tr></table>
<h2>Ask us</h2>
<form action="/send" method="post"><p><label>Your name <input name="name" value="Ada"></label>
<label>Plan <select name="plan"><option>Free<option selected>Team<option>Company</select></label></p>
<p><label><input type="checkbox" name="news" checked> Send me the newsletter</label></p>
<p><textarea name="message" rows="2" cols="40">Can the Team plan have 12 users?</textarea></p>
<p><button>Send message</button></p></form>
<pre><code>$ gtkprogress --dump https://example.org/plans</code></pre>""")
shoot_served(folder, "reading.html", "Plans and prices", "reading.png")
