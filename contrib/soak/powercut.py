#!/usr/bin/env python3
"""Power cuts: the service killed at random moments while it writes, and what it finds at the next start.

    python3 contrib/soak/powercut.py [--kills 200] [--tracks 2000] [--binary PATH] [--work DIR] [--seed S]

Runs `clickwheel run --config FILE` (release build unless --binary; display none, input none, null
output) on a generated library (the soak's, contrib/soak/soaklib.py) and kills it --kills times, each at
a random moment of one of these workloads, in turn:
  scan        files retagged, added and deleted, then `update` (every fifth: the database removed, so
              the start indexes the whole library): killed at a random moment of the scan;
  checkpoint  a scan that rewrites every track (all files touched) so the WAL passes SQLite's
              auto-checkpoint size (1,000 pages) several times: killed late in it, when checkpoints run;
  settings    repeat, random, single, consume and the volume changed as fast as the socket takes them,
              and the wheel turned (settings saves): killed at a random moment;
  playlist    stored playlists of up to the whole library saved, appended to and removed: killed at a
              random moment; after the restart each one holds a length it had (never a part of a save);
  config      the wheel's config Save (Settings → Wheel → Save: `CalibrationSettings.write`, the call
              the running service makes) in a loop on the service's own configuration file, by
              clickwheel-config-writer (contrib/soak/ConfigWriter: a wheel is needed to reach it through
              the menus, so the same call is made from a loop): the writer and the service killed at a
              random moment; the file holds the text of the last write done or of the one under way;
How: every other kill freezes the whole process tree first (the cgroup v1 freezer when this machine
has one, else SIGSTOP), then SIGKILL; the others are a plain SIGKILL. After each: `PRAGMA
integrity_check` is ok, the configuration file is the old or the new one (never a half), the service
starts (its socket greets within 30 s) and answers `status`. Prints the count by kind and the result;
exit status 1 on any failed check.

What a SIGKILL does not model: the page cache survives it, so writes the kernel accepted are kept; on a
real power cut SQLite (WAL, synchronous=NORMAL) may lose its last transactions but stays consistent,
which is what integrity_check shows here for the writes that reached the file.
"""
import argparse
import base64
import os
import random
import subprocess
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soaklib  # noqa: E402
from mpdclient import Ack, Closed, Conn, quote  # noqa: E402
from soaklib import CHURN, log  # noqa: E402

FREEZER = "/sys/fs/cgroup/freezer"


def say(msg):
    log("powercut", msg)


class Freezer:
    """A cgroup v1 freezer of our own (root only); None where the machine has none."""

    def __init__(self):
        self.path = None
        if os.path.isdir(FREEZER) and os.access(FREEZER, os.W_OK):
            path = os.path.join(FREEZER, "clickwheel-powercut-%d" % os.getpid())
            try:
                os.mkdir(path)
                self.path = path
            except OSError:
                pass

    def add(self, pid):
        with open(os.path.join(self.path, "cgroup.procs"), "w") as f:
            f.write(str(pid))

    def state(self, s):
        with open(os.path.join(self.path, "freezer.state"), "w") as f:
            f.write(s)

    def frozen(self):
        with open(os.path.join(self.path, "freezer.state")) as f:
            return f.read().strip() == "FROZEN"

    def remove(self):
        if self.path:
            try:
                os.rmdir(self.path)
            except OSError:
                pass


class PowerCut:
    def __init__(self, a):
        self.a = a
        self.rnd = random.Random(a.seed)
        self.work = a.work
        self.music = os.path.join(self.work, "music")
        self.db = os.path.join(self.work, "library.sqlite")
        self.config = os.path.join(self.work, "clickwheel.yaml")
        self.sock = os.path.join(self.work, "socket")
        self.failures = []
        self.counts = {}
        self.freezes = 0
        self.playlist_lengths = {}      # name -> lengths it has had (0: absent)
        self.freezer = Freezer()

    def fail(self, what):
        say("FAILED: " + what)
        self.failures.append(what)

    def config_text(self, n):
        return ("# powercut round %d: this comment and the keys below must survive whole\n"
                "music: %s\ndb: %s\nsocket: %s\ndisplay: none\noutput: null\ninput: [none]\n"
                "volume: 40\nlog_level: info\nsteps_per_detent: %d   # events per detent\n" % (
                    n, self.music, self.db, self.sock, [1, 2, 4][n % 3]))

    def start(self):
        self.service.start(wait=60)
        if self.freezer.path:
            self.freezer.add(self.service.pid)

    def conn(self):
        return Conn(self.sock, 30)

    def kill(self, freeze, also=None):
        """SIGKILL the service (and `also`, another process writing: first), the whole tree frozen first
        when `freeze`."""
        if freeze:
            self.freezes += 1
            if self.freezer.path:
                self.freezer.state("FROZEN")
                deadline = time.time() + 5
                while not self.freezer.frozen() and time.time() < deadline:
                    time.sleep(0.001)
                if also:
                    also.kill()
                os.kill(self.service.pid, signal.SIGKILL)
                self.freezer.state("THAWED")
            else:
                for p in ([also.pid] if also else []) + [self.service.pid]:
                    os.kill(p, signal.SIGSTOP)
                for p in ([also.pid] if also else []) + [self.service.pid]:
                    os.kill(p, signal.SIGKILL)
            self.service.proc.wait()
        else:
            if also:
                also.kill()
            self.service.kill()

    # ---------------------------------------------------------------- workloads: each returns when killed

    def in_background(self, fn):
        stop = threading.Event()

        def loop():
            while not stop.is_set():
                try:
                    fn(stop)
                except (OSError, Closed, Ack):
                    time.sleep(0.01)
        t = threading.Thread(target=loop, daemon=True)
        t.start()
        return stop, t

    def scan(self, rnd, heavy):
        files = []
        for dp, _, fs in os.walk(self.music):
            files += [os.path.join(dp, f) for f in fs if f.endswith(".mp3")]
        if heavy:
            now = time.time()
            for f in files:
                os.utime(f, (now, now))
        else:
            changed = rnd.sample(files, min(len(files), rnd.randrange(20, 300)))
            for f in changed:
                soaklib.retag(f, "Powercut %d" % rnd.randrange(10 ** 6))
            base = os.path.join(self.music, CHURN, "Power")
            os.makedirs(base, exist_ok=True)
            for f in os.listdir(base)[: rnd.randrange(0, 5)]:
                os.unlink(os.path.join(base, f))
            clip = rnd.choice(soaklib.make_clips(os.path.join(self.a.cache, "clips")))
            for _ in range(rnd.randrange(1, 10)):
                n = rnd.randrange(10 ** 6)
                soaklib.write_track(os.path.join(base, "P %d.mp3" % n), clip, "Power Artist", "Power", "P %d" % n, 1, 2002)
        c = self.conn()
        try:
            c.cmd("update")
        finally:
            c.close()
        # About how long this scan takes: the full index's time for the share of files it rereads.
        return self.scan_seconds * (1.0 if heavy else (len(changed) + 10) / len(files))

    def settings_writer(self, rnd):
        def step(stop):
            c = self.conn()
            try:
                while not stop.is_set():
                    line = rnd.choice(["repeat %d" % rnd.randrange(2), "random %d" % rnd.randrange(2),
                                       "single %d" % rnd.randrange(2), "consume %d" % rnd.randrange(2),
                                       "setvol %d" % rnd.randrange(101), "wheel %d" % rnd.choice([1, -1, 5]),
                                       "press menu"])
                    c.cmd(line)
            finally:
                c.close()
        return self.in_background(step)

    def playlist_writer(self, rnd):
        def step(stop):
            c = self.conn()
            try:
                while not stop.is_set():
                    name = "power-%d" % rnd.randrange(5)
                    r = rnd.random()
                    if r < 0.4:
                        # Artist folders only: scans delete files of the churn folder, and a stored
                        # playlist loses the entries of deleted tracks (its length would move).
                        c.cmd("clear")
                        c.send("command_list_begin\n" + "".join(
                            "add %s\n" % quote("Artist %03d" % a) for a in rnd.sample(range(49), rnd.randrange(1, 49)))
                            + "command_list_end\n")
                        c.answer()
                        n = int(c.pairs("status")["playlistlength"])
                        # What it may hold is written down before the command is sent: the kill may
                        # come between the two.
                        self.playlist_lengths.setdefault(name, {0}).update({0, n})
                        try:
                            c.cmd("rm %s" % quote(name))
                        except Ack:
                            pass
                        c.cmd("save %s" % quote(name))
                    elif r < 0.8:
                        have = len(c.cmd("listplaylist %s" % quote(name))) if name in self.playlist_lengths else 0
                        self.playlist_lengths.setdefault(name, {0}).add(have + 10)
                        c.cmd("playlistadd %s %s" % (quote(name), quote("Artist %03d/Album %03d-0" % ((r * 1000) % 49, (r * 1000) % 49))))
                    else:
                        self.playlist_lengths.setdefault(name, {0}).add(0)
                        try:
                            c.cmd("rm %s" % quote(name))
                        except Ack:
                            pass
            finally:
                c.close()
        return self.in_background(step)

    # ---------------------------------------------------------------- rounds

    def round(self, i, kind):
        rnd = self.rnd
        freeze = i % 2 == 1
        old_config = open(self.config).read()
        new_config = self.config_text(i)
        stop = None
        if kind == "scan" and i % 5 == 0:
            # The database removed: the start indexes everything, killed during that first index.
            self.service.stop()
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(self.db + suffix):
                    os.unlink(self.db + suffix)
            self.playlist_lengths = {}      # the stored playlists went with the database
            self.start()
            time.sleep(rnd.uniform(0.0, self.scan_seconds))
        elif kind in ("scan", "checkpoint"):
            expected = self.scan(rnd, heavy=kind == "checkpoint")
            lo = 0.5 if kind == "checkpoint" else 0.0
            time.sleep(rnd.uniform(lo, 1.0) * expected)
        elif kind == "settings":
            stop, t = self.settings_writer(rnd)
            time.sleep(rnd.uniform(0.05, 1.5))
        elif kind == "playlist":
            stop, t = self.playlist_writer(rnd)
            time.sleep(rnd.uniform(0.05, 2.0))
        elif kind == "config":
            writer = subprocess.Popen([self.config_writer, self.config], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True)
            if self.freezer.path:
                self.freezer.add(writer.pid)
            time.sleep(rnd.uniform(0.05, 1.0))
        self.kill(freeze, also=writer if kind == "config" else None)
        if stop:
            stop.set()
        if kind == "config":
            out, err = writer.communicate()
            allowed, done, under_way = [old_config], None, None
            for line in out.splitlines():
                if line.startswith("next "):
                    under_way = base64.b64decode(line[5:]).decode()
                elif line == "done":
                    done, under_way = under_way, None
            allowed = [t for t in (done or old_config, under_way) if t is not None]
            self.config_writes += out.count("\ndone") + out.startswith("done")
            self.config_mid_write += under_way is not None
            if err.strip():
                self.fail("round %d (config): the writer said: %s" % (i, err.strip()[:200]))
            old_config = allowed[0]
            new_config = allowed[-1]
        self.counts[kind] = self.counts.get(kind, 0) + 1
        ok = soaklib.integrity(self.db) if os.path.exists(self.db) else "ok"
        if ok != "ok":
            self.fail("round %d (%s): integrity_check: %s" % (i, kind, ok))
        text = open(self.config).read()
        if text not in (old_config, new_config):
            self.fail("round %d (%s): the configuration file is neither the old nor the new one" % (i, kind))
        try:
            self.start()
            c = self.conn()
            try:
                c.pairs("status")
                if kind == "playlist":
                    for name, lengths in self.playlist_lengths.items():
                        try:
                            n = len(c.cmd("listplaylist %s" % quote(name)))
                        except Ack:
                            n = 0
                        if n not in lengths:
                            self.fail("round %d: playlist %s holds %d entries, never one of %s" % (
                                i, name, n, sorted(lengths)))
                        self.playlist_lengths[name] = {n}
            finally:
                c.close()
        except Exception as e:
            self.fail("round %d (%s): the service does not start: %s: %s" % (i, kind, type(e).__name__, e))
            self.start()

    def measure_scan(self):
        """How long the full index takes here: the scale for the scan kills."""
        t0 = time.time()
        soaklib.run([self.a.binary, "index", "--music", self.music, "--db", self.db, "--json"])
        self.scan_seconds = max(0.5, time.time() - t0)
        say("a full index takes %.1f s here" % self.scan_seconds)

    def run(self):
        os.makedirs(self.work, exist_ok=True)
        soaklib.make_library(self.a.cache, self.music, self.a.tracks)
        with open(self.config, "w") as f:
            f.write(self.config_text(0))
        self.measure_scan()
        self.service = soaklib.Service(self.a.binary, self.work, self.music, self.db, self.sock, [], {},
                                       config=self.config)
        self.service.args = lambda: [self.a.binary, "run", "--config", self.config]
        kinds = ["scan", "checkpoint", "settings", "playlist", "config"]
        self.config_writer = os.path.join(os.path.dirname(os.path.abspath(self.a.binary)), "clickwheel-config-writer")
        if not os.access(self.config_writer, os.X_OK):
            raise SystemExit("powercut: %s is missing (swift build builds it beside clickwheel)" % self.config_writer)
        self.config_writes = self.config_mid_write = 0
        self.start()
        say("%d kills, freezing with %s" % (self.a.kills, "the cgroup freezer" if self.freezer.path else "SIGSTOP"))
        t0 = time.time()
        try:
            for i in range(1, self.a.kills + 1):
                self.round(i, kinds[(i - 1) % len(kinds)])
                if i % 20 == 0:
                    say("%d kills, %d failures, %.0f s" % (i, len(self.failures), time.time() - t0))
        finally:
            self.service.stop()
            self.freezer.remove()
        total = sum(self.counts.values())
        print("powercut: %d kills (%s), %d of them with the process tree frozen first (%s); %.0f s" % (
            total, ", ".join("%s %d" % kv for kv in sorted(self.counts.items())), self.freezes,
            "cgroup freezer" if self.freezer.path else "SIGSTOP", time.time() - t0))
        print("powercut: config rounds: %d Saves completed, %d kills with a Save under way" % (
            self.config_writes, self.config_mid_write))
        print("powercut: integrity_check, configuration file old-or-new, restart: %s" % (
            "all ok" if not self.failures else "FAILED: " + "; ".join(self.failures[:10])))
        return 0 if not self.failures else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kills", type=int, default=200)
    ap.add_argument("--tracks", type=int, default=2000)
    ap.add_argument("--binary", default=None)
    ap.add_argument("--work", default=None)
    ap.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "clickwheel-soak-cache"))
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    soaklib.binary_and_work(a, "clickwheel-powercut-")
    say("work folder %s" % a.work)
    sys.exit(PowerCut(a).run())


if __name__ == "__main__":
    main()
