#!/usr/bin/env python3
"""Per-thread CPU (schedstat) and wakeups of `clickwheel run` from `play` to the end of one file, mpg123 beside it.

    python3 contrib/bench/playback_threads.py BINARY MUSIC FILE SECONDS [--watch-screen]

FILE is relative to MUSIC; SECONDS is about its length (the control socket is not asked anything until
then, so the control server's thread is not busy answering the wait). Needs a sound server
(contrib/ci/pulse-start.sh), mpc and mpg123. See README.md, "MP3 playback and memory".
Then, over the middle of the run (5 s after `play` to 5 s before the end), each thread's CPU and wakeups (its
voluntary context switches, `/proc/PID/task/TID/status`) per second, the service's and mpg123's.
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
def threads(pid):
    d = {}
    for t in glob.glob(f'/proc/{pid}/task/*'):
        try:
            name = open(t + '/comm').read().strip(); ns = int(open(t + '/schedstat').read().split()[0])
            sw = next(int(l.split()[1]) for l in open(t + '/status') if l.startswith('voluntary_ctxt_switches'))
        except (OSError, StopIteration): continue
        d[t] = (name, ns, sw)
    return d
if watch:
    c = socket.socket(socket.AF_UNIX); c.connect(sock); r = c.makefile('rwb')
    r.readline(); r.write(b'idle screen\n'); r.flush()
    while r.readline() not in (b'OK\n', b''): pass
    c.close()
mpc('clear'); mpc('add', f)
m = subprocess.Popen(['mpg123', '-q', '-o', 'pulse', os.path.join(music, f)])
a = threads(p.pid); mpc('play')
# Wakeups over the steady middle of the run (both players started, neither ending yet).
time.sleep(5); w0 = (threads(p.pid), threads(m.pid), time.monotonic())
time.sleep(float(args[3]) - 10); w1 = (threads(p.pid), threads(m.pid), time.monotonic())
time.sleep(5)
while True:
    time.sleep(0.2)
    if 'playing' not in mpc('status') : break
b = threads(p.pid)
_, _, ru = os.wait4(m.pid, 0)
p.terminate(); p.wait()
def per_name(before, after):
    by = {}
    for t, (name, ns, sw) in after.items():
        _, ns0, sw0 = before.get(t, (name, 0, 0))
        c, w = by.get(name, (0, 0)); by[name] = (c + ns - ns0, w + sw - sw0)
    return by
by = per_name(a, b); wby = per_name(w0[0], w1[0]); wbym = per_name(w0[1], w1[1]); secs = w1[2] - w0[2]
tot = sum(v[0] for v in by.values()) / 1e9; mp = ru.ru_utime + ru.ru_stime
wk = sum(v[1] for v in wby.values()) / secs; wkm = sum(v[1] for v in wbym.values()) / secs
print('service %.3f s, mpg123 %.3f s, ratio %.3f; wakeups/s service %.1f, mpg123 %.1f' % (tot, mp, tot / mp, wk, wkm))
for n, (v, _) in sorted(by.items(), key=lambda x: -x[1][0]):
    if v > 0: print('  %-20s %.4f s  (%.3f of mpg123)' % (n, v / 1e9, v / 1e9 / mp))
print('over the middle %.0f s, CPU ms/s and wakeups/s of each thread:' % secs)
for who, d in (('service', wby), ('mpg123', wbym)):
    for n, (v, w) in sorted(d.items(), key=lambda x: -x[1][0]):
        if v > 0 or w > 0: print('  %-8s %-20s %6.3f ms/s  %5.1f wakeups/s' % (who, n, v / 1e6 / secs, w / secs))
