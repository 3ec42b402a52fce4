"""The manual page gtkprogress(1): renders without warnings and documents exactly the options --help lists.
Needs no window."""

import os
import re
import subprocess

from harness import ROOT, check

MANPAGE = os.path.join(ROOT, "data", "gtkprogress.1")
LONG_OPTION = re.compile(r"--[a-z][a-z-]+")
# Described in the page ahead of the command line; once --help lists it, this exception changes nothing and can go.
AHEAD_OF_HELP = {"--width", "--new-session"}


def help_options(binary, env=None):
    """The long options `--help` lists: the first word of each indented option line."""
    result = subprocess.run([binary, "--help"], capture_output=True, text=True, env=env)
    check(result.returncode == 0, f"--help exits 0: {result}")
    options = set()
    for line in result.stdout.splitlines():
        match = re.match(r"\s+(--[a-z][a-z-]+)", line)
        if match:
            options.add(match.group(1))
    check(len(options) >= 8, f"--help lists the options: {result.stdout}")
    return options


def manpage_sections():
    """The page's source split by .SH, as {section name: [lines]}."""
    sections, name = {}, None
    with open(MANPAGE, encoding="utf-8") as source:
        for line in source.read().splitlines():
            if line.startswith(".SH "):
                name = line[4:].strip().strip('"')
                sections[name] = []
            elif name:
                sections[name].append(line)
    return sections


def roff_options(lines):
    return set(LONG_OPTION.findall("\n".join(lines).replace("\\-", "-")))


def manpage_options():
    """The long options the OPTIONS section describes: each tag, the line after a .TP."""
    lines = manpage_sections()["OPTIONS"]
    tags = [lines[i + 1] for i, line in enumerate(lines[:-1]) if line.strip() == ".TP"]
    return roff_options(tags) - {"--"}


def test_manpage_renders_without_warnings(binary):
    result = subprocess.run(["groff", "-man", "-ww", "-z", MANPAGE], capture_output=True, text=True)
    check(result.returncode == 0 and result.stderr == "", f"groff -man -ww: {result.stderr}")
    env = dict(os.environ, MANWIDTH="80", LANG="C.UTF-8")
    result = subprocess.run(["man", "--warnings", "-l", MANPAGE], capture_output=True, text=True, env=env)
    check(result.returncode == 0 and result.stderr == "", f"man -l: {result.stderr}")
    check("GTKPROGRESS(1)" in result.stdout and "EXIT STATUS" in result.stdout, "the page renders")


def test_manpage_and_help_list_the_same_options(binary):
    in_help = help_options(binary)
    in_page = manpage_options()
    missing = in_help - in_page
    check(not missing, f"options in --help but not in the man page: {sorted(missing)}")
    extra = in_page - in_help - AHEAD_OF_HELP
    check(not extra, f"options in the man page but not in --help: {sorted(extra)}")
    in_synopsis = roff_options(manpage_sections()["SYNOPSIS"])
    check(in_synopsis <= in_page, f"the synopsis names options the page does not describe: {in_synopsis - in_page}")
    check(in_help <= in_synopsis, f"the synopsis shows every option: {sorted(in_help - in_synopsis)}")


def test_manpage_is_installed(binary):
    import shutil
    import tempfile
    prefix = tempfile.mkdtemp(prefix="gtkprogress-prefix-")
    try:
        subprocess.run(["make", "-s", "-C", ROOT, "install-files", f"PREFIX={prefix}", f"BIN={binary}"], check=True)
        page = os.path.join(prefix, "share/man/man1/gtkprogress.1")
        check(os.path.exists(page), "make install puts the man page in share/man/man1")
        with open(page, encoding="utf-8") as installed:
            text = installed.read()
        check(f"{prefix}/share/gtkprogress/" in text and "/usr/share/gtkprogress" not in text,
              "the installed page names the installed data directory")
        subprocess.run(["make", "-s", "-C", ROOT, "uninstall", f"PREFIX={prefix}"], check=True)
        check(not os.path.exists(page), "make uninstall removes the man page")
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
