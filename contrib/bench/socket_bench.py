#!/usr/bin/env python3
"""Control socket benchmark: ClickWheel's MPD protocol against MPD 0.23 on the same corpus, same run.

    python3 contrib/bench/socket_bench.py [--corpus /tmp/clickwheel-corpus] [--runs 3] [--pin CPU] [--json OUT]

Both servers hold the same 10,000-track library (made with ../shared/bench/make_corpus.py when it is
missing) and are driven by the same client, `status_load` from ../shared/bench/mpd_anchor.py (an
asyncio client that reads in bulk): one connection with 2,000 sequential `status` requests, then 100
connections sharing 10,000 `status` requests, then `listallinfo` of the whole library five times on
one connection. For each the script reports latency (p50, p99), throughput, the server's CPU time per
request (time on CPU of all its threads, from /proc/PID/task/*/schedstat) and, for `listallinfo`, the
median time and the first call's, and the server's RSS before, at its peak during the calls (sampled
every millisecond) and after (a streamed answer leaves it flat). The two servers take turns going first.
The table gives each server's median over the runs, their ratio, and the median of the per-run ratios
(the two servers of one run are measured back to back: on a shared machine that ratio drifts less).

A third server sets the floor: `nio-floor` (contrib/bench/nio-floor, built on first use) is SwiftNIO
set up as ClickWheel's control server is, answering every line with ClickWheel's own `status` bytes
and doing nothing else. Its CPU per request is what SwiftNIO costs before any ClickWheel code runs;
its columns show how much of the gap to MPD that is (`--no-floor` leaves it out).

The 100-connection figures are bounded by the Python client on this 2-core machine (MPD is idle for
more than half of that run): compare the server CPU per request as well as the latencies.

`--pin CPU` runs the client and every server on that one CPU (set on this process after the builds, so
the servers it starts inherit it). Then each one-connection request wakes the server with a context
switch on the same CPU instead of a wake-up across CPUs, which on this 2-vCPU virtual machine costs
20-130 µs of the server's time and moves by tens of µs from run to run: the CPU per request then shows
the servers' own work, differences of a microsecond included. Latency and throughput then measure one
shared core: take those from a run without it.

ClickWheel runs as `clickwheel run --display none --input none --output null`; MPD with its own
config (Unix socket, null output, max_connections 256) through mpd_anchor.Mpd, its output given a
software mixer so that both servers' `status` answers have the same lines (`volume:` included).
"""
import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def log(msg):
    print("[socket-bench] " + msg, file=sys.stderr, flush=True)


def rss_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid):
    """CPU time of the server's threads, in nanoseconds' precision: the sum of /proc/PID/task/*/schedstat
    (time on CPU). /proc/PID/stat counts in clock ticks (10 ms), a quarter of the whole 2,000-request
    run's CPU time, which made the per-request figures steps of 5 us. A thread that ends during a
    measurement takes its time with it: status runs on threads that live as long as the server (NIO's
    event loops, MPD's main thread), so it is the figure for status; listallinfo is timed, not costed."""
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total / 1e9


def connect(path, timeout=60):
    """Waits for the server's greeting; returns a client of mpd_anchor's kind."""
    import mpd_anchor
    deadline = time.time() + timeout
    while True:
        try:
            return mpd_anchor.Client(path)
        except (FileNotFoundError, ConnectionRefusedError, socket.timeout):
            if time.time() > deadline:
                raise
            time.sleep(0.01)


class ServerProcess:
    """A server this script started (`self.proc`): its pid, and a stop that waits for it."""

    proc = None

    @property
    def pid(self):
        return self.proc.pid

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


class ClickWheel(ServerProcess):
    """The service with its own folder: socket, database (indexed beforehand), null output."""

    def __init__(self, binary, music, work):
        self.binary, self.music, self.work = binary, music, work
        os.makedirs(work, exist_ok=True)
        self.socket = os.path.join(work, "socket")
        self.db = os.path.join(work, "library.sqlite")
        self.proc = None

    def index(self):
        subprocess.run([self.binary, "index", "--music", self.music, "--db", self.db, "--json"], check=True,
                       stdout=subprocess.DEVNULL)

    def start(self):
        env = dict(os.environ, XDG_RUNTIME_DIR=self.work)
        with open(os.path.join(self.work, "stderr.log"), "ab") as err:
            self.proc = subprocess.Popen(
                [self.binary, "run", "--display", "none", "--input", "none", "--output", "null", "--music", self.music,
                 "--db", self.db, "--socket", self.socket], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=err, env=env)
        c = connect(self.socket)
        # The start-up rescan must be over before measuring (it rereads nothing, but it runs).
        import mpd_anchor
        time.sleep(0.5)
        mpd_anchor.wait_update_done(c)
        return c


class NioFloor(ServerProcess):
    """contrib/bench/nio-floor: SwiftNIO answering every line with the bytes in `answer_file`."""

    PACKAGE = os.path.join(HERE, "nio-floor")

    def __init__(self, work, answer_file):
        self.work, self.answer_file = work, answer_file
        os.makedirs(work, exist_ok=True)
        self.socket = os.path.join(work, "socket")
        self.proc = None

    @classmethod
    def build(cls):
        log("building nio-floor (release)")
        subprocess.run(["swift", "build", "-c", "release", "--package-path", cls.PACKAGE], check=True,
                       stdout=subprocess.DEVNULL)
        return os.path.join(cls.PACKAGE, ".build", "release", "nio-floor")

    def start(self, binary):
        self.proc = subprocess.Popen([binary, self.socket, self.answer_file], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL)
        connect(self.socket).close()


LISTALLINFO_CALLS = 5


def same_status_lines(conf):
    """MPD's null output gets a software mixer: without a mixer MPD leaves `volume:` out of `status`, and
    ClickWheel (a volume of its own) does not, so the shared client read one line more of ClickWheel's
    answer than of MPD's; the 100-connection run, which the client bounds, counted that against it."""
    with open(conf) as f:
        text = f.read()
    fixed = text.replace('mixer_type  "none"', 'mixer_type  "software"')
    if fixed == text:
        raise RuntimeError("no mixer_type line to change in %s" % conf)
    with open(conf, "w") as f:
        f.write(fixed)


def measure(server, pid, client, log_prefix):
    """`client` is closed first: ClickWheel, like MPD by default, takes 100 clients, and the 100-connection
    run needs them all; a fresh one asks for listallinfo afterwards."""
    client.close()
    out = measure_status(server.socket, pid)
    client = connect(server.socket)
    out.update(measure_listallinfo(pid, client))
    log("%s status x1: p50 %.3f ms p99 %.3f ms %.0f/s %.1f us CPU/req; x100: p50 %.3f p99 %.3f ms %.0f/s %.1f us CPU/req; "
        "listallinfo %.0f ms (first %.0f) %.1f MiB (RSS %.1f -> peak %.1f -> %.1f MiB)" % (
            log_prefix, out["single"]["p50_ms"], out["single"]["p99_ms"], out["single"]["req_per_s"],
            out["single"]["cpu_us_per_req"], out["hundred"]["p50_ms"], out["hundred"]["p99_ms"],
            out["hundred"]["req_per_s"], out["hundred"]["cpu_us_per_req"], 1000 * out["listallinfo"]["s"],
            1000 * out["listallinfo"]["first_s"], out["listallinfo"]["mib"], out["listallinfo"]["rss_before_mib"],
            out["listallinfo"]["rss_peak_mib"], out["listallinfo"]["rss_after_mib"]))
    return out


def measure_status(socket_path, pid):
    """`status` on one connection (2,000 requests), then on 100 connections sharing 10,000."""
    import mpd_anchor

    def load(connections, total):
        cpu0 = cpu_seconds(pid)
        wall, lat = asyncio.run(mpd_anchor.status_load(socket_path, connections, total))
        cpu = cpu_seconds(pid) - cpu0
        lat.sort()
        return {"req_per_s": len(lat) / wall, "p50_ms": 1000 * lat[len(lat) // 2],
                "p99_ms": 1000 * lat[int(0.99 * (len(lat) - 1))], "cpu_us_per_req": 1e6 * cpu / len(lat)}

    single = load(1, 2000)
    return {"single": single, "hundred": load(100, 10000)}


def measure_listallinfo(pid, client):
    """`listallinfo` LISTALLINFO_CALLS times on `client`, with the server's RSS around and during."""
    before = rss_mib(pid)
    peak = [before]
    done = threading.Event()

    def sample():  # the server's RSS every millisecond while the answer is being made
        while not done.is_set():
            peak[0] = max(peak[0], rss_mib(pid))
            time.sleep(0.001)

    sampler = threading.Thread(target=sample)
    sampler.start()
    times = []
    for _ in range(LISTALLINFO_CALLS):
        t0 = time.perf_counter()
        body = client.raw("listallinfo")
        times.append(time.perf_counter() - t0)
    done.set()
    sampler.join()
    client.close()
    return {"listallinfo": {"s": statistics.median(times), "first_s": times[0], "mib": len(body) / 2 ** 20,
                            "rss_before_mib": before, "rss_peak_mib": max(peak[0], rss_mib(pid)),
                            "rss_after_mib": rss_mib(pid), "songs": body.count(b"\nfile: ") + body.startswith(b"file: ")}}


def server_arguments(ap):
    """The options every ClickWheel-against-MPD benchmark takes (this one and browse_bench.py)."""
    ap.add_argument("--corpus", default="/tmp/clickwheel-corpus")
    ap.add_argument("--shared", default=os.environ.get("CLICKWHEEL_SHARED", os.path.join(ROOT, "..", "shared")))
    ap.add_argument("--mpd", default=shutil.which("mpd") or "/usr/bin/mpd")
    ap.add_argument("--binary", help="a clickwheel binary (default: build the release one)")


def prepare(a):
    """Puts shared/bench on the path, makes the corpus when it is missing and builds the release binary
    unless one was given; returns (music folder, clickwheel binary)."""
    sys.path.insert(0, os.path.join(a.shared, "bench"))
    if not os.path.exists(os.path.join(a.corpus, "manifest.json")):
        log("making the corpus in %s" % a.corpus)
        subprocess.run([sys.executable, os.path.join(a.shared, "bench", "make_corpus.py"), "--out", a.corpus],
                       check=True)
    binary = a.binary
    if not binary:
        log("building clickwheel (release)")
        subprocess.run(["swift", "build", "-c", "release", "--product", "clickwheel"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        binary = os.path.join(ROOT, ".build", "release", "clickwheel")
    return os.path.join(a.corpus, "music"), binary


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    server_arguments(ap)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", help="write every figure here")
    ap.add_argument("--no-floor", action="store_true", help="leave out the SwiftNIO floor (nio-floor)")
    ap.add_argument("--pin", type=int, metavar="CPU", help="the client and every server on this one CPU")
    a = ap.parse_args()
    music, binary = prepare(a)
    floor_binary = None if a.no_floor else NioFloor.build()
    if a.pin is not None:
        os.sched_setaffinity(0, {a.pin})
        log("client and servers on CPU %d" % a.pin)
    import mpd_anchor  # noqa: E402  (MPD driver and the status client, from shared/)

    work = tempfile.mkdtemp(prefix="cw-socket-bench-")
    cw = ClickWheel(binary, music, os.path.join(work, "clickwheel"))
    mpd = mpd_anchor.Mpd(a.mpd, music, os.path.join(work, "mpd"))
    same_status_lines(mpd.conf)
    log("indexing for both servers")
    cw.index()
    _, _, c = mpd.start()
    c.raw("update")
    mpd_anchor.wait_update_done(c)
    c.close()
    mpd.stop()
    floor = None
    if floor_binary:
        # The floor answers with ClickWheel's own status bytes, so both write the same to the socket.
        c = cw.start()
        answer = c.raw("status") + b"\nOK\n"
        c.close()
        cw.stop()
        with open(os.path.join(work, "status-answer"), "wb") as f:
            f.write(answer)
        floor = NioFloor(os.path.join(work, "nio-floor"), os.path.join(work, "status-answer"))

    res = {"clickwheel": [], "mpd": [], "nio-floor": [], "runs": a.runs, "pinned_cpu": a.pin}
    try:
        for r in range(a.runs):
            order = ["mpd", "clickwheel"] if r % 2 == 0 else ["clickwheel", "mpd"]
            for who in order + (["nio-floor"] if floor else []):
                if who == "nio-floor":
                    floor.start(floor_binary)
                    row = measure_status(floor.socket, floor.pid)
                    floor.stop()
                    log("run %d nio-floor  status x1: %.1f us CPU/req; x100: %.1f us CPU/req" % (
                        r + 1, row["single"]["cpu_us_per_req"], row["hundred"]["cpu_us_per_req"]))
                elif who == "mpd":
                    _, _, c = mpd.start()
                    row = measure(mpd, mpd.pid, c, "run %d mpd       " % (r + 1))
                    mpd.stop()
                else:
                    c = cw.start()
                    row = measure(cw, cw.pid, c, "run %d clickwheel" % (r + 1))
                    cw.stop()
                row["load1"] = mpd_anchor.loadavg()
                res[who].append(row)
    finally:
        mpd.stop()
        cw.stop()
        if floor:
            floor.stop()

    def med(who, part, key):
        return statistics.median(row[part][key] for row in res[who])

    def same_run(part, key, who="clickwheel"):
        """The median of each run's clickwheel/MPD ratio: the two servers of a run are measured minutes
        apart at most, while a shared machine's speed drifts between runs (MPD's status CPU per request
        went from 9 to 20 us within a quarter of an hour), which the ratio of the medians mixes in."""
        return statistics.median(c[part][key] / m[part][key] if m[part][key] else float("nan")
                                 for c, m in zip(res[who], res["mpd"]))

    lines = ["| control socket (median of %d) | clickwheel | MPD 0.23 | ratio | same-run ratio |" % a.runs,
             "| --- | --- | --- | --- | --- |"]
    for part, key, label, unit in [
        ("single", "p50_ms", "status, 1 connection, p50", "ms"), ("single", "p99_ms", "status, 1 connection, p99", "ms"),
        ("single", "cpu_us_per_req", "status, 1 connection, server CPU per request", "µs"),
        ("hundred", "p50_ms", "status, 100 connections, p50", "ms"), ("hundred", "p99_ms", "status, 100 connections, p99", "ms"),
        ("hundred", "req_per_s", "status, 100 connections, throughput", "/s"),
        ("hundred", "cpu_us_per_req", "status, 100 connections, server CPU per request", "µs"),
        ("listallinfo", "s", "listallinfo (10k songs), one connection, median of %d calls" % LISTALLINFO_CALLS, "s"),
        ("listallinfo", "first_s", "listallinfo (10k songs), the connection's first call", "s"),
        ("listallinfo", "rss_before_mib", "server RSS before listallinfo", "MiB"),
        ("listallinfo", "rss_peak_mib", "server peak RSS during listallinfo", "MiB"),
        ("listallinfo", "rss_after_mib", "server RSS after listallinfo", "MiB"),
    ]:
        x, y = med("clickwheel", part, key), med("mpd", part, key)
        lines.append("| %s | %.3g %s | %.3g %s | %.2f | %.2f |" % (label, x, unit, y, unit, x / y if y else float("nan"),
                                                              same_run(part, key)))
    if res["nio-floor"]:
        lines += ["", "| SwiftNIO floor (nio-floor: ClickWheel's status bytes, nothing else) | nio-floor | MPD 0.23 | "
                      "same-run ratio | clickwheel over the floor |", "| --- | --- | --- | --- | --- |"]
        for part, label in [("single", "status, 1 connection, server CPU per request"),
                            ("hundred", "status, 100 connections, server CPU per request")]:
            x, y = med("nio-floor", part, "cpu_us_per_req"), med("mpd", part, "cpu_us_per_req")
            lines.append("| %s | %.3g µs | %.3g µs | %.2f | %.3g µs |" % (
                label, x, y, same_run(part, "cpu_us_per_req", "nio-floor"), med("clickwheel", part, "cpu_us_per_req") - x))
    table = "\n".join(lines)
    print(table)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
