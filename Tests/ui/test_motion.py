"""The bar as it is painted, read back from the screen: it moves smoothly along the curve, finishes with a run and
a fade, turns red on a failure, pulses and says whom it waits for when the server stalls, marks the page busy for
a screen reader, and stays away for Back/Forward from the page cache and for jumps within a page."""

import json
import os
import time

from harness import ARTIFACTS, App, Server, check, wait_for

# The wechat preset without its milestones, so the bar follows the time curve alone and can be compared with it.
TIME_ONLY = {
    "name": "wechat-time-only",
    "segments": [
        {"duration": 3, "from": 0.10, "to": 0.60},
        {"duration": 4, "from": 0.60, "to": 0.80},
        {"duration": 8, "from": 0.80, "to": 0.90},
    ],
    "hold": 0.90,
    "finish": {"duration": 0.25, "easing": "easeIn", "fadeStart": 0.4, "fadeEnd": 0.65, "reset": 0.7},
}


def curve_value(t):
    t = max(t, 0.0)
    start = 0.0
    for segment in TIME_ONLY["segments"]:
        end = start + segment["duration"]
        if t < end:
            return segment["from"] + (segment["to"] - segment["from"]) * (t - start) / segment["duration"]
        start = end
    return TIME_ONLY["segments"][-1]["to"]


def curve_file():
    path = os.path.join(ARTIFACTS, "wechat-time-only.json")
    with open(path, "w") as f:
        json.dump(TIME_ONLY, f)
    return path


class Strip:
    """The bar's row on the screen, grabbed straight from the X server (a one-row screenshot takes about a
    millisecond, so each sample has a precise time)."""

    def __init__(self, app):
        import gi
        gi.require_version("Gdk", "3.0")
        from gi.repository import Gdk
        import pyatspi
        self.Gdk = Gdk
        Gdk.init([])
        self.root = Gdk.get_default_root_window()
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryComponent()
        # The overlay's top edge is the page's: the bar is drawn over its first rows.
        x, y, w, h = page.getExtents(pyatspi.DESKTOP_COORDS)
        self.x, self.y, self.width = x, y + 1, w
        self.background = None

    def grab(self):
        before = time.monotonic()
        pixbuf = self.Gdk.pixbuf_get_from_window(self.root, self.x, self.y, self.width, 1)
        after = time.monotonic()
        data, n = pixbuf.get_pixels(), pixbuf.get_n_channels()
        return (before + after) / 2, [tuple(data[i * n:i * n + 3]) for i in range(self.width)]

    def is_bar(self, pixel, color, tolerance=24):
        return all(abs(a - b) <= tolerance for a, b in zip(pixel, color))

    def fraction(self, row, color):
        """The filled share: the run of bar-coloured pixels from the left edge."""
        count = 0
        for pixel in row:
            if not self.is_bar(pixel, color):
                break
            count += 1
        return count / self.width

    def opacity(self, pixel, color, background):
        """How much of `color` is blended over `background` in `pixel`, from the channel where they differ most."""
        channel = max(range(3), key=lambda c: abs(color[c] - background[c]))
        return (background[channel] - pixel[channel]) / (background[channel] - color[channel])


def start_slow_load(app, server, path):
    app.key("ctrl+l")
    app.type(server.url(path))
    t0 = time.monotonic()
    from harness import xdotool
    xdotool("key", "Return")
    return t0


def test_painted_bar_follows_the_curve_smoothly_and_fades_at_the_end(binary):
    server = Server()
    app = App(binary, "--curve", curve_file(), server.url("/page?title=Start"))
    try:
        app.wait_title("Start")
        strip = Strip(app)
        time.sleep(1.0)   # the start page's own bar has gone
        _, background = strip.grab()
        # 200 kB sent at 50 kB/s with no length: the time curve alone drives the bar for 4 s.
        t0 = start_slow_load(app, server, "/slow?size=200000&rate=50000&chunked=1")
        rows = []
        while time.monotonic() - t0 < 3.0:
            rows.append(strip.grab())
            time.sleep(0.05)
        app.screenshot("motion-loading.png")
        # The bar's colour: its leftmost pixel half a second in (opacity 1 while loading).
        color = next(row[2] for t, row in rows if t - t0 > 0.5)
        samples = [(t - t0, strip.fraction(row, color)) for t, row in rows]
        shown = [(t, f) for t, f in samples if f > 0]
        with open(os.path.join(ARTIFACTS, "motion-samples.txt"), "w") as out:
            out.writelines(f"{t:.3f}\t{f:.4f}\t{curve_value(t):.4f}\n" for t, f in samples)
        check(len(shown) >= 30, f"the bar is on screen while loading: {samples[:5]}")
        for (ta, a), (tb, b) in zip(shown, shown[1:]):
            check(b >= a - 1.5 / strip.width, f"never backwards: {a:.3f} at {ta:.2f} s, then {b:.3f} at {tb:.2f} s")
        off = [(round(t, 2), round(f, 3), round(curve_value(t), 3)) for t, f in shown
               if t > 0.2 and abs(f - curve_value(t)) > 0.04]
        check(not off, f"within 0.04 of the curve at every instant; off: {off[:8]}")
        widths = sorted({round(f * strip.width) for t, f in shown})
        check(len(widths) >= len(shown) * 0.8, f"a new width nearly every sample, not 0.1 s steps: {len(widths)} "
                                               f"widths in {len(shown)} samples")
        page = app.find(__import__("pyatspi").ROLE_TEXT, "Page")
        check(page.getState().contains(__import__("pyatspi").STATE_BUSY), "the page is busy while it loads")

        # The finish: a run to the full width, a moment at full, then a fade of about a quarter second.
        full = wait_for(lambda: (lambda s: s if strip.fraction(s[1], color) >= 0.99 else None)(strip.grab()),
                        timeout=5, interval=0.01, what="the bar to reach the full width")
        # A column in the page's left margin, where no text is ever drawn under the bar.
        middle = 5
        fade = [(full[0], strip.opacity(full[1][middle], color, background[middle]))]
        while time.monotonic() - full[0] < 1.0:
            t, row = strip.grab()
            fade.append((t, strip.opacity(row[middle], color, background[middle])))
            time.sleep(0.01)
        relative = [(round(t - full[0], 3), round(a, 2)) for t, a in fade]
        check(any(0.2 < a < 0.8 for _, a in fade), f"a visible fade, not a blink: {relative}")
        fading = [t for t, a in relative if 0.05 < a < 0.95]
        check(fading and 0.1 <= fading[-1] - fading[0] <= 0.4,
              f"the fade lasts about a quarter second: {relative}")
        check(all(b <= a + 0.05 for (_, a), (_, b) in zip(fade, fade[1:])), f"it only fades out: {relative}")
        check(abs(fade[-1][1]) < 0.05, f"gone within a second: {relative}")
        wait_for(lambda: "Done" in app.status(), what="the load finishes")
        wait_for(lambda: not page.getState().contains(__import__("pyatspi").STATE_BUSY),
                 what="the page is no longer busy")
    finally:
        app.close()
        server.stop()


def test_failure_turns_the_error_colour(binary):
    server = Server()
    app = App(binary, server.url("/page?title=Start"))
    try:
        app.wait_title("Start")
        strip = Strip(app)
        # Content-Length 100 kB, 20 kB sent, then the connection is reset.
        t0 = start_slow_load(app, server, "/drop?size=100000&after=20000")
        reds = []
        while time.monotonic() - t0 < 1.2:
            _, row = strip.grab()
            reds.append(sum(1 for r, g, b in row[:50] if r > 150 and g < 90 and b < 90))
            time.sleep(0.01)
        check(max(reds) >= 20, f"the bar turned red: {reds}")
        check(reds[-1] == 0, "then went")
        app.wait_status("connection")
    finally:
        app.close()
        server.stop()


def test_stall_pulses_and_says_whom_it_waits_for(binary):
    server = Server()
    app = App(binary, server.url("/page?title=Start"))
    try:
        app.wait_title("Start")
        strip = Strip(app)
        time.sleep(1.0)   # the start page's own bar has gone
        _, background = strip.grab()
        # 1000 bytes of 100000, then nothing.
        start_slow_load(app, server, "/stall?after=1000&length=100000")
        app.wait_status("Waiting for 127.0.0.1", timeout=6)
        color_row = strip.grab()[1]
        column = 3
        levels = []
        started = time.monotonic()
        while time.monotonic() - started < 2.2:
            _, row = strip.grab()
            levels.append(row[column])
            time.sleep(0.05)
        # The pulse: the bar's colour breathes against the page (its lightest and darkest differ clearly).
        reds = [p[0] for p in levels]
        check(max(reds) - min(reds) >= 30, f"the stalled bar pulses: {levels[::4]}")
        check(all(p != background[column] for p in levels), f"but never vanishes: {levels[::4]}")
        app.key("Escape")
        time.sleep(0.15)
        _, row = strip.grab()
        check(row[column] == background[column], "Stop retracts the bar at once")
        app.wait_status("Stopped")
    finally:
        app.close()
        server.stop()


def test_no_bar_for_the_page_cache_or_a_jump_within_the_page(binary, path="/tmp/gtkprogress-ui-motion.html"):
    filler = "".join(f"<p>Filler paragraph {i} with enough words to take a line of its own.</p>" for i in range(300))
    with open(path, "w") as f:
        f.write(f'<title>Anchors</title><p><a href="#end">Go to the end</a></p>{filler}<h2 id="end">The end</h2>')
    server = Server()
    app = App(binary, path)
    try:
        app.wait_title("Anchors")
        app.wait_text("The end")
        strip = Strip(app)

        def bar_seen(seconds):
            """Most bar-blue pixels seen in the page's left margin (16 px, where no text is drawn)."""
            seen = 0
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                _, row = strip.grab()
                seen = max(seen, sum(1 for r, g, b in row[:16] if b > 150 and b > r + 60))
                time.sleep(0.01)
            return seen

        time.sleep(1.0)
        app.key("ctrl+l")
        app.type(path)
        from harness import xdotool
        xdotool("key", "Return")
        check(bar_seen(0.6) == 0, "a local page that opens at once shows no bar")
        app.wait_text("The end")
        x, y = app.text_position("Go to the end")
        app.click_screen(x, y)
        check(bar_seen(0.6) == 0, "a jump within the page shows no bar")
        wait_for(lambda: app.scroll_value() > 1000, what="the view scrolls to #end")

        start_slow_load(app, server, "/page?title=Elsewhere")
        check(bar_seen(0.5) > 0, "a load from the network does show the bar (the watch can see it)")
        app.wait_title("Elsewhere")
        time.sleep(1.0)   # the bar of that load has gone
        check(bar_seen(0.1) == 0, "the bar of the last load has gone")
        app.key("alt+Left")
        check(bar_seen(0.6) == 0, "Back from the page cache shows no bar")
        app.wait_title("Anchors")
    finally:
        app.close()
        server.stop()
