#!/usr/bin/python3
"""A second X client that offers one drag: a small window at (x, y) whose label can be dragged, carrying either
a URI list or plain text. It prints "ready" once shown and "end" when its drag is over. Usage: dragsource.py uri|text|moz PAYLOAD X Y"""

import sys

import gi
gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk

kind, payload, x, y = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

window = Gtk.Window(title="drag source")
window.set_default_size(160, 60)
window.move(x, y)
box = Gtk.EventBox()
box.add(Gtk.Label(label="drag me"))
window.add(box)

if kind == "uri":
    targets = [Gtk.TargetEntry.new("text/uri-list", 0, 0)]
elif kind == "moz":
    targets = [Gtk.TargetEntry.new("text/x-moz-url", 0, 0)]
else:
    targets = [Gtk.TargetEntry.new("text/plain", 0, 0), Gtk.TargetEntry.new("UTF8_STRING", 0, 1)]
box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, targets, Gdk.DragAction.COPY | Gdk.DragAction.LINK)


def on_get(widget, context, selection, info, time):
    if kind == "uri":
        selection.set_uris([payload])
    elif kind == "moz":
        selection.set(selection.get_target(), 16, (payload + "\nTitle").encode("utf-16-le"))
    else:
        selection.set_text(payload, -1)


box.connect("drag-data-get", on_get)
# The drag is over (dropped, or refused): the test waits for this line before it ends the source.
box.connect("drag-end", lambda widget, context: print("end", flush=True))
window.connect("destroy", Gtk.main_quit)
window.show_all()
print("ready", flush=True)
Gtk.main()
