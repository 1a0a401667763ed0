#!/usr/bin/env python3
"""The podcast feed parser against peers, in one run (issue 34).

Writes an RSS 2.0 feed of ITEMS items with the iTunes tags (the shape of Tests/PodcastsTests' FeedSamples.big:
title, guid, pubDate, enclosure, duration, episode, CDATA show notes, summary; 295 KB for 500),
builds contrib/bench/feed/FeedBench.swift with the feed half of Sources/Podcasts (swiftc -O -wmo, into
.build-bench/feed/), and in ROUNDS rounds, taking turns, times:
  - ClickWheel: FeedParser.parse (the median of RUNS parses in one process),
  - Python feedparser 6 (pip install feedparser), the usual podcast-client parser, on the same bytes,
  - xml.etree.ElementTree.fromstring of the same bytes (expat, building a tree and mapping nothing: a floor
    for any parser that maps fields in Python).
Prints each round and the medians with ratios.

  python3 contrib/bench/feed_bench.py [--items 500] [--rounds 5] [--runs 50]
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

repo = pathlib.Path(__file__).resolve().parents[2]


def make_feed(count):
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" '
           'xmlns:content="http://purl.org/rss/1.0/modules/content/">\n<channel><title>Big Show</title>'
           '<link>https://big.example/</link><description>Many episodes</description>\n'
           '<itunes:author>Big</itunes:author><itunes:image href="https://big.example/a.jpg"/>\n']
    for n in range(count, 0, -1):
        out.append(
            f'<item><title>Episode {n}: a title of some length &amp; more</title><guid isPermaLink="false">big-{n}</guid>\n'
            f'<pubDate>Mon, {n % 28 + 1} Jan 2024 06:00:00 +0000</pubDate>\n'
            f'<enclosure url="https://cdn.big.example/episodes/{n}.mp3" length="{n * 1000}" type="audio/mpeg"/>\n'
            f'<itunes:duration>{n % 3}:{n % 60:02d}:00</itunes:duration><itunes:episode>{n}</itunes:episode>\n'
            f'<description><![CDATA[<p>Show notes for episode {n}, with <a href="https://big.example/{n}">links</a> and a few '
            f'sentences of text to make the item the size of a real one.</p>]]></description>\n'
            f'<itunes:summary>Show notes for episode {n}.</itunes:summary></item>\n')
    out.append('</channel></rss>\n')
    return ''.join(out).encode()


def build():
    out = repo / '.build-bench' / 'feed'
    out.mkdir(parents=True, exist_ok=True)
    binary = out / 'feed-bench'
    sources = sorted(str(p) for p in (repo / 'Sources/Podcasts/Feed').glob('*.swift'))
    sources.append(str(repo / 'contrib/bench/feed/FeedBench.swift'))
    if not binary.exists() or any(os.path.getmtime(s) > os.path.getmtime(binary) for s in sources):
        subprocess.run(['swiftc', '-swift-version', '6', '-parse-as-library', '-O', '-wmo', '-module-name', 'FeedBench',
                        *sources, '-o', str(binary)], check=True, cwd=out)
    return binary


def time_python(parse, data, runs):
    parse(data)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        parse(data)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--items', type=int, default=500)
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--runs', type=int, default=50)
    args = ap.parse_args()
    data = make_feed(args.items)
    path = pathlib.Path('/tmp/clickwheel-feed-bench.xml')
    path.write_bytes(data)
    binary = build()
    try:
        import feedparser
    except ImportError:
        feedparser = None
        print('feedparser not installed (pip install feedparser): only the xml.etree floor', file=sys.stderr)
    rows = []
    for r in range(args.rounds):
        swift = json.loads(subprocess.run([str(binary), str(path), str(args.runs)], check=True, capture_output=True,
                                          text=True).stdout)
        assert swift['items'] == args.items, swift
        etree = time_python(ET.fromstring, data, args.runs)
        fp = None
        if feedparser:
            parsed = feedparser.parse(data)
            assert len(parsed.entries) == args.items
            fp = time_python(feedparser.parse, data, max(3, args.runs // 10))
        rows.append((swift['median_ms'], fp, etree))
        print(f'round {r + 1}: clickwheel {swift["median_ms"]:.2f} ms, feedparser '
              f'{"-" if fp is None else f"{fp:.1f} ms"}, xml.etree {etree:.2f} ms')
    cw = statistics.median(r[0] for r in rows)
    et = statistics.median(r[2] for r in rows)
    print(f'{args.items} items, {len(data)} bytes, median of {args.rounds} rounds:')
    print(f'  clickwheel FeedParser.parse  {cw:.2f} ms')
    if feedparser:
        fp = statistics.median(r[1] for r in rows)
        print(f'  feedparser {feedparser.__version__}           {fp:.1f} ms   (clickwheel {cw / fp:.3f}x its time)')
    print(f'  xml.etree.fromstring         {et:.2f} ms   (clickwheel {cw / et:.2f}x its time)')


if __name__ == '__main__':
    main()
