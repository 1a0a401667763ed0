#!/usr/bin/env python3
"""Playback benchmark: CPU per minute of audio of the ClickWheel service playing a VBR MP3 to a PulseAudio
null sink, against `mpg123 -o pulse` on the same file at the same time; and play -> first sound.

    contrib/bench/playback_bench.sh [SECONDS=300] [ROUNDS=1]     (the wrapper makes the file and the server)
    python3 contrib/bench/playback_bench.py --mp3 FILE --tone TONE.mp3 --seconds 300 --rounds 1

Each round plays the file three ways at once, on the same sink, for the same minutes of wall time (this
machine is shared: running them side by side exposes all three to the same load, which running them one
after the other does not):
  - the service: `clickwheel run --display none --input none` on a music folder holding the file, told to
    play over its control socket (MPD protocol); its CPU is the time on CPU of all its threads
    (/proc/PID/task/*/schedstat, nanoseconds) from the `play` command to the end of the song, so it
    counts the engine, the control server and the checkpoints as well as the audio thread;
  - `mpg123 -q -o pulse FILE`, the peer (CPU from wait4's rusage, microseconds, whole process);
  - `clickwheel-play FILE`, the bare audio path (Playback.AudioPlayer alone, whole process).
Play -> sound: the service is told `play` (a 3 s tone) while parec records the sink's monitor; the time
from sending the command to the first captured chunk above -60 dBFS, three times.
Spoken word (--speech): `clickwheel-play --spoken --speed 1.0 FILE` and `--speed 1.5` at the same time on
the same sink (same load); CPU per minute of the book's audio of each (wait4's rusage), and their ratio
(goal: 1.5x costs at most 1.5 times 1.0x per audio minute; libsonic's work is the difference).
"""
import argparse
import array
import os
import socket
import subprocess
import sys
import tempfile
import time

from socket_bench import cpu_seconds


def log(msg):
    print("[playback-bench] " + msg, file=sys.stderr, flush=True)


def cpu_ns(pid):
    """Time on CPU of the process's threads, nanoseconds (socket_bench.cpu_seconds, which says why)."""
    return round(cpu_seconds(pid) * 1e9)


class Client:
    """A minimal MPD protocol client on the service's Unix socket."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.f = self.sock.makefile("rwb")
        greeting = self.f.readline()
        if not greeting.startswith(b"OK MPD"):
            raise RuntimeError("no greeting: %r" % greeting)

    def send(self, line):
        self.f.write(line.encode() + b"\n")
        self.f.flush()

    def answer(self):
        lines = []
        while True:
            line = self.f.readline()
            if not line:
                raise RuntimeError("the service closed the connection")
            if line == b"OK\n":
                return lines
            if line.startswith(b"ACK"):
                raise RuntimeError(line.decode().strip())
            lines.append(line.decode().rstrip("\n"))

    def __call__(self, line):
        self.send(line)
        return self.answer()

    def status(self):
        return dict(l.split(": ", 1) for l in self("status"))

    def close(self):
        self.sock.close()


def wait_until_stopped(c):
    """Waits with `idle player` (no polling) until the service stops playing."""
    while c.status().get("state") == "play":
        c("idle player")


def wait_indexed(proc, socket_path, name, log_path, update=False):
    """Waits for a server's socket (`proc` must not exit meanwhile), then (after an `update` when asked)
    until its library is indexed and holds songs."""
    for _ in range(400):
        if os.path.exists(socket_path):
            break
        if proc.poll() is not None:
            raise RuntimeError("%s exited with %d (see %s)" % (name, proc.returncode, log_path))
        time.sleep(0.05)
    c = Client(socket_path)
    if update:
        c("update")
    for _ in range(600):
        if "updating_db" not in c.status() and int(dict(l.split(": ", 1) for l in c("stats")).get("songs", "0")) > 0:
            break
        time.sleep(0.1)
    c.close()


class Service:
    """`clickwheel run` on `music` with its database and socket in `work`; `extra`: more options (`--output`)."""

    def __init__(self, binary, music, work, extra=()):
        self.socket = os.path.join(work, "socket")
        self.db = os.path.join(work, "library.sqlite")
        for p in (self.socket, self.db, self.db + "-wal", self.db + "-shm"):
            if os.path.exists(p):
                os.unlink(p)
        self.err = open(os.path.join(work, "service.log"), "w")
        self.proc = subprocess.Popen(
            [binary, "run", "--music", music, "--db", self.db, "--socket", self.socket,
             "--display", "none", "--input", "none", *extra],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.err)
        wait_indexed(self.proc, self.socket, "the service", self.err.name)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(30)


def start(cmd):
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def reap(p):
    """The finished process's CPU seconds (wait4's rusage, microseconds)."""
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        raise RuntimeError("%s exited with status %d" % (p.args[0], status))
    return ru.ru_utime + ru.ru_stime


def cpu_round(service, mp3_name, mp3_path, play_binary, seconds):
    c = Client(service.socket)
    c("stop")
    c("clear")
    c('add "%s"' % mp3_name)
    mpg = start(["mpg123", "-q", "-o", "pulse", mp3_path])
    bare = start([play_binary, "--quiet", mp3_path])
    cpu0 = cpu_ns(service.proc.pid)
    t0 = time.monotonic()
    c("play")
    wait_until_stopped(c)
    svc = (cpu_ns(service.proc.pid) - cpu0) / 1e9
    wall = time.monotonic() - t0
    c.close()
    m = reap(mpg)
    b = reap(bare)
    minutes = seconds / 60
    return {"service": svc / minutes, "mpg123": m / minutes, "clickwheel-play": b / minutes, "wall": wall}


def speed_round(play_binary, speech, seconds):
    """CPU seconds per audio minute of spoken word at 1.0x and 1.5x, played side by side."""
    t0 = time.monotonic()
    normal = start([play_binary, "--quiet", "--spoken", "--speed", "1.0", speech])
    faster = start([play_binary, "--quiet", "--spoken", "--speed", "1.5", speech])
    f = reap(faster)
    wall_faster = time.monotonic() - t0
    n = reap(normal)
    wall_normal = time.monotonic() - t0
    minutes = seconds / 60
    return {"1.0": n / minutes, "1.5": f / minutes, "wall 1.0": wall_normal, "wall 1.5": wall_faster}


def play_to_sound(service, tone_name, monitor):
    """Milliseconds from sending `play` to the first captured chunk above -60 dBFS."""
    c = Client(service.socket)
    c("stop")
    c("clear")
    c('add "%s"' % tone_name)
    rec = subprocess.Popen(
        ["parec", "-d", monitor, "--raw", "--format=s16le", "--rate=44100", "--channels=2", "--latency-msec=10"],
        stdout=subprocess.PIPE)
    rec.stdout.read(1764 * 5)  # the capture is live
    c.send("play")
    sent = time.monotonic_ns()
    c.answer()
    heard = None
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        chunk = rec.stdout.read(1764)
        if not chunk:
            break
        a = array.array("h", chunk[: len(chunk) // 2 * 2])
        if max(abs(x) for x in a) > 33:
            heard = time.monotonic_ns()
            break
    rec.kill()
    rec.wait()
    wait_until_stopped(c)
    c.close()
    return None if heard is None else (heard - sent) / 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mp3", required=True, help="the VBR file (its folder becomes the music folder)")
    ap.add_argument("--tone", required=True, help="a short tone in the same folder (play -> sound)")
    ap.add_argument("--seconds", type=float, required=True, help="the file's length")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--binary", required=True, help="the clickwheel binary")
    ap.add_argument("--play", required=True, help="the clickwheel-play binary")
    ap.add_argument("--speech", help="a spoken-word file (played at 1.0x and 1.5x by clickwheel-play)")
    ap.add_argument("--speech-seconds", type=float, help="the spoken-word file's length")
    args = ap.parse_args()
    monitor = os.environ.get("CW_PULSE_MONITOR")
    if not monitor or not os.environ.get("PULSE_SERVER"):
        sys.exit("playback_bench.py: PULSE_SERVER and CW_PULSE_MONITOR must name the null sink's server")
    music = os.path.dirname(os.path.abspath(args.mp3))
    work = tempfile.mkdtemp(prefix="cw-playback-bench-")
    service = Service(args.binary, music, work)
    try:
        rounds = []
        for i in range(args.rounds):
            log("round %d of %d: %d s of audio, three players at once" % (i + 1, args.rounds, args.seconds))
            r = cpu_round(service, os.path.basename(args.mp3), os.path.abspath(args.mp3), args.play, args.seconds)
            rounds.append(r)
            print("round %d  CPU s per audio minute: service %.4f  mpg123 %.4f  clickwheel-play %.4f"
                  "   service/mpg123 %.3f  clickwheel-play/mpg123 %.3f"
                  % (i + 1, r["service"], r["mpg123"], r["clickwheel-play"], r["service"] / r["mpg123"],
                     r["clickwheel-play"] / r["mpg123"]), flush=True)
        tot = {k: sum(r[k] for r in rounds) for k in ("service", "mpg123", "clickwheel-play")}
        print("all rounds  service/mpg123 %.3f  clickwheel-play/mpg123 %.3f  (goal: service <= 1.1)"
              % (tot["service"] / tot["mpg123"], tot["clickwheel-play"] / tot["mpg123"]), flush=True)
        if args.speech:
            log("spoken word: %d s at 1.0x and 1.5x side by side" % args.speech_seconds)
            r = speed_round(args.play, os.path.abspath(args.speech), args.speech_seconds)
            print("spoken word  CPU s per audio minute: 1.0x %.4f (%.1f s wall)  1.5x %.4f (%.1f s wall)"
                  "   1.5x/1.0x %.3f  (goal: <= 1.5)"
                  % (r["1.0"], r["wall 1.0"], r["1.5"], r["wall 1.5"], r["1.5"] / r["1.0"]), flush=True)
        for i in range(3):
            ms = play_to_sound(service, os.path.basename(args.tone), monitor)
            print("play -> sound run %d: %s" % (i + 1, "no sound within 5 s" if ms is None else "%.0f ms" % ms),
                  flush=True)
    finally:
        service.stop()


if __name__ == "__main__":
    main()
