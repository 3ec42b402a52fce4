#!/usr/bin/python3
"""PageloadBar's interface through GObject Introspection, in one Python process (under an X server, with
GI_TYPELIB_PATH and LD_LIBRARY_PATH pointing at an installed copy; Tests/pageload/run.sh runs it).
Usage: check_api.py LIBRARY_PATH"""
import sys
import time

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
gi.require_version("Atk", "1.0")
gi.require_version("Pageload", "1")
from gi.repository import Atk, Gdk, GLib, Gtk, Pageload  # noqa: E402


def spin_until(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        Gtk.main_iteration_do(False)
        time.sleep(0.005)


def accent_columns(window):
    """The columns of the window's top rows painted in Adwaita's accent (#3584e4), read from the screen."""
    gdk_window = window.get_window()
    width = gdk_window.get_width()
    pixbuf = Gdk.pixbuf_get_from_window(gdk_window, 0, 0, width, 8)
    pixels, stride, channels = pixbuf.get_pixels(), pixbuf.get_rowstride(), pixbuf.get_n_channels()
    columns = set()
    for y in range(8):
        for x in range(width):
            r, g, b = pixels[y * stride + x * channels:y * stride + x * channels + 3]
            if b > 170 and r < 120 and 90 < g < 170:
                columns.add(x)
    return width, columns


def check_destroyed_from_finished():
    """An application may destroy the bar (its tab) when a run ends; the bar's methods then do nothing."""
    for end in ("finish", "fail", "cancel"):
        window = Gtk.Window()
        overlay = Gtk.Overlay()
        overlay.add(Gtk.Label(label="content"))
        bar = Pageload.Bar()
        overlay.add_overlay(bar)
        window.add(overlay)
        window.show_all()
        ended = []
        bar.connect("finished", lambda _bar, window=window: (window.destroy(), ended.append(True)))
        bar.start()
        spin_until(lambda: bar.props.fraction > 0.05, 5, f"the bar climbing before {end}")
        getattr(bar, end)()
        spin_until(lambda: ended, 10, f"finished after {end}")
        bar.start()
        bar.milestone(Pageload.Milestone.CONNECTED)
        bar.set_real_progress(10, 100)
        bar.finish()
        assert bar.set_curve("smooth")
        assert not bar.props.loading and bar.props.fraction == 0.0, f"a destroyed bar stays idle after {end}"


def check_right_to_left():
    """In a right-to-left locale's direction the bar grows from the right edge."""
    Gtk.Widget.set_default_direction(Gtk.TextDirection.RTL)
    window = Gtk.Window()
    overlay = Gtk.Overlay()
    overlay.add(Gtk.Label(label="content"))
    bar = Pageload.Bar()
    overlay.add_overlay(bar)
    window.add(overlay)
    window.set_default_size(400, 100)
    window.show_all()
    bar.start()
    spin_until(lambda: bar.props.fraction > 0.2, 5, "the right-to-left bar climbing")
    spin_until(lambda: len(accent_columns(window)[1]) > 40, 5, "the right-to-left bar on the screen")
    width, columns = accent_columns(window)
    assert max(columns) == width - 1 and min(columns) > width / 2, \
        f"the bar grows from the right: columns {min(columns)}…{max(columns)} of {width}"
    bar.cancel()
    window.destroy()
    Gtk.Widget.set_default_direction(Gtk.TextDirection.LTR)


def main(library):
    maps = open("/proc/self/maps").read()
    window = Gtk.Window()
    overlay = Gtk.Overlay()
    overlay.add(Gtk.Label(label="content"))
    bar = Pageload.Bar()
    overlay.add_overlay(bar)
    window.add(overlay)
    window.set_default_size(400, 100)
    window.show_all()
    maps = open("/proc/self/maps").read()
    assert library in maps, "the installed library is the one loaded"
    assert "libswift" not in maps and "libFoundation" not in maps, "no Swift runtime library beside it"

    assert isinstance(bar, Gtk.Widget) and bar.get_parent() is overlay
    assert overlay.get_overlay_pass_through(bar), "clicks pass through the bar to the content"
    assert bar.props.curve == "wechat" and bar.props.fraction == 0.0 and not bar.props.loading
    accessible = bar.get_child().get_accessible()
    assert accessible.get_role() == Atk.Role.PROGRESS_BAR, accessible.get_role()

    notified = []
    bar.connect("notify::fraction", lambda *_: notified.append(bar.props.fraction))
    finished = []
    bar.connect("finished", lambda *_: finished.append(True))

    bar.start()
    assert bar.props.loading
    assert accessible.ref_state_set().contains_state(Atk.StateType.BUSY), "BUSY while loading"
    spin_until(lambda: bar.props.fraction > 0.05, 5, "the fraction climbing the curve")
    assert notified and notified == sorted(notified), f"notify::fraction as the bar climbs: {notified}"
    bar.milestone(Pageload.Milestone.FIRST_BYTE)
    bar.set_real_progress(1000, -1)
    bar.finish()
    assert not bar.props.loading
    assert not accessible.ref_state_set().contains_state(Atk.StateType.BUSY), "not BUSY once the load ended"
    spin_until(lambda: finished, 10, "the finished signal")
    assert bar.props.fraction == 0.0, bar.props.fraction

    # A run that is cancelled ends at once, with the signal.
    bar.start()
    bar.cancel()
    assert len(finished) == 2, "finished after cancel"

    red = Gdk.RGBA()
    red.parse("#ff0000")
    bar.props.color = red
    assert bar.get_color().equal(red) and bar.props.color.equal(red)
    bar.set_color(None)
    assert bar.get_color() is None

    assert bar.set_curve("smooth") and bar.props.curve == "smooth"
    try:
        bar.set_curve("/nonexistent/pageload.json")
        raise AssertionError("a missing curve file was taken")
    except GLib.Error as error:
        assert error.domain == "pageload-curve-error-quark", error.domain
        assert error.code == Pageload.CurveError.UNREADABLE, error.code
        assert "/nonexistent/pageload.json" in error.message, error.message
    assert bar.props.curve == "smooth", "a refused curve leaves the one in use"
    try:
        bar.set_curve("no-such-preset")
        raise AssertionError("an unknown preset was taken")
    except GLib.Error as error:
        assert error.code == Pageload.CurveError.NO_SUCH_PRESET, error.code
    window.destroy()
    check_destroyed_from_finished()
    check_right_to_left()
    print("python: the installed library loaded without a Swift runtime beside it; properties, signals, "
          "accessible (progress bar, BUSY), curve errors, destruction from the finished handler and right-to-left growth as documented")


if __name__ == "__main__":
    main(sys.argv[1])
