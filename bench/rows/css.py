"""Row "css": what author CSS costs `--dump`: `gtkprogress --dump` with styles and with `--no-css`, beside `w3m -dump`
(which ignores CSS), on real pages with linked stylesheets and on a generated page of 100,000 elements under 5,000
rules.
"""

import os
import subprocess

from run import BenchError, hyperfine, mb, ms, ratio, run_probe, verdict


def css_page(path, elements=100_000, rules=5_000):
    """A page of `elements` elements in nested divs, paragraphs and spans with classes, and a <style> of `rules`
    rules: class, type, descendant, child and attribute selectors, a few of which hide something."""
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>CSS bench page</title><style>"]
    for k in range(rules):
        kind = k % 5
        if kind == 0:
            parts.append(f".c{k} {{ font-weight: bold }}\n")
        elif kind == 1:
            parts.append(f"div.c{k} > p {{ font-style: italic }}\n")
        elif kind == 2:
            parts.append(f"#i{k} span.s{k % 97} {{ display: none }}\n")
        elif kind == 3:
            parts.append(f"section .c{k} a[href^='#'] {{ color: red }}\n")
        else:
            parts.append(f"p:nth-child(2n+1).c{k} {{ visibility: hidden }}\n")
    parts.append("</style></head><body>")
    count = 0
    n = 0
    while count < elements:
        parts.append(f"<div class='c{n % rules} box' id='i{n % rules}'><p class='c{(n * 7) % rules}'>Paragraph {n} "
                     f"with <span class='s{n % 97}'>a span</span> and <a href='#i{n}'>a link</a>.</p>"
                     f"<p>Second paragraph {n} of plain words.</p></div>\n")
        count += 5
        n += 1
    parts.append("</body></html>\n")
    with open(path, "w") as f:
        f.write("".join(parts))
    return path


def css_pages(bench):
    pages = []
    for path in ("/usr/share/doc/python3/python-policy.html", "/usr/share/doc/nodejs/api/addons.html",
                 "/usr/share/doc/nodejs/api/fs.html"):
        if os.path.exists(path):
            pages.append((f"{path.replace('/usr/share/doc/', '')} ({os.path.getsize(path) / 1e3:.0f} KB, real, "
                          f"linked stylesheets)", path))
    pages.append(("100,000 elements, 5,000 rules (generated)", css_page(os.path.join(bench.tmp, "css.html"))))
    return pages


def row_css(bench, report):
    warmup, runs = (1, 5) if not bench.quick else (0, 2)
    for label, path in css_pages(bench):
        tools = [("with CSS", [bench.binary, "--dump", path]), ("without CSS", [bench.binary, "--no-css", "--dump", path]),
                 ("w3m", ["w3m", "-dump", path])]
        results = {}
        for name, cmd in tools:
            try:
                _, peak, rc, out_bytes = run_probe(bench, cmd)
                if rc != 0:
                    results[name] = {"error": f"exit status {rc}"}
                    continue
                median_t, lo, hi, n = hyperfine(bench, name, cmd, warmup, runs)
                results[name] = {"time": median_t, "peak": peak}
                report.detail("css", f"{label}: {name} median {ms(median_t)} (min {ms(lo)}, max {ms(hi)}, {n} runs), "
                                     f"peak RSS {mb(peak)}, output {out_bytes / 1e3:.0f} KB")
            except (BenchError, subprocess.TimeoutExpired, OSError) as error:
                results[name] = {"error": str(error)}
        app = results["with CSS"]
        if "error" in app:
            report.na("Page style", f"{label}, --dump time", app["error"], "≤ 1.3× without CSS")
            continue
        plain = results["without CSS"]
        if "error" not in plain:
            report.add("Page style", f"{label}, --dump time", ms(app["time"]), "without CSS", ms(plain["time"]),
                       ratio(app["time"], plain["time"]), "≤ 1.3×", verdict(app["time"] <= 1.3 * plain["time"]))
            report.add("Page style", f"{label}, peak memory", mb(app["peak"]), "without CSS", mb(plain["peak"]),
                       ratio(app["peak"], plain["peak"]), "≤ 1.3×", verdict(app["peak"] <= 1.3 * plain["peak"]))
        w3m = results["w3m"]
        if "error" not in w3m:
            report.add("Page style", f"{label}, --dump time", ms(app["time"]), "w3m", ms(w3m["time"]),
                       ratio(app["time"], w3m["time"]), "faster", verdict(app["time"] < w3m["time"]))
