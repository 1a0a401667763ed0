"""A podcast host for PodcastServiceTests: serves /feed.xml (RSS, ETag "v1", 304 on a match), /old.xml (a 301
to /feed.xml: the feed moved), /page.xml (an HTML page where a feed should be), /shows/N.xml (show N: a feed with no episodes, ETag "sN", 304
on a match) and the episodes /epN.mp3 from FOLDER. Binds 127.0.0.1 on a free port and
writes it to FOLDER/port; logs one line per request ("METHOD PATH STATUS") to FOLDER/requests.log."""
import http.server
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Shared"))
from parent_watch import exit_with_parent  # noqa: E402  (Tests/Shared)

folder = sys.argv[1]


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", ctype="application/octet-stream", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        if status != 304:
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status != 304:
            self.wfile.write(body)
        with open(os.path.join(folder, "requests.log"), "a") as log:
            log.write(f"GET {self.path} {status}\n")

    def do_GET(self):
        if self.path == "/feed.xml":
            if self.headers.get("If-None-Match") == '"v1"':
                return self.answer(304, headers=[("ETag", '"v1"')])
            with open(os.path.join(folder, "feed.xml"), "rb") as f:
                return self.answer(200, f.read(), "application/rss+xml", [("ETag", '"v1"')])
        if self.path == "/old.xml":
            port = self.server.server_address[1]
            return self.answer(301, b"moved", "text/plain", [("Location", f"http://127.0.0.1:{port}/feed.xml")])
        if self.path.startswith("/shows/") and self.path.endswith(".xml"):
            n = self.path[len("/shows/"):-len(".xml")]
            tag = f'"s{n}"'
            if self.headers.get("If-None-Match") == tag:
                return self.answer(304, headers=[("ETag", tag)])
            body = f"<rss version='2.0'><channel><title>Show {n}</title></channel></rss>".encode()
            return self.answer(200, body, "application/rss+xml", [("ETag", tag)])
        if self.path == "/page.xml":
            return self.answer(200, b"<!DOCTYPE html><html><body><p>Not a feed</p></body></html>", "text/html")
        name = self.path.lstrip("/")
        path = os.path.join(folder, name)
        if name.endswith(".mp3") and os.path.isfile(path):
            with open(path, "rb") as f:
                return self.answer(200, f.read(), "audio/mpeg")
        self.answer(404, b"not found", "text/plain")


exit_with_parent()


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(folder, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(folder, "port.tmp"), os.path.join(folder, "port"))
server.serve_forever()
