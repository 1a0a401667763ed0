#!/usr/bin/env python3
"""A small HTTP/1.1 server for the podcast tests (PodcastsTests): serves the files of ROOT on 127.0.0.1 and
behaves badly on request. Writes its port to PORT_FILE (the second argument), then serves until killed
or until the process that started it is gone.

  /files/NAME            the file; ETag (content hash) and Last-Modified (mtime), 304 for a matching
                         If-None-Match or If-Modified-Since; Range: bytes=N- answered 206
  /gz/NAME               the file gzip-encoded when Accept-Encoding asks for gzip
  /r301/PATH, /r302/PATH a redirect to /PATH (each prefix may repeat: /r302/r301/files/x)
  /loop/a, /loop/b       redirects to each other
  /chain/N               N redirects in a row, then /files/feed.xml
  /drop/NAME             the first request per NAME: the headers for the whole file, half of the body, then
                         the connection closed; later requests: as /files/NAME (with Range)
  /stall/NAME            the headers, the first BYTES (query ?bytes=, default 65536) of the body, then
                         nothing until the client goes away
  /slow/NAME             the headers only, then nothing until the client goes away
  /html/NAME             200 text/html (an error page instead of the enclosure)
  /norange/NAME          the file, ignoring Range (always 200 from the start)
  /stats                 JSON: the requests seen so far (path, Range header, status, body bytes sent)
"""
import email.utils
import gzip
import hashlib
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Shared"))
from parent_watch import exit_with_parent  # noqa: E402  (Tests/Shared)

ROOT = sys.argv[1]
LOCK = threading.Lock()
LOG = []
DROPPED = set()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, status, sent):
        with LOCK:
            LOG.append({"path": self.path, "range": self.headers.get("Range"),
                        "ifNoneMatch": self.headers.get("If-None-Match"), "status": status, "sent": sent})

    def plain(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)
        self.record(status, len(body))

    def redirect(self, status, location):
        self.plain(status, b"moved\n", [("Location", location), ("Content-Type", "text/plain")])

    def read(self, name):
        path = os.path.join(ROOT, os.path.basename(name))
        if not os.path.isfile(path):
            return None, None
        with open(path, "rb") as f:
            return f.read(), os.path.getmtime(path)

    def ctype(self, name):
        if name.endswith(".xml"):
            return "application/rss+xml; charset=utf-8"
        if name.endswith(".opml"):
            return "text/x-opml"
        return "audio/mpeg"

    def serve(self, name, honor_range=True, gz=False):
        data, mtime = self.read(name)
        if data is None:
            return self.plain(404, b"<html>not found</html>", [("Content-Type", "text/html")])
        etag = '"' + hashlib.sha1(data).hexdigest()[:16] + '"'
        modified = email.utils.formatdate(mtime, usegmt=True)
        if self.headers.get("If-None-Match") == etag or (
                self.headers.get("If-None-Match") is None and self.headers.get("If-Modified-Since") == modified):
            return self.plain(304, b"", [("ETag", etag), ("Last-Modified", modified)])
        headers = [("ETag", etag), ("Last-Modified", modified), ("Content-Type", self.ctype(name)),
                   ("Accept-Ranges", "bytes")]
        wanted = self.headers.get("Range")
        if honor_range and wanted and wanted.startswith("bytes=") and wanted.endswith("-"):
            start = int(wanted[6:-1])
            if start >= len(data):
                return self.plain(416, b"", [("Content-Range", "bytes */%d" % len(data))])
            headers.append(("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data))))
            return self.plain(206, data[start:], headers)
        if gz and "gzip" in (self.headers.get("Accept-Encoding") or ""):
            headers.append(("Content-Encoding", "gzip"))
            return self.plain(200, gzip.compress(data), headers)
        return self.plain(200, data, headers)

    def hold(self, name, first):
        data, _ = self.read(name)
        self.send_response(200)
        self.send_header("Content-Type", "audio/mpeg")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[:first])
        self.wfile.flush()
        self.record(200, first)
        # Until the client goes away (its close shows as a readable socket at end of file).
        self.connection.settimeout(0.5)
        while True:
            try:
                if self.connection.recv(1) == b"":
                    break
            except TimeoutError:
                continue
            except OSError:
                break
        self.close_connection = True

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        parts = url.path.strip("/").split("/")
        head = parts[0]
        rest = "/".join(parts[1:])
        if head == "stats":
            with LOCK:
                body = json.dumps(LOG).encode()
            return self.plain(200, body, [("Content-Type", "application/json")])
        if head == "files":
            return self.serve(rest)
        if head == "gz":
            return self.serve(rest, gz=True)
        if head == "norange":
            return self.serve(rest, honor_range=False)
        if head == "r301":
            return self.redirect(301, "/" + rest)
        if head == "r302":
            return self.redirect(302, "/" + rest)
        if head == "loop":
            return self.redirect(302, "/loop/b" if rest == "a" else "/loop/a")
        if head == "chain":
            n = int(rest)
            return self.redirect(302, "/chain/%d" % (n - 1) if n > 0 else "/files/feed.xml")
        if head == "html":
            return self.plain(200, b"<!DOCTYPE html><html><body>Sorry</body></html>",
                              [("Content-Type", "text/html; charset=utf-8")])
        if head == "drop":
            with LOCK:
                first = rest not in DROPPED
                DROPPED.add(rest)
            if not first:
                return self.serve(rest)
            data, _ = self.read(rest)
            self.send_response(200)
            self.send_header("Content-Type", "audio/mpeg")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            self.record(200, len(data) // 2)
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if head == "stall":
            return self.hold(rest, int(query.get("bytes", ["65536"])[0]))
        if head == "slow":
            return self.hold(rest, 0)
        return self.plain(404, b"<html>no such path</html>", [("Content-Type", "text/html")])


exit_with_parent()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
server.serve_forever()
