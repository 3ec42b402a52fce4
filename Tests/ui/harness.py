"""Drives the real gtkprogress window the way a person does: X11 input through xdotool, screenshots, and what a
screen reader sees through AT-SPI. Runs under Xvfb and a D-Bus session (see Tests/ui/run.py)."""

import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SERVER = os.path.join(ROOT, "Tests", "server", "testserver.py")
ARTIFACTS = os.environ.get("UI_ARTIFACTS", "/tmp/gtkprogress-ui")
os.makedirs(ARTIFACTS, exist_ok=True)


class Failure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class PageHandler:
    """Mixed into an `http.server.BaseHTTPRequestHandler` of a test's loopback server: quiet; `answer(html)` sends
    a page with its length, `answer_bytes(body, content_type)` anything else."""

    def log_message(self, *args):
        pass

    def answer(self, html):
        self.answer_bytes(html.encode(), "text/html; charset=utf-8")

    def answer_bytes(self, body, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def settled(read, timeout=5):
    """`read()` once it has stopped changing for 0.3 s (GTK measures a long page's lines in idle time)."""
    last = read()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = read()
        if now == last:
            return now
        last = now
    return last


def stays(predicate, seconds, what="condition"):
    """Checks that `predicate()` holds at every look for `seconds`: for what must not happen (no more requests), which
    no event announces. A busy machine can only make the check more lenient, never make it fail wrongly."""
    deadline = time.monotonic() + seconds
    while True:
        check(predicate(), f"{what} no longer holds")
        if time.monotonic() >= deadline:
            return
        time.sleep(0.05)


def wait_for(predicate, timeout=10.0, interval=0.05, what="condition"):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(interval)
    raise Failure(f"timed out after {timeout:.0f} s waiting for {what} (last: {last!r})")


WARNING_PATTERN = re.compile(r"\b(Gtk|Gdk|GLib|GLib-GObject|GLib-GIO|Pango|GdkPixbuf|Atk|atk-bridge)-"
                             r"(WARNING|CRITICAL) \*\*")


def clipboard_text():
    """The text on the desktop's clipboard, as another program pasting it gets it ("" when there is none)."""
    import gi
    gi.require_version("Gdk", "3.0")
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gdk, Gtk
    return Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD).wait_for_text() or ""


def gtk_warnings(path, start=0):
    """The lines of a GLib-family warning or critical in the log at `path` from byte `start`: a viewer in normal use
    prints none, so the test that started it fails on any."""
    with open(path, "rb") as log:
        log.seek(start)
        text = log.read().decode("utf-8", "replace")
    return [line for line in text.splitlines() if WARNING_PATTERN.search(line)]


class _XClientMessage(ctypes.Structure):
    """Xlib's XClientMessageEvent (X11/Xlib.h), padded to the size of an XEvent (24 longs)."""
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("data", ctypes.c_long * 5), ("pad", ctypes.c_long * 12)]


# X errors by display connection. A window that is gone by the time a ping arrives is an X error, which Xlib's
# default handler turns into exit(): this handler counts it instead (the ping then says there is no such window).
# Xlib keeps one handler for the whole process, so it is made and installed once and never freed: a handler that
# belonged to a client and went with it left Xlib calling freed memory.
_x_errors = {}
_x_error_handler = None


def _install_x_error_handler(xlib):
    global _x_error_handler
    if _x_error_handler is not None:
        return

    def on_error(display, event):
        _x_errors[display] = _x_errors.get(display, 0) + 1
        return 0
    _x_error_handler = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(on_error)
    xlib.XSetErrorHandler(_x_error_handler)


class PingClient:
    """Sends `_NET_WM_PING` (the EWMH's "application window has stopped responding" check,
    https://specifications.freedesktop.org/wm-spec/latest/ar01s06.html) to a window and waits for the answer. GDK
    answers it while reading X events in order (gdk_wm_protocols_filter), after it has dispatched every event the
    window got before the ping: so the answer says that the key presses and clicks sent before it have been handled
    (DESIGN.md, "Testing as a person would")."""

    def __init__(self):
        self.ct = ctypes
        self.x = ctypes.CDLL("libX11.so.6")
        self.x.XOpenDisplay.restype = ctypes.c_void_p
        self.x.XOpenDisplay.argtypes = [ctypes.c_char_p]
        self.x.XDefaultRootWindow.restype = ctypes.c_ulong
        self.x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        self.x.XInternAtom.restype = ctypes.c_ulong
        self.x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        self.x.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
        self.x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
        self.x.XFlush.argtypes = [ctypes.c_void_p]
        self.x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.x.XPending.argtypes = [ctypes.c_void_p]
        self.x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        self.x.XConnectionNumber.argtypes = [ctypes.c_void_p]
        self.x.XCloseDisplay.argtypes = [ctypes.c_void_p]
        _install_x_error_handler(self.x)
        self.display = self.x.XOpenDisplay(None)
        if not self.display:
            raise Failure("cannot open the X display for _NET_WM_PING")
        self.root = self.x.XDefaultRootWindow(self.display)
        self.protocols = self.x.XInternAtom(self.display, b"WM_PROTOCOLS", 0)
        self.ping_atom = self.x.XInternAtom(self.display, b"_NET_WM_PING", 0)
        # GDK sends the answer to the root window with SubstructureNotify|SubstructureRedirect.
        self.x.XSelectInput(self.display, self.root, 1 << 19)   # SubstructureNotifyMask
        self.x.XSync(self.display, 0)
        self.serial = 0

    def close(self):
        self.x.XCloseDisplay(self.display)

    def ping(self, window, alive, timeout):
        """Whether `window` answered within `timeout` seconds; False as soon as `alive()` turns false, None when
        there is no such window or it is destroyed before it answers."""
        import select
        # The root's SubstructureNotify selection reports its children's CreateNotify (16) and DestroyNotify (17),
        # whose `window` sits where an XClientMessageEvent has `message_type`. A window destroyed before the ping
        # goes out never answers, and XSendEvent to it is not always refused (seen after Ctrl+W), so the events
        # queued so far are read in order first: the last of them for this id says whether a window has it now
        # (the X server gives a closed client's ids to later clients, so one id can be destroyed, then created).
        reply = _XClientMessage()
        self.x.XSync(self.display, 0)
        gone = False
        while self.x.XPending(self.display):
            self.x.XNextEvent(self.display, self.ct.byref(reply))
            if reply.message_type == int(window) and reply.type in (16, 17):
                gone = reply.type == 17
        if gone:
            return None
        self.serial += 1
        event = _XClientMessage(type=33, window=int(window), message_type=self.protocols, format=32)   # ClientMessage
        event.data[0], event.data[1], event.data[2] = self.ping_atom, self.serial, int(window)
        errors = _x_errors.get(self.display, 0)
        self.x.XSendEvent(self.display, int(window), 0, 0, self.ct.byref(event))
        self.x.XSync(self.display, 0)
        if _x_errors.get(self.display, 0) != errors:
            return None
        deadline = time.monotonic() + timeout
        fd = self.x.XConnectionNumber(self.display)
        while True:
            while self.x.XPending(self.display):
                self.x.XNextEvent(self.display, self.ct.byref(reply))
                if (reply.type == 33 and reply.message_type == self.protocols and reply.data[0] == self.ping_atom
                        and reply.data[1] == self.serial):
                    return True
                # Nor does one destroyed while the ping is on its way.
                if reply.type == 17 and reply.message_type == int(window):
                    return None
            left = deadline - time.monotonic()
            if left <= 0 or not alive():
                return False
            select.select([fd], [], [], min(left, 0.1))


_pinger = None


def handled(window, alive=lambda: True, timeout=15):
    """Waits until the app owning `window` has handled every X event sent to it before this call (see PingClient)."""
    global _pinger
    if _pinger is None:
        _pinger = PingClient()
    return _pinger.ping(window, alive, timeout)


def xdotool(*args, check_rc=True):
    result = subprocess.run(["xdotool", *map(str, args)], capture_output=True, text=True)
    if check_rc and result.returncode != 0:
        raise Failure(f"xdotool {' '.join(map(str, args))} failed: {result.stderr.strip()}")
    return result.stdout.strip()


def bus_name_has_owner(name):
    """Whether a process owns `name` on the session bus (False without a bus)."""
    from gi.repository import Gio, GLib
    try:
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        reply = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                              "NameHasOwner", GLib.Variant("(s)", (name,)), None, Gio.DBusCallFlags.NONE, -1, None)
        return reply.unpack()[0]
    except Exception:
        return False


class Server:
    """The loopback test server (Tests/server/testserver.py) on a free port."""

    def __init__(self):
        self.proc = subprocess.Popen(["/usr/bin/python3", SERVER, "--port", "0"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.port = int(self.proc.stdout.readline().strip())
        self.proc.stdout.readline()

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def count(self, path):
        import urllib.request
        with urllib.request.urlopen(self.url(f"/count?path={path}")) as response:
            return int(response.read().decode().strip())

    def reset_counts(self):
        import urllib.request
        urllib.request.urlopen(self.url("/count/reset")).read()

    def stop(self):
        self.proc.stdin.close()
        self.proc.terminate()
        self.proc.wait(timeout=5)


def _is_toplevel(wid):
    """A browser window, not one of GTK's small utility windows (a drag's, named after the program)."""
    out = xdotool("getwindowgeometry", "--shell", wid, check_rc=False)
    values = dict(line.split("=") for line in out.splitlines() if "=" in line)
    return int(values.get("WIDTH", 0)) > 100 and int(values.get("HEIGHT", 0)) > 100


class App:
    """One gtkprogress process and its window.

    Each App keeps its session in a private XDG_STATE_HOME (removed by close()), so no test restores another's
    windows; pass `state_home` to share one between two runs (a restart)."""

    def __init__(self, binary, *args, env=None, state_home=None):
        environment = dict(os.environ)
        self._own_state = state_home is None
        self.state_home = state_home or tempfile.mkdtemp(prefix="gtkprogress-state-")
        environment["XDG_STATE_HOME"] = self.state_home
        environment.update(env or {})
        # The pointer is left where the last test put it: over a button of the new window it would raise a tooltip
        # over the page. It starts in the screen's far corner, outside every window.
        xdotool("mousemove", "1279", "1023", check_rc=False)
        self.log = open(os.path.join(ARTIFACTS, "app.log"), "a")
        self._log_start = self.log.tell()
        self.proc = subprocess.Popen([binary, *args], env=environment, stdout=self.log, stderr=self.log)
        self.window = wait_for(self._find_window, timeout=20, what="the gtkprogress window")
        self._accessible = None

    @property
    def session_path(self):
        return os.path.join(self.state_home, "gtkprogress", "session.json")

    def windows(self):
        """The ids of the app's visible windows, oldest first."""
        out = xdotool("search", "--onlyvisible", "--pid", self.proc.pid, check_rc=False)
        ids = [line for line in out.splitlines() if line]
        return [wid for wid in ids if xdotool("getwindowname", wid, check_rc=False) and _is_toplevel(wid)]

    def wait_windows(self, count, timeout=15):
        return wait_for(lambda: len(self.windows()) == count and self.windows(), timeout,
                        what=f"{count} windows (now {len(self.windows())})")

    def use_window(self, wid):
        """Sends keys and reads titles of window `wid` from now on, raised above the others (with no window
        manager they all open at the same place) and focused."""
        self.window = wid
        xdotool("windowraise", wid, check_rc=False)
        self.sync()
        self.focus()

    def kill(self):
        """SIGKILL: the process gets no chance to save anything. Returns once the bus has let go of the
        application's name, so the next launch starts afresh instead of handing over to the dead process."""
        self.proc.kill()
        self.proc.wait()
        wait_for(lambda: not bus_name_has_owner("org.gtkprogress.Viewer"), timeout=10,
                 what="the bus to release org.gtkprogress.Viewer")

    def _find_window(self):
        if self.proc.poll() is not None:
            raise Failure(f"gtkprogress exited with status {self.proc.returncode}")
        out = xdotool("search", "--onlyvisible", "--pid", self.proc.pid, check_rc=False)
        ids = [line for line in out.splitlines() if line]
        for wid in ids:
            if xdotool("getwindowname", wid, check_rc=False):
                return wid
        return None

    def sync(self, window=None):
        """Returns once the app has handled every key press, click and window change sent to it so far (a
        _NET_WM_PING round trip through its main loop); work those events only started (a load) is not waited for."""
        alive = lambda: self.proc.poll() is None
        answered = handled(window or self.window, alive)
        if answered is None:
            # The window closed (Ctrl+W, a dialog's button): any other of the app's windows shares its main loop.
            for other in self.windows():
                answered = handled(other, alive)
                if answered is not None:
                    break
            else:
                return
        check(answered or not alive(), f"the app did not answer _NET_WM_PING on {window or self.window}")

    @property
    def title(self):
        return xdotool("getwindowname", self.window, check_rc=False)

    def wait_title(self, title, timeout=15):
        return wait_for(lambda: self.title == title, timeout, what=f"window title {title!r} (now {self.title!r})")

    def geometry(self):
        out = xdotool("getwindowgeometry", "--shell", self.window)
        values = dict(line.split("=") for line in out.splitlines())
        return int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"])

    def focus(self):
        xdotool("windowfocus", "--sync", self.window, check_rc=False)

    def key(self, *keys, closes=False):
        """Presses `keys` in the window. With `closes`, the window may be gone before the keys are released."""
        self.focus()
        # Through XTEST to the focused window, as a keyboard types: `--window` would send synthetic events, after
        # which xdotool's later `keydown` of a modifier can arrive as the last key sent (Ctrl+N again and again).
        xdotool("key", "--clearmodifiers", *keys, check_rc=not closes)
        self.sync()

    def type(self, text):
        """Types `text`; a trailing newline presses Return (xdotool would send Linefeed)."""
        self.focus()
        enter = text.endswith("\n")
        xdotool("type", "--delay", "10", text.rstrip("\n"))
        if enter:
            xdotool("key", "Return")
        self.sync()

    def click(self, x, y, button=1):
        """Clicks at window coordinates."""
        # Each xdotool closes its display with XSync, so the server has moved the pointer before the click is sent,
        # and the app gets the motion before the press.
        xdotool("mousemove", "--window", self.window, int(x), int(y))
        xdotool("click", button)
        self.sync()

    def click_screen(self, x, y, button=1):
        xdotool("mousemove", int(x), int(y))
        xdotool("click", button)
        self.sync()

    def screenshot(self, name):
        path = os.path.join(ARTIFACTS, name)
        subprocess.run(["import", "-window", "root", path], check=True)
        return path

    # What a screen reader sees.

    def accessible(self):
        import pyatspi
        def find():
            desktop = pyatspi.Registry.getDesktop(0)
            for app in desktop:
                try:
                    if app is not None and app.get_process_id() == self.proc.pid:
                        return app
                except Exception:
                    continue
            return None
        return wait_for(find, timeout=15, what="the app on the accessibility bus")

    def frame(self):
        """The accessible of the window in use (the app's only one, or the one named as its title)."""
        import pyatspi
        app = self.accessible()
        frames = [app[i] for i in range(app.childCount)]
        frames = [f for f in frames if f is not None and f.getRole() == pyatspi.ROLE_FRAME]
        if len(frames) <= 1:
            return app
        title = self.title
        return next((f for f in frames if f.name == title), app)

    def find(self, role, name=None):
        import pyatspi
        def search():
            return pyatspi.findDescendant(self.frame(), lambda a: a is not None and a.getRole() == role
                                          and (name is None or a.name == name))
        return wait_for(search, timeout=10, what=f"accessible {role} {name or ''}")

    def page_text(self):
        import pyatspi
        text = self.find(pyatspi.ROLE_TEXT, "Page").queryText()
        return text.getText(0, -1)

    def wait_text(self, fragment, timeout=15):
        return wait_for(lambda: fragment in self.page_text(), timeout, what=f"page text containing {fragment!r}")

    def open_find(self, text):
        """Ctrl+F, then `text` typed into the find bar once its entry has the keyboard; the entry."""
        import pyatspi
        self.key("ctrl+f")
        entry = self.find(pyatspi.ROLE_TEXT, "Find in page")
        wait_for(lambda: entry.getState().contains(pyatspi.STATE_FOCUSED), what="the find entry has the keyboard")
        self.type(text)
        return entry

    def find_matches(self):
        """What the find bar says of its matches ("1 of 3")."""
        import pyatspi
        return self.find(pyatspi.ROLE_LABEL, "Matches").queryText().getText(0, -1)

    def status(self):
        import pyatspi
        return self.find(pyatspi.ROLE_LABEL, "Status").queryText().getText(0, -1)

    def wait_status(self, fragment, timeout=15):
        return wait_for(lambda: fragment in self.status(), timeout, what=f"status containing {fragment!r}")

    def text_position(self, fragment):
        """Screen coordinates of the middle of the first character of `fragment` in the page."""
        import pyatspi
        text = self.find(pyatspi.ROLE_TEXT, "Page").queryText()
        whole = text.getText(0, -1)
        index = whole.index(fragment)
        # AT-SPI offsets count characters.
        x, y, w, h = text.getCharacterExtents(index + 1, pyatspi.DESKTOP_COORDS)
        return x + w // 2, y + h // 2

    def button(self, name):
        import pyatspi
        return self.find(pyatspi.ROLE_PUSH_BUTTON, name)

    def button_sensitive(self, name):
        import pyatspi
        return self.button(name).getState().contains(pyatspi.STATE_SENSITIVE)

    def click_button(self, name):
        import pyatspi
        component = self.button(name).queryComponent()
        x, y, w, h = component.getExtents(pyatspi.DESKTOP_COORDS)
        self.click_screen(x + w // 2, y + h // 2)

    def scroll_value(self):
        import pyatspi
        bars = [a for a in _walk(self.frame()) if a.getRole() == pyatspi.ROLE_SCROLL_BAR]
        vertical = [b for b in bars if b.getState().contains(pyatspi.STATE_VERTICAL)]
        return vertical[0].queryValue().currentValue if vertical else 0.0

    def complaints(self):
        """The GTK and GLib warnings and criticals the viewer has printed so far (`close` fails on any)."""
        self.log.flush()
        return gtk_warnings(os.path.join(ARTIFACTS, "app.log"), self._log_start)

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        if self._own_state:
            shutil.rmtree(self.state_home, ignore_errors=True)
        problems = gtk_warnings(os.path.join(ARTIFACTS, "app.log"), self._log_start)
        check(not problems, "GTK or GLib complained while the viewer ran:\n" + "\n".join(problems[:5]))


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        yield n
        try:
            stack.extend(n[i] for i in range(n.childCount))
        except Exception:
            pass


def _address(self):
    import pyatspi
    entries = [a for a in _walk(self.frame()) if a.getRole() == pyatspi.ROLE_TEXT and a.name == "Address"]
    return entries[0].queryText().getText(0, -1) if entries else ""


App.find_address = _address


# Screenshots read as pixels (ImageMagick), for what only the screen shows: a focus ring, a highlight, a size.

def crop(path, x, y, w, h):
    """The RGB bytes of a rectangle of a screenshot, row by row."""
    out = subprocess.run(["convert", path, "-crop", f"{w}x{h}+{x}+{y}", "+repage", "-depth", "8", "rgb:-"],
                         capture_output=True, check=True)
    return out.stdout


def differing_pixels(a, b):
    """How many pixels of two equal-sized RGB crops differ."""
    return sum(1 for i in range(0, min(len(a), len(b)), 3) if a[i:i + 3] != b[i:i + 3])


def colours(rgb):
    """Each colour of an RGB crop and how many pixels have it."""
    counts = {}
    for i in range(0, len(rgb), 3):
        c = tuple(rgb[i:i + 3])
        counts[c] = counts.get(c, 0) + 1
    return counts


def contrast(c1, c2):
    """WCAG 2 contrast ratio of two sRGB colours (0-255 components)."""
    def luminance(c):
        def channel(v):
            v /= 255
            return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
        r, g, b = (channel(v) for v in c)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    l1, l2 = sorted((luminance(c1), luminance(c2)), reverse=True)
    return (l1 + 0.05) / (l2 + 0.05)


def _page_extents(self):
    """Screen rectangle of the page's text view."""
    import pyatspi
    return self.find(pyatspi.ROLE_TEXT, "Page").queryComponent().getExtents(pyatspi.DESKTOP_COORDS)


def _page_shot(self, name):
    """A screenshot and the RGB bytes of the page's text in it, with the page area's place and size. The crop
    leaves out the strips where the progress bar (top), GTK's overlay scrollbar (right) and the floating status
    (bottom) come and go."""
    path = self.screenshot(name)
    x, y, w, h = self.page_extents()
    return crop(path, x, y + 4, w - 24, h - 4 - STATUS_STRIP), (x, y, w, h)


# The floating status's height and more: a page shot leaves it out.
STATUS_STRIP = 40


def _settled_page_shot(self, name):
    """`page_shot` once the page is painted and still: the viewer has handled everything sent to it so far, and two
    screenshots in a row agree (GTK draws a page's lines in idle time and the caret blinks, so one look can catch a
    frame on its way)."""
    self.sync()
    last, _ = self.page_shot(name)
    def still():
        nonlocal last
        now, area = self.page_shot(name)
        same, last = now == last, now
        return same and (now, area)
    return wait_for(still, timeout=15, interval=0.05, what=f"the page to be painted and still ({name})")


def _settled_screenshot(self, name):
    """`screenshot` once the screen is painted and still (as `settled_page_shot`); returns its path."""
    self.sync()
    last = open(self.screenshot(name), "rb").read()
    def still():
        nonlocal last
        path = self.screenshot(name)
        now = open(path, "rb").read()
        same, last = now == last, now
        return same and path
    return wait_for(still, timeout=15, interval=0.05, what=f"the screen to be painted and still ({name})")


def _caret(self):
    import pyatspi
    return self.find(pyatspi.ROLE_TEXT, "Page").queryText().caretOffset


def _page_description(self):
    import pyatspi
    return self.find(pyatspi.ROLE_TEXT, "Page").description or ""


def _top_offset(self):
    """Character offset of the page text at the top left of the view."""
    import pyatspi
    x, y, w, h = self.page_extents()
    return self.find(pyatspi.ROLE_TEXT, "Page").queryText().getOffsetAtPoint(x + 12, y + 6, pyatspi.DESKTOP_COORDS)


App.page_extents = _page_extents
App.page_shot = _page_shot
App.settled_page_shot = _settled_page_shot
App.settled_screenshot = _settled_screenshot
App.caret = _caret
App.page_description = _page_description
App.top_offset = _top_offset
