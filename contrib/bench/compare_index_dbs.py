#!/usr/bin/env python3
"""Compares two ClickWheel library databases table by table, column by column (issue 23).

    python3 contrib/bench/compare_index_dbs.py OLD.sqlite NEW.sqlite [--exclude table.column ...]

Made to show that a scanner change stores the same bytes: index the same folder with both binaries
into empty databases, then compare. Every table of either file, every row (ordered by all its
columns, so tables without a rowid compare too), every column by value and storage class; the
columns in --exclude (default: tracks.added_at, the run's clock) are left out. Prints one line per
table and the first differing rows; exits 1 on any difference.
"""
import argparse
import sqlite3
import sys


def rows(db, table, excluded):
    cols = [r[1] for r in db.execute('PRAGMA table_info("%s")' % table)]
    keep = [c for c in cols if "%s.%s" % (table, c) not in excluded]
    order = ", ".join(str(i + 1) for i in range(len(keep))) or "1"
    sel = ", ".join('"%s", typeof("%s")' % (c, c) for c in keep)
    return keep, db.execute('SELECT %s FROM "%s" ORDER BY %s' % (sel, table, order)).fetchall() if keep else []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--exclude", nargs="*", default=["tracks.added_at"])
    a = ap.parse_args()
    excluded = set(a.exclude)
    old, new = sqlite3.connect(a.old), sqlite3.connect(a.new)
    q = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    tables = sorted(set(r[0] for r in old.execute(q)) | set(r[0] for r in new.execute(q)))
    different = 0
    for t in tables:
        try:
            oc, o = rows(old, t, excluded)
            nc, n = rows(new, t, excluded)
        except sqlite3.OperationalError as e:
            print("%-20s MISSING in one file: %s" % (t, e))
            different += 1
            continue
        same = oc == nc and o == n
        cells = sum(len(r) // 2 for r in o)
        print("%-20s %7d rows %9d values %s" % (t, len(o), cells, "same" if same else "DIFFERENT"))
        if not same:
            different += 1
            for i, (x, y) in enumerate(zip(o, n)):
                if x != y:
                    print("  first difference at row %d:\n    old %r\n    new %r" % (i, x, y))
                    break
            if len(o) != len(n):
                print("  old has %d rows, new %d" % (len(o), len(n)))
    print("excluded: %s" % (", ".join(sorted(excluded)) or "nothing"))
    print("RESULT: %s" % ("identical" if not different else "%d tables differ" % different))
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()
