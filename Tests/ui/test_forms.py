"""Forms in the page: widgets where the controls stand, reached with Tab in page order with the links, sent
with Return or a click, by GET and by POST, to a loopback server that says what arrived. A page that answered
a POST is not fetched again by Back, nor by Reload without the reader's yes."""

import http.server
import threading
import urllib.parse

from harness import check, App, PageHandler, settled, wait_for


SEARCH = """<!DOCTYPE html><html><head><title>Search page</title></head><body>
<p><a href="/about">About</a></p>
<form action="/search"><label>Find <input name="q" placeholder="words"></label> <input type="submit" value="Go"></form>
</body></html>"""

CONTACT = """<!DOCTYPE html><html><head><title>Contact</title></head><body>
<form action="/send" method="post">
<p>Your name <input name="name"></p>
<p><label><input type="checkbox" name="news"> Send me the newsletter</label></p>
<p>Plan <select name="plan"><option value="free">Free</option><option value="team">Team</option></select></p>
<p><button type="submit" name="go" value="yes">Send message</button></p>
</form></body></html>"""


class Recorder(PageHandler, http.server.BaseHTTPRequestHandler):
    """Serves the two form pages and their answers, and notes every request: method, path and body."""
    requests = []

    def do_GET(self):
        Recorder.requests.append(("GET", self.path, b""))
        path = urllib.parse.urlsplit(self.path)
        if path.path == "/search":
            query = urllib.parse.parse_qs(path.query).get("q", [""])[0]
            self.answer(f"<title>Results for {query}</title><p>Results for {query}</p>")
        elif path.path == "/contact":
            self.answer(CONTACT)
        else:
            self.answer(SEARCH)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        Recorder.requests.append(("POST", self.path, body, self.headers.get("Content-Type")))
        fields = urllib.parse.parse_qs(body.decode())
        self.answer(f"<title>Thanks</title><p>Thanks, {fields.get('name', ['?'])[0]}.</p>")


def _serve():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _focused(app, role):
    import pyatspi
    found = []
    def walk(node):
        if node is None or len(found):
            return
        try:
            state = node.getState()
            if node.getRole() == role and state.contains(pyatspi.STATE_FOCUSED):
                found.append(node)
                return
            for i in range(node.childCount):
                walk(node.getChildAtIndex(i))
        except Exception:
            pass
    walk(app.frame())
    return found[0] if found else None


def test_a_get_search_form_is_filled_and_sent_from_the_keyboard(binary):
    import pyatspi
    Recorder.requests = []
    server = _serve()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    app = App(binary, url + "/")
    try:
        app.wait_title("Search page")
        app.wait_text("Find")
        app.settled_screenshot("form-get-before.png")
        # Tab: the link first, then the field after it, in page order.
        app.key("Tab")
        wait_for(lambda: app.page_description().startswith("Link: About"), what="Tab reaches the link first")
        app.key("Tab")
        wait_for(lambda: _focused(app, pyatspi.ROLE_TEXT) is not None
                 and _focused(app, pyatspi.ROLE_TEXT).name != "Page",
                 what="the next Tab reaches the search field")
        field = _focused(app, pyatspi.ROLE_TEXT)
        check(field.name == "Find", f"the field is named by its label: {field.name!r}")
        app.type("gtk widgets")
        app.screenshot("form-get-typed.png")
        app.key("Return")
        app.wait_title("Results for gtk widgets")
        gets = [r for r in Recorder.requests if r[1].startswith("/search")]
        check(len(gets) == 1 and gets[0][1] == "/search?q=gtk+widgets",
              f"the server got the query, urlencoded: {Recorder.requests}")
        app.settled_screenshot("form-get-results.png")
    finally:
        app.close()
        server.shutdown()


def test_a_post_form_with_a_checkbox_and_a_select_sends_what_was_chosen(binary):
    import pyatspi
    Recorder.requests = []
    server = _serve()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    app = App(binary, url + "/contact")
    try:
        app.wait_title("Contact")
        app.wait_text("Send me the newsletter")
        app.key("Tab")
        wait_for(lambda: _focused(app, pyatspi.ROLE_TEXT) is not None
                 and _focused(app, pyatspi.ROLE_TEXT).name != "Page", what="Tab reaches the name field")
        app.type("Zoë & co")
        app.key("Tab")
        wait_for(lambda: _focused(app, pyatspi.ROLE_CHECK_BOX) is not None, what="Tab reaches the checkbox")
        name = _focused(app, pyatspi.ROLE_CHECK_BOX).name
        check(name == "Send me the newsletter", f"the checkbox is named by its label: {name!r}")
        app.key("space")
        app.screenshot("form-post-space.png")
        wait_for(lambda: _focused(app, pyatspi.ROLE_CHECK_BOX).getState().contains(pyatspi.STATE_CHECKED),
                 what="Space ticks it")
        app.key("Tab")
        app.key("Down")
        app.settled_screenshot("form-post-filled.png")
        button = app.find(pyatspi.ROLE_PUSH_BUTTON, "Send message")
        x, y, w, h = button.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        app.click_screen(x + w // 2, y + h // 2)
        app.wait_title("Thanks")
        app.wait_text("Thanks, Zoë & co.")
        posts = [r for r in Recorder.requests if r[0] == "POST"]
        check(len(posts) == 1, f"one POST: {Recorder.requests}")
        check(posts[0][1] == "/send", f"sent to the action: {posts[0]}")
        check(posts[0][2] == b"name=Zo%C3%AB+%26+co&news=on&plan=team&go=yes",
              f"the entry list, urlencoded: {posts[0][2]!r}")
        check(posts[0][3] == "application/x-www-form-urlencoded", f"its type: {posts[0][3]!r}")

        # Reload asks before sending the form again; a second Reload is the yes.
        app.key("F5")
        app.wait_status("Reload again to send the form again")
        app.sync()
        check(len([r for r in Recorder.requests if r[0] == "POST"]) == 1, "Reload alone sends nothing")
        app.key("F5")
        wait_for(lambda: len([r for r in Recorder.requests if r[0] == "POST"]) == 2,
                 what="Reload again sends the form again")
        app.wait_title("Thanks")
        # Back shows the form page kept in the cache; Forward the answer, without sending the form again.
        count = len(Recorder.requests)
        app.key("alt+Left")
        app.wait_title("Contact")
        app.key("alt+Right")
        app.wait_title("Thanks")
        app.sync()
        check(len(Recorder.requests) == count, f"Back and Forward fetch nothing: {Recorder.requests[count:]}")

        # Back to the form (shown as the page gave it), sent from the keyboard: Tab to the button, Return.
        app.key("alt+Left")
        app.wait_title("Contact")
        app.key("Tab", "Tab", "Tab", "Tab")
        wait_for(lambda: _focused(app, pyatspi.ROLE_PUSH_BUTTON) is not None, what="Tab reaches the button")
        app.key("Return")
        wait_for(lambda: len([r for r in Recorder.requests if r[0] == "POST"]) == 3,
                 what="Return on the button sends the form")
        last = [r for r in Recorder.requests if r[0] == "POST"][-1]
        check(last[2] == b"name=&plan=free&go=yes", f"the form as the page gave it: {last[2]!r}")
        app.wait_title("Thanks")
    finally:
        app.close()
        server.shutdown()
