#!/usr/bin/env python3
"""Decode and play CPU per audio minute, per format (issue 32): the service against MPD 0.23, same run, null outputs.

    python3 contrib/bench/decode_bench.py [--corpus /tmp/clickwheel-mixed] [--seconds 60] [--binary PATH]
                                          [--formats mp3,aac,...] [--json OUT]

For each format of the mixed corpus (make_mixed_corpus.py; 24-bit/96 kHz FLAC apart from 16/44.1 FLAC)
a few tracks are picked (distinct clips, the longest first, until --seconds of audio or --per-format
tracks; the queue is repeated when they are shorter)
and hard-linked into a small music folder that both servers index at start:

  - clickwheel run --output null --display none --input none --music DIR --db FILE --socket SOCK
    (the release binary, unless --binary), and
  - MPD 0.23 with its own config (mpd_anchor.py from ../shared/bench, or --shared DIR): a `null` output
    (sync on: real time, as ClickWheel's null output), Unix socket, no mixer.

Each format: both queues are cleared and given the same files (`add`), then `play` is sent to both at the
same moment (side by side: the same machine load for both) and each is waited for with `idle player`
until it stops. CPU is the process's utime + stime (/proc/PID/stat, all threads, those that ended
included) from `play` to the stop; per minute of the queue's true audio length (the manifest's). Both
servers are otherwise idle: nothing else is asked of them while they play. Also printed: the wall time
of each play (it must be the audio's length: the outputs run in real time) and each server's CPU over
the same seconds idle before the first format (the floor under every figure).
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


def cpu_sched(pid):
    """Time on CPU of the live threads (schedstat, ns precision; an ended thread's time is lost)."""
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as f:
                total += int(f.read().split()[0])
        except OSError:
            pass
    return total / 1e9


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


def wait_stopped(server, t0, out):
    c = server.c
    while c.status().get("state") == "play":
        c.raw("idle player")
    out[server.name] = (time.perf_counter() - t0, cpu_ticks(server.pid), cpu_sched(server.pid))


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
           "formats": {}}
    cw_proc = None
    mpd = mpd_anchor.Mpd(a.mpd, music, os.path.join(work, "mpd"))
    try:
        sock = os.path.join(work, "cw.sock")
        cw_log = open(os.path.join(work, "clickwheel.log"), "w")
        cw_proc = subprocess.Popen([binary, "run", "--output", "null", "--display", "none", "--input", "none",
                                    "--music", music, "--db", os.path.join(work, "cw.sqlite"), "--socket", sock],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=cw_log)
        cw = Server("clickwheel", cw_proc.pid, sock, lambda p: connect_when_up(mpd_anchor, p, cw_proc))
        _, _, mc = mpd.start()
        mc.close()
        md = Server("mpd", mpd.pid, mpd.socket, mpd_anchor.Client)
        log("indexed: clickwheel %d, MPD %d songs" % (wait_songs(cw.c, n_files), wait_songs(md.c, n_files)))
        time.sleep(1)
        i0 = {s.name: cpu_ticks(s.pid) for s in (cw, md)}
        time.sleep(a.idle)
        res["idle_cpu_s_per_min"] = {s.name: (cpu_ticks(s.pid) - i0[s.name]) * 60 / a.idle for s in (cw, md)}
        for g in groups:
            chosen, repeats = picks[g]
            audio = repeats * sum(t["samples"] / t["sample_rate"] for t in chosen)
            for s in (cw, md):
                s.play_queue(files[g], repeats)
            start = {s.name: (cpu_ticks(s.pid), cpu_sched(s.pid)) for s in (cw, md)}
            t0 = time.perf_counter()
            for s in (cw, md):
                s.c.raw("play")
            done = {}
            threads = [threading.Thread(target=wait_stopped, args=(s, t0, done)) for s in (cw, md)]
            for th in threads:
                th.start()
            for th in threads:
                th.join(audio * 3 + 60)
            row = {"tracks": [t["path"] for t in chosen], "repeats": repeats, "audio_s": audio,
                   "rate": chosen[0]["sample_rate"], "bits": chosen[0]["bits"], "channels": chosen[0]["channels"]}
            for s in (cw, md):
                wall, ticks, sched = done[s.name]
                row[s.name] = {"wall_s": wall, "cpu_s": ticks - start[s.name][0], "sched_s": sched - start[s.name][1],
                               "cpu_ms_per_audio_min": (ticks - start[s.name][0]) * 1000 / (audio / 60),
                               "sched_ms_per_audio_min": (sched - start[s.name][1]) * 1000 / (audio / 60)}
            row["ratio"] = row["clickwheel"]["cpu_ms_per_audio_min"] / row["mpd"]["cpu_ms_per_audio_min"] \
                if row["mpd"]["cpu_ms_per_audio_min"] else None
            res["formats"][g] = row
            log("%-7s %5.0f s of audio: clickwheel %6.1f ms/min (%5.1f s wall), MPD %6.1f ms/min (%5.1f s wall)"
                % (g, audio, row["clickwheel"]["cpu_ms_per_audio_min"], row["clickwheel"]["wall_s"],
                   row["mpd"]["cpu_ms_per_audio_min"], row["mpd"]["wall_s"]))
        cw.c.close()
        md.c.close()
    finally:
        if cw_proc and cw_proc.poll() is None:
            cw_proc.terminate()
            try:
                cw_proc.wait(30)
            except subprocess.TimeoutExpired:
                cw_proc.kill()
        mpd.stop()
        shutil.rmtree(work, ignore_errors=True)

    print("Decode + play CPU per audio minute, clickwheel (null output) vs MPD 0.23 (null output), side by side; %s"
          % res["date"])
    print("idle floor: clickwheel %.1f ms/min, MPD %.1f ms/min of wall time" % (
        1000 * res["idle_cpu_s_per_min"]["clickwheel"], 1000 * res["idle_cpu_s_per_min"]["mpd"]))
    print("%-7s %-14s %7s | %11s %11s %7s | %11s %11s | %13s" % (
        "format", "stream", "audio s", "cw ms/min", "MPD ms/min", "ratio", "cw sched", "MPD sched", "wall cw / MPD"))
    for g in groups:
        r = res["formats"][g]
        c, m = r["clickwheel"], r["mpd"]
        print("%-7s %-14s %7.0f | %11.1f %11.1f %7s | %11.1f %11.1f | %13s" % (
            g, "%d/%d/%d" % (r["rate"], r["bits"], r["channels"]), r["audio_s"], c["cpu_ms_per_audio_min"],
            m["cpu_ms_per_audio_min"], "%.2f" % r["ratio"] if r["ratio"] else "-", c["sched_ms_per_audio_min"],
            m["sched_ms_per_audio_min"], "%.1f / %.1f" % (c["wall_s"], m["wall_s"])))
    ratios = [res["formats"][g]["ratio"] for g in groups if res["formats"][g]["ratio"]]
    if ratios:
        print("ratio clickwheel / MPD: median %.2f over %d formats (%.2f-%.2f)" % (
            statistics.median(ratios), len(ratios), min(ratios), max(ratios)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
