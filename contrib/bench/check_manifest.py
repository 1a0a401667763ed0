#!/usr/bin/env python3
"""Compares a ClickWheel library database with make_corpus.py's manifest.

    python3 check_manifest.py --db library.sqlite --manifest corpus/manifest.json [--show 10] [--json]

Prints the share of tracks whose stored duration is within 1 ms of the manifest's true (gapless)
length, and the share whose tags equal the manifest's `expected` values, field by field, with the
first mismatches of each field. Exit status 0 always (it measures; the caller judges).
"""
import argparse
import json
import sqlite3
import sys
from collections import Counter, defaultdict


def track_rows(db):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    values = defaultdict(lambda: defaultdict(list))
    for r in con.execute("SELECT track_id, field, position, value FROM track_values ORDER BY track_id, field, position"):
        values[r["track_id"]][r["field"]].append(r["value"])
    rows = {}
    for r in con.execute("SELECT t.*, e.release_date, e.description, e.feed_url AS ep_feed_url "
                         "FROM tracks t LEFT JOIN podcast_episodes e ON e.track_id = t.id"):
        path = r["path"]
        if r["path_bytes"] is not None:
            path = bytes(r["path_bytes"]).decode("utf-8", "replace")
        d = dict(r)
        d["_values"] = values.get(r["id"], {})
        rows[path] = d
    return rows


def listed(row, field, column):
    vals = row["_values"].get(field)
    if vals:
        return vals
    v = row[column]
    return [v] if v is not None else []


def compare(row, exp):
    """Yields (field, expected, got) for every mismatch."""
    def check(field, want, got):
        if want != got:
            yield field, want, got
    for field, column in (("title", "title"), ("album", "album")):
        if field in exp:
            yield from check(field, exp[field], row[column])
    if "artist" in exp:
        want = exp["artist"] if isinstance(exp["artist"], list) else [exp["artist"]]
        yield from check("artist", want, listed(row, "artist", "artist"))
    if "albumartist" in exp:
        want = exp["albumartist"] if isinstance(exp["albumartist"], list) else [exp["albumartist"]]
        yield from check("albumartist", want, listed(row, "album_artist", "album_artist"))
    if "genre" in exp:
        want = exp["genre"] if isinstance(exp["genre"], list) else [exp["genre"]]
        yield from check("genre", want, listed(row, "genre", "genre"))
    if "composer" in exp:
        want = exp["composer"] if isinstance(exp["composer"], list) else [exp["composer"]]
        yield from check("composer", want, listed(row, "composer", "composer"))
    for field, column in (("track", "track_number"), ("track_total", "track_total"), ("disc", "disc_number"),
                          ("disc_total", "disc_total")):
        if field in exp:
            yield from check(field, exp[field], row[column])
    if "date" in exp:
        yield from check("date", str(exp["date"]), row["date"])
    if "compilation" in exp:
        yield from check("compilation", bool(exp["compilation"]), bool(row["is_compilation"]))
    if "podcast" in exp:
        yield from check("podcast", bool(exp["podcast"]), bool(row["is_podcast"]))
    if "artwork" in exp:
        yield from check("artwork", bool(exp["artwork"]), bool(row["has_artwork"]))
    if "replaygain" in exp and exp["replaygain"]:
        rg = exp["replaygain"]
        for key, column in (("track_gain", "rg_track_gain"), ("album_gain", "rg_album_gain")):
            if key in rg:
                want = float(str(rg[key]).lower().replace("db", "").strip())
                got = row[column]
                if got is None or abs(got - want) > 0.005:
                    yield "rg_" + key, want, got
    sort = exp.get("sort") or {}
    for key, column in (("title", "sort_title"), ("artist", "sort_artist"), ("album", "sort_album"),
                        ("albumartist", "sort_album_artist")):
        if key in sort:
            yield from check("sort_" + key, sort[key], row[column])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--show", type=int, default=5, help="mismatches to print per field")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    manifest = json.load(open(a.manifest, encoding="utf-8"))
    rows = track_rows(a.db)
    total = len(manifest["tracks"])
    missing, dur_ok, tags_ok = [], 0, 0
    field_bad = Counter()
    examples = defaultdict(list)
    dur_err = []
    for t in manifest["tracks"]:
        row = rows.get(t["path"])
        if row is None:
            missing.append(t["path"])
            continue
        err = abs(row["duration_ms"] - t["duration_ms"])
        dur_err.append(err)
        if err <= 1.0:
            dur_ok += 1
        elif len(examples["duration"]) < a.show:
            examples["duration"].append((t["path"], t["duration_ms"], row["duration_ms"]))
        bad = list(compare(row, t.get("expected", {})))
        if not bad:
            tags_ok += 1
        for field, want, got in bad:
            field_bad[field] += 1
            if len(examples[field]) < a.show:
                examples[field].append((t["path"], want, got))
    result = {
        "tracks": total, "indexed": total - len(missing),
        "durations_within_1ms": dur_ok / total if total else 0,
        "tags_exact": tags_ok / total if total else 0,
        "max_duration_error_ms": max(dur_err) if dur_err else None,
        "mismatches_by_field": dict(field_bad),
    }
    if a.json:
        print(json.dumps(result, sort_keys=True))
        return
    print(f"tracks in manifest: {total}, indexed: {total - len(missing)}")
    print(f"durations within 1 ms: {dur_ok}/{total} ({100 * result['durations_within_1ms']:.2f} %), "
          f"max error {result['max_duration_error_ms']:.3f} ms")
    print(f"tags exactly as in the manifest: {tags_ok}/{total} ({100 * result['tags_exact']:.2f} %)")
    for p in missing[: a.show]:
        print(f"  missing: {p}")
    for field, n in field_bad.most_common():
        print(f"  {field}: {n} mismatches")
    for field, items in examples.items():
        for path, want, got in items:
            print(f"    {field}: {path}: expected {want!r}, stored {got!r}")


if __name__ == "__main__":
    sys.exit(main())
