"""The GNOME chrome: the header bar's primary menu (F10) with About and Keyboard Shortcuts, the shortcuts window
(Ctrl+? and F1) and its keys, the floating status and how much of a page has arrived, Ctrl+N's address entry."""

import pyatspi

from harness import App, Server, _walk, check, stays, wait_for, xdotool


def showing(app, role):
    return [a for a in _walk(app.accessible())
            if a.getRole() == role and a.getState().contains(pyatspi.STATE_SHOWING)]


def menu_items(app):
    return {a.name: a for a in showing(app, pyatspi.ROLE_MENU_ITEM)}


def frames(app):
    app_node = app.accessible()
    return [app_node[i] for i in range(app_node.childCount)
            if app_node[i] is not None and app_node[i].getState().contains(pyatspi.STATE_SHOWING)]


def texts_under(node):
    out = []
    for a in _walk(node):
        if a.getRole() == pyatspi.ROLE_LABEL:
            out.append(a.name or a.queryText().getText(0, -1))
    return out


def status_shown(app):
    return app.find(pyatspi.ROLE_LABEL, "Status").getState().contains(pyatspi.STATE_SHOWING)


def test_f10_opens_the_primary_menu_with_about_and_keyboard_shortcuts(binary):
    app = App(binary, "--new-session")
    try:
        app.wait_title("Welcome to GtkProgress")
        check(app.find(pyatspi.ROLE_TOGGLE_BUTTON, "Main Menu") is not None, "the menu button is in the header bar")
        app.key("F10")
        items = wait_for(lambda: (lambda m: m if {"About GtkProgress", "Keyboard Shortcuts"} <= set(m) else None)(
            menu_items(app)), what="the primary menu with About and Keyboard Shortcuts")
        for name in ("New Window", "Larger Text", "Smaller Text", "Normal Text Size"):
            check(name in items, f"{name} in the menu: {sorted(items)}")
        check(not items["Normal Text Size"].getState().contains(pyatspi.STATE_SENSITIVE),
              "Normal Text Size does nothing at the normal size")
        app.screenshot("primary-menu.png")
        x, y, w, h = items["About GtkProgress"].queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        app.click_screen(x + w // 2, y + h // 2)
        # The About window says the version and the summary from the AppStream file.
        about = wait_for(lambda: next((f for f in frames(app) if any("0.1.0" in t for t in texts_under(f))), None),
                         what="the About window with the version")
        labels = texts_under(about)
        check(any("Read web pages as text" in t for t in labels), f"the summary in About: {labels}")
        app.screenshot("about.png")
        # Escape closes it; the window stays.
        xdotool("key", "Escape")
        wait_for(lambda: about not in frames(app) and len(frames(app)) == 1, what="About closed")
        check(app.title == "Welcome to GtkProgress", "the page stays")
    finally:
        app.close()


def test_ctrl_question_and_f1_open_the_shortcuts_window_and_its_keys_act(binary):
    server = Server()
    app = App(binary, "--new-session", server.url("/page?title=Keys&links=/page%3Ftitle%3DNext"))
    try:
        app.wait_title("Keys")
        for key in ("ctrl+question", "F1"):
            app.focus()
            app.key(key)
            window = wait_for(lambda: next((f for f in frames(app) if f.name in ("Shortcuts", "Keyboard Shortcuts")),
                                           None), what=f"the shortcuts window after {key}")
            listed = texts_under(window)
            for title in ("Go back", "Reload the page", "Edit the address", "Open the main menu",
                          "Show the keyboard shortcuts", "Find in page", "Larger text"):
                check(title in listed, f"{title!r} listed: {listed}")
            if key == "F1":
                app.screenshot("shortcuts-window.png")
            xdotool("key", "Escape")
            wait_for(lambda: len(frames(app)) == 1, what="the shortcuts window closed")
        # Some of what it lists, done: Tab and Return follow a link, Alt+Left goes back, Ctrl+L edits the address,
        # F10 opens the menu (every key against the table: ChromeTableTests).
        app.focus()
        app.key("Tab", "Return")
        app.wait_title("Next")
        app.key("alt+Left")
        app.wait_title("Keys")
        app.key("ctrl+l")
        address = app.find(pyatspi.ROLE_TEXT, "Address")
        wait_for(lambda: address.getState().contains(pyatspi.STATE_FOCUSED), what="Ctrl+L: the address has the keyboard")
        app.key("F10")
        wait_for(lambda: "About GtkProgress" in menu_items(app), what="F10: the menu")
        app.key("Escape")
        wait_for(lambda: not menu_items(app), what="the menu closed")
    finally:
        app.close()
        server.stop()


def test_ctrl_n_gives_the_new_windows_address_entry_the_keyboard(binary):
    app = App(binary, "--new-session")
    try:
        app.wait_title("Welcome to GtkProgress")
        app.key("ctrl+n")
        wids = app.wait_windows(2)
        app.use_window(wids[-1])

        def focused_address():
            return [a for a in _walk(app.accessible()) if a.getRole() == pyatspi.ROLE_TEXT and a.name == "Address"
                    and a.getState().contains(pyatspi.STATE_FOCUSED)]
        wait_for(focused_address, what="the new window's address entry focused")
    finally:
        app.close()


def test_the_status_floats_while_loading_says_how_much_arrived_and_goes(binary):
    server = Server()
    # No Content-Length (chunked), 300 kB at 60 kB/s: five seconds of arriving.
    app = App(binary, "--new-session", server.url("/chunked?size=300000&rate=60000"))
    try:
        app.wait_status("so far", timeout=20)
        check(status_shown(app), "the status is on screen while the page arrives")
        text = app.status()
        check("KB" in text or "MB" in text, f"a size in the status: {text!r}")
        # The rate comes once half a second has passed.
        wait_for(lambda: "/s" in app.status(), what=f"a rate in the status (now {app.status()!r})")
        app.screenshot("status-receiving.png")
        bar = app.find(pyatspi.ROLE_PROGRESS_BAR)
        check("so far" in (bar.description or ""), f"the bar's description says it too: {bar.description!r}")
        # Once the page is in, the status goes.
        wait_for(lambda: not status_shown(app), timeout=30, what="the status gone after the load")
        check("so far" not in (app.find(pyatspi.ROLE_PROGRESS_BAR).description or ""), "nothing stale in the bar")
    finally:
        app.close()
        server.stop()


def test_a_link_pointed_at_shows_the_status_and_leaving_it_hides_it(binary):
    server = Server()
    app = App(binary, "--new-session", server.url("/page?title=Hover&links=/page%3Ftitle%3DTarget"))
    try:
        app.wait_title("Hover")
        wait_for(lambda: not status_shown(app), what="no status once the page is in")
        x, y = app.text_position("/page?title=Target")
        xdotool("mousemove", x, y)
        wait_for(lambda: status_shown(app) and "title=Target" in app.status(), what="the link's address shown")
        xdotool("mousemove", x, y + 300)
        wait_for(lambda: not status_shown(app), what="the status gone when the pointer leaves the link")
    finally:
        app.close()
        server.stop()
