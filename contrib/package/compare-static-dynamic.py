#!/usr/bin/env python3
"""Start -> socket greeting and idle RSS of the package's static binary against a dynamic build.

    python3 contrib/package/compare-static-dynamic.py STATIC_BINARY DYNAMIC_BINARY --music DIR [--runs 6]

Each run launches `clickwheel run --output null --display none --input none` on the same library
(indexed once before, each binary on its own copy of the database), connects to its socket every
millisecond until it reads `OK MPD` (the start time), waits 5 s idle and reads VmRSS from
/proc/PID/status, then stops it. The two binaries alternate which goes first, so drift of the
machine falls on both. Prints each one's median, min and max. (contrib/bench/start_ab.py times the
greeting alone.)
"""
import argparse
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time


def one_run(binary, db, music, sock, idle):
    if os.path.exists(sock):
        os.unlink(sock)
    t0 = time.monotonic()
    p = subprocess.Popen([binary, "run", "--display", "none", "--input", "none", "--output", "null",
                          "--music", music, "--db", db, "--socket", sock],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        if p.poll() is not None:
            raise SystemExit(f"{binary} exited with {p.returncode} before greeting")
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(sock)
            if s.recv(100).startswith(b"OK MPD"):
                s.close()
                break
        except OSError:
            time.sleep(0.001)
    took = time.monotonic() - t0
    time.sleep(idle)
    rss_kb = 0
    with open(f"/proc/{p.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss_kb = int(line.split()[1])
    p.terminate()
    p.wait()
    time.sleep(0.5)
    return took, rss_kb


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("static")
    ap.add_argument("dynamic")
    ap.add_argument("--music", required=True, help="a small tagged music folder")
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--idle", type=float, default=5.0, help="seconds idle before reading VmRSS")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="cw-static-dyn-")
    env = dict(os.environ, XDG_DATA_HOME=tmp, XDG_RUNTIME_DIR=tmp)
    os.environ.update(env)
    dbs = {}
    for name in ("static", "dynamic"):
        dbs[name] = os.path.join(tmp, f"{name}.sqlite")
        subprocess.run([getattr(a, name), "index", "--music", a.music, "--db", dbs[name]], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sock = os.path.join(tmp, "socket")
    res = {"static": [], "dynamic": []}
    for run in range(a.runs):
        for name in (["static", "dynamic"] if run % 2 == 0 else ["dynamic", "static"]):
            res[name].append(one_run(getattr(a, name), dbs[name], a.music, sock, a.idle))
    for name, r in res.items():
        t = [x[0] * 1000 for x in r]
        m = [x[1] / 1024 for x in r]
        print(f"{name:8} start→greeting median {statistics.median(t):6.1f} ms (min {min(t):.1f}, max {max(t):.1f}); "
              f"VmRSS after {a.idle:g} s idle median {statistics.median(m):5.1f} MiB (min {min(m):.1f}, max {max(m):.1f})")
    ts, td = (statistics.median([x[0] for x in res[n]]) for n in ("static", "dynamic"))
    rs, rd = (statistics.median([x[1] for x in res[n]]) for n in ("static", "dynamic"))
    print(f"static/dynamic: start {ts / td * 100:.0f} %, RSS {rs / rd * 100:.0f} %")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
