#!/usr/bin/env python3
"""Makes a big library database from an indexed one: every artist, album and track copied N times.

    python3 grow_library.py --source library.sqlite --dest big.sqlite --factor 10

Copy k gets paths under "copy k/", artist names and album titles suffixed " (k)", so a 10,000-track
corpus becomes a realistic 100,000-track database (10x the artists and albums, same genres). Menu
positions are recomputed afterwards by `clickwheel-bench DB --renumber`.
"""
import argparse
import os
import shutil
import sqlite3

ap = argparse.ArgumentParser()
ap.add_argument("--source", required=True)
ap.add_argument("--dest", required=True)
ap.add_argument("--factor", type=int, default=10)
a = ap.parse_args()

for suffix in ("", "-wal", "-shm"):
    if os.path.exists(a.dest + suffix):
        os.unlink(a.dest + suffix)
src = sqlite3.connect(a.source)
src.execute("PRAGMA wal_checkpoint(TRUNCATE)")
src.close()
shutil.copyfile(a.source, a.dest)
db = sqlite3.connect(a.dest)
db.execute("PRAGMA foreign_keys = OFF")
STEP = 10_000_000
cols = [r[1] for r in db.execute("PRAGMA table_info(tracks)")]
with db:
    for k in range(1, a.factor):
        off = k * STEP
        db.execute(f"""INSERT INTO artists (id, name, sort_key, is_various, ord)
                       SELECT id + {off}, name || ' ({k})', sort_key || ' ({k})', is_various, NULL FROM artists
                       WHERE id < {STEP}""")
        db.execute(f"""INSERT INTO albums (id, title, artist_id, sort_key, is_compilation, year, ord)
                       SELECT id + {off}, title || ' ({k})', artist_id + {off}, sort_key || ' ({k})', is_compilation,
                       year, NULL FROM albums WHERE id < {STEP}""")
        select = []
        for c in cols:
            if c == "id": select.append(f"id + {off}")
            elif c == "path": select.append(f"'copy {k}/' || path")
            elif c in ("artist_id", "album_id"): select.append(f"{c} + {off}")
            elif c == "album": select.append(f"album || ' ({k})'")
            elif c == "album_key": select.append(f"album_key || ' ({k})'")
            elif c == "ord": select.append("NULL")
            else: select.append(c)
        db.execute(f"INSERT INTO tracks ({', '.join(cols)}) SELECT {', '.join(select)} FROM tracks WHERE id < {STEP}")
        db.execute(f"""INSERT INTO track_values SELECT track_id + {off}, field, position, value FROM track_values
                       WHERE track_id < {STEP}""")
        db.execute(f"""INSERT INTO podcast_episodes SELECT track_id + {off}, show_id, release_date, description, feed_url
                       FROM podcast_episodes WHERE track_id < {STEP}""")
print(f"{a.dest}: {db.execute('SELECT count(*) FROM tracks').fetchone()[0]} tracks, "
      f"{db.execute('SELECT count(*) FROM artists').fetchone()[0]} artists, "
      f"{db.execute('SELECT count(*) FROM albums').fetchone()[0]} albums")
db.close()
