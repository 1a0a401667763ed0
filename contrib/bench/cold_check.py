#!/usr/bin/env python3
"""One cold full index of the corpus by one clickwheel binary, no peer (issue 23): drops the page cache
(root), runs `clickwheel index` into an empty DB, prints wall, CPU, the bytes read from storage
(wait4 ru_inblock) and peak RSS. For a cap, run it inside a blkio cgroup; for read-ahead, set
/sys/block/DEV/queue/read_ahead_kb first. index_bench.py --cold is the full comparison with MPD.

    python3 contrib/bench/cold_check.py BINARY DB [MUSIC]
"""
import os, resource, subprocess, sys, time
binary, db = sys.argv[1], sys.argv[2]
for p in (db, db + "-wal", db + "-shm"):
    if os.path.exists(p): os.remove(p)
subprocess.run("sync; echo 3 > /proc/sys/vm/drop_caches", shell=True, check=True)
before = resource.getrusage(resource.RUSAGE_CHILDREN)
t = time.perf_counter()
subprocess.run([binary, "index", "--music", (sys.argv[3] if len(sys.argv) > 3 else "/tmp/clickwheel-corpus/music"), "--db", db, "--json"], check=True,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.perf_counter() - t
after = resource.getrusage(resource.RUSAGE_CHILDREN)
print("wall %.2f s cpu %.2f s read %.0f MiB rss %.0f MiB" % (wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
      (after.ru_inblock - before.ru_inblock) * 512 / 2**20, after.ru_maxrss / 1024))
