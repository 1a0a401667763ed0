#!/usr/bin/env python3
"""Library index benchmark: `clickwheel index` against MPD 0.23 on the same corpus, in the same run.

    python3 contrib/bench/index_bench.py [--corpus /tmp/clickwheel-corpus] [--runs 3] [--json OUT]

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
"""
import argparse
import json
import os
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="/tmp/clickwheel-corpus")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shared", default=os.environ.get("CLICKWHEEL_SHARED", os.path.join(ROOT, "..", "shared")))
    ap.add_argument("--mpd", default=shutil.which("mpd") or "/usr/bin/mpd")
    ap.add_argument("--json", help="write every figure here")
    a = ap.parse_args()

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
    log("building clickwheel (release)")
    subprocess.run(["swift", "build", "-c", "release", "--product", "clickwheel"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    binary = os.path.join(ROOT, ".build", "release", "clickwheel")

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
