#!/usr/bin/python3
"""Loopback HTTP server for the GtkProgress test suite.

Run with the system Python: /usr/bin/python3 Tests/server/testserver.py [--port N]

It listens on 127.0.0.1 (port 0 = any free port) and prints, then flushes:
    line 1: the HTTP port, e.g. "41235"
    line 2: extra listeners as key=value pairs, e.g. "tls=41236 blackhole=41237"
            tls        the same routes over HTTPS with a freshly made self-signed certificate (so a client that
                       verifies certificates must fail); "tls=0" when openssl is not available
            blackhole  a listening socket whose accept queue is full: connecting to it hangs until the client's
                       connect timeout
It exits when its standard input closes (so it never outlives the test process) or on SIGTERM.

Routes (GET; query parameters in brackets, defaults after "="). Sizes are bytes, rates bytes per second.

  /image[?w=40&h=30&color=ff0000&checker=0&color2=0000ff&format=png|jpeg|gif|animated|webp|avif|svg&delay=0&rate=0&length=1&broken=0&bomb=0]
                                     a PNG of w x h pixels of one colour (checker=N: squares of N
                                     pixels, color and color2, in turn; other formats: the
                                     files of FIXTURE_IMAGES in Tests/Fixtures/images); sent after `delay` seconds at `rate`; length=0 sends
                                     it chunked, without Content-Length; broken=1 cuts it after its header;
                                     bomb=1 is a PNG whose header claims 100000 x 100000 pixels
  /images[?count=12&delay=0.2&lazy=0&alt=1&w=40&h=30&title=Images]
                                     a page of `count` images of w x h, each /image?n=I&delay=D, alt "Image I"
  /image-stats[/reset]               JSON: the most /image responses in flight at once, the distinct client
                                     connections that asked for them, and how many were asked for
  /styled[?sheet=/sheet]             a page titled "Styled" that links the stylesheet `sheet`; its paragraph of class
                                     web-hidden is hidden by /sheet, the other stays
  /sheet                             text/css: `.web-hidden { display: none }`
  /page[?title=Page&links=&body=&delay=0]
                                     small HTML page: <title>, an <h1>, a paragraph, and one link per entry of
                                     `links` (comma-separated URLs or paths). Content-Length, UTF-8. Sent after
                                     `delay` seconds.
  /link[?to=/page]                   a page whose one link goes to `to`, whatever its scheme
  /slow[?size=200000&rate=200000&chunked=0&gzip=0&type=text/html]
                                     an HTML page of exactly `size` bytes sent at `rate`; with Content-Length,
                                     or chunked without it when chunked=1; gzip=1 compresses it (Content-Length,
                                     if any, is then the compressed size)
  /chunked[?size=&rate=]             /slow with chunked=1
  /gzip[?size=&rate=]                /slow with gzip=1
  /nolength[?size=20000]             HTTP/1.0-style body delimited by closing the connection (no length, no chunks)
  /delay[?seconds=1]                 waits before sending any header, then a small page
  /redirect[?n=3&status=302]         a chain of n redirects (/redirect?n=n-1 …) ending at a page titled
                                     "Redirect target"; n=0 is that page
  /loop                              redirects to itself forever
  /redirect-to?url=U[&status=302]    one redirect to U (e.g. file:///etc/passwd)
  /redirect-file                     redirects to file:///etc/passwd
  /stall[?after=1000&length=100000]  Content-Length `length`, sends `after` bytes, then sends nothing until the
                                     client gives up (at most 120 s)
  /drop[?size=100000&after=20000]    Content-Length `size`, sends `after` bytes, then resets the connection (RST)
  /lying[?claim=100000&send=5000]    Content-Length `claim` but sends only `send` bytes, then closes normally
  /broken-chunked[?after=5000&mode=close]
                                     chunked body; after `after` bytes either closes without the final chunk
                                     (mode=close) or sends a chunk size that is not hexadecimal (mode=garbage)
  /status?code=404[&body=page]       that status with an HTML error page (body=page), no body at all
                                     (body=empty, Content-Length: 0) or only whitespace (body=blank);
                                     /404 and /500 are shortcuts for the page
  /charset?enc=latin1&declare=header a page of non-ASCII text in `enc` (latin1, shift_jis, utf8, windows1252,
                                     and for detection when undeclared: euc_jp, koi8_r, gb18030, big5)
                                     declared by `declare`: header (Content-Type charset), meta (<meta charset>),
                                     http-equiv (<meta http-equiv=Content-Type content=…>), bom (UTF-8 BOM),
                                     none (nothing). The text is documented in CHARSET_TEXT below.
  /binary[?size=4096&type=image/png] PNG-signed binary bytes with that Content-Type; type=none sends no
                                     Content-Type (the client must sniff the NUL bytes)
  /bomb[?mib=1024]                   a gzip body of about 1 KB per MiB that inflates to `mib` MiB of zeros; built
                                     block by block while sending, so the server never holds the inflated data
  /big[?mb=50&chunked=0&type=application/octet-stream]
                                     `mb` MB (10^6 bytes) as fast as possible, with Content-Length unless chunked=1
  /refresh[?to=/page&delay=0]        an HTML page with <meta http-equiv="refresh" content="delay;url=to">
  /refresh-self[?url=0]              a page that refreshes itself at once: content="0", or with url=1
                                     content="0;url=/refresh-self?url=1" (its own address)
  /empty                             204 No Content
  /not-modified                      304 Not Modified (no body), though the request was not conditional

Hostile answers (each one a real server's failure or an attack, reported by the client in plain words):
  /not-http                          no HTTP at all: an SSH server's greeting line, then the connection closes
  /huge-header[?kb=1024]             a status line, then one header line `kb` KB long
  /many-headers[?kb=400]             `kb` KB of headers in lines of 10 KB each
  /drip[?interval=1&after=0&length=100000]
                                     Content-Length `length`; `after` bytes at once, then one byte every
                                     `interval` seconds until `length` bytes are sent or the client leaves
  /gzip-members[?count=2]            Content-Encoding: gzip, a body of `count` gzip members one after another
                                     (RFC 1952 section 2.2 allows it), each a small HTML part
  /trickle[?rate=1]                  a whole small response, its head padded to about 200 bytes, sent one byte
                                     at a time at `rate` bytes per second
  /headers                           the request headers echoed as text/plain
  /count[?path=/x]                   JSON object path → number of requests that path got (query strings are not
                                     part of the path; /count itself is not counted); with ?path=, just the number
  /count/reset                       clears the counters
Anything else is a 404 page.
"""

import gzip
import html
import json
import os
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

# The text of /charset pages. Latin-1 and windows-1252 pages use LATIN_TEXT, Shift_JIS pages JAPANESE_TEXT,
# UTF-8 pages both.
LATIN_TEXT = "Café crème, naïve façade, 25 °C, ½ price, © 2024"
JAPANESE_TEXT = "日本語のページです。こんにちは、世界。"
# Longer texts, as real pages have, for the encodings a page may leave undeclared and the client must detect.
JAPANESE_PROSE = ("吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所で"
                  "ニャーニャー泣いていた事だけは記憶している。吾輩はここで始めて人間というものを見た。")
RUSSIAN_PROSE = ("Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива по-своему. "
                 "Всё смешалось в доме Облонских. Жена узнала, что муж был в связи с бывшею в их доме "
                 "француженкою-гувернанткой, и объявила мужу, что не может жить с ним в одном доме.")
CHINESE_SIMPLIFIED_PROSE = ("子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？"
                            "有子曰：其为人也孝弟，而好犯上者，鲜矣；不好犯上，而好作乱者，未之有也。君子务本，本立而道生。")
CHINESE_TRADITIONAL_PROSE = ("子曰：學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？人不知而不慍，不亦君子乎？"
                             "有子曰：其為人也孝弟，而好犯上者，鮮矣；不好犯上，而好作亂者，未之有也。君子務本，本立而道生。")
CHARSET_TEXT = {
    "latin1": ("ISO-8859-1", "latin-1", LATIN_TEXT),
    "windows1252": ("windows-1252", "cp1252", LATIN_TEXT + " \u20ac \u201cquoted\u201d"),
    "shift_jis": ("Shift_JIS", "shift_jis", JAPANESE_TEXT + JAPANESE_PROSE),
    "utf8": ("UTF-8", "utf-8", LATIN_TEXT + " " + JAPANESE_TEXT),
    "euc_jp": ("EUC-JP", "euc_jp", JAPANESE_PROSE),
    "koi8_r": ("KOI8-R", "koi8_r", RUSSIAN_PROSE),
    "gb18030": ("gb18030", "gb18030", CHINESE_SIMPLIFIED_PROSE),
    "big5": ("Big5", "big5", CHINESE_TRADITIONAL_PROSE),
}

counts = {}
counts_lock = threading.Lock()

ONE_MIB_OF_ZEROS = bytes(1 << 20)


def bomb_block():
    """One MiB of zeros as a raw deflate block ended by a full flush: the compressor's state after a full flush
    is the same every time, so the same bytes can be sent again and again to inflate to another MiB each."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(ONE_MIB_OF_ZEROS) + compressor.flush(zlib.Z_FULL_FLUSH)


BOMB_BLOCK = bomb_block()


def filler_html(size, title="Filler"):
    """An HTML page of exactly `size` bytes (cut short, unclosed, when `size` is smaller than its frame)."""
    head = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%s</title></head><body>\n" % title).encode()
    tail = b"\n</body></html>\n"
    line = b"<p>The quick brown fox jumps over the lazy dog, line %06d.</p>\n"
    if size <= len(head) + len(tail):
        return (head + tail)[:size]
    lines = b"".join(line % n for n in range((size - len(head)) // len(line % 0) + 1))
    return head + lines[: size - len(head) - len(tail)] + tail



# -- images ---------------------------------------------------------------------------------------------------

image_lock = threading.Lock()
image_stats = {"inflight": 0, "peak": 0, "requests": 0, "connections": set()}


def png_bytes(width, height, rgb):
    """A PNG of one colour, written with zlib alone (PNG specification, chunks IHDR, IDAT, IEND)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgb) * width
    raw = zlib.compress(row * height, 9)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", raw) + chunk(b"IEND", b""))


def png_checker(width, height, rgb, other, square):
    """A PNG checkerboard of squares of `square` pixels, `rgb` at the top left and `other` beside it."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"".join(bytes(rgb if (x // square + y // square) % 2 == 0 else other)
                                        for x in range(width)) for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def png_bomb():
    """A valid PNG signature and header claiming 100000 x 100000 pixels, with a tiny image body."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(b"\x00" * 4096)) + chunk(b"IEND", b""))

# format= for /image: files in Tests/Fixtures/images, each 80 x 60 of one colour (the JPEG is a small photo).
FIXTURE_IMAGES = {
    "jpeg": ("photo.jpg", "image/jpeg"),
    "gif": ("solid.gif", "image/gif"),          # 0000c0
    "animated": ("animated.gif", "image/gif"),  # frames 0000c0 then c0c000, 0.2 s each, looping
    "webp": ("solid.webp", "image/webp"),       # c000c0
    "avif": ("solid.avif", "image/avif"),       # 00c0c0
    "svg": ("solid.svg", "image/svg+xml"),      # c08000
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "GtkProgressTestServer/1"
    # Headers and body go out in separate writes; with Nagle on, each keep-alive response waits 40 ms for the
    # client's delayed ACK.
    disable_nagle_algorithm = True

    def log_message(self, format, *args):
        pass

    # -- plumbing ---------------------------------------------------------------------------------------------

    def do_GET(self):
        parts = urlsplit(self.path)
        self.route = parts.path
        self.query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        if not self.route.startswith("/count"):
            with counts_lock:
                counts[self.route] = counts.get(self.route, 0) + 1
        handler = ROUTES.get(self.route, Handler.not_found)
        try:
            handler(self)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
            self.close_connection = True

    def arg(self, name, default):
        value = self.query.get(name)
        if value is None or value == "":
            return default
        return type(default)(value) if not isinstance(default, str) else value

    def send_body(self, status, body, content_type="text/html; charset=utf-8", extra=()):
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def send_paced(self, data, rate, chunked=False):
        """Sends `data` at about `rate` bytes per second (all at once when rate <= 0)."""
        start = time.monotonic()
        sent = 0
        step = len(data) if rate <= 0 else max(1, rate // 20)
        while sent < len(data):
            piece = data[sent:sent + step]
            if chunked:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            else:
                self.wfile.write(piece)
            self.wfile.flush()
            sent += len(piece)
            if rate > 0:
                ahead = sent / rate - (time.monotonic() - start)
                if ahead > 0:
                    time.sleep(ahead)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

    def wait_for_client_to_leave(self, limit):
        """Holds the connection open, sending nothing, until the client closes it or `limit` seconds pass."""
        deadline = time.monotonic() + limit
        self.connection.settimeout(0.2)
        while time.monotonic() < deadline:
            try:
                if self.connection.recv(4096) == b"":
                    return
            except socket.timeout:
                continue
            except OSError:
                return

    def reset_connection(self):
        """Closes with RST instead of FIN, as a crashed server or a broken middlebox would."""
        self.wfile.flush()
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    # -- routes -----------------------------------------------------------------------------------------------

    def not_found(self):
        body = b"<!DOCTYPE html><html><head><title>Not Found</title></head><body><h1>Not Found</h1>" \
               b"<p>Nothing lives at this address.</p></body></html>\n"
        self.send_body(404, body)

    def link(self):
        """A page whose only link goes to `to` (any scheme: the viewer decides what it may open)."""
        target = html.escape(self.arg("to", "/page"), quote=True)
        body = f"<title>Links</title><p>Go <a href=\"{target}\">there</a>.</p>\n".encode()
        self.send_body(200, body)

    def page(self):
        time.sleep(self.arg("delay", 0.0))
        title = self.arg("title", "Page")
        links = [link for link in self.arg("links", "").split(",") if link]
        text = self.arg("body", "This is a test page.")
        items = "".join('<li><a href="%s">%s</a></li>' % (link, link) for link in links)
        html = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%s</title></head><body>"
                "<h1>%s</h1><p>%s</p><ul>%s</ul></body></html>\n") % (title, title, text, items)
        self.send_body(200, html.encode())

    def styled(self):
        sheet = html.escape(self.arg("sheet", "/sheet"), quote=True)
        page = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Styled</title>"
                "<link rel=\"stylesheet\" href=\"%s\"></head><body><h1>Styled</h1>"
                "<p class=\"web-hidden\">Hidden by the web sheet.</p><p>Shown by every sheet.</p></body></html>\n"
                ) % sheet
        self.send_body(200, page.encode())

    def sheet(self):
        self.send_body(200, b".web-hidden { display: none }\n", "text/css")

    def article(self):
        """A long page to read with the keyboard: a table of contents of `#sN` jumps, then `sections` sections
        of a heading, a few paragraphs with the word "needle" once each, and a link to a page of its own."""
        title = self.arg("title", "Article")
        sections = self.arg("sections", 30)
        toc = "".join('<li><a href="#s%d">Section %d</a></li>' % (n, n) for n in range(1, sections + 1))
        parts = []
        for n in range(1, sections + 1):
            parts.append('<h2 id="s%d">Section %d</h2>' % (n, n))
            for k in range(1, 4):
                parts.append("<p>Paragraph %d of section %d: plain words to read, and one needle to find.</p>"
                             % (k, n))
            parts.append('<p>See <a href="/page?title=Linked+%d">linked page %d</a>.</p>' % (n, n))
        html = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%s</title></head><body>"
                "<h1>%s</h1><ul>%s</ul>%s</body></html>\n") % (title, title, toc, "".join(parts))
        self.send_body(200, html.encode())

    def slow(self, chunked=None, gzipped=None):
        size = self.arg("size", 200000)
        rate = self.arg("rate", 200000)
        chunked = self.arg("chunked", 0) == 1 if chunked is None else chunked
        gzipped = self.arg("gzip", 0) == 1 if gzipped is None else gzipped
        content_type = self.arg("type", "text/html")
        body = filler_html(size, "Slow page")
        if gzipped:
            compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
            body = compressor.compress(body) + compressor.flush()
        self.send_response(200)
        self.send_header("Content-Type", content_type + ("; charset=utf-8" if content_type.startswith("text/") else ""))
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.send_paced(body, rate, chunked)

    def chunked(self):
        self.slow(chunked=True)

    def gzip(self):
        self.slow(gzipped=True)

    def nolength(self):
        body = filler_html(self.arg("size", 20000), "No length")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        self.close_connection = True

    def delay(self):
        time.sleep(self.arg("seconds", 1.0))
        self.send_body(200, b"<!DOCTYPE html><title>Delayed</title><h1>Delayed</h1><p>Worth the wait.</p>\n")

    def redirect(self):
        n = self.arg("n", 3)
        status = self.arg("status", 302)
        if n <= 0:
            self.send_body(200, b"<!DOCTYPE html><title>Redirect target</title><h1>Redirect target</h1>\n")
            return
        self.send_body(status, b"<p>Moved.</p>\n", extra=[("Location", "/redirect?n=%d&status=%d" % (n - 1, status))])

    def loop(self):
        self.send_body(302, b"<p>Round and round.</p>\n", extra=[("Location", "/loop")])

    def redirect_to(self):
        self.send_body(self.arg("status", 302), b"<p>Moved.</p>\n", extra=[("Location", self.arg("url", "/page"))])

    def redirect_file(self):
        self.send_body(302, b"<p>Moved.</p>\n", extra=[("Location", "file:///etc/passwd")])

    def stall(self):
        after = self.arg("after", 1000)
        length = self.arg("length", 100000)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(length))
        self.end_headers()
        self.wfile.write(filler_html(length, "Stalled")[:after])
        self.wfile.flush()
        self.wait_for_client_to_leave(120)
        self.close_connection = True

    def drop(self):
        size = self.arg("size", 100000)
        after = self.arg("after", 20000)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        self.wfile.write(filler_html(size, "Dropped")[:after])
        time.sleep(0.05)
        self.reset_connection()

    def lying(self):
        claim = self.arg("claim", 100000)
        send = self.arg("send", 5000)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(claim))
        self.end_headers()
        self.wfile.write(filler_html(claim, "Lying")[:send])
        self.wfile.flush()
        self.close_connection = True

    def broken_chunked(self):
        after = self.arg("after", 5000)
        mode = self.arg("mode", "close")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        body = filler_html(after + 1000, "Broken chunks")[:after]
        self.wfile.write(b"%x\r\n%s\r\n" % (len(body), body))
        if mode == "garbage":
            self.wfile.write(b"zz-not-hex\r\nmore\r\n")
        self.wfile.flush()
        time.sleep(0.05)
        self.close_connection = True

    def status(self, code=None):
        code = code or self.arg("code", 404)
        kind = self.arg("body", "page")
        if kind == "empty":
            self.send_body(code, b"")
            return
        if kind == "blank":
            self.send_body(code, b" \r\n\t\r\n  ")
            return
        body = ("<!DOCTYPE html><html><head><title>Error %d</title></head><body><h1>Error %d</h1>"
                "<p>The server says: status %d.</p></body></html>\n") % (code, code, code)
        self.send_body(code, body.encode())

    def status_404(self):
        self.status(404)

    def status_500(self):
        self.status(500)

    def charset(self):
        key = self.arg("enc", "latin1")
        declare = self.arg("declare", "header")
        label, codec, text = CHARSET_TEXT[key]
        meta = ""
        if declare == "meta":
            meta = '<meta charset="%s">' % label
        elif declare == "http-equiv":
            meta = '<meta http-equiv="Content-Type" content="text/html; charset=%s">' % label
        html = ("<!DOCTYPE html><html><head>%s<title>%s</title></head><body><p>%s</p></body></html>\n"
                % (meta, key, text))
        body = html.encode(codec)
        if declare == "bom":
            body = b"\xef\xbb\xbf" + body
        content_type = "text/html; charset=%s" % label if declare == "header" else "text/html"
        self.send_body(200, body, content_type)

    def binary(self):
        size = self.arg("size", 4096)
        content_type = self.arg("type", "image/png")
        body = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * (size // 256 + 1))[:size]
        self.send_body(200, body, None if content_type == "none" else content_type)

    def bomb(self):
        mib = self.arg("mib", 1024)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        def chunk(data):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        chunk(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff")
        crc = 0
        for _ in range(mib):
            chunk(BOMB_BLOCK)
            crc = zlib.crc32(ONE_MIB_OF_ZEROS, crc)
        chunk(b"\x03\x00" + struct.pack("<II", crc, (mib << 20) & 0xFFFFFFFF))
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def big(self):
        total = self.arg("mb", 50) * 1000000
        chunked = self.arg("chunked", 0) == 1
        self.send_response(200)
        self.send_header("Content-Type", self.arg("type", "application/octet-stream"))
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(total))
        self.end_headers()
        block = (b"0123456789abcdef" * 65536)
        sent = 0
        while sent < total:
            piece = block[: min(len(block), total - sent)]
            if chunked:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            else:
                self.wfile.write(piece)
            sent += len(piece)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def refresh(self):
        target = self.arg("to", "/page")
        seconds = self.arg("delay", 0)
        html = ('<!DOCTYPE html><html><head><meta http-equiv="refresh" content="%d;url=%s">'
                "<title>Refreshing</title></head><body><p>Moving on…</p></body></html>\n") % (seconds, target)
        self.send_body(200, html.encode())

    def refresh_self(self):
        own = self.arg("url", 0) == 1
        content = "0;url=/refresh-self?url=1" if own else "0"
        html = ('<!DOCTYPE html><html><head><meta http-equiv="refresh" content="%s">'
                "<title>Refreshes itself</title></head><body><p>This page asks for itself again at once.</p>"
                "</body></html>\n") % content
        self.send_body(200, html.encode())

    def empty(self):
        self.send_response(204)
        self.end_headers()

    def not_modified(self):
        self.send_response(304)
        self.end_headers()

    # -- hostile answers --------------------------------------------------------------------------------------

    def not_http(self):
        self.wfile.write(b"SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n")
        self.wfile.flush()
        time.sleep(0.2)
        self.close_connection = True

    def huge_header(self):
        self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Huge: " + b"a" * (self.arg("kb", 1024) * 1024) + b"\r\n"
                         b"Content-Length: 2\r\n\r\nhi")
        self.wfile.flush()
        self.close_connection = True

    def many_headers(self):
        lines = b"".join(b"X-Filler-%d: %s\r\n" % (n, b"b" * 10240) for n in range(self.arg("kb", 400) // 10))
        self.wfile.write(b"HTTP/1.1 200 OK\r\n" + lines + b"Content-Length: 2\r\n\r\nhi")
        self.wfile.flush()
        self.close_connection = True

    def trickle(self):
        rate = self.arg("rate", 1.0)
        body = b"<!DOCTYPE html><title>Trickled</title><p>Slowly.</p>\n"
        head = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nX-Padding: " + b"p" * 120 +
                b"\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body))
        for byte in head + body:
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            time.sleep(1.0 / rate)
        self.close_connection = True

    def drip(self):
        interval = self.arg("interval", 1.0)
        after = self.arg("after", 0)
        length = self.arg("length", 100000)
        body = filler_html(length, "Dripping")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(length))
        self.end_headers()
        self.wfile.write(body[:after])
        self.wfile.flush()
        for index in range(after, length):
            time.sleep(interval)
            self.wfile.write(body[index:index + 1])
            self.wfile.flush()

    def gzip_members(self):
        count = self.arg("count", 2)
        body = b"".join(gzip.compress(b"<p>Member %d of %d.</p>\n" % (n, count)) for n in range(1, count + 1))
        self.send_body(200, body, extra=[("Content-Encoding", "gzip")])

    def headers(self):
        text = "".join("%s: %s\n" % (name, value) for name, value in self.headers.items())
        self.send_body(200, text.encode(), "text/plain; charset=utf-8")

    def image(self):
        with image_lock:
            image_stats["inflight"] += 1
            image_stats["peak"] = max(image_stats["peak"], image_stats["inflight"])
            image_stats["requests"] += 1
            image_stats["connections"].add(self.client_address[1])
        try:
            delay = self.arg("delay", 0.0)
            if delay > 0:
                time.sleep(delay)
            if self.arg("bomb", 0):
                body, kind = png_bomb(), "image/png"
            elif self.arg("format", "png") in FIXTURE_IMAGES:
                name, kind = FIXTURE_IMAGES[self.arg("format", "png")]
                path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "images", name)
                with open(path, "rb") as f:
                    body = f.read()
            else:
                color = self.arg("color", "ff0000")
                rgb = bytes(int(color[i:i + 2], 16) for i in (0, 2, 4))
                width, height = min(self.arg("w", 40), 4000), min(self.arg("h", 30), 4000)
                if self.arg("checker", 0) > 0:
                    other = self.arg("color2", "0000ff")
                    other_rgb = bytes(int(other[i:i + 2], 16) for i in (0, 2, 4))
                    body = png_checker(width, height, rgb, other_rgb, min(self.arg("checker", 0), 1000))
                else:
                    body = png_bytes(width, height, rgb)
                kind = "image/png"
            if self.arg("broken", 0):
                body = body[:40]
            chunked = not self.arg("length", 1)
            self.send_response(200)
            self.send_header("Content-Type", kind)
            if chunked:
                self.send_header("Transfer-Encoding", "chunked")
            else:
                self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.send_paced(body, self.arg("rate", 0), chunked=chunked)
        finally:
            with image_lock:
                image_stats["inflight"] -= 1

    def images(self):
        count = self.arg("count", 12)
        delay = self.arg("delay", 0.2)
        lazy = ' loading="lazy"' if self.arg("lazy", 0) else ""
        title = html.escape(self.arg("title", "Images"))
        w, h = min(self.arg("w", 40), 4000), min(self.arg("h", 30), 4000)
        items = []
        for n in range(count):
            alt = ' alt="Image %d"' % n if self.arg("alt", 1) else ""
            items.append('<p>Picture %d: <img src="/image?n=%d&amp;delay=%s&amp;color=%02x40c0&amp;w=%d&amp;h=%d" '
                         'width="%d" height="%d"%s%s></p>' % (n, n, delay, (n * 20) % 256, w, h, w, h, alt, lazy))
        body = ("<!DOCTYPE html><html><head><title>%s</title></head><body><h1>%s</h1>%s</body></html>\n"
                % (title, title, "\n".join(items))).encode()
        self.send_body(200, body)

    def image_stats_route(self):
        with image_lock:
            text = json.dumps({"peak": image_stats["peak"], "requests": image_stats["requests"],
                               "connections": len(image_stats["connections"])})
        self.send_body(200, text.encode(), "application/json")

    def image_stats_reset(self):
        with image_lock:
            image_stats.update(inflight=0, peak=0, requests=0, connections=set())
        self.send_body(200, b"{}", "application/json")

    def count(self):
        with counts_lock:
            snapshot = dict(counts)
        path = self.query.get("path")
        if path is not None:
            self.send_body(200, str(snapshot.get(path, 0)).encode(), "text/plain")
        else:
            self.send_body(200, json.dumps(snapshot, sort_keys=True).encode(), "application/json")

    def count_reset(self):
        with counts_lock:
            counts.clear()
        self.send_body(200, b"{}", "application/json")


ROUTES = {
    "/page": Handler.page,
    "/link": Handler.link,
    "/article": Handler.article,
    "/styled": Handler.styled,
    "/sheet": Handler.sheet,
    "/slow": Handler.slow,
    "/chunked": Handler.chunked,
    "/gzip": Handler.gzip,
    "/nolength": Handler.nolength,
    "/delay": Handler.delay,
    "/redirect": Handler.redirect,
    "/loop": Handler.loop,
    "/redirect-to": Handler.redirect_to,
    "/redirect-file": Handler.redirect_file,
    "/stall": Handler.stall,
    "/drop": Handler.drop,
    "/lying": Handler.lying,
    "/broken-chunked": Handler.broken_chunked,
    "/status": Handler.status,
    "/404": Handler.status_404,
    "/500": Handler.status_500,
    "/charset": Handler.charset,
    "/binary": Handler.binary,
    "/bomb": Handler.bomb,
    "/big": Handler.big,
    "/refresh": Handler.refresh,
    "/refresh-self": Handler.refresh_self,
    "/empty": Handler.empty,
    "/not-modified": Handler.not_modified,
    "/not-http": Handler.not_http,
    "/huge-header": Handler.huge_header,
    "/many-headers": Handler.many_headers,
    "/trickle": Handler.trickle,
    "/drip": Handler.drip,
    "/gzip-members": Handler.gzip_members,
    "/headers": Handler.headers,
    "/image": Handler.image,
    "/images": Handler.images,
    "/image-stats": Handler.image_stats_route,
    "/image-stats/reset": Handler.image_stats_reset,
    "/count": Handler.count,
    "/count/reset": Handler.count_reset,
}


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64


def serve_forever(server):
    threading.Thread(target=server.serve_forever, daemon=True).start()


def start_tls(directory):
    """The same routes over HTTPS with a self-signed certificate no client trusts."""
    cert = os.path.join(directory, "cert.pem")
    key = os.path.join(directory, "key.pem")
    try:
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError):
        return 0
    server = Server(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    serve_forever(server)
    return server.server_address[1]


def start_blackhole():
    """A listener that never accepts, with its queue filled, so further connection attempts go unanswered."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    fillers = []
    for _ in range(4):
        filler = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        filler.setblocking(False)
        try:
            filler.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        fillers.append(filler)
    time.sleep(0.05)
    start_blackhole.keep = (listener, fillers)
    return port


def exit_when_stdin_closes():
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


def main():
    port = 0
    if "--port" in sys.argv:
        port = int(sys.argv[sys.argv.index("--port") + 1])
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    server = Server(("127.0.0.1", port), Handler)
    with tempfile.TemporaryDirectory() as directory:
        tls_port = start_tls(directory)
    blackhole_port = start_blackhole()
    print(server.server_address[1])
    print("tls=%d blackhole=%d" % (tls_port, blackhole_port))
    sys.stdout.flush()
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
