#!/usr/bin/env python3
"""`status` CPU per request of servers already running, taking turns in one run (A/B of two builds).

    python3 contrib/bench/status_ab.py REQUESTS CONNECTIONS NAME:PID:SOCKET... [ROUNDS=9 in the environment]

Start the servers first (for example two clickwheel binaries on copies of one database, and nio-floor
with a saved `status` answer; name the floor last to read each one's difference to it). Each round sends
REQUESTS `status` requests over CONNECTIONS connections to each server in turn and reads the server's
CPU (all threads, /proc/PID/task/*/schedstat) before and after; it prints each server's median and every
round's figure in microseconds, then each server's p99 of a pass (one request on every connection, all
answers read) and its throughput, medians of the rounds.
"""
import os
import socket
import statistics
import sys
import time


def cpu_ns(pid):
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total += int(f.read().split()[0])
        except OSError:
            pass  # a thread that ended meanwhile
    return total


def load(path, requests, connections):
    clients = []
    for _ in range(connections):
        s = socket.socket(socket.AF_UNIX)
        s.connect(path)
        s.recv(100)  # the greeting
        clients.append(s)
    waits = []  # one per pass: from the first request sent to the last answer read
    start = time.perf_counter()
    for _ in range(requests // connections):
        sent = time.perf_counter()
        for s in clients:
            s.sendall(b"status\n")
        for s in clients:
            answer = b""
            while not answer.endswith(b"OK\n"):
                answer += s.recv(4096)
        waits.append(time.perf_counter() - sent)
    wall = time.perf_counter() - start
    for s in clients:
        s.close()
    waits.sort()
    return waits[int(0.99 * (len(waits) - 1))], requests / wall


def main():
    requests, connections = int(sys.argv[1]), int(sys.argv[2])
    servers = [(name, int(pid), path) for name, pid, path in (a.split(":", 2) for a in sys.argv[3:])]
    rounds = int(os.environ.get("ROUNDS", "9"))
    per_request = {name: [] for name, _, _ in servers}
    p99 = {name: [] for name, _, _ in servers}
    rate = {name: [] for name, _, _ in servers}
    for _ in range(rounds):
        for name, pid, path in servers:
            before = cpu_ns(pid)
            worst, per_second = load(path, requests, connections)
            per_request[name].append((cpu_ns(pid) - before) / requests / 1000)
            p99[name].append(worst * 1000)
            rate[name].append(per_second)
    for name, figures in per_request.items():
        print("%-10s median %.2f µs  (%s)" % (name, statistics.median(figures), " ".join("%.2f" % x for x in figures)))
    for name, _, _ in servers:
        print("%-10s p99 of a pass (all CONNECTIONS answered) %.3f ms, throughput %.0f/s (medians of the rounds)" % (
            name, statistics.median(p99[name]), statistics.median(rate[name])))
    # Each server against the last one named, round by round (the rounds share the machine's moods): the
    # median of those differences moves less than the difference of the medians.
    last = servers[-1][0]
    for name, _, _ in servers[:-1]:
        paired = [a - b for a, b in zip(per_request[name], per_request[last])]
        print("%-10s minus %s, median of the rounds' differences: %+.2f µs" % (name, last, statistics.median(paired)))


if __name__ == "__main__":
    main()
