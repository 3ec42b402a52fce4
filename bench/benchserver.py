#!/usr/bin/python3
"""Loopback HTTP server for bench/run.py, separate from Tests/server so it can log what the benchmark needs:
when each request arrived, how many bytes went out, and when the client closed the connection, all on
CLOCK_MONOTONIC (time.monotonic()), the clock bench/run.py and bench/xprobe use.

Usage: /usr/bin/python3 bench/benchserver.py   prints the port on line 1, then one JSON event per line:
    {"ev": "request", "id": N, "path": "/big", "query": "mb=60", "t": T}
    {"ev": "sent",    "id": N, "bytes": B, "t": T}            the whole body was handed to the kernel
    {"ev": "closed",  "id": N, "bytes": B, "t": T, "how": "fin"|"reset"|"epipe"}  the client closed first
    {"ev": "end",     "id": N, "t": T}                        the server closed the connection after the response
It exits when its standard input closes or on SIGTERM. Every response has Connection: close.

Routes:
  /big?mb=50&type=application/octet-stream   mb x 10^6 bytes with Content-Length, as fast as the socket takes them
  /stream?rate=100000                        Content-Length 5x10^7, sent at `rate` bytes/s in 10 ms slices; the
                                             server watches for the client's close while sending (for Stop)
  /hold?seconds=12&size=100000               an HTML page of `size` bytes with Content-Length: the first 2 KB at
                                             once, the rest after `seconds` (the page stays loading meanwhile)
  /cache                                     a 1 MB HTML page titled "Cache page N", N = how many times /cache
                                             was requested (so a reload shows a new title, a page-cache hit not)
  /page?title=Page                           a small HTML page with that title
  /imagepage?count=100&rate=2000000&seed=1
                                             an HTML page of text with `count` images (PNG, JPEG, WebP, SVG in
                                             turn, 5-200 KB each, declared width and height): /img?n=I&seed=S;
                                             the page and its images share one budget of `rate` bytes/s
  /img?n=0&count=100&seed=1&rate=2000000     image I of that page; odd I without Content-Length (the body ends
                                             when the connection closes); a "bytes" event for every 16 KB slice
  /slowpage?kb=1000&rate=100000&script=latin&words=60
                                             an HTML page of kb x 1000 bytes (headings, paragraphs, lists) with
                                             Content-Length, sent at `rate` bytes/s in 10 ms slices, watching for
                                             the client's close (a large page arriving slowly); script=cjk: the
                                             text in CJK; script=mixed: Latin with CJK, Cyrillic, Greek, Arabic;
                                             words: words per paragraph
"""

import json
import os
import select
import signal
import socket
import sys
import threading
import time
from urllib.parse import parse_qs, urlsplit

lock = threading.Lock()
counter = {"id": 0, "/cache": 0}
CHUNK = b"\0" * (1 << 20)


def log(**event):
    line = json.dumps(event)
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


# Words of other scripts for `script=`: CJK (Chinese, Japanese kana, Korean hangul), and for `mixed` also Cyrillic,
# Greek and Arabic, so that a line needs several fonts and bidirectional text.
CJK_WORDS = ("进度条 页面 加载 网络 窗口 文本 链接 历史 后退 前进 刷新 停止 段落 标题 列表 读者 屏幕 主题 服务器 请求 "
             "ページ 読み込み ネットワーク ウィンドウ テキスト リンク 履歴 進む 戻る "
             "페이지 네트워크 창 텍스트 링크 기록 새로고침").split()
OTHER_WORDS = ("страница загрузка сеть окно текст ссылка σελίδα φόρτωση δίκτυο παράθυρο κείμενο "
               "صفحة تحميل شبكة نافذة نص رابط").split()


def words_page(title, size, script="latin", words_per_paragraph=60):
    """Deterministic HTML of about `size` bytes: headings, paragraphs, lists. `script` "cjk": paragraphs and list items
    written in CJK (no spaces between words); "mixed": Latin paragraphs with runs of CJK, Cyrillic, Greek and
    Arabic words. `words_per_paragraph`: 60 makes a paragraph about three lines wide in a browser window."""
    import random
    rng = random.Random(size)
    words = ("progress bar page loader curve time bytes network window text link history back forward reload stop "
             "render paragraph heading list quiet reader screen theme timer tick server request response").split()
    if script == "cjk":
        def paragraph_words(count):
            # CJK text as it is written: words not separated by spaces, a comma or full stop every few words,
            # now and then a Latin word (a name, a unit) with spaces around it.
            out = []
            for n in range(count):
                out.append(rng.choice(CJK_WORDS))
                if rng.random() < 0.08:
                    out.append(" " + rng.choice(words) + " ")
                elif rng.random() < 0.15:
                    out.append("，" if n + 1 < count else "。")
            return ["".join(out)]
    elif script == "mixed":
        latin, foreign = words, CJK_WORDS + OTHER_WORDS

        def paragraph_words(count):
            # A third of each paragraph in other scripts, in runs of a few words, as in a translated page.
            out = []
            while len(out) < count:
                out += [rng.choice(latin) for _ in range(rng.randint(2, 8))]
                out += [rng.choice(foreign) for _ in range(rng.randint(1, 4))]
            return out[:count]
    else:
        def paragraph_words(count):
            return [rng.choice(words) for _ in range(count)]
    head = f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head><body>\n<h1>{title}</h1>\n"
    out, total, section = [head], len(head), 0
    while total < size - 200:
        section += 1
        block = [f"<h2>Section {section}</h2>\n"]
        for _ in range(4):
            block.append("<p>" + " ".join(paragraph_words(words_per_paragraph)) + ".</p>\n")
        block.append("<ul>" + "".join(f"<li>{' '.join(paragraph_words(2))}</li>" if script != "latin"
                                      else f"<li>{rng.choice(words)}</li>" for _ in range(4)) + "</ul>\n")
        text = "".join(block)
        out.append(text)
        total += len(text)
    out.append("</body></html>\n")
    body = "".join(out).encode()
    return body + b" " * max(0, size - len(body)) if len(body) < size else body


CACHE_BODY = words_page("@@TITLE@@", 1_000_000)


# -- a page of images: /imagepage and /img ----------------------------------------------------------------------

image_sets = {}


class SharedRate:
    """One budget of bytes per second shared by every response of an image page (a link of that speed)."""

    def __init__(self, rate):
        self.rate = rate
        self.free_at = 0.0
        self.lock = threading.Lock()

    def send(self, conn, data, cid, slice_bytes=16384):
        sent = 0
        while sent < len(data):
            piece = data[sent:sent + slice_bytes]
            with self.lock:
                start = max(time.monotonic(), self.free_at)
                self.free_at = start + len(piece) / self.rate
                due = self.free_at
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            conn.sendall(piece)
            sent += len(piece)
            log(ev="bytes", id=cid, bytes=len(piece), t=time.monotonic())
        return sent


rates = {}


def shared_rate(rate):
    with lock:
        if rate not in rates:
            rates[rate] = SharedRate(rate)
        return rates[rate]


def image_set(count, seed):
    """`count` images, deterministic for `seed`: (content type, body, width, height), formats in turn, each of
    5-200 KB. Noise pixels, so that the encoded size follows the pixel count (GdkPixbuf encodes them)."""
    key = (count, seed)
    if key in image_sets:
        return image_sets[key]
    import random
    import gi
    gi.require_version("GdkPixbuf", "2.0")
    from gi.repository import GdkPixbuf, GLib
    rng = random.Random(seed)
    images = []
    formats = [("png", "image/png", 3.0, [], []), ("jpeg", "image/jpeg", 1.4, ["quality"], ["85"]),
               ("webp", "image/webp", 1.1, ["quality"], ["80"]), ("svg", "image/svg+xml", 0, [], [])]
    for n in range(count):
        name, ctype, per_pixel, keys, values = formats[n % len(formats)]
        target = rng.randint(5_000, 200_000)
        width = rng.randint(120, 480)
        if name == "svg":
            height = rng.randint(60, 360)
            rects, size = [], 120
            while size < target:
                rect = (f'<rect x="{rng.randint(0, width)}" y="{rng.randint(0, height)}" width="{rng.randint(2, 40)}" '
                        f'height="{rng.randint(2, 40)}" fill="#{rng.randrange(1 << 24):06x}"/>')
                rects.append(rect)
                size += len(rect) + 1
            body = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
                    + "\n".join(rects) + "</svg>").encode()
        else:
            height = max(8, int(target / per_pixel / width))
            noise = bytes(rng.getrandbits(8) for _ in range(width * height * 3))
            pixbuf = GdkPixbuf.Pixbuf.new_from_bytes(GLib.Bytes.new(noise), GdkPixbuf.Colorspace.RGB, False, 8,
                                                     width, height, width * 3)
            ok, body = pixbuf.save_to_bufferv(name, keys, values)
            body = bytes(body)
        images.append((ctype, body, width, height))
    image_sets[key] = images
    return images


def image_page(count, seed):
    words = ("progress bar page loader curve time bytes network window text link history back forward reload "
             "stop render paragraph heading").split()
    import random
    rng = random.Random(seed)
    parts = ["<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Image page</title></head><body>",
             "<h1>Image page</h1>"]
    for n, (_, _, width, height) in enumerate(image_set(count, seed)):
        text = " ".join(rng.choice(words) for _ in range(40))
        parts.append(f"<p>{text}</p><p><img src=\"/img?n={n}&amp;count={count}&amp;seed={seed}&amp;rate=@RATE@\" width=\"{width}\" "
                     f"height=\"{height}\" alt=\"Picture {n}\"></p>")
    parts.append("</body></html>")
    return "".join(parts)


def header(status, length, ctype):
    return (f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {length}\r\n"
            "Connection: close\r\nCache-Control: no-store\r\n\r\n").encode()


def client_closed(conn):
    """How the client closed, if it did (non-blocking)."""
    try:
        ready, _, _ = select.select([conn], [], [], 0)
        if ready:
            data = conn.recv(65536, socket.MSG_DONTWAIT)
            if data == b"":
                return "fin"
    except (ConnectionResetError, BrokenPipeError):
        return "reset"
    except BlockingIOError:
        pass
    return None


def handle(conn, cid):
    sent = 0
    try:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return
            data += chunk
        t = time.monotonic()
        line = data.split(b"\r\n", 1)[0].decode("latin-1")
        parts = line.split(" ")
        target = urlsplit(parts[1] if len(parts) > 1 else "/")
        q = {k: v[-1] for k, v in parse_qs(target.query).items()}
        log(ev="request", id=cid, path=target.path, query=target.query, t=t)

        if target.path == "/big":
            total = int(float(q.get("mb", "50")) * 1_000_000)
            conn.sendall(header("200 OK", total, q.get("type", "application/octet-stream")))
            view = memoryview(CHUNK)
            while sent < total:
                n = min(len(CHUNK), total - sent)
                conn.sendall(view[:n])
                sent += n
        elif target.path == "/stream":
            rate = int(q.get("rate", "100000"))
            total = 50_000_000  # under the app's 64 MiB cap, which it may apply to Content-Length at once
            conn.sendall(header("200 OK", total, "text/html; charset=utf-8"))
            conn.sendall(b"<html><head><title>Stream</title></head><body><p>")
            piece = b"x" * max(1, rate // 100)
            conn.setblocking(False)
            start = time.monotonic()
            while time.monotonic() - start < 120:
                how = client_closed(conn)
                if how:
                    log(ev="closed", id=cid, bytes=sent, t=time.monotonic(), how=how)
                    return
                try:
                    sent += conn.send(piece)
                except BlockingIOError:
                    pass
                except (ConnectionResetError, BrokenPipeError):
                    log(ev="closed", id=cid, bytes=sent, t=time.monotonic(), how="epipe")
                    return
                # Sleep until the next 10 ms slice, waking at once if the client closes.
                select.select([conn], [], [], 0.01)
            return
        elif target.path == "/imagepage":
            rate = int(q.get("rate", "2000000"))
            body = image_page(int(q.get("count", "100")), int(q.get("seed", "1"))).replace("@RATE@", str(rate))
            body = body.encode()
            conn.sendall(header("200 OK", len(body), "text/html; charset=utf-8"))
            sent = shared_rate(rate).send(conn, body, cid)
        elif target.path == "/img":
            images = image_set(int(q.get("count", "100")), int(q.get("seed", "1")))
            n = int(q.get("n", "0"))
            ctype, body, _, _ = images[n % len(images)]
            if n % 2:
                conn.sendall((f"HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\nConnection: close\r\n"
                              "Cache-Control: no-store\r\n\r\n").encode())
            else:
                conn.sendall(header("200 OK", len(body), ctype))
            sent = shared_rate(int(q.get("rate", "2000000"))).send(conn, body, cid)
        elif target.path == "/slowpage":
            size = int(float(q.get("kb", "1000")) * 1000)
            rate = int(q.get("rate", "100000"))
            script = q.get("script", "latin")
            body = words_page("Slow page", size, script, int(q.get("words", "60")))[:size]
            # Cut at a character boundary: a UTF-8 sequence cut in two would be a decoding error, not text.
            body = body.decode("utf-8", "ignore").encode()
            conn.sendall(header("200 OK", len(body), "text/html; charset=utf-8"))
            conn.setblocking(False)
            start = time.monotonic()
            while sent < len(body):
                how = client_closed(conn)
                if how:
                    log(ev="closed", id=cid, bytes=sent, t=time.monotonic(), how=how)
                    return
                due = min(len(body), int((time.monotonic() - start) * rate) + rate // 100)
                try:
                    if due > sent:
                        sent += conn.send(body[sent:due])
                except BlockingIOError:
                    pass
                except (ConnectionResetError, BrokenPipeError):
                    log(ev="closed", id=cid, bytes=sent, t=time.monotonic(), how="epipe")
                    return
                select.select([conn], [], [], 0.01)
        elif target.path == "/hold":
            size = int(q.get("size", "100000"))
            body = words_page("Held page", size)[:size]
            conn.sendall(header("200 OK", len(body), "text/html; charset=utf-8"))
            conn.sendall(body[:2048])
            sent = 2048
            end = time.monotonic() + float(q.get("seconds", "12"))
            while time.monotonic() < end:
                select.select([conn], [], [], max(0.0, end - time.monotonic()))
                how = client_closed(conn)
                if how:
                    log(ev="closed", id=cid, bytes=sent, t=time.monotonic(), how=how)
                    return
            conn.sendall(body[2048:])
            sent = len(body)
        elif target.path == "/cache":
            with lock:
                counter["/cache"] += 1
                n = counter["/cache"]
            body = CACHE_BODY.replace(b"@@TITLE@@", f"Cache page {n}".encode(), 2)
            conn.sendall(header("200 OK", len(body), "text/html; charset=utf-8") + body)
            sent = len(body)
        elif target.path == "/page":
            title = q.get("title", "Page")
            body = (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{title}</title></head>"
                    f"<body><h1>{title}</h1><p>A small page.</p></body></html>").encode()
            conn.sendall(header("200 OK", len(body), "text/html; charset=utf-8") + body)
            sent = len(body)
        else:
            body = b"not found"
            conn.sendall(header("404 Not Found", len(body), "text/plain") + body)
            sent = len(body)
        log(ev="sent", id=cid, bytes=sent, t=time.monotonic())
        # Let the client read everything before closing: wait for its close (or 30 s).
        conn.setblocking(True)
        conn.shutdown(socket.SHUT_WR)
        ready, _, _ = select.select([conn], [], [], 30)
        log(ev="end", id=cid, t=time.monotonic())
    except (ConnectionResetError, BrokenPipeError):
        log(ev="closed", id=cid, bytes=sent, t=time.monotonic(), how="reset")
    finally:
        conn.close()


def main():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    while True:
        conn, _ = listener.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        counter["id"] += 1
        threading.Thread(target=handle, args=(conn, counter["id"]), daemon=True).start()


if __name__ == "__main__":
    main()
