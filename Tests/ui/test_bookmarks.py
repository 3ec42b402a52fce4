"""Bookmarks: Ctrl+D and the star in the header bar, the Bookmarks menu, kept in XBEL (GBookmarkFile) under
$XDG_DATA_HOME/gtkprogress and still there after a restart."""

import os
import shutil
import tempfile

import pyatspi

from harness import App, Server, _walk, bus_name_has_owner, check, wait_for, xdotool



def released(app):
    """Once a closed viewer has let go of the application's name, so the next one starts afresh instead of
    handing its addresses to the process that is going away."""
    wait_for(lambda: not bus_name_has_owner("org.gtkprogress.Viewer"), timeout=10,
             what="the bus to release org.gtkprogress.Viewer")

def menu_items(app):
    return {a.name: a for a in _walk(app.accessible())
            if a.getRole() in (pyatspi.ROLE_MENU_ITEM, pyatspi.ROLE_MENU) and a.getState().contains(pyatspi.STATE_SHOWING)}


def star(app, name):
    return next((a for a in _walk(app.frame()) if a.getRole() == pyatspi.ROLE_PUSH_BUTTON and a.name == name), None)


def open_bookmarks_menu(app):
    app.key("F10")
    item = wait_for(lambda: menu_items(app).get("Bookmarks"), what="the Bookmarks item of the menu")
    x, y, w, h = item.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    app.click_screen(x + w // 2, y + h // 2)
    return wait_for(lambda: (lambda m: m if ("Add Bookmark" in m or "Remove Bookmark" in m) else None)(menu_items(app)),
                    what="the Bookmarks submenu")


def test_a_bookmark_added_listed_and_kept_after_a_restart(binary):
    server = Server()
    data_home = tempfile.mkdtemp(prefix="gtkprogress-data-")
    env = {"XDG_DATA_HOME": data_home}
    xbel = os.path.join(data_home, "gtkprogress", "bookmarks.xbel")
    try:
        app = App(binary, "--new-session", server.url("/page?title=Worth%20keeping"), env=env)
        try:
            app.wait_title("Worth keeping")
            check(star(app, "Add Bookmark") is not None, "an empty star")
            app.key("ctrl+d")
            wait_for(lambda: star(app, "Remove Bookmark"), what="the star filled")
            app.wait_status("Bookmarked")
            wait_for(lambda: os.path.exists(xbel) and "Worth keeping" in open(xbel).read(), what="the XBEL file")
            text = open(xbel).read()
            check("<xbel" in text and server.url("/page?title=Worth%20keeping").replace("&", "&amp;") in text,
                  f"an XBEL bookmark of the page: {text[:400]}")
            items = open_bookmarks_menu(app)
            check("Worth keeping" in items and "Remove Bookmark" in items, f"listed in the menu: {sorted(items)}")
            app.screenshot("bookmarks-menu.png")
            xdotool("key", "Escape", "Escape")
        finally:
            app.close()
        released(app)

        app = App(binary, "--new-session", env=env)
        try:
            app.wait_title("Welcome to GtkProgress")
            items = open_bookmarks_menu(app)
            check("Worth keeping" in items, f"kept after the restart: {sorted(items)}")
            x, y, w, h = items["Worth keeping"].queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            app.click_screen(x + w // 2, y + h // 2)
            app.wait_title("Worth keeping")
            wait_for(lambda: star(app, "Remove Bookmark"), what="the star filled for a bookmarked page")
            # The star takes it away again.
            app.click_button("Remove Bookmark")
            wait_for(lambda: star(app, "Add Bookmark"), what="the star empty")
            wait_for(lambda: "Worth keeping" not in open(xbel).read(), what="the bookmark gone from the file")
        finally:
            app.close()
    finally:
        server.stop()
        shutil.rmtree(data_home, ignore_errors=True)
