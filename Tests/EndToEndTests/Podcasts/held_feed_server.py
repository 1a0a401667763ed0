"""A podcast host for PodcastDeviceTests: serves FOLDER/feed.xml as /feed.xml (its ETag follows the file's
contents, 304 on a match) and FOLDER/NAME.mp3 as /NAME.mp3. While FOLDER/hold-NAME.mp3 exists, an episode is
sent half-way and then held (a byte every few seconds, so the client's read timeout does not end it) until
that file is removed: the test sees the download under way for as long as it needs, with no timing.
Binds 127.0.0.1 on a free port and writes it to FOLDER/port; logs "GET PATH STATUS" lines to
FOLDER/requests.log."""
import hashlib
import http.server
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Shared"))
from parent_watch import exit_with_parent  # noqa: E402  (Tests/Shared)

folder = sys.argv[1]


def log(path, status):
    with open(os.path.join(folder, "requests.log"), "a") as f:
        f.write(f"GET {path} {status}\n")


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        name = self.path.lstrip("/")
        path = os.path.join(folder, name)
        if "/" in name or not os.path.isfile(path) or not (name == "feed.xml" or name.endswith(".mp3")):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return log(self.path, 404)
        with open(path, "rb") as f:
            body = f.read()
        if name == "feed.xml":
            etag = '"' + hashlib.sha1(body).hexdigest() + '"'
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return log(self.path, 304)
            self.send_response(200)
            self.send_header("ETag", etag)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return log(self.path, 200)
        self.send_response(200)
        self.send_header("Content-Type", "audio/mpeg")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        hold = os.path.join(folder, "hold-" + name)
        sent = 0
        if os.path.exists(hold):
            sent = len(body) // 2
            self.wfile.write(body[:sent])
            self.wfile.flush()
            last = time.monotonic()
            while os.path.exists(hold):
                time.sleep(0.05)
                if time.monotonic() - last > 5 and sent < len(body) - 1:
                    self.wfile.write(body[sent:sent + 1])
                    self.wfile.flush()
                    sent += 1
                    last = time.monotonic()
        self.wfile.write(body[sent:])
        log(self.path, 200)


exit_with_parent()


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(folder, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(folder, "port.tmp"), os.path.join(folder, "port"))
server.serve_forever()
