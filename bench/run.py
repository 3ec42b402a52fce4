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
        "hugea11y", "hugereader", "longtext", "pagemem", "css", "images", "imagestart"]
ROW_NAMES = {"startup": "Startup", "memory": "Memory", "render": "Rendering", "load": "Loading",
             "tick": "The bar", "mainloop": "Main loop", "stop": "Stop", "cache": "Back/forward",
             "slow": "Slow large page", "slowcjk": "Slow non-Latin page", "find": "Find in page",
             "huge": "Huge page", "hugea11y": "Huge page", "hugereader": "Huge page",
             "longtext": "Huge page", "pagemem": "Page memory", "css": "Page style",
             "images": "Images", "imagestart": "Image page start"}
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
# Helpers the rows in rows/ share: timing a command, launching the window, watching its main loop

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


def launch_pids(bench, dillo=False):
    """The processes a measured launch started that are still alive: the program's, and with Dillo its dpid."""
    pids = [p for p in marked_pids(f"{bench.tag}-app") if not gone(p)]
    if dillo:
        pids += [p for p in marked_pids(f"{bench.tag}-dpid") if not gone(p)]
    return pids


def quiet_since(pid, timeout, window=0.5, quiet=0.03):
    """When the process's CPU went quiet: the start of the first `window` seconds (sampled every 0.1 s) in which it
    used under `quiet` CPU seconds, all threads; None when it never did within `timeout`."""
    samples = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        used = cpu_seconds(pid)
        if used is None:
            return None
        now = time.monotonic()
        samples.append((now, used))
        for t, c in samples:
            if now - t >= window:
                if used - c < quiet and all(u - c < quiet for tt, u in samples if tt >= t):
                    return t
        samples = [(t, c) for t, c in samples if now - t <= window + 0.2]
        time.sleep(0.1)
    return None


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


# ---------------------------------------------------------------------------------------------------------------
# Machine and results

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
                        help="another build of gtkprogress, launched in the same startup, memory and "
                        "imagestart rounds")
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
                 ("load", lambda: rows_load.row_load(bench, report), ("load",)),
                 ("tick", lambda: rows_tick.row_tick(bench, report), ("tick",)),
                 ("mainloop", lambda: rows_mainloop.row_mainloop(bench, report), ("mainloop",)),
                 ("stop", lambda: rows_stop.row_stop(bench, report), ("stop",)),
                 ("cache", lambda: rows_cache.row_cache(bench, report), ("cache",)),
                 ("slow", lambda: rows_slow.row_slow(bench, report), ("slow",)),
                 ("slowcjk", lambda: rows_slow.row_slow_cjk(bench, report), ("slowcjk",)),
                 ("find", lambda: rows_find.row_find(bench, report), ("find",)),
                 ("huge", lambda: rows_huge.row_huge(bench, report), ("huge",)),
                 ("hugea11y", lambda: rows_huge.row_huge(bench, report, a11y="bridge"), ("hugea11y",)),
                 ("hugereader", lambda: rows_huge.row_huge(bench, report, a11y="reader"), ("hugereader",)),
                 ("longtext", lambda: rows_longtext.row_longtext(bench, report), ("longtext",)),
                 ("pagemem", lambda: rows_pagemem.row_pagemem(bench, report), ("pagemem",)),
                 ("css", lambda: rows_css.row_css(bench, report), ("css",)),
                 ("images", lambda: rows_images.row_images(bench, report), ("images",)),
                 ("imagestart", lambda: rows_imagestart.row_imagestart(bench, report), ("imagestart",))]
        for key, step, covers in steps:
            if not any(c in rows for c in covers):
                continue
            print(f"[{time.monotonic() - t_start:5.0f} s] {', '.join(c for c in covers if c in rows)} …", flush=True)
            needs_app = key in ("load", "tick", "mainloop", "stop", "cache", "slow", "slowcjk", "find", "huge",
                                "hugea11y", "hugereader", "longtext", "pagemem", "css", "images", "imagestart")
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
    from rows import cache as rows_cache
    from rows import css as rows_css
    from rows import find as rows_find
    from rows import huge as rows_huge
    from rows import images as rows_images
    from rows import imagestart as rows_imagestart
    from rows import load as rows_load
    from rows import longtext as rows_longtext
    from rows import mainloop as rows_mainloop
    from rows import pagemem as rows_pagemem
    from rows import render as rows_render
    from rows import slow as rows_slow
    from rows import startup as rows_startup
    from rows import stop as rows_stop
    from rows import tick as rows_tick
    main()
