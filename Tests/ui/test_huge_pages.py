"""A page of several megabytes left, gone back to, reloaded changed, and its window closed, with the window
answering throughout; a link whose address is a megabyte hovered.

Whether the window answers is asked as bench/xprobe.c asks it: a _NET_WM_PING client message, which GDK answers
from the application's main loop, so the answer is as late as the loop is busy (the EWMH specification,
"_NET_WM_PING"). The bound is generous, a liveness check and not a speed target: the speed is `make bench`'s
("Huge page" row). Before the view swapped buffers, leaving such a page held the window for 30 s."""

import importlib.util
import os
import tempfile
import threading
import time

from harness import ROOT, App, PingClient, check, clipboard_text, wait_for, xdotool

# The page writer the benchmark's "huge" row uses (bench/nodelike.py), loaded from its file.
_spec = importlib.util.spec_from_file_location("nodelike", os.path.join(ROOT, "bench", "nodelike.py"))
nodelike = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nodelike)
WORDS = "page view buffer text link main loop window answer slice tag table paragraph heading".split()

# Every probe must be answered within this, in seconds: many times a slow turn, well below the old freeze.
ANSWER_WITHIN = 5.0


class Pinger:
    """Sends _NET_WM_PING to a window every `interval` seconds from a thread of its own, one at a time, and keeps
    each round trip (None for one not answered within ANSWER_WITHIN). The pings go through harness.PingClient, on
    an X connection of this prober's own."""

    def __init__(self, window, interval=0.05):
        self.window = int(window)
        self.interval = interval
        self.trips = []
        self.running = True
        self.client = PingClient()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while self.running:
            sent = time.monotonic()
            answered = self.client.ping(self.window, lambda: True, ANSWER_WITHIN)
            self.trips.append((sent, time.monotonic() - sent if answered else None))
            time.sleep(self.interval)

    def stop(self):
        self.running = False
        self.thread.join(timeout=ANSWER_WITHIN + 5)
        self.client.close()

    def check_answered(self, what):
        """Fails unless every probe was answered in time; returns the worst round trip."""
        check(self.trips, f"{what}: no probe was sent")
        late = [(round(t, 1), rtt) for t, rtt in self.trips if rtt is None]
        check(not late, f"{what}: the window did not answer within {ANSWER_WITHIN:.0f} s at {late[:5]}")
        return max(rtt for _, rtt in self.trips)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_idle(app, timeout=240):
    """Waits until the app spends less than a tenth of a second of CPU in a second: the page is in and laid out,
    and the page left has been let go."""
    last = cpu_seconds(app.proc.pid)

    def quiet():
        nonlocal last
        time.sleep(1.0)
        now = cpu_seconds(app.proc.pid)
        busy, last = now - last, now
        return busy < 0.1
    wait_for(quiet, timeout, interval=0, what="the app to be idle")


LONG_ADDRESS = "http://127.0.0.1:9/" + "x" * 1_000_000


def huge_page(path, title, size=5_000_000):
    """About `size` bytes in the shape of Node.js's all.html, dense with tags: headings, paragraphs thick with
    code spans and links (links around code too), nested lists, preformatted blocks and tables; the first link's
    address is a megabyte. Deleting such a page from the buffer on screen took GTK 37 s at 6 MB, where a page of
    plain paragraphs took one."""
    lead = f"<p><a href='{LONG_ADDRESS}'>Long address</a> and more.</p>\n"
    nodelike.dense_page(path, size, title, seed=33, words=WORDS, lead=lead)


def huge_and_small_pages():
    """A new folder holding the huge page ("Huge page") and a small one ("Small page"): (folder, huge, small)."""
    folder = tempfile.mkdtemp(prefix="gtkprogress-huge-")
    huge = os.path.join(folder, "huge.html")
    small = os.path.join(folder, "small.html")
    huge_page(huge, "Huge page")
    with open(small, "w") as f:
        f.write("<title>Small page</title><p>A small page.</p>")
    return folder, huge, small


def page_text_start(app, length=300):
    import pyatspi
    return app.find(pyatspi.ROLE_TEXT, "Page").queryText().getText(0, length)


def test_a_huge_page_left_gone_back_to_reloaded_and_closed_with_the_window_answering(binary):
    folder, huge, small = huge_and_small_pages()
    app = App(binary, huge)
    pinger = None
    try:
        app.wait_title("Huge page", timeout=60)
        wait_idle(app)
        pinger = Pinger(app.window)

        # A megabyte of address under the pointer: the status line shows its start.
        import pyatspi
        start = page_text_start(app)
        check("Long address" in start, f"the page begins with its long link: {start[:80]!r}")
        text = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
        x, y, w, h = text.getCharacterExtents(start.index("Long address") + 2, pyatspi.DESKTOP_COORDS)
        xdotool("mousemove", x + 4, y + h // 2 + 1)
        time.sleep(0.05)
        xdotool("mousemove", x + w // 2, y + h // 2)
        app.wait_status("http://127.0.0.1:9/xxx")
        status = app.status()
        check(status.endswith("…") and len(status) <= 201, f"the status line shows the address cut: {len(status)} "
                                                           f"characters ending {status[-5:]!r}")
        xdotool("mousemove", x, y + 400)

        # Leave it.
        app.key("ctrl+l")
        app.type(small + "\n")
        app.wait_title("Small page", timeout=60)
        wait_idle(app)
        # Back to it, from the page cache: shown from the top, a slice at a time.
        app.key("alt+Left")
        app.wait_title("Huge page", timeout=60)
        check("Long address" in page_text_start(app), "Back shows the huge page")
        wait_idle(app)
        # Reloaded after it changed at the top: most of it is replaced.
        huge_page(huge, "Huge page, changed")
        app.key("F5")
        app.wait_title("Huge page, changed", timeout=60)
        wait_idle(app)
        worst = pinger.check_answered("leaving, going back and reloading")
        print(f"  worst round trip leaving, going back and reloading: {worst * 1000:.0f} ms "
              f"over {len(pinger.trips)} probes")
        pinger.stop()
        pinger = None

        # A second window stays open while the huge page's window closes; it must answer too.
        huge_window = app.window
        app.key("ctrl+n")
        windows = app.wait_windows(2)
        other = next(w for w in windows if w != huge_window)
        pinger = Pinger(other)
        time.sleep(0.5)
        app.use_window(huge_window)
        app.key("ctrl+w", closes=True)
        app.wait_windows(1, timeout=60)
        wait_idle(app)
        worst = pinger.check_answered("closing the huge page's window")
        print(f"  worst round trip closing: {worst * 1000:.0f} ms over {len(pinger.trips)} probes")
        check(app.proc.poll() is None, "the app is still running with its other window")
    finally:
        if pinger:
            pinger.stop()
        app.close()
        for name in (huge, small):
            if os.path.exists(name):
                os.unlink(name)
        os.rmdir(folder)



def close_at_once(app, *keys, delay=0):
    """Presses `keys`, then Ctrl+W, in one go: the window closes while what the keys started is still under way
    (`delay` milliseconds between the keys; a keyboard's xdotool default is 12). No _NET_WM_PING follows: one sent
    as the window goes is never answered."""
    app.focus()
    xdotool("key", "--clearmodifiers", "--delay", delay, *keys, "ctrl+w", check_rc=False)


def test_a_window_closed_while_a_huge_page_is_still_going_in_leaves_the_app_clean(binary):
    # The page goes in a slice at a time from idle turns, with its tables fitted and its measure set in turns of
    # their own; the window closes before they are done. The closing text view lets its buffer and tags go, so
    # none of the page's waiting work may run after that (the harness fails on any GTK critical, such as a
    # property set on a tag that is gone). The window closes while the page first goes in, right after Back (with
    # no pause between the keys, and with a keyboard's), and right after a reload has begun showing it.
    folder, huge, small = huge_and_small_pages()
    app = App(binary, small)

    def huge_window_shown():
        app.use_window(first)
        app.key("ctrl+n")
        windows = app.wait_windows(2)
        app.use_window(next(w for w in windows if w != first))
        app.type(huge + "\n")
        app.wait_title("Huge page", timeout=60)

    # Each way of closing is tried whatever the one before met; the test fails at the end, naming each that met
    # a complaint.
    complained = []

    def closed(what):
        app.wait_windows(1, timeout=60)
        app.use_window(first)
        wait_idle(app)
        check(app.proc.poll() is None, f"{what}: the app is still running with its other window")
        problems = app.complaints()[sum(n for _, n, _ in complained):]
        complained.append((what, len(problems), problems[:2]))

    try:
        app.wait_title("Small page")
        first = app.window
        # While the page first goes in.
        huge_window_shown()
        close_at_once(app)
        closed("closed while the page first went in")
        # Right after Back, from the page cache; the second time it goes back to a place further down, which the
        # view scrolls to once the page is in that far.
        for delay in (0, 12):
            huge_window_shown()
            wait_idle(app)
            if delay:
                for _ in range(3):
                    app.key("Page_Down")
            app.key("ctrl+l")
            app.type(small + "\n")
            app.wait_title("Small page", timeout=60)
            wait_idle(app)
            close_at_once(app, "alt+Left", delay=delay)
            closed(f"closed right after Back ({delay} ms between the keys)")
        # Right after a reload of the page, changed, has begun showing it.
        huge_window_shown()
        wait_idle(app)
        huge_page(huge, "Huge page, changed")
        app.key("F5")
        app.wait_title("Huge page, changed", timeout=60)
        close_at_once(app)
        closed("closed right after a reload")
        for what, count, problems in complained:
            print(f"  {what}: {count} complaints", flush=True)
        check(not any(count for _, count, _ in complained), "GTK or GLib complained:\n" + "\n".join(
            f"{what}: {count}, such as {problems[0]}" for what, count, problems in complained if count))
    finally:
        app.close()
        for name in (huge, small):
            os.unlink(name)
        os.rmdir(folder)


def test_the_last_window_closed_right_after_back_to_a_huge_page_ends_the_app_clean(binary):
    # The last window closes with the page's work waiting: the app ends, with no GTK critical on the way.
    folder, huge, small = huge_and_small_pages()
    app = App(binary, huge)
    try:
        app.wait_title("Huge page", timeout=60)
        wait_idle(app)
        app.key("ctrl+l")
        app.type(small + "\n")
        app.wait_title("Small page", timeout=60)
        wait_idle(app)
        close_at_once(app, "alt+Left")
        wait_for(lambda: app.proc.poll() is not None, timeout=60, what="the app to end")
        check(app.proc.returncode == 0, f"the app ended with status {app.proc.returncode}")
    finally:
        app.close()
        for name in (huge, small):
            os.unlink(name)
        os.rmdir(folder)


def test_a_page_of_many_short_paragraphs_reads_finds_and_copies_as_its_lines(binary):
    """30,000 one-word paragraphs, a heading among them: past the view's first lines, runs of them share a line of
    the text buffer through line separators (LineJoins, for the buffer's cost per line). The reader sees them spaced
    as at the top, the heading as a heading, find reaches the last word, and a copy gives the page's line breaks."""
    import pyatspi
    folder = tempfile.mkdtemp(prefix="gtkprogress-short-")
    path = os.path.join(folder, "short.html")
    words = [f"w{k}" for k in range(30_000)]
    with open(path, "w") as f:
        f.write("<title>Short paragraphs</title>" + "".join(f"<p>{w}" for w in words[:20_000])
                + "<h2>Heading among them</h2>" + "".join(f"<p>{w}" for w in words[20_000:]) + "<p>The end")
    app = App(binary, path)
    try:
        app.wait_title("Short paragraphs")
        wait_idle(app)
        page = app.find(pyatspi.ROLE_TEXT, "Page")
        text = page.queryText()
        whole = text.getText(0, -1)
        check("\u2028" in whole, "runs of short paragraphs share buffer lines")

        def top(word):
            return text.getCharacterExtents(whole.index(word + "\u2028") if word + "\u2028" in whole
                                            else whole.index(word + "\n"), pyatspi.WINDOW_COORDS)[1]
        # The same spacing between paragraphs at the top (each its own buffer line) and deep down (joined).
        near = top("w11") - top("w10")
        deep = top("w25001") - top("w25000")
        check(near > 0 and near == deep, f"paragraphs spaced alike at the top ({near} px) and deep down ({deep} px)")
        for a, b in (("w20063", "w20064"), ("w29999", "The end")):
            y = lambda w: text.getCharacterExtents(whole.index(w), pyatspi.WINDOW_COORDS)[1]
            check(y(b) - y(a) == near, f"{a} and {b} a paragraph apart ({y(b) - y(a)} px, not {near})")
        heading = text.getCharacterExtents(whole.index("Heading among"), pyatspi.WINDOW_COORDS)
        word = text.getCharacterExtents(whole.index("w20000"), pyatspi.WINDOW_COORDS)
        check(heading[3] > word[3], f"the heading is larger than the words ({heading[3]} against {word[3]} px)")
        entry = app.open_find("w29999")
        matches = app.find_matches
        wait_for(lambda: matches() == "1 of 1", what=f"“1 of 1” for the last word ({matches()!r})")
        app.settled_screenshot("short-paragraphs-found.png")
        app.key("Escape")
        wait_for(lambda: page.getState().contains(pyatspi.STATE_FOCUSED), what="the page has the keyboard again")
        # A copy of the last paragraphs, across joined lines and the heading, gives newlines.
        start = whole.index("w19998")
        end = whole.index("w20002") + len("w20002")
        text = page.queryText()
        selected = text.setSelection(0, start, end) if text.getNSelections() else text.addSelection(start, end)
        check(selected, "the paragraphs selected")
        app.key("ctrl+c")
        expected = "w19998\n\nw19999\n\nHeading among them\n\nw20000\n\nw20001\n\nw20002"
        wait_for(lambda: clipboard_text() == expected,
                 what=f"the copy with the page's line breaks ({clipboard_text()!r})")
        check(not app.complaints(), f"no GTK warning: {app.complaints()}")
    finally:
        app.close()
