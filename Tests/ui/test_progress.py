"""The bar in the running app, read as a screen reader reads it: the curve up to 0.90, real progress above it.

The window follows the wechat preset without its milestones (test_motion's curve file): a milestone moves the
curve's clock on, and these tests compare the bar with the time curve alone.

No assertion here depends on how fast the machine is. The viewer's clock is CLOCK_MONOTONIC (g_get_monotonic_time,
https://docs.gtk.org/glib/func.get_monotonic_time.html), the clock Python's time.monotonic() reads on Linux
(https://docs.python.org/3/library/time.html#time.monotonic), and its load starts after the Return that asks for
it was sent: so at any moment the curve has run for at most the seconds since then, and the curve's value for that
time bounds the bar from above however late the viewer is. Whether the page still loads is read after each value:
a value read while the page was still busy was read before the load ended."""

import time

from gi.repository import Gio, GLib

from harness import App, Server, check, wait_for, xdotool
from test_motion import TIME_ONLY, curve_file, curve_value

HOLD = TIME_ONLY["hold"]


def _timed_out(error):
    """An AT-SPI call that got no answer in time (a busy machine), the one failure a reader simply asks again after."""
    return (error.matches(Gio.io_error_quark(), Gio.IOErrorEnum.TIMED_OUT)
            or error.matches(Gio.dbus_error_quark(), Gio.DBusError.NO_REPLY)
            or error.matches(Gio.dbus_error_quark(), Gio.DBusError.TIMEOUT))


def bar_values(app, sent, timeout=60):
    """Reads the bar while the page loads, from the moment the load was asked for (`sent`, monotonic seconds) until
    the page is no longer busy. Each sample is (seconds since `sent` when the read ended, the bar's value, whether
    the page was still busy when it was read)."""
    import pyatspi
    bar = app.find(pyatspi.ROLE_PROGRESS_BAR, "Page load progress")
    page = app.find(pyatspi.ROLE_TEXT, "Page")
    samples = []

    def sample():
        try:
            value = bar.queryValue().currentValue
            busy = page.getState().contains(pyatspi.STATE_BUSY)
        except GLib.Error as error:
            if _timed_out(error):
                return False
            raise
        samples.append((time.monotonic() - sent, value, busy))
        return not busy
    wait_for(sample, timeout=timeout, interval=0.1, what=f"the load to end (last samples: {samples[-3:]})")
    return samples


def start_load(app, url):
    """Types `url` in the address entry and presses Return; returns the monotonic time just before the Return."""
    app.key("ctrl+l")
    app.type(url)
    sent = time.monotonic()
    xdotool("key", "Return")
    app.sync()
    return sent


def check_under_the_curve(samples):
    """Below the hold the time curve alone drives the bar: never above its value for the time since the Return."""
    over = [(round(t, 2), v, round(curve_value(t), 3)) for t, v, busy in samples
            if busy and v <= HOLD and v > curve_value(t) + 0.005]
    check(not over, f"the bar is never ahead of the curve: {over[:8]}")


def check_never_backwards(samples):
    loading = [v for _, v, busy in samples if busy]
    check(all(b >= a - 1e-9 for a, b in zip(loading, loading[1:])), f"never backwards while loading: {loading}")


def test_real_progress_takes_over_above_the_hold(binary):
    server = Server()
    # 360 KB at 36 KB/s with Content-Length: real progress passes 0.90 near 90 % of the body, and the curve alone
    # never passes its hold of 0.90, so a value between 0.90 and 1 while the page loads can only be real progress.
    app = App(binary, "--curve", curve_file(), server.url("/page?title=Start"))
    try:
        app.wait_title("Start")
        sent = start_load(app, server.url("/slow?size=360000&rate=36000"))
        samples = bar_values(app, sent)
        above = [(round(t, 2), v) for t, v, busy in samples if busy and HOLD < v < 1.0]
        check(above, f"real progress shows above {HOLD} before the load ends: {samples[-20:]}")
        check_under_the_curve(samples)
        check_never_backwards(samples)
        app.wait_status("Done")
    finally:
        app.close()
        server.stop()


def test_chunked_page_holds_the_curve_until_finish(binary):
    server = Server()
    app = App(binary, "--curve", curve_file(), server.url("/page?title=Start"))
    try:
        app.wait_title("Start")
        sent = start_load(app, server.url("/slow?size=200000&rate=50000&chunked=1"))
        samples = bar_values(app, sent)
        # With no length the bytes never count: the bar stays on the curve, under its hold, until the load ends.
        loading = [(round(t, 2), v) for t, v, busy in samples if busy]
        check(len(loading) >= 3, f"the bar was read while the page loaded: {samples}")
        check(all(v <= HOLD for _, v in loading), f"nothing above the hold before the end: {loading}")
        check_under_the_curve(samples)
        check_never_backwards(samples)
        wait_for(lambda: "Done" in app.status(), what="the load finishes")
    finally:
        app.close()
        server.stop()
