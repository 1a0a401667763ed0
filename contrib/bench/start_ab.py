#!/usr/bin/env python3
"""Start -> socket greeting of two clickwheel binaries taking turns, on one indexed library.

    python3 contrib/bench/start_ab.py OLD_BINARY NEW_BINARY --db FILE --music DIR [--runs 12]

Each run launches `clickwheel run --display none --input none --output null`, connects to its socket
every millisecond until it reads `OK MPD`, lets the start-up rescan settle for 2 s and stops it; the
two binaries alternate which goes first. Prints each one's median and every time. For telling a
change's effect from the machine's drift, which moves startup_bench.py's figures between runs.
"""
import argparse
import os
import socket
import statistics
import subprocess
import tempfile
import time


def greeting(binary, db, music, sock):
    if os.path.exists(sock):
        os.unlink(sock)
    t0 = time.time()
    p = subprocess.Popen([binary, "run", "--display", "none", "--input", "none", "--output", "null",
                          "--music", music, "--db", db, "--socket", sock],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(sock)
            if s.recv(100).startswith(b"OK MPD"):
                break
        except OSError:
            time.sleep(0.001)
    took = time.time() - t0
    time.sleep(2)
    p.terminate()
    p.wait()
    time.sleep(0.5)
    return took


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--db", required=True, help="an indexed library (clickwheel index --music DIR --db FILE)")
    ap.add_argument("--music", required=True)
    ap.add_argument("--runs", type=int, default=12)
    a = ap.parse_args()
    sock = os.path.join(tempfile.mkdtemp(prefix="cw-start-ab-"), "socket")
    times = {"old": [], "new": []}
    for run in range(a.runs):
        for name in (["old", "new"] if run % 2 == 0 else ["new", "old"]):
            times[name].append(greeting(getattr(a, name), a.db, a.music, sock))
    for name, t in times.items():
        print(f"{name}: median {statistics.median(t):.3f} s  ({' '.join(f'{x:.3f}' for x in t)})")


if __name__ == "__main__":
    main()
