#!/usr/bin/env python3
"""The web remote under load: 50 browsers' WebSockets watching while one more turns the wheel.

Starts `clickwheel run` (no display, null audio) with the web remote on a small generated library (sox +
lame), opens WATCHERS WebSocket clients (the page's own protocol, with its Origin) and one spinner that
sends 20° wheel deltas as the page does, one step at a time on the main menu (down, up, down…: every step
moves the cursor, so every step makes a frame, and the reversals keep the acceleration at rest). For each
step it measures, in every client, the time from sending the angle to receiving the frame it made: input
through the socket, the engine's step, the frame encoded once and written to all clients. Printed: p50,
p99 and max over all clients and steps, and the same with no watchers (the engine's step → frame path
alone), so the cost of 50 watchers shows, and the p99 of each step's first receipt (the server's path
without this one-threaded client reading 51 sockets in turn). Goal: p99 ≤ 50 ms with 50 watchers.

Then the engine's side alone: the control socket's `wheel 1` / `wheel -1` (answered once the step's effects
are carried out: the frame drawn and handed to the web remote), timed with no browser and with WATCHERS
WebSockets reading every frame in another process, in turns of 50 steps, same run, with the CPU time each
of the service's threads spent per step (/proc schedstat): the web remote's loop apart, the rest (the
engine's queue, the control socket) must not grow with the watchers.

Usage: contrib/bench/web_load.py [--binary .build/release/clickwheel] [--watchers 50] [--steps 200]
"""
import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "ci/web"))
from fixtures import MPD, free_port, make_library, wait_for  # noqa: E402


class WS:
    """A minimal WebSocket client (text frames, masked as a browser's)."""

    async def open(self, port):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        self.writer.write((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                           f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        sock = self.writer.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return self

    async def recv(self):
        b0, b1 = await self.reader.readexactly(2)
        n = b1 & 0x7F
        if n == 126:
            n = int.from_bytes(await self.reader.readexactly(2), "big")
        elif n == 127:
            n = int.from_bytes(await self.reader.readexactly(8), "big")
        payload = await self.reader.readexactly(n)
        return json.loads(payload) if b0 & 0x0F == 1 else None

    def send(self, obj):
        data = json.dumps(obj).encode()
        mask = os.urandom(4)
        head = bytes([0x81, 0x80 | len(data)]) if len(data) < 126 else bytes([0x81, 0xFE]) + len(data).to_bytes(2, "big")
        self.writer.write(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


async def run(port, watchers, steps):
    clients = [await WS().open(port) for _ in range(watchers)]
    spinner = await WS().open(port)
    everyone = clients + [spinner]
    last = {}

    async def drain(c):  # until the hello and the current frame are in
        while True:
            m = await c.recv()
            if m and m.get("t") == "frame":
                last[id(c)] = m["seq"]
                return
    await asyncio.gather(*(drain(c) for c in everyone))
    latencies = []
    for i in range(steps):
        seq = max(last.values())

        async def wait_frame(c):
            while True:
                m = await c.recv()
                if m and m.get("t") == "frame" and m["seq"] > seq:
                    last[id(c)] = m["seq"]
                    return time.perf_counter()
        waits = [asyncio.ensure_future(wait_frame(c)) for c in everyone]
        t0 = time.perf_counter()
        spinner.send({"t": "wheel", "deg": 20 if i % 2 == 0 else -20})
        done = await asyncio.wait_for(asyncio.gather(*waits), timeout=5)
        latencies.append(sorted((t - t0) * 1000 for t in done))
        await asyncio.sleep(0.03)  # 30 steps a second at most: under the page's input rate limit
    for c in everyone:
        c.writer.close()
    return latencies


def watch(port, watchers, ready, stop):
    """Another process: WATCHERS WebSockets reading everything sent until `stop` is set (raw reads, no
    frame parsing: as little of this machine's two cores as a reader can take)."""
    async def go():
        clients = [await WS().open(port) for _ in range(watchers)]

        async def read(c):
            try:
                while await c.reader.read(1 << 16):
                    pass
            except ConnectionError:
                pass
        tasks = [asyncio.ensure_future(read(c)) for c in clients]
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.05)
        for t in tasks:
            t.cancel()
        for c in clients:
            c.writer.close()
    asyncio.run(go())


def thread_cpu(pid):
    """Nanoseconds on a CPU so far of each thread of `pid` (/proc/PID/task/TID/schedstat), by TID, with
    the thread's name."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                ns = int(f.read().split()[0])
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                out[tid] = (f.read().strip(), ns)
        except (OSError, ValueError, IndexError):
            pass
    return out


def engine_steps(mpd, pid, port, watchers, steps, turns=5):
    """The control socket's `wheel ±1` round trip (event → effects carried out, frame handed to the web
    remote included), ms, with no watchers and with WATCHERS in turns of `steps`; returns both lists, and
    the CPU time per step of each of the service's threads in both conditions (ns, by TID: name, alone,
    watched)."""
    alone, watched = [], []
    cpu = {}
    for _ in range(turns):
        for n, out in ((0, alone), (watchers, watched)):
            ready, stop = multiprocessing.Event(), multiprocessing.Event()
            proc = None
            if n:
                proc = multiprocessing.Process(target=watch, args=(port, n, ready, stop))
                proc.start()
                ready.wait(30)
                time.sleep(0.2)
            before = thread_cpu(pid)
            for i in range(steps):
                t0 = time.perf_counter()
                mpd("wheel 1" if i % 2 == 0 else "wheel -1")
                out.append((time.perf_counter() - t0) * 1000)
                time.sleep(0.03)
            after = thread_cpu(pid)
            for tid, (name, ns) in after.items():
                row = cpu.setdefault(tid, [name, 0, 0])
                row[1 if n == 0 else 2] += ns - before.get(tid, (name, 0))[1]
            if proc:
                stop.set()
                proc.join(10)
    for row in cpu.values():
        row[1] /= steps * turns
        row[2] /= steps * turns
    return alone, watched, cpu


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(len(s) * p / 100))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=".build/release/clickwheel")
    ap.add_argument("--watchers", type=int, default=50)
    ap.add_argument("--steps", type=int, default=200)
    args = ap.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="clickwheel-webload-"))
    music, sock = work / "music", str(work / "socket")
    music.mkdir()
    make_library(music)
    port = free_port()
    service = subprocess.Popen(
        [args.binary, "run", "--music", str(music), "--db", str(work / "db.sqlite"), "--socket", sock,
         "--display", "none", "--input", "none", "--output", "null", "--lcd", "20x4", "--web", f"127.0.0.1:{port}"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        mpd = wait_for(lambda: (os.path.exists(sock) and MPD(sock)) or None, timeout=20)
        wait_for(lambda: mpd.screen("music.songs")["count"] == "6", timeout=20)
        for watchers in (0, args.watchers):
            mpd.screen("main")
            steps = asyncio.run(run(port, watchers, args.steps))
            lat = [ms for step in steps for ms in step]
            first = [step[0] for step in steps]
            print(f"{watchers:3d} watchers + 1 spinner, {args.steps} steps, {len(lat)} frames received: "
                  f"wheel angle -> frame p50 {pct(lat, 50):.1f} ms, p99 {pct(lat, 99):.1f} ms, max {max(lat):.1f} ms; "
                  f"first client of each step p99 {pct(first, 99):.1f} ms")
        mpd.screen("main")
        alone, watched, cpu = engine_steps(mpd, service.pid, port, args.watchers, 50)
        print(f"engine step -> frame (control socket `wheel ±1`, {len(alone)} steps each, in turns): "
              f"no watcher p50 {pct(alone, 50):.2f} ms p99 {pct(alone, 99):.2f} ms; "
              f"{args.watchers} watchers p50 {pct(watched, 50):.2f} ms p99 {pct(watched, 99):.2f} ms; "
              f"ratio p50 {pct(watched, 50) / pct(alone, 50):.2f}")
        # The web remote's event loop: the NIO thread that works most for the watchers. Everything else
        # (the engine's queue, the control socket's loop, the rest) is the engine's side of a step.
        nio = [r for r in cpu.values() if r[0].startswith("NIO-ELT")]
        web = max(nio, key=lambda r: r[2] - r[1]) if nio else None
        rest_alone = sum(r[1] for r in cpu.values() if r is not web) / 1000
        rest_watched = sum(r[2] for r in cpu.values() if r is not web) / 1000
        if web:
            print(f"CPU per step, µs: the web remote's loop ({web[0]}) {web[1] / 1000:.0f} alone, "
                  f"{web[2] / 1000:.0f} with {args.watchers} watchers; all other threads (engine, control "
                  f"socket, …) {rest_alone:.0f} alone, {rest_watched:.0f} with watchers "
                  f"(ratio {rest_watched / rest_alone:.2f})")
    finally:
        service.terminate()
        service.wait(timeout=15)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
