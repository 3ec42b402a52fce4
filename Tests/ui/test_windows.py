"""Several windows, each its own browser: links opened in new windows by mouse, keyboard and menu; Ctrl+N,
Ctrl+W and Ctrl+Q; several addresses at once."""

from urllib.parse import quote

from harness import App, Server, check, wait_for, xdotool


def page(title, *links):
    path = "/page?title=" + quote(title)
    if links:
        path += "&links=" + quote(",".join(links), safe="")
    return path


def titles(app):
    return sorted(xdotool("getwindowname", w, check_rc=False) for w in app.windows())


def wait_titles(app, expected, timeout=15):
    expected = sorted(expected)
    return wait_for(lambda: titles(app) == expected, timeout, what=f"windows {expected} (now {titles(app)})")


def window_titled(app, title):
    return next(w for w in app.windows() if xdotool("getwindowname", w, check_rc=False) == title)


def test_middle_click_ctrl_click_and_shift_return_open_links_in_new_windows(binary):
    server = Server()
    one, two, three = page("One"), page("Two"), page("Three")
    app = App(binary, server.url(page("Links", one, two, three)))
    try:
        app.wait_title("Links")
        app.wait_text(three)
        x, y = app.text_position(one)
        app.click_screen(x, y, button=2)
        wait_titles(app, ["Links", "One"])
        # The first window still shows its page, and its history did not move.
        check(not app.button_sensitive("Back"), "the page with the links stays, with no history added")

        app.use_window(window_titled(app, "Links"))
        x, y = app.text_position(two)
        xdotool("mousemove", x, y)
        xdotool("keydown", "ctrl")
        xdotool("click", "1")
        xdotool("keyup", "ctrl")
        wait_titles(app, ["Links", "One", "Two"])

        app.use_window(window_titled(app, "Links"))
        app.key("Tab", "Tab", "Tab")
        app.wait_status("title=Three")
        app.key("shift+Return")
        wait_titles(app, ["Links", "One", "Three", "Two"])
        app.use_window(window_titled(app, "Links"))
        app.key("ctrl+Return")
        wait_for(lambda: titles(app).count("Three") == 2, what=f"Ctrl+Return: a second Three ({titles(app)})")
        check(titles(app).count("Links") == 1, "the window with the links still shows them")
    finally:
        app.close()
        server.stop()


def _menu_items(app):
    import pyatspi
    from harness import _walk
    return {a.name: a for a in _walk(app.accessible())
            if a.getRole() == pyatspi.ROLE_MENU_ITEM and a.getState().contains(pyatspi.STATE_SHOWING)}


def _click_menu_item(app, name):
    import pyatspi
    item = wait_for(lambda: _menu_items(app).get(name), what=f"menu item {name!r} (menu: {sorted(_menu_items(app))})")
    x, y, w, h = item.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    app.click_screen(x + w // 2, y + h // 2)


def test_a_links_context_menu_opens_it_here_or_in_a_new_window_and_copies_its_address(binary):
    server = Server()
    target = page("Target")
    app = App(binary, server.url(page("Menu", target)))
    try:
        app.wait_title("Menu")
        app.wait_text(target)
        # From the keyboard: the focused link's menu.
        app.key("Tab")
        app.wait_status("title=Target")
        app.key("shift+F10")
        items = wait_for(lambda: _menu_items(app), what="Shift+F10: the focused link's menu")
        check("Open Link in New Window" in items, f"the link's menu from the keyboard: {sorted(items)}")
        app.key("Escape")
        wait_for(lambda: not _menu_items(app), what="Escape closes the menu")
        x, y = app.text_position(target)
        app.click_screen(x, y, button=3)
        items = wait_for(lambda: _menu_items(app), what="the link's menu")
        for name in ("Open Link", "Open Link in New Window", "Copy Link Address"):
            check(name in items, f"the menu offers {name!r}: {sorted(items)}")
        check("Paste" not in items and "Cut" not in items, f"no editing items on a page: {sorted(items)}")
        _click_menu_item(app, "Copy Link Address")
        wait_for(lambda: not _menu_items(app), what="the menu closes")
        # What was copied goes into the address entry as a person pastes it.
        app.key("ctrl+l")
        app.key("ctrl+v")
        wait_for(lambda: app.find_address() == server.url(target), what=f"the link's address pasted "
                 f"({app.find_address()!r})")
        app.key("Escape")

        x, y = app.text_position(target)
        app.click_screen(x, y, button=3)
        _click_menu_item(app, "Open Link in New Window")
        wait_titles(app, ["Menu", "Target"])

        app.use_window(window_titled(app, "Menu"))
        x, y = app.text_position(target)
        app.click_screen(x, y, button=3)
        _click_menu_item(app, "Open Link")
        wait_titles(app, ["Target", "Target"])

        # Selected text: the menu copies it (in the one window left, so what AT-SPI reads is the window used).
        app.use_window(window_titled(app, "Target"))
        app.key("ctrl+w", closes=True)
        wait_titles(app, ["Target"])
        app.use_window(window_titled(app, "Target"))
        x, y = app.text_position("This is a test page.")
        xdotool("mousemove", x, y)
        xdotool("click", "--repeat", "2", "--delay", "80", "1")
        import pyatspi
        shown = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
        wait_for(lambda: shown.getNSelections() > 0, what="the double click to select a word")
        xdotool("click", "3")
        items = wait_for(lambda: _menu_items(app), what="the page's menu")
        check("Copy" in items and "Open Link" not in items, f"selected text offers Copy: {sorted(items)}")
        _click_menu_item(app, "Copy")
        app.key("ctrl+l")
        app.key("ctrl+v")
        wait_for(lambda: app.find_address() in ("This", "is", "test", "page", "a"),
                 what=f"the selected word pasted ({app.find_address()!r})")
    finally:
        app.close()
        server.stop()


def test_ctrl_n_opens_a_window_ctrl_w_closes_one_and_ctrl_q_all(binary):
    server = Server()
    app = App(binary, server.url(page("First")))
    try:
        app.wait_title("First")
        app.key("ctrl+n")
        wait_titles(app, ["First", "Welcome to GtkProgress"])
        app.use_window(window_titled(app, "Welcome to GtkProgress"))
        app.key("ctrl+w", closes=True)
        wait_titles(app, ["First"])
        check(app.proc.poll() is None, "the app keeps running with a window left")
        app.use_window(window_titled(app, "First"))
        app.key("ctrl+n")
        app.key("ctrl+n")
        wait_for(lambda: len(app.windows()) == 3, what="three windows")
        app.key("ctrl+q", closes=True)
        wait_for(lambda: app.proc.poll() is not None, what="Ctrl+Q ends the app")
        check(app.proc.returncode == 0, f"a clean exit ({app.proc.returncode})")
    finally:
        app.close()
        server.stop()
