"""The desktop entry and AppStream metainfo: installed with `make install`, valid, and launching the app with a URL."""

import os
import shutil
import subprocess
import tempfile
from urllib.parse import quote

from harness import ROOT, Server, check, wait_for, xdotool


def test_installed_desktop_entry_launches_with_a_url(binary):
    prefix = tempfile.mkdtemp(prefix="gtkprogress-prefix-")
    server = Server()
    try:
        subprocess.run(["make", "-s", "-C", ROOT, "install-files", f"PREFIX={prefix}", f"BIN={binary}"], check=True)
        desktop = os.path.join(prefix, "share/applications/org.gtkprogress.Viewer.desktop")
        for path in ("bin/gtkprogress", "share/gtkprogress/welcome.html", "share/gtkprogress/curves/wechat.json",
                     "share/icons/hicolor/scalable/apps/org.gtkprogress.Viewer.svg",
                     "share/metainfo/org.gtkprogress.Viewer.metainfo.xml"):
            check(os.path.exists(os.path.join(prefix, path)), f"{path} is installed")
        result = subprocess.run(["desktop-file-validate", desktop], capture_output=True, text=True)
        check(result.returncode == 0, f"desktop-file-validate: {result.stdout}{result.stderr}")
        # The installed tree as a software centre reads it: the metainfo's launchable names this desktop entry.
        result = subprocess.run(["appstreamcli", "validate-tree", "--no-net", prefix], capture_output=True, text=True)
        check(result.returncode == 0 and "org.gtkprogress.Viewer" in result.stdout + result.stderr,
              f"appstreamcli validate-tree: {result.stdout}{result.stderr}")
        title = "Launched from the desktop"
        subprocess.run(["gio", "launch", desktop, server.url("/page?title=" + quote(title))], check=True, timeout=20)
        window = wait_for(lambda: xdotool("search", "--onlyvisible", "--name", f"^{title}$", check_rc=False),
                          timeout=20, what="the window opened by the desktop entry")
        check(window, "a window shows the page")
        # The installed binary finds its data without the source tree.
        subprocess.run(["pkill", "-f", os.path.join(prefix, "bin/gtkprogress")])
        env = dict(os.environ, GTKPROGRESS_DATADIR="")
        out = subprocess.run([os.path.join(prefix, "bin/gtkprogress"), "--print-curve", "wechat", "--until", "1"],
                             capture_output=True, text=True, env=env, cwd="/")
        check(out.returncode == 0 and out.stdout.startswith("0.0\t0.100"), f"installed data found: {out}")
        subprocess.run(["make", "-s", "-C", ROOT, "uninstall", f"PREFIX={prefix}"], check=True)
        check(not os.path.exists(os.path.join(prefix, "bin/gtkprogress")), "make uninstall removes the binary")
        check(not os.path.exists(desktop), "make uninstall removes the desktop entry")
        check(not os.path.exists(os.path.join(prefix, "share/metainfo/org.gtkprogress.Viewer.metainfo.xml")),
              "make uninstall removes the metainfo")
    finally:
        subprocess.run(["pkill", "-f", os.path.join(prefix, "bin/gtkprogress")])
        server.stop()
        shutil.rmtree(prefix, ignore_errors=True)
