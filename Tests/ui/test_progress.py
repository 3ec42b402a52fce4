"""The bar in the running app, read as a screen reader reads it: the curve up to 0.90, real progress above it.

The window follows the wechat preset without its milestones (test_motion's curve file): a milestone moves the
curve's clock on, and these tests compare the bar with the time curve alone."""

import time

from harness import App, Server, check, wait_for
from test_motion import curve_file, curve_value


def bar_values(app, seconds):
    """Samples the progress bar's value until the bar hides or `seconds` pass."""
    import pyatspi
    bar = app.find(pyatspi.ROLE_PROGRESS_BAR, "Page load progress")
    values = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            values.append((time.monotonic(), bar.queryValue().currentValue,
                           bar.getState().contains(pyatspi.STATE_SHOWING)))
        except Exception:
            pass
        time.sleep(0.1)
    return values


def test_real_progress_takes_over_above_the_hold(binary):
    server = Server()
    # 360 KB at 36 KB/s with Content-Length: about 10 s; real progress passes 0.90 near 9 s, when the curve is
    # at 0.83, so anything above 0.90 before 15 s can only be real progress.
    app = App(binary, "--curve", curve_file(), server.url("/page?title=Start"))
    try:
        app.wait_title("Start")
        app.key("ctrl+l")
        app.type(server.url("/slow?size=360000&rate=36000") + "\n")
        start = time.monotonic()
        samples = bar_values(app, 13)
        above = [(t - start, v) for t, v, showing in samples if 0.90 < v < 1.0]
        check(above, f"real progress shows above 0.90 before the load ends: {samples[-20:]}")
        check(all(t < 14 for t, _ in above), "and before the curve could have got there")
        early = [v for t, v, _ in samples if t - start < 2]
        check(early and max(early) < 0.60, f"the first seconds follow the curve: {early}")
    finally:
        app.close()
        server.stop()


def test_chunked_page_holds_the_curve_until_finish(binary):
    server = Server()
    app = App(binary, "--curve", curve_file(), server.url("/page?title=Start"))
    try:
        app.wait_title("Start")
        app.key("ctrl+l")
        app.type(server.url("/slow?size=200000&rate=50000&chunked=1") + "\n")
        start = time.monotonic()
        samples = bar_values(app, 6)
        # 200 KB at 50 KB/s takes at least 4 s: until 3.5 s the load is surely under way, and with no length
        # the bar can only be following the curve.
        during = [(t - start, v) for t, v, _ in samples if t - start < 3.5]
        check(during and all(v <= curve_value(t) + 0.04 for t, v in during),
              f"with no length the curve alone drives the bar: {[(round(t, 2), round(v, 3)) for t, v in during]}")
        values = [v for _, v, _ in samples]
        ends = [i for i, v in enumerate(values) if v >= 0.999]
        until_full = values[:ends[0] + 1] if ends else values
        check(all(b >= a - 1e-9 for a, b in zip(until_full, until_full[1:])), f"never backwards: {until_full}")
        wait_for(lambda: "Done" in app.status(), what="the load finishes")
    finally:
        app.close()
        server.stop()
