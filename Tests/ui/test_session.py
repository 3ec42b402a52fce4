"""History that lasts: the session comes back after the viewer was killed, with each window's back/forward list,
page and place in it; pages are fetched again; a damaged file starts clean with a notice; --new-session and a
URL argument start without it."""

import json
import os
import random
import shutil
import subprocess
import tempfile

from harness import ARTIFACTS, App, Server, check, settled, wait_for, xdotool

ARTICLE = "/article?title=Kept&sections=30"


def titles(app):
    return sorted(xdotool("getwindowname", w, check_rc=False) for w in app.windows())


def window_titled(app, title):
    return next(w for w in app.windows() if xdotool("getwindowname", w, check_rc=False) == title)


def saved(app):
    try:
        with open(app.session_path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def test_the_session_comes_back_after_sigkill(binary):
    server = Server()
    state = tempfile.mkdtemp(prefix="gtkprogress-state-")
    app = App(binary, server.url(ARTICLE), state_home=state)
    try:
        app.wait_title("Kept")
        app.wait_text("Section 30")
        # Down the page a little, then a jump within it, then a link to another page.
        x, y, w, h = app.page_extents()
        xdotool("mousemove", x + w // 2, y + h // 2)
        xdotool("click", "5")
        top = settled(app.scroll_value)
        x, y = app.text_position("Section 20")
        app.click_screen(x, y)
        wait_for(lambda: app.find_address().endswith("#s20"), what="the jump to #s20")
        jumped = settled(app.scroll_value)
        x, y = app.text_position("linked page 21")
        app.click_screen(x, y)
        app.wait_title("Linked 21")
        # A second window with a page of its own.
        app.key("ctrl+n")
        wait_for(lambda: len(app.windows()) == 2, what="a second window")
        app.use_window(window_titled(app, "Welcome to GtkProgress"))
        app.key("ctrl+l")
        app.type(server.url("/page?title=Second+window") + "\n")
        app.wait_title("Second window")
        wait_for(lambda: saved(app) and len(saved(app)["windows"]) == 2
                 and any(e.get("title") == "Second window" for win in saved(app)["windows"] for e in win["entries"]),
                 what=f"the session saved with both windows ({saved(app)})")
        app.kill()

        requests = {path: server.count(path) for path in ("/article", "/page")}
        app = App(binary, state_home=state)
        wait_for(lambda: titles(app) == ["Linked 21", "Second window"], what=f"both windows back ({titles(app)})")
        check(server.count("/page") == requests["/page"] + 2, "the pages shown were fetched again")
        app.use_window(window_titled(app, "Linked 21"))
        wait_for(lambda: app.button_sensitive("Back"), what="the window's history came back")
        check(not app.button_sensitive("Forward"), "nothing forward of the last page")
        app.key("alt+Left")
        app.wait_title("Kept")
        wait_for(lambda: app.find_address().endswith("#s20"), what=f"Back to #s20 ({app.find_address()!r})")
        check(server.count("/article") == requests["/article"] + 1, "the page was fetched again, not a stale copy")
        place = settled(app.scroll_value)
        check(abs(place - jumped) < 3, f"where the reader was at #s20 ({jumped}, now {place})")
        app.key("alt+Left")
        wait_for(lambda: "#" not in app.find_address(), what="Back to the place before the jump")
        check(abs(settled(app.scroll_value) - top) < 3, f"the first place in the page ({top}, {app.scroll_value()})")
        app.key("alt+Right")
        app.key("alt+Right")
        app.wait_title("Linked 21")
    finally:
        app.close()
        server.stop()
        shutil.rmtree(state, ignore_errors=True)


def test_a_kill_at_any_moment_leaves_a_whole_session_file(binary):
    """Kills the viewer at moments chosen at random around its saves (each Space changes the scroll position,
    saved half a second later): before a change is saved, or just after; the file must always be a whole session,
    the last one written or the one before."""
    server = Server()
    state = tempfile.mkdtemp(prefix="gtkprogress-state-")
    rng = random.Random(7)
    app = App(binary, server.url(ARTICLE), state_home=state)
    try:
        app.wait_title("Kept")
        wait_for(lambda: saved(app), what="a first save")
        for round in range(6):
            app.wait_text("Section 30")
            for _ in range(3):
                before = open(app.session_path, "rb").read()
                place = app.scroll_value()
                app.key("space" if rng.random() < 0.7 else "Home")
                # Either straight on (the change not yet saved), or once the change is on disk.
                if rng.random() < 0.5 and settled(app.scroll_value) != place:
                    wait_for(lambda: open(app.session_path, "rb").read() != before, what="the new place saved")
            app.kill()
            data = saved(app)
            check(data is not None and data["windows"] and data["windows"][0]["entries"][0]["url"].endswith(ARTICLE),
                  f"round {round}: the session file is whole ({open(app.session_path).read()[:200]!r})")
            app = App(binary, state_home=state)
            app.wait_title("Kept")
            check(not app.status().startswith("The saved session"), f"round {round}: restored without complaint")
            leftovers = [n for n in os.listdir(os.path.dirname(app.session_path))
                         if ".tmp-" in n and not n.startswith(f"session.json.tmp-{app.proc.pid}-")]
            check(not leftovers, f"round {round}: a killed write's temporary file is cleared ({leftovers})")
    finally:
        app.close()
        server.stop()
        shutil.rmtree(state, ignore_errors=True)


def test_a_damaged_session_starts_clean_with_a_notice(binary):
    state = tempfile.mkdtemp(prefix="gtkprogress-state-")
    os.makedirs(os.path.join(state, "gtkprogress"))
    path = os.path.join(state, "gtkprogress", "session.json")
    with open(path, "w") as f:
        f.write('{"version": 1, "windows": [{"entries": [{"url": "http://127.0.0.1:9/", "scr')
    app = App(binary, state_home=state)
    try:
        app.wait_title("Welcome to GtkProgress")
        app.wait_status("was not restored")
        message = app.status()
        check("session.json.damaged" in message and "starting a new session" in message, f"the notice: {message!r}")
        check(os.path.exists(path + ".damaged"), "the damaged file is kept aside")
        with open(os.path.join(ARTIFACTS, "app.log")) as log:
            check(any("was not restored" in line for line in log), "the notice is on stderr too")
        wait_for(lambda: saved(app) is not None, what="a new, whole session saved")
    finally:
        app.close()
        shutil.rmtree(state, ignore_errors=True)


def test_new_session_and_an_address_start_without_restoring(binary):
    server = Server()
    state = tempfile.mkdtemp(prefix="gtkprogress-state-")
    app = App(binary, server.url("/page?title=Before"), state_home=state)
    try:
        app.wait_title("Before")
        wait_for(lambda: saved(app) and "Before" in json.dumps(saved(app)), what="saved")
        app.kill()
        app = App(binary, "--new-session", state_home=state)
        app.wait_title("Welcome to GtkProgress")
        app.sync()   # start-up, restoring included, is over once the viewer answers
        check(titles(app) == ["Welcome to GtkProgress"], f"--new-session: only the welcome page ({titles(app)})")
        app.kill()
        with open(app.session_path, "w") as f:
            json.dump({"version": 1, "windows": [{"entries": [{"url": server.url("/page?title=Before"), "scroll": 0}],
                                                  "current": 0}]}, f)
        app = App(binary, server.url("/page?title=Asked+for"), state_home=state)
        app.wait_title("Asked for")
        app.sync()
        check(titles(app) == ["Asked for"], f"an address: only its window ({titles(app)})")
        check(not app.button_sensitive("Back"), "with a history of its own")
    finally:
        app.close()
        server.stop()
        shutil.rmtree(state, ignore_errors=True)
