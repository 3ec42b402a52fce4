"""Reading a page as a person does without the mouse: Tab through links, Return, Space, Home and End; find in
page; the text size; jumps within the page as history entries; the link colours of light and dark themes."""

import time

from harness import App, Server, check, colours, contrast, differing_pixels, wait_for


ARTICLE = "/article?title=Long+read&sections=30"


def settled(read, timeout=5):
    """`read()` once it has stopped changing for 0.3 s (GTK measures a long page's lines in idle time)."""
    last = read()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = read()
        if now == last:
            return now
        last = now
    return last


def test_tab_moves_a_visible_focus_from_link_to_link_and_return_follows(binary):
    server = Server()
    app = App(binary, server.url(ARTICLE))
    try:
        app.wait_title("Long read")
        app.wait_text("Section 30")
        text = app.page_text()
        before, area = app.page_shot("tab-before.png")
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
        app.key("alt+Left")
        app.wait_title("Long read")
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
        time.sleep(0.3)
        check(app.scroll_value() == bottom, f"Space at the bottom stays there ({bottom}, {app.scroll_value()})")
        app.key("Home")
        wait_for(lambda: app.scroll_value() == 0, what="Home goes to the top")
    finally:
        app.close()
        server.stop()
