"""What the web remote's browser test and load benchmark share: a generated library (sox + lame, one
album with an embedded cover), the control socket, a free port; a podcast host (Python's http.server over
a folder with a feed and its episodes)."""
import functools
import http.server
import os
import socket
import struct
import subprocess
import threading
import time
import zlib


def wait_for(fn, timeout=10.0, every=0.02):
    end = time.monotonic() + timeout
    while True:
        v = fn()
        if v or time.monotonic() > end:
            return v
        time.sleep(every)


def png(width, height, rgb):
    """A solid PNG (the cover art)."""
    raw = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    chunk = lambda k, d: struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def make_library(music):
    """Two albums of tones: sox makes the audio, lame encodes and tags it (album one with a cover)."""
    cover = music / "cover-art.png"
    cover.write_bytes(png(64, 64, (200, 60, 40)))
    songs = [("Blue Album", "Aria", 1, 440), ("Blue Album", "Bolero", 2, 494), ("Blue Album", "Canon", 3, 523),
             ("Green Album", "Dance", 1, 587), ("Green Album", "Etude", 2, 659), ("Green Album", "Fugue", 3, 698)]
    for album, title, n, hz in songs:
        folder = music / album
        folder.mkdir(exist_ok=True)
        wav = folder / f"{n}.wav"
        subprocess.run(["sox", "-n", "-r", "44100", "-c", "1", str(wav), "synth", "20", "sine", str(hz), "vol", "0.3"],
                       check=True)
        tags = ["--tt", title, "--ta", "The Testers", "--tl", album, "--tn", str(n), "--ty", "2024"]
        if album == "Blue Album":
            tags += ["--ti", str(cover)]
        subprocess.run(["lame", "--quiet", "-b", "32", *tags, str(wav), str(folder / f"{n:02d} {title}.mp3")], check=True)
        wav.unlink()
    cover.unlink()


class MPD:
    """The control socket (MPD protocol), one command at a time."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.file = self.sock.makefile("rb")
        self.file.readline()

    def __call__(self, line):
        self.sock.sendall((line + "\n").encode())
        out = []
        while True:
            l = self.file.readline().decode().rstrip("\n")
            if l == "OK":
                return out
            if l.startswith("ACK") or not l:
                raise RuntimeError(f"{line}: {l}")
            k, _, v = l.partition(": ")
            out.append((k, v))

    def screen(self, name=None):
        reply = self(f"screen {name}" if name else "screen")
        d = {k: v for k, v in reply if k != "row"}
        d["rows"] = [v for k, v in reply if k == "row"]
        d["cursor"] = int(d["cursor"])
        d["depth"] = int(d["depth"])
        return d


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class PodcastHost:
    """A podcast's host on 127.0.0.1 (Python's http.server over `folder`, in a thread): `feed.xml`, an RSS
    feed of `episodes` MP3s of half a second (sox + lame), newest last; `publish(n)` rewrites the feed
    with n of them, `break_feed()` replaces it with an HTML page."""

    def __init__(self, folder, title, episodes):
        self.folder, self.title = folder, title
        folder.mkdir(parents=True, exist_ok=True)
        handler = functools.partial(Quiet, directory=str(folder))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/feed.xml"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.wav = folder / "tone.wav"
        subprocess.run(["sox", "-n", "-r", "22050", "-c", "1", str(self.wav), "synth", "0.5", "sine", "330"], check=True)
        self.made = 0
        # Each version of the feed ten seconds newer than the last (http.server's Last-Modified has
        # whole seconds: two versions written within one would look unchanged to If-Modified-Since).
        self.mtime = int(time.time()) - 3600
        self.publish(episodes)

    def publish(self, count):
        base = self.url.rsplit("/", 1)[0]
        while self.made < count:
            self.made += 1
            subprocess.run(["lame", "--quiet", "-b", "32", str(self.wav), str(self.folder / f"ep{self.made}.mp3")], check=True)
        items = "".join(
            f"<item><title>Episode {n}</title><guid>web-ep-{n}</guid><pubDate>Mon, 0{n} Jun 2026 08:00:00 GMT</pubDate>"
            f"<enclosure url=\"{base}/ep{n}.mp3\" length=\"{(self.folder / f'ep{n}.mp3').stat().st_size}\" type=\"audio/mpeg\"/></item>"
            for n in range(1, count + 1))
        self.write('<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel>'
                   f"<title>{self.title}</title><description>A show for the web test.</description>{items}</channel></rss>")

    def break_feed(self):
        self.write("<!DOCTYPE html><html><body><p>Not a feed</p></body></html>")

    def write(self, text):
        tmp = self.folder / "feed.xml.tmp"
        tmp.write_text(text)
        self.mtime += 10
        os.utime(tmp, (self.mtime, self.mtime))
        tmp.rename(self.folder / "feed.xml")

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
