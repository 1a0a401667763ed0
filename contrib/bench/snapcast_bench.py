#!/usr/bin/env python3
"""Snapcast benchmark: CPU per minute of audio of the ClickWheel service with `pulse` + `snapcast` outputs on,
against the same service with `pulse` alone and against MPD 0.23 with a `pulse` and a `fifo` output feeding
the same snapserver; all three playing the same VBR MP3 at the same time.

    contrib/bench/snapcast_bench.sh [SECONDS=120] [ROUNDS=3]     (the wrapper makes the file and the servers)
    python3 contrib/bench/snapcast_bench.py --mp3 FILE --seconds 120 --rounds 3 --binary clickwheel \\
        --snap-source tcp://127.0.0.1:PORT --snap-fifo /path/snapfifo --snap-control 127.0.0.1:PORT

Each round starts the three players together on one PulseAudio null sink (this machine is shared: side by
side they meet the same load, which one after the other they would not) and waits until each has played
the file to its end:
  - `pulse`: `clickwheel run --output pulse`;
  - `pulse+snapcast`: `clickwheel run --output pulse,snapcast --snapcast tcp://…` (snapserver's `tcp://`
    source in server mode, 44100:16:2);
  - `mpd`: MPD 0.23 with a `pulse` output and a `fifo` output (format 44100:16:2) into snapserver's
    `pipe://` source: what MPD users set up for Snapcast.
CPU is the time on CPU of all a process's threads (/proc/PID/task/*/schedstat) from the `play` command to
the end of the file, per minute of audio. While the round plays, snapserver's own status (JSON-RPC
`Server.GetStatus`) must show both the ClickWheel and the MPD stream `playing`: the figures are of PCM that
reached the server. Ratios are of the same round; the summary gives each ratio's median over the rounds.
"""
import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from playback_bench import Client, Service, cpu_ns, wait_indexed, wait_until_stopped


def log(msg):
    print("[snapcast-bench] " + msg, file=sys.stderr, flush=True)


def clickwheel(binary, music, work, outputs, snapcast=None, control=None):
    """The service with the given outputs; `control`: snapserver's JSON-RPC port, for Speakers (the default,
    1705 on the source's host, is another server's here: the client would only retry)."""
    os.makedirs(work, exist_ok=True)
    extra = ["--snapcast", snapcast] if snapcast else []
    if control:
        extra += ["--snapcast-control", control]
    return Service(binary, music, work, ["--output", outputs] + extra)


class MPD:
    """MPD 0.23 with a pulse output and a fifo output into snapserver's pipe source."""

    def __init__(self, music, work, fifo):
        os.makedirs(work, exist_ok=True)
        self.socket = os.path.join(work, "socket")
        conf = os.path.join(work, "mpd.conf")
        with open(conf, "w") as f:
            f.write('music_directory "%s"\n' % music)
            f.write('db_file "%s/db"\nlog_file "%s/log"\n' % (work, work))
            f.write('bind_to_address "%s"\nzeroconf_enabled "no"\n' % self.socket)
            f.write('audio_output {\n  type "pulse"\n  name "This Pi"\n}\n')
            f.write('audio_output {\n  type "fifo"\n  name "Snapcast"\n  path "%s"\n  format "44100:16:2"\n}\n' % fifo)
        self.proc = subprocess.Popen(["mpd", "--no-daemon", conf], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "stderr"), "w"))
        wait_indexed(self.proc, self.socket, "mpd", work, update=True)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(30)


def stream_states(control):
    """snapserver's streams and their status (`Server.GetStatus` over JSON-RPC, TCP)."""
    host, port = control.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=5) as s:
        s.sendall(b'{"id":1,"jsonrpc":"2.0","method":"Server.GetStatus"}\r\n')
        buf = b""
        while b"\n" not in buf:
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
    reply = json.loads(buf.split(b"\n", 1)[0])
    return {st["id"]: st["status"] for st in reply["result"]["server"]["streams"]}


def thread_ns(pid):
    """Time on CPU of each live thread of the process: {tid: (name, ns)} (schedstat, as `cpu_ns`)."""
    out = {}
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/comm" % (pid, task)) as f:
                name = f.read().strip()
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as f:
                out[task] = (name, int(f.read().split()[0]))
        except (FileNotFoundError, ProcessLookupError):
            pass
    return out


def by_thread(before, after, minutes):
    """CPU s per audio minute of each thread name between two `thread_ns` readings, largest first."""
    names = {}
    for tid, (name, ns) in after.items():
        names[name] = names.get(name, 0) + ns - before.get(tid, (name, 0))[1]
    return sorted(((n, v / 1e9 / minutes) for n, v in names.items() if v > 0), key=lambda x: -x[1])


def play_round(players, mp3_name, seconds, control, threads_of=()):
    """Starts every player at once; CPU s per audio minute of each, and what snapserver saw."""
    clients = {}
    for name, p in players.items():
        c = Client(p.socket)
        c("stop")
        c("clear")
        c('add "%s"' % mp3_name)
        clients[name] = c
    cpu0 = {name: cpu_ns(p.proc.pid) for name, p in players.items()}
    tasks0 = {name: thread_ns(players[name].proc.pid) for name in threads_of}
    for c in clients.values():
        c("play")
    results = {}

    tasks = {}

    def waiter(name):
        wait_until_stopped(clients[name])
        results[name] = (cpu_ns(players[name].proc.pid) - cpu0[name]) / 1e9
        if name in tasks0:
            tasks[name] = by_thread(tasks0[name], thread_ns(players[name].proc.pid), seconds / 60)

    threads = [threading.Thread(target=waiter, args=(n,)) for n in players]
    for t in threads:
        t.start()
    time.sleep(min(10, seconds / 4))
    seen = stream_states(control)
    for t in threads:
        t.join()
    for c in clients.values():
        c.close()
    minutes = seconds / 60
    for name, rows in tasks.items():
        print("  %s by thread (CPU s per audio minute): %s" % (name, "  ".join("%s %.4f" % r for r in rows[:8])),
              flush=True)
    return {n: v / minutes for n, v in results.items()}, seen


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mp3", required=True, help="the VBR file (its folder becomes the music folder)")
    ap.add_argument("--seconds", type=float, required=True, help="the file's length")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--binary", required=True, help="the clickwheel binary")
    ap.add_argument("--snap-source", required=True, help="snapserver's tcp source for ClickWheel")
    ap.add_argument("--snap-fifo", required=True, help="snapserver's pipe source FIFO for MPD")
    ap.add_argument("--snap-control", required=True, help="snapserver's JSON-RPC HOST:PORT")
    ap.add_argument("--threads", action="store_true",
                    help="also print each ClickWheel player's CPU by thread name (threads that end mid-round are missed)")
    args = ap.parse_args()
    if not os.environ.get("PULSE_SERVER"):
        sys.exit("snapcast_bench.py: PULSE_SERVER must name the null sink's server")
    music = os.path.dirname(os.path.abspath(args.mp3))
    work = tempfile.mkdtemp(prefix="cw-snapcast-bench-")
    players = {}
    try:
        players["pulse"] = clickwheel(args.binary, music, os.path.join(work, "pulse"), "pulse")
        players["pulse+snapcast"] = clickwheel(args.binary, music, os.path.join(work, "both"), "pulse,snapcast",
                                               args.snap_source, args.snap_control)
        players["mpd"] = MPD(music, os.path.join(work, "mpd"), args.snap_fifo)
        rounds = []
        for i in range(args.rounds):
            log("round %d of %d: %d s of audio, three players at once" % (i + 1, args.rounds, args.seconds))
            r, seen = play_round(players, os.path.basename(args.mp3), args.seconds, args.snap_control,
                                 ("pulse", "pulse+snapcast") if args.threads else ())
            if set(seen.values()) != {"playing"}:
                raise RuntimeError("snapserver's streams were not all playing mid-round: %s" % seen)
            rounds.append(r)
            print("round %d  CPU s per audio minute: pulse %.4f  pulse+snapcast %.4f  mpd(pulse+fifo) %.4f"
                  "   pulse+snapcast/pulse %.3f  pulse+snapcast/mpd %.3f   snapserver streams %s"
                  % (i + 1, r["pulse"], r["pulse+snapcast"], r["mpd"], r["pulse+snapcast"] / r["pulse"],
                     r["pulse+snapcast"] / r["mpd"], seen), flush=True)
        med = {k: statistics.median(r[k] for r in rounds) for k in ("pulse", "pulse+snapcast", "mpd")}
        both_pulse = statistics.median(r["pulse+snapcast"] / r["pulse"] for r in rounds)
        both_mpd = statistics.median(r["pulse+snapcast"] / r["mpd"] for r in rounds)
        print("median of %d rounds  CPU s per audio minute: pulse %.4f  pulse+snapcast %.4f  mpd(pulse+fifo) %.4f"
              "   pulse+snapcast/pulse %.3f (goal <= 1.3)  pulse+snapcast/mpd %.3f"
              % (len(rounds), med["pulse"], med["pulse+snapcast"], med["mpd"], both_pulse, both_mpd), flush=True)
    finally:
        for p in players.values():
            p.stop()


if __name__ == "__main__":
    main()
