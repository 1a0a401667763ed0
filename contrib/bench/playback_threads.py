#!/usr/bin/env python3
"""Per-thread CPU (schedstat) of `clickwheel run` from `play` to the end of one file, mpg123 beside it.

    python3 contrib/bench/playback_threads.py BINARY MUSIC FILE SECONDS [--watch-screen]

FILE is relative to MUSIC; SECONDS is about its length (the control socket is not asked anything until
then, so the control server's thread is not busy answering the wait). Needs a sound server
(contrib/ci/pulse-start.sh), mpc and mpg123. See README.md, "MP3 playback and memory".
--watch-screen: before `play`, a client asks `idle screen` once (answered at once), so the service renders
its frames as it does for a display or a screen watcher (without a display and before any watcher it does
not render): the same binary with and without the Now Playing render.
"""
import os, socket, subprocess, sys, time, glob
watch = '--watch-screen' in sys.argv[1:]
args = [a for a in sys.argv[1:] if a != '--watch-screen']
binary, music, f = args[0], args[1], args[2]
work = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'threads'); os.makedirs(work, exist_ok=True)
sock = os.path.join(work, 'sock'); db = os.path.join(work, 'db.sqlite')
for p in (sock, db): 
    if os.path.exists(p): os.remove(p)
p = subprocess.Popen([binary, 'run', '--display', 'none', '--input', 'none', '--music', music, '--db', db, '--socket', sock],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, 'log'), 'w'))
for _ in range(400):
    if os.path.exists(sock): break
    time.sleep(0.05)
time.sleep(2)
def mpc(*a): return subprocess.run(['mpc', '-h', sock, *a], capture_output=True, text=True).stdout
def threads():
    d = {}
    for t in glob.glob(f'/proc/{p.pid}/task/*'):
        try:
            name = open(t + '/comm').read().strip(); ns = int(open(t + '/schedstat').read().split()[0])
        except OSError: continue
        d[t] = (name, ns)
    return d
if watch:
    c = socket.socket(socket.AF_UNIX); c.connect(sock); r = c.makefile('rwb')
    r.readline(); r.write(b'idle screen\n'); r.flush()
    while r.readline() not in (b'OK\n', b''): pass
    c.close()
mpc('clear'); mpc('add', f)
m = subprocess.Popen(['mpg123', '-q', '-o', 'pulse', os.path.join(music, f)])
a = threads(); mpc('play')
time.sleep(float(args[3]))
while True:
    time.sleep(0.2)
    if 'playing' not in mpc('status') : break
b = threads()
_, _, ru = os.wait4(m.pid, 0)
p.terminate(); p.wait()
by = {}
for t, (name, ns) in b.items():
    by[name] = by.get(name, 0) + ns - a.get(t, (name, 0))[1]
tot = sum(by.values()) / 1e9; mp = ru.ru_utime + ru.ru_stime
print('service %.3f s, mpg123 %.3f s, ratio %.3f' % (tot, mp, tot / mp))
for n, v in sorted(by.items(), key=lambda x: -x[1]):
    if v > 0: print('  %-20s %.4f s  (%.3f of mpg123)' % (n, v / 1e9, v / 1e9 / mp))
