#!/usr/bin/env python3
"""Decode and play CPU per audio minute, per format (issue 32): the service against MPD 0.23, same run, null outputs.

    python3 contrib/bench/decode_bench.py [--corpus /tmp/clickwheel-mixed] [--seconds 60] [--binary PATH]
                                          [--formats mp3,aac,...] [--rounds 1] [--before PATH] [--json OUT]

For each format of the mixed corpus (make_mixed_corpus.py; 24-bit/96 kHz FLAC apart from 16/44.1 FLAC)
a few tracks are picked (distinct clips, the longest first, until --seconds of audio or --per-format
tracks; the queue is repeated when they are shorter)
and hard-linked into a small music folder that both servers index at start:

  - clickwheel run --output null --display none --input none --music DIR --db FILE --socket SOCK
    (the release binary, unless --binary), and
  - MPD 0.23 with its own config (mpd_anchor.py from ../shared/bench, or --shared DIR): a `null` output
    (sync on: real time, as ClickWheel's null output), Unix socket, no mixer.

  - with --before PATH, a second clickwheel (another build, e.g. main's) set up the same way, played side
    by side with the other two: a before/after pair measured under one load.

Each format: every queue is cleared and given the same files (`add`), then `play` is sent to all at the
same moment (side by side: the same machine load for all) and each is waited for with `idle player`
until it stops. CPU is each thread's time on CPU from /proc/PID/task/TID/schedstat (nanoseconds, not
the 10 ms clock ticks of /proc/PID/stat: one tick is several percent of a minute's figure), summed over
the process's threads from `play` to the stop; a sampler thread reads every thread every 0.2 s, so a
thread that ends during the play counts up to its last sample (and one that starts, from 0). Per minute
of the queue's true audio length (the manifest's). The tick figure (utime + stime of /proc/PID/stat)
is kept beside it as a check. The servers are otherwise idle: nothing else is asked of them while they
play. With --rounds N every format is played N times (all formats once, then again) and the medians are
printed, each server's and the median of the rounds' own ratios; --threads prints each server's CPU by
thread name as well (where the time goes). Also printed: the wall time of each
play (it must be the audio's length: the outputs run in real time), the load average, and each server's
CPU over --idle seconds idle before the first format (the floor under every figure, ms per minute).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLK_TCK = os.sysconf("SC_CLK_TCK")
ORDER = ["mp3", "aac", "alac", "flac", "flac24", "vorbis", "opus", "wav", "aiff"]


def log(msg):
    print("[decode-bench] " + msg, file=sys.stderr, flush=True)


def cpu_ticks(pid):
    """utime + stime of the whole process (its threads, those already ended included), seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def thread_times(pid):
    """{tid: ns on CPU} of the live threads (schedstat)."""
    out = {}
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return out
    for task in tasks:
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as f:
                out[int(task)] = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return out


class CpuSampler:
    """Each thread's schedstat time, read every `interval` s, the last value kept for threads that ended:
    `total(pid)` is the process's CPU in ns, a thread that ended counted up to its last sample."""

    def __init__(self, pids, interval=0.2):
        self.pids, self.interval = pids, interval
        self.seen = {pid: {} for pid in pids}
        self.names = {}
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def sample(self, pid):
        now = thread_times(pid)
        with self.lock:
            seen = self.seen[pid]
            for tid, ns in now.items():
                if tid not in seen:
                    try:
                        with open("/proc/%d/task/%d/comm" % (pid, tid)) as f:
                            self.names[tid] = f.read().strip()
                    except OSError:
                        self.names[tid] = "?"
                seen[tid] = max(ns, seen.get(tid, 0))

    def snapshot(self, pid):
        """{tid: ns} of every thread seen so far (sampled now)."""
        self.sample(pid)
        with self.lock:
            return dict(self.seen[pid])

    def by_name(self, pid, before, after):
        """ns on CPU per thread name between two snapshots."""
        out = {}
        for tid, ns in after.items():
            name = self.names.get(tid, "?")
            out[name] = out.get(name, 0) + ns - before.get(tid, 0)
        return out

    def _run(self):
        while not self.stop.wait(self.interval):
            for pid in self.pids:
                self.sample(pid)

    def total(self, pid):
        """ns on CPU of every thread seen so far (sampled now)."""
        self.sample(pid)
        with self.lock:
            return sum(self.seen[pid].values())

    def close(self):
        self.stop.set()
        self.thread.join()


def group_of(t):
    if t["format"] == "flac" and (t["bits"] > 16 or t["sample_rate"] > 48000):
        return "flac24"
    return t["format"]


def pick_tracks(manifest, seconds, per_format):
    """group -> [(track, repeats)]: up to per_format tracks of distinct clips, longest first, the queue
    repeated until it holds at least `seconds` of audio."""
    groups = {}
    for t in sorted(manifest["tracks"], key=lambda t: t["path"]):
        groups.setdefault(group_of(t), []).append(t)
    out = {}
    for g, ts in groups.items():
        chosen, clips, total = [], set(), 0.0
        for t in sorted(ts, key=lambda t: (-t["samples"] / t["sample_rate"], t["path"])):
            if t["clip"] not in clips:
                chosen.append(t)
                clips.add(t["clip"])
                total += t["samples"] / t["sample_rate"]
            if len(chosen) >= per_format or total >= seconds:
                break
        one = sum(t["samples"] / t["sample_rate"] for t in chosen)
        # the shortest first, as a queue: then as many whole passes as --seconds needs
        chosen.sort(key=lambda t: t["samples"] / t["sample_rate"])
        out[g] = (chosen, max(1, int(-(-seconds // one))))
    return out


class Server:
    def __init__(self, name, pid, socket_path, connect):
        self.name, self.pid, self.socket = name, pid, socket_path
        self.c = connect(socket_path)

    def play_queue(self, files, repeats):
        self.c.raw("stop")
        self.c.raw("clear")
        for _ in range(repeats):
            for f in files:
                self.c.raw('add "%s"' % f.replace("\\", "\\\\").replace('"', '\\"'))


def wait_stopped(server, t0, sampler, out):
    c = server.c
    while c.status().get("state") == "play":
        c.raw("idle player")
    out[server.name] = (time.perf_counter() - t0, cpu_ticks(server.pid), sampler.snapshot(server.pid))


def connect_when_up(mpd_anchor, path, proc, timeout=120):
    deadline = time.time() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError("the server exited with %d" % proc.returncode)
        try:
            return mpd_anchor.Client(path)
        except (FileNotFoundError, ConnectionRefusedError):
            if time.time() > deadline:
                raise
            time.sleep(0.05)


def wait_songs(c, want, timeout=300):
    deadline = time.time() + timeout
    while True:
        st = c.status()
        songs = int(dict(c.pairs("stats")).get("songs", "0"))
        if "updating_db" not in st and songs >= want:
            return songs
        if time.time() > deadline:
            raise TimeoutError("only %d of %d songs indexed" % (songs, want))
        time.sleep(0.1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="/tmp/clickwheel-mixed")
    ap.add_argument("--seconds", type=float, default=60, help="audio per format (the queue is repeated up to it)")
    ap.add_argument("--per-format", type=int, default=3, help="distinct tracks per format")
    ap.add_argument("--formats", help="comma-separated subset of " + ",".join(ORDER))
    ap.add_argument("--binary", help="use this clickwheel binary instead of building the release one")
    ap.add_argument("--shared", default=os.environ.get("CLICKWHEEL_SHARED", os.path.join(ROOT, "..", "shared")))
    ap.add_argument("--mpd", default=shutil.which("mpd") or "/usr/bin/mpd")
    ap.add_argument("--idle", type=float, default=5, help="seconds of idle CPU measured first")
    ap.add_argument("--rounds", type=int, default=1, help="plays of each format (medians printed)")
    ap.add_argument("--before", help="a second clickwheel binary played side by side (a before/after pair)")
    ap.add_argument("--threads", action="store_true", help="print each server's CPU by thread name too")
    ap.add_argument("--json")
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.shared, "bench"))
    try:
        import mpd_anchor                      # noqa: E402
    except ImportError:
        sys.exit("decode_bench.py needs mpd_anchor.py: pass --shared DIR (the folder holding bench/mpd_anchor.py)")
    manifest_path = os.path.join(a.corpus, "manifest.json")
    if not os.path.exists(manifest_path):
        log("making the mixed corpus in %s" % a.corpus)
        subprocess.run([sys.executable, os.path.join(HERE, "make_mixed_corpus.py"), "--out", a.corpus], check=True)
    manifest = json.load(open(manifest_path, encoding="utf-8"))
    if a.binary:
        binary = os.path.abspath(a.binary)
    else:
        log("building clickwheel (release)")
        subprocess.run(["swift", "build", "-c", "release", "--product", "clickwheel"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        binary = os.path.join(ROOT, ".build", "release", "clickwheel")

    picks = pick_tracks(manifest, a.seconds, a.per_format)
    groups = [g for g in ORDER if g in picks] + sorted(set(picks) - set(ORDER))
    if a.formats:
        groups = [g for g in groups if g in a.formats.split(",")]
    work = tempfile.mkdtemp(prefix="cw-decode-bench-")
    music = os.path.join(work, "music")
    files = {}
    for g in groups:
        chosen, _ = picks[g]
        files[g] = []
        os.makedirs(os.path.join(music, g))
        for i, t in enumerate(chosen):
            rel = "%s/%02d-%s.%s" % (g, i + 1, t["clip"], t["ext"])
            src = os.path.join(a.corpus, "music", t["path"])
            try:
                os.link(src, os.path.join(music, rel))
            except OSError:
                shutil.copyfile(src, os.path.join(music, rel))
            files[g].append(rel)
    n_files = sum(len(v) for v in files.values())
    res = {"date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "binary": binary, "seconds": a.seconds,
           "before": os.path.abspath(a.before) if a.before else None, "rounds": a.rounds,
           "loadavg_start": os.getloadavg(), "formats": {}}
    procs = []
    names = ["clickwheel"] + (["before"] if a.before else [])
    mpd = mpd_anchor.Mpd(a.mpd, music, os.path.join(work, "mpd"))
    sampler = None
    try:
        servers = []
        for name, path in zip(names, [binary, a.before]):
            sock = os.path.join(work, name + ".sock")
            err = open(os.path.join(work, name + ".log"), "w")
            proc = subprocess.Popen([path, "run", "--output", "null", "--display", "none", "--input", "none",
                                     "--music", music, "--db", os.path.join(work, name + ".sqlite"), "--socket", sock],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
            procs.append(proc)
            servers.append(Server(name, proc.pid, sock, lambda p, proc=proc: connect_when_up(mpd_anchor, p, proc)))
        _, _, mc = mpd.start()
        mc.close()
        servers.append(Server("mpd", mpd.pid, mpd.socket, mpd_anchor.Client))
        log("indexed: " + ", ".join("%s %d" % (s.name, wait_songs(s.c, n_files)) for s in servers) + " songs")
        sampler = CpuSampler([s.pid for s in servers])
        time.sleep(1)
        i0 = {s.name: sampler.total(s.pid) for s in servers}
        time.sleep(a.idle)
        res["idle_cpu_s_per_min"] = {s.name: (sampler.total(s.pid) - i0[s.name]) / 1e9 * 60 / a.idle for s in servers}
        runs = {g: [] for g in groups}
        for rnd in range(a.rounds):
            for g in groups:
                chosen, repeats = picks[g]
                audio = repeats * sum(t["samples"] / t["sample_rate"] for t in chosen)
                for s in servers:
                    s.play_queue(files[g], repeats)
                start = {s.name: (cpu_ticks(s.pid), sampler.snapshot(s.pid)) for s in servers}
                t0 = time.perf_counter()
                for s in servers:
                    s.c.raw("play")
                done = {}
                threads = [threading.Thread(target=wait_stopped, args=(s, t0, sampler, done)) for s in servers]
                for th in threads:
                    th.start()
                for th in threads:
                    th.join(audio * 3 + 60)
                run = {"audio_s": audio, "loadavg": os.getloadavg()[0]}
                for s in servers:
                    wall, ticks, snap = done[s.name]
                    threads_ns = sampler.by_name(s.pid, start[s.name][1], snap)
                    run[s.name] = {"wall_s": wall, "tick_cpu_s": ticks - start[s.name][0],
                                   "cpu_s": sum(threads_ns.values()) / 1e9,
                                   "threads_ms_per_audio_min": {k: v / 1e6 / (audio / 60) for k, v in threads_ns.items()}}
                    run[s.name]["cpu_ms_per_audio_min"] = run[s.name]["cpu_s"] * 1000 / (audio / 60)
                    run[s.name]["tick_ms_per_audio_min"] = run[s.name]["tick_cpu_s"] * 1000 / (audio / 60)
                m = run["mpd"]["cpu_ms_per_audio_min"]
                for n in names:
                    run["ratio_" + n] = run[n]["cpu_ms_per_audio_min"] / m if m else None
                runs[g].append(run)
                log("round %d %-7s %4.0f s of audio: " % (rnd + 1, g, audio) + ", ".join(
                    "%s %6.1f ms/min (%5.1f s wall)" % (s.name, run[s.name]["cpu_ms_per_audio_min"], run[s.name]["wall_s"])
                    for s in servers) + "; load %.2f" % run["loadavg"])
        for g in groups:
            chosen, repeats = picks[g]
            rs = runs[g]
            row = {"tracks": [t["path"] for t in chosen], "repeats": repeats, "audio_s": rs[0]["audio_s"],
                   "rate": chosen[0]["sample_rate"], "bits": chosen[0]["bits"], "channels": chosen[0]["channels"],
                   "runs": rs}
            for s in servers:
                row[s.name] = {k: statistics.median(r[s.name][k] for r in rs)
                               for k in ("wall_s", "cpu_s", "tick_cpu_s", "cpu_ms_per_audio_min", "tick_ms_per_audio_min")}
            for n in names:
                ratios = [r["ratio_" + n] for r in rs if r["ratio_" + n]]
                row["ratio_" + n] = statistics.median(ratios) if ratios else None
            row["ratio"] = row["ratio_clickwheel"]
            res["formats"][g] = row
        for s in servers:
            s.c.close()
    finally:
        if sampler:
            sampler.close()
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
        mpd.stop()
        shutil.rmtree(work, ignore_errors=True)
    res["loadavg_end"] = os.getloadavg()

    print("Decode + play CPU per audio minute (schedstat), clickwheel (null output) vs MPD 0.23 (null output), side "
          "by side; %s; %d round(s), medians; load average %.2f at the start, %.2f at the end"
          % (res["date"], a.rounds, res["loadavg_start"][0], res["loadavg_end"][0]))
    print("idle floor, ms per minute of wall time: " + ", ".join(
        "%s %.2f" % (n, 1000 * v) for n, v in res["idle_cpu_s_per_min"].items()))
    head = "%-7s %-14s %7s |" % ("format", "stream", "audio s")
    for n in names:
        head += " %11s" % (("cw" if n == "clickwheel" else n) + " ms/min")
    head += " %11s |" % "MPD ms/min"
    for n in names:
        head += " %7s" % ("ratio" if n == "clickwheel" else "r." + n)
    head += " | %s" % "ticks: cw / MPD ms/min | wall " + " / ".join(s for s in names + ["MPD"])
    print(head)
    for g in groups:
        r = res["formats"][g]
        line = "%-7s %-14s %7.0f |" % (g, "%d/%d/%d" % (r["rate"], r["bits"], r["channels"]), r["audio_s"])
        for n in names:
            line += " %11.1f" % r[n]["cpu_ms_per_audio_min"]
        line += " %11.1f |" % r["mpd"]["cpu_ms_per_audio_min"]
        for n in names:
            line += " %7s" % ("%.2f" % r["ratio_" + n] if r["ratio_" + n] else "-")
        line += " | %8.0f / %-8.0f | %s" % (r["clickwheel"]["tick_ms_per_audio_min"], r["mpd"]["tick_ms_per_audio_min"],
                                             " / ".join("%.1f" % r[n]["wall_s"] for n in names + ["mpd"]))
        print(line)
    for n in names:
        ratios = [res["formats"][g]["ratio_" + n] for g in groups if res["formats"][g]["ratio_" + n]]
        if ratios:
            print("ratio %s / MPD: median %.2f over %d formats (%.2f-%.2f)" % (
                n, statistics.median(ratios), len(ratios), min(ratios), max(ratios)))
    if a.threads:
        print("by thread name, ms per audio minute (median of the rounds; threads under 0.5 left out):")
        for g in groups:
            for n in names + ["mpd"]:
                rs = res["formats"][g]["runs"]
                keys = sorted({k for r in rs for k in r[n]["threads_ms_per_audio_min"]})
                med = {k: statistics.median(r[n]["threads_ms_per_audio_min"].get(k, 0) for r in rs) for k in keys}
                print("  %-7s %-10s " % (g, n) + ", ".join(
                    "%s %.1f" % (k, v) for k, v in sorted(med.items(), key=lambda kv: -kv[1]) if v >= 0.5))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
