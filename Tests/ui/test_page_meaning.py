"""Inline meaning drawn as such: deleted text struck through, inserted text underlined, subscripts below and
superscripts above the line, code on a tint. Read from screenshots, pixel by pixel."""

import os
import tempfile

from harness import App, check, colours, crop


PAGE = """<!DOCTYPE html><html><head><title>Meaning</title></head><body>
<p>plain <del>gone</del> <ins>added</ins> H<sub>2</sub>O x<sup>2</sup> <code>code</code> tail</p>
<pre>block of code</pre>
</body></html>"""


def _extents(text, index):
    import pyatspi
    return text.getCharacterExtents(index, pyatspi.DESKTOP_COORDS)


def _word_box(app, word):
    """Screen rectangle (x, y, w, h) over the characters of the first `word` in the page."""
    import pyatspi
    text = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
    whole = text.getText(0, -1)
    start = whole.index(word)
    x0, y0, w0, h0 = _extents(text, start)
    x1, y1, w1, h1 = _extents(text, start + len(word) - 1)
    return x0, min(y0, y1), x1 + w1 - x0, max(y0 + h0, y1 + h1) - min(y0, y1)


def _dark_rows(path, box, background):
    """For each row of `box` in the screenshot, the share of its pixels that are not the background."""
    x, y, w, h = box
    rgb = crop(path, x, y, w, h)
    rows = []
    for r in range(h):
        row = rgb[r * w * 3:(r + 1) * w * 3]
        ink = sum(1 for i in range(0, len(row), 3) if tuple(row[i:i + 3]) != background)
        rows.append(ink / max(w, 1))
    return rows


def _ink_bounds(path, box, background):
    """Top and bottom rows (screen y) of the pixels in `box` that are not the background."""
    x, y, w, h = box
    rgb = crop(path, x, y, w, h)
    lines = [r for r in range(h)
             if any(tuple(rgb[(r * w + c) * 3:(r * w + c) * 3 + 3]) != background for c in range(w))]
    check(lines, f"ink in {box}")
    return y + lines[0], y + lines[-1]


def test_edits_and_shifts_are_drawn_as_such(binary):
    fd, path = tempfile.mkstemp(suffix=".html", prefix="gtkprogress-meaning-")
    with os.fdopen(fd, "w") as f:
        f.write(PAGE)
    app = App(binary, path)
    try:
        app.wait_title("Meaning")
        app.wait_text("block of code")
        shot = app.settled_screenshot("meaning.png")
        plain = _word_box(app, "plain")
        background = max(colours(crop(shot, plain[0], plain[1] - 8, plain[2], 4)).items(), key=lambda kv: kv[1])[0]

        # A strike-through is a row of ink across the whole word near its middle; plain letters leave gaps
        # in every row.
        def full_rows(word):
            box = _word_box(app, word)
            rows = _dark_rows(shot, box, background)
            return [i / len(rows) for i, share in enumerate(rows) if share > 0.95]
        check(not full_rows("plain"), f"plain text has no line through it ({full_rows('plain')})")
        struck = full_rows("gone")
        check(any(0.3 < at < 0.65 for at in struck), f"deleted text is struck through its middle ({struck})")
        under = full_rows("added")
        # The character box runs from the line's top to below its descenders; the underline sits under the
        # baseline, at about three quarters of it.
        check(under and all(at >= 0.7 for at in under), f"inserted text is underlined, not struck ({under})")

        # Sub- and superscripts: the digit's ink ends below, or starts above, the H's and the x's.
        h = _word_box(app, "H")
        h_top, h_bottom = _ink_bounds(shot, (h[0], h[1] - 6, h[2], h[3] + 12), background)
        import pyatspi
        text = app.find(pyatspi.ROLE_TEXT, "Page").queryText()
        whole = text.getText(0, -1)
        bx, _, bw, _ = _extents(text, whole.index("H2O") + 1)
        sub_top, sub_bottom = _ink_bounds(shot, (bx, h[1] - 6, bw, h[3] + 12), background)
        check(sub_bottom > h_bottom + 1, f"the subscript reaches below the line ({sub_bottom} > {h_bottom})")
        check(sub_top > h_top + 1, f"the subscript starts below the capital's top ({sub_top} > {h_top})")
        x_index = whole.index("x2")
        xx, _, xw, _ = _extents(text, x_index)
        sx, _, sw, _ = _extents(text, x_index + 1)
        x_top, x_bottom = _ink_bounds(shot, (xx, h[1] - 6, xw, h[3] + 12), background)
        sup_top, sup_bottom = _ink_bounds(shot, (sx, h[1] - 6, sw, h[3] + 12), background)
        check(sup_top < x_top - 1 and sup_top < h_top, f"the superscript rises above the line ({sup_top}, {x_top})")
        check(sup_bottom < x_bottom - 1, f"the superscript sits above the baseline ({sup_bottom} < {x_bottom})")

        # Code, in a line and in a block, is on a tint: a colour near the background but not it.
        code = _word_box(app, "code")
        tint = max(colours(crop(shot, code[0], code[1] + 1, 2, code[3] - 2)).items(), key=lambda kv: kv[1])[0]
        check(tint != background and all(abs(a - b) < 40 for a, b in zip(tint, background)),
              f"inline code is on a tint ({tint} on {background})")
        block = _word_box(app, "block of code")
        band = colours(crop(shot, block[0] + block[2] + 20, block[1] + 2, 40, block[3] - 4))
        check(list(band) == [tint], f"the code block's band, right of its text, is the tint ({band})")
    finally:
        app.close()
        os.unlink(path)
