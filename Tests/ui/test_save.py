"""Content that is not a page is described, not shown as text, and Ctrl+S saves it through the save dialog."""

import os
import tempfile

from harness import App, Server, check, wait_for, xdotool


def test_binary_content_is_described_and_saved(binary):
    server = Server()
    folder = tempfile.mkdtemp(prefix="gtkprogress-save-")
    target = os.path.join(folder, "saved.png")
    app = App(binary, server.url("/binary?size=4096&type=image/png"))
    try:
        app.wait_text("This file is not a page")
        text = app.page_text()
        check("image/png" in text and "4.0 KB" in text, f"the page says what it is and how large: {text!r}")
        check("\x89PNG" not in text, "the bytes are not shown as text")
        app.key("ctrl+s")
        dialog = wait_for(lambda: xdotool("search", "--onlyvisible", "--name", "^Save File$", check_rc=False),
                          timeout=15, what="the save dialog").split()[0]
        xdotool("windowfocus", "--sync", dialog, check_rc=False)
        import pyatspi
        # The dialog's name field (GtkFileChooserWidget's "Name" entry) has the keyboard before anything is typed.
        name = wait_for(lambda: pyatspi.findDescendant(app.accessible(), lambda a: a is not None
                                                       and a.getRole() == pyatspi.ROLE_TEXT
                                                       and a.getState().contains(pyatspi.STATE_FOCUSED)),
                        what="the save dialog's name field focused")
        xdotool("key", "--window", dialog, "ctrl+a")
        xdotool("type", "--window", dialog, "--delay", "5", target)
        wait_for(lambda: name.queryText().getText(0, -1) == target,
                 what=f"the name typed ({name.queryText().getText(0, -1)!r})")
        xdotool("key", "--window", dialog, "Return")
        wait_for(lambda: os.path.exists(target) and os.path.getsize(target) == 4096, timeout=15,
                 what="the saved file")
        with open(target, "rb") as f:
            check(f.read(8) == b"\x89PNG\r\n\x1a\n", "the file holds the bytes that were sent")
        app.wait_status("Saved 4.0 KB")
    finally:
        app.close()
        server.stop()
