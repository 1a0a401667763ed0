"""What the soak and the power-cut harness share: the generated library, the private PulseAudio and
LCDd (contrib/ci's scripts), the service started, signalled and waited for, the database checks."""
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

from mpdclient import Conn, Closed

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CI = os.path.join(ROOT, "contrib", "ci")
CHURN = "Soak Churn"          # the folder the soak adds to, retags, moves and deletes in

# The clips every track's audio is a copy of: seconds and tone. Short on purpose, so that plays end
# (and are counted) every few seconds.
CLIPS = [(6, 220), (8, 330), (9, 440), (10, 550), (12, 660), (14, 770)]


def log(tag, msg):
    print("[%s %s] %s" % (tag, time.strftime("%H:%M:%S"), msg), file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def binary_and_work(args, prefix):
    """Fills in --binary (the release build, built now) and --work (a new folder under TMPDIR) when not given."""
    if args.binary is None:
        run(["swift", "build", "-c", "release", "--product", "clickwheel"], cwd=ROOT)
        args.binary = os.path.join(ROOT, ".build", "release", "clickwheel")
    if args.work is None:
        import tempfile
        args.work = tempfile.mkdtemp(prefix=prefix, dir=os.environ.get("TMPDIR", "/tmp"))


def make_clips(folder):
    os.makedirs(folder, exist_ok=True)
    paths = []
    for secs, hz in CLIPS:
        mp3 = os.path.join(folder, "clip-%d.mp3" % secs)
        if not os.path.exists(mp3):
            wav = mp3[:-4] + ".wav"
            run(["sox", "-R", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", str(secs), "sine", str(hz),
                 "vol", "0.3"])
            run(["lame", "--quiet", "-b", "128", wav, mp3 + ".part"])
            os.rename(mp3 + ".part", mp3)
            os.unlink(wav)
        paths.append(mp3)
    return paths


def write_track(path, clip, artist, album, title, number, year, genre="Soak"):
    """A copy of `clip` with an ID3v2.4 tag written by mutagen."""
    from mutagen import id3
    os.makedirs(os.path.dirname(path), exist_ok=True)
    shutil.copyfile(clip, path)
    t = id3.ID3()
    t.add(id3.TPE1(encoding=3, text=artist))
    t.add(id3.TALB(encoding=3, text=album))
    t.add(id3.TIT2(encoding=3, text=title))
    t.add(id3.TRCK(encoding=3, text=str(number)))
    t.add(id3.TDRC(encoding=3, text=str(year)))
    t.add(id3.TCON(encoding=3, text=genre))
    t.save(path, v2_version=4)


def retag(path, title):
    from mutagen import id3
    t = id3.ID3(path)
    t.setall("TIT2", [id3.TIT2(encoding=3, text=title)])
    t.save(path, v2_version=4)


def library_tracks(tracks):
    """(relative path, clip index, artist, album, title, number, year) of a library of `tracks` tracks:
    artists of 4 albums of 10 tracks, the last 20 tracks in the churn folder."""
    out = []
    main = tracks - 20
    for i in range(main):
        a, b, t = i // 40, (i // 10) % 4, i % 10 + 1
        artist, album = "Artist %03d" % a, "Album %03d-%d" % (a, b)
        out.append(("%s/%s/%02d Track %d.mp3" % (artist, album, t, t), i % len(CLIPS), artist, album,
                    "Track %d of %s" % (t, album), t, 1970 + a % 50))
    for i in range(20):
        out.append(("%s/Start/%02d Churn %d.mp3" % (CHURN, i + 1, i + 1), i % len(CLIPS), "Churn Artist",
                    "Churn Start", "Churn %d" % (i + 1), i + 1, 2000))
    return out


def make_library(cache, dest, tracks):
    """The library of `tracks` tracks in `dest`: made once in `cache` (clips by sox + lame, tags by
    mutagen), copied from there for every run because the soak changes its copy."""
    marker = os.path.join(cache, ".soak-library-%d" % tracks)
    music = os.path.join(cache, "music-%d" % tracks)
    if not os.path.exists(marker):
        log("soak", "making a %d-track library in %s" % (tracks, music))
        clips = make_clips(os.path.join(cache, "clips"))
        shutil.rmtree(music, ignore_errors=True)
        for rel, c, artist, album, title, n, year in library_tracks(tracks):
            write_track(os.path.join(music, rel), clips[c], artist, album, title, n, year)
        open(marker, "w").close()
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(music, dest)
    return make_clips(os.path.join(cache, "clips"))


def env_from(lines):
    env = {}
    for line in lines.splitlines():
        if line.startswith("export "):
            k, _, v = line[7:].partition("=")
            env[k] = subprocess.run(["bash", "-c", "printf %s " + v], capture_output=True, text=True).stdout
    return env


class Pulse:
    """A private PulseAudio with a null sink (contrib/ci/pulse-start.sh) in `folder`."""

    def __init__(self, folder):
        self.folder = folder
        self.env = {}

    def start(self):
        out = run(["bash", os.path.join(CI, "pulse-start.sh")], env=dict(os.environ, CW_PULSE_DIR=self.folder))
        self.env = env_from(out.stdout)
        return self.env

    def stop(self):
        subprocess.run(["bash", os.path.join(CI, "pulse-stop.sh")], env=dict(os.environ, CW_PULSE_DIR=self.folder),
                       capture_output=True)


class LCDd:
    """A private LCDd with the text driver (contrib/ci/lcdd-start.sh): frames land in a file."""

    def __init__(self, folder):
        self.folder = folder
        self.port = "auto"
        self.env = {}

    def start(self):
        out = run(["bash", os.path.join(CI, "lcdd-start.sh")],
                  env=dict(os.environ, CW_LCDD_DIR=self.folder, CW_LCDD_PORT=str(self.port), CW_LCDD_SIZE="20x4"))
        self.env = env_from(out.stdout)
        self.port = self.env["CW_LCDD_PORT"]
        return self.env

    def stop(self):
        subprocess.run(["bash", os.path.join(CI, "lcdd-stop.sh")], env=dict(os.environ, CW_LCDD_DIR=self.folder),
                       capture_output=True)

    def last_frame(self):
        """The rows of the newest complete frame, or None."""
        try:
            with open(os.path.join(self.folder, "frames.txt"), errors="replace") as f:
                f.seek(0, 2)
                size = f.tell()
                f.seek(max(0, size - 4096))
                text = f.read()
        except OSError:
            return None
        frames = text.split("+--------------------+\n")
        # Frames alternate: top border, rows, bottom border; a complete block of rows has 4 lines.
        for block in reversed(frames):
            rows = [l for l in block.splitlines() if l.startswith("|") and l.endswith("|")]
            if len(rows) == 4:
                return [r[1:-1] for r in rows]
        return None


class Service:
    """The release `clickwheel run` on the soak's library, its socket, database and log."""

    def __init__(self, binary, work, music, db, socket_path, display_args, env, config=None):
        self.binary, self.work, self.music, self.db, self.socket = binary, work, music, db, socket_path
        self.display_args, self.env, self.config = display_args, env, config
        self.proc = None
        self.lives = 0
        self.log_path = None

    def args(self):
        a = [self.binary, "run", "--input", "none", "--music", self.music, "--db", self.db, "--socket", self.socket]
        if self.config:
            a += ["--config", self.config]
        return a + self.display_args

    def start(self, wait=60):
        self.lives += 1
        self.log_path = os.path.join(self.work, "service-%d.log" % self.lives)
        if os.path.exists(self.socket):
            os.unlink(self.socket)
        env = dict(os.environ, **self.env)
        self.proc = subprocess.Popen(self.args(), stdin=subprocess.DEVNULL, stdout=open(self.log_path, "w"),
                                     stderr=subprocess.STDOUT, env=env)
        deadline = time.time() + wait
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the service exited at start (%s): %s" % (self.proc.returncode, self.tail()))
            try:
                Conn(self.socket, timeout=5).close()
                return
            except (OSError, Closed):
                time.sleep(0.05)
        raise RuntimeError("no control socket after %d s: %s" % (wait, self.tail()))

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """SIGKILL: a power cut as far as the process can tell."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self, timeout=20):
        """SIGTERM and the exit status (None: it had to be killed)."""
        if not self.alive():
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None

    def crash_lines(self):
        """The crash report's heart: the crashed thread's first frames (Swift's backtracer), or the tail."""
        try:
            lines = open(self.log_path, errors="replace").read().splitlines()
        except OSError:
            return "(no log)"
        for i, l in enumerate(lines):
            if "crashed:" in l or "Fatal error" in l:
                return " | ".join(x.strip() for x in lines[i:i + 5] if x.strip())
        return " | ".join(lines[-5:])

    def tail(self, n=8):
        try:
            with open(self.log_path, errors="replace") as f:
                return " | ".join(f.read().splitlines()[-n:])
        except OSError:
            return "(no log)"


def malloc_probe(service):
    """Where the RSS is, asked of glibc inside the running service (gdb attached for a moment; the
    process pauses for the attach): `malloc_stats()`'s totals (bytes the heap holds from the system, and
    those in use by live allocations), SQLite's share of those in use (`sqlite3_memory_used()`: its page
    caches, statements and schema, all connections), then RSS before and after `malloc_trim(0)`. Memory in use is
    referenced by the program; the rest is the allocator's, kept between trims. Returns a dict (MiB), or
    None without gdb."""
    import re
    import shutil
    if not shutil.which("gdb"):
        return None
    pid = service.pid
    rss = lambda: proc_sample(pid)[0] / 1024
    before = rss()
    mark = os.path.getsize(service.log_path)
    cmd = ["gdb", "-batch", "-nx", "-p", str(pid), "-iex", "set auto-solib-add off",
           "-ex", "sharedlibrary libc", "-ex", "sharedlibrary libsqlite3",
           "-ex", "call (void) malloc_stats()",
           "-ex", "printf \"sqlite-memory-used %lld\\n\", (long long) sqlite3_memory_used()",
           "-ex", "call (int) malloc_trim(0)"]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120, text=True).stdout
    time.sleep(0.5)
    after = rss()
    with open(service.log_path, errors="replace") as f:
        f.seek(mark)
        text = f.read()
    total = re.search(r"Total \(incl\. mmap\):\s*system bytes\s*=\s*(\d+)\s*in use bytes\s*=\s*(\d+)", text)
    arenas = len(re.findall(r"^Arena \d+:", text, re.M))
    sqlite = re.search(r"sqlite-memory-used (\d+)", out or "")
    return {"rss_before_trim": round(before, 1), "rss_after_trim": round(after, 1),
            "sqlite_in_use": round(int(sqlite.group(1)) / 2**20, 1) if sqlite else None,
            "heap_system": round(int(total.group(1)) / 2**20, 1) if total else None,
            "heap_in_use": round(int(total.group(2)) / 2**20, 1) if total else None, "arenas": arenas}


def proc_sample(pid):
    """RSS (KiB), open descriptors, CPU ticks (user + system), threads and the RSS's anonymous part (KiB:
    the heap, stacks; the rest is mapped files: the binary, libraries, the database's mapped pages) of a
    process, then that anonymous part by kind (`anon_parts`), or None."""
    try:
        rss = threads = anon = 0
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
                elif line.startswith("RssAnon:"):
                    anon = int(line.split()[1])
                elif line.startswith("Threads:"):
                    threads = int(line.split()[1])
        fds = len(os.listdir("/proc/%d/fd" % pid))
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
        return (rss, fds, ticks, threads, anon) + anon_parts(pid)
    except (OSError, ValueError, IndexError):
        return None


def anon_parts(pid):
    """The anonymous RSS (KiB) by kind of mapping, from /proc/PID/smaps: glibc's main heap (`[heap]`), its
    other arenas (a read-write start of a 64 MiB reservation, the rest `---p`), thread stacks (read-write
    right above a `---p` guard), the rest (glibc's mmapped large blocks, the Swift runtime's own), and the
    pages written in mapped files and the main stack (relocations, `.bss`). Their sum is `RssAnon`."""
    maps = []          # [start, end, perms, name ("file" for a mapped file), anonymous KiB]
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            head = line.split(None, 5)
            if "-" in head[0] and len(head) >= 5 and not head[0].endswith(":"):
                start, end = (int(x, 16) for x in head[0].split("-"))
                name = head[5].strip() if len(head) > 5 else ""
                maps.append([start, end, head[1], name if head[4] == "0" else "file", 0])
            elif line.startswith("Anonymous:") and maps:
                maps[-1][4] = int(line.split()[1])
    heap = arena = stack = other = files = 0
    for i, (start, end, perms, name, rss) in enumerate(maps):
        if name == "[heap]":
            heap += rss
        elif name == "file" or name == "[stack]" or name.startswith("[v"):
            files += rss
        elif name in ("", "[anon]") or name.startswith("[anon:"):
            if not perms.startswith("rw"):
                continue
            prev = maps[i - 1] if i > 0 else None
            nxt = maps[i + 1] if i + 1 < len(maps) else None
            if nxt and nxt[0] == end and nxt[2].startswith("---") and nxt[1] - start == 64 << 20:
                arena += rss
            elif prev and prev[1] == start and prev[2].startswith("---") and prev[3] in ("", "[anon]"):
                stack += rss
            else:
                other += rss
    return heap, arena, stack, other, files


def integrity(db):
    """`PRAGMA integrity_check` of the database after a kill (opening it replays the WAL as the
    service's next start would): 'ok' or the problems."""
    c = sqlite3.connect(db, timeout=30)
    try:
        rows = [r[0] for r in c.execute("PRAGMA integrity_check")]
    finally:
        c.close()
    return "ok" if rows == ["ok"] else "; ".join(rows[:5])


def dry_run_index(binary, music, db, work):
    """`clickwheel index --json` on a copy of the database (SQLite's backup API, consistent while the
    service writes): what a rescan would still find to do. The live database is left alone."""
    fd, copy = tempfile.mkstemp(prefix="dry-", suffix=".sqlite", dir=work)
    os.close(fd)
    try:
        src = sqlite3.connect(db, timeout=30)
        dst = sqlite3.connect(copy)
        src.backup(dst)
        src.close()
        dst.close()
        out = run([binary, "index", "--music", music, "--db", copy, "--json"])
        return json.loads(out.stdout.strip().splitlines()[-1])
    finally:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.unlink(copy + suffix)
            except FileNotFoundError:
                pass


def slope_per_hour(lives):
    """The pooled least-squares slope (units per hour) of samples [(t seconds, y)] grouped by life: each
    life keeps its own level (a restart starts lower), the slope is shared. None without data."""
    num = den = 0.0
    for samples in lives:
        if len(samples) < 3:
            continue
        tm = sum(t for t, _ in samples) / len(samples)
        ym = sum(y for _, y in samples) / len(samples)
        num += sum((t - tm) * (y - ym) for t, y in samples)
        den += sum((t - tm) ** 2 for t, _ in samples)
    return None if den == 0 else num / den * 3600
