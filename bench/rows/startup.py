"""Rows "startup" and "memory": exec → the page shown in a window, and the resident memory then, for gtkprogress
(and any --variant builds of it) beside NetSurf, Dillo, a bare GTK 3 window and the GTK floor, launched in turn in
each round so that every program meets the machine in the same state.
"""

import html
import html.parser
import os
import re
import subprocess
import time

from run import (FLOOR, STARTUP_TITLE, BenchError, dpid, exit_text, launch_pids, mb, median, ms, proc_pss,
                 proc_status, ratio, startup_page, verdict)


def page_markup(source):
    """Pango markup of a generated page, styled as the viewer styles it: headings scaled and bold, emphasis, code
    and tables in monospace, links underlined and coloured, list items with bullets, paragraphs apart. Only the
    tags generate_page writes are known."""
    out = []

    class Converter(html.parser.HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.hidden = 0
            self.pre = 0

        def handle_starttag(self, tag, attrs):
            if tag in ("head", "title", "style", "script"):
                self.hidden += 1
            elif tag in ("h1", "h2", "h3"):
                out.append('<span size="%d%%" weight="bold">' % {"h1": 200, "h2": 160, "h3": 130}[tag])
            elif tag == "a":
                out.append('<span underline="single" foreground="#1a5fb4">')
            elif tag in ("em", "strong"):
                out.append({"em": "<i>", "strong": "<b>"}[tag])
            elif tag in ("code", "pre"):
                out.append("<tt>")
                self.pre += tag == "pre"
            elif tag == "li":
                out.append("\n  • ")
            elif tag == "tr":
                out.append("\n<tt>")
            elif tag in ("td", "th"):
                out.append(" │ " + ("<b>" if tag == "th" else ""))

        def handle_endtag(self, tag):
            if tag in ("head", "title", "style", "script"):
                self.hidden -= 1
            elif tag in ("h1", "h2", "h3"):
                out.append("</span>\n\n")
            elif tag == "a":
                out.append("</span>")
            elif tag in ("em", "strong", "th"):
                out.append({"em": "</i>", "strong": "</b>", "th": "</b>"}[tag])
            elif tag in ("code", "tr"):
                out.append("</tt>")
            elif tag == "pre":
                out.append("</tt>\n\n")
                self.pre -= 1
            elif tag in ("p", "ul", "ol", "table", "blockquote"):
                out.append("\n\n")

        def handle_data(self, data):
            if not self.hidden:
                out.append(html.escape(data if self.pre else re.sub(r"\s+", " ", data), quote=False))

    Converter().feed(source)
    return "".join(out)


def startup_programs(bench, page):
    url = "file://" + page
    markup = os.path.splitext(page)[0] + ".markup"
    with open(page, encoding="utf-8") as src, open(markup, "w", encoding="utf-8") as dst:
        dst.write(page_markup(src.read()))
    programs = []
    if bench.binary:
        programs.append(("gtkprogress", [bench.binary, page], {}))
    programs += [(f"gtkprogress, {label}", [path, page], {}) for label, path in bench.variants]
    programs += [("NetSurf", ["netsurf-gtk", url], {}),
                 # Dillo reads files through its plugin daemon dpid, which a first launch starts and later ones
                 # reuse: "Dillo" runs with dpid already running (counted in its memory), "Dillo, cold" starts it.
                 ("Dillo", ["dillo", url], {}),
                 ("Dillo, cold (starts dpid)", ["dillo", url], {}),
                 ("bare GTK 3 window", [bench.bare, page], {}),
                 ("bare GTK 3 window, GDK_GL=disable", [bench.bare, page], {"GDK_GL": "disable"}),
                 (FLOOR, [bench.floor, markup, STARTUP_TITLE], {})]
    return programs



def launch_once(bench, name, cmd, extra_env, settle):
    """Exec → first paint after the window shows the page's title. Returns a dict, or raises BenchError."""
    if name.startswith("Dillo"):
        dpid(bench, name == "Dillo")
    probe = bench.xprobe_wait("--title", STARTUP_TITLE, timeout=20)
    offset = bench.log_offset()
    t0 = time.monotonic()
    proc = bench.popen(cmd, extra_env=extra_env)
    try:
        found = bench.xprobe_result(probe, watch=proc)
        if not found:
            titles = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", ".", "getwindowname", "%@"],
                                    env=bench.env("infra"), capture_output=True, text=True).stdout.split("\n")
            if proc.poll() is not None:
                raise BenchError(f"{exit_text(proc.poll())} without showing the page"
                                 + (f": “{bench.log_reason(offset)}”" if bench.log_reason(offset) else ""))
            raise BenchError(f"no window titled {STARTUP_TITLE!r} within 20 s (windows: {[t for t in titles if t][:3]})")
        _, t_title, t_paint, window, pid, title = found
        if pid and pid != proc.pid:
            raise BenchError(f"the window belongs to pid {pid}, not to the process started ({proc.pid})")
        time.sleep(settle)
        pids = launch_pids(bench, dillo=True)
        rss = sum(proc_status(p, "VmRSS") or 0 for p in pids)
        pss = sum(proc_pss(p) or 0 for p in pids)
        return {"title": t_title - t0, "paint": t_paint - t0, "rss": rss, "pss": pss, "main_rss":
                proc_status(proc.pid, "VmRSS"), "procs": len(pids), "window": window}
    finally:
        bench.end_launch(proc)


def row_startup_memory(bench, report, rows, runs):
    page = startup_page(os.path.join(bench.tmp, "startup.html"))
    programs = startup_programs(bench, page)
    samples = {name: [] for name, _, _ in programs}
    failures = {name: [] for name, _, _ in programs}
    for round_index in range(runs + 1):
        for name, cmd, extra in programs:
            if len(failures[name]) >= 2:
                continue
            try:
                sample = launch_once(bench, name, cmd, extra, settle=0.5)
            except BenchError as error:
                failures[name].append(str(error))
                continue
            if round_index > 0:
                samples[name].append(sample)
    dpid(bench, False)
    summary = {}
    for name, _, _ in programs:
        got = samples[name]
        if not got:
            summary[name] = None
            continue
        summary[name] = {k: median([s[k] for s in got]) for k in ("title", "paint", "rss", "pss", "main_rss", "procs")}
        summary[name]["n"] = len(got)
        summary[name]["min"] = min(s["paint"] for s in got)
        summary[name]["max"] = max(s["paint"] for s in got)
        bench_detail = (f"{name}: startup median {ms(summary[name]['paint'])} (min {ms(summary[name]['min'])}, max "
                        f"{ms(summary[name]['max'])}, title set at {ms(summary[name]['title'])}), {len(got)} runs; "
                        f"RSS {mb(summary[name]['rss'])} over {summary[name]['procs']:.0f} process(es) "
                        f"(main process {mb(summary[name]['main_rss'])}), PSS {mb(summary[name]['pss'])}")
        if failures[name]:
            bench_detail += f"; failures: {failures[name]}"
        report.detail("startup", bench_detail)
    for name in summary:
        if summary[name] is None:
            report.detail("startup", f"{name}: no sample; {failures[name]}")

    app = summary.get("gtkprogress")
    reason = (failures.get("gtkprogress") or ["no gtkprogress binary"])[0] if not app else None
    bare, bare_nogl = summary.get("bare GTK 3 window"), summary.get("bare GTK 3 window, GDK_GL=disable")
    # The GL-off bare window is shown only if it tells something: 15% and 10 ms faster, or 15% smaller.
    show_nogl = bool(bare and bare_nogl and (
        (bare["paint"] - bare_nogl["paint"] > max(0.010, 0.15 * bare["paint"]))
        or bare["rss"] - bare_nogl["rss"] > 0.15 * bare["rss"]))
    if bare and bare_nogl and not show_nogl:
        report.detail("startup", "GDK_GL=disable does not make the bare window 15% faster or smaller here, so it "
                                 "has no row.")

    targets = {"NetSurf": ("faster than NetSurf", lambda a, b: a < b),
               "bare GTK 3 window": ("≤ 1.2× the bare window", lambda a, b: a <= 1.2 * b)}
    if "startup" in rows:
        for name in ["NetSurf", "Dillo", "Dillo, cold (starts dpid)", "bare GTK 3 window"] + (
                ["bare GTK 3 window, GDK_GL=disable"] if show_nogl else []) + [FLOOR]:
            other = summary.get(name)
            target, test = targets.get(name, ("", None))
            if not app:
                report.na("Startup", "exec → page shown (median)", reason, target, name,
                          ms(other["paint"]) if other else "n/a")
            elif not other:
                report.add("Startup", "exec → page shown", ms(app["paint"]), name,
                           f"n/a ({(failures[name] or ['not run'])[0]})", "n/a", target, "n/a")
            else:
                report.add("Startup", "exec → page shown (median)", ms(app["paint"]), name, ms(other["paint"]),
                           ratio(app["paint"], other["paint"]), target,
                           verdict(test(app["paint"], other["paint"])) if test else "—")
    variants = [f"gtkprogress, {label}" for label, _ in bench.variants]
    if app:
        for name in variants:
            other = summary.get(name)
            for row, measure, key, show in (("Startup", "exec → page shown (median)", "paint", ms),
                                            ("Memory", "RSS with the page shown", "rss", mb)):
                if row.lower() in rows:
                    report.add(row, measure, show(app[key]), name, show(other[key]) if other else
                               f"n/a ({(failures[name] or ['not run'])[0]})",
                               ratio(app[key], other[key]) if other else "n/a", "", "—")
    if "memory" in rows:
        if not app:
            report.na("Memory", "RSS with the page shown", reason, "< 40 MB")
        else:
            report.add("Memory", "RSS with the page shown", mb(app["rss"]), "", "", "", "< 40 MB",
                       verdict(app["rss"] < 40e6))
        for name in ["NetSurf", "Dillo", "Dillo, cold (starts dpid)", "bare GTK 3 window"] + (
                ["bare GTK 3 window, GDK_GL=disable"] if show_nogl else []) + [FLOOR]:
            other = summary.get(name)
            if not app:
                report.na("Memory", "RSS with the page shown", reason, "", name, mb(other["rss"]) if other else "n/a")
            else:
                report.add("Memory", "RSS with the page shown", mb(app["rss"]), name,
                           mb(other["rss"]) if other else f"n/a ({(failures[name] or ['not run'])[0]})",
                           ratio(app["rss"], other["rss"]) if other else "n/a", "", "—")
    return summary
