"""Tables in the window: laid out at the window's width in the page's font, one line per row with the cells at
tab stops, refitted on resize without scrolling the page sideways; find and selection go through the cells."""

import contextlib
import http.server
import os
import tempfile
import threading

from harness import App, Failure, PageHandler, check, clipboard_text, settled, wait_for, xdotool


def _page():
    rows = ["<tr>" + "".join(f"<th>Head {c}</th>" for c in range(1, 13)) + "</tr>"]
    for r in range(1, 7):
        rows.append("<tr>" + "".join(f"<td>r{r}c{c} value</td>" for c in range(1, 13)) + "</tr>")
    return ("<!DOCTYPE html><html><head><title>Twelve</title></head><body><h1>Twelve columns</h1>"
            "<p>Before the table, a paragraph of prose long enough to wrap at the reading measure of about seventy"
            " five characters on a wide window.</p>"
            f"<table border=1 cellpadding=4><caption>Quarterly figures</caption>{''.join(rows)}</table>"
            "<p>After the table.</p></body></html>")


@contextlib.contextmanager
def _opened(binary, title, until, html):
    """The viewer on `html` written to a file, once its window carries `title` and the page's text `until`;
    closed and the file removed at the end of the `with` block, whatever happened in it."""
    fd, path = tempfile.mkstemp(suffix=".html", prefix="gtkprogress-tables-")
    with os.fdopen(fd, "w") as f:
        f.write(html)
    app = App(binary, path)
    try:
        app.wait_title(title)
        app.wait_text(until)
        yield app
    finally:
        app.close()
        os.unlink(path)


def _extents(app, fragment, objects=0, last=False):
    """Screen rectangle of the first (or last) character of `fragment` in the page. The page's accessible text
    leaves out the U+FFFC of pictures and widgets, which its offsets count: `objects` before the fragment."""
    import pyatspi
    text = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
    index = app.page_text().index(fragment) + (len(fragment) - 1 if last else 0)
    return text.getCharacterExtents(index + objects, pyatspi.DESKTOP_COORDS)


def _cells(row):
    return ([f"Head {c}\t" if c < 12 else "Head 12\n" for c in range(1, 13)] if row == 0
            else [f"r{row}c{c} value" for c in range(1, 13)])


def _resize(app, width, height):
    """Makes the window `width` × `height` and waits until the page is about as wide."""
    xdotool("windowsize", app.window, width, height)
    wait_for(lambda: abs(app.page_extents()[2] - width) < 60, what=f"the page {width} px wide ({app.page_extents()})")


def _horizontal_scrolling(app):
    """Whether the page can scroll sideways: a horizontal scroll bar with more range than its page."""
    import pyatspi
    from harness import _walk
    bars = [a for a in _walk(app.frame()) if a.getRole() == pyatspi.ROLE_SCROLL_BAR
            and a.getState().contains(pyatspi.STATE_HORIZONTAL)]
    for bar in bars:
        value = bar.queryValue()
        if bar.getState().contains(pyatspi.STATE_SHOWING) and value.maximumValue > value.minimumValue:
            return True
    return False


def test_a_twelve_column_table_fills_a_wide_window_and_refits_on_resize(binary):
    with _opened(binary, "Twelve", "r6c12",
                 _page()) as app:
        xdotool("windowsize", app.window, 1500, 800)
        # At the window's first width the cells may be wrapped in their columns; at 1500 px they are whole.
        app.wait_text("r6c12 value")
        wait_for(lambda: app.page_extents()[2] > 1400, what=f"the page 1500 px wide ({app.page_extents()})")
        page = app.page_extents()
        # Each row on one line: the first characters of its cells share a y, left to right; each column's cells
        # share an x from row to row.
        def rows_on_one_line():
            columns = None
            if any(cell.rstrip() not in app.page_text() for row in range(0, 7) for cell in _cells(row)):
                return False  # a cell still wrapped in its column
            for row in range(0, 7):
                places = [_extents(app, cell) for cell in _cells(row)]
                if len({y for _, y, _, _ in places}) != 1:
                    return False
                xs = [x for x, _, _, _ in places]
                if xs != sorted(xs) or len(set(xs)) != 12:
                    return False
                if row > 0:
                    columns = columns or xs
                    if xs != columns:
                        return False
            return True
        wait_for(rows_on_one_line, what="each row of twelve cells on one line, the columns lined up")
        app.settled_screenshot("tables-wide.png")
        last_x = _extents(app, "r1c12 value")[0]
        check(last_x - page[0] > 1000, f"the table takes the window's width, not the 75-character measure ({last_x})")
        check(not _horizontal_scrolling(app), "the page does not scroll sideways")

        # Narrower: the columns are refitted; nothing of the page goes past the view's right edge.
        xdotool("windowsize", app.window, 900, 800)
        wait_for(lambda: app.page_extents()[2] < 950, what=f"the page 900 px wide ({app.page_extents()})")
        def fits():
            # Every character of the first row (its cells may have wrapped inside their columns).
            import pyatspi
            x, y, w, h = app.page_extents()
            text = app.page_text()
            start, end = text.index("r1c1"), text.index("r2c1")
            page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
            for k in range(start, end):
                cx, cy, cw, ch = page.getCharacterExtents(k, pyatspi.DESKTOP_COORDS)
                if text[k] not in "\t\n" and cx + cw > x + w:
                    return False
            return True
        wait_for(fits, what="every cell of a row within the narrower view")
        app.settled_screenshot("tables-narrow.png")
        check(not _horizontal_scrolling(app), "the narrower page does not scroll sideways either")

        # Wide again: the rows are back on one line each.
        xdotool("windowsize", app.window, 1500, 800)
        wait_for(lambda: app.page_extents()[2] > 1400, what="the page wide again")
        wait_for(rows_on_one_line, what="each row on one line again after the resize")


def test_find_and_selection_go_through_table_cells(binary):
    import pyatspi
    with _opened(binary, "Twelve", "r6c12", _page()) as app:
        xdotool("windowsize", app.window, 1500, 800)
        # At the window's first width the cells may be wrapped in their columns; at 1500 px they are whole.
        app.wait_text("r6c12 value")
        wait_for(lambda: app.page_extents()[2] > 1400, what="the page 1500 px wide")
        # Find: a word in a cell, counted in every cell that has it.
        entry = app.open_find("r4c7")
        matches = app.find_matches
        wait_for(lambda: matches() == "1 of 1", what=f"“1 of 1” for a cell's text ({matches()!r})")
        app.key("Escape")
        page = app.find(pyatspi.ROLE_TEXT, "Page")
        wait_for(lambda: page.getState().contains(pyatspi.STATE_FOCUSED), what="the page has the keyboard again")
        text = page.queryText()
        start, end = text.getSelection(0)
        check(text.getText(start, end) == "r4c7", f"find leaves the cell's text selected ({text.getText(start, end)!r})")
        # A drag from the second row's first cell to the third row's third cell selects across cells and rows,
        # once the find bar has gone and the page stands still.
        wait_for(lambda: not entry.getState().contains(pyatspi.STATE_SHOWING), what="Escape closes the bar")
        x0, y0, w0, h0 = settled(lambda: _extents(app, "r2c1 value"))
        x1, y1, w1, h1 = _extents(app, "r3c3 value")
        xdotool("mousemove", x0 + 1, y0 + h0 // 2)
        xdotool("mousedown", 1)
        xdotool("mousemove", x0 + 40, y0 + h0 // 2)
        xdotool("mousemove", x1 + w1 * 4, y1 + h1 // 2)
        xdotool("mouseup", 1)
        app.sync()
        def selected():
            if text.getNSelections() != 1:
                return None
            s, e = text.getSelection(0)
            return text.getText(s, e)
        wait_for(lambda: (selected() or "").startswith("r2c1 value\tr2c2 value\tr2c3"),
                 what=f"the selection runs through the cells ({selected()!r})")
        chosen = selected()
        check("r2c12 value\nr3c1 value\tr3c2 value\tr3c" in chosen,
              f"the selection goes on to the next row, cells apart by tabs ({chosen!r})")
        app.settled_screenshot("tables-selection.png")


def test_a_refit_keeps_the_top_line(binary):
    rows = "".join("<tr>" + "".join(f"<td>row{r}col{c} value</td>" for c in range(1, 9)) + "</tr>"
                   for r in range(1, 201))
    with _opened(binary, "Long table", "row200col8",
                 f"<!DOCTYPE html><html><head><title>Long table</title></head><body><table>{rows}</table>"
                 "</body></html>") as app:
        xdotool("windowsize", app.window, 1500, 800)
        app.wait_text("row200col8 value")
        wait_for(lambda: app.page_extents()[2] > 1400, what="the page 1500 px wide")
        wait_for(lambda: _extents(app, "row1col8 value")[1] == _extents(app, "row1col1 value")[1],
                 what="the first row on one line")
        app.focus()
        for _ in range(4):
            app.key("Page_Down")
        def top_row():
            # The row of the last cell that starts at or before the top line (rows may take several lines).
            import re
            text = app.page_text()
            return int(re.findall(r"row(\d+)col", text[:app.top_offset() + 12])[-1])
        before = settled(top_row)
        check(before > 20, f"the view scrolled down into the table (top row {before})")
        app.settled_screenshot("tables-top-before.png")
        # Narrower: every row now wraps onto more lines, so the table above the reader grows; the row on top stays.
        xdotool("windowsize", app.window, 900, 800)
        wait_for(lambda: app.page_extents()[2] < 950, what="the page 900 px wide")
        # The rows on screen are re-broken first, then the rest; the first row last, as it is above the reader.
        wait_for(lambda: "row1col8 value" not in app.page_text() and "row200col8 value" not in app.page_text(),
                 what="every row refitted to the narrower page, its cells wrapped in their columns")
        after = settled(top_row)
        app.settled_screenshot("tables-top-kept.png")
        check(abs(after - before) <= 1, f"the top line is kept through the refit (row {before} → {after})")


def _wrap_page():
    return ("<!DOCTYPE html><html><head><title>Wrapped</title></head><body><h1>Wrapped cells</h1>"
            "<table border=1 cellpadding=4><tr><th>Name</th><th>Description</th><th>Price</th></tr>"
            "<tr><td>Alpha</td><td>A long description that goes on and on, far longer than its column can hold"
            " on one line, so it wraps within the column and continues below, under its own column's left edge,"
            " with <a href='http://example.com/'>a link inside the cell</a> and a last word zanzibar.</td>"
            "<td>€12</td></tr>"
            "<tr><td>Beta</td><td>Short</td><td>€3</td></tr></table><p>After the table.</p></body></html>")


def _words_of(text, first, last):
    """(word, offset) for each word of `text` from the one starting at `first` through `last`."""
    import re
    start, end = text.index(first), text.index(last) + len(last)
    # The cell's words only: its first line is followed by the next cell's text in the buffer.
    return [(m.group(0), start + m.start()) for m in re.finditer(r"\S+", text[start:end]) if m.group(0) != "€12"]


def test_a_long_cell_wraps_within_its_column(binary):
    import pyatspi
    with _opened(binary, "Wrapped", "zanzibar",
                 _wrap_page()) as app:
        _resize(app, 900, 700)
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
        def extents(offset):
            return page.getCharacterExtents(offset, pyatspi.DESKTOP_COORDS)
        def wrapped():
            text = app.page_text()
            words = _words_of(text, "A long", "zanzibar.")
            column = extents(words[0][1])[0]
            lines = {}
            for word, offset in words:
                x, y, w, h = extents(offset)
                if x < column - 1:
                    return None
                lines.setdefault(y, []).append((x, word))
            if len(lines) < 3:
                return None
            # Each line of the cell starts at the column's left edge.
            if any(min(line)[0] != column for line in lines.values()):
                return None
            return column, lines
        result = wait_for(wrapped, what="the description wrapped onto lines that start under its column")
        column, lines = result
        text = app.page_text()
        first_y = min(lines)
        name = extents(text.index("Alpha"))
        price = extents(text.index("€12"))
        check(name[1] == first_y and price[1] == first_y,
              f"the row's other cells sit on its first line ({name}, {price}, {first_y})")
        right = max(extents(offset)[0] + extents(offset)[2] for _, offset in _words_of(text, "A long", "zanzibar."))
        check(price[0] > right, f"the description stays left of the next column ({right} < {price[0]})")
        check(name[0] < column, "the first column stays left of the description")
        beta = extents(text.index("Beta"))
        check(beta[1] > max(lines), f"the next row starts below the wrapped cell's last line ({beta[1]})")
        app.settled_screenshot("tables-wrapped.png")

        # Find goes into the wrapped cell: a word on a continuation line, and the link's text.
        entry = app.open_find("zanzibar")
        matches = app.find_matches
        wait_for(lambda: matches() == "1 of 1", what=f"“1 of 1” for a word in the wrapped cell ({matches()!r})")
        app.key("Escape")
        wait_for(lambda: not entry.getState().contains(pyatspi.STATE_SHOWING), what="Escape closes the bar")
        start, end = page.getSelection(0)
        check(page.getText(start, end) == "zanzibar", f"the found word is selected ({page.getText(start, end)!r})")
        x, y, w, h = extents(start)
        check(x >= column and y > first_y, f"the found word is on a continuation line under the column ({x}, {y})")

        # Wide again: the cell goes back onto fewer lines, its words and spaces as they were.
        xdotool("windowsize", app.window, 1260, 700)
        wait_for(lambda: app.page_extents()[2] > 1200, what="the page wide again")
        wait_for(lambda: "with a link inside the cell and a last word" in app.page_text().replace("\n", " ")
                 .replace("\t", " ") and len(app.page_text()) == len(text),
                 what="the cell's text whole again, the page the same length")


def test_a_bordered_table_has_rules_at_the_cell_edges(binary):
    import pyatspi
    from harness import crop, colours
    with _opened(binary, "Wrapped", "zanzibar",
                 _wrap_page()) as app:
        _resize(app, 900, 700)
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()

        def box(word):
            """The screen rectangle of `word`'s characters, as (left, top, right, bottom)."""
            start = app.page_text().index(word)
            rects = [page.getCharacterExtents(k, pyatspi.DESKTOP_COORDS) for k in range(start, start + len(word))]
            return (min(x for x, _, _, _ in rects), min(y for _, y, _, _ in rects),
                    max(x + w for x, _, w, _ in rects), max(y + h for _, y, _, h in rects))
        wait_for(lambda: box("zanzibar")[1] > box("Alpha")[3], what="the description wrapped in its column")
        shot = app.settled_screenshot("tables-rules.png")
        alpha, beta, description = settled(lambda: (box("Alpha"), box("Beta"), box("A long")))
        last_line = box("zanzibar")
        x, y, w, h = app.page_extents()
        background = max(colours(crop(shot, x + w - 30, beta[3] + 60, 20, 20)).items(), key=lambda c: c[1])[0]

        def rule_pixels(px, py, pw, ph):
            """Offsets along a one-pixel strip where the screen is not the page's background."""
            rgb = crop(shot, px, py, pw, ph)
            return [i // 3 for i in range(0, len(rgb), 3) if tuple(rgb[i:i + 3]) != background]

        # Between the rows, below the wrapped cell's last line and above the next row: a rule, text clear of it.
        strip = rule_pixels(alpha[0] + 2, last_line[3], 1, beta[1] - last_line[3])
        check(len(strip) >= 1, f"a rule between the rows under the Name column ({strip})")
        check(min(strip) >= 2 and max(strip) <= beta[1] - last_line[3] - 3,
              f"the row rule keeps clear of the text above and below it ({strip}, {beta[1] - last_line[3]} px)")
        # Between the first two columns, on the row's first line and again on its last continuation line.
        between = rule_pixels(alpha[2], (alpha[1] + alpha[3]) // 2, description[0] - alpha[2], 1)
        check(len(between) >= 1, f"a rule between the Name and Description columns ({between})")
        check(min(between) >= 2 and max(between) <= description[0] - alpha[2] - 3,
              f"the column rule keeps clear of the cells' text ({between}, {description[0] - alpha[2]} px)")
        lower = rule_pixels(alpha[2], (last_line[1] + last_line[3]) // 2, description[0] - alpha[2], 1)
        check(lower == between, f"the column rule runs down through the continuation lines ({lower} vs {between})")
        # The frame: left of the first column, with the cell's padding between it and the text.
        frame = rule_pixels(x, (alpha[1] + alpha[3]) // 2, alpha[0] - x, 1)
        check(len(frame) >= 1 and alpha[0] - x - max(frame) >= 4,
              f"the frame's left side with padding before the text ({frame}, text at {alpha[0] - x})")
        # Above the header: the frame's top, clear of the header text.
        name = box("Name")
        above = rule_pixels(name[0] + 2, name[1] - 12, 1, 12)
        check(len(above) >= 1 and max(above) <= 12 - 3, f"the frame's top above the header ({above})")


def test_a_table_too_wide_for_the_window_gets_smaller_text_not_sideways_scrolling(binary):
    import pyatspi
    head = "".join(f"<th>Heading{c}</th>" for c in range(1, 8))
    body = "".join("<tr>" + "".join(f"<td>Measurement{r}x{c}</td>" for c in range(1, 8)) + "</tr>"
                   for r in range(1, 5))
    with _opened(binary, "Too wide", "Measurement4x7",
                 "<!DOCTYPE html><html><head><title>Too wide</title></head><body><p>Before the table.</p>"
                 f"<table border=1><tr>{head}</tr>{body}</table><p>After.</p></body></html>") as app:
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()

        def extents(fragment):
            return page.getCharacterExtents(app.page_text().index(fragment), pyatspi.DESKTOP_COORDS)

        def rows_fit():
            # Each row's cells share a line, left to right, the last one inside the view.
            x, y, w, h = app.page_extents()
            for r in range(1, 5):
                places = [extents(f"Measurement{r}x{c}") for c in range(1, 8)]
                if len({py for _, py, _, _ in places}) != 1 or [p[0] for p in places] != sorted(p[0] for p in places):
                    return False
                last = page.getCharacterExtents(app.page_text().index(f"Measurement{r}x7") + 13,
                                                pyatspi.DESKTOP_COORDS)
                if last[0] + last[2] > x + w:
                    return False
            return True
        # Words that no line may break inside, seven of them a row: wider at the page's text size than 900 px.
        _resize(app, 900, 700)
        wait_for(lambda: rows_fit() and extents("Measurement1x1")[3] < extents("Before")[3],
                 what="the table's rows fitted on one line each in smaller text")
        small = extents("Measurement1x1")[3]
        check(small >= 0.7 * extents("Before")[3], f"the text no smaller than three quarters ({small})")
        check(not _horizontal_scrolling(app), "the page does not scroll sideways")
        app.settled_screenshot("tables-too-wide.png")
        # Wide enough: the table's text is the page's size again.
        xdotool("windowsize", app.window, 1500, 700)
        wait_for(lambda: app.page_extents()[2] > 1400, what="the page 1500 px wide")
        wait_for(lambda: rows_fit() and extents("Measurement1x1")[3] == extents("Before")[3],
                 what="the table's text at the page's size once it fits")


def _aligned_page():
    return ("<!DOCTYPE html><html><head><title>Aligned</title><style>td.n { text-align: right }</style></head>"
            "<body><h1>Aligned cells</h1>"
            "<table border=1 cellpadding=4><tr><th>Item</th><th>N</th><th>Note</th></tr>"
            "<tr><td>Apples</td><td class=n>7</td><td align=center>ok</td></tr>"
            "<tr><td>Watermelons</td><td class=n>1234567</td><td align=center>fine and dandy</td></tr>"
            "<tr><td align=right>Fig</td><td class=n align=left>89</td><td>left</td></tr></table>"
            "<p>After the table.</p></body></html>")


def test_centred_and_right_aligned_cells_sit_where_their_author_put_them(binary):
    import pyatspi
    with _opened(binary, "Aligned", "After the table",
                 _aligned_page()) as app:
        xdotool("windowsize", app.window, 1200, 700)
        wait_for(lambda: app.page_extents()[2] > 1100, what=f"the page 1200 px wide ({app.page_extents()})")
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
        text = app.page_text()

        def span(row, cell):
            """Left and right edge (screen x) and y of cell `cell` of the row starting with `row`."""
            start = text.index(row + "\t") if cell > 0 or "\t" in row else text.index(row)
            line = text[start:text.index("\n", start)]
            parts = line.split("\t")
            offset = start + sum(len(p) + 1 for p in parts[:cell])
            first = page.getCharacterExtents(offset, pyatspi.DESKTOP_COORDS)
            last = page.getCharacterExtents(offset + len(parts[cell]) - 1, pyatspi.DESKTOP_COORDS)
            return first[0], last[0] + last[2], first[1]

        def aligned():
            f = {name: span(*where) for name, where in {
                "item": ("Item", 0), "n": ("Item", 1), "note": ("Item", 2), "7": ("Apples", 1), "ok": ("Apples", 2),
                "melon": ("Watermelons", 0), "1234567": ("Watermelons", 1), "dandy": ("Watermelons", 2),
                "fig": ("Fig", 0), "89": ("Fig", 1), "left": ("Fig", 2)}.items()}
            centre = lambda s: (s[0] + s[1]) / 2
            good = (abs(f["7"][1] - f["1234567"][1]) <= 1 and abs(f["89"][1] - f["1234567"][1]) <= 1
                    and f["7"][0] > f["1234567"][0] + 20
                    and abs(f["fig"][1] - f["melon"][1]) <= 1 and f["fig"][0] > f["melon"][0] + 20
                    and abs(centre(f["ok"]) - centre(f["dandy"])) <= 2 and f["ok"][0] > f["dandy"][0] + 20
                    and abs(f["left"][0] - f["dandy"][0]) <= 1
                    and abs(centre(f["item"]) - centre(f["melon"])) <= 2
                    and abs(centre(f["n"]) - centre(f["1234567"])) <= 2
                    and abs(centre(f["note"]) - centre(f["dandy"])) <= 2)
            return f if good else None
        f = wait_for(aligned, what="numbers right-aligned, centred cells and header cells centred in their columns")
        check(f["7"][2] < f["1234567"][2] < f["89"][2], f"each row on its own line ({f})")
        check(f["melon"][1] < f["1234567"][0] < f["1234567"][1] < f["dandy"][0],
              f"the columns stay apart, left to right ({f})")
        app.settled_screenshot("tables-aligned.png")

        # Narrower: the columns shrink, the cells stay placed in them.
        xdotool("windowsize", app.window, 700, 700)
        wait_for(lambda: app.page_extents()[2] < 760, what=f"the page 700 px wide ({app.page_extents()})")
        wait_for(aligned, what="the cells placed in their columns at 700 px")
        check(len(app.page_text()) == len(text), "aligning moves no character")
        check(app.page_text() == text, "the page's text is the same after aligning")


def test_wrapped_centred_and_right_aligned_cells_keep_their_lines_placed(binary):
    import pyatspi
    with _opened(binary, "Wrapped aligned", "After the table",
                 "<!DOCTYPE html><html><head><title>Wrapped aligned</title></head><body><h1>Wrapped aligned</h1>"
                 "<table border=1 cellpadding=4><tr><th>Name</th><th>Description</th><th>Price</th></tr>"
                 "<tr><td align=right>Alpha</td><td align=center>A long description that goes on and on, far longer"
                 " than its column can hold on one line, so it wraps within the column</td><td align=right>12.50</td>"
                 "</tr><tr><td>Beta gamma delta</td><td align=right>Another long text that is right aligned and wraps"
                 " onto the lines below in its own column here</td><td align=right>3.00</td></tr></table>"
                 "<p>After the table.</p></body></html>") as app:
        _resize(app, 700, 600)
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()

        def lines(first, last):
            """Each line of a cell from its word `first` to its word `last`: (left, right) by y."""
            import re
            text = app.page_text()
            start = text.index(first)
            end = text.index(last, start) + len(last)
            found = {}
            for m in re.finditer(r"[^\s]+", text[start:end]):
                if m.group(0) in ("12.50", "3.00", "Beta", "gamma", "delta"):
                    continue
                a = page.getCharacterExtents(start + m.start(), pyatspi.DESKTOP_COORDS)
                b = page.getCharacterExtents(start + m.end() - 1, pyatspi.DESKTOP_COORDS)
                left, right = found.get(a[1], (a[0], b[0] + b[2]))
                found[a[1]] = (min(left, a[0]), max(right, b[0] + b[2]))
            return [found[y] for y in sorted(found)]

        def placed():
            centred, right = lines("A long", "within the column"), lines("Another", "here")
            if len(centred) < 2 or len(right) < 2:
                return None
            centres = [(l + r) / 2 for l, r in centred]
            rights = [r for _, r in right]
            lefts = [l for l, _ in right]
            if max(centres) - min(centres) > 2 or max(rights) - min(rights) > 1 or len(set(lefts)) < 2:
                return None
            return centred, right
        centred, right = wait_for(placed, what="each line of the centred cell centred, of the right-aligned cell "
                                                "ending at the column's right edge")
        header = lines("Description", "Description")[0]
        centre = (centred[0][0] + centred[0][1]) / 2
        check(abs((header[0] + header[1]) / 2 - centre) <= 2,
              f"the centred cell's lines share the header's centre ({header}, {centred})")
        check(max(r for _, r in centred) <= right[0][1] + 1,
              f"no centred line passes the column's right edge ({centred}, {right})")
        app.settled_screenshot("tables-aligned-wrapped.png")


class _LoginRecorder(PageHandler, http.server.BaseHTTPRequestHandler):
    """Serves a login form laid out in a table and notes what is posted to it."""
    posts = []
    page = ("<!DOCTYPE html><html><head><title>Login</title></head><body><p>Sign in with the name and password"
            " you chose.</p><form action='/login' method='post'><table>"
            "<tr><td>Username:</td><td><input name='acct' size='20'></td></tr>"
            "<tr><td>Password you chose:</td><td><input type='password' name='pw' size='20'></td></tr>"
            "<tr><td></td><td><input type='submit' value='Log in'></td></tr>"
            "</table></form><p>After the form.</p></body></html>")

    def do_GET(self):
        self.answer(_LoginRecorder.page)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        _LoginRecorder.posts.append((self.path, body))
        self.answer("<title>Welcome</title><p>Welcome.</p>")


def _fields(app):
    """The page's text fields (the page's own text view left out), by their screen rectangles."""
    import pyatspi
    from harness import _walk
    page = app.find(pyatspi.ROLE_TEXT, "Page")
    return [a for a in _walk(page) if a.getRole() in (pyatspi.ROLE_TEXT, pyatspi.ROLE_PASSWORD_TEXT)
            and a.name != "Page" and a.getState().contains(pyatspi.STATE_SHOWING)]


def _serve(handler):
    """A loopback HTTP server answering with `handler` on a thread of its own; `shutdown()` ends it."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_a_login_form_in_a_table_has_its_fields_in_one_column_and_still_submits(binary):
    import pyatspi
    _LoginRecorder.posts = []
    server = _serve(_LoginRecorder)
    app = App(binary, f"http://127.0.0.1:{server.server_address[1]}/")
    try:
        app.wait_title("Login")
        app.wait_text("After the form")
        xdotool("windowsize", app.window, 900, 700)
        wait_for(lambda: app.page_extents()[2] < 950, what=f"the page 900 px wide ({app.page_extents()})")
        def lined_up():
            fields = _fields(app)
            if len(fields) != 2:
                return False
            boxes = [f.queryComponent().getExtents(pyatspi.DESKTOP_COORDS) for f in fields]
            button = app.find(pyatspi.ROLE_PUSH_BUTTON, "Log in").queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            label = _extents(app, "Password you chose:", objects=1)
            label_end = _extents(app, "Password you chose:", objects=1, last=True)
            # Both fields and the button start at one x, right of the longest label's end; each field on its
            # label's line.
            xs = {boxes[0][0], boxes[1][0], button[0]}
            return (len(xs) == 1 and boxes[0][0] > label_end[0] + label_end[2] + 8
                    and boxes[1][1] <= label[1] + label[3] and boxes[1][1] + boxes[1][3] >= label[1]
                    and boxes[1][1] > boxes[0][1] + boxes[0][3] - 2) and boxes
        boxes = wait_for(lined_up, what="the two fields and the button in one column, right of the labels")
        app.settled_screenshot("tables-login.png")
        page = app.page_extents()
        check(all(x + w < page[0] + page[2] for x, _, w, _ in boxes), f"the fields inside the view: {boxes}")
        check(not _horizontal_scrolling(app), "the page does not scroll sideways")
        # The fields take typed text, and Return in one sends the form.
        field = _fields(app)[0]
        x, y, w, h = field.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        app.click_screen(x + w // 2, y + h // 2)
        wait_for(lambda: field.getState().contains(pyatspi.STATE_FOCUSED), what="the user name field focused")
        app.type("alice")
        app.key("Tab")
        wait_for(lambda: _fields(app)[1].getState().contains(pyatspi.STATE_FOCUSED), what="Tab reaches the password")
        app.type("s3cret")
        app.key("Return")
        app.wait_title("Welcome")
        check(_LoginRecorder.posts == [("/login", b"acct=alice&pw=s3cret")], f"posted: {_LoginRecorder.posts}")
    finally:
        app.close()
        server.shutdown()


def _png(path, width, height, rgb):
    """A plain PNG of one colour (zlib and struct only)."""
    import struct
    import zlib
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_a_table_whose_rows_begin_with_a_small_image_is_laid_out_in_columns(binary):
    import pyatspi
    folder = tempfile.mkdtemp(prefix="gtkprogress-tables-images-")
    _png(os.path.join(folder, "up.png"), 10, 10, (200, 30, 30))
    titles = [f"Story {n} has a title long enough to wrap in its column when the window is narrow, as titles do"
              f" on a busy day" for n in range(1, 6)]
    rows = "".join(f"<tr><td>{n}.</td><td><a href='#v{n}'><img src='up.png' width='10' height='10' alt='up {n}'></a>"
                   f"</td><td><a href='#s{n}'>{t}</a></td><td>site{n}.example</td></tr>"
                   for n, t in enumerate(titles, 1))
    path = os.path.join(folder, "news.html")
    with open(path, "w") as f:
        f.write("<!DOCTYPE html><html><head><title>News</title></head><body><p>Top stories of the day, each with"
                f" its vote arrow.</p><table>{rows}</table><p>More.</p></body></html>")
    app = App(binary, path)
    try:
        app.wait_title("News")
        app.wait_text("site5.example")
        xdotool("windowsize", app.window, 900, 700)
        wait_for(lambda: app.page_extents()[2] < 950, what=f"the page 900 px wide ({app.page_extents()})")
        page = app.find(pyatspi.ROLE_TEXT, "Page")

        def arrows():
            return [c for c in (page[i] for i in range(page.childCount))
                    if c is not None and c.getRole() == pyatspi.ROLE_IMAGE and c.name.startswith("up ")]

        def columns():
            text = app.page_text()
            if any(t in text for t in titles) or len(arrows()) != 5:
                return False  # a title not yet wrapped in its column, or the arrows not in
            # Row n has n arrows before its title, n - 1 before its number.
            starts = [_extents(app, f"Story {n} ", objects=n) for n in range(1, 6)]
            sites = [_extents(app, f"site{n}.example", objects=n) for n in range(1, 6)]
            numbers = [_extents(app, f"{n}.\t", objects=n - 1) for n in range(1, 6)]
            boxes = sorted(a.queryComponent().getExtents(pyatspi.DESKTOP_COORDS) for a in arrows())
            boxes.sort(key=lambda b: b[1])
            # One x per column; the arrows between the numbers and the titles, each on its row's first line.
            if len({b[0] for b in starts}) != 1 or len({b[0] for b in sites}) != 1 or len({b[0] for b in boxes}) != 1:
                return False
            if not numbers[0][0] + numbers[0][2] < boxes[0][0] and boxes[0][0] + boxes[0][2] < starts[0][0]:
                return False
            for k in range(5):
                if not numbers[k][1] == starts[k][1] == sites[k][1]:
                    return False
                if not (boxes[k][1] < numbers[k][1] + numbers[k][3] and boxes[k][1] + boxes[k][3] > numbers[k][1]):
                    return False
                # The title took more than one line: the next row starts below its second line.
                if k and numbers[k][1] < numbers[k - 1][1] + 2 * numbers[k - 1][3]:
                    return False
            return starts, sites
        starts, sites = wait_for(columns, what="numbers, arrows, titles and sites in columns, titles wrapped")
        app.settled_screenshot("tables-images.png")
        view = app.page_extents()
        check(sites[0][0] + 40 < view[0] + view[2], f"the last column inside the view: {sites[0]} {view}")
        # Every character of a title is left of the site column and right of the titles' start.
        text_iface = page.queryText()
        text = app.page_text()
        for n in range(1, 6):
            start = text.index(f"Story {n} ")
            for word in titles[n - 1].split(" "):
                k = text.index(word, start)
                x, y, w, h = text_iface.getCharacterExtents(k + len(word) - 1 + n, pyatspi.DESKTOP_COORDS)
                check(starts[0][0] <= x and x + w <= sites[0][0] - 8, f"{word!r} of title {n} inside its column")
        check(not _horizontal_scrolling(app), "the page does not scroll sideways")
    finally:
        app.close()


def test_a_picture_in_a_caption_is_a_picture_over_its_table(binary):
    import pyatspi
    folder = tempfile.mkdtemp(prefix="gtkprogress-tables-caption-")
    _png(os.path.join(folder, "logo.png"), 24, 12, (30, 90, 200))
    path = os.path.join(folder, "caption.html")
    with open(path, "w") as f:
        f.write("<!DOCTYPE html><html><head><title>Caption picture</title></head><body><p>Above.</p><table border=1>"
                "<caption><img src='logo.png' width='24' height='12' alt='Logo'> Prices</caption>"
                "<tr><th>Fruit</th><th>Price</th></tr><tr><td>Apple</td><td>1.20</td></tr></table>"
                "<p>Below.</p></body></html>")
    app = App(binary, path)
    try:
        app.wait_title("Caption picture")
        app.wait_text("Below.")
        page = app.find(pyatspi.ROLE_TEXT, "Page")

        def logo():
            found = [c for c in (page[i] for i in range(page.childCount))
                     if c is not None and c.getRole() == pyatspi.ROLE_IMAGE and c.name == "Logo"]
            return found[0] if found else None
        picture = wait_for(logo, what="the caption's picture, named by its alt text")
        check("[Logo]" not in app.page_text(), f"no alt text in its place ({app.page_text()[:40]!r})")
        x, y, w, h = settled(lambda: picture.queryComponent().getExtents(pyatspi.DESKTOP_COORDS))
        check(w >= 20 and h >= 10, f"the picture at its size ({w} × {h})")
        # On the caption's line, over the table's first row. (The page's accessible text leaves out the picture's
        # U+FFFC, which its offsets count.)
        prices = _extents(app, "Prices", objects=1)
        fruit = _extents(app, "Fruit", objects=1)
        check(y < prices[1] + prices[3] and prices[1] < y + h and x < prices[0],
              f"the picture before “Prices” on its line ({(x, y, w, h)}, {prices})")
        check(y + h <= fruit[1], f"the picture over the table ({(x, y, w, h)}, {fruit})")
    finally:
        app.close()


class _CaptionSearch(PageHandler, http.server.BaseHTTPRequestHandler):
    gets = []
    page = ("<!DOCTYPE html><html><head><title>Caption search</title></head><body><p>Above.</p>"
            "<form action='/find'><table border=1><caption>Search <input name='q' value='pear'></caption>"
            "<tr><th>Fruit</th><th>Price</th></tr><tr><td>Apple</td><td>1.20</td></tr></table></form>"
            "<p>Below.</p></body></html>")

    def do_GET(self):
        _CaptionSearch.gets.append(self.path)
        self.answer(_CaptionSearch.page if self.path == "/" else "<title>Found</title><p>Found.</p>")


def test_a_field_in_a_caption_is_a_field_over_its_table_and_submits(binary):
    """A form control in a table's caption is a widget where it stands (not its text), the caption as wide as
    the field so the field starts inside the view, and Return in it sends the form."""
    import pyatspi
    _CaptionSearch.gets = []
    server = _serve(_CaptionSearch)
    app = App(binary, f"http://127.0.0.1:{server.server_address[1]}/")
    try:
        app.wait_title("Caption search")
        app.wait_text("Below.")
        fields = wait_for(lambda: _fields(app), what="the caption's field as a widget")
        check(len(fields) == 1, f"one field: {fields}")
        check("[pear" not in app.page_text(), f"no field drawn as text ({app.page_text()[:60]!r})")
        x, y, w, h = settled(lambda: fields[0].queryComponent().getExtents(pyatspi.DESKTOP_COORDS))
        page = app.page_extents()
        fruit = _extents(app, "Fruit", objects=1)
        check(x >= page[0] and x + w <= page[0] + page[2], f"the field inside the view ({(x, y, w, h)}, {page})")
        check(y + h <= fruit[1], f"the field over the table ({(x, y, w, h)}, {fruit})")
        app.settled_screenshot("tables-caption-field.png")
        app.click_screen(x + w // 2, y + h // 2)
        wait_for(lambda: fields[0].getState().contains(pyatspi.STATE_FOCUSED), what="the field focused")
        app.key("End")
        app.type("s")
        app.key("Return")
        app.wait_title("Found")
        check(_CaptionSearch.gets[-1] == "/find?q=pears", f"sent: {_CaptionSearch.gets}")
    finally:
        app.close()
        server.shutdown()


_CJK_CELLS = [
    ["東京都の人口は約千四百万人で、日本の首都として政治と経済の中心になっています。",
     "北京是中华人民共和国的首都，也是全国的政治、文化和国际交往中心，历史悠久。",
     "上海是中国最大的城市之一，位于长江入海口，是重要的经济、金融和贸易中心。",
     "大阪は関西地方の中心都市で、「天下の台所」と呼ばれ、食文化が豊かなことで知られています。"],
    ["京都には千年以上の歴史を持つ寺院や神社が数多く残り、毎年多くの観光客が訪れます。",
     "广州是华南地区的中心城市，以粤菜和对外贸易闻名，气候温暖湿润。",
     "深圳是一座年轻的城市，四十多年来从小渔村发展成为科技创新的重要基地。",
     "札幌は北海道の道庁所在地で、冬の雪まつりには国内外から大勢の人が集まります。"],
]


def test_a_table_of_chinese_and_japanese_sentences_wraps_inside_its_columns(binary):
    import pyatspi
    rows = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in _CJK_CELLS)
    with _opened(binary, "CJK", "After.",
                 "<!DOCTYPE html><html lang='ja'><head><meta charset='utf-8'><title>CJK</title></head><body>"
                 "<p>表の上の段落です。</p><table border=1><tr><th>東京</th><th>北京</th><th>上海</th><th>大阪</th></tr>"
                 f"{rows}</table><p>After.</p></body></html>") as app:
        xdotool("windowsize", app.window, 900, 700)
        wait_for(lambda: app.page_extents()[2] < 950, what=f"the page 900 px wide ({app.page_extents()})")
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()

        def wrapped():
            """Each line of the table's rows, part by part (the tab-separated pieces): every part starts at one of
            the four columns the first line sets, and no character of it reaches the next column's edge."""
            text = app.page_text()
            first = "\u200b".join(_CJK_CELLS[0][0][:3])
            if first not in text:
                return False
            start, end = text.index(first), text.index("\nAfter.")
            box = lambda k: page.getCharacterExtents(k, pyatspi.DESKTOP_COORDS)
            offset, lines, columns, boxes = start, 0, None, []
            for line in text[start:end].split("\n"):
                lines += 1
                part_offset = offset
                parts = []
                for part in line.split("\t"):
                    parts.append((part_offset, part))
                    part_offset += len(part) + 1
                offset += len(line) + 1
                if columns is None:
                    columns = [box(k)[0] for k, part in parts]
                    if len(columns) != 4 or columns != sorted(columns):
                        return False
                for k, part in parts:
                    if not part.strip("\u200b"):
                        continue
                    x0 = box(k)[0]
                    near = [c for c in range(4) if abs(columns[c] - x0) <= 1]
                    if not near:
                        return False  # a part off its column
                    column = near[0]
                    edge = columns[column + 1] if column < 3 else app.page_extents()[0] + app.page_extents()[2]
                    for j, ch in enumerate(part):
                        if ch != "\u200b":
                            x, y, w, h = box(k + j)
                            boxes.append((x, y, w, h))
                            if x + w > edge - 8:
                                return False  # a character past its column's edge
            # Two rows, each wrapped onto three lines or more.
            return lines >= 6 and boxes
        boxes = wait_for(wrapped, what="every sentence wrapped inside its column, no character past its edge")
        app.settled_screenshot("tables-cjk.png")
        check(not _horizontal_scrolling(app), "the page does not scroll sideways")
        view = app.page_extents()
        check(all(x + w <= view[0] + view[2] for x, _, w, _ in boxes), "every character in the view")
        # No line of a cell starts with a closing mark (Pango's line-break rules, not a break at any character).
        text = app.page_text()
        for line in text.split("\n"):
            for part in line.split("\t"):
                check(not part.lstrip("\u200b").startswith(("。", "、", "，", "」")), f"a line starts with {part[:2]!r}")
        # A copy of the first row's first line gives its characters without the marks the breaks are made at.
        start = text.index("\u200b".join(_CJK_CELLS[0][0][:3]))
        end = text.index("\n", start)
        check(page.addSelection(start, end), "the line selected")
        app.key("ctrl+c")
        expected = text[start:end].replace("\u200b", "")
        copied = wait_for(lambda: clipboard_text() == expected and expected,
                          what=f"the copy without marks ({clipboard_text()!r})")
        check(copied.startswith(_CJK_CELLS[0][0][:5]) and "\t" in copied, f"the line's cells apart by tabs: {copied!r}")


def _page_bar(app):
    """The page's own horizontal scroll bar (a table's area has a bar of its own, inside the page)."""
    import pyatspi
    pane = app.find(pyatspi.ROLE_TEXT, "Page").parent
    bars = [pane[i] for i in range(pane.childCount) if pane[i] is not None
            and pane[i].getRole() == pyatspi.ROLE_SCROLL_BAR and pane[i].getState().contains(pyatspi.STATE_HORIZONTAL)]
    return bars[0] if bars else None


def _page_scrolls_sideways(app):
    import pyatspi
    bar = _page_bar(app)
    if bar is None:
        return False
    value = bar.queryValue()
    return value.currentValue != 0 or (bar.getState().contains(pyatspi.STATE_SHOWING)
                                       and value.maximumValue > value.minimumValue)


def _table_area(app):
    """The scroll pane of a table shown in an area of its own, and its text, or None."""
    import pyatspi
    page = app.find(pyatspi.ROLE_TEXT, "Page")
    pane = pyatspi.findDescendant(page, lambda a: a is not None and a.getRole() == pyatspi.ROLE_SCROLL_PANE)
    if pane is None:
        return None
    text = pyatspi.findDescendant(pane, lambda a: a is not None and a.getRole() == pyatspi.ROLE_TEXT)
    bars = [pane[i] for i in range(pane.childCount) if pane[i] is not None
            and pane[i].getRole() == pyatspi.ROLE_SCROLL_BAR and pane[i].getState().contains(pyatspi.STATE_HORIZONTAL)]
    return (pane, text, bars[0] if bars else None) if text is not None else None


def test_a_table_too_wide_even_at_its_narrowest_scrolls_on_its_own(binary):
    import pyatspi
    rows = "".join("<tr>" + "".join(f"<td>Unbreakable{r}x{c}</td>" for c in range(1, 31)) + "</tr>"
                   for r in range(1, 4))
    with _opened(binary, "Thirty", "Below the table",
                 "<!DOCTYPE html><html><head><title>Thirty</title></head><body>"
                 "<p>Above the table.</p>"
                 f"<table border=1>{rows}</table><p>Below the table.</p>"
                 + "".join(f"<p>Paragraph {k} after the table.</p>" for k in range(60)) + "</body></html>") as app:
        _resize(app, 900, 700)
        x, y, w, h = app.page_extents()

        def settled_area():
            # The area is made anew when the page's width changes: the one standing inside the page.
            area = _table_area(app)
            if area is None:
                return None
            px, py, pw, ph = area[0].queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            return area if px >= x and px + pw <= x + w and py > y and ph > 20 else None
        area = wait_for(settled_area, what="the table in an area of its own, inside the page")
        pane, inner, bar = area
        check(bar is not None, "the area has a horizontal bar")
        check(inner.name == "Table", f"a screen reader reaches the table's text by its name ({inner.name!r})")
        cells = inner.queryText().getText(0, -1)
        check(cells.startswith("Unbreakable1x1\tUnbreakable1x2\t") and "Unbreakable3x30" in cells,
              f"the area holds the table's rows, cells apart by tabs ({cells[:60]!r})")
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
        # (Offsets before the table only: the page's accessible text leaves the hidden rows out, its offsets
        # count them.)
        above = page.getCharacterExtents(app.page_text().index("Above"), pyatspi.DESKTOP_COORDS)
        px, py, pw, ph = pane.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        check(0 < above[0] - x < 40, f"the paragraph above at the page's margin ({above[0] - x})")
        check(above[1] + above[3] <= py, f"the area under the paragraph ({above}, {py})")
        # The paragraph below lies under the area (found by its offset, which counts the hidden rows).
        seen = app.page_text().index("Below")
        below = next(k for k in range(seen, seen + len(cells) + 8) if page.getText(k, k + 5) == "Below")
        below = page.getCharacterExtents(below, pyatspi.DESKTOP_COORDS)
        check(below[1] >= py + ph and below[0] == above[0],
              f"the paragraph below under the area, at the same margin ({below}; {py}, {ph})")
        check(px >= x and px + pw <= x + w, f"the area inside the page ({px}, {pw}; {x}, {w})")
        check(not _page_scrolls_sideways(app), "the page does not scroll sideways")
        # The rows are one line each in the area, the cells left to right.
        text = inner.queryText()
        starts = [text.getCharacterExtents(cells.index(f"Unbreakable2x{c}"), pyatspi.DESKTOP_COORDS)
                  for c in (1, 2, 3)]
        check(len({s[1] for s in starts}) == 1 and starts[0][0] < starts[1][0] < starts[2][0],
              f"a row's cells on one line in the area ({starts})")
        # Find reaches a word of the last column: the area scrolls to it, the page does not move sideways.
        entry = app.open_find("Unbreakable2x30")
        matches = app.find_matches
        wait_for(lambda: matches() == "1 of 1", what=f"“1 of 1” for the last column's word ({matches()!r})")
        wait_for(lambda: bar.queryValue().currentValue > 0, what="the area scrolled sideways")
        word = cells.index("Unbreakable2x30")

        def shown():
            first = text.getCharacterExtents(word, pyatspi.DESKTOP_COORDS)
            last = text.getCharacterExtents(word + len("Unbreakable2x30") - 1, pyatspi.DESKTOP_COORDS)
            x, y, w, h = app.page_extents()
            return (first[0] >= px and last[0] + last[2] <= px + pw and first[1] >= y and last[1] + last[3] <= y + h)
        wait_for(shown, what="the found word on screen")
        s, e = text.getSelection(0)
        check(text.getText(s, e) == "Unbreakable2x30", f"the match selected in the area ({text.getText(s, e)!r})")
        check(page.getCharacterExtents(app.page_text().index("Above"), pyatspi.DESKTOP_COORDS)[0] == above[0],
              "the paragraph above keeps its place")
        check(not _page_scrolls_sideways(app), "the page still does not scroll sideways")
        shot = app.settled_screenshot("tables-scroll-find.png")
        # The bordered table's grid is drawn in the area: a rule between the last two columns, across a row.
        from harness import crop
        end29 = text.getCharacterExtents(cells.index("Unbreakable2x29") + 14, pyatspi.DESKTOP_COORDS)
        start30 = text.getCharacterExtents(word, pyatspi.DESKTOP_COORDS)
        gap = end29[0] + end29[2] + 2, start30[0] - 2
        rgb = crop(shot, gap[0], end29[1] + end29[3] // 2, gap[1] - gap[0], 1)
        background = tuple(rgb[0:3])
        ruled = [i // 3 for i in range(0, len(rgb), 3) if tuple(rgb[i:i + 3]) != background]
        check(0 < len(ruled) <= 2, f"one rule between the last two columns ({ruled}, {len(rgb) // 3} px)")
        # A selection dragged across two cells of the area, copied: their text, apart by a tab.
        app.key("Escape")
        wait_for(lambda: not entry.getState().contains(pyatspi.STATE_SHOWING), what="Escape closes the bar")
        first = cells.index("Unbreakable1x29")
        x0, y0, w0, h0 = settled(lambda: text.getCharacterExtents(first, pyatspi.DESKTOP_COORDS))
        x1, y1, w1, h1 = text.getCharacterExtents(first + len("Unbreakable1x29\tUnbreakable1x30") - 1,
                                                  pyatspi.DESKTOP_COORDS)
        xdotool("mousemove", x0 + 1, y0 + h0 // 2)
        xdotool("mousedown", 1)
        xdotool("mousemove", x0 + 30, y0 + h0 // 2)
        xdotool("mousemove", x1 + w1 + 1, y1 + h1 // 2)
        xdotool("mouseup", 1)
        app.sync()
        wait_for(lambda: inner.getState().contains(pyatspi.STATE_FOCUSED), what="the table's text has the keyboard")
        check(text.getText(*text.getSelection(0)) == "Unbreakable1x29\tUnbreakable1x30",
              f"the drag selects in the area ({text.getText(*text.getSelection(0))!r})")
        app.key("ctrl+c")
        wait_for(lambda: clipboard_text() == "Unbreakable1x29\tUnbreakable1x30",
                 what=f"the two cells copied from the area ({clipboard_text()!r})")
        # The mouse wheel over the area scrolls the page, not the area.
        sideways = bar.queryValue().currentValue
        for _ in range(5):
            xdotool("click", 5)
        wait_for(lambda: app.scroll_value() > 0, what="the wheel over the area scrolls the page")
        check(bar.queryValue().currentValue == sideways, "the area does not move sideways for the wheel")
        check(not _page_scrolls_sideways(app), "the page does not scroll sideways")


def test_a_table_in_its_own_area_goes_back_into_the_page_when_the_window_is_wide_enough(binary):
    import pyatspi
    rows = "".join("<tr>" + "".join(f"<td>Measurement{r}x{c}</td>" for c in range(1, 11)) + "</tr>"
                   for r in range(1, 4))
    with _opened(binary, "Ten", "Below the table",
                 "<!DOCTYPE html><html><head><title>Ten</title></head><body><p>Above the table.</p>"
                 f"<table>{rows}</table><p>Below the table.</p></body></html>") as app:
        _resize(app, 900, 700)
        wait_for(lambda: _table_area(app), what="the table in an area of its own at 900 px")
        check("Measurement1x1" not in app.page_text(), "the page's own text leaves the rows shown in the area out")
        # A copy of the page from the paragraph above to the one below takes the table's rows from its area.
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
        seen = app.page_text().index("Below")
        below = next(k for k in range(seen, seen + 600) if page.getText(k, k + 5) == "Below")
        check(page.addSelection(app.page_text().index("Above"), below + 5), "the page selected across the table")
        app.key("ctrl+c")
        rows = "\n".join("\t".join(f"Measurement{r}x{c}" for c in range(1, 11)) for r in range(1, 4))
        wait_for(lambda: clipboard_text() == f"Above the table.\n\n{rows}\n\nBelow",
                 what=f"the copy with the table's rows ({clipboard_text()!r})")
        xdotool("windowsize", app.window, 1260, 700)
        wait_for(lambda: app.page_extents()[2] > 1200, what="the page 1260 px wide")
        wait_for(lambda: _table_area(app) is None and "Measurement3x10" in app.page_text(),
                 what="the table back in the page")
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
        places = [page.getCharacterExtents(app.page_text().index(f"Measurement2x{c}"), pyatspi.DESKTOP_COORDS)
                  for c in range(1, 11)]
        check(len({p[1] for p in places}) == 1, f"a row on one line in the page ({places})")
        check(not _page_scrolls_sideways(app), "the page does not scroll sideways")
        check("Measurement1x10\nMeasurement2x1\t" in app.page_text(), "the rows' tabs and newlines are back")
        xdotool("windowsize", app.window, 900, 700)
        wait_for(lambda: _table_area(app), what="the table in its area again at 900 px")
        # Reloaded, the page is shown again from a new buffer: the old area goes with the old one (and GTK says
        # nothing about it, or the test fails at the end), and the table gets a new one.
        app.key("F5")
        wait_for(lambda: _table_area(app) and "Below the table" in app.page_text(),
                 what="the reloaded table in an area of its own")


def test_a_long_grid_too_wide_for_the_window_scrolls_on_its_own(binary):
    """A table past the cells the window measures stays the monospace grid; wider than the window, it goes into an
    area of its own instead of the page's text: the page never scrolls sideways, find and copy reach its cells."""
    import pyatspi
    rows = 700
    fd, following = tempfile.mkstemp(suffix=".html", prefix="gtkprogress-tables-next-")
    with os.fdopen(fd, "w") as f:
        f.write("<!DOCTYPE html><html><head><title>Next page</title></head><body><p>Next.</p></body></html>")

    def cell(r, c):
        return f"<a href='file://{following}'>w{r}x{c}</a>" if (r, c) == (650, 30) else f"w{r}x{c}"
    body = "".join("<tr>" + "".join(f"<td>{cell(r, c)}</td>" for c in range(1, 31)) + "</tr>" for r in range(1, rows + 1))
    with _opened(binary, "Long grid", "After the table",
                 "<!DOCTYPE html><html><head><title>Long grid</title></head><body><p>Above the table.</p>"
                 f"<table>{body}</table><p>After the table.</p></body></html>") as app:
        _resize(app, 900, 700)
        area = wait_for(lambda: _table_area(app), what="the grid in an area of its own")
        pane, inner, bar = area
        check(bar is not None, "the area has a horizontal bar")
        check(inner.name == "Table", f"a screen reader reaches the grid's text by its name ({inner.name!r})")
        cells = inner.queryText().getText(0, -1)
        check(cells.startswith("w1x1 ") and cells.rstrip().endswith(f"w{rows}x30") and cells.count("\n") == rows - 1,
              f"the area holds the grid, a line a row ({cells[:40]!r} … {cells[-40:]!r})")
        check("w1x1" not in app.page_text(), "the page's own text does not hold the grid")
        x, y, w, h = app.page_extents()
        px, py, pw, ph = pane.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        check(px >= x and px + pw <= x + w, f"the area inside the page ({px}, {pw}; {x}, {w})")
        check(not _page_scrolls_sideways(app), "the page does not scroll sideways")
        # Find reaches the last column of a row far down: the area goes to it, the page does not move sideways.
        entry = app.open_find("w650x30")
        matches = app.find_matches
        wait_for(lambda: matches() == "1 of 1", what=f"“1 of 1” for the cell ({matches()!r})")
        wait_for(lambda: bar.queryValue().currentValue > 0, what="the area scrolled sideways")
        text = inner.queryText()
        word = cells.index("w650x30")
        wait_for(lambda: text.getText(*text.getSelection(0)) == "w650x30",
                 what=f"the match selected in the area ({text.getText(*text.getSelection(0))!r})")

        def shown():
            first = text.getCharacterExtents(word, pyatspi.DESKTOP_COORDS)
            x, y, w, h = app.page_extents()
            return px <= first[0] and first[0] + first[2] <= px + pw and y <= first[1] and first[1] + first[3] <= y + h
        wait_for(shown, what="the found cell on screen")
        check(not _page_scrolls_sideways(app), "the page still does not scroll sideways")
        # Text after the grid is found too, at its place in the page.
        app.key("ctrl+a")
        app.type("After the")
        wait_for(lambda: matches() == "1 of 1", what=f"“1 of 1” for the paragraph after the grid ({matches()!r})")
        app.key("Escape")
        wait_for(lambda: not entry.getState().contains(pyatspi.STATE_SHOWING), what="Escape closes the bar")
        # A copy of the page across the grid takes the grid's lines from its area.
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
        # (The page's accessible text leaves out the area's U+FFFC, which its offsets count.)
        seen = app.page_text().index("After")
        after = next(k for k in range(seen, seen + 4) if page.getText(k, k + 5) == "After")
        # (Find left its last match, the paragraph after the grid, selected.)
        selected = page.setSelection(0, 0, after + 5) if page.getNSelections() else page.addSelection(0, after + 5)
        check(selected, "the page selected across the grid")
        app.key("ctrl+c")
        def copied_grid(copied):
            return copied.startswith("Above the table.\n") and "\nw1x1 " in copied \
                and f"\nw{rows}x1 " in copied and copied.endswith("After")
        wait_for(lambda: copied_grid(clipboard_text()),
                 what=f"the copy with the grid's lines ({clipboard_text()[:40]!r})")
        # Wider than the grid, the window shows it whole in its area, with no bar; the page still does not scroll.
        xdotool("windowsize", app.window, 1260, 700)
        wait_for(lambda: app.page_extents()[2] > 1200, what="the page 1260 px wide")
        check(_table_area(app) is not None, "the grid stays in its area")
        check(not _page_scrolls_sideways(app), "the page does not scroll sideways at 1260 px")
        # The found cell is a link, followed from the area as in the page.

        def link_shown():
            px, py, pw, ph = pane.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            first = text.getCharacterExtents(word, pyatspi.DESKTOP_COORDS)
            x, y, w, h = app.page_extents()
            inside = px <= first[0] and first[0] + first[2] <= px + pw and max(y, py) <= first[1] \
                and first[1] + first[3] <= min(y + h, py + ph)
            return first if inside else None
        first = wait_for(link_shown, what="the linked cell on screen")
        # Hovered, it shows its address, as a link in the page does (the first motion may only cross into the area).
        xdotool("mousemove", first[0] + 4, first[1] + first[3] // 2 + 1)
        app.sync()
        xdotool("mousemove", first[0] + 2, first[1] + first[3] // 2)
        app.wait_status(os.path.basename(following))
        xdotool("click", 1)
        app.wait_title("Next page")
    os.unlink(following)


def test_a_grid_that_fitted_moves_into_an_area_when_the_window_narrows(binary):
    """A grid that fits the window goes into the page's text; when the window narrows until it no longer fits, it
    moves into an area of its own (issue #28): the page never scrolls sideways for it, find reaches its cells and
    the text after it, a copy across it and its links work from the area."""
    import pyatspi
    fd, following = tempfile.mkstemp(suffix=".html", prefix="gtkprogress-tables-next-")
    with os.fdopen(fd, "w") as f:
        f.write("<!DOCTYPE html><html><head><title>Next page</title></head><body><p>Next.</p></body></html>")

    def cell(r, c):
        return f"<a href='file://{following}'>Read{r:02d}x{c}cell</a>" if (r, c) == (32, 6) else f"Read{r:02d}x{c}cell"
    # A spanning header keeps the table a monospace grid; six columns of eleven characters, about 78 in all.
    body = "<tr><th colspan=6>Spanning header</th></tr>" + "".join(
        "<tr>" + "".join(f"<td>{cell(r, c)}</td>" for c in range(1, 7)) + "</tr>" for r in range(1, 41))
    with _opened(binary, "Narrowed grid", "After the grid",
                 "<!DOCTYPE html><html><head><title>Narrowed grid</title></head><body><p>Above the grid.</p>"
                 f"<table>{body}</table><p>After the grid.</p>"
                 + "".join(f"<p>Paragraph {k} after the grid.</p>" for k in range(20)) + "</body></html>") as app:
        _resize(app, 1000, 700)
        wait_for(lambda: "Read40x6cell" in app.page_text(), what="the grid in the page's text")
        check(_table_area(app) is None, "a grid that fits goes into the page's text")
        check(not _page_scrolls_sideways(app), "the page does not scroll sideways at 1000 px")
        # (The page's scrolled window: a line that does not wrap makes the text view itself as wide as the line.
        # Asked to shrink from 1000 px below about 716 in one step, the window stops there: it is asked again.)
        pane_of_page = app.find(pyatspi.ROLE_TEXT, "Page").parent.queryComponent()

        def narrowed():
            xdotool("windowsize", app.window, 520, 700)
            app.sync()
            return pane_of_page.getExtents(pyatspi.DESKTOP_COORDS)[2] < 560
        wait_for(narrowed, interval=0.3,
                 what=f"the page about 520 px wide ({pane_of_page.getExtents(pyatspi.DESKTOP_COORDS)})")
        x, y, w, h = pane_of_page.getExtents(pyatspi.DESKTOP_COORDS)

        def settled_area():
            area = _table_area(app)
            if area is None:
                return None
            px, py, pw, ph = area[0].queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            return area if px >= x and px + pw <= x + w and ph > 20 else None
        pane, inner, bar = wait_for(settled_area, what="the grid moved into an area of its own, inside the page")
        check(bar is not None, "the area has a horizontal bar")
        check(inner.name == "Table", f"a screen reader reaches the grid's text by its name ({inner.name!r})")
        cells = inner.queryText().getText(0, -1)
        check("Spanning header" in cells and cells.rstrip().endswith("Read40x6cell") and cells.count("\n") == 40,
              f"the area holds the grid, a line a row ({cells[:40]!r} … {cells[-40:]!r})")
        check("Read01x1cell" not in app.page_text(), "the page's own text no longer shows the grid")
        wait_for(lambda: not _page_scrolls_sideways(app), what="the page not scrolling sideways at 520 px")
        # Find reaches a cell of the last column: the area goes to it, the page does not move sideways. (The find
        # bar widens the window to its own narrowest, about 716 px, where the area is about as wide as the grid.)
        entry = app.open_find("Read31x6cell")
        matches = app.find_matches
        wait_for(lambda: matches() == "1 of 1", what=f"“1 of 1” for the cell ({matches()!r})")
        text = inner.queryText()
        wait_for(lambda: text.getText(*text.getSelection(0)) == "Read31x6cell",
                 what=f"the match selected in the area ({text.getText(*text.getSelection(0))!r})")

        def cell_shown(name="Read31x6cell"):
            px, py, pw, ph = pane.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            word = cells.index(name)
            first = text.getCharacterExtents(word, pyatspi.DESKTOP_COORDS)
            last = text.getCharacterExtents(word + len(name) - 1, pyatspi.DESKTOP_COORDS)
            x, y, w, h = app.page_extents()
            inside = px <= first[0] and last[0] + last[2] <= px + pw and max(y, py) <= first[1] \
                and first[1] + first[3] <= min(y + h, py + ph)
            return first if inside else None
        wait_for(cell_shown, what="the found cell on screen")
        check(not _page_scrolls_sideways(app), "the page still does not scroll sideways")
        app.settled_screenshot("tables-grid-narrowed-find.png")
        # Text after the grid is found too, at its place in the page.
        app.key("ctrl+a")
        app.type("after the grid")
        wait_for(lambda: matches() == "1 of 21", what=f"“1 of 21” for the paragraphs after the grid ({matches()!r})")
        app.key("ctrl+a")
        app.type("Paragraph 19 after")
        wait_for(lambda: matches() == "1 of 1", what=f"“1 of 1” for the last paragraph ({matches()!r})")
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
        shown = page.getText(*page.getSelection(0)) if page.getNSelections() else ""
        check(shown == "", f"no match selected in the page's hidden text ({shown!r})")
        app.key("Escape")
        wait_for(lambda: not entry.getState().contains(pyatspi.STATE_SHOWING), what="Escape closes the bar")
        # The find left the last paragraph selected in the page, at its place.
        s, e = page.getSelection(0)
        check(page.getText(s, e) == "Paragraph 19 after", f"the match selected in the page ({page.getText(s, e)!r})")
        # A copy of the page across the grid takes the grid's lines from its area.
        seen = app.page_text().index("After the grid")
        after = next(k for k in range(seen, seen + len(cells) + 8) if page.getText(k, k + 5) == "After")
        check(page.setSelection(0, 0, after + 5), "the page selected across the grid")
        app.key("ctrl+c")
        def copied_grid(copied):
            return copied.startswith("Above the grid.\n") and "Spanning header" in copied \
                and "\nRead01x1cell " in copied and "Read40x6cell\n" in copied and copied.endswith("After")
        wait_for(lambda: copied_grid(clipboard_text()),
                 what=f"the copy with the grid's lines ({clipboard_text()[:60]!r} … {clipboard_text()[-60:]!r})")
        # The cell under the found one is a link, followed from the area as in the page.
        app.key("ctrl+f")
        wait_for(lambda: entry.getState().contains(pyatspi.STATE_FOCUSED), what="the find entry has the keyboard")
        app.key("ctrl+a")
        app.type("Read31x6cell")
        wait_for(lambda: matches() == "1 of 1", what=f"“1 of 1” for the linked cell ({matches()!r})")
        app.key("Escape")
        wait_for(lambda: cell_shown("Read32x6cell"), what="the linked cell on screen")
        # (Once the page and the area have stopped scrolling to it.)
        first = settled(lambda: cell_shown("Read32x6cell"))
        check(first, "the linked cell stays on screen")
        xdotool("mousemove", first[0] + 2, first[1] + first[3] // 2)
        xdotool("click", 1)
        app.wait_title("Next page")
    os.unlink(following)


def test_a_table_area_is_as_tall_as_its_rows_with_raised_text(binary):
    import pyatspi
    rows = "".join("<tr>" + "".join(f"<td>Power{r}x{c}<sup>2</sup></td>" for c in range(1, 31)) + "</tr>"
                   for r in range(1, 7))
    with _opened(binary, "Raised", "Below the table",
                 "<!DOCTYPE html><html><head><title>Raised</title></head><body><p>Above the table.</p>"
                 f"<table border=1>{rows}</table><p>Below the table.</p></body></html>") as app:
        _resize(app, 900, 700)

        def whole():
            # The last row's text inside the area, above its bar, and the paragraph below under the area.
            area = _table_area(app)
            if area is None or area[2] is None:
                return False
            pane, inner, bar = area
            px, py, pw, ph = pane.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            bx, by, bw, bh = bar.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            text = inner.queryText()
            cells = text.getText(0, -1)
            last = text.getCharacterExtents(cells.index("Power6x1"), pyatspi.DESKTOP_COORDS)
            return py < last[1] and last[1] + last[3] <= by and by + bh <= py + ph
        wait_for(whole, what="the last row of raised text whole inside the area, above its bar")
        app.settled_screenshot("tables-scroll-raised.png")


def test_a_caption_is_centred_over_its_table_and_wraps_at_its_width(binary):
    """CSS 2.1 § 17.4: the caption box is as wide as the table. A short caption sits centred over its table (not
    at the window's left, not in the middle of the window); a long one wraps at the table's width."""
    import pyatspi
    with _opened(binary, "Captions", "After the tables",
                 "<!DOCTYPE html><html><head><title>Captions</title></head><body><p>Before the tables.</p>"
                 "<table border=1><caption>Shops</caption><tr><th>Shop</th><th>First quarter</th>"
                 "<th>Second quarter</th></tr><tr><td>North branch</td><td>12 units</td><td>14 units</td></tr>"
                 "</table><p>Between the tables.</p>"
                 "<table><caption>Quarterly figures for the three shops of the company</caption>"
                 "<tr><td>Ann</td><td>12</td></tr><tr><td>Bob</td><td>9</td></tr></table>"
                 "<p>After the tables.</p></body></html>") as app:
        xdotool("windowsize", app.window, 1200, 700)
        wait_for(lambda: app.page_extents()[2] > 1100, what=f"the page 1200 px wide ({app.page_extents()})")
        page = app.find(pyatspi.ROLE_TEXT, "Page").queryText()

        def box(fragment):
            """Screen x of the fragment's first character's left and last character's right edge, and its y."""
            text = app.page_text()
            start = text.index(fragment)
            first = page.getCharacterExtents(start, pyatspi.DESKTOP_COORDS)
            last = page.getCharacterExtents(start + len(fragment) - 1, pyatspi.DESKTOP_COORDS)
            return first[0], last[0] + last[2], first[1], last[1]

        seen = {}

        def placed():
            # The header cells are centred in columns as wide as they are: the table's edges are as far left of
            # "North branch" as right of "Second quarter".
            caption, north, fourteen = box("Shops"), box("North branch"), box("Second quarter")
            long_first, long_last, ann = box("Quarterly"), box("company"), box("Ann")
            seen.update(caption=caption, north=north, fourteen=fourteen, quarterly=long_first, company=long_last,
                        ann=ann)
            table_centre = (north[0] + fourteen[1]) / 2
            good = (abs((caption[0] + caption[1]) / 2 - table_centre) <= 16 and caption[0] > north[0] + 40
                    and long_last[3] > long_first[2] and long_first[0] >= ann[0] - 16
                    and long_first[1] < 600)
            return (caption, north, fourteen, long_first, long_last, ann) if good else None
        try:
            found = wait_for(placed, what="each caption over its own table, centred on it and wrapped at its width")
        except Failure as failure:
            raise Failure(f"{failure} (left, right, first y, last y: {seen})")
        caption, north, fourteen, long_first, _, _ = found
        page_left, _, page_width, _ = app.page_extents()
        check(abs((caption[0] + caption[1]) / 2 - (page_left + page_width / 2)) > 100,
              f"the caption is not centred on the window ({caption}, page from {page_left}, {page_width} wide)")
        app.settled_screenshot("tables-captions.png")


class _LayoutRecorder(PageHandler, http.server.BaseHTTPRequestHandler):
    """Serves a page laid out in a table (a menu column with a logo and a search field beside the article), and
    notes the searches."""
    searches = []

    def do_GET(self):
        if self.path == "/logo.png":
            with open(_LayoutRecorder.logo, "rb") as f:
                self.answer_bytes(f.read(), "image/png")
        elif self.path.startswith("/search"):
            _LayoutRecorder.searches.append(self.path)
            self.answer("<title>Results</title><p>Results.</p>")
        else:
            self.answer("<!DOCTYPE html><html><head><title>Layout</title></head><body><table><tr><td>"
                        "<img src='/logo.png' width='60' height='30' alt='Library logo'>"
                        "<table><tr><td><b>Search</b></td></tr><tr><td><form action='/search'>"
                        "<input name='q' size='12'></form></td></tr></table><p>Menu</p></td>"
                        "<td><h1>The library</h1><p>An article laid out beside its menu column.</p></td></tr>"
                        "</table><p>After the layout.</p></body></html>")


def test_a_table_laying_out_a_page_keeps_its_pictures_and_fields(binary):
    """A table holding a page's layout reads as flowing text; its logo is a picture and the search field of the
    menu table inside it a field that submits, as Dillo and NetSurf show them, not `[Library logo]` and
    `[          ]`."""
    import pyatspi
    folder = tempfile.mkdtemp(prefix="gtkprogress-tables-layout-")
    _LayoutRecorder.logo = os.path.join(folder, "logo.png")
    _png(_LayoutRecorder.logo, 60, 30, (30, 90, 200))
    _LayoutRecorder.searches = []
    server = _serve(_LayoutRecorder)
    app = App(binary, f"http://127.0.0.1:{server.server_address[1]}/")
    try:
        app.wait_title("Layout")
        app.wait_text("After the layout")
        check("[Library logo]" not in app.page_text(), f"the logo is not its alt text: {app.page_text()!r}")
        page = app.find(pyatspi.ROLE_TEXT, "Page")

        def logo():
            images = [c for c in (page[i] for i in range(page.childCount))
                      if c is not None and c.getRole() == pyatspi.ROLE_IMAGE and c.name == "Library logo"]
            if len(images) != 1:
                return None
            x, y, w, h = images[0].queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            return (x, y, w, h) if (w, h) == (60, 30) else None
        box = wait_for(logo, what="the logo as a 60 × 30 picture")
        heading = _extents(app, "The library", objects=2)
        check(box[1] < heading[1], f"the logo comes before the article ({box}, {heading})")
        fields = wait_for(lambda: _fields(app) or None, what="the search field as a field")
        check(len(fields) == 1, f"one field: {fields}")
        app.settled_screenshot("tables-layout.png")
        x, y, w, h = fields[0].queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        app.click_screen(x + w // 2, y + h // 2)
        wait_for(lambda: fields[0].getState().contains(pyatspi.STATE_FOCUSED), what="the search field focused")
        app.type("gumbo")
        app.key("Return")
        app.wait_title("Results")
        check(_LayoutRecorder.searches == ["/search?q=gumbo"], f"searched: {_LayoutRecorder.searches}")
    finally:
        app.close()
        server.shutdown()
