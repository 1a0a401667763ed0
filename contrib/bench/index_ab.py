#!/usr/bin/env python3
"""A/B of two `clickwheel index` binaries (e.g. before and after a change) on the same corpus.

    python3 contrib/bench/index_ab.py BEFORE AFTER [RUNS] [--corpus /tmp/clickwheel-corpus]

Each run indexes the corpus into an empty database, then rescans it unchanged, with each binary,
alternating which goes first; prints every run and the medians of wall time, CPU (user+sys, from
/usr/bin/time: 10 ms ticks) and peak RSS, with the ratio AFTER / BEFORE. Uses index_bench.py's runner.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import index_bench as ib  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("runs", type=int, nargs="?", default=5)
    ap.add_argument("--corpus", default="/tmp/clickwheel-corpus")
    a = ap.parse_args()
    music = os.path.join(a.corpus, "music")
    rows = {"before": [], "after": []}
    tmp = tempfile.mkdtemp(prefix="cw-index-ab-")
    for r in range(a.runs):
        order = [("before", a.before), ("after", a.after)]
        for name, binary in order if r % 2 == 0 else reversed(order):
            db = os.path.join(tmp, name + ".sqlite")
            ib.drop_db(db)
            full = ib.run_clickwheel(binary, music, db)
            again = ib.run_clickwheel(binary, music, db)
            rows[name].append({"full_wall": full["wall_s"], "full_cpu": full["cpu_s"], "rss": full["peak_rss_mib"],
                               "rescan_wall": again["wall_s"], "rescan_cpu": again["cpu_s"]})
            print(name, r, json.dumps(rows[name][-1]), flush=True)
    for k in ("full_wall", "full_cpu", "rss", "rescan_wall", "rescan_cpu"):
        b = statistics.median(x[k] for x in rows["before"])
        n = statistics.median(x[k] for x in rows["after"])
        print("%-12s before %8.3f  after %8.3f  after/before %.3f" % (k, b, n, n / b))


if __name__ == "__main__":
    main()
