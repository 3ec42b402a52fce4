"""Author styles in the window: what a page hides with CSS (a `style` attribute, `<style>`, a linked stylesheet,
`visibility`) is not in the page, `--no-css` shows it all, and a stylesheet that never finishes does not keep
the page from showing."""

import os
import shutil
import tempfile

from harness import App, Server, check, wait_for


PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Hiding</title>
<style>.in-style { display: none } .ghost { visibility: hidden } .ghost .back { visibility: visible }
h1::after { content: " (styled)" }</style>
<link rel="stylesheet" href="site.css"></head><body>
<h1>Hiding</h1>
<p>Visible one.</p>
<p hidden>Gone by the hidden attribute.</p>
<p style="display: none">Gone by a style attribute.</p>
<div class="in-style">Gone by a style element.</div>
<div class="external">Gone by a linked sheet.</div>
<p class="ghost">Gone by visibility. <span class="back">Visible again.</span></p>
<p>Visible two.</p>
</body></html>
"""

GONE = ["hidden attribute", "style attribute", "style element", "linked sheet", "Gone by visibility"]


def local_page():
    folder = tempfile.mkdtemp(prefix="gtkprogress-css-")
    with open(os.path.join(folder, "page.html"), "w") as f:
        f.write(PAGE)
    with open(os.path.join(folder, "site.css"), "w") as f:
        f.write(".external { display: none }\n")
    return folder


def test_each_way_to_hide_is_honoured_in_the_window(binary):
    folder = local_page()
    app = App(binary, os.path.join(folder, "page.html"))
    try:
        app.wait_title("Hiding")
        app.wait_text("Visible two.")
        text = app.page_text()
        for gone in GONE:
            check(gone not in text, f"{gone!r} is hidden: {text!r}")
        check("Visible again." in text, f"a child of a visibility:hidden element shows again: {text!r}")
        check("Hiding (styled)" in text, f"::after content shows: {text!r}")
        app.screenshot("css-hidden.png")
    finally:
        app.close()
        shutil.rmtree(folder)


def test_no_css_shows_what_the_page_hides(binary):
    folder = local_page()
    app = App(binary, "--no-css", os.path.join(folder, "page.html"))
    try:
        app.wait_title("Hiding")
        app.wait_text("Visible two.")
        text = app.page_text()
        for shown in GONE[1:]:
            check(shown in text, f"without page style {shown!r} shows: {text!r}")
        check("hidden attribute" not in text, "the hidden attribute is HTML's own and stays honoured")
        app.screenshot("css-off.png")
    finally:
        app.close()
        shutil.rmtree(folder)


def test_web_sheet_applies_and_a_sheet_that_never_finishes_does_not_hold_the_page(binary):
    server = Server()
    app = App(binary, server.url("/styled?sheet=/sheet"))
    try:
        app.wait_title("Styled")
        app.wait_text("Shown by every sheet.")
        check("Hidden by the web sheet." not in app.page_text(), "the linked sheet from the web applies")
    finally:
        app.close()
    # A sheet that sends a few bytes and then nothing: the page shows after the bounded wait, and says why.
    app = App(binary, server.url("/styled?sheet=" + "/stall%3Fafter%3D10%26length%3D100000"))
    try:
        app.wait_text("Shown by every sheet.", timeout=15)
        check("Hidden by the web sheet." in app.page_text(), "without its sheet the page shows all of its text")
        app.wait_status("did not arrive in time")
    finally:
        app.close()
        server.stop()
