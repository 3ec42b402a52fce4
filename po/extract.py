#!/usr/bin/python3
"""Collects the translatable messages of the Swift sources into po/gtkprogress.pot and merges them into every
po/LANG.po (msgmerge). A message is the string literal of `L("…")`, `L("…", args)` or the two of
`LN("…", "…", n, args)` (Sources/GtkProgressCore/Support/Localization.swift), and each option description and
paragraph of `CommandLineOptions.usage`, split as `CommandLineOptions.localizedUsage` splits it.
xgettext has no Swift parser (its C parser trips over Swift's multi-line literals), hence this script.

Usage: po/extract.py            write the template and merge it into the catalogues
       po/extract.py --check    exit 1 when the template misses or keeps a message the sources do not have
"""

import os
import re
import subprocess
import sys

PO = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(PO)
SOURCES = os.path.join(ROOT, "Sources")
TEMPLATE = os.path.join(PO, "gtkprogress.pot")
USAGE_FILE = os.path.join(SOURCES, "GtkProgressCore", "Support", "CommandLineOptions.swift")

CALL = re.compile(r"(?<![A-Za-z0-9_.])(LN?)\(")
LITERAL = re.compile(r'\s*"((?:[^"\\\n]|\\.)*)"')
JOIN = re.compile(r"\s*\+")
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'", "0": "\0", "r": "\r"}


class SourceError(Exception):
    pass


def unescape(text, where):
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "(":
            raise SourceError(f"{where}: interpolation in a message; pass the value as an argument (%@, %ld)")
        if nxt == "u":
            end = text.index("}", i)
            out.append(chr(int(text[i + 3:end], 16)))
            i = end + 1
            continue
        out.append(ESCAPES[nxt])
        i += 2
    return "".join(out)


def literal_group(source, pos, where):
    """The string literals at `pos` joined by `+`: (text, position after them)."""
    parts = []
    while True:
        match = LITERAL.match(source, pos)
        if not match:
            raise SourceError(f"{where}: a message must be a string literal")
        parts.append(unescape(match.group(1), where))
        pos = match.end()
        join = JOIN.match(source, pos)
        if not join or not LITERAL.match(source, join.end()):
            return "".join(parts), pos
        pos = join.end()


def messages_of(path):
    source = open(path, encoding="utf-8").read()
    relative = os.path.relpath(path, ROOT)
    found = []
    for call in CALL.finditer(source):
        line = source.count("\n", 0, call.start()) + 1
        before = source[source.rfind("\n", 0, call.start()) + 1:call.start()]
        if before.lstrip().startswith("//") or "func " in before:
            continue
        where = f"{relative}:{line}"
        text, pos = literal_group(source, call.end(), where)
        if call.group(1) == "LN":
            comma = re.compile(r"\s*,").match(source, pos)
            if not comma:
                raise SourceError(f"{where}: LN needs a singular and a plural literal")
            plural, pos = literal_group(source, comma.end(), where)
            found.append(((text, plural), where))
        else:
            found.append(((text, None), where))
    return found


def usage_messages():
    """Mirrors CommandLineOptions.localizedUsage: option descriptions, then paragraphs of the other lines."""
    source = open(USAGE_FILE, encoding="utf-8").read()
    match = re.search(r'static let usage = """\n(.*?)\n( *)"""', source, re.S)
    if not match:
        raise SourceError(f"{USAGE_FILE}: no usage literal")
    line = source.count("\n", 0, match.start()) + 1
    indent = len(match.group(2))
    lines = [l[indent:] for l in match.group(1).split("\n")]
    where = f"{os.path.relpath(USAGE_FILE, ROOT)}:{line}"
    found, paragraph = [], []

    def flush():
        if paragraph:
            found.append((("\n".join(paragraph), None), where))
        paragraph.clear()

    for text in lines:
        option = re.match(r"  +-\S*(?: \S+)*?  +", text)
        if option:
            flush()
            found.append(((text[option.end():], None), where))
        elif text == "":
            flush()
        else:
            paragraph.append(text)
    flush()
    return found


def collect():
    found = []
    for directory, _, files in sorted(os.walk(SOURCES)):
        for name in sorted(files):
            if name.endswith(".swift"):
                found.extend(messages_of(os.path.join(directory, name)))
    found.extend(usage_messages())
    merged = {}
    for key, where in found:
        merged.setdefault(key, []).append(where)
    return merged


def quote(text):
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    if "\n" not in escaped:
        return f'"{escaped}"'
    pieces = escaped.split("\n")
    lines = [p + "\\n" for p in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
    return '""\n' + "\n".join(f'"{l}"' for l in lines)


HEADER = r'''# Messages of GtkProgress.
# This file is generated by po/extract.py from the sources; edit the sources, not this file.
#
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: gtkprogress\n"
"Report-Msgid-Bugs-To: maintainers@gtkprogress.example.org\n"
"Language: \n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\n"
'''


def template(messages):
    out = [HEADER]
    for (msgid, plural), places in messages.items():
        entry = ["#: " + " ".join(places)]
        if re.search(r"%(\d+\$)?(@|ld)", msgid + (plural or "")):
            entry.append("#, objc-format")
        entry.append("msgid " + quote(msgid))
        if plural is None:
            entry.append('msgstr ""')
        else:
            entry += ["msgid_plural " + quote(plural), 'msgstr[0] ""', 'msgstr[1] ""']
        out.append("\n".join(entry) + "\n")
    return "\n".join(out)


def template_keys(path):
    """The (msgid, msgid_plural) pairs of a .pot or .po, read with msgcat's help-free parsing of quoted strings."""
    keys, current, field = set(), {}, None
    with open(path, encoding="utf-8") as f:
        for raw in f.read().splitlines() + [""]:
            line = raw.strip()
            if line.startswith("#~"):
                continue
            m = re.match(r'(msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$', line)
            if m:
                field = m.group(1)
                if field == "msgid" and "msgid" in current:
                    keys.add((current["msgid"], current.get("msgid_plural")))
                    current = {}
                current[field] = eval(m.group(2))  # a C string literal is a Python one here
            elif line.startswith('"') and field:
                current[field] += eval(line)
        if "msgid" in current:
            keys.add((current["msgid"], current.get("msgid_plural")))
    keys.discard(("", None))
    return keys


def main():
    try:
        messages = collect()
    except SourceError as error:
        print(f"extract.py: {error}", file=sys.stderr)
        return 1
    if "--check" in sys.argv:
        have = template_keys(TEMPLATE) if os.path.exists(TEMPLATE) else set()
        want = set(messages)
        for key in sorted(want - have, key=str):
            print(f"not in the template: {key[0]!r}", file=sys.stderr)
        for key in sorted(have - want, key=str):
            print(f"in the template but not in the sources: {key[0]!r}", file=sys.stderr)
        if want != have:
            print("run po/extract.py to bring po/ up to date", file=sys.stderr)
            return 1
        return 0
    with open(TEMPLATE, "w", encoding="utf-8") as f:
        f.write(template(messages))
    for name in sorted(os.listdir(PO)):
        if name.endswith(".po"):
            catalogue = os.path.join(PO, name)
            subprocess.run(["msgmerge", "--quiet", "--update", "--backup=none", "--no-wrap", catalogue, TEMPLATE],
                           check=True)
            # Messages the sources no longer have are dropped, not kept as comments.
            subprocess.run(["msgattrib", "--no-obsolete", "--no-wrap", "-o", catalogue, catalogue], check=True)
    print(f"{TEMPLATE}: {len(messages)} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
