#!/usr/bin/env python3
"""Playback CPU of two clickwheel binaries side by side (e.g. an -O and an -Osize build), with mpg123 beside.

    eval "$(contrib/ci/pulse-start.sh)"
    python3 contrib/package/compare-playback.py A_BINARY B_BINARY --mp3 FILE --seconds 60 [--rounds 2]

Each round plays the same VBR MP3 three ways at once on the PulseAudio null sink: the service built as A,
the service built as B (each `clickwheel run --display none --input none` on the file's folder, told to
`play` over its socket), and `mpg123 -q -o pulse` as the anchor. Side by side, all three meet the same load
from the rest of the machine. A service's CPU is the time on CPU of all its threads from `play` to the end
of the song (contrib/bench/playback_bench.py's measure, whose helpers this uses). Prints CPU s per audio
minute of each, B/A, and each against mpg123; the A/B order of the `play` commands alternates by round.
"""
import argparse
import os
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from playback_bench import Client, Service, cpu_ns, reap, start, wait_until_stopped  # noqa: E402


def one_round(services, order, mp3_name, mp3_path, seconds):
    clients = {}
    for name in order:
        c = Client(services[name].socket)
        c("stop")
        c("clear")
        c('add "%s"' % mp3_name)
        clients[name] = c
    mpg = start(["mpg123", "-q", "-o", "pulse", mp3_path])
    cpu0 = {name: cpu_ns(services[name].proc.pid) for name in order}
    for name in order:
        clients[name]("play")
    # Each client waits in its own thread (`idle player`): a client left silent while the other's song
    # plays would be closed by the service's idle timeout.
    cpu = {}

    def wait(name):
        wait_until_stopped(clients[name])
        cpu[name] = (cpu_ns(services[name].proc.pid) - cpu0[name]) / 1e9
        clients[name].close()

    threads = [threading.Thread(target=wait, args=(name,)) for name in order]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if set(cpu) != set(order):
        raise RuntimeError("a service did not finish the song (see its service.log)")
    cpu["mpg123"] = reap(mpg)
    minutes = seconds / 60
    return {k: v / minutes for k, v in cpu.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="binary A (the reference, e.g. -O)")
    ap.add_argument("b", help="binary B (e.g. -Osize)")
    ap.add_argument("--mp3", required=True, help="the VBR file (its folder becomes the music folder)")
    ap.add_argument("--seconds", type=float, required=True, help="the file's length")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    if not os.environ.get("PULSE_SERVER"):
        sys.exit("compare-playback.py: PULSE_SERVER must name the null sink's server (contrib/ci/pulse-start.sh)")
    music = os.path.dirname(os.path.abspath(args.mp3))
    services = {}
    try:
        for name, binary in (("A", args.a), ("B", args.b)):
            services[name] = Service(binary, music, tempfile.mkdtemp(prefix="cw-cmp-playback-%s-" % name))
        tot = {"A": 0.0, "B": 0.0, "mpg123": 0.0}
        for i in range(args.rounds):
            order = ["A", "B"] if i % 2 == 0 else ["B", "A"]
            r = one_round(services, order, os.path.basename(args.mp3), os.path.abspath(args.mp3), args.seconds)
            for k in tot:
                tot[k] += r[k]
            print("round %d (%s first)  CPU s per audio minute: A %.4f  B %.4f  mpg123 %.4f   B/A %.3f"
                  "  A/mpg123 %.3f  B/mpg123 %.3f"
                  % (i + 1, order[0], r["A"], r["B"], r["mpg123"], r["B"] / r["A"], r["A"] / r["mpg123"],
                     r["B"] / r["mpg123"]), flush=True)
            time.sleep(1)
        print("all rounds  B/A %.3f  A/mpg123 %.3f  B/mpg123 %.3f"
              % (tot["B"] / tot["A"], tot["A"] / tot["mpg123"], tot["B"] / tot["mpg123"]), flush=True)
    finally:
        for s in services.values():
            s.stop()


if __name__ == "__main__":
    main()
