"""Hostile servers and odd input, as a person meets them in the window: what the window shows and says must be
true, and nothing the person typed, pasted or dropped may be cut or lost without a word."""

import os
import subprocess
import time
from urllib.parse import quote

from harness import HERE, App, Server, check, stays, wait_for, xdotool
from test_drop import drag


def page(title, delay=0):
    return "/page?title=" + quote(title) + (f"&delay={delay}" if delay else "")


def test_page_that_refreshes_itself_is_held_back_and_stopped(binary):
    server = Server()
    launched = time.monotonic()
    app = App(binary, server.url("/refresh-self"))
    try:
        app.wait_title("Refreshes itself")
        app.wait_status("Stopped this page from refreshing itself", timeout=60)
        stopped = time.monotonic()
        check(server.count("/refresh-self") == 21, f"the page and 20 refreshes: {server.count('/refresh-self')}")
        # Without a bound this page asked for itself about 320 times a second. With one, refreshes 2 to 20 each
        # waited a second or more after the one before on the viewer's clock (AutomaticRefreshes.minimumInterval),
        # which is the monotonic clock this test reads: whatever the machine's load, they took 19 s or more.
        check(stopped - launched >= 19 * 0.999, f"at most one automatic refresh a second: 20 refreshes in "
                                                f"{stopped - launched:.1f} s")
        stays(lambda: server.count("/refresh-self") == 21, 1.5, "no more refreshes once stopped")
        check(app.title == "Refreshes itself", "the page stays")
        check("asks for itself again" in app.page_text(), "its text stays")
        check(not app.button_sensitive("Back"), "every refresh replaced the entry")
    finally:
        app.close()
        server.stop()


def test_no_content_keeps_the_page_shown(binary):
    server = Server()
    app = App(binary, server.url(page("Still here")))
    try:
        app.wait_title("Still here")
        app.key("ctrl+l")
        app.type(server.url("/empty") + "\n")
        app.wait_status("sent nothing to show (204 No Content)")
        check(app.title == "Still here", "the page stays")
        check("This is a test page." in app.page_text(), "its text stays")
        check(not app.button_sensitive("Back"), "no history entry for nothing")
    finally:
        app.close()
        server.stop()


def test_undeclared_legacy_encoding_is_detected_and_named(binary):
    server = Server()
    app = App(binary, server.url("/charset?enc=shift_jis&declare=none"))
    try:
        app.wait_text("吾輩は猫である。")
        app.wait_status("Encoding guessed: Shift_JIS.")
    finally:
        app.close()
        server.stop()


def test_an_answer_that_is_not_http_is_not_called_a_redirect(binary):
    server = Server()
    app = App(binary, server.url("/not-http"))
    try:
        app.wait_title("Problem loading page")
        app.wait_text("answered with something that is not HTTP")
        text = app.page_text()
        check("tried to send you" not in text, f"no redirect happened: {text!r}")
        # The message is longer than the status line: its tooltip (the label's accessible description) holds it.
        import pyatspi
        label = app.find(pyatspi.ROLE_LABEL, "Status")
        wait_for(lambda: "another kind of server" in (label.description or ""),
                 what="the whole message in the status line's tooltip")
    finally:
        app.close()
        server.stop()


def test_two_addresses_on_the_command_line(binary):
    server = Server()
    app = App(binary, server.url(page("First of two")), server.url(page("Second of two")))
    try:
        # A window each.
        wait_for(lambda: sorted(xdotool("getwindowname", w, check_rc=False) for w in app.windows())
                 == ["First of two", "Second of two"], what="a window for each address")
    finally:
        app.close()
        server.stop()


def test_two_addresses_dropped_as_text(binary):
    server = Server()
    app = App(binary, server.url(page("Drop here")))
    try:
        app.wait_title("Drop here")
        x, y, w, h = app.geometry()
        requests = server.count("/page")
        drag(app, "text", server.url(page("One")) + "\n" + server.url(page("Two")), x + w // 2, y + h // 2)
        app.wait_title("One")
        check("%0A" not in app.find_address(), f"one address, not two joined: {app.find_address()!r}")
        # The first where it was dropped, the second in a window of its own.
        names = lambda: sorted(xdotool("getwindowname", w, check_rc=False) for w in app.windows())
        wait_for(lambda: names() == ["One", "Two"], what="a window for the second address")
        check(server.count("/page") == requests + 2, "each address was requested once")
    finally:
        app.close()
        server.stop()


def test_a_paste_too_long_for_the_address_entry_is_refused_whole(binary):
    server = Server()
    app = App(binary, server.url(page("Paste target")))
    source = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "clipboardsource.py"), "a", "70000"],
                              stdout=subprocess.PIPE, text=True)
    try:
        source.stdout.readline()
        app.wait_title("Paste target")
        shown = app.find_address()
        requests = server.count("/page")
        app.key("ctrl+l")
        app.key("ctrl+v")
        app.wait_status("Not pasted: the address would be 70,000 characters long")
        wait_for(lambda: app.find_address() == shown, what=f"the address put back as it was ({shown!r})")
        app.key("Return")
        wait_for(lambda: server.count("/page") > requests, what="Enter to load the address shown")
        app.wait_status("Done")
        check(server.count("/page") == requests + 1, "Enter loads the address shown, nothing cut")
        check(app.title == "Paste target", "the same page")
    finally:
        source.terminate()
        source.wait()
        app.close()
        server.stop()


def test_quick_back_presses_are_not_lost(binary):
    server = Server()
    # The first pages answer slowly, so that the presses that reach them arrive while they load.
    app = App(binary, server.url(page("P1", delay=1)))
    try:
        app.wait_title("P1")
        for n in range(2, 15):
            app.key("ctrl+l")
            app.type(server.url(page(f"P{n}", delay=1 if n <= 4 else 0)) + "\n")
            app.wait_title(f"P{n}")
        # Pages more than 10 back have left the page cache and load again; presses while they load still count.
        from harness import xdotool
        app.focus()
        xdotool("key", "--clearmodifiers", "--delay", "30", *(["alt+Left"] * 12))
        app.wait_title("P2")
        # Every press has been handled once the viewer answers a ping sent after them (harness.App.sync); the
        # loads they started end with the status Done.
        app.sync()
        app.wait_status("Done")
        check(app.title == "P2", f"12 Backs from P14 end on P2, not {app.title}")
        check(app.button_sensitive("Back"), "P1 is still behind")
    finally:
        app.close()
        server.stop()
