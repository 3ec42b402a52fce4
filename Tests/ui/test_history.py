"""History: every page visited is kept under $XDG_DATA_HOME/gtkprogress, found again after a restart in the History
window (Ctrl+H), searched, opened with Return; words typed that are no address offer their matches; Clear History
forgets it; --private records nothing."""

import json
import os
import shutil
import tempfile

import pyatspi

from harness import App, Server, _walk, bus_name_has_owner, check, stays, wait_for, xdotool



def released(app):
    """Once a closed viewer has let go of the application's name, so the next one starts afresh instead of
    handing its addresses to the process that is going away."""
    wait_for(lambda: not bus_name_has_owner("org.gtkprogress.Viewer"), timeout=10,
             what="the bus to release org.gtkprogress.Viewer")

def history_path(data_home):
    return os.path.join(data_home, "gtkprogress", "history.json")


def saved_titles(data_home):
    try:
        with open(history_path(data_home)) as f:
            return [e["title"] for e in json.load(f)["entries"]]
    except (OSError, ValueError, KeyError):
        return None


def history_window(app):
    node = app.accessible()
    return next((node[i] for i in range(node.childCount)
                 if node[i] is not None and node[i].name == "History"
                 and node[i].getState().contains(pyatspi.STATE_SHOWING)), None)


def rows(window):
    """The names of the list's rows, in the list's order."""
    lists = [a for a in _walk(window) if a.getRole() in (pyatspi.ROLE_LIST, pyatspi.ROLE_LIST_BOX)
             and a.name == "History"]
    if not lists:
        return []
    items = [lists[0][i] for i in range(lists[0].childCount)]
    return [a.name for a in items if a is not None and a.getState().contains(pyatspi.STATE_SHOWING)]


def test_history_is_kept_across_a_restart_searched_and_opened(binary):
    server = Server()
    data_home = tempfile.mkdtemp(prefix="gtkprogress-data-")
    env = {"XDG_DATA_HOME": data_home}
    try:
        app = App(binary, "--new-session", server.url("/page?title=First%20visit"), env=env)
        try:
            app.wait_title("First visit")
            app.key("ctrl+l")
            app.type(server.url("/page?title=Second%20visit") + "\n")
            app.wait_title("Second visit")
            wait_for(lambda: (saved_titles(data_home) or [])[:2] == ["Second visit", "First visit"],
                     what=f"both visits saved, newest first (now {saved_titles(data_home)})")
        finally:
            app.close()
        released(app)

        app = App(binary, "--new-session", env=env)
        try:
            app.wait_title("Welcome to GtkProgress")
            app.key("ctrl+h")
            window = wait_for(lambda: history_window(app), what="the History window")
            listed = wait_for(lambda: rows(window), what="the history listed")
            check(listed[0].startswith("Welcome to GtkProgress"), f"the newest first: {listed}")
            check(any(r.startswith("Second visit") for r in listed) and any(r.startswith("First visit") for r in listed),
                  f"the visits of the last run: {listed}")
            app.screenshot("history-window.png")
            xdotool("type", "--delay", "10", "second")
            wait_for(lambda: len(rows(window)) == 1 and rows(window)[0].startswith("Second visit"),
                     what=f"the search narrowing to the second visit (now {rows(window)})")
            xdotool("key", "Return")
            app.wait_title("Second visit")
            wait_for(lambda: history_window(app) is None, what="the History window closed")
            # The address entry suggests from the history as one types; Down and Return open the suggestion.
            app.key("ctrl+l")
            xdotool("type", "--delay", "20", "first vis")

            def suggestion():
                return next((a for a in _walk(app.accessible()) if "First visit — http" in (a.name or "")
                             and a.getState().contains(pyatspi.STATE_SHOWING)), None)
            wait_for(suggestion, what="the suggestion of the first visit")
            app.screenshot("address-suggestions.png")
            xdotool("key", "Down", "Return")
            app.wait_title("First visit")
            app.key("alt+Left")
            app.wait_title("Second visit")
            # Words that are no address: their matches in the history (and the bookmarks) are offered.
            app.key("ctrl+l")
            app.type("first visit\n")
            window = wait_for(lambda: history_window(app), what="the matches of the words typed")
            wait_for(lambda: len(rows(window)) == 1 and rows(window)[0].startswith("First visit"),
                     what=f"the one match (now {rows(window)})")
        finally:
            app.close()
    finally:
        server.stop()
        shutil.rmtree(data_home, ignore_errors=True)


def test_clear_history_forgets_it_and_private_records_nothing(binary):
    server = Server()
    data_home = tempfile.mkdtemp(prefix="gtkprogress-data-")
    env = {"XDG_DATA_HOME": data_home}
    try:
        app = App(binary, "--new-session", server.url("/page?title=Kept"), env=env)
        try:
            app.wait_title("Kept")
            wait_for(lambda: "Kept" in (saved_titles(data_home) or []), what="the visit saved")
            app.key("ctrl+h")
            window = wait_for(lambda: history_window(app), what="the History window")
            wait_for(lambda: rows(window), what="rows")
            button = wait_for(lambda: next((a for a in _walk(window) if a.getRole() == pyatspi.ROLE_PUSH_BUTTON
                                            and a.name == "Clear History"), None), what="Clear History")
            button.queryAction().doAction(0)
            wait_for(lambda: not rows(window), what="the list empty")
            wait_for(lambda: saved_titles(data_home) == [], what="the file emptied")
        finally:
            app.close()
        released(app)

        private_home = tempfile.mkdtemp(prefix="gtkprogress-data-")
        app = App(binary, "--private", server.url("/page?title=Secret"), env={"XDG_DATA_HOME": private_home})
        try:
            app.wait_title("Secret")
            app.key("ctrl+l")
            app.type(server.url("/page?title=Also%20secret") + "\n")
            app.wait_title("Also secret")
            stays(lambda: not os.path.exists(history_path(private_home)), 2, what="no history file")
            stays(lambda: not os.path.exists(app.session_path), 1, what="no session file")
        finally:
            app.close()
            shutil.rmtree(private_home, ignore_errors=True)
    finally:
        server.stop()
        shutil.rmtree(data_home, ignore_errors=True)
