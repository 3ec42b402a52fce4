"""The welcome page's own links, clicked as a person does, from the build tree and from an installed copy."""

import os
import shutil
import subprocess
import tempfile

from harness import ROOT, App, check, settled, stays, wait_for

BUNDLED = [("Keyboard shortcuts", "Keyboard shortcuts"),
           ("How the progress bar moves", "How the progress bar moves"),
           ("A large page", "A large page")]


def click_text(app, fragment):
    x, y = app.text_position(fragment)
    app.click_screen(x, y)


def walk_bundled_pages(app):
    """From the welcome page, open each bundled page by its link and come back by the page's own link."""
    app.wait_title("Welcome to GtkProgress")
    for link_text, title in BUNDLED:
        app.wait_text(link_text)
        click_text(app, link_text)
        app.wait_title(title)
        check("could not be loaded" not in app.page_text(), f"{title} opened, not an error page")
        app.wait_text("Back to the welcome page")
        # A link below the window's bottom (or under the floating status there) is scrolled into view first.
        _, y = app.text_position("Back to the welcome page")
        _, top, _, height = app.page_extents()
        if y > top + height - 40:
            app.key("End")
            settled(app.scroll_value)
        click_text(app, "Back to the welcome page")
        app.wait_title("Welcome to GtkProgress")
        check("could not be loaded" not in app.page_text(), "the welcome page came back")


def test_the_welcome_page_opens_at_its_top(binary):
    """The first page a new user sees starts at its heading: its table (fitted to the window after the page is in)
    must not scroll the view to where GTK, before laying out the lines, places every height."""
    import pyatspi
    app = App(binary)
    try:
        app.wait_title("Welcome to GtkProgress")
        app.wait_text("Shortcuts at a glance")
        stays(lambda: app.scroll_value() == 0, 2, "the view at the top of the page")
        text = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
        index = text.getText(0, -1).index("Welcome to GtkProgress")
        _, glyph_top, _, _ = text.getCharacterExtents(index, pyatspi.DESKTOP_COORDS)
        _, page_top, _, _ = app.page_extents()
        check(glyph_top >= page_top, f"the heading's top ({glyph_top}) is inside the page (from {page_top})")
        app.settled_screenshot("welcome-top.png")
    finally:
        app.close()


def test_welcome_links_open_from_the_build_tree(binary):
    app = App(binary)
    try:
        walk_bundled_pages(app)
    finally:
        app.close()


def test_welcome_links_open_from_an_installed_copy(binary):
    prefix = tempfile.mkdtemp(prefix="gtkprogress-installed-")
    try:
        subprocess.run(["make", "-s", "-C", ROOT, "install-files", f"PREFIX={prefix}", f"BIN={binary}"], check=True)
        installed = os.path.join(prefix, "bin/gtkprogress")
        # The installed copy must find its own data, not the source tree's.
        app = App(installed, env={"GTKPROGRESS_DATADIR": ""})
        try:
            walk_bundled_pages(app)
            check(app.find_address().startswith("file://" + prefix), f"pages come from {prefix}: {app.find_address()}")
        finally:
            app.close()
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
