#!/usr/bin/python3
"""Inspects the Pageload packages (make deb-check): libpageload-1-0, gir1.2-pageload-1 and libpageload-1-dev hold the
files Debian's split puts in each, lintian finds no error or warning, and the typelib and library unpacked from them
load in a Python process with nothing from the Swift toolchain reachable.
Usage: check_pageload_debs.py LIB.deb GIR.deb DEV.deb"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

MULTIARCH = subprocess.run(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"], capture_output=True, text=True).stdout.strip()
LIBDIR = f"usr/lib/{MULTIARCH}"
CONTENTS = {
    "libpageload-1-0": [f"{LIBDIR}/libpageload-1.so.0.0.0", f"{LIBDIR}/libpageload-1.so.0",
                        "usr/share/doc/libpageload-1-0/copyright"],
    "gir1.2-pageload-1": [f"{LIBDIR}/girepository-1.0/Pageload-1.typelib",
                          "usr/share/doc/gir1.2-pageload-1/copyright"],
    "libpageload-1-dev": [f"{LIBDIR}/libpageload-1.so", f"{LIBDIR}/pkgconfig/pageload-1.pc",
                          "usr/include/pageload-1/pageload.h", "usr/share/gir-1.0/Pageload-1.gir",
                          "usr/share/vala/vapi/pageload-1.vapi", "usr/share/vala/vapi/pageload-1.deps",
                          "usr/share/doc/libpageload-1-dev/copyright"],
}


def run(*args, **kwargs):
    return subprocess.run(list(args), capture_output=True, text=True, **kwargs)


def main(debs):
    failures = []
    root = tempfile.mkdtemp(prefix="pageload-deb-")
    try:
        for deb in debs:
            package = run("dpkg-deb", "-f", deb, "Package").stdout.strip()
            listing = run("dpkg-deb", "-c", deb).stdout
            paths = {line.split()[5].lstrip("./") for line in listing.splitlines() if line.strip()}
            for path in CONTENTS.get(package, ["(an unknown package)"]):
                if path not in paths:
                    failures.append(f"{package}: {path} is missing")
            others = [p for other, files in CONTENTS.items() if other != package for p in files if p in paths]
            if others:
                failures.append(f"{package} holds another package's files: {others}")
            subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
        result = run("lintian", "--fail-on", "error,warning", "--no-tag-display-limit", *debs)
        tags = [line for line in result.stdout.splitlines() if re.match(r"[EW]: ", line)]
        if result.returncode != 0 or tags:
            failures.append(f"lintian: {result.stdout}{result.stderr}")
        shlibs = run("dpkg-deb", "-I", debs[0], "shlibs").stdout
        if not shlibs.startswith("libpageload-1 0 libpageload-1-0 (>= "):
            failures.append(f"libpageload-1-0's shlibs: {shlibs!r}")
        result = run("apt-get", "install", "--simulate", "--no-install-recommends", *map(os.path.abspath, debs))
        if result.returncode != 0:
            failures.append(f"apt-get cannot satisfy the Depends: {result.stdout[-2000:]}{result.stderr}")
        # The unpacked packages: the typelib finds the library, whose type registers, and no Swift runtime
        # library is loaded beside it.
        env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/root"),
               "GI_TYPELIB_PATH": os.path.join(root, LIBDIR, "girepository-1.0"),
               "LD_LIBRARY_PATH": os.path.join(root, LIBDIR)}
        script = ("import gi; gi.require_version('Gtk', '3.0'); gi.require_version('Pageload', '1');"
                  "from gi.repository import Pageload;"
                  "assert Pageload.Bar.__gtype__.name == 'PageloadBar';"
                  "assert Pageload.Milestone.FIRST_BYTE == 3;"
                  "maps = open('/proc/self/maps').read();"
                  f"assert '{root}/{LIBDIR}/libpageload-1.so.0.0.0' in maps, 'the unpacked library is loaded';"
                  "assert 'libswift' not in maps, 'no Swift runtime library'")
        result = run("/usr/bin/python3", "-c", script, env=env)
        if result.returncode != 0:
            failures.append(f"python from the unpacked packages: {result.stderr}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    for failure in failures:
        print(f"FAIL {failure}")
    print(f"pageload packages: {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
