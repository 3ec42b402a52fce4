#!/usr/bin/env python3
"""Plots the curve presets as docs/curves.svg from `gtkprogress --print-curve`.

Usage: scripts/plot-curves.py [GTKPROGRESS] [-o OUTPUT]
  GTKPROGRESS  the built binary (default .build/release/gtkprogress)
  OUTPUT       the SVG to write (default docs/curves.svg)

Every point comes from the binary's own timeline (tab-separated `t fraction opacity` at 0.1 s steps, and with
--frames at 60 frames a second), so the plot shows what the bar does, not a second implementation of the curves.
The upper panel is the model over 25 s; the lower one is the finish as it is painted, frame by frame: the run to
the full width, the moment at full, and the fade. Plain SVG, no plotting library.
"""
import argparse
import os
import subprocess
import sys
from xml.sax.saxutils import escape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (label, arguments after --print-curve, colour, dashed)
SERIES = [
    ("wechat: the load never ends", ["wechat", "--until", "25"], "#3584e4", False),
    ("wechat: the page loads at 2 s", ["wechat", "--finish-at", "2"], "#3584e4", True),
    ("smooth: the load never ends", ["smooth", "--until", "25"], "#e66100", False),
    ("smooth: the page loads at 18 s", ["smooth", "--finish-at", "18"], "#e66100", True),
    ("real: unknown length, loads at 10 s", ["real", "--finish-at", "10"], "#26a269", True),
]

# The finish, painted: (label, arguments, finish time, colour).
FINISHES = [
    ("wechat, loads at 2 s", ["wechat", "--finish-at", "2", "--frames"], 2.0, "#3584e4"),
    ("smooth, loads at 18 s", ["smooth", "--finish-at", "18", "--frames"], 18.0, "#e66100"),
]

WIDTH, HEIGHT = 820, 500
PANEL_TOP, PANEL_HEIGHT = HEIGHT + 20, 300
F_LEFT, F_RIGHT = -0.2, 1.0  # seconds around the finish
LEFT, RIGHT, TOP, BOTTOM = 70, 30, 50, 60
T_MAX = 25.0
F_MAX = 1.05  # a little above 1.0, so a full bar is not drawn on the frame


def timeline(binary, arguments):
    """[(t, fraction, opacity)] as printed by the binary."""
    output = subprocess.run([binary, "--print-curve"] + arguments, check=True, capture_output=True, text=True).stdout
    points = []
    for number, line in enumerate(output.splitlines(), 1):
        fields = line.split("\t")
        if len(fields) != 3:
            sys.exit(f"{binary} --print-curve {' '.join(arguments)}: line {number} is not 't fraction opacity': {line!r}")
        points.append(tuple(float(f) for f in fields))
    return points


def x_of(t):
    return LEFT + (WIDTH - LEFT - RIGHT) * t / T_MAX


def y_of(fraction):
    return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * fraction / F_MAX


def runs(points):
    """The stretches where the bar is on screen (opacity > 0); a hidden bar draws no line."""
    run = []
    for t, fraction, opacity in points:
        if opacity > 0 and t <= T_MAX:
            run.append((t, fraction))
        elif run:
            yield run
            run = []
    if run:
        yield run


def finish_panel(finish_points):
    """The lower panel: fraction (solid) and opacity (dotted) against seconds since the finish."""
    top, bottom = PANEL_TOP + 40, PANEL_TOP + PANEL_HEIGHT - 50

    def fx(t):
        return LEFT + (WIDTH - LEFT - RIGHT) * (t - F_LEFT) / (F_RIGHT - F_LEFT)

    def fy(v):
        return bottom - (bottom - top) * v / F_MAX

    out = [f'<text x="{WIDTH / 2}" y="{PANEL_TOP + 22}" text-anchor="middle" font-size="16" font-weight="bold">'
           'The finish as painted, 60 frames a second: run, stay, fade</text>']
    tenth = F_LEFT
    while tenth <= F_RIGHT + 1e-9:
        x = fx(tenth)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" stroke="#eeeeee"/>')
        out.append(f'<text x="{x:.1f}" y="{bottom + 18}" text-anchor="middle">{tenth:+.1f}</text>')
        tenth += 0.1
    for v in (0, 0.5, 1.0):
        out.append(f'<line x1="{LEFT}" y1="{fy(v):.1f}" x2="{WIDTH - RIGHT}" y2="{fy(v):.1f}" stroke="#eeeeee"/>')
        out.append(f'<text x="{LEFT - 8}" y="{fy(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>')
    out.append(f'<line x1="{fx(0):.1f}" y1="{top}" x2="{fx(0):.1f}" y2="{bottom}" stroke="#333" '
               'stroke-dasharray="2 3"/>')
    out.append(f'<text x="{fx(0) + 4:.1f}" y="{top + 12}">the page is in</text>')
    out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{bottom + 38}" text-anchor="middle">'
               'seconds since the load finished — solid: fraction filled; dotted: opacity</text>')
    for (label, _, finish, colour), points in finish_points:
        near = [(t - finish, f, o) for t, f, o in points if F_LEFT <= t - finish <= F_RIGHT]
        shown = [(t, f, o) for t, f, o in near if o > 0 or t <= 0]
        fraction = " ".join(f"{fx(t):.1f},{fy(f):.1f}" for t, f, o in shown)
        opacity = " ".join(f"{fx(t):.1f},{fy(o):.1f}" for t, f, o in near if f > 0 or t <= 0)
        out.append(f'<polyline points="{fraction}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<polyline points="{opacity}" fill="none" stroke="{colour}" stroke-width="2" '
                   'stroke-dasharray="1 3"/>')
    legend_x, legend_y = WIDTH - RIGHT - 190, top + 20
    for i, ((label, _, _, colour), _) in enumerate(finish_points):
        y = legend_y + 20 * i
        out.append(f'<line x1="{legend_x}" y1="{y - 4}" x2="{legend_x + 30}" y2="{y - 4}" stroke="{colour}" '
                   'stroke-width="2"/>')
        out.append(f'<text x="{legend_x + 38}" y="{y}">{escape(label)}</text>')
    return out


def svg(series_points, finish_points):
    total = PANEL_TOP + PANEL_HEIGHT
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{total}" '
           f'viewBox="0 0 {WIDTH} {total}" font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{total}" fill="#ffffff"/>',
           f'<text x="{WIDTH / 2}" y="28" text-anchor="middle" font-size="16" font-weight="bold">'
           'What the progress bar shows over time</text>']
    # Grid and axes.
    for second in range(0, int(T_MAX) + 1):
        x = x_of(second)
        major = second % 5 == 0
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM}" '
                   f'stroke="{"#d0d0d0" if major else "#eeeeee"}"/>')
        if major:
            out.append(f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">{second}</text>')
    for tenth in range(0, 11):
        y = y_of(tenth / 10)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#eeeeee"/>')
        out.append(f'<text x="{LEFT - 8}" y="{y + 4:.1f}" text-anchor="end">{tenth / 10:.1f}</text>')
    out.append(f'<line x1="{LEFT}" y1="{y_of(0.9):.1f}" x2="{WIDTH - RIGHT}" y2="{y_of(0.9):.1f}" '
               'stroke="#3584e4" stroke-width="1" stroke-dasharray="2 3" opacity="0.6"/>')
    out.append(f'<text x="{x_of(2.6):.1f}" y="{y_of(0.9) - 6:.1f}" fill="#3584e4">'
               'wechat hold 0.90: real progress shows only above it</text>')
    out.append(f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" stroke="#333"/>')
    out.append(f'<line x1="{LEFT}" y1="{y_of(F_MAX)}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="#333"/>')
    out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 18}" text-anchor="middle">'
               'seconds since the navigation started</text>')
    out.append(f'<text transform="translate(20 {(TOP + HEIGHT - BOTTOM) / 2}) rotate(-90)" text-anchor="middle">'
               'fraction of the bar filled</text>')
    # Curves: the dashed finishing ones first, so until their finish the plain curve covers them.
    for (label, _, colour, dashed), points in sorted(series_points, key=lambda s: not s[0][3]):
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        for run in runs(points):
            path = " ".join(f"{x_of(t):.1f},{y_of(f):.1f}" for t, f in run)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
    # Legend, in the empty lower right.
    legend_x, legend_y = WIDTH - RIGHT - 290, HEIGHT - BOTTOM - 20 * len(series_points) - 16
    out.append(f'<rect x="{legend_x - 10}" y="{legend_y - 16}" width="290" height="{20 * len(series_points) + 12}" '
               'fill="#ffffff" stroke="#cccccc"/>')
    for i, ((label, _, colour, dashed), _) in enumerate(series_points):
        y = legend_y + 20 * i
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        out.append(f'<line x1="{legend_x}" y1="{y - 4}" x2="{legend_x + 30}" y2="{y - 4}" stroke="{colour}" '
                   f'stroke-width="2"{dash}/>')
        out.append(f'<text x="{legend_x + 38}" y="{y}">{escape(label)}</text>')
    out += finish_panel(finish_points)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build/release/gtkprogress"))
    parser.add_argument("-o", "--output", default=os.path.join(ROOT, "docs/curves.svg"))
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"{args.binary}: no such program; build it first (swift build -c release)")
    series_points = [(series, timeline(args.binary, series[1])) for series in SERIES]
    finish_points = [(finish, timeline(args.binary, finish[1])) for finish in FINISHES]
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(svg(series_points, finish_points))
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
