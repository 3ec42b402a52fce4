"""Back, Forward, Reload, Stop and error pages in the running app, driven with the mouse and keyboard."""

from urllib.parse import quote

from harness import App, Server, check, settled, wait_for


def page(title, *links, body=None):
    path = "/page?title=" + quote(title)
    if links:
        path += "&links=" + quote(",".join(links), safe="")
    if body:
        path += "&body=" + quote(body)
    return path


def test_links_back_forward_reload_with_buttons_and_keys(binary):
    server = Server()
    b_path = page("Page B")
    a_path = page("Page A", b_path)
    app = App(binary, server.url(a_path))
    try:
        app.wait_title("Page A")
        app.wait_text(b_path)
        # Click the link as a person does: at its place on the screen.
        x, y = app.text_position(b_path)
        # Hovering shows where the link leads.
        from harness import xdotool
        # In two steps, as a hand moves: the first motion after the pointer enters the page may only cross into it.
        xdotool("mousemove", x + 4, y + 2)
        app.sync()
        xdotool("mousemove", x, y)
        app.wait_status("title=Page B")
        app.click_screen(x, y)
        app.wait_title("Page B")
        wait_for(lambda: app.button_sensitive("Back"), what="Back becomes sensitive")
        check(not app.button_sensitive("Forward"), "Forward stays insensitive at the newest page")

        app.click_button("Back")
        app.wait_title("Page A")
        wait_for(lambda: app.button_sensitive("Forward"), what="Forward becomes sensitive")
        app.click_button("Forward")
        app.wait_title("Page B")

        app.key("alt+Left")
        app.wait_title("Page A")
        app.key("alt+Right")
        app.wait_title("Page B")

        before = server.count("/page")
        app.key("F5")
        wait_for(lambda: server.count("/page") == before + 1, what="F5 reloads from the network")
        app.key("ctrl+r")
        wait_for(lambda: server.count("/page") == before + 2, what="Ctrl+R reloads from the network")
        app.click_button("Reload")
        wait_for(lambda: server.count("/page") == before + 3, what="the Reload button reloads")
        app.wait_title("Page B")
    finally:
        app.close()
        server.stop()


def test_back_restores_scroll_without_a_request(binary):
    server = Server()
    long_path = page("Long page", body=" ".join(f"Paragraph word {i}." for i in range(1200)))
    app = App(binary, server.url(long_path))
    try:
        app.wait_title("Long page")
        app.wait_text("Paragraph word 1199.")
        x, y, w, h = app.geometry()
        app.click_screen(x + w // 2, y + h // 2)   # focus the page; no link there
        for _ in range(3):
            app.key("Page_Down")
        wait_for(lambda: app.scroll_value() > 100, what="the page scrolls")
        # Page Down scrolls smoothly: take the position once it has come to rest.
        scrolled = settled(app.scroll_value)
        requests = server.count("/page")
        app.key("ctrl+l")
        app.type(server.url(page("Elsewhere")) + "\n")
        app.wait_title("Elsewhere")
        app.key("alt+Left")
        app.wait_title("Long page")
        wait_for(lambda: abs(app.scroll_value() - scrolled) < 2, what=f"scroll back at {scrolled}")
        check(server.count("/page") == requests + 1, "Back used the page cache: only 'Elsewhere' was requested")
    finally:
        app.close()
        server.stop()


def test_error_pages_for_refused_connection_and_redirect_loop(binary):
    server = Server()
    app = App(binary, server.url(page("Start")))
    try:
        app.wait_title("Start")
        app.key("ctrl+l")
        app.type("http://127.0.0.1:1/\n")
        app.wait_title("Problem loading page")
        app.wait_text("http://127.0.0.1:1/")
        text = app.page_text()
        check("refused" in text.lower(), f"the error page says the connection was refused: {text!r}")
        check(app.button_sensitive("Back"), "Back returns to the page before")

        app.key("ctrl+l")
        app.type(server.url("/loop") + "\n")
        wait_for(lambda: "redirected in a loop" in app.page_text(), what="the redirect loop error page")
        app.key("alt+Left")
        app.wait_title("Problem loading page")
        app.key("alt+Left")
        app.wait_title("Start")
    finally:
        app.close()
        server.stop()


def test_file_link_on_a_web_page_is_refused(binary):
    server = Server()
    app = App(binary, server.url(page("Has a file link", "file:///etc/passwd")))
    try:
        app.wait_title("Has a file link")
        app.wait_text("file:///etc/passwd")
        x, y = app.text_position("file:///etc/passwd")
        app.click_screen(x, y)
        app.wait_status("Blocked")
        check(app.title == "Has a file link", "the page stays")
        check("root:" not in app.page_text(), "the file was not shown")
    finally:
        app.close()
        server.stop()


def test_stop_keeps_the_page_shown_before(binary):
    """Stop before anything of the new page is on screen: the page shown before stays, and so does its entry."""
    server = Server()
    app = App(binary, server.url(page("Before stop")))
    try:
        app.wait_title("Before stop")
        before = app.find_address()
        app.key("ctrl+l")
        app.type(server.url("/page?title=Never&delay=30") + "\n")
        wait_for(lambda: app.button(name="Stop"), what="Reload turns into Stop")
        app.key("Escape")
        app.wait_status("Stopped")
        wait_for(lambda: app.button_sensitive("Reload"), what="Stop turns back into Reload")
        check(app.title == "Before stop", "the page shown before stays")
        check("This is a test page." in app.page_text(), "its text stays")
        check(app.find_address() == before, f"and its address ({app.find_address()!r})")
    finally:
        app.close()
        server.stop()


def test_stop_keeps_the_part_that_arrived(binary):
    """Once part of a page is on screen it is the current entry: Stop keeps it, with its title and address,
    and Reload loads it again, not the page before."""
    server = Server()
    app = App(binary, server.url(page("Before")))
    try:
        app.wait_title("Before")
        slow = server.url("/slow?size=2000000&rate=20000")
        app.key("ctrl+l")
        app.type(slow + "\n")
        app.wait_text("line 000001")
        app.wait_title("Slow page")
        app.key("Escape")
        app.wait_status("Stopped")
        check(app.title == "Slow page", f"the part that arrived stays ({app.title!r})")
        check("line 000001" in app.page_text(), "and its text")
        check(app.find_address() == slow, f"the address is the page shown ({app.find_address()!r})")
        app.key("F5")
        wait_for(lambda: app.button(name="Stop"), what="Reload loads the slow page again")
        app.key("Escape")
        app.wait_status("Stopped")
        check(app.title == "Slow page", "Reload loaded the page shown, not the one before")
        # Back goes to the page before: the part shown made an entry of its own.
        app.key("alt+Left")
        app.wait_title("Before")
    finally:
        app.close()
        server.stop()


def test_an_address_that_never_answers_leaves_the_part_shown_current(binary):
    """From page A, slow page B shows its first part, then an address that never answers is typed and Escape
    pressed: the view, the address and the title all speak of B."""
    server = Server()
    app = App(binary, server.url(page("Page A")))
    try:
        app.wait_title("Page A")
        slow = server.url("/slow?size=2000000&rate=20000")
        app.key("ctrl+l")
        app.type(slow + "\n")
        app.wait_title("Slow page")
        app.key("ctrl+l")
        app.type(server.url("/page?title=Never&delay=30") + "\n")
        wait_for(lambda: app.button(name="Stop"), what="the third load starts")
        app.key("Escape")
        app.wait_status("Stopped")
        check(app.title == "Slow page", f"the title is B's ({app.title!r})")
        check(app.find_address() == slow, f"the address is B's ({app.find_address()!r})")
        check("line 000001" in app.page_text(), "the view shows B")
    finally:
        app.close()
        server.stop()


def test_link_to_a_place_in_the_page_scrolls_there(binary, path="/tmp/gtkprogress-ui-anchors.html"):
    filler = "".join(f"<p>Filler paragraph {i} with enough words to take a line of its own.</p>" for i in range(300))
    with open(path, "w") as f:
        f.write(f'<title>Anchors</title><p><a href="#end">Go to the end</a></p>{filler}<h2 id="end">The end</h2>')
    app = App(binary, path)
    try:
        app.wait_title("Anchors")
        app.wait_text("The end")
        check(app.scroll_value() == 0, "the page starts at the top")
        x, y = app.text_position("Go to the end")
        app.click_screen(x, y)
        wait_for(lambda: app.scroll_value() > 1000, what="the view scrolls to #end")
        check(app.title == "Anchors", "the same page")
        check(app.find_address().endswith("#end"), f"the address shows the place ({app.find_address()!r})")
        # The jump is an entry of its own (WHATWG HTML, "navigate to a fragment"): Back returns to the top.
        wait_for(lambda: app.button_sensitive("Back"), what="Back after a jump within the page")
        app.click_button("Back")
        wait_for(lambda: app.scroll_value() == 0, what="Back returns to the top of the page")
        check(not app.find_address().endswith("#end"), "the address without the fragment")
    finally:
        app.close()


def test_local_addresses_typed_without_a_scheme_get_http(binary):
    server = Server()
    app = App(binary, server.url(page("Start")))
    try:
        app.wait_title("Start")
        for host in ("localhost", "127.0.0.1"):
            typed = f"{host}:{server.port}" + page(f"Typed {host}")
            app.key("ctrl+l")
            app.type(typed + "\n")
            app.wait_title(f"Typed {host}")
            check(app.find_address().startswith(f"http://{host}:{server.port}/page"),
                  f"{typed} became http ({app.find_address()!r})")
        # Any other bare host keeps getting https (the test server speaks none, so it fails, as it should).
        app.key("ctrl+l")
        app.type(f"example.invalid:{server.port}/x\n")
        wait_for(lambda: app.find_address().startswith("https://example.invalid"), what="https for other hosts")
    finally:
        app.close()
        server.stop()
