#!/usr/bin/python3
"""meta-mpd-check.py SOCKET - drive Snapcast's own controlscript (meta_mpd.py, as Debian's snapserver
ships it) against ClickWheel's MPD socket the way snapserver does: JSON-RPC requests on its stdin, its
answers and notifications on its stdout. Every control and property snapserver can send is sent once and
its effect checked on ClickWheel with python-mpd2. Prints one line per check; exits 1 when any fails.

The queue must hold at least 3 songs (the caller adds them); the script leaves ClickWheel stopped.
Needs python3-mpd, python3-dbus, python3-gi, python3-musicbrainzngs (meta_mpd.py's imports).
Run with Debian's /usr/bin/python3 (those are its packages), as snapserver runs the script on a Pi.
"""
import json
import queue
import subprocess
import sys
import threading
import time

import mpd

SCRIPT = "/usr/share/snapserver/plug-ins/meta_mpd.py"
sock = sys.argv[1]
failures = 0


def check(name, ok, detail=""):
    global failures
    print(f"{'ok' if ok else 'FAIL'}: {name}" + (f" ({detail})" if detail else ""), flush=True)
    if not ok:
        failures += 1


proc = subprocess.Popen(
    ["/usr/bin/python3", SCRIPT, "--mpd-host", sock, "--stream", "ClickWheel", "--snapcast-host", "127.0.0.1",
     "--snapcast-port", "1780"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(sock + ".meta_mpd.log", "w"), text=True, bufsize=1)
lines = queue.Queue()
threading.Thread(target=lambda: [lines.put(json.loads(l)) for l in proc.stdout if l.strip()], daemon=True).start()
seen = []


def wait_for(match, seconds=10):
    """The first message from meta_mpd.py (already seen or coming) that `match` accepts, or None."""
    for m in seen:
        if match(m):
            seen.remove(m)
            return m
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            m = lines.get(timeout=0.1)
        except queue.Empty:
            continue
        if match(m):
            return m
        seen.append(m)
    return None


next_id = 0


def request(method, params):
    global next_id
    next_id += 1
    proc.stdin.write(json.dumps({"id": next_id, "jsonrpc": "2.0", "method": method, "params": params}) + "\n")
    proc.stdin.flush()
    rid = next_id
    return wait_for(lambda m: m.get("id") == rid)


def control(command, **params):
    return request("Plugin.Stream.Player.Control", {"command": command, "params": params} if params else {"command": command})


client = mpd.MPDClient()
client.connect(sock)


def until(what, predicate, seconds=10):
    deadline = time.time() + seconds
    status = client.status()
    while time.time() < deadline and not predicate(status):
        time.sleep(0.1)
        status = client.status()
    return status


ready = wait_for(lambda m: m.get("method") == "Plugin.Stream.Ready", 15)
check("meta_mpd.py connected to ClickWheel and said Plugin.Stream.Ready", ready is not None)

r = control("play")
check("Control play answered ok", r == {"jsonrpc": "2.0", "result": "ok", "id": r and r["id"]}, r)
s = until("play", lambda s: s.get("state") == "play")
check("ClickWheel plays", s.get("state") == "play", s.get("state"))
song = client.currentsong()
props = wait_for(lambda m: m.get("method") == "Plugin.Stream.Player.Properties"
                 and m["params"].get("metadata", {}).get("title") == song.get("title"), 10)
check("Properties notification carries ClickWheel's current title", props is not None, song.get("title"))
if props:
    p = props["params"]
    check("playbackStatus playing", p.get("playbackStatus") == "playing", p.get("playbackStatus"))
    check("metadata artist", p["metadata"].get("artist") == [song.get("artist")], p["metadata"].get("artist"))

control("pause")
s = until("pause", lambda s: s.get("state") == "pause")
check("Control pause pauses", s.get("state") == "pause", s.get("state"))
control("playPause")
s = until("play", lambda s: s.get("state") == "play")
check("Control playPause resumes", s.get("state") == "play", s.get("state"))

before = client.status().get("song")
control("next")
s = until("next", lambda s: s.get("song") != before)
check("Control next moves on", s.get("song") != before, f"{before} -> {s.get('song')}")
control("previous")
s = until("previous", lambda s: s.get("song") == before)
check("Control previous goes back", s.get("song") == before, f"-> {s.get('song')}")

control("setPosition", position=1.5)
s = until("seek", lambda s: 1.4 <= float(s.get("elapsed", 0)) < 2.5)
check("Control setPosition seeks", 1.4 <= float(s.get("elapsed", 0)) < 2.5, s.get("elapsed"))
control("seek", offset=-1.0)
s = until("seek back", lambda s: float(s.get("elapsed", 9)) < 1.4)
check("Control seek -1 s", float(s.get("elapsed", 9)) < 1.4, s.get("elapsed"))

r = request("Plugin.Stream.Player.SetProperty", {"volume": 30})
s = until("volume", lambda s: s.get("volume") == "30")
check("SetProperty volume", s.get("volume") == "30" and r.get("result") == "ok", s.get("volume"))
request("Plugin.Stream.Player.SetProperty", {"shuffle": True})
s = until("random", lambda s: s.get("random") == "1")
check("SetProperty shuffle", s.get("random") == "1", s.get("random"))
request("Plugin.Stream.Player.SetProperty", {"shuffle": False, "loopStatus": "track"})
s = until("single", lambda s: s.get("repeat") == "1" and s.get("single") == "1")
check("SetProperty loopStatus track", (s.get("repeat"), s.get("single"), s.get("random")) == ("1", "1", "0"),
      (s.get("repeat"), s.get("single"), s.get("random")))
request("Plugin.Stream.Player.SetProperty", {"loopStatus": "none"})
s = until("repeat off", lambda s: s.get("repeat") == "0" and s.get("single") == "0")
check("SetProperty loopStatus none", (s.get("repeat"), s.get("single")) == ("0", "0"))

r = request("Plugin.Stream.Player.GetProperties", {})
res = (r or {}).get("result", {})
check("GetProperties answers ClickWheel's state",
      res.get("playbackStatus") == "playing" and res.get("volume") == 30 and res.get("canControl") is True, res)

control("stop")
s = until("stop", lambda s: s.get("state") == "stop")
check("Control stop stops", s.get("state") == "stop", s.get("state"))

proc.terminate()
proc.wait(5)
sys.exit(1 if failures else 0)
