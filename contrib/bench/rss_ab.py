#!/usr/bin/env python3
"""RSS of clickwheel builds taking turns: idle (3 s after the socket is up) and playing (10 s after play).

    python3 contrib/bench/rss_ab.py MUSIC ROUNDS NAME=BINARY...

Each round starts each binary in turn (the order alternating between rounds) with `run --display none
--input none --music MUSIC` on a database of its own under $TMPDIR/rss-ab, reads /proc/PID/status 3 s after
its control socket appears, plays the whole folder on repeat through `mpc` and reads it again 10 s later.
Needs a sound server (contrib/ci/pulse-start.sh) and mpc. See README.md, "MP3 playback and memory".
"""
import os, subprocess, sys, time, shutil
music, rounds, bins = sys.argv[1], int(sys.argv[2]), [a.split('=', 1) for a in sys.argv[3:]]
work = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'rss-ab')
os.makedirs(work, exist_ok=True)
def status(pid):
    d = {}
    for line in open(f'/proc/{pid}/status'):
        k, _, v = line.partition(':')
        if k in ('VmRSS', 'VmHWM', 'RssAnon', 'RssFile'): d[k] = int(v.split()[0]) / 1024
    return d
def mpc(sock, *args):
    return subprocess.run(['mpc', '-h', sock, *args], capture_output=True, text=True, check=True).stdout
rows = []
for r in range(rounds):
    for name, binary in (bins if r % 2 == 0 else bins[::-1]):
        db = os.path.join(work, f'{name}.sqlite'); sock = os.path.join(work, f'{name}.sock')
        if os.path.exists(sock): os.remove(sock)
        log = open(os.path.join(work, f'{name}.log'), 'w')
        p = subprocess.Popen([binary, 'run', '--display', 'none', '--input', 'none', '--music', music, '--db', db,
                              '--socket', sock], stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        for _ in range(400):
            if os.path.exists(sock): break
            time.sleep(0.05)
        time.sleep(3)
        idle = status(p.pid)
        mpc(sock, 'clear'); mpc(sock, 'add', '/'); mpc(sock, 'repeat', 'on'); mpc(sock, 'play')
        time.sleep(10)
        state = mpc(sock, 'status').splitlines()[1] if len(mpc(sock, 'status').splitlines()) > 1 else '?'
        playing = status(p.pid)
        p.terminate(); p.wait()
        rows.append((name, r + 1, idle, playing, state))
        print(f"{name} round {r+1}: idle RSS {idle['VmRSS']:.1f} MiB (anon {idle['RssAnon']:.1f}, file {idle['RssFile']:.1f}); "
              f"playing {playing['VmRSS']:.1f} MiB (anon {playing['RssAnon']:.1f}, file {playing['RssFile']:.1f}), peak {playing['VmHWM']:.1f}; {state}", flush=True)
