#!/usr/bin/python3
"""GtkProgress against the programs people use instead, side by side, as ratios.

Usage: /usr/bin/python3 bench/run.py path/to/gtkprogress [--quick] [--rows startup,render,...] [--out FILE]

Prints a table and writes bench/results.md (or --out). bench/README.md describes every row and its method.
Everything it starts (Xvfb, a private D-Bus, the loopback server bench/benchserver.py, the programs measured and
whatever they spawn) carries BENCH_MARK in its environment and is ended by its id when the row, or the run, ends.
"""

import argparse
import ctypes
import datetime
import gzip
import html
import json
import os
import platform
import random
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ROWS = ["startup", "memory", "render", "load", "tick", "mainloop", "stop", "cache", "slow", "slowcjk", "find", "huge",
        "hugea11y", "hugereader", "longtext", "pagemem", "css", "images"]
ROW_NAMES = {"startup": "Startup", "memory": "Memory", "render": "Rendering", "load": "Loading",
             "tick": "The bar", "mainloop": "Main loop", "stop": "Stop", "cache": "Back/forward",
             "slow": "Slow large page", "slowcjk": "Slow non-Latin page", "find": "Find in page",
             "huge": "Huge page", "hugea11y": "Huge page", "hugereader": "Huge page", "longtext": "Huge page", "pagemem": "Page memory", "css": "Page style",
             "images": "Images"}
STARTUP_TITLE = "GtkProgress bench startup page"
FLOOR = "GTK floor: same chrome and styled page in C"


# ---------------------------------------------------------------------------------------------------------------
# Formatting

def ms(seconds):
    if seconds is None:
        return "n/a"
    v = seconds * 1000
    return f"{v:.0f} ms" if v >= 100 else f"{v:.1f} ms" if v >= 1 else f"{v:.2f} ms"


def mb(num_bytes):
    return "n/a" if num_bytes is None else f"{num_bytes / 1e6:.1f} MB"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return "n/a"
    return f"{a / b:.2f}×"


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


class Line:
    """One line of the table: gtkprogress's figure, an alternative's, the ratio, the target and the verdict."""

    def __init__(self, row, measure, app, alt_name="", alt="", ratio_text="", target="", met=""):
        self.cells = [row, measure, app, alt_name, alt, ratio_text, target, met]


class Report:
    def __init__(self):
        self.lines = []
        self.details = {}
        self.unmet = []
        self.notes = []
        self.missing = []

    def add(self, *args, **kwargs):
        line = Line(*args, **kwargs)
        self.lines.append(line)
        if line.cells[7] == "not met":
            self.unmet.append(f"{line.cells[0]} — {line.cells[1]}: {line.cells[2]}"
                              + (f" vs {line.cells[3]} {line.cells[4]} ({line.cells[5]})" if line.cells[3] else "")
                              + f"; target {line.cells[6]}")
        return line

    def na(self, row, measure, reason, target="", alt_name="", alt=""):
        """A line gtkprogress has no figure for; the reason goes to the table (shortened) and, once per row and
        reason, to the list of what was not measured."""
        self.add(row, measure, f"n/a ({short(reason)})", alt_name, alt, "n/a" if alt_name else "", target, "n/a")
        if (row, reason) not in self.missing:
            self.missing.append((row, reason))

    def detail(self, row, text):
        self.details.setdefault(row, []).append(text)

    def table(self):
        head = ["Row", "Measure", "gtkprogress", "Alternative", "Its figure", "Ratio", "Target", "Met"]
        rows = [head] + [l.cells for l in self.lines]
        return "\n".join("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |"
                         + ("\n|" + "|".join("---" for _ in head) + "|" if i == 0 else "")
                         for i, r in enumerate(rows))


def short(reason, limit=90):
    reason = re.sub(r" at 0x[0-9a-f]+", "", str(reason))
    return reason if len(reason) <= limit else reason[:limit - 1] + "…"


def verdict(ok):
    return "met" if ok else "not met"


# ---------------------------------------------------------------------------------------------------------------
# Processes: everything started carries BENCH_MARK; this process is the subreaper of what they daemonize.

def set_subreaper():
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except OSError:
        pass


def marked_pids(tag):
    needle = b"\0BENCH_MARK=" + tag.encode() + b"\0"
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = b"\0" + f.read()
        except OSError:
            continue
        if needle in env if env.endswith(b"\0") else needle in env + b"\0":
            pids.append(int(name))
    return pids


def gone(pid):
    """True once pid has exited (reaping it if it is our child)."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return True
    except ChildProcessError:
        pass
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def end_pids(pids, grace=2.0):
    for pid in pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + grace
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        alive = [p for p in alive if not gone(p)]
        if alive:
            time.sleep(0.02)
    for pid in alive:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 2
    while alive and time.monotonic() < deadline:
        alive = [p for p in alive if not gone(p)]
        if alive:
            time.sleep(0.02)


def proc_status(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def proc_pss(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def cpu_seconds(pid):
    """CPU time of all the process's threads: schedstat (ns) when available, else utime+stime (clock ticks)."""
    total, ok = 0, False
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[0])
                    ok = True
            except (OSError, ValueError, IndexError):
                pass
    except OSError:
        return None
    if ok:
        return total / 1e9
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def context_switches(pid):
    """Context switches by thread id: every wakeup of a sleeping thread is one."""
    counts = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                counts[tid] = sum(int(line.split()[1]) for line in f
                                  if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")))
        except OSError:
            pass
    return counts


def wakeups_between(before, after):
    """Wakeups from two `context_switches` readings: the growth of threads alive at both, the switches of threads
    born in between, and one for each thread that ended (it woke at least to end)."""
    grown = sum(after[t] - before[t] for t in after if t in before)
    born = sum(after[t] for t in after if t not in before)
    ended = sum(1 for t in before if t not in after)
    return grown + born + ended, ended


# ---------------------------------------------------------------------------------------------------------------
# The bench: Xvfb, D-Bus, server, helpers

def poll_timeout(call):
    """The timeout argument of a poll/ppoll line from strace, in ms ("-1" for none)."""
    m = re.search(r"\],\s*\d+,\s*(-?\d+)", call)
    if m:
        return m.group(1)
    m = re.search(r"\{tv_sec=(\d+),\s*tv_nsec=(\d+)\}", call)
    if m:
        return str(round(int(m.group(1)) * 1000 + int(m.group(2)) / 1e6))
    return "-1" if re.search(r"\],\s*\d+,\s*NULL", call) else "?"


def exit_text(status):
    if status is not None and status < 0:
        try:
            return f"was killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"was killed by signal {-status}"
    return f"exited with status {status}"


class BenchError(Exception):
    pass


class Bench:
    def __init__(self, binary, quick, keep, variants=()):
        self.binary = os.path.abspath(binary) if binary else None
        # Other builds of gtkprogress (LABEL, path), launched in the same rounds as `binary` by the startup and
        # memory rows: a build trick against its removal, on the same machine at the same moment.
        self.variants = [(label, os.path.abspath(path)) for label, path in variants]
        self.quick = quick
        self.keep = keep
        self.tag = uuid.uuid4().hex[:12]
        self.tmp = tempfile.mkdtemp(prefix="gtkprogress-bench-")
        self.home = os.path.join(self.tmp, "home")
        self.runtime = os.path.join(self.tmp, "run")
        for d in (self.home, self.runtime):
            os.makedirs(d, mode=0o700)
        self.log = open(os.path.join(self.tmp, "programs.log"), "ab")
        self.events = []
        self.events_cv = threading.Condition()
        self.display = None
        self.bus = None
        self.port = None
        self.infra = []

    # environment

    def env(self, role="app", extra=None):
        env = {k: os.environ[k] for k in ("PATH", "USER", "LOGNAME", "TERM") if k in os.environ}
        env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
        env.update(HOME=self.home, XDG_RUNTIME_DIR=self.runtime,
                   XDG_CONFIG_HOME=os.path.join(self.home, ".config"),
                   XDG_CACHE_HOME=os.path.join(self.home, ".cache"),
                   XDG_DATA_HOME=os.path.join(self.home, ".local", "share"),
                   LANG="C.UTF-8", LC_ALL="C.UTF-8", NO_AT_BRIDGE="1", GTK_A11Y="none", GDK_BACKEND="x11",
                   GSETTINGS_BACKEND="memory", BENCH_MARK=f"{self.tag}-{role}")
        if self.display:
            env["DISPLAY"] = self.display
        if self.bus:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.bus
        env.update(extra or {})
        return env

    def popen(self, cmd, role="app", extra_env=None, **kwargs):
        kwargs.setdefault("stdout", self.log)
        kwargs.setdefault("stderr", self.log)
        kwargs.setdefault("stdin", subprocess.DEVNULL)
        return subprocess.Popen(cmd, env=self.env(role, extra_env), **kwargs)

    def log_offset(self):
        self.log.flush()
        return self.log.tell()

    def log_reason(self, offset):
        """The first line that looks like a crash or error in what the programs wrote since `offset`."""
        self.log.flush()
        with open(self.log.name, "rb") as f:
            f.seek(offset)
            text = f.read(200_000).decode(errors="replace")
        lines = [l.strip() for l in text.splitlines() if "DBus.Error.AccessDenied" not in l]
        for i, line in enumerate(lines):
            if re.search(r"Program crashed|Fatal error", line):
                frame = next((re.sub(r"\s+", " ", l) for l in lines[i + 1:i + 8] if re.match(r"\d+ ", l)), "")
                frame = re.sub(r"^\d+ (\[[^]]*\] )*\s*0x[0-9a-f]+ ", "", frame)
                return (line.strip("* ") + (f" in {frame}" if frame else ""))[:240]
        for line in lines:
            if re.search(r"crash|fatal|error|critical|abort", line, re.I) and "backtraces will be missing" not in line:
                return line[:200]
        return ""

    def end_apps(self):
        """Ends every measured program and whatever it spawned (e.g. Dillo's dpid, which daemonizes)."""
        end_pids(marked_pids(f"{self.tag}-app"))

    def end_launch(self, proc, dillo=False):
        """The end of one measured launch: its programs ended, `proc` reaped, Dillo's dpid stopped after Dillo."""
        self.end_apps()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        if dillo:
            dpid(self, False)

    # setup

    def start(self):
        set_subreaper()
        self.compile_helpers()
        self.start_xvfb()
        self.start_dbus()
        self.start_server()

    def compile_helpers(self):
        self.xprobe = os.path.join(self.tmp, "xprobe")
        self.bare = os.path.join(self.tmp, "bare-gtk-window")
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "x11", "xdamage", "xtst"], capture_output=True,
                               text=True, check=True).stdout.split()
        subprocess.run(["gcc", "-O2", "-o", self.xprobe, os.path.join(HERE, "xprobe.c")] + flags, check=True)
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "gtk+-3.0"], capture_output=True, text=True,
                               check=True).stdout.split()
        subprocess.run(["gcc", "-O2", "-o", self.bare, os.path.join(HERE, "bare-gtk-window.c")] + flags, check=True,
                       stderr=subprocess.DEVNULL)
        self.floor = os.path.join(self.tmp, "chrome-floor-window")
        subprocess.run(["gcc", "-O2", "-o", self.floor, os.path.join(HERE, "chrome-floor-window.c")] + flags,
                       check=True, stderr=subprocess.DEVNULL)

    def start_xvfb(self):
        read, write = os.pipe()
        proc = self.popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-ac", "-nolisten", "tcp",
                           "-noreset"], role="infra", pass_fds=(write,))
        os.close(write)
        self.infra.append(proc)
        number = b""
        deadline = time.monotonic() + 15
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(read, 16)
            if not chunk:
                break
            number += chunk
        os.close(read)
        if not number.strip():
            raise BenchError("Xvfb did not start")
        self.display = ":" + number.decode().strip()

    def start_dbus(self):
        read, write = os.pipe()
        proc = self.popen(["dbus-daemon", "--config-file=/usr/share/dbus-1/session.conf", "--nofork",
                           f"--address=unix:path={self.runtime}/bus", f"--print-address={write}"],
                          role="infra", pass_fds=(write,))
        os.close(write)
        self.infra.append(proc)
        with os.fdopen(read) as f:
            self.bus = f.readline().strip()
        if not self.bus:
            raise BenchError("dbus-daemon did not start")

    def start_server(self):
        proc = self.popen(["/usr/bin/python3", os.path.join(HERE, "benchserver.py")], role="infra",
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.infra.append(proc)
        self.server = proc
        self.port = int(proc.stdout.readline())

        def reader():
            for line in proc.stdout:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                with self.events_cv:
                    self.events.append(event)
                    self.events_cv.notify_all()
        threading.Thread(target=reader, daemon=True).start()

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def mark(self):
        with self.events_cv:
            return len(self.events)

    def wait_event(self, since, timeout, **match):
        """The first server event after index `since` whose fields equal `match`."""
        deadline = time.monotonic() + timeout
        with self.events_cv:
            while True:
                for event in self.events[since:]:
                    if all(event.get(k) == v for k, v in match.items()):
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.events_cv.wait(left)

    def close(self):
        self.end_apps()
        end_pids(marked_pids(f"{self.tag}-dpid"))
        try:
            self.server.stdin.close()
        except Exception:
            pass
        end_pids(marked_pids(f"{self.tag}-infra"))
        for proc in self.infra:
            try:
                proc.wait(timeout=1)
            except Exception:
                pass
        self.log.close()
        if not self.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)

    # X helpers

    def xprobe_wait(self, *args, timeout=20):
        """Starts `xprobe wait`; returns the process once it watches the screen."""
        proc = subprocess.Popen([self.xprobe, "wait", "--timeout", str(timeout), *args], env=self.env("infra"),
                                stdout=subprocess.PIPE, text=True)
        if not args or "--key" not in args:
            line = proc.stdout.readline().strip()
            if line != "ready":
                proc.kill()
                proc.wait()
                raise BenchError(f"xprobe did not start ({line!r})")
        return proc

    @staticmethod
    def xprobe_result(proc, watch=None):
        """(t_sent or None, t_title, t_paint, window, pid, title), or None on timeout, or if the process `watch`
        has been gone for 1 s (a program that exits never shows its window)."""
        import select
        sent = None
        result = None
        exited_at = None
        buffer = ""
        fd = proc.stdout.fileno()
        while True:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                chunk = os.read(fd, 4096).decode()
                if not chunk:
                    break
                buffer += chunk
                continue
            if watch is not None and watch.poll() is not None:
                exited_at = exited_at or time.monotonic()
                if time.monotonic() - exited_at > 1.0:
                    proc.kill()
                    break
        for line in buffer.splitlines():
            parts = line.strip().split(" ", 5)
            if parts[0] == "sent":
                sent = float(parts[1])
            elif parts[0] == "found":
                result = (sent, float(parts[1]), float(parts[2]), parts[3], int(parts[4]),
                          parts[5] if len(parts) > 5 else "")
        proc.wait()
        return result

    def window_of(self, proc, timeout=20, title=None):
        args = ["--pid", str(proc.pid), "--no-paint"] + (["--title", title] if title else [])
        result = self.xprobe_result(self.xprobe_wait(*args, timeout=timeout), watch=proc)
        return result[3] if result else None

    def key(self, window, key):
        out = subprocess.run([self.xprobe, "key", window, key], env=self.env("infra"), capture_output=True,
                             text=True, timeout=10).stdout.split()
        return float(out[1]) if len(out) == 2 and out[0] == "sent" else None

    def type_text(self, window, text):
        subprocess.run(["xdotool", "type", "--delay", "5", "--window", window, text], env=self.env("infra"),
                       capture_output=True, timeout=30)

    def navigate(self, window, url):
        """Types url into the address entry (Ctrl+L) and presses Return; returns the time of the Return."""
        self.key(window, "ctrl+l")
        subprocess.run(["xdotool", "type", "--delay", "5", url], env=self.env("infra"), capture_output=True,
                       timeout=30)
        return self.key(window, "Return")

    def title_of(self, window):
        return subprocess.run(["xdotool", "getwindowname", window], env=self.env("infra"), capture_output=True,
                              text=True).stdout.strip()

    def strace_polls(self, pid, seconds):
        """Main-loop wakeups seen by strace: poll/ppoll returns per thread, and the timeouts they were given."""
        out = os.path.join(self.tmp, "strace.txt")
        proc = subprocess.Popen(["strace", "-f", "-qq", "-e", "trace=poll,ppoll", "-o", out, "-p", str(pid)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(seconds)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
        if not os.path.exists(out):
            return None
        pending, returns, timeouts = {}, 0, {}
        with open(out) as f:
            for line in f:
                m = re.match(r"(\d+)\s+(.*)", line)
                if not m:
                    continue
                tid, rest = m.groups()
                if rest.startswith(("poll(", "ppoll(")):
                    pending[tid] = poll_timeout(rest)
                    if "<unfinished" in rest:
                        continue
                elif not rest.startswith("<... "):
                    continue
                if re.search(r"\) = \d+", rest):
                    returns += 1
                    if "= 0 (Timeout)" in rest:
                        key = pending.get(tid, "?")
                        timeouts[key] = timeouts.get(key, 0) + 1
        return returns, timeouts


# ---------------------------------------------------------------------------------------------------------------
# Pages

WORDS = ("progress bar page loader curve time bytes network window text link history back forward reload stop "
         "render paragraph heading list table quiet reader screen pixel theme colour fade timer tick server request "
         "response header body chunk length redirect cache scroll title entry address desktop café naïve "
         "日本語 données größe").split()


def generate_page(path, size, title, seed):
    """Deterministic HTML of about `size` bytes: headings, paragraphs with inline markup, entities and links,
    nested lists, tables, preformatted blocks and quotes, UTF-8."""
    rng = random.Random(seed)
    out = [f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title></head><body>\n'
           f'<h1>{title}</h1>\n']
    total = sum(len(s.encode()) for s in out)
    section = 0

    def sentence(n):
        words = []
        for _ in range(n):
            w = rng.choice(WORDS)
            r = rng.random()
            if r < 0.03:
                w = f'<a href="#s{rng.randint(1, max(1, section))}">{w}</a>'
            elif r < 0.05:
                w = f"<em>{w}</em>"
            elif r < 0.07:
                w = f"<strong>{w}</strong>"
            elif r < 0.08:
                w = f"<code>{w}()</code>"
            elif r < 0.09:
                w = f"{w} &amp; {rng.choice(WORDS)} &lt;{rng.choice(WORDS)}&gt; &eacute;t&eacute;"
            words.append(w)
        return " ".join(words).capitalize() + "."

    while total < size:
        section += 1
        block = [f'<h2 id="s{section}">Section {section}</h2>\n']
        for _ in range(rng.randint(2, 5)):
            block.append(f"<p>{sentence(rng.randint(30, 90))}</p>\n")
        kind = section % 5
        if kind == 0:
            block.append("<ul>" + "".join(f"<li>{sentence(rng.randint(3, 10))}"
                                          + ("<ol>" + "".join(f"<li>{rng.choice(WORDS)}</li>" for _ in range(3))
                                             + "</ol>" if rng.random() < 0.3 else "") + "</li>"
                                          for _ in range(rng.randint(3, 8))) + "</ul>\n")
        elif kind == 1:
            rows = "".join("<tr>" + "".join(f"<td>{rng.choice(WORDS)} {rng.randint(1, 999)}</td>" for _ in range(4))
                           + "</tr>" for _ in range(rng.randint(2, 6)))
            block.append(f"<table><tr><th>name</th><th>value</th><th>unit</th><th>note</th></tr>{rows}</table>\n")
        elif kind == 2:
            block.append("<pre>" + "\n".join(f"  {rng.choice(WORDS)} = {rng.randint(0, 1 << 16)};"
                                             for _ in range(rng.randint(3, 9))) + "</pre>\n")
        elif kind == 3:
            block.append(f"<blockquote><p>{sentence(25)}</p></blockquote>\n")
        text = "".join(block)
        out.append(text)
        total += len(text.encode())
    out.append("</body></html>\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(out))
    return path


def startup_page(path):
    """A small, ordinary page (about 20 KB)."""
    return generate_page(path, 20_000, STARTUP_TITLE, seed=1)


def real_large_document(tmp):
    """The largest HTML document under /usr/share/doc (also .html.gz, decompressed), at least 1 MB."""
    best, best_size = None, 0
    for dirpath, _, files in os.walk("/usr/share/doc"):
        for name in files:
            path = os.path.join(dirpath, name)
            try:
                if name.endswith((".html", ".htm")) and not os.path.islink(path):
                    size = os.path.getsize(path)
                elif name.endswith((".html.gz", ".htm.gz")) and os.path.getsize(path) > 200_000:
                    with gzip.open(path) as f:
                        size = len(f.read())
                else:
                    continue
            except OSError:
                continue
            if size > best_size:
                best, best_size = path, size
    if not best or best_size < 1_000_000:
        return None, (f"largest HTML under /usr/share/doc is {best} ({best_size / 1e6:.2f} MB), under 1 MB"
                      if best else "no HTML document under /usr/share/doc")
    if best.endswith(".gz"):
        out = os.path.join(tmp, os.path.basename(best)[:-3])
        with gzip.open(best) as src, open(out, "wb") as dst:
            shutil.copyfileobj(src, dst)
        return out, best
    return best, best


# ---------------------------------------------------------------------------------------------------------------
# Rows 1 and 2, startup and memory, are in rows/startup.py; Dillo's plugin daemon is started here for them and others.

def dpid(bench, running):
    """Starts Dillo's plugin daemon as a session service, or ends it."""
    pids = [p for p in marked_pids(f"{bench.tag}-dpid") if not gone(p)]
    if running and not pids:
        bench.popen(["/usr/libexec/dillo/dpid"], role="dpid")
        time.sleep(0.3)
    elif not running and pids:
        end_pids(pids)


# ---------------------------------------------------------------------------------------------------------------
# Timing a command, for rows/render.py, rows/css.py and the rows below

def run_probe(bench, cmd):
    """One run under /usr/bin/time: (seconds, peak RSS bytes, exit status, output bytes)."""
    out = os.path.join(bench.tmp, "probe.out")
    timing = os.path.join(bench.tmp, "probe.time")
    t0 = time.monotonic()
    with open(out, "wb") as f:
        rc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", timing] + cmd, stdout=f, stderr=bench.log,
                            env=bench.env("app"), timeout=300).returncode
    elapsed = time.monotonic() - t0
    with open(timing) as f:
        peak = [l for l in f.read().split("\n") if l.strip().isdigit()]
    return elapsed, int(peak[-1]) * 1024 if peak else None, rc, os.path.getsize(out)


def hyperfine(bench, name, cmd, warmup, runs):
    out = os.path.join(bench.tmp, "hyperfine.json")
    result = subprocess.run(["hyperfine", "-N", "--style", "none", "--warmup", str(warmup), "--runs", str(runs),
                             "--export-json", out, "--command-name", name, " ".join(shlex.quote(c) for c in cmd)],
                            env=bench.env("app"), capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        raise BenchError(f"hyperfine failed: {result.stderr.strip()[-200:]}")
    with open(out) as f:
        data = json.load(f)["results"][0]
    return data["median"], data["min"], data["max"], len(data["times"])


# ---------------------------------------------------------------------------------------------------------------
# Row 4: loading

LOADER_FLAGS = ("--load-only", "--fetch-only", "--download-only", "--discard", "--fetch")


def app_help(bench):
    try:
        return subprocess.run([bench.binary, "--help"], capture_output=True, text=True, timeout=10,
                              env=bench.env("app")).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""


def row_load(bench, report):
    help_text = app_help(bench)
    flag = next((f for f in LOADER_FLAGS if re.search(re.escape(f) + r"\b", help_text)), None)
    if flag:
        size_mb, app_cmd = 200, lambda url: [bench.binary, flag, url]
        how = f"`gtkprogress {flag} URL`"
    else:
        # --dump holds the body within the 64 MiB size cap, so a 200 MB body would fail: 60 MB instead.
        size_mb, app_cmd = 60, lambda url: [bench.binary, "--dump", url]
        how = "`gtkprogress --dump URL` (no loader-only flag in --help; 200 MB exceeds the 64 MiB cap, so 60 MB)"
    url = bench.url(f"/big?mb={size_mb}")
    total = size_mb * 1_000_000
    commands = {"gtkprogress": app_cmd(url), "curl": ["curl", "-s", "-o", "/dev/null", url]}
    speeds = {"gtkprogress": [], "curl": []}
    walls = {"gtkprogress": [], "curl": []}
    errors = {}
    runs = 5 if not bench.quick else 2
    for i in range(runs + 1):
        for name, cmd in commands.items():
            if name in errors:
                continue
            since = bench.mark()
            t0 = time.monotonic()
            result = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=bench.env("app"),
                                    timeout=120)
            wall = time.monotonic() - t0
            request = bench.wait_event(since, 5, ev="request", path="/big")
            end = request and bench.wait_event(since, 5, ev="end", id=request["id"])
            sent = request and bench.wait_event(since, 0, ev="sent", id=request["id"])
            if result.returncode != 0 or not end or not sent:
                closed = request and bench.wait_event(since, 0, ev="closed", id=request["id"])
                errors[name] = (f"exit status {result.returncode}, "
                                + (f"connection closed after {closed['bytes'] / 1e6:.1f} MB" if closed else
                                   "no complete transfer in the server log")
                                + (f": {result.stderr.decode(errors='replace').strip()[-120:]}" if result.stderr else ""))
                continue
            if i > 0:
                speeds[name].append(total / (end["t"] - request["t"]))
                walls[name].append(wall)
    report.detail("load", f"method: {how}; throughput = body bytes / (request received → client closed the "
                          f"connection after the whole body), server-side; median of {runs} runs after one discarded")
    for name in commands:
        if speeds[name]:
            report.detail("load", f"{name}: median {median(speeds[name]) / 1e6:.0f} MB/s (runs: "
                                  f"{', '.join(f'{s / 1e6:.0f}' for s in speeds[name])}), process wall time median "
                                  f"{ms(median(walls[name]))}")
        if name in errors:
            report.detail("load", f"{name}: failed: {errors[name]}")
    label = f"{size_mb} MB from loopback, throughput"
    if "gtkprogress" in errors:
        report.na("Loading", label, errors["gtkprogress"], "≥ 0.9× curl")
    elif "curl" in errors:
        report.add("Loading", label, f"{median(speeds['gtkprogress']) / 1e6:.0f} MB/s", "curl -o /dev/null",
                   f"n/a ({errors['curl']})", "n/a", "≥ 0.9× curl", "n/a")
    else:
        a, c = median(speeds["gtkprogress"]), median(speeds["curl"])
        report.add("Loading", label + ("" if size_mb == 200 else " (200 MB is over the 64 MiB cap)"),
                   f"{a / 1e6:.0f} MB/s", "curl -o /dev/null", f"{c / 1e6:.0f} MB/s", ratio(a, c), "≥ 0.9× curl",
                   verdict(a >= 0.9 * c))


# ---------------------------------------------------------------------------------------------------------------
# Row 5: the tick

def launch_app(bench, target, title=None, timeout=20, extra_env=None):
    """Starts gtkprogress on target; returns (proc, window)."""
    offset = bench.log_offset()
    proc = bench.popen([bench.binary, target], extra_env=extra_env)
    window = bench.window_of(proc, timeout=timeout, title=title)
    if not window:
        what = f"a window{' titled ' + repr(title) if title else ''}"
        status = proc.poll()
        bench.end_apps()
        if status is not None:
            reason = bench.log_reason(offset)
            raise BenchError(f"gtkprogress {exit_text(status)} without showing {what}"
                             + (f": “{reason}”" if reason else ""))
        raise BenchError(f"gtkprogress showed no {what[2:]} within {timeout} s")
    return proc, window


def idle_wakeups(bench, pid, window, seconds):
    subprocess.run(["xdotool", "windowfocus", "--sync", window], env=bench.env("infra"), capture_output=True,
                   timeout=10)
    # The bar's finish is over and focus-in redraws are done within 2 s; libdispatch ends its idle worker thread
    # (the one that parsed the page) about 5 s after its last job, a one-off that is not the window idling.
    time.sleep(6.0)
    before = context_switches(pid)
    time.sleep(seconds)
    return wakeups_between(before, context_switches(pid))


def damage(bench, window, seconds):
    """(strip repaints, other repaints, strip reports, tallest strip report) in `window` over `seconds`."""
    out = subprocess.run([bench.xprobe, "damage", window, str(seconds), "4"], env=bench.env("infra"),
                         capture_output=True, text=True, timeout=seconds + 10).stdout.split()
    if not out or out[0] != "damage":
        raise BenchError("xprobe damage printed nothing")
    return tuple(int(v) for v in out[1:5])


def row_tick(bench, report):
    # /hold: 2 KB of a 200 KB page at once, the rest 14 s later. The bar moves along the curve from the start and
    # the load counts as stalled from 3 s after the 2 KB (the bar also pulses).
    since = bench.mark()
    proc, window = launch_app(bench, bench.url("/hold?seconds=14&size=200000"))
    try:
        request = bench.wait_event(since, 10, ev="request", path="/hold")
        if not request:
            raise BenchError("the app did not request the page")
        phases = {}
        for name, start, seconds in (("moving", 0.4, 2.0), ("stalled", 4.5, 4.0)):
            time.sleep(max(0.0, request["t"] + start - time.monotonic()))
            c0, t0 = cpu_seconds(proc.pid), time.monotonic()
            strip, other, reports, tallest = damage(bench, window, seconds)
            c1, t1 = cpu_seconds(proc.pid), time.monotonic()
            phases[name] = dict(strip=strip / seconds, other=other, reports=reports, tallest=tallest,
                                cpu=(c1 - c0) / (t1 - t0), span=(start, start + seconds))
        polls = bench.strace_polls(proc.pid, 2.0)
        if bench.wait_event(since, 0, ev="sent", id=request["id"]):
            raise BenchError("the page finished loading before the measurement ended")
        for name, what in (("moving", "the bar moving along the curve"),
                           ("stalled", "no byte since 2 KB: the curve moving and the stall pulse")):
            p = phases[name]
            report.detail("tick", f"{what}, {p['span'][0]:.1f}–{p['span'][1]:.1f} s after the request: "
                                  f"{p['strip']:.1f} strip repaints/s ({p['reports']} XDamage reports no taller "
                                  f"than 4 px, the tallest {p['tallest']} px; {p['other']} other repaints), CPU "
                                  f"{p['cpu'] * 100:.2f}% of one core (all threads)")
        if polls:
            returns, timeouts = polls
            report.detail("tick", f"strace over 2 s while stalled: {returns} poll returns, timeouts by poll timeout "
                                  f"argument {dict(sorted(timeouts.items(), key=lambda kv: -kv[1])[:6])}")
        moving, stalled = phases["moving"], phases["stalled"]
        report.add("The bar", "strip repaints per second while the bar moves (XDamage)", f"{moving['strip']:.0f}/s",
                   "", "", "", "≥ 45/s (frame rate; the 0.1 s tick alone: 10)", verdict(moving["strip"] >= 45))
        report.add("The bar", "CPU while the bar moves", f"{moving['cpu'] * 100:.1f}%", "", "", "",
                   "< 5% of a core", verdict(moving["cpu"] < 0.05))
        report.add("The bar", "CPU while the bar pulses on a stalled server", f"{stalled['cpu'] * 100:.1f}%", "", "",
                   "", "< 5% of a core", verdict(stalled["cpu"] < 0.05))
    finally:
        bench.end_apps()
        proc.wait(timeout=5)

    # Idle: a loaded page, the bar finished; gtkprogress vs the bare window (the floor).
    page = startup_page(os.path.join(bench.tmp, "idle.html"))
    results, reasons = {}, {}
    for name, cmd in (("gtkprogress", [bench.binary, page]), ("bare GTK 3 window", [bench.bare, page])):
        offset = bench.log_offset()
        proc = bench.popen(cmd)
        try:
            window = bench.window_of(proc, timeout=20, title=STARTUP_TITLE)
            if not window:
                results[name] = None
                status = proc.poll()
                reasons[name] = ("no window with the page's title within 20 s" if status is None else
                                 f"{exit_text(status)} without showing the page"
                                 + (f": “{bench.log_reason(offset)}”" if bench.log_reason(offset) else ""))
                report.detail("tick", f"{name}: {reasons[name]}")
                continue
            wakeups, ended = idle_wakeups(bench, proc.pid, window, 5.0)
            polls = bench.strace_polls(proc.pid, 5.0) if name == "gtkprogress" else None
            results[name] = wakeups
            extra = ""
            if polls:
                returns, timeouts = polls
                extra = (f"; then strace for 5 s more: {returns} poll returns, of which timeouts "
                         f"{dict(sorted(timeouts.items(), key=lambda kv: -kv[1])[:6])} (key: poll timeout in ms)")
            report.detail("tick", f"{name}: {wakeups} context switches (all threads"
                                  f"{f'; {ended} thread(s) ended, counted once each' if ended else ''}) in 5 s idle, "
                                  f"starting 6 s after the page was shown and the window focused{extra}")
        finally:
            bench.end_apps()
            proc.wait(timeout=5)
    app, bare = results.get("gtkprogress"), results.get("bare GTK 3 window")
    if app is None:
        report.na("The bar", "wakeups in 5 s of an idle window", reasons.get("gtkprogress", "not measured"), "none")
    else:
        report.add("The bar", "wakeups in 5 s of an idle window", str(app), "bare GTK 3 window",
                   "n/a" if bare is None else str(bare), "—", "none", verdict(app == 0))


# ---------------------------------------------------------------------------------------------------------------
# Row 6: main-loop health

def row_mainloop(bench, report):
    proc, window = launch_app(bench, bench.url("/page?title=Start%20page"), title="Start page")
    try:
        seconds = 7.0
        ping = subprocess.Popen([bench.xprobe, "ping", window, "5", str(seconds)], env=bench.env("infra"),
                                stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)
        since = bench.mark()
        t_nav = bench.navigate(window, bench.url("/big?mb=50"))
        request = bench.wait_event(since, 10, ev="request", path="/big")
        end = request and bench.wait_event(since, 20, ev="end", id=request["id"])
        closed = request and bench.wait_event(since, 0, ev="closed", id=request["id"])
        out, _ = ping.communicate(timeout=seconds + 30)
        pings = [(float(p[1]), float(p[2])) for p in (l.split() for l in out.splitlines()) if p and p[0] == "ping"]
        if not request:
            raise BenchError("the app never requested /big?mb=50")
        if not end:
            raise BenchError(f"the transfer did not complete ({'closed early' if closed else 'no end'} in 20 s)")
        if end["t"] > pings[-1][0]:
            raise BenchError("the load outlasted the ping series")

        def worst(lo, hi):
            window_pings = [rtt for t, rtt in pings if lo <= t <= hi]
            lost = sum(1 for rtt in window_pings if rtt < 0)
            answered = [rtt for rtt in window_pings if rtt >= 0]
            return (max(answered) if answered else None), lost, len(window_pings)

        base, _, nbase = worst(pings[0][0], t_nav - 0.2)
        during, lost, n = worst(t_nav, end["t"])
        after, lost_after, n_after = worst(end["t"], end["t"] + 2.0)
        report.detail("mainloop", f"method: _NET_WM_PING round trips through the app's main loop every 5 ms "
                                  f"(bench/xprobe ping); GDK answers from the main loop, so a blocked loop delays the "
                                  f"answer as long as it delays a 0.1 s tick. Body: application/octet-stream, typed "
                                  f"into the address entry.")
        report.detail("mainloop", f"before the load: worst {ms(base)} over {nbase} pings; during (Return → server "
                                  f"saw the connection closed, {ms(end['t'] - t_nav)}): worst {ms(during)} over {n} "
                                  f"pings, {lost} unanswered within 2 s; the 2 s after: worst {ms(after)} over "
                                  f"{n_after}, {lost_after} unanswered")
        if lost:
            report.add("Main loop", "worst tick lateness during a 50 MB load", f"> 2 s ({lost} pings unanswered)",
                       "", "", "", "< 30 ms", "not met")
        elif during is None:
            report.na("Main loop", "worst tick lateness during a 50 MB load", "no ping landed during the load", "< 30 ms")
        else:
            report.add("Main loop", "worst tick lateness during a 50 MB load (ping round trip)", ms(during), "", "",
                       "", "< 30 ms", verdict(during < 0.030))
    finally:
        bench.end_apps()
        proc.wait(timeout=5)


def row_find(bench, report):
    """Find in a 5 MB page: the letter "e" matches hundreds of thousands of times, searched a slice per main-loop
    turn; the main loop must stay as responsive as while loading."""
    page = os.path.join(bench.tmp, "find-5mb.html")
    generate_page(page, 5 * 1024 * 1024, "Find bench", seed=11)
    proc, window = launch_app(bench, page, title="Find bench", timeout=30)
    try:
        time.sleep(4.0)  # the page has gone into the view, in slices
        seconds = 8.0
        ping = subprocess.Popen([bench.xprobe, "ping", window, "5", str(seconds)], env=bench.env("infra"),
                                stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)
        bench.key(window, "ctrl+f")
        time.sleep(0.3)
        t_find = bench.key(window, "e")
        time.sleep(2.0)
        t_next = bench.key(window, "Return")
        out, _ = ping.communicate(timeout=seconds + 30)
        pings = [(float(p[1]), float(p[2])) for p in (l.split() for l in out.splitlines()) if p and p[0] == "ping"]
        if t_find is None or not pings:
            raise BenchError("no key or no ping reached the window")
        during = [rtt for t, rtt in pings if t_find <= t <= t_find + 5.0]
        lost = sum(1 for rtt in during if rtt < 0)
        answered = [rtt for rtt in during if rtt >= 0]
        worst = max(answered) if answered else None
        report.detail("find", f"method: a generated 5 MB page opened from a file; Ctrl+F, then \"e\" typed (search "
                              f"starts on GtkSearchEntry's search-changed), Return 2 s later; _NET_WM_PING round "
                              f"trips every 5 ms (bench/xprobe ping) over the 5 s after the key: worst {ms(worst)} over "
                              f"{len(during)} pings, {lost} unanswered within 2 s"
                              f"{'' if t_next else '; Return was not sent'}")
        if lost or worst is None:
            report.add("Find in page", "worst main-loop lateness while finding \"e\" in 5 MB", "> 2 s" if lost else "n/a",
                       "", "", "", "< 30 ms", "not met")
        else:
            report.add("Find in page", "worst main-loop lateness while finding \"e\" in 5 MB (ping round trip)",
                       ms(worst), "", "", "", "< 30 ms", verdict(worst < 0.030))
    finally:
        bench.end_apps()
        proc.wait(timeout=5)


# ---------------------------------------------------------------------------------------------------------------
# Row 11: leaving, reloading, going back to and closing a huge page

NODE_ALL_HTML = "/usr/share/doc/nodejs/api/all.html"


class PingSeries:
    """_NET_WM_PING round trips to one window every 5 ms (bench/xprobe ping) until stop(), read as they come."""

    def __init__(self, bench, window, seconds=900):
        self.proc = subprocess.Popen([bench.xprobe, "ping", window, "5", str(seconds)], env=bench.env("infra"),
                                     stdout=subprocess.PIPE, text=True)
        self.pings = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for line in self.proc.stdout:
            p = line.split()
            if len(p) == 3 and p[0] == "ping":
                with self.lock:
                    self.pings.append((float(p[1]), float(p[2])))

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=5)
        self.thread.join(timeout=5)

    def between(self, lo, hi):
        """(worst answered round trip or None, pings sent, pings unanswered within 2 s, longest stall): a stall
        runs from the first unanswered ping of a series to the answer of the next ping answered."""
        with self.lock:
            pings = [(t, rtt) for t, rtt in self.pings if lo <= t <= hi]
        answered = [rtt for _, rtt in pings if rtt >= 0]
        stall, first_lost = 0.0, None
        for t, rtt in pings:
            if rtt < 0:
                first_lost = t if first_lost is None else first_lost
            else:
                stall = max(stall, (t + rtt - first_lost) if first_lost is not None else rtt)
                first_lost = None
        if first_lost is not None:
            stall = max(stall, hi - first_lost)
        return (max(answered) if answered else None), len(pings), len(pings) - len(answered), stall


def wait_idle(pid, timeout, quiet=0.1):
    """Waits until the process spends less than `quiet` CPU seconds in a second (the page is in, laid out);
    returns when, or None on timeout."""
    deadline = time.monotonic() + timeout
    last = cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(1.0)
        now = cpu_seconds(pid)
        if now is None:
            return None
        if now - last < quiet:
            return time.monotonic()
        last = now
    return None


def dense_page(path, size, title, seed):
    """Deterministic HTML of about `size` bytes in the shape of Node.js's all.html, denser in tags than
    generate_page: paragraphs thick with code spans and links (links around code too), nested lists, headings,
    preformatted blocks and tables. Deleting such a page from a GtkTextBuffer on screen is what took GTK tens of
    seconds (DESIGN.md, "Traps found when the viewer was tried on large and hostile pages"); a page of plain
    paragraphs as large takes about one."""
    rng = random.Random(seed)
    section = 0

    def inline(n):
        parts = []
        for _ in range(n):
            w, r = rng.choice(WORDS), rng.random()
            if r < 0.12:
                w = f"<code>{w}()</code>"
            elif r < 0.20:
                w = f"<a href='#s{rng.randint(1, section)}'><code>{w}</code></a>"
            elif r < 0.26:
                w = f"<a href='#s{rng.randint(1, section)}'>{w}</a>"
            elif r < 0.29:
                w = f"<strong>{w}</strong>"
            elif r < 0.31:
                w = f"<em>{w}</em>"
            parts.append(w)
        return " ".join(parts)

    out = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head><body><h1>{title}</h1>"]
    total = 0
    while total < size:
        section += 1
        level = 3 + section % 3
        text = "".join([
            f"<h{level} id='s{section}'>Section <code>{section}</code></h{level}><p>{inline(40)}.</p>",
            "<ul>" + "".join(f"<li>{inline(8)}<ul><li>{inline(5)}</li></ul></li>" for _ in range(3)) + "</ul>",
            f"<pre>{rng.choice(WORDS)} = {section};\nconst x = {section * 7};</pre>",
            f"<table><tr><th>a</th><th>b</th></tr><tr><td>{inline(3)}</td><td>{inline(3)}</td></tr></table>\n"])
        out.append(text)
        total += len(text.encode())
    out.append("</body></html>\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(out))
    return path


def huge_page(bench):
    """Node.js's all.html (8.4 MB, one document of its whole API) when installed, else a generated 8 MB page of
    the same shape (dense_page); returns (path, title, description)."""
    if os.path.exists(NODE_ALL_HTML):
        with open(NODE_ALL_HTML, encoding="utf-8", errors="replace") as f:
            head = f.read(65536)
        found = re.search(r"<title>([^<]*)", head)
        title = html.unescape(found.group(1)).strip() if found else None
        return NODE_ALL_HTML, title, f"Node.js's {NODE_ALL_HTML} ({os.path.getsize(NODE_ALL_HTML) / 1e6:.1f} MB)"
    path = os.path.join(bench.tmp, "huge-8mb.html")
    dense_page(path, 8 * 1024 * 1024, "Huge page bench", seed=33)
    return path, "Huge page bench", "a generated 8 MB page dense with tags (Node.js's all.html is not installed)"


# An assistive technology's side of AT-SPI, as a screen reader has it: registered for the events a text view and
# its children send, so that the bridge in the application sends them (at-spi2-core's registry tells the bridge
# which events some client listens to; with none, it sends none). It counts what it gets.
READER = r"""
import sys, pyatspi
counts = {}
def on(event):
    kind = event.type.major + ":" + event.type.minor if event.type.minor else event.type.major
    counts[kind] = counts.get(kind, 0) + 1
for kind in ("object:text-changed", "object:children-changed", "object:state-changed", "object:text-caret-moved"):
    pyatspi.Registry.registerEventListener(on, kind)
def report():
    print("ready" if not counts else " ".join(f"{k}={v}" for k, v in sorted(counts.items())), flush=True)
    return True
from gi.repository import GLib
GLib.timeout_add(500, report)
pyatspi.Registry.start()
"""

A11Y_ENV = {"NO_AT_BRIDGE": "0", "GTK_A11Y": "atk"}


def row_huge(bench, report, a11y=None):
    """The main loop while the window leaves a huge page for a small one, goes Back to it, reloads it, and while a
    second window stays open as the one holding it closes. `a11y`: None runs it as every other row, without the
    accessibility bridge; "bridge" with GTK's ATK bridge on the session's accessibility bus (at-spi2-core's bus
    launcher and registry, started on demand by the bench's session bus, as in a desktop session) and no client
    listening; "reader" with a client registered for text, children and state events as a screen reader is."""
    page, title, what = huge_page(bench)
    reader, reader_lines = None, []
    if a11y == "reader":
        reader = subprocess.Popen(["/usr/bin/python3", "-c", READER], env=bench.env("infra"), stdout=subprocess.PIPE,
                                  stderr=bench.log, text=True)
        first = reader.stdout.readline()
        if not first.strip():
            raise BenchError("the AT-SPI client did not start")

        def read_reader():
            for line in reader.stdout:
                reader_lines.append(line.strip())
        threading.Thread(target=read_reader, daemon=True).start()
    try:
        proc, window = launch_app(bench, page, title=title, timeout=60, extra_env=A11Y_ENV if a11y else None)
    except BenchError:
        if reader:
            reader.terminate()
            reader.wait(timeout=5)
        raise
    phases, notes, second, failure = [], [], None, None
    pings = None
    try:
        t_open = time.monotonic()
        if not wait_idle(proc.pid, 240):
            raise BenchError("the huge page was still going in after 240 s")
        notes.append(f"first showing settled {time.monotonic() - t_open:.1f} s after the window appeared")
        pings = PingSeries(bench, window)
        time.sleep(1.0)

        def phase(name, act, shown_title):
            t0 = act()
            if t0 is None:
                raise BenchError(f"{name}: the key did not reach the window")
            deadline = time.monotonic() + 180
            while bench.title_of(window) != shown_title and time.monotonic() < deadline:
                time.sleep(0.05)
            if bench.title_of(window) != shown_title:
                raise BenchError(f"{name}: the title did not become {shown_title!r} within 180 s")
            t_title = time.monotonic()
            if not wait_idle(proc.pid, 240):
                raise BenchError(f"{name}: the app was still busy 240 s later")
            t_end = time.monotonic()
            phases.append((name, pings.between(t0, t_end), t_title - t0, t_end - t0))
            time.sleep(0.5)

        other = "Other page"
        phase("leave", lambda: bench.navigate(window, bench.url("/page?title=Other%20page")), other)
        phase("back", lambda: bench.key(window, "alt+Left"), title)
        phase("reload", lambda: bench.key(window, "F5"), title)
        pings.stop()

        # A second window of the same process (Ctrl+N opens one on the welcome page).
        probe = bench.xprobe_wait("--pid", str(proc.pid), "--title", "Welcome to GtkProgress", "--exact",
                                  "--no-paint", timeout=30)
        bench.key(window, "ctrl+n")
        found = bench.xprobe_result(probe, watch=proc)
        if not found or found[3] == window:
            raise BenchError("Ctrl+N opened no second window")
        second = found[3]
        time.sleep(1.0)
        pings = PingSeries(bench, second)
        time.sleep(0.5)
        t0 = bench.key(window, "ctrl+w")
        deadline = time.monotonic() + 180
        while bench.title_of(window) and time.monotonic() < deadline:
            time.sleep(0.05)
        t_gone = time.monotonic()
        wait_idle(proc.pid, 240)
        t_end = time.monotonic()
        phases.append(("close", pings.between(t0, t_end), t_gone - t0, t_end - t0))
    except BenchError as error:
        failure = error
    finally:
        if pings:
            pings.stop()
        bench.end_apps()
        proc.wait(timeout=5)
        if reader:
            reader.terminate()
            reader.wait(timeout=5)
    if reader:
        notes.append("the AT-SPI client received " + (reader_lines[-1] if reader_lines else "nothing"))

    mode = {None: "", "bridge": " (accessibility bridge on, no AT-SPI client listening)",
            "reader": " (accessibility bridge on, an AT-SPI client listening for text, children and state events)"}[a11y]
    texts = []
    for name, (worst, n, lost, stall), t_shown, t_settled in phases:
        texts.append(f"{name}: worst round trip {ms(worst)} over {n} pings, {lost} unanswered within 2 s"
                     + (f", longest stall {stall:.1f} s" if lost else "")
                     + f"; shown after {ms(t_shown)}, idle again after {t_settled:.1f} s")
    report.detail("huge", f"method{mode}: {what} opened from the command line and left to go in completely; then a small "
                          f"page typed into the address entry (leave), Alt+Left (back, from the page cache), F5 "
                          f"(reload), and Ctrl+W on its window while a second window of the same process is open "
                          f"(close; the pings go to the second window). _NET_WM_PING round trips every 5 ms "
                          f"(bench/xprobe ping) from the key until the app is idle again (less than 0.1 s of CPU in "
                          f"a second). " + "; ".join(texts) + ". " + "; ".join(notes))
    if failure:
        raise failure
    lost = sum(p[1][2] for p in phases)
    worst = max((p[1][0] for p in phases if p[1][0] is not None), default=None)
    stall = max(p[1][3] for p in phases)
    measure = "worst main-loop lateness leaving, going back to, reloading and closing an 8 MB page" + mode
    if lost:
        report.add("Huge page", measure, f"stalls up to {stall:.1f} s ({lost} pings unanswered within 2 s)", "",
                   "", "", "< 30 ms", "not met")
    elif worst is None:
        report.na("Huge page", measure, "no ping was answered", "< 30 ms")
    else:
        report.add("Huge page", measure + " (ping round trip)", ms(worst), "", "", "", "< 30 ms",
                   verdict(worst < 0.030))


def long_text_pages(bench):
    """A 1 MB page of tab-separated columns in <pre> and a 10 MB page that is one line of words: the text GTK lays
    out badly (tab stops measured again at every paint, a paragraph shaped as a whole)."""
    tabs = os.path.join(bench.tmp, "tabs-1mb.html")
    with open(tabs, "w") as f:
        f.write("<title>Tabs bench</title><pre>")
        row = "\t".join(f"c{i}" for i in range(12)) + "\n"
        f.write(row * (1024 * 1024 // len(row)))
        f.write("</pre>")
    line = os.path.join(bench.tmp, "line-10mb.html")
    with open(line, "w") as f:
        f.write("<title>One line bench</title><p>")
        words = "lorem ipsum dolor sit amet consectetur adipiscing elit "
        f.write(words * (10 * 1024 * 1024 // len(words)))
        f.write("</p>")
    return [(tabs, "Tabs bench", "1 MB of tabs in <pre>"), (line, "One line bench", "a 10 MB single line")]


def row_longtext(bench, report):
    """The main loop while a 1 MB tabs page and a 10 MB single line are opened and scrolled with the keyboard."""
    results = []
    for page, title, what in long_text_pages(bench):
        proc, window = launch_app(bench, page, title=title, timeout=60)
        pings = None
        try:
            pings = PingSeries(bench, window)
            t0 = time.monotonic()
            if not wait_idle(proc.pid, 240):
                raise BenchError(f"{what}: still busy 240 s after opening")
            for key in ["Page_Down"] * 10 + ["End", "Home"]:
                bench.key(window, key)
                time.sleep(0.1)
            wait_idle(proc.pid, 60)
            results.append((what, pings.between(t0, time.monotonic())))
        finally:
            if pings:
                pings.stop()
            bench.end_apps()
            proc.wait(timeout=5)
    texts = [f"{what}: worst round trip {ms(worst)} over {n} pings, {lost} unanswered within 2 s"
             for what, (worst, n, lost, stall) in results]
    report.detail("longtext", "method: each page opened from the command line, then Page_Down ten times, End and "
                              "Home, 0.1 s apart; _NET_WM_PING round trips every 5 ms (bench/xprobe ping) from the "
                              "window's appearance until the app is idle. " + "; ".join(texts) + ".")
    for what, (worst, n, lost, stall) in results:
        measure = f"worst main-loop lateness opening and scrolling {what}"
        if lost:
            report.add("Huge page", measure, f"stalls up to {stall:.1f} s ({lost} pings unanswered within 2 s)", "",
                       "", "", "< 30 ms", "not met")
        elif worst is None:
            report.na("Huge page", measure, "no ping was answered", "< 30 ms")
        else:
            report.add("Huge page", measure + " (ping round trip)", ms(worst), "", "", "", "< 30 ms",
                       verdict(worst < 0.030))


# ---------------------------------------------------------------------------------------------------------------
# Row 7: stop

def row_stop(bench, report):
    samples, notes = [], []
    for _ in range(5 if not bench.quick else 3):
        since = bench.mark()
        proc, window = launch_app(bench, bench.url("/stream?rate=100000"))
        try:
            request = bench.wait_event(since, 10, ev="request", path="/stream")
            if not request:
                raise BenchError("the app did not request /stream")
            time.sleep(max(0.0, request["t"] + 0.7 - time.monotonic()))
            early = bench.wait_event(since, 0, ev="closed", id=request["id"])
            if early:
                raise BenchError(f"the app closed the connection {ms(early['t'] - request['t'])} after the request, "
                                 f"before Stop ({early['bytes']} bytes received)")
            t_key = bench.key(window, "Escape")
            closed = bench.wait_event(since, 5, ev="closed", id=request["id"])
            if not closed:
                notes.append("no close within 5 s of Escape")
                continue
            samples.append(closed["t"] - t_key)
            notes.append(f"{ms(closed['t'] - t_key)} ({closed['how']}, {closed['bytes'] / 1e3:.0f} KB sent)")
        finally:
            bench.end_apps()
            proc.wait(timeout=5)
    report.detail("stop", "method: the page /stream (100 KB/s, Content-Length 50 MB) loads for 0.7 s, then Escape through XTEST "
                          "(bench/xprobe key); the server notes when it sees the client's FIN or RST. Samples: "
                          + ", ".join(notes))
    if not samples:
        report.na("Stop", "Escape → connection closed at the server", notes[0] if notes else "no sample", "< 50 ms")
    else:
        report.add("Stop", f"Escape → connection closed at the server (median; max {ms(max(samples))})",
                   ms(median(samples)), "", "", "", "< 50 ms", verdict(median(samples) < 0.050))


# ---------------------------------------------------------------------------------------------------------------
# Row 8: back from the page cache vs reload

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


# ---------------------------------------------------------------------------------------------------------------
# Memory per byte of page (issue 33)

PAGEMEM_TABLE_TITLE = "Page memory bench: table"
PAGEMEM_PARAS_TITLE = "Page memory bench: paragraphs"


def pagemem_pages(bench):
    """A table of 40,000 rows of 50 short cells (about 22 MB) and 3 MB of `<p>x` paragraphs: the shapes whose
    memory used to grow about 100× the page. Returns [(name, path, title)]."""
    table = os.path.join(bench.tmp, "pagemem-table.html")
    with open(table, "w", encoding="utf-8") as f:
        f.write(f"<!DOCTYPE html><html><head><title>{PAGEMEM_TABLE_TITLE}</title></head><body><table>\n")
        for r in range(40000):
            f.write("<tr>" + "".join(f"<td>{(r * 50 + c) % 997}</td>" for c in range(50)) + "</tr>\n")
        f.write("</table></body></html>\n")
    paras = os.path.join(bench.tmp, "pagemem-paragraphs.html")
    with open(paras, "w", encoding="utf-8") as f:
        f.write(f"<!DOCTYPE html><html><head><title>{PAGEMEM_PARAS_TITLE}</title></head><body>\n")
        f.write("<p>x" * 750000)
        f.write("\n</body></html>\n")
    return [(f"table, 40,000 rows × 50 cells ({mb(os.path.getsize(table))})", table, PAGEMEM_TABLE_TITLE),
            (f"3 MB of <p>x ({mb(os.path.getsize(paras))})", paras, PAGEMEM_PARAS_TITLE)]


def window_peak(bench, name, cmd, title, timeout=300):
    """Peak RSS (VmHWM, summed over the processes the launch started, Dillo's dpid included) once the window
    shows the page and the program is idle (under 0.1 s of CPU in a second); (bytes, seconds to idle)."""
    if name == "Dillo":
        dpid(bench, True)
    probe = bench.xprobe_wait("--title", title, "--no-paint", timeout=timeout)
    t0 = time.monotonic()
    proc = bench.popen(cmd)
    try:
        found = bench.xprobe_result(probe, watch=proc)
        if not found:
            raise BenchError(f"{name}: no window titled {title!r} within {timeout} s"
                             + (f" ({exit_text(proc.poll())})" if proc.poll() is not None else ""))
        if not wait_idle(proc.pid, timeout):
            raise BenchError(f"{name}: still busy {timeout} s after the window appeared")
        pids = [p for p in marked_pids(f"{bench.tag}-app") + marked_pids(f"{bench.tag}-dpid") if not gone(p)]
        return sum(proc_status(p, "VmHWM") or 0 for p in pids), time.monotonic() - t0
    finally:
        bench.end_launch(proc, dillo=name == "Dillo")


def row_pagemem(bench, report):
    """Peak RSS per byte of page, `--dump` beside `w3m -dump` and the window beside Dillo's, one run each (the
    figures are deterministic within a few percent; the pages take tens of seconds)."""
    for page_name, path, title in pagemem_pages(bench):
        size = os.path.getsize(path)

        def per_byte(peak):
            return f"{mb(peak)} ({peak / size:.1f}× the page)"

        dumps = {}
        for name, cmd in [("gtkprogress", [bench.binary, "--dump", path]), ("w3m", ["w3m", "-dump", path])]:
            if name == "w3m" and not shutil.which("w3m"):
                dumps[name] = None
                continue
            elapsed, peak, rc, out_size = run_probe(bench, cmd)
            dumps[name] = peak if rc == 0 and peak else None
            report.detail("pagemem", f"{page_name}, {name} --dump: peak RSS {mb(peak) if peak else 'n/a'}, "
                                     f"{elapsed:.1f} s, exit {rc}, {out_size} bytes out")
        app, w3m = dumps["gtkprogress"], dumps["w3m"]
        if app is None:
            report.na("Page memory", f"--dump peak RSS, {page_name}", "gtkprogress --dump failed", "≤ 5× the page")
        else:
            report.add("Page memory", f"--dump peak RSS, {page_name}", per_byte(app), "w3m -dump",
                       per_byte(w3m) if w3m else "n/a", ratio(app, w3m) if w3m else "n/a",
                       "≤ 5× the page, below w3m", verdict(app <= 5 * size and (w3m is None or app < w3m)))

        windows = {}
        for name, cmd in [("gtkprogress", [bench.binary, path]), ("Dillo", ["dillo", "file://" + path])]:
            if name == "Dillo" and not shutil.which("dillo"):
                windows[name] = None
                continue
            try:
                peak, settled = window_peak(bench, name, cmd, title)
                windows[name] = peak
                report.detail("pagemem", f"{page_name}, {name} window: peak RSS {mb(peak)}, idle "
                                         f"{settled:.1f} s after exec")
            except BenchError as error:
                windows[name] = None
                report.detail("pagemem", f"{page_name}, {name} window: {error}")
        app, dillo = windows["gtkprogress"], windows["Dillo"]
        if app is None:
            report.na("Page memory", f"window peak RSS, {page_name}", "no window (details)", "≤ 10× the page")
        else:
            report.add("Page memory", f"window peak RSS, {page_name}", per_byte(app), "Dillo",
                       per_byte(dillo) if dillo else "n/a", ratio(app, dillo) if dillo else "n/a",
                       "≤ 10× the page", verdict(app <= 10 * size))


# ---------------------------------------------------------------------------------------------------------------
# Machine and results

# ---------------------------------------------------------------------------------------------------------------
# Row 9: a large HTML page arriving slowly (progressive display)

def slow_page_cpu(bench, name, cmd_for, script="latin", words=60):
    """CPU seconds a program spends showing /slowpage?kb=1000&rate=100000 (10 s), from exec until 2 s after the
    last byte was sent (its final render included). `script`: the page's words, `words`: words per paragraph
    (bench/benchserver.py)."""
    since = bench.mark()
    if name.startswith("Dillo"):
        dpid(bench, True)
    proc = bench.popen(cmd_for(bench.url(f"/slowpage?kb=1000&rate=100000&script={script}&words={words}")))
    try:
        request = bench.wait_event(since, 20, ev="request", path="/slowpage")
        if not request:
            raise BenchError(f"{name} did not request the page")
        sent = bench.wait_event(since, 40, ev="sent", id=request["id"])
        if not sent:
            raise BenchError(f"{name}: the page was not sent within 40 s")
        time.sleep(2.0)
        pids = [p for p in marked_pids(f"{bench.tag}-app") if not gone(p)]
        return sum(cpu_seconds(p) or 0 for p in pids)
    finally:
        bench.end_launch(proc)


def row_slow(bench, report):
    # CPU for a 1 MB page at 100 KB/s, against Dillo and NetSurf on the same page.
    programs = [("gtkprogress", lambda url: [bench.binary, url]), ("Dillo", lambda url: ["dillo", url]),
                ("NetSurf", lambda url: ["netsurf-gtk", url])]
    cpu = {}
    for name, cmd_for in programs:
        try:
            cpu[name] = slow_page_cpu(bench, name, cmd_for)
        except (BenchError, OSError, subprocess.SubprocessError) as error:
            report.detail("slow", f"{name}: {error}")
    report.detail("slow", "CPU: exec → 2 s after the last byte of a 1 MB HTML page sent at 100 KB/s (10 s), all "
                          "threads of the program's processes (schedstat). " +
                  ", ".join(f"{n} {v:.2f} s" for n, v in cpu.items()))
    ours = cpu.get("gtkprogress")
    for peer in ("Dillo", "NetSurf"):
        if ours is None or peer not in cpu:
            report.na("Slow large page", f"CPU for 1 MB at 100 KB/s vs {peer}", "not measured", "≤ 2× Dillo")
            continue
        target = "≤ 2× Dillo" if peer == "Dillo" else ""
        report.add("Slow large page", "CPU seconds for a 1 MB page arriving at 100 KB/s", f"{ours:.2f} s", peer,
                   f"{cpu[peer]:.2f} s", ratio(ours, cpu[peer]), target,
                   verdict(ours <= 2 * cpu[peer]) if peer == "Dillo" else "")

    # The main loop while a 6 MB page arrives at 600 KB/s and is rendered at the end.
    proc, window = launch_app(bench, bench.url("/page?title=Start%20page"), title="Start page")
    try:
        seconds = 17.0
        ping = subprocess.Popen([bench.xprobe, "ping", window, "5", str(seconds)], env=bench.env("infra"),
                                stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)
        since = bench.mark()
        t_nav = bench.navigate(window, bench.url("/slowpage?kb=6000&rate=600000"))
        request = bench.wait_event(since, 10, ev="request", path="/slowpage")
        sent = request and bench.wait_event(since, 20, ev="sent", id=request["id"])
        out, _ = ping.communicate(timeout=seconds + 30)
        pings = [(float(p[1]), float(p[2])) for p in (l.split() for l in out.splitlines()) if p and p[0] == "ping"]
        if not sent:
            raise BenchError("the 6 MB page was not sent within 20 s")
        span = [rtt for t, rtt in pings if t_nav <= t <= sent["t"] + 4.0]
        lost = sum(1 for rtt in span if rtt < 0)
        answered = [rtt for rtt in span if rtt >= 0]
        over = sum(1 for rtt in answered if rtt > 0.030)
        worst = max(answered) if answered else None
        report.detail("slow", f"main loop: _NET_WM_PING every 5 ms from Return until 4 s after the last byte of a 6 MB "
                              f"page at 600 KB/s (its final render included): worst {ms(worst)} over {len(span)} "
                              f"pings, {over} over 30 ms, {lost} unanswered")
        if lost or worst is None:
            report.add("Slow large page", "worst main-loop round trip, 6 MB at 600 KB/s", "n/a" if worst is None
                       else f"> 2 s ({lost} lost)", "", "", "", "< 30 ms", "not met")
        else:
            report.add("Slow large page", "worst main-loop round trip, 6 MB at 600 KB/s + final render", ms(worst),
                       "", "", "", "< 30 ms", verdict(worst < 0.030))
    finally:
        bench.end_apps()
        proc.wait(timeout=5)

    # Stop while that page arrives, after 3 s (1.8 MB in, shown progressively).
    samples, notes = [], []
    for _ in range(5 if not bench.quick else 3):
        since = bench.mark()
        proc, window = launch_app(bench, bench.url("/slowpage?kb=6000&rate=600000"))
        try:
            request = bench.wait_event(since, 10, ev="request", path="/slowpage")
            if not request:
                raise BenchError("the app did not request /slowpage")
            time.sleep(max(0.0, request["t"] + 3.0 - time.monotonic()))
            t_key = bench.key(window, "Escape")
            closed = bench.wait_event(since, 5, ev="closed", id=request["id"])
            if not closed:
                notes.append("no close within 5 s of Escape")
                continue
            samples.append(closed["t"] - t_key)
            notes.append(f"{ms(closed['t'] - t_key)} ({closed['bytes'] / 1e6:.1f} MB sent)")
        finally:
            bench.end_apps()
            proc.wait(timeout=5)
    report.detail("slow", "Stop: Escape 3 s into the 6 MB page at 600 KB/s; samples " + ", ".join(notes))
    if samples:
        report.add("Slow large page", f"Stop during it: Escape → connection closed (median; max {ms(max(samples))})",
                   ms(median(samples)), "", "", "", "< 50 ms", verdict(max(samples) < 0.050))
    else:
        report.na("Slow large page", "Stop during it", notes[0] if notes else "no sample", "< 50 ms")


def row_slow_cjk(bench, report):
    # CPU for the slow 1 MB page written in CJK, with paragraphs of the usual length and ten times as long, and with
    # Latin paragraphs mixing CJK, Cyrillic, Greek and Arabic words, against Dillo on the same page: programs
    # alternate, median of 3 runs each (2 with --quick).
    programs = [("gtkprogress", lambda url: [bench.binary, url]), ("Dillo", lambda url: ["dillo", url])]
    for script, words, label in (("cjk", 60, "CJK in every paragraph"),
                                 ("cjk", 600, "CJK, paragraphs 10× as long"),
                                 ("mixed", 60, "CJK, Cyrillic, Greek, Arabic")):
        cpu = {name: [] for name, _ in programs}
        for _ in range(2 if bench.quick else 3):
            for name, cmd_for in programs:
                try:
                    cpu[name].append(slow_page_cpu(bench, name, cmd_for, script, words))
                except (BenchError, OSError, subprocess.SubprocessError) as error:
                    report.detail("slowcjk", f"{script}, {name}: {error}")
        report.detail("slowcjk", f"{label}: CPU, exec → 2 s after the last byte of a 1 MB page at 100 KB/s "
                                 f"(/slowpage?script={script}&words={words}), all threads (schedstat): " +
                      "; ".join(f"{n} " + ", ".join(f"{v:.2f} s" for v in vs) for n, vs in cpu.items()))
        if not cpu["gtkprogress"] or not cpu["Dillo"]:
            report.na("Slow non-Latin page", f"CPU for 1 MB at 100 KB/s, {label}", "not measured", "≤ 2× Dillo")
            continue
        ours, theirs = median(cpu["gtkprogress"]), median(cpu["Dillo"])
        report.add("Slow non-Latin page", f"CPU seconds for a 1 MB page at 100 KB/s, {label}", f"{ours:.2f} s",
                   "Dillo", f"{theirs:.2f} s", ratio(ours, theirs), "≤ 2× Dillo", verdict(ours <= 2 * theirs))


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    debian = open("/etc/debian_version").read().strip() if os.path.exists("/etc/debian_version") else "not Debian"
    mem = None
    try:
        with open("/proc/meminfo") as f:
            mem = int(f.readline().split()[1]) * 1024
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "debian": debian, "kernel": platform.release(),
            "memory": f"{mem / 2**30:.1f} GiB" if mem else "unknown"}


def versions(bench):
    out = []
    for package in ("netsurf-gtk", "dillo", "w3m", "lynx", "links2", "html2text", "curl", "libgtk-3-0", "hyperfine"):
        v = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package], capture_output=True, text=True).stdout
        out.append(f"{package} {v or '?'}")
    if bench.binary:
        v = subprocess.run([bench.binary, "--version"], capture_output=True, text=True, env=bench.env("app")).stdout
        out.insert(0, f"gtkprogress {v.strip() or '?'}")
    return ", ".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", help="path to the gtkprogress executable")
    parser.add_argument("--quick", action="store_true", help="fewer runs: to check that every row works")
    parser.add_argument("--rows", default=",".join(ROWS), help="comma-separated subset of " + ",".join(ROWS))
    parser.add_argument("--runs", type=int, default=10, help="startup runs per program after the discarded first")
    parser.add_argument("--out", default=os.path.join(HERE, "results.md"))
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory (logs, pages)")
    parser.add_argument("--variant", action="append", default=[], metavar="LABEL=BINARY",
                        help="another build of gtkprogress, launched in the same startup and memory rounds")
    args = parser.parse_args()
    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    unknown = [r for r in rows if r not in ROWS]
    if unknown:
        parser.error(f"unknown rows {unknown}; rows are {ROWS}")
    binary = args.binary if os.access(args.binary, os.X_OK) else None
    runs = args.runs if not args.quick else 3

    report = Report()
    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = os.getloadavg()
    variants = [v.split("=", 1) for v in args.variant]
    if any(len(v) != 2 or not os.access(v[1], os.X_OK) for v in variants):
        parser.error("--variant takes LABEL=BINARY, an executable")
    bench = Bench(binary, args.quick, args.keep, variants)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started in the background
    t_start = time.monotonic()
    try:
        bench.start()
        steps = [("startup", lambda: rows_startup.row_startup_memory(bench, report, rows, runs), ("startup", "memory")),
                 ("render", lambda: rows_render.row_render(bench, report), ("render",)),
                 ("load", lambda: row_load(bench, report), ("load",)),
                 ("tick", lambda: row_tick(bench, report), ("tick",)),
                 ("mainloop", lambda: row_mainloop(bench, report), ("mainloop",)),
                 ("stop", lambda: row_stop(bench, report), ("stop",)),
                 ("cache", lambda: row_cache(bench, report), ("cache",)),
                 ("slow", lambda: row_slow(bench, report), ("slow",)),
                 ("slowcjk", lambda: row_slow_cjk(bench, report), ("slowcjk",)),
                 ("find", lambda: row_find(bench, report), ("find",)),
                 ("huge", lambda: row_huge(bench, report), ("huge",)),
                 ("hugea11y", lambda: row_huge(bench, report, a11y="bridge"), ("hugea11y",)),
                 ("hugereader", lambda: row_huge(bench, report, a11y="reader"), ("hugereader",)),
                 ("longtext", lambda: row_longtext(bench, report), ("longtext",)),
                 ("pagemem", lambda: row_pagemem(bench, report), ("pagemem",)),
                 ("css", lambda: rows_css.row_css(bench, report), ("css",)),
                 ("images", lambda: rows_images.row_images(bench, report), ("images",))]
        for key, step, covers in steps:
            if not any(c in rows for c in covers):
                continue
            print(f"[{time.monotonic() - t_start:5.0f} s] {', '.join(c for c in covers if c in rows)} …", flush=True)
            needs_app = key in ("load", "tick", "mainloop", "stop", "cache", "slow", "slowcjk", "find", "huge", "hugea11y",
                                "hugereader",
                                "longtext", "pagemem", "css", "images")
            if needs_app and not binary:
                for c in covers:
                    report.na(ROW_NAMES[c], "", f"{args.binary} is not an executable")
                continue
            try:
                step()
            except (BenchError, subprocess.SubprocessError, OSError, ValueError) as error:
                for c in covers:
                    if c in rows:
                        report.na(ROW_NAMES[c], "", f"{type(error).__name__}: {error}")
            finally:
                bench.end_apps()
    except KeyboardInterrupt:
        report.notes.append("interrupted: the table is incomplete")
    finally:
        bench.close()

    elapsed = time.monotonic() - t_start
    info = machine()
    load_after = os.getloadavg()
    header = [
        "# GtkProgress benchmark",
        "",
        f"Run {started:%Y-%m-%d %H:%M} UTC{' (quick: fewer runs, for checking the harness)' if args.quick else ''}, "
        f"{elapsed / 60:.1f} min. Machine: {info['cpu']}, {info['cores']} cores, {info['memory']}, "
        f"Debian {info['debian']}, Linux {info['kernel']}. Load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after (a busy machine makes every ratio noisy).",
        "",
        f"Versions: {versions(bench)}.",
        "",
        "Ratio = gtkprogress ÷ the alternative (below 1 is faster or smaller), except Loading: gtkprogress's "
        "throughput ÷ curl's (above 1 is faster). How each row is measured: bench/README.md.",
        "",
    ]
    body = report.table()
    detail_lines = ["", "## Details", ""]
    for key in ROWS:
        for text in report.details.get(key, []):
            detail_lines.append(f"- {ROW_NAMES[key]}: {text}")
    closing = ["", "## Targets not met", ""]
    closing += [f"- {u}" for u in report.unmet] or ["- none"]
    missing = list(report.missing)
    for c in (l.cells for l in report.lines if l.cells[7] == "n/a" and not l.cells[2].startswith("n/a")):
        missing.append((c[0], f"{c[3]}: {c[4]}"))
    if missing:
        closing += ["", "## Not measured", ""] + [f"- {row}: {reason}" for row, reason in missing]
    closing += [f"- {n}" for n in report.notes]
    text = "\n".join(header) + body + "\n" + "\n".join(detail_lines + closing) + "\n"
    print()
    print(text)
    with open(args.out, "w") as f:
        f.write(text)
    print(f"written to {args.out}")


if __name__ == "__main__":
    # Rows kept in bench/rows/ import their helpers from this file as `run`: the running script is that module.
    sys.modules["run"] = sys.modules["__main__"]
    sys.path.insert(0, HERE)
    from rows import images as rows_images
    from rows import css as rows_css
    from rows import render as rows_render
    from rows import startup as rows_startup
    main()
