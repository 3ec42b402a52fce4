"""The window as a newcomer first sees it, and the command line without a display."""

import ctypes
import os
import shutil
import subprocess
import tempfile
from urllib.parse import quote

from harness import App, Server, bus_name_has_owner, check, wait_for, xdotool


def test_welcome_page_opens_with_its_title_and_text(binary):
    app = App(binary)
    try:
        app.wait_title("Welcome to GtkProgress")
        app.wait_text("GtkProgress is a small page viewer")
        text = app.page_text()
        check("Bundled pages" in text, "the welcome page's headings are rendered")
        check("<h1>" not in text and "<p>" not in text, "tags are not shown as text")
        shot = app.screenshot("welcome.png")
        # The page area must hold dark text on the light page, not an empty surface.
        x, y, w, h = app.geometry()
        out = subprocess.run(["convert", shot, "-crop", f"{w // 2}x200+{x + 10}+{y + 60}", "-colorspace", "gray",
                              "-format", "%[fx:standard_deviation]", "info:"], capture_output=True, text=True)
        check(float(out.stdout or 0) > 0.05, f"the page area shows text (grey deviation {out.stdout})")
        check(not app.button_sensitive("Back"), "Back is insensitive on the first page")
        check(not app.button_sensitive("Forward"), "Forward is insensitive on the first page")
    finally:
        app.close()


def test_url_on_the_command_line_opens(binary):
    server = Server()
    app = App(binary, server.url("/page?title=" + quote("From the command line")))
    try:
        app.wait_title("From the command line")
        app.wait_text("This is a test page.")
    finally:
        app.close()
        server.stop()


def test_help_version_and_no_display(binary):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = subprocess.run([binary, "--help"], env=env, capture_output=True, text=True, timeout=20)
    check(out.returncode == 0 and "Usage: gtkprogress" in out.stdout, f"--help works without a display: {out}")
    out = subprocess.run([binary, "--version"], env=env, capture_output=True, text=True, timeout=20)
    check(out.returncode == 0 and out.stdout.startswith("gtkprogress "), f"--version: {out}")
    out = subprocess.run([binary], env=env, capture_output=True, text=True, timeout=20)
    lines = out.stderr.strip().splitlines()
    check(out.returncode == 1 and len(lines) == 1 and "display" in lines[0],
          f"no display: one line and status 1, got {out.returncode} {out.stderr!r}")
    out = subprocess.run([binary, "--no-such-flag"], env=env, capture_output=True, text=True, timeout=20)
    check(out.returncode == 2 and "Unknown option" in out.stderr, f"unknown option: {out}")


def test_bad_curve_file_falls_back_with_a_message(binary, tmp="/tmp/gtkprogress-ui-bad-curve.json"):
    with open(tmp, "w") as f:
        f.write("{ not json")
    app = App(binary, "--curve", tmp)
    try:
        app.wait_title("Welcome to GtkProgress")
        app.wait_status("gtkprogress-ui-bad-curve.json")
    finally:
        app.close()


def test_second_launch_opens_in_the_running_window(binary):
    server = Server()
    app = App(binary, server.url("/page?title=First"))
    try:
        app.wait_title("First")
        second = subprocess.run([binary, server.url("/page?title=" + quote("Handed over"))], timeout=20,
                                capture_output=True, text=True)
        check(second.returncode == 0, f"the second launch hands over and exits: {second}")
        app.wait_title("Handed over")
        check(app.button_sensitive("Back"), "it became a new page in the same window's history")
        check("not applied" not in second.stderr, f"nothing to say without options: {second.stderr!r}")
        # Options only a new viewer would use are said to be left out, on stderr.
        third = subprocess.run([binary, "--curve", "smooth", server.url("/page?title=" + quote("Third"))], timeout=20,
                               capture_output=True, text=True)
        check(third.returncode == 0, f"the third launch hands over and exits: {third}")
        check("--curve not applied: a viewer is already running" in third.stderr, f"said on stderr: {third.stderr!r}")
        app.wait_title("Third")
    finally:
        app.close()
        server.stop()


def test_runs_without_a_session_bus(binary):
    server = Server()
    env = {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "NO_AT_BRIDGE": "1"}
    app = App(binary, server.url("/page?title=" + quote("No bus")), env=env)
    try:
        app.wait_title("No bus")
    finally:
        app.close()
        server.stop()


def test_the_page_is_asked_for_before_the_window_reaches_the_display(binary):
    """The first address's request leaves before GTK starts: with the X server grabbed by another client, nothing
    of the viewer's GTK start-up can go on (its display connection waits for the grab to end), yet the server gets
    the page's request; once the grab ends, the window shows that page without asking for it again."""
    # A viewer still running (a test before this one ending) would be handed the address instead.
    wait_for(lambda: not bus_name_has_owner("org.gtkprogress.Viewer"), timeout=10, what="no viewer running")
    server = Server()
    xlib = ctypes.CDLL("libX11.so.6")
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    for name in ("XGrabServer", "XUngrabServer", "XCloseDisplay"):
        getattr(xlib, name).argtypes = [ctypes.c_void_p]
    xlib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    display = xlib.XOpenDisplay(None)
    check(display, "the test opens the display")
    path = "/page?title=" + quote("Asked for early")
    environment = dict(os.environ, XDG_STATE_HOME=tempfile.mkdtemp(prefix="gtkprogress-state-"))
    proc = None
    grabbed = True
    try:
        xlib.XGrabServer(display)
        xlib.XSync(display, 0)
        proc = subprocess.Popen([binary, server.url(path)], env=environment, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        wait_for(lambda: server.count("/page") == 1, timeout=20,
                 what="the page's request while the X server is grabbed")
        xlib.XUngrabServer(display)
        xlib.XSync(display, 0)
        grabbed = False
        wait_for(lambda: xdotool("search", "--onlyvisible", "--pid", proc.pid, "--name", "Asked for early",
                                 check_rc=False), timeout=20, what="the window showing the page")
        check(server.count("/page") == 1, "the window took the load over rather than asking again")
    finally:
        if grabbed:
            xlib.XUngrabServer(display)
            xlib.XSync(display, 0)
        xlib.XCloseDisplay(display)
        if proc:
            proc.terminate()
            proc.wait(timeout=10)
        wait_for(lambda: not bus_name_has_owner("org.gtkprogress.Viewer"), timeout=10,
                 what="the viewer's name released")
        shutil.rmtree(environment["XDG_STATE_HOME"], ignore_errors=True)
        server.stop()
