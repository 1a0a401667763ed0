"""What the web remote's browser test and load benchmark share: a generated library (sox + lame, one
album with an embedded cover), the control socket, a free port."""
import socket
import struct
import subprocess
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
