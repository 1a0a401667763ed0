#!/usr/bin/env python3
"""Library index benchmark: `clickwheel index` against MPD 0.23 on the same corpus, in the same run.

    python3 contrib/bench/index_bench.py [--corpus /tmp/clickwheel-corpus] [--runs 3] [--json OUT]
    python3 contrib/bench/index_bench.py --cold [--read-ahead-kb KB] [--throttle MBPS] [--runs 3] [--json OUT]

Makes the 10k-track corpus with ../shared/bench/make_corpus.py when it is missing (its manifest holds
every track's true tags and sample-exact length), builds clickwheel in release mode, then for each run,
alternating which indexer goes first (the page cache here is dropped after ~30 s idle, so the corpus is
read once, unmeasured, right before each full index):

  full index, empty database   wall, CPU (user+sys), peak RSS, bytes read from storage
  no-change rescan             wall and CPU (clickwheel: the whole process, start-up included;
                               MPD: one `update` on a running daemon)
  accuracy                     share of tracks whose stored duration is within 1 ms of the manifest
                               (gapless length) and whose tags equal the manifest, for both

and prints the medians with the ratio clickwheel / MPD. MPD runs with its own config in a temporary
folder (Unix socket, null output), via mpd_anchor.py from ../shared/bench (or --shared DIR).

--cold (issue 23) measures the first index from storage instead: the page cache is dropped
(`sync; echo 3 > /proc/sys/vm/drop_caches`, root only) right before every full index, of both,
alternating which goes first. Each run reports wall, CPU (user+sys) and the process's own read_bytes
(bytes it made the block layer read: its read() calls, page faults of its mappings and the
read-ahead both trigger) and rchar (bytes through read calls) from /proc/PID/io, against the minimum
the corpus needs (computed from the manifest: see corpus_minimum). --throttle MBPS also caps reads
of the corpus's block device at MBPS (10^6 bytes/s, an SD card) for both indexers, through the
block-throttle of a blkio cgroup (cgroup v1 `blkio.throttle.read_bps_device`, the same kernel
throttle as cgroup v2's `io.max`, which this kernel binds to v1); --read-ahead-kb KB sets the corpus
disk's read-ahead for the runs (a Pi's SD card: 128) and puts it back after. The warm mode above is
unchanged. See "The cold first index (issue 23)" in README.md beside this script.
"""
import argparse
import json
import os
import signal
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def log(msg):
    print("[index-bench] " + msg, file=sys.stderr, flush=True)


def warm(music):
    """Reads every file once so both indexers start from the same warm page cache."""
    t = time.perf_counter()
    n = 0
    for dirpath, _, files in os.walk(music):
        for f in files:
            try:
                with open(os.path.join(dirpath, f), "rb") as fh:
                    while fh.read(1 << 20):
                        pass
                n += 1
            except OSError:
                pass
    log("warmed %d files in %.1f s" % (n, time.perf_counter() - t))


def run_clickwheel(binary, music, db, extra=()):
    """Runs one `clickwheel index`; returns wall, CPU, peak RSS (MiB), MiB read from storage, summary."""
    # /usr/bin/time measures the child: a child's ru_maxrss seen from Python would start at the size of
    # this Python process (Linux keeps the high-water mark across fork and exec).
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "CWTIME %U %S %M %I", binary, "index", "--music", music, "--db", db,
                        "--json", *extra], capture_output=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError("clickwheel index failed with status %d: %s" % (p.returncode, p.stderr[-500:]))
    line = [l for l in p.stderr.decode(errors="replace").splitlines() if l.startswith("CWTIME ")][-1].split()
    user, system, maxrss_kib, inputs = float(line[1]), float(line[2]), int(line[3]), int(line[4])
    return {"wall_s": wall, "cpu_s": user + system, "peak_rss_mib": maxrss_kib / 1024,
            "storage_read_mib": inputs * 512 / 2 ** 20, "summary": json.loads(p.stdout)}


def drop_db(db):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.unlink(db + suffix)


def median(rows, key):
    vals = [r[key] for r in rows if key in r]
    return statistics.median(vals) if vals else float("nan")


# --------------------------------------------------------------------------------------------
# --cold: the first index from storage (issue 23).
# --------------------------------------------------------------------------------------------
PAGE = 4096


def drop_caches():
    """Writes dirty pages back, then drops the page cache, dentries and inodes (root only)."""
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def proc_io(pid):
    out = {}
    with open("/proc/%d/io" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            out[k] = int(v)
    return out


def corpus_minimum(manifest):
    """What exact lengths and tags need to read, from the manifest alone (bytes, by part):

    - the audio of every file without a Xing/Info header (header_tag None): no header states its
      length, so every frame is walked: size - audio_offset - 128 where an ID3v1 tag ends it;
    - the ID3v2 tag without its artwork payloads: audio_offset (the whole tag, padding included:
      the manifest does not give the padding, so this is an upper bound by at most 4 KiB a file)
      minus the bytes of every APIC picture the manifest lists;
    - one page (4 KiB) a file for the first audio frame (Xing/Info/VBRI, LAME gapless fields) and
      the last 128 bytes (ID3v1), as the issue counts it."""
    tracks = manifest["tracks"]
    xingless = sum(t["size"] - t["audio_offset"] - (128 if t["id3v1"] else 0)
                   for t in tracks if t["header_tag"] is None)
    art = sum(a["bytes"] for t in tracks for a in t["expected"].get("artwork", []))
    tags = sum(t["audio_offset"] for t in tracks) - art
    pages = PAGE * len(tracks)
    return {"xingless_files": sum(1 for t in tracks if t["header_tag"] is None),
            "xingless_audio_bytes": xingless, "tag_bytes_without_artwork": tags, "artwork_bytes": art,
            "page_bytes": pages, "minimum_bytes": xingless + tags + pages,
            "corpus_track_bytes": sum(t["size"] for t in tracks)}


def device_of(path):
    """major:minor of the whole block device holding path (the throttle names a disk, not a partition)."""
    dev = os.stat(path).st_dev
    sysdev = os.path.realpath("/sys/dev/block/%d:%d" % (os.major(dev), os.minor(dev)))
    if os.path.exists(os.path.join(sysdev, "partition")):
        sysdev = os.path.dirname(sysdev)
    return open(os.path.join(sysdev, "dev")).read().strip(), os.path.basename(sysdev)


class Throttle:
    """Puts this process (and so every indexer it starts) in a blkio cgroup whose reads from the
    corpus's disk are capped at mbps * 10^6 bytes/s; undone by close()."""

    V1 = "/sys/fs/cgroup/blkio"
    V2 = "/sys/fs/cgroup"

    def __init__(self, music, mbps):
        self.devno, self.disk = device_of(music)
        self.bps = int(mbps * 1e6)
        self.origin = None
        if os.path.exists(os.path.join(self.V1, "blkio.throttle.read_bps_device")):
            self.group = os.path.join(self.V1, "clickwheel-index-bench")
            os.makedirs(self.group, exist_ok=True)
            with open(os.path.join(self.group, "blkio.throttle.read_bps_device"), "w") as f:
                f.write("%s %d\n" % (self.devno, self.bps))
            self.kind = "cgroup v1 blkio.throttle.read_bps_device"
        elif "io" in open(os.path.join(self.V2, "cgroup.controllers")).read().split():
            self.group = os.path.join(self.V2, "clickwheel-index-bench")
            os.makedirs(self.group, exist_ok=True)
            with open(os.path.join(self.group, "io.max"), "w") as f:
                f.write("%s rbps=%d\n" % (self.devno, self.bps))
            self.kind = "cgroup v2 io.max"
        else:
            raise RuntimeError("no block throttle here: neither cgroup v1 blkio nor the cgroup v2 io controller")
        v1 = self.group.startswith(self.V1 + "/")
        for line in open("/proc/self/cgroup"):            # where this process was, to go back there
            num, ctrl, path = line.rstrip("\n").split(":", 2)
            if (v1 and "blkio" in ctrl.split(",")) or (not v1 and num == "0"):
                self.origin = os.path.join(self.V1 if v1 else self.V2, path.lstrip("/"))
        try:
            with open(os.path.join(self.group, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
        except OSError:
            os.rmdir(self.group)
            raise
        log("reads from %s (%s) capped at %.0f MB/s through %s" % (self.disk, self.devno, mbps, self.kind))

    def close(self):
        if self.origin:
            with open(os.path.join(self.origin, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
        try:
            os.rmdir(self.group)
        except OSError as e:
            log("could not remove %s: %s" % (self.group, e))


def run_cold_process(argv, stdout, stderr):
    """Starts argv, waits for it to exit without reaping it (waitid WNOWAIT), reads its /proc/PID/io
    as a zombie, then reaps it with wait4. The zombie's /proc/PID/io is the whole process's count:
    the kernel adds the counts of its threads that already exited (sig->ioac) to the leader's, and
    nothing can run after the exit. wait4's ru_inblock (512-byte units, the same counter) is kept as
    a cross-check; the two must agree."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=stdout, stderr=stderr)
    os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
    wall = time.perf_counter() - t0
    io = proc_io(p.pid)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)       # reaped here, not by Popen
    return p, {"wall_s": wall, "cpu_s": ru.ru_utime + ru.ru_stime, "sys_s": ru.ru_stime, "read_bytes": io["read_bytes"],
               "rchar": io["rchar"], "wait4_read_bytes": ru.ru_inblock * 512}


def cold_clickwheel(binary, music, db, out_path):
    drop_db(db)
    drop_caches()
    with open(out_path, "w+b") as out, open(out_path + ".err", "w+b") as err:
        p, row = run_cold_process([binary, "index", "--music", music, "--db", db, "--json"], out, err)
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if p.returncode != 0:
        raise RuntimeError("clickwheel index failed with status %d: %s" % (p.returncode, errors[-500:]))
    row["summary"] = json.loads(text)
    return row


def cold_mpd(mpd_anchor, mpd):
    """A full index by a fresh MPD with no database (it starts the update itself at launch). Its
    /proc/PID/io is read when the update is done, then it is stopped and reaped with wait4, whose
    ru_inblock covers the rest of its life (shutdown, the database written)."""
    mpd.drop_database()
    drop_caches()
    t0, _, c = mpd.start()
    if "updating_db" not in c.status():
        c.raw("update")
    mpd_anchor.wait_update_done(c)
    wall = time.perf_counter() - t0
    pid = mpd.pid
    cpu, io = mpd_anchor.cpu_seconds(pid), proc_io(pid)
    with open("/proc/%d/stat" % pid) as f:                 # stime: field 15 of stat(5)
        sys_s = int(f.read().rsplit(")", 1)[1].split()[12]) / os.sysconf("SC_CLK_TCK")
    songs = int(dict(c.pairs("stats"))["songs"])
    c.close()
    os.kill(pid, signal.SIGTERM)
    _, status, ru = os.wait4(pid, 0)
    mpd.proc.returncode = os.waitstatus_to_exitcode(status)   # reaped here, not by Popen
    mpd.proc = None
    return {"wall_s": wall, "cpu_s": cpu, "sys_s": sys_s, "read_bytes": io["read_bytes"], "rchar": io["rchar"],
            "wait4_read_bytes": ru.ru_inblock * 512, "songs": songs}


def cold_main(a, manifest, music, binary, mpd_anchor):
    minimum = corpus_minimum(manifest)
    ra_file = "/sys/block/%s/queue/read_ahead_kb" % device_of(music)[1]
    ra_before = int(open(ra_file).read())
    work = tempfile.mkdtemp(prefix="cw-index-bench-cold-")
    db = os.path.join(work, "library.sqlite")
    empty = os.path.join(work, "empty-music")
    os.makedirs(empty)
    mpd = mpd_anchor.Mpd(a.mpd, music, os.path.join(work, "mpd"))
    mpd_empty = mpd_anchor.Mpd(a.mpd, empty, os.path.join(work, "mpd-empty"))
    res = {"mode": "cold", "throttle_mbps": a.throttle, "minimum": minimum,
           "runs": a.runs, "tracks": len(manifest["tracks"]), "clickwheel": [], "mpd": [], "baseline": {}}
    throttle = None
    try:
        if a.read_ahead_kb is not None:
            with open(ra_file, "w") as f:
                f.write(str(a.read_ahead_kb))
            log("read-ahead of %s set to %d KiB for the runs (was %d)" % (ra_file, a.read_ahead_kb, ra_before))
        res["read_ahead_kb"] = ra = mpd_anchor.read_ahead_kb(music)
        if a.throttle:
            throttle = Throttle(music, a.throttle)
            res["throttle"] = throttle.kind
        # What each process reads that is not the corpus: its own binary and libraries, and (for the
        # walk) the directories and inodes, all cold too. Measured once: an index of an empty folder,
        # and `find -printf %s` (a stat of every file) over the corpus.
        res["baseline"]["clickwheel_empty"] = cold_clickwheel(binary, empty, db, os.path.join(work, "out.json"))
        res["baseline"]["mpd_empty"] = cold_mpd(mpd_anchor, mpd_empty)
        drop_caches()
        _, res["baseline"]["stat_walk"] = run_cold_process(["find", music, "-printf", "%s\n"],
                                                           subprocess.DEVNULL, subprocess.DEVNULL)
        for who in ("clickwheel_empty", "mpd_empty", "stat_walk"):
            b = res["baseline"][who]
            log("cold baseline %-16s %.2f s wall, %.1f MiB read" % (who, b["wall_s"], b["read_bytes"] / 2 ** 20))
        for r in range(a.runs):
            for who in (["mpd", "clickwheel"] if r % 2 == 0 else ["clickwheel", "mpd"]):
                load = mpd_anchor.loadavg()
                if who == "mpd":
                    row = cold_mpd(mpd_anchor, mpd)
                else:
                    row = cold_clickwheel(binary, music, db, os.path.join(work, "out.json"))
                row["load1"] = load
                res[who].append(row)
                log("run %d %-10s cold full %.2f s wall %.2f s CPU, read_bytes %.0f MiB (wait4 %.0f), rchar %.0f MiB"
                    % (r + 1, who, row["wall_s"], row["cpu_s"], row["read_bytes"] / 2 ** 20,
                       row["wait4_read_bytes"] / 2 ** 20, row["rchar"] / 2 ** 20))
    finally:
        mpd.stop()
        mpd_empty.stop()
        if throttle:
            throttle.close()
        if a.read_ahead_kb is not None:
            with open(ra_file, "w") as f:
                f.write(str(ra_before))
        shutil.rmtree(work, ignore_errors=True)

    cw, md, mib = res["clickwheel"], res["mpd"], 2 ** 20
    mn = minimum["minimum_bytes"]
    print("Cold first index: ClickWheel vs MPD 0.23, %d tracks, %d runs each, page cache dropped before each"
          % (res["tracks"], a.runs))
    print("(%s; read-ahead of the corpus's disk %s KiB)" % (
        "reads capped at %g MB/s by %s" % (a.throttle, res["throttle"]) if a.throttle else "no throttle", ra))
    print("corpus minimum: %.0f MiB = Xing-less audio %.0f MiB (%d files) + tags without artwork %.0f MiB"
          " + one page a file %.0f MiB  (artwork %.0f MiB, all tracks %.0f MiB)"
          % (mn / mib, minimum["xingless_audio_bytes"] / mib, minimum["xingless_files"],
             minimum["tag_bytes_without_artwork"] / mib, minimum["page_bytes"] / mib,
             minimum["artwork_bytes"] / mib, minimum["corpus_track_bytes"] / mib))
    print("%-4s %22s %22s %22s %22s %10s" % ("run", "wall s (cw / MPD)", "CPU s (cw / MPD)",
                                             "read_bytes MiB", "rchar MiB", "wall ratio"))
    for r in range(a.runs):
        c, m = cw[r], md[r]
        print("%-4d %22s %22s %22s %22s %10.2f" % (
            r + 1, "%.2f / %.2f" % (c["wall_s"], m["wall_s"]), "%.2f / %.2f" % (c["cpu_s"], m["cpu_s"]),
            "%.0f / %.0f" % (c["read_bytes"] / mib, m["read_bytes"] / mib),
            "%.0f / %.0f" % (c["rchar"] / mib, m["rchar"] / mib), c["wall_s"] / m["wall_s"]))
    ratios = [c["wall_s"] / m["wall_s"] for c, m in zip(cw, md)]
    print("%-34s %12s %12s %8s" % ("median", "clickwheel", "MPD", "ratio"))
    for label, key, scale, fmt in [("cold full index, wall (s)", "wall_s", 1, "%.2f"),
                                   ("cold full index, CPU (s)", "cpu_s", 1, "%.2f"),
                                   ("  of which system (s)", "sys_s", 1, "%.2f"),
                                   ("read_bytes (MiB)", "read_bytes", mib, "%.0f"),
                                   ("rchar (MiB)", "rchar", mib, "%.0f")]:
        x, y = median(cw, key) / scale, median(md, key) / scale
        print("%-34s %12s %12s %8s" % (label, fmt % x, fmt % y, "%.2f" % (x / y) if key != "rchar" else "-"))
    print("wall clickwheel / MPD, same run: %s (median %.2f; goal <= 0.2)"
          % (", ".join("%.2f" % x for x in ratios), statistics.median(ratios)))
    print("read_bytes / corpus minimum: clickwheel %.2f, MPD %.2f (goal for clickwheel <= 1.5)"
          % (median(cw, "read_bytes") / mn, median(md, "read_bytes") / mn))
    b = res["baseline"]
    print("not the corpus, read cold: clickwheel start-up (empty folder) %.1f MiB, MPD start-up %.1f MiB, "
          "a stat of every file (find) %.1f MiB" % (b["clickwheel_empty"]["read_bytes"] / mib,
                                                     b["mpd_empty"]["read_bytes"] / mib,
                                                     b["stat_walk"]["read_bytes"] / mib))
    off = [row for row in cw + md if abs(row["wait4_read_bytes"] - row["read_bytes"]) > 1 << 20]
    if off:
        print("note: /proc/PID/io and wait4 differ by more than 1 MiB in %d runs (MPD's wait4 also counts "
              "its shutdown)" % len(off))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="/tmp/clickwheel-corpus")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shared", default=os.environ.get("CLICKWHEEL_SHARED", os.path.join(ROOT, "..", "shared")))
    ap.add_argument("--mpd", default=shutil.which("mpd") or "/usr/bin/mpd")
    ap.add_argument("--json", help="write every figure here")
    ap.add_argument("--binary", help="use this clickwheel binary instead of building the release one "
                                     "(e.g. another branch's, or a debug build when a release build cannot be had)")
    ap.add_argument("--cold", action="store_true",
                    help="drop the page cache before every full index (root) and report what each reads")
    ap.add_argument("--throttle", type=float, metavar="MBPS",
                    help="with --cold: cap reads of the corpus's disk at MBPS (10^6 bytes/s)")
    ap.add_argument("--read-ahead-kb", type=int, metavar="KB",
                    help="with --cold: set the corpus's disk read-ahead for the runs (restored after); "
                         "a Pi's SD card has the kernel's default, 128")
    a = ap.parse_args()
    if (a.throttle or a.read_ahead_kb) and not a.cold:
        ap.error("--throttle and --read-ahead-kb go with --cold")
    if a.cold and os.geteuid() != 0:
        log("--cold needs root: dropping the page cache (/proc/sys/vm/drop_caches), the disk's read-ahead "
            "and the block throttle are root-only; skipped")
        return

    sys.path.insert(0, os.path.join(a.shared, "bench"))
    sys.path.insert(0, HERE)
    import mpd_anchor                      # noqa: E402  (MPD driver and measurements, from shared/)
    import check_manifest                  # noqa: E402

    manifest_path = os.path.join(a.corpus, "manifest.json")
    if not os.path.exists(manifest_path):
        log("making the corpus in %s" % a.corpus)
        subprocess.run([sys.executable, os.path.join(a.shared, "bench", "make_corpus.py"), "--out", a.corpus],
                       check=True)
    manifest = json.load(open(manifest_path, encoding="utf-8"))
    music = os.path.join(a.corpus, "music")
    if a.binary:
        binary = os.path.abspath(a.binary)
        log("using %s" % binary)
    else:
        log("building clickwheel (release)")
        subprocess.run(["swift", "build", "-c", "release", "--product", "clickwheel"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        binary = os.path.join(ROOT, ".build", "release", "clickwheel")
    if a.cold:
        cold_main(a, manifest, music, binary, mpd_anchor)
        return

    work = tempfile.mkdtemp(prefix="cw-index-bench-")
    db = os.path.join(work, "library.sqlite")
    mpd = mpd_anchor.Mpd(a.mpd, music, os.path.join(work, "mpd"))
    res = {"clickwheel": {"full": [], "rescan": []}, "mpd": {"full": [], "rescan": []},
           "tracks": len(manifest["tracks"]), "runs": a.runs}
    quiet = lambda msg: None  # noqa: E731
    try:
        for r in range(a.runs):
            order = ["mpd", "clickwheel"] if r % 2 == 0 else ["clickwheel", "mpd"]
            for who in order:
                warm(music)
                load = mpd_anchor.loadavg()
                if who == "mpd":
                    row = mpd_anchor.measure_full_index(mpd, 1, quiet, warmup=False)[0]
                    rescan, _ = mpd_anchor.measure_rescan(mpd, 1, quiet)
                    mpd.stop()
                    res["mpd"]["rescan"].append(rescan[0])
                else:
                    drop_db(db)
                    row = run_clickwheel(binary, music, db)
                    res["clickwheel"]["rescan"].append(run_clickwheel(binary, music, db))
                row["load1"] = load
                res[who]["full"].append(row)
                log("run %d %-10s full %.2f s wall %.2f s CPU %.1f MiB peak; rescan %.3f s"
                    % (r + 1, who, row["wall_s"], row["cpu_s"], row["peak_rss_mib"], res[who]["rescan"][-1]["wall_s"]))

        # Accuracy against the manifest, both on the last databases.
        t, c = mpd.start()[1:]
        songs = mpd_anchor.parse_songs(c.raw("listallinfo"))
        c.close()
        mpd.stop()
        mpd_ok = tags_ok = 0
        for tr in manifest["tracks"]:
            s = songs.get(tr["path"])
            if s and "duration" in s and abs(float(s["duration"]) * 1000 - tr["duration_ms"]) <= 1.0:
                mpd_ok += 1
            e = tr["expected"]
            artist = e.get("artist")
            artist = artist[0] if isinstance(artist, list) else artist
            # Only the fields the manifest has (untagged files have none: their names carry the information).
            if s and all(s.get(k) == v for k, v in (("Title", e.get("title")), ("Artist", artist),
                                                     ("Album", e.get("album"))) if v is not None):
                tags_ok += 1
        rows = check_manifest.track_rows(db)
        cw_dur = cw_tags = cw_tta = 0
        for tr in manifest["tracks"]:
            row = rows.get(tr["path"])
            if row is None:
                continue
            cw_dur += abs(row["duration_ms"] - tr["duration_ms"]) <= 1.0
            cw_tags += not list(check_manifest.compare(row, tr.get("expected", {})))
            e = tr["expected"]
            artist = e.get("artist")
            artist = artist if isinstance(artist, list) else [artist]
            cw_tta += (("title" not in e or row["title"] == e["title"])
                       and ("artist" not in e or check_manifest.listed(row, "artist", "artist") == artist)
                       and ("album" not in e or row["album"] == e["album"]))
        n = len(manifest["tracks"])
        res["accuracy"] = {"mpd_durations_within_1ms": mpd_ok / n, "mpd_title_artist_album": tags_ok / n,
                           "clickwheel_durations_within_1ms": cw_dur / n, "clickwheel_tags_all_fields": cw_tags / n,
                           "clickwheel_title_artist_album": cw_tta / n}
    finally:
        mpd.stop()
        shutil.rmtree(work, ignore_errors=True)

    cw, md = res["clickwheel"], res["mpd"]
    print("ClickWheel vs MPD 0.23, %d tracks, %d runs each (medians; ratio = clickwheel / MPD)" % (n, a.runs))
    print("%-34s %12s %12s %8s" % ("", "clickwheel", "MPD", "ratio"))
    for label, who_key, key, fmt in [
        ("full index, wall (s)", "full", "wall_s", "%.2f"), ("full index, CPU (s)", "full", "cpu_s", "%.2f"),
        ("full index, peak RSS (MiB)", "full", "peak_rss_mib", "%.1f"),
        ("full index, read from storage (MiB)", "full", "storage_read_mib", "%.0f"),
        ("no-change rescan, wall (s)", "rescan", "wall_s", "%.3f"), ("no-change rescan, CPU (s)", "rescan", "cpu_s", "%.3f"),
    ]:
        x, y = median(cw[who_key], key), median(md[who_key], key)
        print("%-34s %12s %12s %8s" % (label, fmt % x, fmt % y, "%.2f" % (x / y) if y else "-"))
    acc = res["accuracy"]
    print("durations within 1 ms of the true length: clickwheel %.2f %%, MPD %.2f %%"
          % (100 * acc["clickwheel_durations_within_1ms"], 100 * acc["mpd_durations_within_1ms"]))
    print("title+artist(first)+album where tagged:   clickwheel %.2f %%, MPD %.2f %%"
          % (100 * acc["clickwheel_title_artist_album"], 100 * acc["mpd_title_artist_album"]))
    print("every checked tag field as in the manifest: clickwheel %.2f %%" % (100 * acc["clickwheel_tags_all_fields"]))
    print("clickwheel rescan, in-process scan time (median): %.3f s"
          % statistics.median(r["summary"]["seconds"] for r in cw["rescan"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
