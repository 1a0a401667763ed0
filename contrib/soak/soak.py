#!/usr/bin/env python3
"""The soak: the release service under abuse for N minutes, and the checks that say it held.

    python3 contrib/soak/soak.py --minutes N [--tracks 2000] [--clients 20] [--binary PATH]
                                 [--work DIR] [--seed S] [--json OUT]

Runs `clickwheel run` (release build unless --binary) on a generated library of --tracks tracks (6-14 s
sine clips encoded by lame, tagged by mutagen; short so that plays end every few seconds), playing
continuously to a private PulseAudio's null sink (contrib/ci/pulse-start.sh), showing its frames on a
private LCDd (contrib/ci/lcdd-start.sh, text driver, 20x4), while:
  - --clients MPD clients send a random mix of valid and invalid commands: reads, queue and playlist
    edits, idle then noidle, listings they stop reading (some hold a never-read `listallinfo` for up to
    a minute), oversized lines, binary, command lists left open, disconnects mid-answer;
  - the wheel and buttons are driven over the socket (`wheel`, `press`) at human speed (a step every
    150-400 ms) and at spin speed (bursts of 40 steps 5 ms apart);
  - every few minutes files are added, retagged, moved and deleted in the music folder's churn folder;
  - PulseAudio is restarted every 10 minutes, the service SIGKILLed and restarted every 15 minutes,
    LCDd restarted once. A run shorter than an hour scales these periods down so that each happens at
    least once (3 minutes: 2 kills, 2 PulseAudio restarts, 4 folder changes, 1 LCDd restart).
Checks (each failed one makes the exit status 1):
  - crashes: the service never exits unless killed by the soak, and exits 0 on the final SIGTERM;
  - RSS and open descriptors sampled every 10 s; their slope after warm-up (the first quarter of each
    life, at most 5 minutes), pooled over the service's lives (each keeps its own level): flat means
    under 10 MiB and 10 descriptors an hour, judged when at least 10 minutes of samples follow warm-ups;
  - CPU: the service's share of one core (reported);
  - every play counted once: the soak watches `status` 5 times a second and counts each play-through
    that passed half the track (the service's rule: half or 4 minutes); the sum of play counts in the
    database must lie between the plays it saw for sure and those plus the ones it could not tell (left
    within 1.2 s of the half mark, moved by a seek it saw, or current while a client's seek was carried
    out: `seekcur inf` ends a track between two looks); a play-through cut by a kill and resumed after
    the restart is one play;
  - `PRAGMA integrity_check` ok after every kill; the queue back after every kill (the same files in the
    same order as `playlistinfo` gave just before it);
  - the library equal to the folder after every change: `clickwheel index --json` on a copy of the
    database finds nothing to add, update, move or remove (within 90 s of the change);
  - playback goes on after each PulseAudio restart (the position advances); the LCD shows frames
    again after LCDd's restart.
Prints a table; --json writes the figures.
"""
import argparse
import json
import os
import random
import shutil
import socket
import sqlite3
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpdclient import Ack, Closed, Conn, quote  # noqa: E402
import soaklib  # noqa: E402
from soaklib import CHURN, log  # noqa: E402


def say(msg):
    log("soak", msg)


class Gate:
    """Writers (clients changing the queue or the player) pass unless the soak is about to kill the
    service: then it waits for those under way and keeps new ones out until it opens again."""

    def __init__(self):
        self.cond = threading.Condition()
        self.closed = False
        self.active = 0

    def __enter__(self):
        with self.cond:
            while self.closed:
                self.cond.wait()
            self.active += 1

    def __exit__(self, *a):
        with self.cond:
            self.active -= 1
            self.cond.notify_all()

    def close(self):
        with self.cond:
            self.closed = True
            while self.active:
                self.cond.wait()

    def open(self):
        with self.cond:
            self.closed = False
            self.cond.notify_all()


class Leave(Exception):
    """A client leaves on purpose (mid-answer, a listing unread, a command list left open)."""


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}

    def add(self, key, n=1):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + n


# Lines MPD accepts though they look wrong: `nan` is 0 s and `inf` the song's end (the protocol's float
# rules, Sources/MPDProtocol/MPDArgument+Numbers.swift). They seek, and a seek makes a play-through one the
# soak cannot judge, so they are sent rarely.
SEEKS = ["seek 0 nan", "seekcur inf"]

# Lines after which MPD drops the connection without a reply (a first byte that is not a lowercase letter).
DROPPING = [b"\n", b"   \n", b"\tping\n", b"PING\n", b"GET / HTTP/1.0\n", b"1ping\n"]

INVALID = [
    "seek 0 -1", "seek 99999 1", "setvol 1e999", "setvol -5", "frobnicate",
    "status extra", 'find "unterminated', 'find "(artist == )"', "find", "list", "playid abc", "move 1",
    "password wrong", "idle bogus", "wheel 99999999", "press nosuchbutton", "hold select 70000",
    "listallinfo ../../etc", "lsinfo /nonexistent", "load nonexistent-playlist", "rm nonexistent-playlist",
    "deleteid 999999999", "prio 300 0", 'search "(title contains \\"x)"', "count group", "tagtypes bogus x",
    "readpicture nope 0", "albumart nope -1", "crossfade -1", "volume +999", "binarylimit 1",
    "sticker get song nope x", 'add "\\"', "playlistinfo 5:2", "plchanges -1",
]


def invalid_line(rnd):
    r = rnd.random()
    if r < 0.1:
        return bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 200))) + b"\n"
    if r < 0.15:
        return ("status " + "a" * rnd.choice([5000, 70000, 300000])).encode() + b"\n"
    if r < 0.152:
        # `seekcur inf` one time in ten: each makes the play-throughs around it unjudgeable (see `watcher`).
        return (SEEKS[1] if rnd.random() < 0.1 else SEEKS[0]).encode() + b"\n"
    if r < 0.17:
        return rnd.choice(DROPPING)
    return rnd.choice(INVALID).encode() + b"\n"


class Soak:
    def __init__(self, a):
        self.a = a
        self.rnd = random.Random(a.seed)
        self.work = a.work
        self.music = os.path.join(self.work, "music")
        self.db = os.path.join(self.work, "library.sqlite")
        self.socket_path = os.path.join(self.work, "socket")
        self.stop_all = threading.Event()
        self.gate = Gate()
        self.stats = Stats()
        self.failures = []
        self.checks = {"kills": [], "integrity": [], "queue": [], "library": [], "pulse": [], "lcdd": []}
        self.crashes = 0
        self.killing = threading.Event()   # expected disconnects while set (a kill or a crash's restart)
        self.events_lock = threading.Lock()
        self.lives = []                    # per life: [(t, rss KiB, fds, ticks, threads)]
        self.life_started = []
        self.plays_lock = threading.Lock()
        self.plays = {"sure": 0, "unsure": 0, "through": 0, "churn": 0}
        # `seekcur inf` the clients sent, [sent, answered]: a play-through one may have ended is unsure (the
        # other seek, `seek 0 nan`, starts the first entry from 0 s, which the watcher sees).
        self.seeks = []
        os.makedirs(self.work, exist_ok=True)
        self.plays_log = open(os.path.join(self.work, "plays.log"), "w")   # every play-through the soak saw
        self.churn_files = []              # paths relative to the music folder
        self.churn_n = 0
        self.clips = []

    def fail(self, what):
        say("FAILED: " + what)
        self.failures.append(what)

    # ---------------------------------------------------------------- set-up

    def setup(self):
        os.makedirs(self.work, exist_ok=True)
        self.clips = soaklib.make_library(self.a.cache, self.music, self.a.tracks)
        self.churn_files = sorted(os.path.relpath(os.path.join(dp, f), self.music)
                                  for dp, _, fs in os.walk(os.path.join(self.music, CHURN)) for f in fs)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(self.db + suffix):
                os.unlink(self.db + suffix)
        t0 = time.time()
        soaklib.run([self.a.binary, "index", "--music", self.music, "--db", self.db, "--json"])
        say("indexed %d tracks in %.1f s" % (self.a.tracks, time.time() - t0))
        self.pulse = soaklib.Pulse(os.path.join(self.work, "pulse"))
        penv = self.pulse.start()
        self.lcdd = soaklib.LCDd(os.path.join(self.work, "lcdd"))
        self.lcdd.start()
        env = {"PULSE_SERVER": penv["PULSE_SERVER"], "XDG_DATA_HOME": os.path.join(self.work, "xdg-data"),
               "XDG_STATE_HOME": os.path.join(self.work, "xdg-state"), "XDG_CONFIG_HOME": os.path.join(self.work, "xdg-config")}
        self.service = soaklib.Service(
            self.a.binary, self.work, self.music, self.db, self.socket_path,
            ["--display", "lcdproc", "--lcdproc", "127.0.0.1:%s" % self.lcdd.port, "--lcd", "20x4", "--output", "pulse"],
            env)

    def start_service(self):
        self.service.start()
        self.lives.append([])
        self.life_started.append(time.time())

    def conn(self, timeout=30):
        return Conn(self.socket_path, timeout)

    def play_everything(self):
        """The queue: every artist folder (not the churn folder), repeated, in order, playing."""
        c = self.conn()
        try:
            artists = sorted(d for d in os.listdir(self.music) if d.startswith("Artist "))
            c.send("command_list_begin\nclear\n" + "".join("add %s\n" % quote(a) for a in artists) +
                   "repeat 1\nrandom 0\nsingle 0\nconsume 0\nplay\ncommand_list_end\n")
            c.answer()
        finally:
            c.close()

    # ---------------------------------------------------------------- the player watcher (play counts)

    def watcher(self):
        """Follows `status` 5 times a second and counts play-throughs the way the service does: counted
        when the position passes half the track (at most 4 minutes) after starting before it."""
        tol = 1.2
        pt = None           # current play-through: dict(file, dur, first, max, last, jumped, songid)
        suspended = None    # the play-through a kill interrupted
        c = None
        last_t = None

        def close(p):
            if p is None:
                return
            with self.plays_lock:
                if p["file"].startswith(CHURN + "/"):
                    self.plays["churn"] += 1
                    return
                half = min(p["dur"] / 2, 240)
                counted = p["first"] < half <= p["max"]
                # A client's `seekcur inf` carried out while it may have been current ends the track at once
                # (a play: the position passed half of it) between two looks: the soak never sees the jump.
                now = time.time()
                seeked = any(sent <= now and answered >= p["since"] for sent, answered in self.seeks)
                unsure = p["jumped"] or seeked or abs(p["max"] - half) < tol or abs(p["first"] - half) < tol
                if unsure:
                    self.plays["unsure"] += 1
                elif counted:
                    self.plays["sure"] += 1
                self.plays["through"] += 1
                self.plays_log.write("%s %s first %.1f max %.1f of %.1f%s%s%s\n" % (
                    time.strftime("%H:%M:%S"), p["file"], p["first"], p["max"], p["dur"],
                    " counted" if counted else "", " unsure" if unsure else "", " (a client seeked)" if seeked else ""))
                self.plays_log.flush()

        while not self.stop_all.is_set():
            if self.killing.is_set():
                if c:
                    c.close()
                    c = None
                if pt is not None:
                    suspended, pt = pt, None
                time.sleep(0.1)
                continue
            try:
                if c is None:
                    c = self.conn(10)
                st = c.pairs("status")
                now = time.time()
                state = st.get("state")
                songid = st.get("songid")
                el = float(st.get("elapsed", "0") or 0)
                if state == "stop" or songid is None:
                    close(pt)
                    pt = None
                    close(suspended)
                    suspended = None
                elif pt is None or pt["songid"] != songid:
                    song = c.pairs("currentsong")
                    f = song.get("file", "")
                    dur = float(song.get("duration", st.get("duration", "0")) or 0)
                    if suspended is not None and suspended["file"] == f:
                        pt, suspended = suspended, None
                        pt["songid"] = songid
                        if el < pt["last"] - 5 or el > pt["last"] + 5:
                            pt["jumped"] = True
                        self.stats.add("play-throughs resumed after a kill")
                    else:
                        close(suspended)
                        suspended = None
                        close(pt)
                        # `since`: the look before this one, after which it became current.
                        pt = {"file": f, "dur": dur, "first": el, "max": el, "last": el, "jumped": False,
                              "songid": songid, "since": last_t or 0}
                elif el < 1.0 and pt["last"] >= 2.0:
                    # The same entry from its start again (Previous past 3 s restarts it): a new play-through
                    # for the soak; whether the service agrees is not said, so it is unsure.
                    close(pt)
                    pt = dict(pt, first=el, max=el, last=el, jumped=True, since=last_t or 0)
                else:
                    if last_t is not None and (el < pt["last"] - 0.5 or el > pt["last"] + (now - last_t) + 1.5):
                        pt["jumped"] = True
                    pt["last"] = el
                    pt["max"] = max(pt["max"], el)
                last_t = now
            except (OSError, Closed, Ack, ValueError):
                if c:
                    c.close()
                c = None
                time.sleep(0.2)
                continue
            time.sleep(0.2)
        close(pt)
        close(suspended)
        if c:
            c.close()

    def conductor(self):
        """Keeps music playing: a client or a button that stopped or paused it is undone after 5 s."""
        quiet_since = None
        while not self.stop_all.wait(1.0):
            if self.killing.is_set():
                continue
            try:
                c = self.conn(10)
                try:
                    st = c.pairs("status")
                    if st.get("state") != "play":
                        quiet_since = quiet_since or time.time()
                        if time.time() - quiet_since > 5:
                            with self.gate:
                                if int(st.get("playlistlength", "0")) == 0:
                                    self.play_everything()
                                else:
                                    c.cmd("play")
                            self.stats.add("conductor restarts of playback")
                            quiet_since = None
                    else:
                        quiet_since = None
                    if int(st.get("playlistlength", "0")) > 4000:
                        with self.gate:
                            self.play_everything()
                finally:
                    c.close()
            except (OSError, Closed, Ack):
                pass

    # ---------------------------------------------------------------- the clients

    def client(self, n):
        rnd = random.Random(self.a.seed * 1000 + n)
        staller = n < 3     # three clients spend most of their time owed a listing they never read
        artists = ["Artist %03d" % i for i in range((self.a.tracks - 20) // 40)]
        while not self.stop_all.is_set():
            try:
                c = self.conn(20)
            except (OSError, Closed):
                time.sleep(0.5)
                continue
            try:
                for _ in range(rnd.randrange(1, 60)):
                    if self.stop_all.is_set():
                        break
                    self.client_op(c, rnd, staller, artists)
                    time.sleep(rnd.expovariate(1 / 0.15))
                self.stats.add("client sessions")
            except Leave:
                pass
            except socket.timeout:
                self.stats.add("answers slower than 20 s")
            except (OSError, Closed):
                if not self.killing.is_set() and not self.stop_all.is_set():
                    self.stats.add("connections closed by the server")
            except Ack as e:
                self.stats.add("unexpected ACKs")
                if self.stats.counts.get("unexpected ACKs", 0) <= 5:
                    say("client %d: unexpected %s" % (n, e))
            finally:
                c.close()

    def client_op(self, c, rnd, staller, artists):
        r = rnd.random()
        if staller and r < 0.5:
            # A listing it stops reading: the server owes it the whole answer.
            c.send("listallinfo\n")
            c.s.recv(rnd.choice([0, 100, 4096]) or 1)
            self.stop_all.wait(rnd.uniform(10, 60))
            self.stats.add("listings left unread")
            raise Leave()
        if r < 0.30:
            line = rnd.choice(["status", "currentsong", "stats", "playlistinfo 0:20", "outputs", "tagtypes",
                               "listplaylists", "list artist", "list album", "commands", "notcommands", "screen",
                               "lsinfo", "lsinfo %s" % quote(rnd.choice(artists)), "plchanges 0",
                               "find artist %s" % quote(rnd.choice(artists)),
                               'search "(title contains \\"Track 3\\")"', "count artist %s" % quote(rnd.choice(artists)),
                               "listfiles %s" % quote(CHURN), "readmessages", "decoders", "urlhandlers"])
            c.cmd(line)
            self.stats.add("valid reads")
        elif r < 0.34:
            with self.gate:
                self.client_write(c, rnd, artists)
            self.stats.add("valid writes")
        elif r < 0.62:
            line = invalid_line(rnd)
            big = len(line) > 4096 or b"\0" in line or not 97 <= line[0] <= 122   # may close the connection
            seek = None
            if line == b"seekcur inf\n":
                # When it was sent and answered: the service carried it out in between (see `watcher`).
                seek = [time.time(), float("inf")]
                with self.plays_lock:
                    self.seeks.append(seek)
            c.send(line)
            try:
                c.answer()
                self.stats.add("invalid lines answered OK")
            except Ack:
                self.stats.add("invalid lines answered ACK")
            except Closed:
                if not big:
                    raise
                self.stats.add("closed after an oversized, binary or dropped line")
            finally:
                if seek:
                    seek[1] = time.time()
            if big:
                raise Leave()
        elif r < 0.72:
            c.send("idle\n")
            c.s.settimeout(rnd.uniform(0.05, 2.0))
            try:
                c.answer()
                self.stats.add("idle answered")
            except OSError:
                c.s.settimeout(20)
                c.send("noidle\n")
                c.answer()
                self.stats.add("idle cancelled by noidle")
            c.s.settimeout(20)
        elif r < 0.80:
            # Disconnects mid-answer.
            c.send(rnd.choice(["listallinfo\n", "listall\n", "playlistinfo\n", "list title\n"]))
            c.s.recv(rnd.choice([1, 100, 4096, 65536]))
            self.stats.add("disconnects mid-answer")
            raise Leave()
        elif r < 0.86:
            # A command list, sometimes left open.
            c.send("command_list_ok_begin\nstatus\ncurrentsong\n")
            if rnd.random() < 0.3:
                self.stats.add("command lists left open")
                raise Leave()
            c.send("command_list_end\n")
            c.answer()
            self.stats.add("command lists")
        elif r < 0.95:
            c.cmd("status")
            self.stats.add("valid reads")
        else:
            c.send("subscribe soak\nsendmessage soak hello\nreadmessages\nunsubscribe soak\n")
            for _ in range(4):
                c.answer()
            self.stats.add("valid reads")

    def client_write(self, c, rnd, artists):
        """A change of the queue, the player or the stored playlists. Skips and pauses are rare: the
        music must mostly play through for the play counts to mean something."""
        r = rnd.random()
        if r < 0.40:
            c.cmd("setvol %d" % rnd.randrange(0, 101))
        elif r < 0.60:
            name = "soak-%d" % rnd.randrange(20)
            try:
                c.cmd("rm %s" % quote(name))
            except Ack:
                pass
            try:
                c.cmd("save %s" % quote(name))
            except Ack as e:
                # Another client saved the same name between this one's rm and save: MPD's answer.
                if "{save} Playlist already exists" not in str(e):
                    raise
                self.stats.add("save raced by another client (ACK Playlist already exists, as MPD)")
        elif r < 0.68:
            artist = rnd.choice(artists)
            c.cmd("add %s" % quote("%s/Album %s-%d" % (artist, artist[7:], rnd.randrange(4))))
        elif r < 0.76:
            ids = [l[4:] for l in c.cmd("playlistinfo") if l.startswith("Id: ")]
            if len(ids) > 100:
                for i in rnd.sample(ids[-60:], 10):
                    try:
                        c.cmd("deleteid %s" % i)
                    except Ack:
                        pass
        elif r < 0.78:
            try:
                c.cmd(rnd.choice(["next", "previous"]))
            except Ack as e:
                # MPD's answer while stopped (the conductor starts playback again after 5 s).
                if "{next} Not playing" not in str(e) and "{previous} Not playing" not in str(e):
                    raise
                self.stats.add("next/previous while stopped (ACK Not playing, as MPD)")
        elif r < 0.93:
            try:
                c.cmd("playlistadd soak-list %s" % quote(rnd.choice(artists)))
            except Ack as e:
                # MPD's max_playlist_length (16,384) reached: start the list again, as a user would.
                if "{playlistadd} Stored playlist is too large" not in str(e):
                    raise
                c.cmd("playlistclear soak-list")
                self.stats.add("soak-list full (ACK Stored playlist is too large, as MPD): cleared")
        elif r < 0.95:
            c.cmd(rnd.choice(["pause 1", "pause 0", "pause 0"]))
        else:
            n = int(c.pairs("status").get("playlistlength", "0"))
            if n > 2:
                c.cmd("move %d %d" % (rnd.randrange(n), rnd.randrange(n)))

    def wheel(self):
        """The wheel and buttons over the socket: human turns and presses, and spins."""
        rnd = random.Random(self.a.seed + 7)
        c = None
        while not self.stop_all.is_set():
            try:
                if c is None:
                    c = self.conn(20)
                r = rnd.random()
                with self.gate:
                    if r < 0.55:
                        for _ in range(rnd.randrange(1, 12)):
                            c.cmd("wheel %d" % rnd.choice([1, 1, 1, -1]))
                            time.sleep(rnd.uniform(0.15, 0.4))
                        self.stats.add("wheel turns (human)")
                    elif r < 0.70:
                        d = rnd.choice([1, -1])
                        for _ in range(40):
                            c.cmd("wheel %d" % d)
                            time.sleep(0.005)
                        self.stats.add("wheel spins")
                    elif r < 0.80:
                        c.cmd("wheel %d" % rnd.choice([200, -200, 1000, -1000]))
                        self.stats.add("wheel spins")
                    elif r < 0.95:
                        # Select, then Menu: a Select left on Now Playing would start scrubbing and the
                        # next spin would seek (a seek makes a play-through one the soak cannot judge).
                        for b in rnd.choice([["menu"], ["menu"], ["select", "menu"]]):
                            c.cmd("press %s" % b)
                        self.stats.add("button presses")
                    else:
                        c.cmd("press %s" % rnd.choice(["next", "previous", "playPause"]))
                        self.stats.add("button presses")
                    c.cmd("screen")
                time.sleep(rnd.uniform(0.2, 1.0))
            except (OSError, Closed):
                if c:
                    c.close()
                c = None
                time.sleep(0.3)
            except Ack as e:
                self.stats.add("unexpected ACKs")
                say("wheel: unexpected %s" % e)

    # ---------------------------------------------------------------- the events

    def sample(self):
        s = soaklib.proc_sample(self.service.pid) if self.service.alive() else None
        if s:
            self.lives[-1].append((time.time(),) + s)
            # Every sample also to samples.csv in the work folder, to see a curve's shape (growth or a
            # warm-up that levels off) and not only its slope.
            path = os.path.join(self.work, "samples.csv")
            new = not os.path.exists(path)
            with open(path, "a") as f:
                if new:
                    f.write("time,life,rss_kib,fds,cpu_ticks,threads,anon_kib,"
                            "heap_kib,arenas_kib,stacks_kib,other_anon_kib,files_anon_kib\n")
                f.write("%.1f,%d,%s\n" % (time.time(), len(self.lives), ",".join(str(v) for v in s)))

    def monitor(self):
        """Samples the service every 10 s and notices a crash within half a second, whatever event runs."""
        next_sample = time.time()
        while not self.stop_all.is_set():
            if time.time() >= next_sample:
                self.sample()
                next_sample += 10
            if not self.service.alive() and not self.killing.is_set():
                self.crashes += 1
                self.fail("the service exited by itself (status %s): %s" % (
                    self.service.proc.returncode, self.service.crash_lines()))
                self.killing.set()
                try:
                    self.start_service()
                finally:
                    self.killing.clear()
            self.stop_all.wait(0.5)

    def kill_and_restart(self):
        self.gate.close()
        try:
            time.sleep(1.0)        # the checkpoint after the last change lands
            c = self.conn()
            try:
                before = c.files("playlistinfo")
                st = c.pairs("status")
            finally:
                c.close()
            self.killing.set()
            t0 = time.time()
            self.service.kill()
            ok = soaklib.integrity(self.db)
            self.checks["integrity"].append(ok)
            if ok != "ok":
                self.fail("integrity_check after a kill: " + ok)
            self.start_service()
            # The queue back: the same files in the same order, but for entries whose file is gone from the
            # folder (the restore drops tracks gone from the library; the running queue still lists them).
            present = [x for x in before if os.path.exists(os.path.join(self.music, x))]
            back = None
            deadline = time.time() + 30
            while time.time() < deadline:
                c = self.conn()
                try:
                    back = c.files("playlistinfo")
                finally:
                    c.close()
                if back in (before, present):
                    break
                time.sleep(0.5)
            same = back in (before, present)
            if same and back != before:
                self.stats.add("queue entries of deleted files dropped at a restart", len(before) - len(back))
            self.checks["queue"].append(same)
            self.checks["kills"].append(round(time.time() - t0, 1))
            if not same:
                # Both lists kept, and the missing entries sorted: files gone from the folder (the restore drops
                # tracks gone from the library) or still there (a checkpoint behind the queue).
                n = len(self.checks["queue"])
                for name, files in (("before", before), ("after", back or [])):
                    with open(os.path.join(self.work, "queue-%s-kill-%d.txt" % (name, n)), "w") as f:
                        f.write("".join(x + "\n" for x in files))
                missing = [x for x in before if x not in set(back or [])]
                gone = sum(1 for x in missing if not os.path.exists(os.path.join(self.music, x)))
                self.fail("the queue after a kill: %d entries before, %d after; of the %d missing, %d are files "
                          "gone from the folder" % (len(before), len(back or []), len(missing), gone))
            say("kill %d: integrity %s, queue of %d %s (state was %s), up again in %.1f s" % (
                len(self.checks["kills"]), ok, len(before), "back" if same else "NOT back", st.get("state"),
                time.time() - t0))
        finally:
            self.killing.clear()
            self.gate.open()

    def restart_pulse(self):
        self.pulse.stop()
        time.sleep(1.0)
        self.pulse.start()
        # Playing again: the position advances within 30 s.
        deadline = time.time() + 30
        ok = False
        first = None
        while time.time() < deadline and not ok:
            try:
                c = self.conn(10)
                try:
                    st = c.pairs("status")
                finally:
                    c.close()
                key = (st.get("songid"), float(st.get("elapsed", "0") or 0))
                if st.get("state") == "play":
                    if first is None:
                        first = key
                    elif key != first:
                        ok = True
            except (OSError, Closed, Ack):
                pass
            time.sleep(1.0)
        self.checks["pulse"].append(ok)
        if not ok:
            self.fail("playback did not go on after PulseAudio's restart")
        say("PulseAudio restarted: playback %s" % ("goes on" if ok else "STOPPED"))

    def restart_lcdd(self):
        self.lcdd.stop()
        time.sleep(2.0)
        self.lcdd.start()
        deadline = time.time() + 40
        ok = False
        while time.time() < deadline:
            rows = self.lcdd.last_frame()
            if rows and any(r.strip() for r in rows):
                ok = True
                break
            time.sleep(0.5)
        self.checks["lcdd"].append(ok)
        if not ok:
            self.fail("no frame on the LCD within 40 s of LCDd's restart")
        say("LCDd restarted: %s" % ("frames again: %r" % rows[0] if ok else "NO FRAME"))

    def change_folder(self):
        """Adds, retags, moves and deletes files in the churn folder, then waits for the library to
        equal the folder (the service's folder watcher, helped by an `update`)."""
        rnd = self.rnd
        base = os.path.join(self.music, CHURN)
        done = {"added": 0, "retagged": 0, "moved": 0, "deleted": 0}
        for _ in range(rnd.randrange(3, 8)):
            self.churn_n += 1
            rel = "%s/Batch %d/%02d New %d.mp3" % (CHURN, self.churn_n // 10, self.churn_n % 100, self.churn_n)
            soaklib.write_track(os.path.join(self.music, rel), rnd.choice(self.clips), "Churn Artist",
                                "Churn Batch %d" % (self.churn_n // 10), "New %d" % self.churn_n, self.churn_n % 100 + 1,
                                2001)
            self.churn_files.append(rel)
            done["added"] += 1
        files = list(self.churn_files)
        rnd.shuffle(files)
        for rel in files[:3]:
            soaklib.retag(os.path.join(self.music, rel), "Retagged %d" % rnd.randrange(10 ** 6))
            done["retagged"] += 1
        for rel in files[3:5]:
            new = "%s/Moved/%s" % (CHURN, os.path.basename(rel).replace(".mp3", " m%d.mp3" % rnd.randrange(10 ** 6)))
            os.makedirs(os.path.join(self.music, os.path.dirname(new)), exist_ok=True)
            os.rename(os.path.join(self.music, rel), os.path.join(self.music, new))
            self.churn_files[self.churn_files.index(rel)] = new
            done["moved"] += 1
        for rel in files[5:8]:
            os.unlink(os.path.join(self.music, rel))
            self.churn_files.remove(rel)
            done["deleted"] += 1
        try:
            c = self.conn()
            try:
                c.cmd("update")
            finally:
                c.close()
        except (OSError, Closed, Ack):
            pass
        t0 = time.time()
        summary = None
        while time.time() - t0 < 90:
            time.sleep(2.0)
            summary = soaklib.dry_run_index(self.a.binary, self.music, self.db, self.work)
            if not any(summary[k] for k in ("added", "updated", "removed", "moved")):
                break
        same = not any(summary[k] for k in ("added", "updated", "removed", "moved"))
        self.checks["library"].append(same)
        if not same:
            self.fail("the library differs from the folder 90 s after a change: %s" % summary)
        say("folder changed %s; library equals the folder %s" % (
            done, "after %.0f s" % (time.time() - t0) if same else "NOT: %s" % summary))

    def schedule(self):
        m = self.a.minutes
        events = []
        kill_every = min(15.0, m / 2.5)
        pulse_every = min(10.0, m / 2.0)
        change_every = min(3.0, m / 5.0)
        k = 1
        while k * kill_every < m - 0.1 and not self.a.no_kill:
            events.append((k * kill_every, "kill"))
            k += 1
        k = 1
        while (k - 0.5) * pulse_every < m - 0.1:
            events.append(((k - 0.5) * pulse_every, "pulse"))
            k += 1
        k = 1
        while k * change_every - 0.3 * change_every < m - 0.1:
            events.append((k * change_every - 0.3 * change_every, "change"))
            k += 1
        events.append((0.4 * m, "lcdd"))
        return sorted((t * 60, what) for t, what in events)

    # ---------------------------------------------------------------- the run

    def run(self):
        self.setup()
        start = time.time()
        self.start_service()
        self.play_everything()
        threads = [threading.Thread(target=self.watcher, daemon=True),
                   threading.Thread(target=self.conductor, daemon=True),
                   threading.Thread(target=self.wheel, daemon=True)]
        threads += [threading.Thread(target=self.client, args=(n,), daemon=True) for n in range(self.a.clients)]
        for t in threads:
            t.start()
        events = self.schedule()
        say("%d minutes: %s" % (self.a.minutes, ", ".join("%s at %.1f min" % (w, t / 60) for t, w in events)))
        end = start + self.a.minutes * 60
        monitor = threading.Thread(target=self.monitor, daemon=True)
        monitor.start()
        try:
            while time.time() < end:
                if events and time.time() - start >= events[0][0]:
                    _, what = events.pop(0)
                    try:
                        with self.events_lock:
                            {"kill": self.kill_and_restart, "pulse": self.restart_pulse, "change": self.change_folder,
                             "lcdd": self.restart_lcdd}[what]()
                    except Exception as e:   # an event that could not run is a failed check, not a crash
                        self.fail("%s: %s: %s" % (what, type(e).__name__, e))
                    continue
                time.sleep(0.5)
            self.sample()
            if self.a.malloc_probe:
                self.malloc = soaklib.malloc_probe(self.service)
                say("malloc at the end, under load: %s" % self.malloc)
        finally:
            self.stop_all.set()
            monitor.join(30)
            self.gate.open()
            for t in threads:
                t.join(5)
            status = self.service.stop()
            self.pulse.stop()
            self.lcdd.stop()
        if status != 0:
            self.crashes += 1
            self.fail("the service's exit status on SIGTERM was %s: %s" % (status, self.service.tail()))
        ok = soaklib.integrity(self.db)
        self.checks["integrity"].append(ok)
        if ok != "ok":
            self.fail("integrity_check at the end: " + ok)
        return self.report(time.time() - start)

    def report(self, seconds):
        res = {"minutes": round(seconds / 60, 1), "tracks": self.a.tracks, "clients": self.a.clients}
        # Play counts: the database's sum over the tracks outside the churn folder.
        c = sqlite3.connect(self.db)
        db_plays = c.execute("""SELECT COALESCE(SUM(p.play_count), 0) FROM play_state p JOIN tracks t ON t.id = p.track_id
                                WHERE t.path NOT LIKE ?""", (CHURN + "/%",)).fetchone()[0]
        c.close()
        lo, hi = self.plays["sure"], self.plays["sure"] + self.plays["unsure"]
        plays_ok = lo <= db_plays <= hi
        if not plays_ok:
            self.fail("play counts: the database holds %d, the soak saw %d to %d" % (db_plays, lo, hi))
        hz = os.sysconf("SC_CLK_TCK")
        warm_lives, cpu_ticks, cpu_secs = [], 0, 0.0
        for life in self.lives:
            if len(life) < 2:
                continue
            t0 = life[0][0]
            span = life[-1][0] - t0
            warm = min(300.0, span / 4)
            warm_lives.append([s for s in life if s[0] - t0 >= warm])
            cpu_ticks += life[-1][3] - life[0][3]
            cpu_secs += span
        judged_secs = sum((l[-1][0] - l[0][0]) for l in warm_lives if len(l) > 1)
        rss_slope = soaklib.slope_per_hour([[(s[0], s[1] / 1024) for s in l] for l in warm_lives])
        fd_slope = soaklib.slope_per_hour([[(s[0], s[2]) for s in l] for l in warm_lives])
        anon_slope = soaklib.slope_per_hour([[(s[0], s[5] / 1024) for s in l] for l in warm_lives])
        # The anonymous part by kind (`soaklib.anon_parts`): each one's slope after warm-up.
        parts = ("heap", "arenas", "stacks", "other", "files")
        part_slopes = {name: soaklib.slope_per_hour([[(s[0], s[6 + k] / 1024) for s in l] for l in warm_lives])
                       for k, name in enumerate(parts)}
        all_samples = [s for l in self.lives for s in l]
        rss = [s[1] / 1024 for s in all_samples]
        fds = [s[2] for s in all_samples]
        judged = judged_secs >= 600
        if judged and rss_slope is not None and rss_slope > 10:
            self.fail("RSS grows %.1f MiB an hour after warm-up" % rss_slope)
        if judged and fd_slope is not None and fd_slope > 10:
            self.fail("open descriptors grow %.1f an hour after warm-up" % fd_slope)
        res.update({
            "crashes": self.crashes,
            "kills": len(self.checks["kills"]), "restart_seconds": self.checks["kills"],
            "integrity_checks": len(self.checks["integrity"]),
            "integrity_ok": sum(1 for x in self.checks["integrity"] if x == "ok"),
            "queue_back": "%d/%d" % (sum(self.checks["queue"]), len(self.checks["queue"])),
            "library_equal": "%d/%d" % (sum(self.checks["library"]), len(self.checks["library"])),
            "pulse_restarts_playing": "%d/%d" % (sum(self.checks["pulse"]), len(self.checks["pulse"])),
            "lcdd_restarts_frames": "%d/%d" % (sum(self.checks["lcdd"]), len(self.checks["lcdd"])),
            "plays_db": db_plays, "plays_seen_sure": lo, "plays_seen_unsure": self.plays["unsure"],
            "play_throughs": self.plays["through"],
            "rss_mib_min_median_max": [round(min(rss), 1), round(statistics.median(rss), 1), round(max(rss), 1)] if rss else None,
            "rss_slope_mib_per_hour": None if rss_slope is None else round(rss_slope, 2),
            "rss_anon_mib_min_median_max": [round(min(a), 1), round(statistics.median(a), 1), round(max(a), 1)]
            if (a := [s[5] / 1024 for s in all_samples]) else None,
            "rss_anon_slope_mib_per_hour": None if anon_slope is None else round(anon_slope, 2),
            "anon_mib_by_kind_last": dict(zip(parts, (round(v / 1024, 1) for v in all_samples[-1][6:11])))
            if all_samples else None,
            "anon_slope_mib_per_hour_by_kind": {k: None if v is None else round(v, 2) for k, v in part_slopes.items()},
            "fds_min_max": [min(fds), max(fds)] if fds else None,
            "fd_slope_per_hour": None if fd_slope is None else round(fd_slope, 2),
            "slope_judged": judged, "slope_minutes_after_warmup": round(judged_secs / 60, 1),
            "threads_max": max((s[4] for s in all_samples), default=None),
            "cpu_percent_of_one_core": round(100 * cpu_ticks / hz / cpu_secs, 1) if cpu_secs else None,
            "samples": len(all_samples),
            "traffic": dict(sorted(self.stats.counts.items())),
            "malloc_probe": getattr(self, "malloc", None),
            "failures": self.failures,
        })
        rows = [
            ("crashes", res["crashes"], "0"),
            ("SIGKILL + restart", "%d, back in %s s" % (res["kills"], "/".join(str(x) for x in res["restart_seconds"])), ""),
            ("integrity_check ok", "%d/%d" % (res["integrity_ok"], res["integrity_checks"]), "all"),
            ("queue back after kill", res["queue_back"], "all"),
            ("library = folder after change", res["library_equal"], "all"),
            ("playing after PulseAudio restart", res["pulse_restarts_playing"], "all"),
            ("frames after LCDd restart", res["lcdd_restarts_frames"], "all"),
            ("plays: database / seen", "%d / %d..%d (%d play-throughs)" % (db_plays, lo, hi, self.plays["through"]), "within"),
            ("RSS MiB min/median/max", res["rss_mib_min_median_max"], ""),
            ("RSS slope after warm-up", "%s MiB/h%s" % (res["rss_slope_mib_per_hour"], "" if judged else " (too short to judge)"), "< 10"),
            ("RSS anonymous min/median/max; slope", "%s; %s MiB/h" % (res["rss_anon_mib_min_median_max"], res["rss_anon_slope_mib_per_hour"]), ""),
            ("  by kind at the end MiB (slope MiB/h)", ", ".join(
                "%s %s (%s)" % (k, (res["anon_mib_by_kind_last"] or {}).get(k), res["anon_slope_mib_per_hour_by_kind"][k])
                for k in parts), ""),
            ("open fds min/max", res["fds_min_max"], ""),
            ("fd slope after warm-up", "%s /h%s" % (res["fd_slope_per_hour"], "" if judged else " (too short to judge)"), "< 10"),
            ("threads max", res["threads_max"], ""),
            ("CPU, % of one core", res["cpu_percent_of_one_core"], ""),
        ]
        print("soak: %.1f minutes, %d tracks, %d clients, seed %d" % (seconds / 60, self.a.tracks, self.a.clients, self.a.seed))
        w = max(len(r[0]) for r in rows)
        for name, value, want in rows:
            print("  %-*s  %s%s" % (w, name, value, "   (want %s)" % want if want else ""))
        print("  traffic: " + ", ".join("%s %d" % kv for kv in sorted(self.stats.counts.items())))
        print("soak: %s" % ("PASSED" if not self.failures else "FAILED: " + "; ".join(self.failures)))
        if self.a.json:
            with open(self.a.json, "w") as f:
                json.dump(res, f, indent=1)
        return 0 if not self.failures else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, required=True)
    ap.add_argument("--tracks", type=int, default=2000)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--binary", default=None, help="clickwheel binary (default: build the release one)")
    ap.add_argument("--work", default=None, help="folder of this run (default: a new one under $TMPDIR)")
    ap.add_argument("--cache", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "clickwheel-soak-cache"),
                    help="where the generated library is kept between runs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None)
    ap.add_argument("--malloc-probe", action="store_true",
                    help="at the end, under load: glibc's heap totals and the RSS before/after malloc_trim(0) (gdb)")
    ap.add_argument("--no-kill", action="store_true",
                    help="no SIGKILLs: one life from start to SIGTERM (LeakSanitizer reports at that exit)")
    a = ap.parse_args()
    soaklib.binary_and_work(a, "clickwheel-soak-")
    say("work folder %s" % a.work)
    sys.exit(Soak(a).run())


if __name__ == "__main__":
    main()
