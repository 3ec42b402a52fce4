"""Row "render": `--dump` of real documentation pages near 20 KB, 100 KB and 400 KB, two generated pages of 5 and 8 MB
and the largest real HTML document installed, timed with hyperfine beside w3m, lynx, links2 and html2text, with
each program's peak memory.
"""

import gzip
import os
import shutil
import statistics
import subprocess

from run import BenchError, generate_page, hyperfine, mb, ms, ratio, real_large_document, run_probe, short, verdict


def ordinary_documents(tmp):
    """Real documentation pages under /usr/share/doc near 20 KB, 100 KB and 400 KB (the closest within a factor of
    1.5 each, .html or .html.gz); a generated page where there is none."""
    candidates = []
    for dirpath, _, names in os.walk("/usr/share/doc"):
        for name in names:
            path = os.path.join(dirpath, name)
            try:
                if name.endswith((".html", ".htm")) and not os.path.islink(path):
                    candidates.append((os.path.getsize(path), path))
                elif name.endswith((".html.gz", ".htm.gz")) and not os.path.islink(path):
                    with gzip.open(path) as f:
                        candidates.append((len(f.read()), path))
            except OSError:
                continue
    files = []
    for target in (20_000, 100_000, 400_000):
        near = [(abs(size - target), size, path) for size, path in candidates if target / 1.5 <= size <= target * 1.5]
        if near:
            _, size, path = min(near)
            if path.endswith(".gz"):
                out = os.path.join(tmp, f"doc{target}-" + os.path.basename(path)[:-3])
                with gzip.open(path) as src, open(out, "wb") as dst:
                    shutil.copyfileobj(src, dst)
                path = out
            files.append((f"{os.path.basename(path)} ({size / 1e3:.0f} KB, real)", path))
        else:
            files.append((f"{target // 1000} KB generated page",
                          generate_page(os.path.join(tmp, f"ordinary{target}.html"), target,
                                        f"Generated page, {target // 1000} KB", target)))
    return files


def row_render(bench, report):
    files = ordinary_documents(bench.tmp)
    for label, size, seed in (("5 MB generated page", 5_000_000, 5), ("8 MB generated page", 8_000_000, 8)):
        files.append((label, generate_page(os.path.join(bench.tmp, f"gen{seed}.html"), size,
                                           f"Generated page, {size // 1_000_000} MB", seed)))
    real, where = real_large_document(bench.tmp)
    if real:
        files.append((f"{where.replace('/usr/share/doc/', '')} ({os.path.getsize(real) / 1e6:.1f} MB, real)", real))
    else:
        report.na("Rendering", "real large HTML document", where, "faster than each")
    tools = [("gtkprogress", lambda f: [bench.binary, "--dump", f]),
             ("w3m", lambda f: ["w3m", "-dump", f]),
             ("lynx", lambda f: ["lynx", "-dump", f]),
             ("links2", lambda f: ["links2", "-dump", f]),
             ("html2text", lambda f: ["html2text", "-utf8", f])]
    if not bench.binary:
        tools = tools[1:]
    slow = 5.0  # a command whose single probe run takes longer gets 2 measured runs and no warm-up
    warmup, runs = (1, 5) if not bench.quick else (0, 2)
    for label, path in files:
        # One probe run each: exit status, output size, peak memory, and whether hyperfine can afford 5 runs.
        results = {}
        for name, make in tools:
            try:
                elapsed, peak, rc, out_bytes = run_probe(bench, make(path))
                results[name] = ({"error": f"exit status {rc}"} if rc != 0 else
                                 {"probe": elapsed, "peak": peak, "out": out_bytes})
            except (subprocess.TimeoutExpired, OSError) as error:
                results[name] = {"error": str(error)}
        # A dump far smaller than the others' is no rendering of the page (an error message, a usage text).
        for name, r in results.items():
            others = [o["out"] for n, o in results.items() if n != name and "error" not in o]
            if "error" not in r and others and r["out"] < 0.2 * statistics.median(others):
                results[name] = {"error": f"printed {r['out']} bytes where the others print about "
                                          f"{statistics.median(others):.0f}: not a rendering of the page"}
        for name, make in tools:
            r = results[name]
            if "error" in r:
                report.detail("render", f"{label}: {name} failed: {r['error']}")
                continue
            try:
                median_t, lo, hi, n = hyperfine(bench, name, make(path), *((0, 2) if r["probe"] > slow
                                                                           else (warmup, runs)))
                r["time"] = median_t
                report.detail("render", f"{label}: {name} median {ms(median_t)} (min {ms(lo)}, max {ms(hi)}, "
                                        f"{n} runs), peak RSS {mb(r['peak'])}, output {r['out'] / 1e6:.2f} MB")
            except (BenchError, subprocess.TimeoutExpired, OSError) as error:
                results[name] = {"error": str(error)}
                report.detail("render", f"{label}: {name} failed: {error}")
        app = results.get("gtkprogress", {"error": "no gtkprogress binary"})
        for name, _ in tools[1:] if bench.binary else tools:
            other = results[name]
            if "error" in app:
                report.na("Rendering", f"{label}, time", app["error"], "faster", name,
                          ms(other["time"]) if "time" in other else f"n/a ({short(other.get('error', ''), 60)})")
                continue
            if "error" in other:
                report.add("Rendering", f"{label}, time", ms(app["time"]), name, f"n/a ({other['error']})", "n/a",
                           "faster", "n/a")
                continue
            report.add("Rendering", f"{label}, time", ms(app["time"]), name, ms(other["time"]),
                       ratio(app["time"], other["time"]), "faster", verdict(app["time"] < other["time"]))
        if "error" not in app:
            # Peak memory against every peer; the target is w3m's (within 2x lynx's is a stretch).
            for name, _ in tools[1:]:
                other = results.get(name, {})
                target = "lower" if name == "w3m" else ""
                if "error" in other:
                    report.add("Rendering", f"{label}, peak memory", mb(app["peak"]), name, "n/a", "n/a", target,
                               "n/a" if target else "")
                    continue
                report.add("Rendering", f"{label}, peak memory", mb(app["peak"]), name, mb(other["peak"]),
                           ratio(app["peak"], other["peak"]), target,
                           verdict(app["peak"] < other["peak"]) if target else "")
