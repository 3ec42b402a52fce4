"""The library's example, bar-demo (Examples/bar-demo, built beside the viewer), used as a person would: its
buttons start simulated loads, and the bar they drive is read back from the screen — a slow load fills part of it
and never moves back, Stop takes it away at once, a failure turns it the error colour before it goes."""

import os

from harness import App, check, wait_for


def is_accent(pixel):
    r, g, b = pixel
    return b > 150 and r < 120 and b - r > 80


def is_error(pixel):
    r, g, b = pixel
    return r > 150 and g < 90 and b < 90


class Window:
    """Rows of the demo's window, grabbed from the X server."""

    def __init__(self, app):
        import gi
        gi.require_version("Gdk", "3.0")
        from gi.repository import Gdk
        self.Gdk = Gdk
        Gdk.init([])
        self.root = Gdk.get_default_root_window()
        self.x, self.y, self.width, self.height = app.geometry()

    def rows(self, top, count):
        pixbuf = self.Gdk.pixbuf_get_from_window(self.root, self.x, self.y + top, self.width, count)
        data, n, stride = pixbuf.get_pixels(), pixbuf.get_n_channels(), pixbuf.get_rowstride()
        return [[tuple(data[r * stride + i * n:r * stride + i * n + 3]) for i in range(self.width)]
                for r in range(count)]

    def run(self, row, test):
        """The filled share: the run of matching pixels from the left edge."""
        count = 0
        for pixel in row:
            if not test(pixel):
                break
            count += 1
        return count / self.width


def test_bar_demo_drives_the_bar_with_simulated_loads(binary):
    demo = os.path.join(os.path.dirname(os.path.abspath(binary)), "bar-demo")
    check(os.path.exists(demo), f"bar-demo is built beside {binary}")
    app = App(demo)
    try:
        app.wait_title("GtkProgress bar demo")
        window = Window(app)
        app.click_button("Slow load")

        def longest_run():
            """The bar's row: the one with the longest accent-coloured run from the left, near the top."""
            runs = [window.run(row, is_accent) for row in window.rows(0, min(120, window.height))]
            bar_y = max(range(len(runs)), key=lambda y: runs[y])
            return runs[bar_y] > 0.1 and bar_y
        bar_y = wait_for(longest_run, what="the bar of a slow load")
        samples = []

        def moved_on():
            samples.append(window.run(window.rows(bar_y, 1)[0], is_accent))
            return samples[-1] > samples[0] + 0.05
        wait_for(moved_on, what=f"the bar to move on (samples {samples[-5:]})")
        check(all(b >= a - 0.01 for a, b in zip(samples, samples[1:])), f"never backwards: {samples}")
        check(samples[-1] < 0.95, f"a slow load does not look finished: {samples[-1]:.2f}")

        app.click_button("Stop")
        # Gone, not finished: no run to the end first (the demo's slow load would take far longer to end).
        stopped = []
        wait_for(lambda: stopped.append(window.run(window.rows(bar_y, 1)[0], is_accent)) or stopped[-1] == 0,
                 interval=0.01, what="the bar gone on Stop")
        check(max(stopped) < 0.95, f"Stop takes the bar away without a run to the end: {stopped}")

        app.click_button("Failure")
        red = wait_for(lambda: window.run(window.rows(bar_y, 1)[0], is_error), what="the bar in the error colour")
        check(0.05 < red < 0.9, f"a failure stops where the bar stood, unfilled: {red:.2f}")
        wait_for(lambda: window.run(window.rows(bar_y, 1)[0], is_error) == 0, what="the failed bar fades and goes")
    finally:
        app.close()
