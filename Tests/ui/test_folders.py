"""A `file:` folder is listed (name, size, date; folders first, `..` to go up) in the window and by --dump."""

import os
import shutil
import subprocess
import tempfile

from harness import App, check, wait_for


def make_folder():
    root = tempfile.mkdtemp(prefix="gtkprogress-folder-")
    os.mkdir(os.path.join(root, "zeta folder"))
    os.mkdir(os.path.join(root, "Alpha"))
    with open(os.path.join(root, "beta.txt"), "w") as f:
        f.write("x" * 2048)
    with open(os.path.join(root, "page.html"), "w") as f:
        f.write("<title>Inside</title><p>A page in the folder.")
    return root


def test_a_folder_is_listed_in_the_window_and_its_entries_open(binary):
    root = make_folder()
    app = App(binary, "--new-session", root)
    try:
        app.wait_title(f"Index of {root}")
        text = app.wait_text("page.html")
        text = app.page_text()
        order = [text.index(name) for name in ("..", "Alpha/", "zeta folder/", "beta.txt", "page.html")]
        check(order == sorted(order), f"'..', then folders, then files, by name: {text!r}")
        check("2.0 KB" in text, f"the file's size: {text!r}")
        app.screenshot("folder-listing.png")
        # Follow a file, come back, then go up with '..'.
        app.key("ctrl+l")
        app.type(os.path.join(root, "page.html") + "\n")
        app.wait_title("Inside")
        app.key("alt+Left")
        app.wait_title(f"Index of {root}")
        app.focus()
        app.key("Tab", "Return")
        app.wait_title(f"Index of {os.path.dirname(root)}")
    finally:
        app.close()
        shutil.rmtree(root, ignore_errors=True)


def test_dump_lists_a_folder(binary):
    root = make_folder()
    try:
        result = subprocess.run([binary, "--dump", root, "--width", "100"], capture_output=True, text=True, timeout=30)
        check(result.returncode == 0, f"--dump of a folder succeeds: {result}")
        out = result.stdout
        check(f"Index of {root}" in out, out)
        order = [out.index(name) for name in ("Alpha/", "zeta folder/", "beta.txt", "page.html")]
        check(order == sorted(order), f"folders first, then files: {out}")
        check("file://" + root + "/page.html" in out, f"the links listed: {out}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
