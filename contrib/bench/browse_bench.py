#!/usr/bin/env python3
"""Browsing benchmark: the commands MPD clients send to browse a library (list, count, find, search,
lsinfo, sticker find), ClickWheel against MPD 0.23 on the same corpus, both running, in the same run.

    python3 contrib/bench/browse_bench.py [--corpus /tmp/clickwheel-corpus] [--calls 15] [--binary BIN]

Both servers hold the same 10,000-track library (made with ../shared/bench/make_corpus.py when it is
missing). Each command is sent on one connection per server, the two servers taking turns call by call
(so both meet the same load from the rest of the machine); the table gives the median time of each, the
ratio (ClickWheel / MPD) and whether the answers are byte for byte the same (they differ where
ClickWheel decodes ID3v1 genre numbers, which MPD 0.23 shows as "(13)", and where the music folder's
playlists are listed). The first call of a command pays ClickWheel's one read of the library's songs
(kept in memory until the library changes); its time is shown apart.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from socket_bench import ClickWheel, log, prepare, rss_mib, server_arguments  # noqa: E402


RATED = 12


def with_sticker_file(mpd):
    """MPD answers `sticker` only with a sticker database: one in its own folder."""
    with open(mpd.conf, "a") as f:
        f.write('sticker_file        "%s"\n' % os.path.join(mpd.work, "sticker.sql"))


def timed(client, command):
    t0 = time.perf_counter()
    body = client.raw(command)
    return time.perf_counter() - t0, body


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    server_arguments(ap)
    ap.add_argument("--calls", type=int, default=15)
    a = ap.parse_args()
    music, binary = prepare(a)
    import mpd_anchor  # noqa: E402

    work = tempfile.mkdtemp(prefix="cw-browse-bench-")
    cw = ClickWheel(binary, music, os.path.join(work, "clickwheel"))
    mpd = mpd_anchor.Mpd(a.mpd, music, os.path.join(work, "mpd"))
    with_sticker_file(mpd)
    log("indexing for both servers")
    cw.index()
    try:
        _, _, m = mpd.start()
        m.raw("update")
        mpd_anchor.wait_update_done(m)
        c = cw.start()
        # Real values to browse into: an album artist with several albums, one of its albums, a genre.
        pairs = [line.split(": ", 1)[1] for line in m.raw("list albumartist").decode().split("\n") if line]
        artist = pairs[len(pairs) // 3]
        album = [line.split(": ", 1)[1] for line in m.raw('list album albumartist "%s"' % artist).decode().split("\n")
                 if line][0]
        genre = [line.split(": ", 1)[1] for line in m.raw("list genre").decode().split("\n") if line][-1]
        # The same few songs rated on both servers, for `sticker find`.
        files = [line.split(": ", 1)[1] for line in m.raw("listall").decode().split("\n") if line.startswith("file: ")]
        for i, path in enumerate(files[::len(files) // RATED][:RATED]):
            for client in (m, c):
                client.raw('sticker set song "%s" rating %d' % (path.replace("\\", "\\\\").replace('"', '\\"'), 2 + i % 9))
        commands = [
            "list albumartist",
            "list album group albumartist",
            'list album albumartist "%s"' % artist,
            'find albumartist "%s" album "%s"' % (artist, album),
            "list artist",
            "list genre",
            'list artist genre "%s"' % genre,
            'count genre "%s"' % genre,
            "count group albumartist",
            'search any "%s"' % artist.split()[0].lower(),
            "find \"(Genre == '%s')\" sort Title window 0:50" % genre,
            "lsinfo",
            'sticker find song "" rating',
        ]
        rows = []
        for command in commands:
            first, _ = timed(c, command)
            mt, ct, same = [], [], True
            for _ in range(a.calls):
                t, mb = timed(m, command)
                mt.append(t)
                t, cb = timed(c, command)
                ct.append(t)
                same = same and mb == cb
            rows.append((command, statistics.median(ct), statistics.median(mt), first, same))
            log("%-60s clickwheel %.2f ms, MPD %.2f ms" % (command, 1000 * rows[-1][1], 1000 * rows[-1][2]))
        rss = rss_mib(cw.pid), rss_mib(mpd.pid)
    finally:
        mpd.stop()
        cw.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("| command (10k songs, median of %d) | clickwheel | MPD 0.23 | ratio | same bytes |" % a.calls)
    print("| --- | --- | --- | --- | --- |")
    for command, ct, mt, first, same in rows:
        print("| `%s` | %.2f ms (first %.1f) | %.2f ms | %.2f | %s |" % (
            command.replace("|", "\\|"), 1000 * ct, 1000 * first, 1000 * mt, ct / mt, "yes" if same else "no"))
    print("| server RSS after these | %.1f MiB | %.1f MiB | %.2f | |" % (rss[0], rss[1], rss[0] / rss[1]))


if __name__ == "__main__":
    main()
