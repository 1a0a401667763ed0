#!/usr/bin/env python3
"""Mixed-format index benchmark (issue 32): `clickwheel index` against MPD 0.23 on the mixed corpus, same run.

    python3 contrib/bench/formats_bench.py [--corpus /tmp/clickwheel-mixed] [--runs 3] [--json OUT] [--binary PATH]
    python3 contrib/bench/formats_bench.py --cold [--read-ahead-kb 128] [--runs 3] [--json OUT] [--binary PATH]

Makes the corpus with make_mixed_corpus.py (beside this script) when it is missing, builds clickwheel in
release mode (`swift build -c release --product clickwheel`, unless --binary), then for each run,
alternating which indexer goes first, times a full index from an empty database of each: clickwheel
`index --music DIR --db FILE --json`; MPD 0.23 with its own config (null output, Unix socket; it starts
the update itself when it has no database) through mpd_anchor.py from ../shared/bench (or --shared DIR),
until the update is done. Warm (default): the corpus is read once, unmeasured, right before each index.

Then, per format, against the corpus manifest:
  length   the share of tracks whose stored length is within 1 ms of the true playable length
           (clickwheel: tracks.samples / tracks.sample_rate, duration_ms where samples is NULL;
           MPD: listallinfo's duration), and clickwheel's share that is exact to the sample;
  tags     the share of tracks whose title, artist (every value), album, album artist and track number
           equal the manifest's (the fields the file has), for both, and per field the mismatches.

--cold (root only): `sync; echo 3 > /proc/sys/vm/drop_caches` before each index, and each process's own
read_bytes from /proc/PID/io (clickwheel's read from the exited, unreaped process; MPD's when its update is
done: index_bench.py's method) against the corpus's minimum: what the tags (without picture payloads) and
the lengths need, in 4 KiB pages, per file, computed by make_mixed_corpus.py (MP3: the ID3v2 tag, the
Xing/LAME frame, the last 128 bytes; MP4: the top-level atom headers and moov without covr's picture;
FLAC: the metadata blocks without PADDING bodies and picture data; Ogg: the pages up to the end of the
comment packet and the last page; WAV/AIFF: every chunk but the audio's body). Per format, what each
index brought into the page cache from the corpus (mincore over untouched mappings, right after the
index: its reads and their read-ahead) against that format's minimum. --read-ahead-kb sets the corpus
disk's read-ahead for the cold runs (a Pi's SD card: 128) and puts it back after.

Goals (issue 32): index wall <= 0.3x MPD's; cold read_bytes <= 1.5x the minimum; every format's lengths
within 1 ms.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIELDS = ("title", "artist", "album", "albumartist", "track")
MIB = 2 ** 20


def log(msg):
    print("[formats-bench] " + msg, file=sys.stderr, flush=True)


def first_int(v):
    m = re.match(r"\s*(\d+)", v or "")
    return int(m.group(1)) if m else None


def mpd_songs(body):
    """listallinfo -> {file: {tag: [values]}}, every value of each tag."""
    songs, cur = {}, None
    for line in body.split(b"\n"):
        k, _, v = line.partition(b": ")
        k = k.decode()
        if k in ("file", "directory", "playlist"):
            cur = songs.setdefault(v.decode("utf-8", "surrogateescape"), {}) if k == "file" else None
        elif cur is not None:
            cur.setdefault(k, []).append(v.decode("utf-8", "surrogateescape"))
    return songs


def as_list(v):
    return v if isinstance(v, list) else [v]


def mpd_checks(song, t):
    """(length error in ms or None, {field: (want, got)} mismatches) of one MPD song."""
    if song is None:
        return None, {f: ("?", "not indexed") for f in FIELDS}
    true_s = t["samples"] / t["sample_rate"]
    err = abs(float(song["duration"][0]) - true_s) * 1000 if "duration" in song else None
    e, bad = t["expected"], {}
    got = {"title": song.get("Title"), "artist": song.get("Artist"), "album": song.get("Album"),
           "albumartist": song.get("AlbumArtist"), "track": [first_int(x) for x in song.get("Track", [])] or None}
    for f in FIELDS:
        if f not in e:
            continue
        want = as_list(e[f])
        if got[f] != want:
            bad[f] = (want, got[f])
    return err, bad


def cw_checks(row, t, listed):
    """(length error in ms, exact to the sample, mismatches) of one clickwheel row."""
    if row is None:
        return None, False, {f: ("?", "not indexed") for f in FIELDS}
    true_s = t["samples"] / t["sample_rate"]
    if row["samples"] is not None and row["sample_rate"]:
        err = abs(row["samples"] / row["sample_rate"] - true_s) * 1000
        exact = row["samples"] == t["samples"] and row["sample_rate"] == t["sample_rate"]
    else:
        err, exact = abs(row["duration_ms"] - true_s * 1000), False
    e, bad = t["expected"], {}
    got = {"title": [row["title"]], "artist": listed(row, "artist", "artist"), "album": [row["album"]],
           "albumartist": listed(row, "album_artist", "album_artist"), "track": [row["track_number"]]}
    for f in FIELDS:
        if f in e and got[f] != as_list(e[f]):
            bad[f] = (as_list(e[f]), got[f])
    return err, exact, bad


def accuracy(manifest, rows, songs, listed, show):
    """Per format: tracks, length shares, tag shares and per-field mismatch counts, for both."""
    out = {}
    for t in manifest["tracks"]:
        d = out.setdefault(t["format"], {"tracks": 0, "cw_len_ok": 0, "cw_exact": 0, "mpd_len_ok": 0, "mpd_no_len": 0,
                                         "cw_tags_ok": 0, "mpd_tags_ok": 0, "cw_missing": 0, "mpd_missing": 0,
                                         "cw_err_ms": [], "mpd_err_ms": [], "cw_field_bad": {}, "mpd_field_bad": {},
                                         "cw_examples": [], "mpd_examples": [], "cw_tags_unread": 0})
        d["tracks"] += 1
        row, song = rows.get(t["path"]), songs.get(t["path"])
        d["cw_missing"] += row is None
        d["mpd_missing"] += song is None
        # a file whose tags clickwheel did not read (tag_format none) can still match through the path's hints
        d["cw_tags_unread"] += row is not None and row["tag_format"] == "none"
        err, exact, bad = cw_checks(row, t, listed)
        if err is not None:
            d["cw_err_ms"].append(err)
            d["cw_len_ok"] += err <= 1.0
            if err > 1.0 and len(d["cw_examples"]) < show:
                d["cw_examples"].append({"path": t["path"], "what": "length", "want_samples": t["samples"],
                                         "want_rate": t["sample_rate"], "got_samples": row["samples"],
                                         "got_rate": row["sample_rate"], "got_ms": row["duration_ms"]})
        d["cw_exact"] += exact
        d["cw_tags_ok"] += not bad
        for f, (want, got) in bad.items():
            d["cw_field_bad"][f] = d["cw_field_bad"].get(f, 0) + 1
            if len(d["cw_examples"]) < show:
                d["cw_examples"].append({"path": t["path"], "what": f, "want": want, "got": got})
        err, bad = mpd_checks(song, t)
        if err is None:
            d["mpd_no_len"] += song is not None
        else:
            d["mpd_err_ms"].append(err)
            d["mpd_len_ok"] += err <= 1.0
        d["mpd_tags_ok"] += not bad
        for f, (want, got) in bad.items():
            d["mpd_field_bad"][f] = d["mpd_field_bad"].get(f, 0) + 1
            if len(d["mpd_examples"]) < show:
                d["mpd_examples"].append({"path": t["path"], "what": f, "want": want, "got": got})
    for d in out.values():
        for who in ("cw", "mpd"):
            errs = sorted(d.pop(who + "_err_ms"))
            d[who + "_err_ms_median"] = statistics.median(errs) if errs else None
            d[who + "_err_ms_max"] = errs[-1] if errs else None
    return out


def print_accuracy(acc):
    pct = lambda a, n: "%6.2f %%" % (100 * a / n) if n else "   -   "  # noqa: E731
    print("\nLengths within 1 ms of the true playable length, and tags (title, artist, album, album artist, track)")
    print("%-7s %6s | %9s %9s %9s | %9s %11s | %9s %9s" % ("format", "tracks", "cw 1 ms", "cw exact", "MPD 1 ms",
                                                          "cw max", "MPD median", "cw tags", "MPD tags"))
    tot = {"tracks": 0, "cw_len_ok": 0, "cw_exact": 0, "mpd_len_ok": 0, "cw_tags_ok": 0, "mpd_tags_ok": 0}
    order = ["mp3", "aac", "flac", "vorbis", "opus", "alac", "wav", "aiff"]
    for fmt in sorted(acc, key=lambda f: order.index(f) if f in order else 99):
        d = acc[fmt]
        for k in tot:
            tot[k] += d[k]
        ms = lambda v: "-" if v is None else ("%.3f ms" % v if v < 10 else "%.0f ms" % v)  # noqa: E731
        print("%-7s %6d | %9s %9s %9s | %9s %11s | %9s %9s" % (
            fmt, d["tracks"], pct(d["cw_len_ok"], d["tracks"]), pct(d["cw_exact"], d["tracks"]),
            pct(d["mpd_len_ok"], d["tracks"]), ms(d["cw_err_ms_max"]), ms(d["mpd_err_ms_median"]),
            pct(d["cw_tags_ok"], d["tracks"]), pct(d["mpd_tags_ok"], d["tracks"])))
    n = tot["tracks"]
    print("%-7s %6d | %9s %9s %9s | %9s %11s | %9s %9s" % (
        "all", n, pct(tot["cw_len_ok"], n), pct(tot["cw_exact"], n), pct(tot["mpd_len_ok"], n), "", "",
        pct(tot["cw_tags_ok"], n), pct(tot["mpd_tags_ok"], n)))
    for fmt, d in acc.items():
        if d["cw_missing"] or d["mpd_missing"] or d["mpd_no_len"]:
            print("  %s: not indexed: clickwheel %d, MPD %d; MPD without a duration: %d"
                  % (fmt, d["cw_missing"], d["mpd_missing"], d["mpd_no_len"]))
        if d["cw_tags_unread"]:
            print("  %s: clickwheel stored tag_format 'none' (no tag read; names from the path) for %d of %d files"
                  % (fmt, d["cw_tags_unread"], d["tracks"]))
        if d["cw_field_bad"] or d["mpd_field_bad"]:
            print("  %s tag mismatches by field: clickwheel %s; MPD %s"
                  % (fmt, d["cw_field_bad"] or "none", d["mpd_field_bad"] or "none"))
        for ex in d["cw_examples"]:
            print("    clickwheel %s: %s" % (fmt, json.dumps(ex, ensure_ascii=False)))
        for ex in d["mpd_examples"][:3]:
            print("    MPD %s: %s" % (fmt, json.dumps(ex, ensure_ascii=False)))
    return tot


def minimum_by_format(manifest):
    out = {}
    for t in manifest["tracks"]:
        d = out.setdefault(t["format"], {"tracks": 0, "bytes": 0, "minimum_bytes": 0, "needed_bytes": 0,
                                         "artwork_bytes": 0})
        d["tracks"] += 1
        for k in ("bytes", "minimum_bytes", "needed_bytes", "artwork_bytes"):
            d[k] += t["size" if k == "bytes" else k]
    return out


def resident_by_format(manifest, music):
    """Bytes of each format's files in the page cache now (mincore over a mapping that is never touched):
    after a cold index, what that index brought in from the corpus, read-ahead included."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    page = os.sysconf("SC_PAGE_SIZE")
    out = {}
    for t in manifest["tracks"]:
        fd = os.open(os.path.join(music, t["path"]), os.O_RDONLY)
        try:
            size = os.fstat(fd).st_size
            if not size:
                continue
            addr = libc.mmap(None, size, 1, 1, fd, 0)          # PROT_READ, MAP_SHARED
            if addr in (None, ctypes.c_void_p(-1).value):
                continue
            n = (size + page - 1) // page
            vec = (ctypes.c_ubyte * n)()
            libc.mincore(addr, size, vec)
            libc.munmap(addr, size)
            raw = bytes(vec)
            out[t["format"]] = out.get(t["format"], 0) + (n - raw.count(0)) * page
        finally:
            os.close(fd)
    return out


def median(rows, key):
    vals = [r[key] for r in rows if r.get(key) is not None]
    return statistics.median(vals) if vals else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="/tmp/clickwheel-mixed")
    ap.add_argument("--tracks", type=int, default=10000, help="when the corpus is made here")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shared", default=os.environ.get("CLICKWHEEL_SHARED", os.path.join(ROOT, "..", "shared")))
    ap.add_argument("--mpd", default=shutil.which("mpd") or "/usr/bin/mpd")
    ap.add_argument("--json", help="write every figure here")
    ap.add_argument("--binary", help="use this clickwheel binary instead of building the release one")
    ap.add_argument("--show", type=int, default=4, help="mismatch examples to print per format")
    ap.add_argument("--cold", action="store_true", help="drop the page cache before every index (root)")
    ap.add_argument("--read-ahead-kb", type=int, metavar="KB", help="with --cold: the corpus disk's read-ahead")
    a = ap.parse_args()
    if a.read_ahead_kb is not None and not a.cold:
        ap.error("--read-ahead-kb goes with --cold")
    if a.cold and os.geteuid() != 0:
        log("--cold needs root (drop_caches, read-ahead); skipped")
        return

    sys.path.insert(0, os.path.join(a.shared, "bench"))
    sys.path.insert(0, HERE)
    try:
        import mpd_anchor                      # noqa: E402  (MPD driver, from shared/)
    except ImportError:
        sys.exit("formats_bench.py needs mpd_anchor.py: pass --shared DIR (the folder holding bench/mpd_anchor.py)")
    import index_bench                         # noqa: E402  (warm(), run_clickwheel(), the cold helpers)
    import check_manifest                      # noqa: E402  (track_rows(), listed())

    manifest_path = os.path.join(a.corpus, "manifest.json")
    if not os.path.exists(manifest_path):
        log("making the mixed corpus in %s" % a.corpus)
        subprocess.run([sys.executable, os.path.join(HERE, "make_mixed_corpus.py"), "--out", a.corpus,
                        "--tracks", str(a.tracks)], check=True)
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

    work = tempfile.mkdtemp(prefix="cw-formats-bench-")
    db = os.path.join(work, "library.sqlite")
    mpd = mpd_anchor.Mpd(a.mpd, music, os.path.join(work, "mpd"))
    n = len(manifest["tracks"])
    res = {"date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "binary": binary, "tracks": n,
           "runs": a.runs, "mode": "cold" if a.cold else "warm", "clickwheel": [], "mpd": [],
           "mpd_version": subprocess.run([a.mpd, "--version"], capture_output=True, text=True).stdout.splitlines()[0]}
    ra_file = ra_before = None
    quiet = lambda msg: None  # noqa: E731
    try:
        if a.cold:
            ra_file = "/sys/block/%s/queue/read_ahead_kb" % index_bench.device_of(music)[1]
            ra_before = int(open(ra_file).read())
            if a.read_ahead_kb is not None:
                with open(ra_file, "w") as f:
                    f.write(str(a.read_ahead_kb))
            res["read_ahead_kb"] = int(open(ra_file).read())
            res["minimum"] = minimum_by_format(manifest)
        for r in range(a.runs):
            for who in (["mpd", "clickwheel"] if r % 2 == 0 else ["clickwheel", "mpd"]):
                if not a.cold:
                    index_bench.warm(music)
                load = mpd_anchor.loadavg()
                if who == "mpd":
                    if a.cold:
                        row = index_bench.cold_mpd(mpd_anchor, mpd)
                    else:
                        row = mpd_anchor.measure_full_index(mpd, 1, quiet, warmup=False)[0]
                        mpd.stop()
                else:
                    if a.cold:
                        row = index_bench.cold_clickwheel(binary, music, db, os.path.join(work, "out.json"))
                    else:
                        index_bench.drop_db(db)
                        row = index_bench.run_clickwheel(binary, music, db)
                row["load1"] = load
                if a.cold:
                    row["resident_by_format"] = resident_by_format(manifest, music)
                res[who].append(row)
                log("run %d %-10s %.2f s wall, %.2f s CPU%s" % (
                    r + 1, who, row["wall_s"], row["cpu_s"],
                    ", read_bytes %.1f MiB" % (row["read_bytes"] / MIB) if a.cold else
                    ", peak RSS %.1f MiB" % row["peak_rss_mib"]))
        # Accuracy on the last databases of both.
        _, _, c = mpd.start()
        songs = mpd_songs(c.raw("listallinfo"))
        c.close()
        mpd.stop()
        rows = check_manifest.track_rows(db)
        acc = accuracy(manifest, rows, songs, check_manifest.listed, a.show)
        res["accuracy"] = acc
        res["clickwheel_summary"] = res["clickwheel"][-1].get("summary")
    finally:
        mpd.stop()
        if ra_file and a.read_ahead_kb is not None:
            with open(ra_file, "w") as f:
                f.write(str(ra_before))
        shutil.rmtree(work, ignore_errors=True)

    cw, md = res["clickwheel"], res["mpd"]
    print("ClickWheel vs %s, mixed corpus of %d tracks (%s), %d runs each, %s, alternating; %s" % (
        res["mpd_version"], n, a.corpus, a.runs, "page cache dropped before each index (read-ahead %s KiB)"
        % res["read_ahead_kb"] if a.cold else "warm (corpus read just before each index)", res["date"]))
    by = {}
    for t in manifest["tracks"]:
        by[t["format"]] = by.get(t["format"], 0) + 1
    print("formats: " + ", ".join("%s %d" % kv for kv in sorted(by.items(), key=lambda kv: -kv[1]))
          + "; %.0f MiB" % (sum(t["size"] for t in manifest["tracks"]) / MIB))
    print("%-4s %20s %20s %10s %10s" % ("run", "wall s (cw / MPD)", "CPU s (cw / MPD)", "wall ratio", "load1"))
    for r in range(a.runs):
        x, y = cw[r], md[r]
        print("%-4d %20s %20s %10.3f %10s" % (r + 1, "%.2f / %.2f" % (x["wall_s"], y["wall_s"]),
                                              "%.2f / %.2f" % (x["cpu_s"], y["cpu_s"]), x["wall_s"] / y["wall_s"],
                                              "%.1f / %.1f" % (x["load1"], y["load1"])))
    ratios = [x["wall_s"] / y["wall_s"] for x, y in zip(cw, md)]
    print("%-36s %12s %12s %8s" % ("median", "clickwheel", "MPD", "ratio"))
    keys = [("full index, wall (s)", "wall_s", 1, "%.2f"), ("full index, CPU (s)", "cpu_s", 1, "%.2f")]
    if a.cold:
        keys += [("  of which system (s)", "sys_s", 1, "%.2f"), ("read_bytes (MiB)", "read_bytes", MIB, "%.1f"),
                 ("rchar (MiB)", "rchar", MIB, "%.1f")]
    else:
        keys += [("peak RSS (MiB)", "peak_rss_mib", 1, "%.1f")]
    for label, key, scale, fmt in keys:
        x, y = median(cw, key) / scale, median(md, key) / scale
        print("%-36s %12s %12s %8s" % (label, fmt % x, fmt % y, "%.2f" % (x / y) if y and key != "rchar" else "-"))
    print("wall clickwheel / MPD, same run: %s (median %.3f; goal <= 0.3)"
          % (", ".join("%.3f" % x for x in ratios), statistics.median(ratios)))
    res["wall_ratios"] = ratios
    if a.cold:
        mins = res["minimum"]
        total_min = sum(d["minimum_bytes"] for d in mins.values())
        res["minimum_bytes"] = total_min
        print("corpus minimum (tags without pictures + what a length needs, in 4 KiB pages): %.1f MiB of %.0f MiB"
              % (total_min / MIB, sum(d["bytes"] for d in mins.values()) / MIB))
        for fmt, d in sorted(mins.items(), key=lambda kv: -kv[1]["bytes"]):
            print("  %-7s %5d files %8.0f MiB, minimum %6.1f MiB (%5.2f %%; bytes needed %.1f MiB, artwork %.1f MiB)"
                  % (fmt, d["tracks"], d["bytes"] / MIB, d["minimum_bytes"] / MIB, 100 * d["minimum_bytes"] / d["bytes"],
                     d["needed_bytes"] / MIB, d["artwork_bytes"] / MIB))
        print("read_bytes / minimum: clickwheel %.2f, MPD %.2f (goal for clickwheel <= 1.5)"
              % (median(cw, "read_bytes") / total_min, median(md, "read_bytes") / total_min))
        print("by format: the corpus's pages in the page cache right after each cold index (mincore; what the"
              " index brought in, read-ahead included), median, against the format's minimum:")
        print("  %-7s %10s %12s %12s %9s %9s" % ("format", "min MiB", "cw MiB", "MPD MiB", "cw/min", "MPD/min"))
        for fmt, d in sorted(mins.items(), key=lambda kv: -kv[1]["bytes"]):
            x = statistics.median(r["resident_by_format"].get(fmt, 0) for r in cw)
            y = statistics.median(r["resident_by_format"].get(fmt, 0) for r in md)
            print("  %-7s %10.1f %12.1f %12.1f %9.2f %9.2f" % (fmt, d["minimum_bytes"] / MIB, x / MIB, y / MIB,
                                                            x / d["minimum_bytes"], y / d["minimum_bytes"]))
        off = [row for row in cw + md if abs(row["wait4_read_bytes"] - row["read_bytes"]) > MIB]
        if off:
            print("note: /proc/PID/io and wait4 differ by more than 1 MiB in %d runs" % len(off))
    res["totals"] = print_accuracy(res["accuracy"])
    s = res.get("clickwheel_summary") or {}
    if s:
        print("clickwheel's summary of its last index: %s" % json.dumps(s, sort_keys=True))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
