#!/usr/bin/env python3
"""Where the service's memory goes under never-reading clients, and whether it comes back.

    python3 contrib/soak/rss_probe.py [--music /tmp/clickwheel-corpus/music] [--load-seconds 240]
                                      [--stallers 3] [--readers 10] [--env MALLOC_ARENA_MAX=2] [--binary B]

Runs `clickwheel run --display none --input none --output null` on the library (indexed once into a
database kept in --work), then: idle; --stallers clients each send `listallinfo` and read nothing while
--readers clients read `listallinfo`, `playlistinfo`, `status` and `list` answers in full, for
--load-seconds; then every client leaves. At each phase it prints the RSS split by where it lives
(from /proc/PID/smaps):
  heap      the main malloc arena ([heap], brk)
  arenas    glibc's per-thread arenas (anonymous mappings starting on a 64 MiB boundary, the size
            glibc reserves for one)
  anon      other anonymous memory: thread stacks, allocations above the mmap threshold
  files     the binary and libraries
then asks glibc to give back what it holds free (`malloc_trim(0)` called through gdb) and prints the
split again: what malloc_trim returns was free memory glibc kept, not memory in use.
"""
import argparse
import os
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soaklib  # noqa: E402
from mpdclient import Conn, Closed, Ack  # noqa: E402

ARENA = 64 << 20


def split(pid):
    out = {"heap": 0, "arenas": 0, "anon": 0, "files": 0}
    narenas = 0
    cur = None
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            parts = line.split()
            if "-" in parts[0] and len(parts) >= 5 and ":" in parts[3]:
                start = int(parts[0].split("-")[0], 16)
                path = parts[5] if len(parts) > 5 else ""
                if path == "[heap]":
                    cur = "heap"
                elif path.startswith("/"):
                    cur = "files"
                elif path == "" and start % ARENA == 0 and parts[1].startswith("rw"):
                    cur = "arenas"
                    narenas += 1
                else:
                    cur = "anon"
            elif parts[0] == "Rss:":
                out[cur] += int(parts[1])
    total = sum(out.values())
    return total, out, narenas


def threads(pid):
    return len(os.listdir("/proc/%d/task" % pid))


def show(tag, pid):
    total, out, n = split(pid)
    line = "%-28s RSS %6.1f MiB = heap %5.1f + arenas %5.1f (%d) + anon %5.1f + files %5.1f; %d threads" % (
        tag, total / 1024, out["heap"] / 1024, out["arenas"] / 1024, n, out["anon"] / 1024, out["files"] / 1024,
        threads(pid))
    print(line, flush=True)
    return total / 1024


def trim(pid):
    subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "call (int) malloc_trim(0)"], capture_output=True,
                   timeout=120)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--music", default="/tmp/clickwheel-corpus/music")
    ap.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "clickwheel-rss-probe"))
    ap.add_argument("--binary", default=os.path.join(soaklib.ROOT, ".build", "release", "clickwheel"))
    ap.add_argument("--load-seconds", type=float, default=240)
    ap.add_argument("--stallers", type=int, default=3)
    ap.add_argument("--readers", type=int, default=10)
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for the service")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    db = os.path.join(a.work, "library-%s.sqlite" % os.path.basename(os.path.dirname(a.music.rstrip("/"))))
    if not os.path.exists(db):
        print("indexing %s" % a.music, file=sys.stderr, flush=True)
        soaklib.run([a.binary, "index", "--music", a.music, "--db", db, "--json"])
    env = dict(kv.split("=", 1) for kv in a.env)
    svc = soaklib.Service(a.binary, a.work, a.music, db, os.path.join(a.work, "socket"),
                          ["--display", "none", "--output", "null"], env)
    svc.start()
    print("service %s %s" % (" ".join(a.env) or "(default malloc)", a.binary), flush=True)
    time.sleep(3)
    show("idle", svc.pid)
    stop = threading.Event()
    stallers = []
    for _ in range(a.stallers):
        c = Conn(svc.socket)
        c.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        c.send("listallinfo\n")
        stallers.append(c)

    def reader(n):
        while not stop.is_set():
            try:
                c = Conn(svc.socket)
                for line in ["listallinfo", "status", "playlistinfo", "list artist", "list album", "stats"] * 3:
                    if stop.is_set():
                        break
                    c.cmd(line)
                c.close()
            except (OSError, Closed, Ack):
                time.sleep(0.2)

    ts = [threading.Thread(target=reader, args=(n,), daemon=True) for n in range(a.readers)]
    for t in ts:
        t.start()
    t0 = time.time()
    peak = 0
    next_show = 30
    while time.time() - t0 < a.load_seconds:
        time.sleep(5)
        el = time.time() - t0
        if el >= next_show:
            peak = max(peak, show("load, %3.0f s" % el, svc.pid))
            next_show += 30
    stop.set()
    for t in ts:
        t.join(30)
    for c in stallers:
        c.close()
    for wait in (10, 30, 60):
        time.sleep(wait - (0 if wait == 10 else (10 if wait == 30 else 30)))
        show("clients gone, %2d s" % wait, svc.pid)
    trim(svc.pid)
    show("after malloc_trim(0)", svc.pid)
    print("status on SIGTERM: %s" % svc.stop(), flush=True)


if __name__ == "__main__":
    main()
