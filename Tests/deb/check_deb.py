#!/usr/bin/python3
"""Inspects gtkprogress_VERSION_ARCH.deb (make deb-check): control fields, contents, lintian, and the binaries
running from the unpacked package with nothing from the Swift toolchain reachable. Usage: check_deb.py DEB"""

import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback

# Runtime libraries the binaries link (Sources/C*/module.modulemap) or open (libcurl, Sources/CCurl/ccurl.c) and the
# Debian packages that ship them.
RUNTIME_PACKAGES = ["libgtk-3-0", "libcurl4", "libgumbo1", "libuchardet0", "libglib2.0-0", "libc6"]
FILES = [
    "usr/bin/gtkprogress",
    "usr/libexec/gtkprogress/gtkprogress-viewer",
    "usr/libexec/gtkprogress/gtkprogress-fetch",
    "usr/share/applications/org.gtkprogress.Viewer.desktop",
    "usr/share/icons/hicolor/scalable/apps/org.gtkprogress.Viewer.svg",
    "usr/share/metainfo/org.gtkprogress.Viewer.metainfo.xml",
    "usr/share/man/man1/gtkprogress.1.gz",
    "usr/share/doc/gtkprogress/copyright",
    "usr/share/doc/gtkprogress/changelog.gz",
    "usr/share/gtkprogress/welcome.html",
    "usr/share/gtkprogress/curves/wechat.json",
    "usr/share/gtkprogress/pages/shortcuts.html",
    "usr/share/locale/zh_CN/LC_MESSAGES/gtkprogress.mo",
    "usr/share/locale/ja/LC_MESSAGES/gtkprogress.mo",
]


class Failure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def run(*args, **kwargs):
    return subprocess.run(list(args), capture_output=True, text=True, **kwargs)


def control_fields(deb):
    out = run("dpkg-deb", "-f", deb).stdout
    fields, key = {}, None
    for line in out.splitlines():
        if line.startswith(" ") and key:
            fields[key] += "\n" + line
        elif ":" in line:
            key, value = line.split(":", 1)
            fields[key] = value.strip()
    return fields


def bare_env():
    """An environment without the Swift toolchain: no /opt/swift on PATH or in the library path."""
    return {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/root"), "LANG": "C.UTF-8"}


def test_control(deb, root):
    fields = control_fields(deb)
    version = run(os.path.join(root, "usr/bin/gtkprogress"), "--version", env=bare_env()).stdout.split()
    check(len(version) == 2 and fields.get("Version") == version[1],
          f"Version {fields.get('Version')} is what --version says ({version})")
    arch = run("dpkg", "--print-architecture").stdout.strip()
    check(fields.get("Architecture") == arch, f"Architecture {fields.get('Architecture')}")
    check(os.path.basename(deb) == f"gtkprogress_{fields['Version']}_{arch}.deb", f"file name {deb}")
    depends = [d.split()[0] for d in fields.get("Depends", "").split(",") if d.strip()]
    for package in RUNTIME_PACKAGES:
        check(package in depends, f"Depends names {package}: {fields.get('Depends')}")
    check(not any("swift" in d for d in depends), f"no Swift runtime package in Depends: {depends}")
    for name in ("Maintainer", "Description", "Section", "Priority", "Installed-Size"):
        check(fields.get(name), f"control has {name}")
    info = run("dpkg-deb", "-I", deb).stdout
    check("md5sums" in info, f"md5sums in the control archive: {info}")


def test_contents(deb, root):
    listing = run("dpkg-deb", "-c", deb).stdout
    paths = {line.split()[-1].lstrip("./") for line in listing.splitlines() if line.strip()}
    for path in FILES:
        check(path in paths, f"{path} is in the package")
    check(not any(p.startswith("usr/local") or ".build" in p for p in paths), "nothing from the build tree")
    for line in listing.splitlines():
        mode, owner = line.split()[:2]
        check(owner == "root/root", f"owned by root: {line}")
        check(not mode[0] == "-" or mode in ("-rw-r--r--", "-rwxr-xr-x"), f"plain modes: {line}")
    desktop = open(os.path.join(root, FILES[3]), encoding="utf-8").read()
    check("Exec=/usr/bin/gtkprogress " in desktop, f"desktop entry runs the installed binary: {desktop}")
    with gzip.open(os.path.join(root, "usr/share/man/man1/gtkprogress.1.gz"), "rt", encoding="utf-8") as page:
        text = page.read()
    check("/usr/share/gtkprogress/" in text and ".TH GTKPROGRESS 1" in text, "the man page names /usr paths")


def test_lintian(deb, root):
    result = run("lintian", "--fail-on", "error,warning", "--no-tag-display-limit", deb)
    tags = [line for line in result.stdout.splitlines() if re.match(r"[EW]: ", line)]
    check(result.returncode == 0 and not tags, f"lintian: {result.stdout}{result.stderr}")


def test_binaries_need_no_toolchain(deb, root):
    for binary in FILES[:3]:
        path = os.path.join(root, binary)
        ldd = run("ldd", path, env=bare_env()).stdout
        check("not found" not in ldd and "/opt/swift" not in ldd and "libswift" not in ldd,
              f"{binary} links only system libraries: {ldd}")
        dynamic = run("readelf", "-d", path).stdout
        check("RPATH" not in dynamic and "RUNPATH" not in dynamic, f"{binary} sets no library search path")
    gtkprogress = os.path.join(root, "usr/bin/gtkprogress")
    result = run(gtkprogress, "--help", env=bare_env(), cwd="/")
    check(result.returncode == 0 and "--dump" in result.stdout, f"--help runs: {result}")
    # The unpacked tree is a prefix: the binary finds its data in ../share/gtkprogress.
    result = run(gtkprogress, "--print-curve", "smooth", "--until", "0.1", env=bare_env(), cwd="/")
    check(result.returncode == 0 and result.stdout.startswith("0.0\t"), f"--print-curve finds the presets: {result}")
    # The package's catalogues answer from the unpacked tree (the locale compiled privately, as in
    # Tests/ui/test_translations.py).
    locales = tempfile.mkdtemp(prefix="gtkprogress-locales-")
    try:
        subprocess.run(["localedef", "-i", "ja_JP", "-f", "UTF-8", os.path.join(locales, "ja_JP.UTF-8")], check=True)
        env = dict(bare_env(), LANG="ja_JP.UTF-8", LOCPATH=locales)
        result = run(gtkprogress, "--help", env=env, cwd="/")
        check("このヘルプを表示して終了します" in result.stdout, f"--help in Japanese from the package: {result}")
    finally:
        shutil.rmtree(locales, ignore_errors=True)
    result = run(gtkprogress, "--dump", os.path.join(root, "usr/share/gtkprogress/welcome.html"), env=bare_env())
    check(result.returncode == 0 and "GtkProgress" in result.stdout, f"--dump renders the welcome page: {result}")
    # With no display the viewer starts (every library resolves), says why it cannot open a window and exits 1.
    result = run(gtkprogress, env=bare_env(), cwd="/")
    check(result.returncode == 1 and "display" in result.stderr, f"the viewer starts without a display: {result}")


def test_depends_are_installable(deb, root):
    result = run("apt-get", "install", "--simulate", "--no-install-recommends", os.path.abspath(deb))
    check(result.returncode == 0, f"apt-get can satisfy Depends: {result.stdout[-2000:]}{result.stderr}")


def main():
    deb = sys.argv[1]
    check(os.path.exists(deb), f"{deb} exists")
    root = tempfile.mkdtemp(prefix="gtkprogress-deb-")
    passed = failed = 0
    try:
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
        tests = [test_control, test_contents, test_lintian, test_binaries_need_no_toolchain,
                 test_depends_are_installable]
        for test in tests:
            try:
                test(deb, root)
                passed += 1
                print(f"PASS {test.__name__}", flush=True)
            except Exception:
                failed += 1
                print(f"FAIL {test.__name__}", flush=True)
                traceback.print_exc()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"package: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
