#!/usr/bin/env python3
"""What a slow display costs the engine: `wheel ±1` then `setvol N` rounds, timing the `setvol`.

    python3 contrib/bench/display_stall.py [--binary .build/release/clickwheel] [--rounds 300]
                                           [--freeze 10] [--json OUT]

The service plays nothing (null output) on the demo library with `--input none`. Phases, same run:

  none        --display none: the floor (the engine and the socket alone)
  lcdproc     --display lcdproc against a private LCDd (text driver, contrib/ci/lcdd-start.sh)
  frozen      the same service while LCDd is stopped (SIGSTOP) for --freeze seconds: rounds go on
              the whole time; then LCDd is resumed and the time until its screen shows the
              service's latest frame is measured (the catch-up)

Each phase prints median, p99 and max of the `setvol` round trip in ms and the p99 ratio to `none`.
Issue 35's goal: lcdproc and frozen p99 <= 5 ms, catch-up <= 1 s.
"""
import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def log(msg):
    print("[display-stall] " + msg, file=sys.stderr, flush=True)


class Client:
    def __init__(self, path, deadline=30):
        end = time.time() + deadline
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.connect(path)
                break
            except OSError:
                if time.time() > end:
                    raise
                time.sleep(0.05)
        self.f = self.s.makefile("rb")
        self.f.readline()

    def cmd(self, line):
        self.s.sendall(line.encode() + b"\n")
        out = []
        while True:
            l = self.f.readline()
            if not l:
                raise ConnectionError("closed")
            out.append(l)
            if l == b"OK\n" or l.startswith(b"ACK"):
                return b"".join(out)


def rounds(client, n=None, seconds=None):
    times = []
    i = 0
    end = time.time() + seconds if seconds else None
    while (n is not None and i < n) or (end is not None and time.time() < end):
        client.cmd("wheel %d" % (1 if i % 2 == 0 else -1))
        t = time.perf_counter()
        client.cmd("setvol %d" % (40 + i % 50))
        times.append((time.perf_counter() - t) * 1000)
        i += 1
    return times


def summary(times):
    s = sorted(times)
    return {
        "rounds": len(s),
        "median_ms": round(statistics.median(s), 3),
        "p99_ms": round(s[min(len(s) - 1, int(len(s) * 0.99))], 3),
        "max_ms": round(s[-1], 3),
    }


def start_service(binary, work, display, lcdd):
    args = [binary, "run", "--demo", "--input", "none", "--output", "null", "--display", display,
            "--db", os.path.join(work, "lib.sqlite"), "--socket", os.path.join(work, "socket")]
    if display == "lcdproc":
        args += ["--lcdproc", "%s:%s" % (lcdd["CW_LCDD_HOST"], lcdd["CW_LCDD_PORT"])]
    env = dict(os.environ, HOME=work, XDG_DATA_HOME=os.path.join(work, "data"))
    return subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=open(os.path.join(work, "service-%s.log" % display), "w"))


def latest_frame(lcdd):
    r = subprocess.run(["bash", os.path.join(ROOT, "contrib/ci/lcdd-frame.sh")], env=dict(os.environ, **lcdd),
                       capture_output=True, text=True, errors="replace")
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build/release/clickwheel"))
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--freeze", type=float, default=10)
    ap.add_argument("--json")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="cw-display-stall-")
    lcdd_env = dict(os.environ, CW_LCDD_DIR=os.path.join(work, "lcdd"), CW_LCDD_PORT="auto", CW_LCDD_SIZE="20x4")
    out = subprocess.run(["bash", os.path.join(ROOT, "contrib/ci/lcdd-start.sh")], env=lcdd_env,
                         capture_output=True, text=True, check=True).stdout
    lcdd = {}
    for line in out.splitlines():
        k, _, v = line.replace("export ", "").partition("=")
        lcdd[k] = v.strip("'\"")
    pid = int(open(os.path.join(lcdd["CW_LCDD_DIR"], "lcdd.pid")).read())
    results = {}
    try:
        for display in ["none", "lcdproc"]:
            svc = start_service(a.binary, work, display, lcdd)
            try:
                c = Client(os.path.join(work, "socket"))
                rounds(c, n=20)  # warm-up
                results[display] = summary(rounds(c, n=a.rounds))
                if display == "lcdproc":
                    os.kill(pid, signal.SIGSTOP)
                    try:
                        frozen = rounds(c, seconds=a.freeze)
                    finally:
                        # The rounds alternate +1/-1 from Music: the latest frame has Podcasts selected.
                        if len(frozen) % 2 == 0:
                            c.cmd("wheel 1")
                        resumed = time.perf_counter()
                        os.kill(pid, signal.SIGCONT)
                    caught = None
                    while time.perf_counter() - resumed < 10:
                        if ">Podcasts" in latest_frame(lcdd):
                            caught = (time.perf_counter() - resumed) * 1000
                            break
                        time.sleep(0.02)
                    results["frozen"] = summary(frozen)
                    results["frozen"]["catch_up_ms"] = round(caught, 1) if caught is not None else None
            finally:
                svc.send_signal(signal.SIGTERM)
                svc.wait(timeout=30)
    finally:
        os.kill(pid, signal.SIGCONT)
        subprocess.run(["bash", os.path.join(ROOT, "contrib/ci/lcdd-stop.sh")], env=dict(lcdd_env, **lcdd))
    floor = results["none"]["p99_ms"]
    for phase, r in results.items():
        extra = "  catch-up %s ms" % r["catch_up_ms"] if "catch_up_ms" in r else ""
        print("%-8s rounds %5d  median %7.3f ms  p99 %8.3f ms  max %8.3f ms  p99/none %6.2fx%s" % (
            phase, r["rounds"], r["median_ms"], r["p99_ms"], r["max_ms"], r["p99_ms"] / floor, extra))
    if a.json:
        json.dump(results, open(a.json, "w"), indent=2)


if __name__ == "__main__":
    sys.exit(main())
