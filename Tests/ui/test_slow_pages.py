"""A large page arriving slowly: shown while it arrives, titled as soon as its <title> is in, and kept on Stop."""

import os
import tempfile

from harness import App, Server, check, wait_for


def test_first_load_shows_title_early_and_stop_keeps_what_arrived(binary):
    server = Server()
    # 400 KB at 20 KB/s: twenty seconds to arrive.
    url = server.url("/slow?size=400000&rate=20000")
    app = App(binary, url)
    try:
        app.wait_title("Slow page", timeout=5)
        check(app.button(name="Stop") is not None, "still loading when the title shows")
        app.wait_text("line 000000", timeout=5)
        app.key("Escape")
        app.wait_status("Stopped")
        wait_for(lambda: app.button_sensitive("Reload"), what="Stop turns back into Reload")
        check(app.title == "Slow page", f"the title stays: {app.title!r}")
        check("line 000000" in app.page_text(), "what arrived stays")
        check(app.find_address() == url, f"the address of what arrived: {app.find_address()!r}")
        before = server.count("/slow")
        app.click_button("Reload")
        wait_for(lambda: server.count("/slow") == before + 1, what="Reload loads it again")
    finally:
        app.close()
        server.stop()


def test_a_named_pipe_neither_freezes_nor_loses_the_page(binary):
    server = Server()
    folder = tempfile.mkdtemp(prefix="gtkprogress-fifo-")
    fifo = os.path.join(folder, "pipe")
    os.mkfifo(fifo)
    app = App(binary, server.url("/page?title=Kept"))
    try:
        app.wait_title("Kept")
        app.key("ctrl+l")
        app.type(fifo + "\n")
        app.wait_status("named pipe")
        app.wait_text("is a named pipe (FIFO), not a regular file")
        # The page before is one step back, as after any failed navigation.
        app.key("alt+Left")
        app.wait_title("Kept")
        # The window still answers: another address loads.
        app.key("ctrl+l")
        app.type(server.url("/page?title=After") + "\n")
        app.wait_title("After")
    finally:
        app.close()
        server.stop()
        os.unlink(fifo)
        os.rmdir(folder)
