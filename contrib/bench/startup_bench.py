#!/usr/bin/env python3
"""Service start and idle: `clickwheel run` against MPD 0.23 on the same indexed library, same run.

    python3 contrib/bench/startup_bench.py [--corpus /tmp/clickwheel-corpus] [--runs 5] [--idle 30]
                                           [--binary PATH] [--json OUT]

Both programs start with their database of the 10k-track corpus already built (made once, unmeasured,
in a work folder under /tmp), with a null audio output and a Unix socket. For each run, alternating
which program goes first:

  start -> socket greeting   launch until a client connecting in a loop reads `OK MPD …`
  start -> first frame       clickwheel only: (a) `--display none`, until the control socket's `screen`
                             answers with the main menu; (b) the terminal display under tmux, until
                             `tmux capture-pane` shows the main menu (polled every 2 ms)
  RSS idle                   VmRSS once the start-up work is over (clickwheel: its no-change rescan
                             at start has logged its summary; MPD: 3 s after the greeting)
  CPU idle                   utime+stime over --idle seconds of doing nothing, % of one core

Medians are printed with the ratio clickwheel / MPD. The corpus comes from ../shared/bench/
make_corpus.py (made here when missing); MPD runs through mpd_anchor.py's driver (own config in a
temporary folder, null output, no state file).
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def log(msg):
    print("[startup-bench] " + msg, file=sys.stderr, flush=True)


def greeting(path, deadline):
    """Connects in a loop until the server greets; returns the greeting's arrival time."""
    while time.perf_counter() < deadline:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(5)
            s.connect(path)
            line = s.makefile("rb").readline()
            t = time.perf_counter()
            s.close()
            if line.startswith(b"OK MPD "):
                return t
        except (FileNotFoundError, ConnectionRefusedError, socket.timeout, OSError):
            pass
        time.sleep(0.001)
    raise TimeoutError("no greeting on %s" % path)


def request(path, command):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(path)
    f = s.makefile("rb")
    f.readline()
    s.sendall(command.encode() + b"\n")
    out = []
    while True:
        line = f.readline()
        if not line or line == b"OK\n" or line.startswith(b"ACK"):
            break
        out.append(line.decode("utf-8", "replace"))
    s.close()
    return "".join(out)


def wait_for_log(path, text, deadline):
    while time.perf_counter() < deadline:
        try:
            if text in open(path, encoding="utf-8", errors="replace").read():
                return time.perf_counter()
        except FileNotFoundError:
            pass
        time.sleep(0.02)
    raise TimeoutError("%r never appeared in %s" % (text, path))


def idle_figures(mpd_anchor, pid, seconds):
    rss = mpd_anchor.memory_kib(pid)["VmRSS"] / 1024
    cpu0, t0 = mpd_anchor.cpu_seconds(pid), time.perf_counter()
    time.sleep(seconds)
    cpu = mpd_anchor.cpu_seconds(pid) - cpu0
    return rss, 100 * cpu / (time.perf_counter() - t0), cpu


def stop(proc):
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def run_clickwheel(binary, music, work, idle, mpd_anchor):
    """One headless start: greeting, first frame through `screen`, RSS and CPU idle, clean stop."""
    sock, err = os.path.join(work, "cw.socket"), os.path.join(work, "cw.stderr")
    for p in (sock, err):
        if os.path.exists(p):
            os.unlink(p)
    t0 = time.perf_counter()
    with open(err, "w") as e:
        proc = subprocess.Popen([binary, "run", "--display", "none", "--input", "none", "--output", "null",
                                 "--music", music, "--db", os.path.join(work, "cw.sqlite"), "--socket", sock],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=e)
    try:
        t_greet = greeting(sock, t0 + 30)
        while True:
            if "row: >Music" in request(sock, "screen"):
                t_frame = time.perf_counter()
                break
            time.sleep(0.001)
        wait_for_log(err, "library: ", t0 + 60)
        time.sleep(1)
        rss, cpu_pct, cpu_s = idle_figures(mpd_anchor, proc.pid, idle)
        t_stop = time.perf_counter()
        stop(proc)
        stop_s = time.perf_counter() - t_stop
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return {"greeting_s": t_greet - t0, "first_frame_screen_s": t_frame - t0, "rss_idle_mib": rss,
            "cpu_idle_pct": cpu_pct, "cpu_idle_s": cpu_s, "sigterm_exit_s": stop_s, "exit_status": proc.returncode,
            "socket_left": os.path.exists(sock)}


def run_clickwheel_terminal(binary, music, work):
    """Start -> the main menu on the terminal display, read with tmux capture-pane; None without tmux."""
    tmux = shutil.which("tmux")
    if not tmux:
        return None
    sock = os.path.join(work, "cw-tmux.socket")
    server = ["-L", "cw-startup-bench-%d" % os.getpid()]
    cmd = "exec " + " ".join([binary, "run", "--display", "terminal", "--input", "none", "--output", "null",
                    "--music", music, "--db", os.path.join(work, "cw.sqlite"), "--socket", sock])
    t0 = time.perf_counter()
    subprocess.run([tmux] + server + ["new-session", "-d", "-x", "80", "-y", "24", cmd], check=True)
    try:
        while time.perf_counter() < t0 + 30:
            screen = subprocess.run([tmux] + server + ["capture-pane", "-p"], capture_output=True, text=True).stdout
            if ">Music" in screen:
                return time.perf_counter() - t0
            time.sleep(0.002)
        raise TimeoutError("no main menu in tmux")
    finally:
        pane = subprocess.run([tmux] + server + ["display-message", "-p", "#{pane_pid}"], capture_output=True,
                              text=True).stdout.strip()
        if pane.isdigit():
            os.kill(int(pane), 15)                    # SIGTERM: a clean stop, as from systemd
            deadline = time.perf_counter() + 5
            while time.perf_counter() < deadline and os.path.exists("/proc/" + pane):
                time.sleep(0.02)
        subprocess.run([tmux] + server + ["kill-server"], capture_output=True)


def run_mpd(mpd, idle, mpd_anchor):
    t0, t_greet, client = mpd.start()
    client.close()
    time.sleep(3)
    rss, cpu_pct, cpu_s = idle_figures(mpd_anchor, mpd.pid, idle)
    mpd.stop()
    return {"greeting_s": t_greet - t0, "rss_idle_mib": rss, "cpu_idle_pct": cpu_pct, "cpu_idle_s": cpu_s}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default="/tmp/clickwheel-corpus")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--idle", type=float, default=30, help="seconds of idle CPU measurement per run")
    ap.add_argument("--binary", help="a clickwheel binary (default: build the release one)")
    ap.add_argument("--shared", default=os.environ.get("CLICKWHEEL_SHARED", os.path.join(ROOT, "..", "shared")))
    ap.add_argument("--json", help="write every run's figures here")
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.shared, "bench"))
    import mpd_anchor  # noqa: E402  (MPD driver and /proc readers, from shared/)

    music = os.path.join(a.corpus, "music")
    if not os.path.isdir(music):
        log("making the corpus in %s" % a.corpus)
        subprocess.run([sys.executable, os.path.join(a.shared, "bench", "make_corpus.py"), "--out", a.corpus],
                       check=True)
    binary = a.binary
    if not binary:
        log("building clickwheel (release)")
        subprocess.run(["swift", "build", "-c", "release", "--product", "clickwheel"], cwd=ROOT, check=True,
                       stdout=sys.stderr)
        binary = os.path.join(ROOT, ".build", "release", "clickwheel")
    work = tempfile.mkdtemp(prefix="cw-startup-", dir="/tmp")
    log("work folder %s; indexing once for each program (not measured)" % work)
    subprocess.run([binary, "index", "--music", music, "--db", os.path.join(work, "cw.sqlite")], check=True,
                   stdout=subprocess.DEVNULL)
    mpd = mpd_anchor.Mpd(shutil.which("mpd") or "mpd", music, os.path.join(work, "mpd"))
    _, _, c = mpd.start()
    mpd_anchor.wait_update_done(c)
    c.close()
    mpd.stop()

    cw_runs, mpd_runs, term_runs = [], [], []
    try:
        for r in range(a.runs):
            order = ["cw", "mpd"] if r % 2 == 0 else ["mpd", "cw"]
            for who in order:
                if who == "cw":
                    cw_runs.append(run_clickwheel(binary, music, work, a.idle, mpd_anchor))
                    t = run_clickwheel_terminal(binary, music, work)
                    if t is not None:
                        term_runs.append(t)
                    log("run %d clickwheel: %s, terminal first frame %s" % (r + 1, json.dumps(
                        {k: round(v, 4) if isinstance(v, float) else v for k, v in cw_runs[-1].items()}),
                        "%.3f s" % t if t is not None else "(no tmux)"))
                else:
                    mpd_runs.append(run_mpd(mpd, a.idle, mpd_anchor))
                    log("run %d MPD: %s" % (r + 1, json.dumps({k: round(v, 4) for k, v in mpd_runs[-1].items()})))
    finally:
        mpd.stop()

    def med(rows, key):
        return statistics.median(x[key] for x in rows)

    version = subprocess.run([shutil.which("mpd") or "mpd", "--version"], capture_output=True,
                             text=True).stdout.splitlines()[0]
    rows = [
        ("start -> socket greeting", "s", med(cw_runs, "greeting_s"), med(mpd_runs, "greeting_s")),
        ("start -> first frame (screen, --display none)", "s", med(cw_runs, "first_frame_screen_s"), None),
        ("start -> first frame (terminal, tmux)", "s", statistics.median(term_runs) if term_runs else None, None),
        ("RSS idle", "MiB", med(cw_runs, "rss_idle_mib"), med(mpd_runs, "rss_idle_mib")),
        ("CPU idle (%% of one core over %g s)" % a.idle, "%", med(cw_runs, "cpu_idle_pct"),
         med(mpd_runs, "cpu_idle_pct")),
        ("SIGTERM -> exit", "s", med(cw_runs, "sigterm_exit_s"), None),
    ]
    print("clickwheel vs %s, %d runs (medians), load %.2f" % (version, a.runs, os.getloadavg()[0]))
    print("| | clickwheel | MPD | ratio |\n| --- | --- | --- | --- |")
    for name, unit, cw, m in rows:
        def fmt(v):
            return "" if v is None else ("%.3f %s" % (v, unit) if unit != "MiB" else "%.1f MiB" % v)
        ratio = "%.2f" % (cw / m) if cw is not None and m else ""
        print("| %s | %s | %s | %s |" % (name, fmt(cw), fmt(m), ratio))
    print("clickwheel exits: statuses %s, socket left behind: %s" % (
        sorted({x["exit_status"] for x in cw_runs}), any(x["socket_left"] for x in cw_runs)))
    if a.json:
        json.dump({"clickwheel": cw_runs, "terminal_first_frame_s": term_runs, "mpd": mpd_runs, "mpd_version": version},
                  open(a.json, "w"), indent=1)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
