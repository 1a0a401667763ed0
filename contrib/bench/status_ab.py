#!/usr/bin/env python3
"""`status` CPU per request of servers already running, taking turns in one run (A/B of two builds).

    python3 contrib/bench/status_ab.py REQUESTS CONNECTIONS NAME:PID:SOCKET... [ROUNDS=9 in the environment]

Start the servers first (for example two clickwheel binaries on copies of one database, and nio-floor
with a saved `status` answer; name the floor last to read each one's difference to it). Each round sends
REQUESTS `status` requests over CONNECTIONS connections to each server in turn and reads the server's
CPU (all threads, /proc/PID/task/*/schedstat) before and after; it prints each server's median and every
round's figure in microseconds.
"""
import os
import socket
import statistics
import sys


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
    for _ in range(requests // connections):
        for s in clients:
            s.sendall(b"status\n")
        for s in clients:
            answer = b""
            while not answer.endswith(b"OK\n"):
                answer += s.recv(4096)
    for s in clients:
        s.close()


def main():
    requests, connections = int(sys.argv[1]), int(sys.argv[2])
    servers = [(name, int(pid), path) for name, pid, path in (a.split(":", 2) for a in sys.argv[3:])]
    rounds = int(os.environ.get("ROUNDS", "9"))
    per_request = {name: [] for name, _, _ in servers}
    for _ in range(rounds):
        for name, pid, path in servers:
            before = cpu_ns(pid)
            load(path, requests, connections)
            per_request[name].append((cpu_ns(pid) - before) / requests / 1000)
    for name, figures in per_request.items():
        print("%-10s median %.2f µs  (%s)" % (name, statistics.median(figures), " ".join("%.2f" % x for x in figures)))
    # Each server against the last one named, round by round (the rounds share the machine's moods): the
    # median of those differences moves less than the difference of the medians.
    last = servers[-1][0]
    for name, _, _ in servers[:-1]:
        paired = [a - b for a, b in zip(per_request[name], per_request[last])]
        print("%-10s minus %s, median of the rounds' differences: %+.2f µs" % (name, last, statistics.median(paired)))


if __name__ == "__main__":
    main()
