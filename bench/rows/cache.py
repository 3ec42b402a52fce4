"""Row "cache": Back to a 1 MB page from the page cache against reloading it.
"""

import time

from run import BenchError, launch_app, median, ms, ratio


def row_cache(bench, report):
    since = bench.mark()
    proc, window = launch_app(bench, bench.url("/cache"), title="Cache page 1", timeout=30)
    back, reload, notes = [], [], []
    try:
        n = 1
        for _ in range(3 if not bench.quick else 2):
            other = "Other page"
            bench.navigate(window, bench.url("/page?title=Other%20page"))
            if not bench.xprobe_result(bench.xprobe_wait("--window", window, "--title", other, "--exact",
                                                         "--no-paint", timeout=15)):
                raise BenchError("the second page did not show")
            time.sleep(0.5)
            requests_before = sum(1 for e in bench.events[since:] if e.get("ev") == "request" and e["path"] == "/cache")
            result = bench.xprobe_result(bench.xprobe_wait("--window", window, "--title", f"Cache page {n}", "--exact",
                                                           "--key", "alt+Left", timeout=15))
            if not result:
                raise BenchError(f"Back did not show “Cache page {n}” within 15 s (title {bench.title_of(window)!r})")
            time.sleep(0.3)
            requests_after = sum(1 for e in bench.events[since:] if e.get("ev") == "request" and e["path"] == "/cache")
            back.append(result[2] - result[0])
            if requests_after != requests_before:
                notes.append("Back requested the page again")
            time.sleep(0.5)
            mark = bench.mark()
            result = bench.xprobe_result(bench.xprobe_wait("--window", window, "--title", f"Cache page {n + 1}",
                                                           "--exact", "--key", "F5", timeout=20))
            if not result:
                raise BenchError(f"Reload did not show “Cache page {n + 1}” (title {bench.title_of(window)!r})")
            request = bench.wait_event(mark, 0, ev="request", path="/cache")
            sent = request and bench.wait_event(mark, 0, ev="sent", id=request["id"])
            reload.append(result[2] - result[0])
            if request and sent:
                notes.append(f"reload: request {ms(request['t'] - result[0])} after F5, body sent "
                             f"{ms(sent['t'] - request['t'])} later, page painted at {ms(result[2] - result[0])}")
            n += 1
            time.sleep(0.5)
    finally:
        bench.end_apps()
        proc.wait(timeout=5)
    report.detail("cache", "method: a 1 MB page titled “Cache page N” (N counts the server's requests for it), then "
                           "a small page typed into the address entry; Alt+Left (Back) and F5 (Reload) through XTEST; "
                           "time = key → first paint after the title is back (bench/xprobe). "
                           f"Back: {', '.join(ms(b) for b in back)}; Reload: {', '.join(ms(r) for r in reload)}. "
                           + "; ".join(notes))
    if not back:
        report.na("Back/forward", "Back to a 1 MB page from the page cache", "no sample")
        return
    cached = not any("requested the page again" in n for n in notes)
    report.add("Back/forward", "Back to a 1 MB page (page cache" + ("" if cached else "? it went to the network") + ")",
               ms(median(back)), "Reload of the same page", ms(median(reload)) if reload else "n/a",
               ratio(median(back), median(reload)) if reload else "n/a", "(none)", "—")
