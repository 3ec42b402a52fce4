#!/usr/bin/python3
"""The Pageload examples run from an installed copy of the library, and the bar is read back from the screen.

Usage (under an X server, with GI_TYPELIB_PATH and LD_LIBRARY_PATH pointing at the installed copy):
    check_examples.py LANGUAGE=COMMAND... [--gtkprogress PATH]

Each COMMAND is an example (Examples/pageload-*) that takes the load to simulate as its last word. For each, a slow
load must show the bar moving along the curve (wider in a later screenshot), reaching the right edge when it finishes
and then gone; a failed load must show the bar in the theme's error colour, then gone. A curve file that does not
exist must be refused with the words `gtkprogress --print-curve` uses. An example that prints a GTK warning fails.
"""
import os
import shlex
import subprocess
import sys
import time

import gi

gi.require_version("Gdk", "3.0")
from gi.repository import Gdk  # noqa: E402

# The window has no window manager to place it: it sits at the top left, 640 pixels wide (the examples' size).
WINDOW_WIDTH = 640
ROWS = 200


def is_accent(r, g, b):
    """Adwaita's theme_selected_bg_color, #3584e4."""
    return b > 170 and r < 120 and 90 < g < 170


def is_error(r, g, b):
    """Adwaita's error_color (GTK 3), #cc0000."""
    return r > 150 and g < 60 and b < 60


def screenshot():
    root = Gdk.get_default_root_window()
    pixbuf = Gdk.pixbuf_get_from_window(root, 0, 0, WINDOW_WIDTH, ROWS)
    return pixbuf.get_pixels(), pixbuf.get_rowstride(), pixbuf.get_n_channels()


def bar_width(shot, colour):
    """The longest horizontal run of `colour` pixels in any row: the bar's painted width."""
    pixels, stride, channels = shot
    best = 0
    for y in range(ROWS):
        run = 0
        row = y * stride
        for x in range(WINDOW_WIDTH):
            i = row + x * channels
            if colour(pixels[i], pixels[i + 1], pixels[i + 2]):
                run += 1
                best = max(best, run)
            else:
                run = 0
    return best


def wait_for(condition, timeout, what):
    """Samples the screen until `condition(accent width, error width)` holds; returns the widths seen last."""
    deadline = time.monotonic() + timeout
    while True:
        shot = screenshot()
        widths = (bar_width(shot, is_accent), bar_width(shot, is_error))
        if condition(*widths):
            return widths
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not seen within {timeout} s (last widths: accent {widths[0]}, "
                                 f"error {widths[1]})")
        time.sleep(0.05)


class Example:
    def __init__(self, command, load, log):
        self.log = log
        self.process = subprocess.Popen(command + [load], stdout=subprocess.DEVNULL, stderr=log)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=10)


def check_slow(name, command, log):
    with Example(command, "slow", log):
        # The bar appears after its delay and climbs the curve: a later screenshot shows it wider.
        first, _ = wait_for(lambda accent, error: accent >= 8, 10, f"{name}: the bar after start")
        time.sleep(1.0)
        second, _ = wait_for(lambda accent, error: accent > 0, 1, f"{name}: the bar a second later")
        assert second > first, f"{name}: the bar did not move along the curve ({first} px, then {second} px)"
        assert second < WINDOW_WIDTH * 0.9, f"{name}: the bar is full before the load finished ({second} px)"
        # The script finishes at 9.1 s: the bar runs to the right edge, then fades and goes.
        full = 0

        def seen_full_then_gone(accent, error):
            nonlocal full
            full = max(full, accent)
            return full >= WINDOW_WIDTH * 0.97 and accent == 0 and error == 0
        wait_for(seen_full_then_gone, 20, f"{name}: the bar running to the end after finish, then gone")
        print(f"{name}: slow load: {first} px, {second} px a second later, {full} px at the finish, then gone")


def check_failure(name, command, log):
    with Example(command, "failure", log):
        # The script fails at 1.5 s: the bar turns to the error colour where it stands, then fades and goes.
        _, red = wait_for(lambda accent, error: error >= 8 and accent == 0, 6,
                          f"{name}: the bar in the error colour after fail")
        assert red < WINDOW_WIDTH * 0.9, f"{name}: a failed bar ran to the end ({red} px)"
        wait_for(lambda accent, error: accent == 0 and error == 0, 10, f"{name}: the failed bar gone")
        print(f"{name}: failed load: {red} px in the error colour, then gone")


def check_bad_curve(name, command, gtkprogress):
    """A curve file that is not there: the example prints the library's GError, in the command line's words."""
    missing = "/nonexistent/pageload-test-curve.json"
    result = subprocess.run(command + ["--curve", missing, "slow"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2, f"{name}: a missing curve file gave exit status {result.returncode}"
    expected = subprocess.run([gtkprogress, "--print-curve", missing], capture_output=True, text=True,
                              timeout=30).stderr.strip()
    expected = expected.split(": ", 1)[1]  # without the program's name
    assert expected and expected in result.stderr, \
        f"{name}: the error {result.stderr.strip()!r} does not carry the command line's words {expected!r}"
    print(f"{name}: a missing curve file: {result.stderr.strip()}")


def main(argv):
    gtkprogress = None
    if "--gtkprogress" in argv:
        i = argv.index("--gtkprogress")
        gtkprogress = argv[i + 1]
        del argv[i:i + 2]
    failures = 0
    for spec in argv:
        name, _, command = spec.partition("=")
        command = shlex.split(command)
        log_path = f"/tmp/pageload-{name}-{os.getpid()}.log"
        with open(log_path, "w+") as log:
            try:
                check_slow(name, command, log)
                check_failure(name, command, log)
                if gtkprogress:
                    check_bad_curve(name, command, gtkprogress)
                log.seek(0)
                warnings = [line for line in log.read().splitlines()
                            if "WARNING" in line or "CRITICAL" in line]
                assert not warnings, f"{name}: the example printed: {warnings}"
            except AssertionError as error:
                failures += 1
                print(f"FAIL {error}", file=sys.stderr)
        os.unlink(log_path)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
