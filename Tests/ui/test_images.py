"""A page's images in the window: their pixels on screen where the page put them, and a bar that finishes only
when the last image is in, not when the HTML is."""

import os
import time
from urllib.parse import quote

from harness import App, Server, check, crop, wait_for


def image_page(server, title, body):
    return server.url(f"/page?title={quote(title)}&body={quote(body)}")


def picture_box(app, name, rgb, tolerance=40):
    """A screenshot of the page, and the screen rectangle covered by pixels within `tolerance` of `rgb` on every
    channel, with how many there are (None when there is none). The accessible text leaves pictures out, so the
    picture is found by its colour."""
    path = app.screenshot(name)
    x, y, w, h = app.page_extents()
    rgb_bytes = crop(path, x, y, w, h)
    found = 0
    left = top = 10 ** 9
    right = bottom = -1
    for i in range(0, len(rgb_bytes) - 2, 3):
        if all(abs(rgb_bytes[i + k] - rgb[k]) <= tolerance for k in range(3)):
            found += 1
            px, py = (i // 3) % w, (i // 3) // w
            left, right, top, bottom = min(left, px), max(right, px), min(top, py), max(bottom, py)
    if not found:
        return None
    return (x + left, y + top, right - left + 1, bottom - top + 1), found


def test_an_image_shows_its_pixels_where_it_stands(binary):
    server = Server()
    body = ('<p>Before the picture.</p><p><img src="/image?w=120&amp;h=80&amp;color=00c000" width="120" '
            'height="80" alt="A green field"></p><p>After the picture.</p>')
    app = App(binary, image_page(server, "Pictures", body))
    try:
        app.wait_title("Pictures")
        app.wait_status("Done")
        check(server.count("/image") == 1, "the image was asked for once")
        box = picture_box(app, "images-green.png", (0, 192, 0))
        check(box is not None, "the picture's pixels are on screen")
        (x, y, w, h), count = box
        check((w, h) == (120, 80) and count == 120 * 80, f"all of it, at its declared size: {w} x {h}, {count}")
        before = app.text_position("Before the picture.")
        after = app.text_position("After the picture.")
        check(before[1] < y and y + h < after[1], f"between the paragraphs around it: {before} {(x, y, w, h)} {after}")
        check("A green field" not in app.page_text(), "the alt text gives way to the picture")
    finally:
        app.close()
        server.stop()


def test_the_bar_finishes_only_after_a_slow_image_arrives(binary):
    import pyatspi
    server = Server()
    body = ('<p>The text comes first.</p><p><img src="/image?w=90&amp;h=60&amp;color=c00000&amp;delay=3" '
            'width="90" height="60" alt="Late"></p>')
    app = App(binary, server.url("/page?title=Start"))
    try:
        app.wait_title("Start")
        app.key("ctrl+l")
        app.type(image_page(server, "Slow picture", body) + "\n")
        app.wait_text("The text comes first.")
        bar = app.find(pyatspi.ROLE_PROGRESS_BAR, "Page load progress")
        samples = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                status = app.status()
                showing = bar.getState().contains(pyatspi.STATE_SHOWING)
                samples.append((time.monotonic(), status, bar.queryValue().currentValue, showing))
            except Exception:
                pass
            if "Done" in status and not showing:
                break
            time.sleep(0.1)
        waiting = [s for s in samples if "Images 0 of 1" in s[1]]
        check(len(waiting) >= 10, f"the status counts the image while it loads: {[s[1] for s in samples[:5]]}")
        check(all(showing and value < 1.0 for _, _, value, showing in waiting),
              f"while the image loads the bar is under way, not full: {[(round(v, 3), s) for _, _, v, s in waiting]}")
        done = [s for s in samples if "Done" in s[1]]
        check(done, "the load ends when the image is in")
        check(all(t > waiting[-1][0] for t, _, _, _ in done), "and only then")
        check(waiting[-1][0] - waiting[0][0] >= 1.5, "the text was on screen long before the image")
        box = picture_box(app, "images-slow.png", (192, 0, 0))
        check(box is not None and box[1] == 90 * 60, f"the late image is on screen, whole: {box}")
        check(app.button_sensitive("Reload"), "Stop has turned back into Reload")
    finally:
        app.close()
        server.stop()


def test_lazy_images_load_only_when_the_reader_nears_them(binary):
    server = Server()
    app = App(binary, server.url("/images?count=300&lazy=1&delay=0&title=Lazy"))
    try:
        app.wait_title("Lazy")
        app.wait_status("Done")
        first = server.count("/image")
        check(0 < first < 300, f"only the images near the view are asked for: {first} of 300")
        app.click(200, 300)
        app.key("ctrl+End")
        wait_for(lambda: server.count("/image") > first, what="the images at the end, once the reader is there")
        check(server.count("/image") < 300, f"not those in between: {server.count('/image')}")
        check(app.scroll_value() > 0, "the reader is at the end")
    finally:
        app.close()
        server.stop()


def test_the_line_at_the_top_stays_when_an_image_above_it_arrives(binary):
    """GtkTextView keeps its first visible paragraph where it is when lines above it change (its
    first_para_mark, gtk/gtktextview.c): a picture arriving above the reader must not undo that."""
    server = Server()
    paragraphs = "".join(f"<p>Paragraph {n} of the page, to read while the picture comes.</p>" for n in range(80))
    # No declared size: its place is one pixel until it arrives, 300 pixels tall.
    body = '<p><img src="/image?w=200&amp;h=300&amp;color=0000c0&amp;delay=3" alt="Tall"></p>' + paragraphs
    app = App(binary, image_page(server, "Tall picture", body))
    try:
        app.wait_title("Tall picture")
        app.wait_text("Paragraph 79")
        app.click(300, 400)
        for _ in range(3):
            app.key("Page_Down")
        time.sleep(0.5)
        top = app.scroll_value()
        check(top > 0, "the reader has scrolled down")
        marker = next(f"Paragraph {n} " for n in range(80)
                      if 120 < app.text_position(f"Paragraph {n} ")[1] < 900)
        before = app.text_position(marker)
        app.wait_status("Done", timeout=15)
        time.sleep(0.5)
        after = app.text_position(marker)
        # GTK keeps the paragraph, not always the pixel: within a line of where it was, where the picture's
        # arrival would have pushed it 299 pixels down.
        check(abs(after[1] - before[1]) < 20,
              f"{marker!r} stays where the reader had it: {before} then {after}")
    finally:
        app.close()
        server.stop()


FORMATS = [("gif", (0, 0, 192)), ("webp", (192, 0, 192)), ("avif", (0, 192, 192)), ("svg", (192, 128, 0))]


def test_each_format_the_loaders_read_shows_its_pixels(binary):
    """GIF, WebP, AVIF and SVG through Debian's gdk-pixbuf loaders (scripts/install-deps.sh installs them), each
    80 x 60 of its own colour, at the size the page gives it."""
    server = Server()
    body = "".join(f'<p>{name}: <img src="/image?format={name}" width="80" height="60" alt="{name} picture"></p>'
                   for name, _ in FORMATS)
    app = App(binary, image_page(server, "Formats", body))
    try:
        app.wait_title("Formats")
        app.wait_status("Done")
        for name, rgb in FORMATS:
            box = picture_box(app, f"images-{name}.png", rgb, tolerance=24)
            check(box is not None, f"the {name} picture's pixels are on screen")
            (x, y, w, h), count = box
            check((w, h) == (80, 60) and count >= 80 * 60 * 0.95, f"{name}: all of it, 80 x 60: {w} x {h}, {count}")
            check(f"{name} picture" not in app.page_text(), f"{name}: the alt text gives way to the picture")
    finally:
        app.close()
        server.stop()


def alt_frame(app, text):
    """Whether the framed alt text `text` stands in the page (a label inside the text view)."""
    import pyatspi
    from harness import _walk
    return any(a.getRole() == pyatspi.ROLE_LABEL and a.name == text and a.getState().contains(pyatspi.STATE_SHOWING)
               for a in _walk(app.accessible()))


def test_images_turned_off_show_alt_text_and_the_choice_survives_a_restart(binary):
    """`--no-images` fetches no image and shows alt text; the page's menu turns images on and off, and the
    window's choice comes back with the session."""
    import tempfile
    import shutil
    import pyatspi
    from harness import _walk

    def show_images_item():
        return next((a for a in _walk(app.accessible()) if a.getRole() == pyatspi.ROLE_CHECK_MENU_ITEM
                     and a.name == "Show Images" and a.getState().contains(pyatspi.STATE_SHOWING)), None)

    def choose_show_images(expect_checked):
        item = wait_for(show_images_item, what="the page's menu with its Show Images check item")
        checked = item.getState().contains(pyatspi.STATE_CHECKED)
        check(checked == expect_checked, f"Show Images is {'checked' if checked else 'unchecked'}")
        x, y, w, h = item.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        app.click_screen(x + w // 2, y + h // 2)
        wait_for(lambda: show_images_item() is None, what="the menu closes")
    server = Server()
    body = ('<p>Before the picture.</p><p><img src="/image?w=120&amp;h=80&amp;color=00c000" width="120" '
            'height="80" alt="A green field"></p><p>After the picture.</p>')
    url = image_page(server, "Pictures", body)
    state = tempfile.mkdtemp(prefix="gtkprogress-state-")
    app = App(binary, "--no-images", url, state_home=state)
    try:
        app.wait_title("Pictures")
        app.wait_status("Done")
        check(server.count("/image") == 0, "with --no-images no image is asked for")
        check(picture_box(app, "images-off.png", (0, 192, 0)) is None, "and no picture is on screen")
        wait_for(lambda: alt_frame(app, "A green field"), what="the alt text in its place")
        # The page's menu turns them on.
        x, y = app.text_position("After the picture.")
        app.click_screen(x + 300, y, button=3)
        choose_show_images(expect_checked=False)
        wait_for(lambda: picture_box(app, "images-on.png", (0, 192, 0)) is not None, what="the picture, once on")
        check(server.count("/image") == 1, "asked for once")
        # And off again: the alt text is back, and the window keeps that.
        app.click_screen(x + 300, y, button=3)
        choose_show_images(expect_checked=True)
        wait_for(lambda: alt_frame(app, "A green field"), what="the alt text, once off again")
        check(picture_box(app, "images-off-again.png", (0, 192, 0)) is None, "the picture has gone")
        wait_for(lambda: os.path.exists(app.session_path) and '"images" : false' in open(app.session_path).read(),
                 what="the session keeps the window's choice")
    finally:
        app.close()
    server.reset_counts()
    app = App(binary, state_home=state)
    try:
        app.wait_title("Pictures")
        app.wait_status("Done")
        wait_for(lambda: alt_frame(app, "A green field"), what="restored with images off: the alt text")
        check(server.count("/image") == 0, "and no image asked for")
    finally:
        app.close()
        server.stop()
        shutil.rmtree(state, ignore_errors=True)


def test_an_animated_gif_plays_and_holds_still_with_animations_off(binary):
    """Tests/Fixtures/images/animated.gif: a blue frame then a yellow one, 0.2 s each, looping."""
    import tempfile
    import shutil
    server = Server()
    body = '<p>Animated:</p><p><img src="/image?format=animated" width="80" height="60" alt="Blinking"></p>'
    blue, yellow = (0, 0, 192), (192, 192, 0)

    def frames_seen(app, name, shots=12):
        """Screenshots 0.13 s apart (out of step with the 0.2 s frames), looked at afterwards."""
        paths = []
        for k in range(shots):
            paths.append(app.screenshot(f"{name}-{k}.png"))
            time.sleep(0.13)
        # Only the strip under "Animated:", where the picture stands.
        left, top = app.text_position("Animated:")
        x, y, w, h = max(left - 20, 0), top, 300, 160
        seen = set()
        for path in paths:
            rgb_bytes = crop(path, x, y, w, h)
            for label, rgb in (("blue", blue), ("yellow", yellow)):
                count = sum(1 for i in range(0, len(rgb_bytes) - 2, 3)
                            if all(abs(rgb_bytes[i + c] - rgb[c]) <= 24 for c in range(3)))
                if count >= 80 * 60 * 0.95:
                    seen.add(label)
        return seen

    app = App(binary, image_page(server, "Animated", body))
    try:
        app.wait_title("Animated")
        app.wait_status("Done")
        seen = frames_seen(app, "animated")
        check(seen == {"blue", "yellow"}, f"both frames are shown in turn: {sorted(seen)}")
    finally:
        app.close()
    config = tempfile.mkdtemp(prefix="gtkprogress-config-")
    os.makedirs(os.path.join(config, "gtk-3.0"))
    with open(os.path.join(config, "gtk-3.0", "settings.ini"), "w") as f:
        f.write("[Settings]\ngtk-enable-animations=false\n")
    app = App(binary, image_page(server, "Animated", body), env={"XDG_CONFIG_HOME": config})
    try:
        app.wait_title("Animated")
        app.wait_status("Done")
        seen = frames_seen(app, "still")
        check(seen == {"blue"}, f"with animations off only the first frame shows: {sorted(seen)}")
    finally:
        app.close()
        server.stop()
        shutil.rmtree(config, ignore_errors=True)


def test_a_screen_reader_reaches_each_picture_by_its_alt_text_and_a_picture_link_by_tab(binary):
    """Each picture is an accessible of role image, named by its alt text, where the picture is on screen; a
    picture inside a link is a Tab stop announced by that alt text, followed with Return or a click."""
    import pyatspi
    server = Server()
    body = ('<p>Intro.</p><p><img src="/image?w=60&amp;h=40&amp;color=c00000" width="60" height="40" '
            'alt="A red flag"></p><p><a href="/page?title=Linked+target"><img '
            'src="/image?w=50&amp;h=50&amp;color=0000c0" width="50" height="50" alt="Go to the target"></a></p>'
            '<p>The end.</p>')
    app = App(binary, image_page(server, "Named pictures", body))
    try:
        app.wait_title("Named pictures")
        app.wait_status("Done")
        page = app.find(pyatspi.ROLE_TEXT, "Page")

        def pictures():
            return {c.name: c for c in (page[i] for i in range(page.childCount))
                    if c is not None and c.getRole() == pyatspi.ROLE_IMAGE}
        named = wait_for(lambda: len(pictures()) == 2 and pictures(), what="two pictures among the page's children")
        check(set(named) == {"A red flag", "Go to the target"}, f"named by their alt text: {sorted(named)}")
        (px, py, pw, ph), _ = picture_box(app, "named-red.png", (192, 0, 0))
        ex, ey, ew, eh = named["A red flag"].queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        check((ex, ey, ew, eh) == (px, py, pw, ph), f"the accessible is where the picture is: {(ex, ey, ew, eh)} "
              f"vs {(px, py, pw, ph)}")

        wait_for(lambda: page.getState().contains(pyatspi.STATE_FOCUSED), what="the page has the keyboard")
        app.key("Tab")
        wait_for(lambda: app.page_description().startswith("Link: Go to the target, http"),
                 what=f"Tab reaches the picture link, announced by its alt text ({app.page_description()!r})")
        app.key("Return")
        app.wait_title("Linked target")

        app.key("alt+Left")
        app.wait_title("Named pictures")
        app.wait_status("Done")
        box = wait_for(lambda: picture_box(app, "named-blue.png", (0, 0, 192)), what="the linked picture")
        (bx, by, bw, bh), _ = box
        app.click_screen(bx + bw // 2, by + bh // 2)
        app.wait_title("Linked target")
    finally:
        app.close()
        server.stop()


def test_pictures_are_sharp_at_scale_2(binary):
    """With GDK_SCALE=2, a picture of 64 × 64 pixels shown as 32 × 32 (logical) covers 64 × 64 device pixels,
    one picture pixel each: its 1-pixel checkerboard of red and blue stays a checkerboard of single device pixels
    (decoded at the page's size it would be 32 × 32 pixels of purple, each drawn as 2 × 2)."""
    server = Server()
    body = ('<p>Checker:</p><p><img src="/image?w=64&amp;h=64&amp;color=ff0000&amp;color2=0000ff&amp;checker=1" '
            'width="32" height="32" alt="Checkerboard"></p>')
    app = App(binary, image_page(server, "Sharp", body), env={"GDK_SCALE": "2"})
    try:
        app.wait_title("Sharp")
        app.wait_status("Done")
        path = app.screenshot("sharp.png")
        width, height = 1280, 1024
        rgb = crop(path, 0, 0, width, height)

        def near(i, colour):
            return all(abs(rgb[i + k] - colour[k]) <= 8 for k in range(3))
        red, blue = (255, 0, 0), (0, 0, 255)
        cells = [(i // 3) % width for i in range(0, len(rgb) - 2, 3) if near(i, red) or near(i, blue)]
        rows = [(i // 3) // width for i in range(0, len(rgb) - 2, 3) if near(i, red) or near(i, blue)]
        check(cells, "the picture's red and blue pixels are on screen")
        left, right, top, bottom = min(cells), max(cells), min(rows), max(rows)
        check((right - left + 1, bottom - top + 1) == (64, 64),
              f"64 x 64 device pixels for 32 x 32 logical ones: {right - left + 1} x {bottom - top + 1}")
        alternating = 0
        for y in range(top, bottom + 1):
            for x in range(left, right):
                i, j = (y * width + x) * 3, (y * width + x + 1) * 3
                if (near(i, red) and near(j, blue)) or (near(i, blue) and near(j, red)):
                    alternating += 1
        check(alternating == 64 * 63, f"every device pixel differs from its neighbour: {alternating} of {64 * 63}")
    finally:
        app.close()
        server.stop()
