"""Hostile pages as a person meets them: numbers at the extremes in a page, a page in the saved session that once
stopped the viewer at every start, and a very long address. The window and everything in it survive, and say why."""

import json
import os
import shutil
import subprocess
import tempfile

from harness import App, ROOT, Server, check, wait_for

NUMBERS = os.path.join(ROOT, "Tests", "Fixtures", "hostile", "numbers.html")


def test_numbers_at_the_extremes_neither_stop_the_window_nor_the_dump(binary):
    app = App(binary, NUMBERS)
    try:
        app.wait_title("Numbers at the extremes")
        app.wait_text("END")
        text = app.page_text()
        check("2147483647. x" in text, "the list number is held to 32 bits")
        # Character references beyond U+10FFFF read as U+FFFD; the text after them stays (the harness fails on
        # any GTK critical, such as text that is not UTF-8 refused by the buffer).
        for words in ("wrapped \ufffd kept-after-wrap", "minus one \ufffd kept-after-minus-one",
                      "stray \ufffd and \ufffd kept-after-stray"):
            check(words in text, f"{words!r} in the page")
        # The window still answers: another page opens in it.
        server = Server()
        try:
            app.key("ctrl+l")
            app.type(server.url("/page?title=After") + "\n")
            app.wait_title("After")
        finally:
            server.stop()
    finally:
        app.close()
    dump = subprocess.run([binary, "--dump", NUMBERS], capture_output=True, text=True, timeout=60)
    check(dump.returncode == 0, f"--dump exits 0 (got {dump.returncode}: {dump.stderr[-300:]!r})")
    check("END" in dump.stdout and "2147483648. y" in dump.stdout, "and prints the whole page")
    check("wrapped \ufffd kept-after-wrap" in dump.stdout, "a reference beyond Unicode is U+FFFD in the dump")


def test_a_hostile_page_in_the_session_comes_back_without_stopping_the_start(binary):
    """A page that stopped the viewer was in the session, and the viewer stopped again at every start."""
    state = tempfile.mkdtemp(prefix="gtkprogress-state-")
    try:
        folder = os.path.join(state, "gtkprogress")
        os.makedirs(folder, mode=0o700)
        url = "file://" + NUMBERS
        with open(os.path.join(folder, "session.json"), "w") as f:
            json.dump({"version": 1, "windows": [{"entries": [{"url": url, "title": "Numbers", "scroll": 0}],
                                                  "current": 0}]}, f)
        app = App(binary, state_home=state)
        try:
            app.wait_title("Numbers at the extremes")
            app.wait_text("END")
        finally:
            app.close()
    finally:
        shutil.rmtree(state, ignore_errors=True)


def test_an_address_of_eight_megabytes_is_refused_with_its_size(binary):
    server = Server()
    app = App(binary, server.url("/page?title=Stays"))
    try:
        app.wait_title("Stays")
        long = server.url("/page?title=" + "a" * 8_000_100)
        # Over D-Bus, as the desktop or a second launch hands addresses to the running viewer (an argument that
        # long does not fit on a command line: the kernel stops one argument at 128 KB).
        from gi.repository import Gio, GLib
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        bus.call_sync("org.gtkprogress.Viewer", "/org/gtkprogress/Viewer", "org.gtk.Application", "Open",
                      GLib.Variant("(assa{sv})", ([long], "", {})), None, Gio.DBusCallFlags.NONE, 30000, None)
        app.wait_status("addresses longer than 2.0 MB are not opened")
        check(app.title == "Stays", "the page shown stays")
    finally:
        app.close()
        server.stop()
