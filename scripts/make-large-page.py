#!/usr/bin/env python3
"""Writes data/pages/large.html: about 1 MB of varied, deterministic text, lists and links."""
import random, sys

words = ("progress bar page loader curve time bytes network window text link history back forward reload stop "
         "render paragraph heading list table quiet reader screen pixel theme colour fade timer tick server "
         "request response header body chunk length redirect cache scroll title entry address desktop").split()
rng = random.Random(7)
out = ['<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>A large page</title></head><body>\n',
       '<h1>A large page</h1>\n<p>About one megabyte of text, to show that the viewer stays responsive while a long '
       'page is laid out. <a href="../welcome.html">Back to the welcome page</a>.</p>\n']
section = 0
while sum(map(len, out)) < 1_000_000:
    section += 1
    out.append(f'<h2 id="s{section}">Section {section}</h2>\n')
    for _ in range(6):
        sentence = " ".join(rng.choice(words) for _ in range(rng.randint(40, 90)))
        out.append(f"<p>{sentence.capitalize()}.</p>\n")
    out.append("<ul>" + "".join(f"<li>{rng.choice(words)} {rng.choice(words)}</li>" for _ in range(5)) + "</ul>\n")
    out.append(f'<p>Jump to <a href="#s{max(1, section - 1)}">the previous section</a> or '
               f'<a href="#s1">the first</a>.</p>\n')
out.append("</body></html>\n")
path = sys.argv[1] if len(sys.argv) > 1 else "data/pages/large.html"
with open(path, "w") as f:
    f.write("".join(out))
