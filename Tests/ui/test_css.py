"""Author styles in the window: what a page hides with CSS (a `style` attribute, `<style>`, a linked stylesheet,
`visibility`) is not in the page, `--no-css` shows it all, and a stylesheet that never finishes does not keep
the page from showing."""

import os
import shutil
import subprocess
import tempfile

from harness import App, Server, check, colours, contrast, crop, wait_for


PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Hiding</title>
<style>.in-style { display: none } .ghost { visibility: hidden } .ghost .back { visibility: visible }
h1::after { content: " (styled)" }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0) }</style>
<link rel="stylesheet" href="site.css"></head><body>
<h1>Hiding</h1>
<p>Visible one.</p>
<p hidden>Gone by the hidden attribute.</p>
<p style="display: none">Gone by a style attribute.</p>
<div class="in-style">Gone by a style element.</div>
<div class="external">Gone by a linked sheet.</div>
<p class="ghost">Gone by visibility. <span class="back">Visible again.</span></p>
<p><a class="visually-hidden" href="#main">Gone by a clip: skip to content</a></p>
<p>Visible two.</p>
</body></html>
"""

GONE = ["hidden attribute", "style attribute", "style element", "linked sheet", "Gone by visibility", "Gone by a clip"]


def page_folder(page, sheet, prefix="gtkprogress-css-"):
    """A new folder holding page.html and the site.css it links."""
    folder = tempfile.mkdtemp(prefix=prefix)
    for name, text in (("page.html", page), ("site.css", sheet)):
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    return folder


def local_page():
    return page_folder(PAGE, ".external { display: none }\n")


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


def _dump(binary, *args, timeout=60):
    out = subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout)
    check(out.returncode == 0, f"{args}: exits 0: {out.returncode} {out.stderr[-300:]!r}")
    return out


def test_each_way_to_hide_is_honoured_in_the_dump(binary):
    folder = local_page()
    try:
        page = os.path.join(folder, "page.html")
        styled = _dump(binary, "--dump", page).stdout
        for gone in GONE:
            check(gone not in styled, f"{gone!r} is hidden in --dump (its linked site.css read too): {styled!r}")
        check("Visible again." in styled and "Hiding (styled)" in styled, f"visible again, ::after: {styled!r}")
        plain = _dump(binary, "--no-css", "--dump", page).stdout
        for shown in GONE[1:]:
            check(shown in plain, f"--no-css --dump shows {shown!r}: {plain!r}")
        check("hidden attribute" not in plain, "the hidden attribute is HTML's own and stays honoured in --dump")
    finally:
        shutil.rmtree(folder)


SIBLINGS = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Siblings</title>
<style>h2 + p { display: none } p:last-child { text-transform: uppercase } ul:first-child { display: none }
span:nth-child(2) { display: none }</style></head><body>
<div><h2>Run</h2><p>First after the heading.<p>Second paragraph.<p>Last paragraph.</div>
<div><a href="#x">A link first</a><ul><li>A list after the link.</li></ul></div>
<p><span>One span</span> <span>Two span</span> <span>Three span</span></p>
<p>The end.</p>
</body></html>
"""


def test_sibling_rules_apply_to_paragraphs_and_spans_written_as_text(binary):
    """The prefilter folds runs of bare paragraphs and plain spans into text; rules reading siblings still see them
    at their place in the page (CSSCascadeTests holds the full matrix)."""
    folder = tempfile.mkdtemp(prefix="gtkprogress-siblings-")
    path = os.path.join(folder, "siblings.html")
    with open(path, "w") as f:
        f.write(SIBLINGS)
    try:
        out = _dump(binary, "--dump", path).stdout
        check("First after the heading." not in out, f"h2 + p hides the first paragraph only: {out!r}")
        check("Second paragraph." in out, f"the second paragraph shows, as written: {out!r}")
        check("LAST PARAGRAPH." in out, f"p:last-child is the last paragraph: {out!r}")
        check("A list after the link." in out, f"a list after a link is no first child: {out!r}")
        check("Two span" not in out and "One span" in out and "Three span" in out,
              f"span:nth-child(2) is the second span: {out!r}")
    finally:
        shutil.rmtree(folder)


ELEMENT_RULES = """<!DOCTYPE html><html><head><title>Element rules</title><style>
.lead p { text-transform: uppercase }
.notes p { display: none }
.badge { display: block }
</style></head><body>
<div class="lead">
<p>first of the lead<p>second of the lead</div>
<div class="notes">
<p>a note to hide<p>another note</div>
<p>Price <em class="badge">new</em> today.</p>
<p>Closing words.</p>
</body></html>
"""


def test_rules_for_paragraphs_and_inline_elements_written_as_text_apply(binary):
    """Bare paragraphs with no `p` open before them and plain inline elements are folded into text by the
    prefilter; the page's rules for them (by type under a class, by class) still apply, in the window and the dump."""
    import pyatspi
    folder = tempfile.mkdtemp(prefix="gtkprogress-element-rules-")
    path = os.path.join(folder, "rules.html")
    with open(path, "w") as f:
        f.write(ELEMENT_RULES)
    try:
        out = _dump(binary, "--dump", path).stdout
        check("FIRST OF THE LEAD" in out and "SECOND OF THE LEAD" in out, f"p under .lead in upper case: {out!r}")
        check("note" not in out, f"p under .notes hidden: {out!r}")
        check("Price\nnew\ntoday." in out, f"an em displayed as a block is a line of its own: {out!r}")
        app = App(binary, path)
        try:
            app.wait_title("Element rules")
            app.wait_text("Closing words.")
            text = app.page_text()
            check("FIRST OF THE LEAD" in text and "note" not in text, f"the window too: {text!r}")
            page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
            y = lambda w: page.getCharacterExtents(text.index(w), pyatspi.WINDOW_COORDS)[1]
            check(y("Price") < y("new") < y("today."), "the em a line of its own in the window")
            app.screenshot("css-element-rules.png")
        finally:
            app.close()
    finally:
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
    # The same in --dump, which fetches the sheet itself.
    styled = _dump(binary, "--dump", server.url("/styled?sheet=/sheet"))
    check("Shown by every sheet." in styled.stdout and "Hidden by the web sheet." not in styled.stdout,
          f"--dump applies the web page's linked sheet: {styled.stdout!r}")
    plain = _dump(binary, "--no-css", "--dump", server.url("/styled?sheet=/sheet"))
    check("Hidden by the web sheet." in plain.stdout, f"--no-css --dump does not: {plain.stdout!r}")
    # A sheet that sends a few bytes and then nothing: the page shows after the bounded wait, and says why.
    stall = server.url("/styled?sheet=" + "/stall%3Fafter%3D10%26length%3D100000")
    app = App(binary, stall)
    try:
        app.wait_text("Shown by every sheet.", timeout=15)
        check("Hidden by the web sheet." in app.page_text(), "without its sheet the page shows all of its text")
        app.wait_status("did not arrive in time")
    finally:
        app.close()
    try:
        late = _dump(binary, "--dump", stall, timeout=40)
        check("Hidden by the web sheet." in late.stdout and "Shown by every sheet." in late.stdout,
              f"--dump prints the whole page without the sheet: {late.stdout!r}")
        check("style sheet" in late.stderr and "did not arrive within" in late.stderr and "/stall" in late.stderr,
              f"--dump says which sheet did not come, not that the page is incomplete: {late.stderr!r}")
    finally:
        server.stop()


def test_what_sphinx_and_node_pages_hide_is_gone_in_the_window(binary):
    # Debian's own documentation: Sphinx hides its ¶ permalinks until hovered (`a.headerlink`), Node.js its
    # version and contents pickers (`.picker { display: none }`).
    pages = [(p, t, g) for p, t, g in (("/usr/share/doc/python3/python-policy.html", "Debian Python Policy", "¶"),
                                       ("/usr/share/doc/nodejs/api/addons.html", "C++ addons", "18.x LTS"))
             if os.path.exists(p)]
    check(pages, "python3-doc's python-policy.html or nodejs-doc's addons.html is installed (scripts/install-deps.sh)")
    for path, title, hidden in pages:
        for flags, shown in (((), False), (("--no-css",), True)):
            app = App(binary, *flags, path)
            try:
                wait_for(lambda: title in (app.title or ""), what=f"a window title with {title!r} (now {app.title!r})")
                text = wait_for(lambda: app.page_text() if len(app.page_text()) > 2000 else None,
                                what=f"{path}'s text")
                check((hidden in text) == shown,
                      f"{hidden!r} {'shows' if shown else 'is hidden'} in the window {flags}: {text[:300]!r}")
                if not shown:
                    app.screenshot(f"css-{os.path.basename(path).split('.')[0]}.png")
            finally:
                app.close()


def _menu_items(app):
    """The menu's items, check items too ("Page Style" is one)."""
    import pyatspi
    from harness import _walk
    roles = (pyatspi.ROLE_MENU_ITEM, pyatspi.ROLE_CHECK_MENU_ITEM)
    return {a.name: a for a in _walk(app.accessible())
            if a.getRole() in roles and a.getState().contains(pyatspi.STATE_SHOWING)}


def _click_menu_item(app, name):
    import pyatspi
    item = wait_for(lambda: _menu_items(app).get(name), what=f"menu item {name!r} (menu: {sorted(_menu_items(app))})")
    x, y, w, h = item.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    app.click_screen(x + w // 2, y + h // 2)


def test_the_page_style_toggle_shows_the_page_without_its_css_and_is_kept_in_the_session(binary):
    import json
    import pyatspi
    folder = local_page()
    state_home = tempfile.mkdtemp(prefix="gtkprogress-state-")
    try:
        app = App(binary, os.path.join(folder, "page.html"), state_home=state_home)
        try:
            app.wait_title("Hiding")
            app.wait_text("Visible two.")
            check("style element" not in app.page_text(), "styled at first")
            x, y = app.text_position("Visible one.")
            app.click_screen(x, y, button=3)
            items = wait_for(lambda: _menu_items(app), what="the page's menu")
            check("Page Style" in items, f"the page's menu offers Page Style: {sorted(items)}")
            check(items["Page Style"].getState().contains(pyatspi.STATE_CHECKED), "Page Style is ticked at first")
            _click_menu_item(app, "Page Style")
            app.wait_text("Gone by a style element.")
            check("Gone by a linked sheet." in app.page_text(), "without page style the linked sheet's rule goes too")
            app.screenshot("css-toggled-off.png")

            def saved_off():
                try:
                    with open(app.session_path) as f:
                        return json.load(f)["windows"][0].get("pageStyle") is False
                except (OSError, ValueError, KeyError, IndexError):
                    return False
            wait_for(saved_off, what="the choice written to the session")
        finally:
            app.close()
        # The next start brings the window back, still without page style.
        again = App(binary, state_home=state_home)
        try:
            again.wait_text("Gone by a style element.")
        finally:
            again.close()
    finally:
        shutil.rmtree(folder)
        shutil.rmtree(state_home, ignore_errors=True)


def test_hostile_css_leaves_the_page_showing_with_a_line_in_the_status(binary):
    folder = tempfile.mkdtemp(prefix="gtkprogress-css-")
    rule = ".x { display: none }\n"
    with open(os.path.join(folder, "big.css"), "w") as f:
        f.write(rule * (10_000_000 // len(rule)))
    deep = 100_000
    with open(os.path.join(folder, "page.html"), "w") as f:
        f.write("<!DOCTYPE html><title>Hostile CSS</title><link rel=stylesheet href=big.css>"
                "<style>p { x: " + "{" * deep + "}" * deep + " }</style>"
                "<p class=x>Kept: its sheet is refused.</p><p>The page shows.</p>")
    app = App(binary, os.path.join(folder, "page.html"))
    try:
        app.wait_title("Hostile CSS")
        app.wait_text("The page shows.", timeout=30)
        # The sheet is past the 2 MiB a sheet may have: it is refused whole, and the status line says so.
        app.wait_status("Page style")
    finally:
        app.close()
        shutil.rmtree(folder)


COLOURED = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Colours</title>
<style>.navy { color: navy } .yellow { color: #ff0 } .pair { color: white; background-color: #000080 }</style>
</head><body>
<p class="navy">Navy words NNNN</p>
<p class="yellow">Yellow words YYYY</p>
<p class="pair">White on navy WWWW</p>
</body></html>
"""


def _ink(app, path, fragment):
    """The text colour of `fragment` as painted and what is behind it: the most common colour of its box is the
    background, the one that stands out most from it (seen on 3 or more pixels) is the ink."""
    import pyatspi
    text = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
    start = app.page_text().index(fragment)
    x, y, w, h = text.getRangeExtents(start, start + len(fragment), pyatspi.DESKTOP_COORDS)
    counts = colours(crop(path, x, y, w, h))
    background = max(counts, key=counts.get)
    ink = max((c for c, n in counts.items() if n >= 3), key=lambda c: contrast(c, background))
    return ink, background


def test_page_colours_show_only_where_they_keep_contrast_in_light_and_dark(binary):
    """Navy text shows on the light theme and not on the dark one, yellow the other way round; white on navy
    shows in both; every text keeps 4.5:1 on what is behind it."""
    directory = tempfile.mkdtemp(prefix="gtkprogress-ui-css-colours-")
    path = os.path.join(directory, "colours.html")
    with open(path, "w") as f:
        f.write(COLOURED)
    seen = {}
    try:
        for theme in ("Adwaita", "Adwaita:dark"):
            app = App(binary, path, env={"GTK_THEME": theme})
            try:
                app.wait_title("Colours")
                app.wait_text("WWWW")
                shot = app.settled_screenshot(f"css-colours-{theme.replace(':', '-')}.png")
                for fragment in ("NNNN", "YYYY", "WWWW"):
                    ink, background = _ink(app, shot, fragment)
                    ratio = contrast(ink, background)
                    check(ratio >= 4.5, f"{theme}: {fragment} is {ink} on {background}, contrast {ratio:.2f}")
                    seen[(theme, fragment)] = (ink, background)
            finally:
                app.close()
    finally:
        shutil.rmtree(directory, ignore_errors=True)

    def near(colour, wanted):
        return all(abs(a - b) <= 40 for a, b in zip(colour, wanted))

    navy, yellow, white = (0, 0, 128), (255, 255, 0), (255, 255, 255)
    check(near(seen[("Adwaita", "NNNN")][0], navy), f"navy text on the light theme: {seen}")
    check(not near(seen[("Adwaita:dark", "NNNN")][0], navy), f"no navy text on the dark theme: {seen}")
    check(not near(seen[("Adwaita", "YYYY")][0], yellow), f"no yellow text on the light theme: {seen}")
    check(near(seen[("Adwaita:dark", "YYYY")][0], yellow), f"yellow text on the dark theme: {seen}")
    for theme in ("Adwaita", "Adwaita:dark"):
        ink, background = seen[(theme, "WWWW")]
        check(near(ink, white) and near(background, navy), f"{theme}: white on navy kept as a pair: {seen}")


LAYERED = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Layered</title>
<style>
@layer reset, components, utilities;
@layer utilities { .sr-only { display: none } }
@layer components { .cookie-banner { display: none } .menu { display: block } }
@layer reset { .menu { display: none } }
</style></head><body>
<h1>Layered</h1>
<div class="cookie-banner">Accept all cookies</div>
<nav class="menu">Menu shown by a later layer</nav>
<span class="sr-only">Skip to content</span>
<p>Visible end.</p>
</body></html>
"""


def test_display_none_in_a_cascade_layer_hides_in_the_window_and_the_dump(binary):
    import subprocess
    folder = tempfile.mkdtemp(prefix="gtkprogress-layers-")
    path = os.path.join(folder, "layered.html")
    with open(path, "w") as f:
        f.write(LAYERED)
    try:
        dump = subprocess.run([binary, "--dump", path], capture_output=True, text=True, timeout=60)
        check(dump.returncode == 0, f"--dump exits 0: {dump.stderr[-300:]!r}")
        for gone in ["Accept all", "Skip to content"]:
            check(gone not in dump.stdout, f"{gone!r} is hidden in --dump: {dump.stdout!r}")
        check("Menu shown by a later layer" in dump.stdout and "Visible end." in dump.stdout, dump.stdout)
        app = App(binary, path)
        try:
            app.wait_title("Layered")
            app.wait_text("Visible end.")
            text = app.page_text()
            for gone in ["Accept all", "Skip to content"]:
                check(gone not in text, f"{gone!r} is hidden in the window: {text!r}")
            check("Menu shown by a later layer" in text, f"the later layer wins: {text!r}")
            app.screenshot("css-layers.png")
        finally:
            app.close()
    finally:
        shutil.rmtree(folder)


CUSTOM = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Custom</title>
<style>my-menu { display: none } :is(cookie-banner) { display: none } x-card > x-title { text-transform: uppercase }</style>
</head><body>
<h1>Custom</h1>
<my-menu>Menu of links</my-menu>
<cookie-banner><span>Accept all cookies</span></cookie-banner>
<p>Before <x-card><x-title>loud</x-title> inline card</x-card> after.</p>
</body></html>
"""


def test_custom_elements_are_named_by_type_selectors_in_the_window_and_the_dump(binary):
    import subprocess
    folder = tempfile.mkdtemp(prefix="gtkprogress-custom-")
    path = os.path.join(folder, "custom.html")
    with open(path, "w") as f:
        f.write(CUSTOM)
    try:
        dump = subprocess.run([binary, "--dump", path], capture_output=True, text=True, timeout=60)
        check(dump.returncode == 0, f"--dump exits 0: {dump.stderr[-300:]!r}")
        for gone in ["Menu of links", "Accept all"]:
            check(gone not in dump.stdout, f"{gone!r} is hidden in --dump: {dump.stdout!r}")
        check("Before LOUD inline card after." in dump.stdout, f"custom elements are inline: {dump.stdout!r}")
        app = App(binary, path)
        try:
            app.wait_title("Custom")
            app.wait_text("inline card after.")
            text = app.page_text()
            for gone in ["Menu of links", "Accept all"]:
                check(gone not in text, f"{gone!r} is hidden in the window: {text!r}")
            check("Before LOUD inline card after." in text, f"custom elements are inline: {text!r}")
            app.screenshot("css-custom-elements.png")
        finally:
            app.close()
    finally:
        shutil.rmtree(folder)


ATTRIBUTES = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Attributes</title>
<style>[data-hidden] { display: none } [aria-expanded=false] + ul { display: none }
input[type=hidden] + span { display: none } [data-kind^=ban] { display: none }</style>
<link rel="stylesheet" href="site.css"></head><body>
<h1>Attributes</h1>
<div role="dialog" data-state="closed"><p>Dialog closed by a linked sheet.</p></div>
<div role="dialog" data-state="open"><p>Dialog that is open.</p></div>
<p data-hidden>Marked hidden in a style element.</p>
<button aria-expanded="false">Menu</button><ul><li>Collapsed menu entry</li></ul>
<p><input type="hidden" name="t" value="v"><span>Label of a hidden input</span></p>
<p>Inline <span data-tip="yes">tip gone by the linked sheet</span> and <em data-kind="banner">banner em</em>.</p>
<p>Visible end.</p>
</body></html>
"""

ATTRIBUTES_GONE = ["Dialog closed", "Marked hidden", "Collapsed menu", "Label of a hidden", "tip gone",
                   "banner em"]


def attributes_page():
    # Names no <style> of the page names: the page is built again with them once the sheet is read.
    return page_folder(ATTRIBUTES, "[data-state=closed] { display: none }\nspan[data-tip] { display: none }\n",
                       prefix="gtkprogress-attributes-")


def test_attribute_selectors_in_style_and_linked_sheets_apply_in_the_dump(binary):
    folder = attributes_page()
    try:
        page = os.path.join(folder, "page.html")
        styled = _dump(binary, "--dump", page).stdout
        for gone in ATTRIBUTES_GONE:
            check(gone not in styled, f"{gone!r} is hidden in --dump: {styled!r}")
        for shown in ["Dialog that is open.", "[Menu]", "Visible end.", "Inline and ."]:
            check(shown in styled, f"{shown!r} shows in --dump: {styled!r}")
        plain = _dump(binary, "--no-css", "--dump", page).stdout
        for shown in ATTRIBUTES_GONE:
            check(shown in plain, f"--no-css --dump shows {shown!r}: {plain!r}")
    finally:
        shutil.rmtree(folder)


def test_a_closed_dialog_by_its_data_state_is_hidden_in_the_window(binary):
    folder = attributes_page()
    app = App(binary, os.path.join(folder, "page.html"))
    try:
        app.wait_title("Attributes")
        app.wait_text("Visible end.")
        # The linked sheet comes after the first build: the page shows without the dialog once it is built again.
        wait_for(lambda: "Dialog closed" not in app.page_text(), what="the closed dialog hidden")
        text = app.page_text()
        for gone in ATTRIBUTES_GONE:
            check(gone not in text, f"{gone!r} is hidden in the window: {text!r}")
        for shown in ["Dialog that is open.", "Visible end."]:
            check(shown in text, f"{shown!r} shows in the window: {text!r}")
        app.screenshot("css-attributes.png")
    finally:
        app.close()
        shutil.rmtree(folder)
