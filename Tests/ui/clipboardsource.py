#!/usr/bin/python3
"""A second X client that owns the clipboard, holding TEXT repeated COUNT times, until it is terminated.
Usage: clipboardsource.py TEXT COUNT"""

import sys

import gi
gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk

text = sys.argv[1] * int(sys.argv[2])
clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
clipboard.set_text(text, -1)
print("ready", flush=True)
Gtk.main()
