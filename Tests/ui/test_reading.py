"""Reading a page as a person does without the mouse: Tab through links, Return, Space, Home and End; find in
page; the text size; jumps within the page as history entries; the link colours of light and dark themes."""

import shutil
import tempfile

from harness import App, Server, check, colours, contrast, crop, differing_pixels, settled, wait_for


ARTICLE = "/article?title=Long+read&sections=30"


def test_tab_moves_a_visible_focus_from_link_to_link_and_return_follows(binary):
    server = Server()
    app = App(binary, server.url(ARTICLE))
    try:
        app.wait_title("Long read")
        app.wait_text("Section 30")
        import pyatspi
        page = app.find(pyatspi.ROLE_TEXT, "Page")
        wait_for(lambda: page.getState().contains(pyatspi.STATE_FOCUSED), what="the page has the keyboard after loading")
        text = app.page_text()
        before, area = app.settled_page_shot("tab-before.png")
        app.key("Tab")
        first = text.index("Section 1")
        wait_for(lambda: app.caret() == first, what=f"the caret on the first link (at {app.caret()})")
        wait_for(lambda: app.page_description().startswith("Link: Section 1, http"),
                 what=f"the link announced (description {app.page_description()!r})")
        check(app.page_description().endswith("#s1"), f"the URL is announced: {app.page_description()!r}")
        app.wait_status("#s1")
        after, _ = app.page_shot("tab-after.png")
        changed = differing_pixels(before, after)
        check(50 < changed < 5000, f"a focus ring appears around the link ({changed} pixels changed)")

        app.key("shift+Tab")
        app.key("Tab")
        app.key("Tab")
        second = text.index("Section 2")
        wait_for(lambda: app.caret() == second, what=f"Tab, Shift+Tab, Tab, Tab end on the second link ({app.caret()})")

        # Tab far down the page: the view follows the focus.
        for _ in range(40):
            app.key("Tab")
        wait_for(lambda: app.scroll_value() > 0, what="the view scrolls to the focused link")
        check("linked page" in app.page_description(), f"a link far down: {app.page_description()!r}")
        target = app.page_description().split(", ")[-1]
        app.key("Return")
        app.wait_title(target.split("title=")[1].replace("+", " "))
        wait_for(lambda: app.find(pyatspi.ROLE_TEXT, "Page").getState().contains(pyatspi.STATE_FOCUSED),
                 what="the new page has the keyboard")
        app.key("alt+Left")
        app.wait_title("Long read")
        # Typed in the address entry: once the page is there, the keyboard is the page's again.
        app.key("ctrl+l")
        app.type(app.find_address().split("?")[0] + "?title=Typed&sections=3\n")
        app.wait_title("Typed")
        wait_for(lambda: app.find(pyatspi.ROLE_TEXT, "Page").getState().contains(pyatspi.STATE_FOCUSED),
                 what="the page has the keyboard after a typed address")
        app.key("Tab")
        wait_for(lambda: app.page_description().startswith("Link: Section 1"), what="Tab reaches its first link")
    finally:
        app.close()
        server.stop()


def test_space_home_and_end_scroll_the_page(binary):
    server = Server()
    app = App(binary, server.url(ARTICLE))
    try:
        app.wait_title("Long read")
        app.wait_text("Section 30")
        check(app.scroll_value() == 0, "a new page starts at the top")
        app.key("space")
        one = wait_for(lambda: app.scroll_value(), what="Space pages down")
        app.key("space")
        two = wait_for(lambda: app.scroll_value() > one and app.scroll_value(), what="Space again")
        check(abs((two - one) - one) < 2, f"each Space moves by the same screenful ({one}, {two})")
        app.key("shift+space")
        wait_for(lambda: abs(app.scroll_value() - one) < 2, what="Shift+Space pages up")
        app.key("End")
        wait_for(lambda: app.scroll_value() > two * 3, what="End goes to the bottom")
        bottom = settled(app.scroll_value)
        app.key("space")
        check(settled(app.scroll_value) == bottom, f"Space at the bottom stays there ({bottom}, {app.scroll_value()})")
        app.key("Home")
        wait_for(lambda: app.scroll_value() == 0, what="Home goes to the top")
    finally:
        app.close()
        server.stop()


def _matches(app):
    import pyatspi
    return app.find(pyatspi.ROLE_LABEL, "Matches").queryText().getText(0, -1)


def test_find_highlights_counts_moves_and_leaves_the_view_on_the_match(binary):
    server = Server()
    app = App(binary, server.url(ARTICLE))
    try:
        app.wait_title("Long read")
        app.wait_text("Section 30")
        plain, area = app.page_shot("find-before.png")
        app.key("ctrl+f")
        import pyatspi
        entry = app.find(pyatspi.ROLE_TEXT, "Find in page")
        wait_for(lambda: entry.getState().contains(pyatspi.STATE_FOCUSED), what="the find entry has the keyboard")
        app.type("needle")
        wait_for(lambda: _matches(app) == "1 of 90", what=f"“1 of 90” (now {_matches(app)!r})")
        first = settled(app.scroll_value)
        check(first > 0, "the view scrolled to the first match, below the contents")
        highlighted, _ = app.page_shot("find-highlighted.png")
        # Every match on screen is painted: many more pixels change than one word's worth.
        check(differing_pixels(plain, highlighted) > 2000, "the matches are highlighted")
        app.key("Return")
        wait_for(lambda: _matches(app) == "2 of 90", what=f"Return: “2 of 90” ({_matches(app)!r})")
        app.key("F3")
        wait_for(lambda: _matches(app) == "3 of 90", what=f"F3: “3 of 90” ({_matches(app)!r})")
        app.key("ctrl+g")
        wait_for(lambda: _matches(app) == "4 of 90", what=f"Ctrl+G: “4 of 90” ({_matches(app)!r})")
        app.key("shift+F3")
        wait_for(lambda: _matches(app) == "3 of 90", what=f"Shift+F3: “3 of 90” ({_matches(app)!r})")
        app.key("shift+Return")
        app.key("shift+Return")
        app.key("shift+Return")
        wait_for(lambda: _matches(app) == "90 of 90", what=f"Shift+Return wraps to the last ({_matches(app)!r})")
        last = settled(app.scroll_value)
        check(last > first * 5, f"the view follows the match to the end of the page ({first} → {last})")
        app.key("Escape")
        wait_for(lambda: not entry.getState().contains(pyatspi.STATE_SHOWING), what="Escape closes the bar")
        settled(app.scroll_value)
        # The page grows by the bar's height, so the offset may drop by as much; the match stays in view.
        check(abs(app.scroll_value() - last) < 60, f"the view stays where the match was ({last}, {app.scroll_value()})")
        page = app.find(pyatspi.ROLE_TEXT, "Page")
        mx, my, mw, mh = page.queryText().getCharacterExtents(app.page_text().rindex("needle"), pyatspi.DESKTOP_COORDS)
        x, y, w, h = app.page_extents()
        check(y <= my and my + mh <= y + h, f"the match is on screen (at y {my}, the page {y}..{y + h})")
        wait_for(lambda: page.getState().contains(pyatspi.STATE_FOCUSED), what="the page has the keyboard again")
        text = page.queryText()
        check(text.getNSelections() == 1, "the last match is left selected")
        start, end = text.getSelection(0)
        check(text.getText(start, end).lower() == "needle" and start == app.page_text().rindex("needle"),
              "the selection is the match the bar was on")
        app.key("ctrl+f")
        # Typing before the bar's entry is on screen makes GTK hand the keys to a widget not yet realized (a
        # Gtk-CRITICAL, which harness.App.close counts): wait for the bar as the first search does.
        wait_for(lambda: entry.getState().contains(pyatspi.STATE_SHOWING)
                 and entry.getState().contains(pyatspi.STATE_FOCUSED), what="the find bar back, with the keyboard")
        app.type("no such words\n")
        wait_for(lambda: _matches(app) == "No matches", what=f"“No matches” ({_matches(app)!r})")
    finally:
        app.close()
        server.stop()


def test_ctrl_plus_minus_zero_and_ctrl_scroll_change_the_text_size_keeping_the_top_line(binary):
    server = Server()
    state = tempfile.mkdtemp(prefix="gtkprogress-state-")
    app = App(binary, server.url(ARTICLE), state_home=state)
    try:
        app.wait_title("Long read")
        app.wait_text("Section 30")
        normal, area = app.settled_page_shot("zoom-100.png")
        app.key("End")
        settled(app.scroll_value)
        app.key("Home")
        wait_for(lambda: app.scroll_value() == 0, what="back at the top")
        # Put a heading at the top of the view: it must stay there through every change of size.
        for _ in range(3):
            app.key("space")
        settled(app.scroll_value)
        top = app.top_offset()
        line = app.page_text()[top:top + 20]

        def top_line_kept(what):
            settled(app.scroll_value)
            now = app.top_offset()
            check(abs(now - top) < 80, f"{what}: the line at the top stays ({line!r} at {top}, now "
                  f"{app.page_text()[now:now + 20]!r} at {now})")

        app.key("ctrl+plus")
        app.wait_status("Text size 110%")
        top_line_kept("Ctrl+plus")
        app.key("ctrl+plus")
        app.wait_status("Text size 120%")
        top_line_kept("Ctrl+plus twice")
        app.key("ctrl+minus")
        app.wait_status("Text size 110%")
        top_line_kept("Ctrl+minus")
        x, y, w, h = area
        from harness import xdotool
        xdotool("mousemove", x + w // 2, y + h // 2)
        xdotool("keydown", "ctrl")
        xdotool("click", "4")
        xdotool("keyup", "ctrl")
        app.wait_status("Text size 120%")
        top_line_kept("Ctrl+scroll up")
        app.key("ctrl+0")
        app.wait_status("Text size 100%")
        top_line_kept("Ctrl+0")
        app.key("Home")
        wait_for(lambda: app.scroll_value() == 0, what="back at the top")
        again, _ = app.settled_page_shot("zoom-100-again.png")
        check(differing_pixels(normal, again) < 50, "Ctrl+0 gives back the same picture as at first")
        app.key("ctrl+plus")
        app.key("ctrl+plus")
        app.key("ctrl+plus")
        app.wait_status("Text size 133%")
        bigger, _ = app.settled_page_shot("zoom-133.png")
        check(differing_pixels(normal, bigger) > 5000, "the text is drawn larger")
        # The size is remembered: a new start with an address (no session restored) still uses it.
        import json
        wait_for(lambda: json.load(open(app.session_path)).get("zoom") == 1.33, what="the size saved")
    finally:
        app.close()
    app = App(binary, server.url("/page?title=Later"), state_home=state)
    try:
        app.wait_title("Later")
        app.wait_status("Done")
        app.key("ctrl+minus")
        wait_for(lambda: "Text size 120%" in app.status(), what=f"Ctrl+minus from 133% (status {app.status()!r})")
    finally:
        app.close()
        server.stop()
        shutil.rmtree(state, ignore_errors=True)


def test_a_jump_within_the_page_is_an_entry_and_back_returns_to_where_the_reader_was(binary):
    server = Server()
    app = App(binary, server.url(ARTICLE))
    try:
        app.wait_title("Long read")
        app.wait_text("Section 30")
        # A little way down, with the contents still in view.
        x, y, w, h = app.page_extents()
        from harness import xdotool
        xdotool("mousemove", x + w // 2, y + h // 2)
        xdotool("click", "5")
        before = settled(app.scroll_value)
        check(before > 0, "the wheel scrolled the page")
        requests = server.count("/article")
        x, y = app.text_position("Section 20")
        app.click_screen(x, y)
        wait_for(lambda: app.find_address().endswith("#s20"), what=f"the address shows #s20 ({app.find_address()!r})")
        jumped = settled(app.scroll_value)
        check(jumped > before + 500, f"the view jumped to section 20 ({before} → {jumped})")
        wait_for(lambda: app.button_sensitive("Back"), what="Back is sensitive")
        app.key("alt+Left")
        wait_for(lambda: "#" not in app.find_address(), what=f"Back: the address without #s20 ({app.find_address()!r})")
        check(abs(settled(app.scroll_value) - before) < 2, f"Back returns to where the reader was ({before}, "
              f"{app.scroll_value()})")
        app.key("alt+Right")
        wait_for(lambda: app.find_address().endswith("#s20"), what="Forward: #s20 again")
        check(abs(settled(app.scroll_value) - jumped) < 2, "Forward returns to section 20")
        check(app.title == "Long read", "the same page")
        check(server.count("/article") == requests, "no request for a jump within the page")
    finally:
        app.close()
        server.stop()


def _link_colour(app, path, fragment):
    """The link colour of `fragment` as painted, and the page's background: the colour of the text's pixels that
    stands out most from the most common one (anti-aliased edges stand out less)."""
    import pyatspi
    text = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
    start = app.page_text().index(fragment)
    x, y, w, h = text.getRangeExtents(start, start + len(fragment), pyatspi.DESKTOP_COORDS)
    counts = colours(crop(path, x, y, w, h))
    background = max(counts, key=counts.get)
    ink = max((c for c, n in counts.items() if n >= 3), key=lambda c: contrast(c, background))
    return ink, background


def test_link_colours_come_from_the_theme_and_stay_readable_in_light_and_dark(binary):
    server = Server()
    seen = {}
    for theme in ("Adwaita", "Adwaita:dark"):
        app = App(binary, server.url("/page?title=Colours&links=/page?title=Visited,/page?title=Fresh"),
                  env={"GTK_THEME": theme})
        try:
            app.wait_title("Colours")
            app.wait_text("/page?title=Fresh")
            x, y = app.text_position("/page?title=Visited")
            app.click_screen(x, y)
            app.wait_title("Visited")
            app.key("alt+Left")
            app.wait_title("Colours")
            path = app.settled_screenshot(f"links-{theme.replace(':', '-')}.png")
            link, background = _link_colour(app, path, "/page?title=Fresh")
            visited, _ = _link_colour(app, path, "/page?title=Visited")
            for name, colour in (("link", link), ("visited link", visited)):
                ratio = contrast(colour, background)
                check(ratio >= 4.5, f"{theme}: the {name} colour {colour} on {background} has contrast {ratio:.2f}")
            check(link != visited, f"{theme}: visited links look different ({link}, {visited})")
            seen[theme] = (link, background)
        finally:
            app.close()
    check(seen["Adwaita"][1] != seen["Adwaita:dark"][1], f"the dark theme paints a dark page ({seen})")
    check(seen["Adwaita"][0] != seen["Adwaita:dark"][0], f"the link colour follows the theme ({seen})")
    server.stop()


def test_find_after_end_scrolls_back_up_to_the_match_it_counts(binary, path="/tmp/gtkprogress-ui-find-end.html"):
    """After End on a long page, a word that is only above the view: the count says “1 of 3” and the view goes
    to that match, not only the label."""
    filler = "".join(f"<p>Filler paragraph {i} with enough words to take a line of its own.</p>" for i in range(2000))
    with open(path, "w") as f:
        f.write("<title>Find above</title><p>zebra one</p><p>zebra two</p><p>zebra three</p>" + filler
                + "<p>The last line.</p>")
    app = App(binary, path)
    try:
        app.wait_title("Find above")
        app.wait_text("The last line.")
        app.key("End")
        bottom = wait_for(lambda: settled(app.scroll_value) > 10000 and app.scroll_value(), what="End reaches the end")
        app.key("ctrl+f")
        import pyatspi
        entry = app.find(pyatspi.ROLE_TEXT, "Find in page")
        wait_for(lambda: entry.getState().contains(pyatspi.STATE_FOCUSED), what="the find entry has the keyboard")
        app.type("zebra")
        wait_for(lambda: _matches(app) == "1 of 3", what=f"“1 of 3” (now {_matches(app)!r})")
        top = wait_for(lambda: settled(app.scroll_value) < bottom / 10 and str(app.scroll_value()),
                       what=f"the view goes up to the first match (at {app.scroll_value()} from {bottom})")
        page = app.find(pyatspi.ROLE_TEXT, "Page")
        mx, my, mw, mh = page.queryText().getCharacterExtents(app.page_text().index("zebra one"), pyatspi.DESKTOP_COORDS)
        x, y, w, h = app.page_extents()
        check(y <= my and my + mh <= y + h, f"the match is on screen (at y {my}, the page {y}..{y + h}; scroll {top})")
    finally:
        app.close()
