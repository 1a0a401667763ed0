#!/usr/bin/env python3
"""A deterministic mixed-format library with a manifest of what every file holds (issue 32).

    python3 contrib/bench/make_mixed_corpus.py [--tracks 10000] [--out /tmp/clickwheel-mixed] [--seed 1]
                                               [--jobs 2] [--force] [--no-verify]

What it makes (under --out):

    music/          the library: Artist/Album/NN Title.ext (album artists, some compilations under
                    Compilations/, audiobooks under Audiobooks/Author/Book/), one format per album
    clips/          the clip pool: each source clip's PCM (clips/src) and its encodings, one folder a
                    profile (clips/<profile>/<clip>.<ext>), clips.json with their measurements
    manifest.json   every track: path, format, profile, true tags, the true playable length (samples
                    at the stream's rate), the file's size and the bytes an indexer must read
    manifest.tsv    one line a track with the columns most checks need

How: ~40 music-like clips (5-40 s: a pad chord with tremolo, a plucked melody, noise-burst hi-hats and
a falling-tone kick; sox in repeatable mode -R) are made once as 16-bit 44.1 kHz stereo PCM and encoded
once per format profile (the profiles of 24-bit/96 kHz FLAC, ALAC, WAV and AIFF use the short clips
only). Every track is a copy of one encoded clip of its album's profile with its own tags, written by
mutagen: ID3v2 for MP3 and AIFF (an `ID3 ` chunk), MP4 atoms for .m4a/.m4b, Vorbis comments for FLAC,
Ogg Vorbis and Opus; WAV gets a RIFF `LIST`/`INFO` chunk written here (before or after the data chunk,
as ffmpeg and foobar2000 place it).

The true length of a track is the PCM its encoder was given: for Opus the 48 kHz source (the clip is
resampled by sox before opusenc, which then resamples nothing); for 24/96 FLAC the 96 kHz source; for
MP3 what mpg123 decodes gaplessly (LAME's header gives the delay and padding: the source length); for
AAC the source length (ffmpeg's MP4 muxer states it in the edit list and trims the last frame in the
sample table). Each encoding is checked against that where a plain parser can: FLAC's STREAMINFO total,
Ogg's last granule (less Opus's pre-skip), ffprobe's stream duration_ts for MP4, the WAV/AIFF frame count.

Shares of tracks (by profile): MP3 40 % (lame CBR 192/320, VBR -V0/-V2, all with a Xing/Info + LAME
header), AAC 25 % (ffmpeg's `aac` 256k with moov at the end, 128k with moov in front, and 64k mono
.m4b audiobooks), FLAC 20 % (16-bit 44.1 kHz at -5 and -8, 24-bit 96 kHz), Vorbis/Opus 10 % (oggenc -q5,
opusenc 128k), ALAC/WAV/AIFF 5 %.

The same seed and the same sox/lame/mpg123/flac/oggenc/opusenc/ffmpeg/mutagen versions give the same
files (oggenc and opusenc get fixed stream serials; ffmpeg runs with bitexact flags).
"""
import argparse
import hashlib
import json
import multiprocessing
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unicodedata
import wave
from concurrent.futures import ThreadPoolExecutor

try:
    import mutagen
    from mutagen import id3
    from mutagen.mp4 import MP4, MP4Cover
    from mutagen.flac import FLAC, Picture
    from mutagen.oggvorbis import OggVorbis
    from mutagen.oggopus import OggOpus
    from mutagen.aiff import AIFF
except ImportError:  # pragma: no cover
    sys.exit("make_mixed_corpus.py needs mutagen: 'pip install mutagen' or 'apt-get install python3-mutagen'")

VERSION = 1
MARKER = ".clickwheel-mixed-corpus"
PAGE = 4096
BASE_RATE = 44100

# profile: format, extension, codec, share of tracks (%), rate, bits, channels, clips ("all", "short",
# "long"), encoder arguments
PROFILES = {
    "mp3_cbr192":   dict(format="mp3", ext="mp3", share=12, rate=44100, bits=16, ch=2, clips="all", args=["-b", "192"]),
    "mp3_cbr320":   dict(format="mp3", ext="mp3", share=8, rate=44100, bits=16, ch=2, clips="all", args=["-b", "320"]),
    "mp3_v0":       dict(format="mp3", ext="mp3", share=8, rate=44100, bits=16, ch=2, clips="all", args=["-V", "0"]),
    "mp3_v2":       dict(format="mp3", ext="mp3", share=12, rate=44100, bits=16, ch=2, clips="all", args=["-V", "2"]),
    "aac_256":      dict(format="aac", ext="m4a", share=11, rate=44100, bits=16, ch=2, clips="all", args=["-b:a", "256k"]),
    "aac_128_fast": dict(format="aac", ext="m4a", share=12, rate=44100, bits=16, ch=2, clips="all",
                         args=["-b:a", "128k", "-movflags", "+faststart"]),
    "aac_m4b_64k":  dict(format="aac", ext="m4b", share=2, rate=44100, bits=16, ch=1, clips="long", args=["-b:a", "64k"]),
    "flac16_5":     dict(format="flac", ext="flac", share=9, rate=44100, bits=16, ch=2, clips="all", args=["-5"]),
    "flac16_8":     dict(format="flac", ext="flac", share=8, rate=44100, bits=16, ch=2, clips="all", args=["-8"]),
    "flac24_96":    dict(format="flac", ext="flac", share=3, rate=96000, bits=24, ch=2, clips="short", args=["-5"]),
    "vorbis_q5":    dict(format="vorbis", ext="ogg", share=6, rate=44100, bits=16, ch=2, clips="all", args=["-q", "5"]),
    "opus_128":     dict(format="opus", ext="opus", share=4, rate=48000, bits=16, ch=2, clips="all", args=["--bitrate", "128"]),
    "alac":         dict(format="alac", ext="m4a", share=2, rate=44100, bits=16, ch=2, clips="short", args=[]),
    "wav16":        dict(format="wav", ext="wav", share=1.5, rate=44100, bits=16, ch=2, clips="short", args=[]),
    "aiff16":       dict(format="aiff", ext="aiff", share=1.5, rate=44100, bits=16, ch=2, clips="short", args=[]),
}
N_CLIPS = 40
SHORT_S = 12.0          # "short" clips: at most this long (lossless PCM and 24/96 stay small)
LONG_S = 18.0           # "long" clips: at least this long (audiobook parts)

# --------------------------------------------------------------------------------------------
# Names.
# --------------------------------------------------------------------------------------------
ADJ = ("Silent Golden Electric Broken Velvet Crimson Hollow Northern Paper Neon Wild Quiet Distant Burning "
       "Frozen Hidden Lonely Radiant Restless Secret Sleeping Wandering Amber Silver Midnight Summer").split()
NOUN = ("Heart River Mountain Ocean City Garden Window Mirror Engine Signal Shadow Harbor Lantern Compass "
        "Voyage Kingdom Valley Thunder Feather Glacier Runner Canyon Orchard Satellite Tide Meadow").split()
FIRST = "Anna Ben Clara David Elena Felix Grace Henry Iris Jack Kate Leo Maya Noah Olivia Paul Rosa Sam".split()
LAST = "Abbott Barnes Carver Dalton Ellis Fowler Garrett Hayes Irving Jensen Keller Lowe Marsh Nolan Price".split()
SPECIAL = ["Björk Guðmundsdóttir", "Sigur Rós", "Motörhead Tribute", "Zoë Keating", "Françoise Hardy Revival",
           "坂本 龍一", "きゃりーぱみゅぱみゅ", "Кино", "Аквариум", "Μίκης Θεοδωράκης", "방탄 Echo", "Mø Signal",
           "Plus/Minus", "A.M./P.M.", "?uestion", "Sister & Brother"]
TITLE_EXTRA = ["Café Noir", "Déjà Vu", "Straße", "Señorita", "Noël", "Überall", "夜明け", "Звезда", "Θάλασσα",
               "Don't Look Back", "What's Left?", "Hold On!", "Night Drive \U0001F319", "Intro", "Outro"]
GENRES = ["Rock", "Pop", "Jazz", "Electronic", "Classical", "Blues", "Folk", "Ambient", "Hip-Hop", "Soundtrack"]


def rng_for(seed, purpose):
    return random.Random("%s/%s" % (seed, purpose))


def pick(rng, seq):
    return seq[rng.randrange(len(seq))]


def make_artist(rng, taken):
    while True:
        r = rng.random()
        if r < 0.15:
            name = "The %s %ss" % (pick(rng, ADJ), pick(rng, NOUN))
        elif r < 0.45:
            name = "%s %s" % (pick(rng, FIRST), pick(rng, LAST))
        elif r < 0.75:
            name = "%s %s" % (pick(rng, ADJ), pick(rng, NOUN))
        elif r < 0.85:
            name = "%s Quartet" % pick(rng, LAST)
        else:
            name = pick(rng, SPECIAL)
        if name.lower() not in taken:
            taken.add(name.lower())
            return name


def make_title(rng):
    r = rng.random()
    if r < 0.35:
        return "%s %s" % (pick(rng, ADJ), pick(rng, NOUN))
    if r < 0.55:
        return "%s of %ss" % (pick(rng, NOUN), pick(rng, NOUN))
    if r < 0.7:
        return "The %s %s" % (pick(rng, ADJ), pick(rng, NOUN))
    if r < 0.85:
        return pick(rng, TITLE_EXTRA)
    return "%s %s (Remastered %d)" % (pick(rng, ADJ), pick(rng, NOUN), rng.randint(1995, 2023))


def safe(name, max_bytes=150):
    s = name.replace("/", "_").replace("\0", "")
    s = "".join("_" if c in '\\:*?"<>|' else c for c in s).strip().rstrip(".") or "_"
    if s.startswith("."):
        s = "_" + s[1:]
    while len(s.encode("utf-8")) > max_bytes:
        s = s[:-1]
    return s.rstrip()


# --------------------------------------------------------------------------------------------
# Clips: synthesis (sox), encoding, measurement.
# --------------------------------------------------------------------------------------------
def plan_clips(seed):
    rng = rng_for(seed, "clips")
    specs = []
    for i in range(N_CLIPS):
        seconds = 5 + 35 * rng.random() ** 2
        if i < 12:                          # a dozen short ones for the big PCM-like profiles
            seconds = 5 + 6.5 * rng.random()
        root = rng.randint(-14, -2)
        scale = (0, 2, 4, 5, 7, 9, 11) if rng.random() < 0.6 else (0, 2, 3, 5, 7, 8, 10)
        specs.append({"id": "c%02d" % i, "samples": int(round(seconds * BASE_RATE)),
                      "bpm": rng.randint(72, 168), "lead_s": rng.choice([0, 0, 0, 0.3, 0.8]),
                      "fade_in_s": rng.choice([0, 0, 0.5, 2.0]),
                      "notes": [root + scale[d % 7] + 12 * (d // 7) for d in (rng.randint(0, 9) for _ in range(16))],
                      "pad": [root - 12, root - 12 + (7 if rng.random() < 0.7 else 3), root - 12 + 16],
                      "noise": rng.choice(["pinknoise", "whitenoise"])})
    return specs


def synth(spec, wav, tmp):
    """16-bit 44.1 kHz stereo: pad chord with tremolo, plucked melody, noise-burst hats, kick."""
    import shlex
    rate, total = BASE_RATE, spec["samples"]
    lead = int(spec["lead_s"] * rate)
    body = total - lead
    pipe = lambda a: "|" + " ".join(shlex.quote(x) for x in a)  # noqa: E731
    base = ["sox", "-V1", "-R", "-D", "-r", str(rate), "-c", "1", "-n", "-p"]
    eighth = 30.0 / spec["bpm"]
    mel = os.path.join(tmp, spec["id"] + "-mel.wav")
    notes = [pipe(base + ["synth", "%.4f" % eighth, "pluck", "%%%d" % n, "gain", "-6"]) for n in spec["notes"]]
    subprocess.run(["sox", "-V1", "-R", "-D"] + notes + ["-b", "16", mel], check=True)
    loops = int(body / rate / (16 * eighth)) + 1
    layers = [
        ("0.45", ["sox", "-V1", "-R", "-D", mel, "-p", "repeat", str(loops), "remix", "1v0.9", "1v0.6"]),
        ("0.20", ["sox", "-V1", "-R", "-D", "-r", str(rate), "-c", "2", "-n", "-p", "synth", "%ds" % body]
         + sum((["sine", "%%%d" % p] for p in spec["pad"]), []) + ["tremolo", "0.25", "40"]),
        ("0.12", base + ["synth", "0.04", spec["noise"], "fade", "0", "0.04", "0.03", "pad", "0",
                         "%.4f" % (eighth - 0.04), "repeat", str(loops * 16), "remix", "1", "1"]),
        ("0.30", base + ["synth", "0.12", "sine", "110-45", "fade", "0", "0.12", "0.08", "pad", "0",
                         "%.4f" % (2 * eighth - 0.12), "repeat", str(loops * 8), "remix", "1", "1"]),
    ]
    mix = ["sox", "-V1", "-R", "-D", "-m"]
    for vol, cmd in layers:
        mix += ["-v", vol, pipe(cmd)]
    mix += ["-b", "16", wav, "trim", "0", "%ds" % body]
    if lead:
        mix += ["pad", "%ds" % lead]
    mix += ["fade", "t", str(spec["fade_in_s"]), "%ds" % total, "0.8", "norm", "-1.5"]
    subprocess.run(mix, check=True)
    with wave.open(wav) as w:
        assert w.getnframes() == total and w.getframerate() == rate, "sox made a clip of the wrong length"


def frames_of(path):
    """Frames of a WAV (any bit depth: the header, not the wave module, which refuses 24-bit extensible)."""
    with open(path, "rb") as f:
        data = f.read(1 << 16)
    fmt = data.find(b"fmt ")
    ch, = struct.unpack_from("<H", data, fmt + 10)
    bits, = struct.unpack_from("<H", data, fmt + 22)
    pos = 12
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], struct.unpack_from("<I", data, pos + 4)[0]
        if cid == b"data":
            if size == 0xFFFFFFFF or pos + 8 + size > os.path.getsize(path):
                size = os.path.getsize(path) - pos - 8
            return size // (ch * bits // 8)
        pos += 8 + size + (size & 1)
    raise ValueError("no data chunk in " + path)


def source_for(profile, src, tmp):
    """The PCM a profile's encoder gets, from the 16/44.1 stereo source; returns (path, frames)."""
    p = PROFILES[profile]
    if p["rate"] == BASE_RATE and p["ch"] == 2 and p["bits"] == 16:
        return src, frames_of(src)
    out = os.path.join(tmp, "src-%s.wav" % profile)
    cmd = ["sox", "-V1", "-R", "-D", src, "-t", "wavpcm", "-b", str(p["bits"]), out]   # no 'fact' chunk
    if p["ch"] == 1:
        cmd += ["remix", "-"]
    if p["rate"] != BASE_RATE:
        cmd += ["rate", "-v", str(p["rate"])]
    cmd += ["gain", "-n", "-1"] if p["rate"] != BASE_RATE else []
    subprocess.run(cmd, check=True)
    return out, frames_of(out)


FFMPEG = ["ffmpeg", "-v", "error", "-nostdin", "-y"]
BITEXACT = ["-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1"]


def encode(profile, clip_id, pcm, out, serial):
    p = PROFILES[profile]
    f = p["format"]
    if f == "mp3":
        subprocess.run(["lame", "--quiet", "--noreplaygain"] + p["args"] + [pcm, out], check=True)
    elif f == "aac":
        subprocess.run(FFMPEG + ["-i", pcm, "-c:a", "aac"] + p["args"] + BITEXACT + ["-f", "mp4", out], check=True)
    elif f == "alac":
        subprocess.run(FFMPEG + ["-i", pcm, "-c:a", "alac"] + BITEXACT + ["-f", "mp4", out], check=True)
    elif f == "flac":
        subprocess.run(["flac", "--silent", "--force"] + p["args"]
                       + ["-o", out, pcm], check=True)
    elif f == "vorbis":
        subprocess.run(["oggenc", "-Q", "--serial", str(serial)] + p["args"] + ["-o", out, pcm], check=True)
    elif f == "opus":
        subprocess.run(["opusenc", "--quiet", "--serial", str(serial)] + p["args"] + [pcm, out], check=True)
    elif f == "wav":
        shutil.copyfile(pcm, out)
    elif f == "aiff":
        subprocess.run(["sox", "-V1", "-R", "-D", pcm, out], check=True)


def ogg_pages(data):
    """(offset, granule, serial, seq, header_type, segment table, page end) of every page."""
    pos, out = 0, []
    while pos + 27 <= len(data):
        if data[pos:pos + 4] != b"OggS":
            raise ValueError("lost Ogg sync at %d" % pos)
        htype = data[pos + 5]
        granule, serial, seq = struct.unpack_from("<qII", data, pos + 6)
        nseg = data[pos + 26]
        segs = data[pos + 27:pos + 27 + nseg]
        end = pos + 27 + nseg + sum(segs)
        out.append((pos, granule, serial, seq, htype, bytes(segs), end))
        pos = end
    return out


def mp4_length(data):
    """The audio trak's media timescale, stts total, and its first edit; the movie timescale."""
    out = {"edit_media_time": None, "edit_duration": None}

    def atoms(pos, end):
        while pos + 8 <= end:
            size, kind = struct.unpack_from(">I4s", data, pos)
            hdr = 8
            if size == 1:
                size, hdr = struct.unpack_from(">Q", data, pos + 8)[0], 16
            elif size == 0:
                size = end - pos
            yield kind, pos + hdr, pos + size
            pos += size

    def walk(pos, end):
        for kind, body, stop in atoms(pos, end):
            if kind in (b"moov", b"trak", b"mdia", b"minf", b"stbl", b"edts"):
                walk(body, stop)
            elif kind == b"mvhd":
                v = data[body]
                out["movie_timescale"] = struct.unpack_from(">I", data, body + (20 if v == 1 else 12))[0]
            elif kind == b"mdhd":
                v = data[body]
                out["timescale"] = struct.unpack_from(">I", data, body + (20 if v == 1 else 12))[0]
            elif kind == b"stts":
                n, = struct.unpack_from(">I", data, body + 4)
                out["stts_total"] = sum(c * d for c, d in (struct.unpack_from(">II", data, body + 8 + 8 * i)
                                                           for i in range(n)))
            elif kind == b"elst":
                v = data[body]
                if v == 1:
                    dur, mt = struct.unpack_from(">Qq", data, body + 8)
                else:
                    dur, mt = struct.unpack_from(">Ii", data, body + 8)
                out["edit_duration"], out["edit_media_time"] = dur, mt
    walk(0, len(data))
    return out


def measure_encoding(profile, path, src_frames):
    """What the file says its length is, by a plain parser (or a decoder for MP3), to check the truth."""
    p = PROFILES[profile]
    f = p["format"]
    data = open(path, "rb").read()
    if f == "mp3":
        with tempfile.NamedTemporaryFile(suffix=".wav") as t:
            subprocess.run(["mpg123", "-q", "-w", t.name, path], check=True)
            return frames_of(t.name), "mpg123 decoded"
    if f == "flac":
        # STREAMINFO: 18 bytes in, 20 bits rate, 3 channels, 5 bits, 36 bits total samples
        v = int.from_bytes(data[8 + 10:8 + 18], "big")
        return v & ((1 << 36) - 1), "STREAMINFO total"
    if f in ("vorbis", "opus"):
        pages = ogg_pages(data)
        last = pages[-1][1]
        if f == "opus":
            pre_skip, = struct.unpack_from("<H", data, pages[0][0] + 27 + len(pages[0][5]) + 10)
            return last - pre_skip, "last granule less pre-skip"
        return last, "last granule"
    if f in ("aac", "alac"):
        m = mp4_length(data)
        assert m["timescale"] == p["rate"], m
        if m["edit_media_time"] is None:
            return m["stts_total"], "stts total (no edit list)"
        # The edit's duration is in the movie timescale (ffmpeg: 1000/s); the sample table, which ffmpeg
        # trims to the last real sample, gives the exact figure when the two agree to within a tick.
        exact = m["stts_total"] - m["edit_media_time"]
        edit = m["edit_duration"] * m["timescale"] / m["movie_timescale"]
        assert abs(exact - edit) <= m["timescale"] / m["movie_timescale"], m
        return exact, "stts total less the edit's media time (edit list %d/%d s)" % (
            m["edit_duration"], m["movie_timescale"])
    if f == "wav":
        return frames_of(path), "WAV data chunk"
    if f == "aiff":
        pos = data.find(b"COMM")
        return struct.unpack_from(">I", data, pos + 10)[0], "AIFF COMM frames"
    raise ValueError(f)


def make_clip(spec, clip_dir, seed):
    tmp = tempfile.mkdtemp(prefix=spec["id"] + "-", dir=clip_dir)
    try:
        src = os.path.join(clip_dir, "src", spec["id"] + ".wav")
        if not os.path.exists(src):
            part = os.path.join(tmp, "src.wav")
            synth(spec, part, tmp)
            os.rename(part, src)
        seconds = spec["samples"] / BASE_RATE
        out = {"id": spec["id"], "source_samples": spec["samples"], "seconds": round(seconds, 3), "encodings": {}}
        for profile, p in PROFILES.items():
            if (p["clips"] == "short" and seconds > SHORT_S) or (p["clips"] == "long" and seconds < LONG_S):
                continue
            pcm, frames = source_for(profile, src, tmp)
            path = os.path.join(clip_dir, profile, "%s.%s" % (spec["id"], p["ext"]))
            serial = int(hashlib.sha1(("%s/%s/%s" % (seed, profile, spec["id"])).encode()).hexdigest()[:7], 16)
            encode(profile, spec["id"], pcm, path, serial)
            got, how = measure_encoding(profile, path, frames)
            # The truth: the encoder's input, except MP3, where it is what mpg123 decodes gaplessly.
            truth = got if p["format"] == "mp3" else frames
            data = open(path, "rb").read()
            out["encodings"][profile] = {
                "input_samples": frames, "samples": truth, "sample_rate": p["rate"], "channels": p["ch"],
                "bits": p["bits"], "file_says": got, "file_says_how": how, "agrees": got == frames,
                "bytes": len(data), "sha1": hashlib.sha1(data).hexdigest()}
            if pcm != src:
                os.unlink(pcm)
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def tool_versions():
    out = {}
    for tool, flag in (("sox", "--version"), ("lame", "--version"), ("mpg123", "--version"), ("flac", "--version"),
                       ("oggenc", "--version"), ("opusenc", "--version"), ("ffmpeg", "-version")):
        r = subprocess.run([tool, flag], capture_output=True, text=True)
        out[tool] = ((r.stdout or r.stderr).strip().splitlines() or ["?"])[0]
    out["mutagen"] = mutagen.version_string
    return out


def build_clips(seed, clip_dir, jobs, log):
    specs = plan_clips(seed)
    tools = tool_versions()
    import inspect
    code = "".join(inspect.getsource(fn) for fn in (synth, frames_of, source_for, encode, ogg_pages, mp4_length,
                                                     measure_encoding, make_clip))
    # The key covers what the clips depend on: specs, tools and the synthesis/encoding code.
    key = hashlib.sha1(json.dumps([specs, tools, PROFILES, VERSION, code], sort_keys=True).encode()).hexdigest()
    index = os.path.join(clip_dir, "clips.json")
    if os.path.exists(index):
        old = json.load(open(index))
        if old.get("key") == key:
            log("reusing the %d clips in %s" % (len(old["clips"]), clip_dir))
            return old["clips"], tools
    os.makedirs(os.path.join(clip_dir, "src"), exist_ok=True)
    for profile in PROFILES:
        os.makedirs(os.path.join(clip_dir, profile), exist_ok=True)
    t = time.time()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        clips = list(pool.map(lambda s: make_clip(s, clip_dir, seed), specs))
    log("made %d clips, %d encodings, in %.1f s" % (len(clips), sum(len(c["encodings"]) for c in clips),
                                                     time.time() - t))
    json.dump({"key": key, "tools": tools, "clips": clips}, open(index, "w"), indent=1)
    return clips, tools


# --------------------------------------------------------------------------------------------
# The library plan.
# --------------------------------------------------------------------------------------------
def album_size(rng):
    r = rng.random()
    if r < 0.08:
        return rng.randint(1, 4)
    if r < 0.2:
        return rng.randint(5, 7)
    if r < 0.85:
        return rng.randint(8, 13)
    return rng.randint(14, 20)


def plan(seed, n_tracks, clips):
    rng = rng_for(seed, "library")
    total_share = sum(p["share"] for p in PROFILES.values())
    quota = {k: int(n_tracks * p["share"] / total_share) for k, p in PROFILES.items()}
    if n_tracks >= 3 * len(PROFILES):                   # a tiny corpus still has every profile
        quota = {k: max(1, q) for k, q in quota.items()}
        while sum(quota.values()) > n_tracks:
            quota[max(quota, key=quota.get)] -= 1
    short = sorted(PROFILES, key=lambda k: -PROFILES[k]["share"])
    for k in short[: n_tracks - sum(quota.values())]:      # the remainder to the biggest shares
        quota[k] += 1
    clips_for = {k: [c["id"] for c in clips if k in c["encodings"]] for k in PROFILES}
    albums = []
    for profile in PROFILES:
        left = quota[profile]
        while left > 0:
            size = min(left, album_size(rng) if profile != "aac_m4b_64k" else rng.randint(3, 10))
            albums.append({"profile": profile, "size": size})
            left -= size
    rng.shuffle(albums)
    taken = set()
    n_artists = max(3, n_tracks // 100)
    artists = [make_artist(rng, taken) for _ in range(n_artists)]
    guests = [make_artist(rng, taken) for _ in range(max(10, n_artists))]
    authors = ["%s %s" % (pick(rng, FIRST), pick(rng, LAST)) for _ in range(12)]
    zipf = [1.0 / (k + 6) for k in range(n_artists)]
    tracks, used_folders = [], set()
    for i, al in enumerate(albums):
        p = PROFILES[al["profile"]]
        book = al["profile"] == "aac_m4b_64k"
        comp = not book and al["size"] >= 5 and rng.random() < 0.06
        if book:
            artist = pick(rng, authors)
            title = "The %s of the %s" % (pick(rng, NOUN), pick(rng, NOUN))
            top = "Audiobooks/%s" % safe(artist)
        elif comp:
            artist = "Various Artists"
            title = "%s %ss Vol. %d" % (pick(rng, ADJ), pick(rng, NOUN), rng.randint(1, 5))
            top = "Compilations"
        else:
            artist = artists[i] if i < n_artists else rng.choices(artists, zipf)[0]
            title = pick(rng, ["%s %ss" % (pick(rng, ADJ), pick(rng, NOUN)), "Live at the %s" % pick(rng, NOUN),
                               "Songs from the %s" % pick(rng, NOUN), "%s" % pick(rng, TITLE_EXTRA),
                               str(rng.randint(1969, 2022)), "%s %s (Deluxe Edition)" % (pick(rng, ADJ), pick(rng, NOUN))])
            top = safe(artist)
        folder = "%s/%s" % (top, safe(title))
        while folder.lower() in used_folders:
            title += " II"
            folder = "%s/%s" % (top, safe(title))
        used_folders.add(folder.lower())
        # An album artist on most albums (always on compilations); WAV's INFO has no field for it.
        aa = artist if (comp or rng.random() < 0.7) and p["format"] != "wav" else None
        year = rng.randint(1962, 2024)
        genre = "Audiobook" if book else pick(rng, GENRES)
        art = rng.random() < (0.3 if p["format"] != "wav" else 0)
        two_artists = p["format"] in ("flac", "vorbis", "opus") and rng.random() < 0.1
        nfd = rng.random() < 0.05
        id3v = 3 if rng.random() < 0.6 else 4
        track_style = pick(rng, ["n/m", "n", "n/m", "0n"])
        wav_list_front = rng.random() < 0.5
        for n in range(1, al["size"] + 1):
            t_title = ("Part %d" % n) if book else make_title(rng)
            t_artists = [pick(rng, guests)] if comp else [artist]
            if two_artists and rng.random() < 0.3:
                t_artists = t_artists + [pick(rng, guests)]
            clip = pick(rng, clips_for[al["profile"]])
            name = "%02d %s.%s" % (n, safe(t_title), p["ext"])
            path = "%s/%s" % (folder, name)
            if nfd:
                path = unicodedata.normalize("NFD", path)
            exp = {"title": t_title, "artist": t_artists if len(t_artists) > 1 else t_artists[0], "album": title,
                   "track": n, "track_total": al["size"], "date": str(year), "genre": genre}
            if aa:
                exp["albumartist"] = aa
            if comp:
                exp["compilation"] = True
            if p["format"] == "wav":
                del exp["track_total"]                     # INFO has no field for it either
            tracks.append({"path": path, "profile": al["profile"], "format": p["format"], "ext": p["ext"],
                           "clip": clip, "album": i, "expected": exp, "artwork": art,
                           "id3_version": id3v, "track_style": track_style, "wav_list_front": wav_list_front,
                           "audiobook": book, "path_nfd": nfd})
    return albums, tracks


# --------------------------------------------------------------------------------------------
# Writing a track: the encoded clip plus its tags.
# --------------------------------------------------------------------------------------------
def cover_bytes(seed, clip_dir):
    """One JPEG cover (ffmpeg's test pattern, 600x600, deterministic), made once."""
    path = os.path.join(clip_dir, "cover.jpg")
    if not os.path.exists(path):
        subprocess.run(FFMPEG + ["-f", "lavfi", "-i", "testsrc2=size=600x600:rate=1", "-frames:v", "1",
                                 "-q:v", "2"] + ["-fflags", "+bitexact", "-flags", "+bitexact", path], check=True)
    return open(path, "rb").read()


def track_text(t):
    e = t["expected"]
    style = t["track_style"]
    n, m = e["track"], e.get("track_total")
    if style == "n/m" and m:
        return "%d/%d" % (n, m)
    if style == "0n":
        return "%02d" % n
    return str(n)


def id3_frames(t, cover):
    e = t["expected"]
    artists = e["artist"] if isinstance(e["artist"], list) else [e["artist"]]
    frames = [id3.TIT2(encoding=3, text=[e["title"]]), id3.TPE1(encoding=3, text=artists),
              id3.TALB(encoding=3, text=[e["album"]]), id3.TRCK(encoding=3, text=[track_text(t)]),
              id3.TCON(encoding=3, text=[e["genre"]]),
              (id3.TDRC if t["id3_version"] == 4 else id3.TYER)(encoding=3, text=[e["date"]])]
    if "albumartist" in e:
        frames.append(id3.TPE2(encoding=3, text=[e["albumartist"]]))
    if e.get("compilation"):
        frames.append(id3.TCMP(encoding=3, text=["1"]))
    if cover:
        frames.append(id3.APIC(encoding=0, mime="image/jpeg", type=3, desc="", data=cover))
    return frames


def write_id3(path, t, cover, chunk=False):
    if chunk:
        f = AIFF(path)
        f.add_tags()
        for fr in id3_frames(t, cover):
            f.tags.add(fr)
        f.save(v2_version=t["id3_version"] if t["id3_version"] == 4 else 3)
    else:
        tags = id3.ID3()
        for fr in id3_frames(t, cover):
            tags.add(fr)
        tags.save(path, v2_version=t["id3_version"], padding=lambda info: 1024)


def write_mp4(path, t, cover):
    e = t["expected"]
    f = MP4(path)
    if f.tags is None:
        f.add_tags()
    artists = e["artist"] if isinstance(e["artist"], list) else [e["artist"]]
    f["\xa9nam"] = [e["title"]]
    f["\xa9ART"] = artists
    f["\xa9alb"] = [e["album"]]
    f["\xa9day"] = [e["date"]]
    f["\xa9gen"] = [e["genre"]]
    f["trkn"] = [(e["track"], e.get("track_total", 0))]
    if "albumartist" in e:
        f["aART"] = [e["albumartist"]]
    if e.get("compilation"):
        f["cpil"] = True
    if t["audiobook"]:
        f["stik"] = [2]
    if cover:
        f["covr"] = [MP4Cover(cover, imageformat=MP4Cover.FORMAT_JPEG)]
    f.save()


def write_vorbis(path, t, cover, kind):
    e = t["expected"]
    f = {"flac": FLAC, "vorbis": OggVorbis, "opus": OggOpus}[kind](path)
    if f.tags is None:
        f.add_tags()
    artists = e["artist"] if isinstance(e["artist"], list) else [e["artist"]]
    f["TITLE"] = [e["title"]]
    f["ARTIST"] = artists
    f["ALBUM"] = [e["album"]]
    f["DATE"] = [e["date"]]
    f["GENRE"] = [e["genre"]]
    if t["track_style"] == "n/m":
        f["TRACKNUMBER"] = ["%d/%d" % (e["track"], e["track_total"])]
    else:
        f["TRACKNUMBER"] = [track_text(t)]
        f["TRACKTOTAL"] = [str(e["track_total"])]
    if "albumartist" in e:
        f["ALBUMARTIST"] = [e["albumartist"]]
    if e.get("compilation"):
        f["COMPILATION"] = ["1"]
    if cover:
        pic = Picture()
        pic.type, pic.mime, pic.desc, pic.width, pic.height, pic.depth = 3, "image/jpeg", "", 600, 600, 24
        pic.data = cover
        if kind == "flac":
            f.add_picture(pic)
        else:
            import base64
            f["METADATA_BLOCK_PICTURE"] = [base64.b64encode(pic.write()).decode("ascii")]
    if kind == "flac":
        f.save(padding=lambda info: 4096 if info.padding < 0 else info.padding)
    else:
        f.save()


def info_chunk(t):
    e = t["expected"]
    fields = [(b"INAM", e["title"]), (b"IART", e["artist"] if isinstance(e["artist"], str) else e["artist"][0]),
              (b"IPRD", e["album"]), (b"ITRK" if t["track_style"] != "0n" else b"IPRT", str(e["track"])),
              (b"ICRD", e["date"]), (b"IGNR", e["genre"]), (b"ISFT", "make_mixed_corpus.py")]
    body = b"INFO"
    for cid, text in fields:
        raw = text.encode("utf-8") + b"\0"
        body += cid + struct.pack("<I", len(raw)) + raw + (b"\0" if len(raw) & 1 else b"")
    return b"LIST" + struct.pack("<I", len(body)) + body


def write_wav(path, clip_path, t):
    data = open(clip_path, "rb").read()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE"
    chunks, pos = [], 12
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], struct.unpack_from("<I", data, pos + 4)[0]
        chunks.append((cid, data[pos:pos + 8 + size + (size & 1)]))
        pos += 8 + size + (size & 1)
    info = info_chunk(t)
    body = b""
    for cid, raw in chunks:
        if cid == b"data" and t["wav_list_front"]:
            body += info
        if cid != b"LIST":
            body += raw
    if not t["wav_list_front"]:
        body += info
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WAVE" + body)


def write_track(job):
    t, clip_path, cover, root = job
    path = os.path.join(root, t["path"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    c = cover if t["artwork"] else None
    f = t["format"]
    if f == "wav":
        write_wav(path, clip_path, t)
    else:
        shutil.copyfile(clip_path, path)
        if f == "mp3":
            write_id3(path, t, c)
        elif f == "aiff":
            write_id3(path, t, c, chunk=True)
        elif f in ("aac", "alac"):
            write_mp4(path, t, c)
        else:
            write_vorbis(path, t, c, f)
    return measure_file(path, t, len(c) if c else 0)


# --------------------------------------------------------------------------------------------
# What an indexer must read of a file: its tags (without picture payloads) and what its length needs.
# --------------------------------------------------------------------------------------------
def pages_of(ranges, size):
    """Distinct 4 KiB pages that the byte ranges [a, b) touch."""
    pages = set()
    for a, b in ranges:
        a, b = max(0, a), min(size, b)
        if b > a:
            pages.update(range(a // PAGE, (b - 1) // PAGE + 1))
    return len(pages) * PAGE


def id3_ranges(data, base, art):
    """An ID3v2 tag at data[base:]: its bytes, with the picture payload (the last `art` bytes of APIC) cut out."""
    if data[base:base + 3] != b"ID3":
        return [], 0
    ver = data[base + 3]
    size = sum((data[base + 6 + i] & 0x7F) << (7 * (3 - i)) for i in range(4)) + 10
    ranges, pos, start, end = [], base + 10, base, base + size
    while pos + 10 <= end and data[pos] != 0:
        fid = data[pos:pos + 4]
        raw = data[pos + 4:pos + 8]
        fsize = (sum((b & 0x7F) << (7 * (3 - i)) for i, b in enumerate(raw)) if ver == 4
                 else struct.unpack(">I", raw)[0])
        fend = pos + 10 + fsize
        if fid == b"APIC" and art:
            ranges.append((start, fend - art))
            start = fend
        pos = fend
    ranges.append((start, end))
    return ranges, size


def mp4_ranges(data, art):
    """Every atom header on the way, the moov's bytes without the covr picture payload."""
    ranges, covr = [], []

    def walk(pos, end, depth, in_covr=False):
        while pos + 8 <= end:
            size, kind = struct.unpack_from(">I4s", data, pos)
            hdr = 8
            if size == 1:
                size, hdr = struct.unpack_from(">Q", data, pos + 8)[0], 16
            elif size == 0:
                size = end - pos
            if depth == 0:
                ranges.append((pos, pos + hdr))
                if kind == b"moov":
                    ranges.append((pos, pos + size))
            if kind in (b"moov", b"udta", b"ilst", b"covr"):
                walk(pos + hdr, pos + size, depth + 1, in_covr or kind == b"covr")
            elif kind == b"meta":
                walk(pos + hdr + 4, pos + size, depth + 1)
            elif kind == b"data" and in_covr:
                covr.append((pos + 16, pos + size))
            pos += size
    walk(0, len(data), 0)
    # cut the picture payloads out of the moov range
    out = []
    for a, b in ranges:
        for ca, cb in sorted(covr):
            if a <= ca and cb <= b:
                out.append((a, ca))
                a = cb
        out.append((a, b))
    return out, sum(b - a for a, b in covr)


def flac_ranges(data, art):
    ranges, pos = [(0, 4)], 4
    while True:
        last, btype = data[pos] >> 7, data[pos] & 0x7F
        size = int.from_bytes(data[pos + 1:pos + 4], "big")
        end = pos + 4 + size
        if btype == 1:                                  # PADDING: its header only
            ranges.append((pos, pos + 4))
        elif btype == 6 and art:                         # PICTURE: without the image
            ranges.append((pos, end - art))
        else:
            ranges.append((pos, end))
        pos = end
        if last:
            return ranges, pos


def ogg_ranges(data):
    """The pages up to the end of the comment packet (the second), and the last page."""
    pages = ogg_pages(data)
    packets, need_end = 0, 0
    for off, _, _, _, _, segs, end in pages:
        for s in segs:
            if s < 255:
                packets += 1
        if packets >= 2:
            need_end = end
            break
    return [(0, need_end), (pages[-1][0], pages[-1][6])], need_end


def chunk_ranges(data, big_endian, audio_id):
    """Every chunk header, every chunk's body but the audio's (AIFF's SSND: its 8-byte offset/block header)."""
    fmt = ">I" if big_endian else "<I"
    ranges, pos = [(0, 12)], 12
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], struct.unpack_from(fmt, data, pos + 4)[0]
        end = pos + 8 + size + (size & 1)
        if cid == audio_id:
            ranges.append((pos, pos + 8 + (8 if big_endian else 0)))
        else:
            ranges.append((pos, end))
        pos = end
    return ranges


def measure_file(path, t, art):
    data = open(path, "rb").read()
    size = len(data)
    f = t["format"]
    if f == "mp3":
        ranges, tag = id3_ranges(data, 0, art)
        ranges += [(tag, tag + 1024), (size - 128, size)]      # the Xing/Info + LAME frame, an ID3v1 tail
        header = tag
    elif f in ("aac", "alac"):
        ranges, _ = mp4_ranges(data, art)
        header = sum(b - a for a, b in ranges)
    elif f == "flac":
        ranges, header = flac_ranges(data, art)
    elif f in ("vorbis", "opus"):
        ranges, header = ogg_ranges(data)
    elif f == "wav":
        ranges = chunk_ranges(data, False, b"data")
        header = sum(b - a for a, b in ranges)
    else:
        ranges = chunk_ranges(data, True, b"SSND")
        header = sum(b - a for a, b in ranges)
    return {"size": size, "artwork_bytes": art, "header_bytes": header,
            "needed_bytes": sum(max(0, min(size, b) - max(0, a)) for a, b in ranges),
            "minimum_bytes": pages_of(ranges, size), "sha1": hashlib.sha1(data).hexdigest()}


# --------------------------------------------------------------------------------------------
# Reading every track back.
# --------------------------------------------------------------------------------------------
def verify(path, t):
    e = t["expected"]
    if t["format"] == "wav":
        return None                                   # mutagen does not read RIFF INFO
    f = mutagen.File(path)
    if f is None or f.tags is None:
        return "mutagen reads no tags"
    if t["format"] in ("mp3", "aiff"):
        title, album = str(f.tags.get("TIT2")), str(f.tags.get("TALB"))
    elif t["format"] in ("aac", "alac"):
        title, album = f.tags["\xa9nam"][0], f.tags["\xa9alb"][0]
    else:
        title, album = f.tags["TITLE"][0], f.tags["ALBUM"][0]
    if (title, album) != (e["title"], e["album"]):
        return "read back %r / %r" % (title, album)
    return None


def verify_job(job):
    path, t = job
    try:
        return verify(path, t)
    except Exception as ex:  # noqa: BLE001
        return "mutagen: %s" % ex


# --------------------------------------------------------------------------------------------
def prepare_out(out, force):
    if os.path.isdir(out) and os.listdir(out):
        if not os.path.exists(os.path.join(out, MARKER)):
            sys.exit("%s is not empty and was not made by this script; choose another --out" % out)
        if os.path.isdir(os.path.join(out, "music")):
            shutil.rmtree(os.path.join(out, "music"))
    os.makedirs(out, exist_ok=True)
    open(os.path.join(out, MARKER), "w").write("made by contrib/bench/make_mixed_corpus.py\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tracks", type=int, default=10000)
    ap.add_argument("--out", default="/tmp/clickwheel-mixed")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--force", action="store_true", help="(kept for symmetry: a folder this script made is "
                                                          "always replaced)")
    ap.add_argument("--no-verify", action="store_true", help="skip reading every track back with mutagen")
    a = ap.parse_args()
    t0 = time.time()

    def log(msg):
        print("[mixed-corpus %5.1fs] %s" % (time.time() - t0, msg), file=sys.stderr, flush=True)

    out = os.path.abspath(a.out)
    prepare_out(out, a.force)
    clip_dir = os.path.join(out, "clips")
    clips, tools = build_clips(a.seed, clip_dir, a.jobs, log)
    bad = [(c["id"], k, e["input_samples"], e["file_says"], e["file_says_how"])
           for c in clips for k, e in c["encodings"].items() if not e["agrees"]]
    for b in bad:
        log("note: clip %s %s: encoder input %d samples, the file says %d (%s)" % b)
    t_clips = time.time() - t0
    albums, tracks = plan(a.seed, a.tracks, clips)
    cover = cover_bytes(a.seed, clip_dir)
    by_id = {c["id"]: c for c in clips}
    root = os.path.join(out, "music")
    jobs = [(t, os.path.join(clip_dir, t["profile"], "%s.%s" % (t["clip"], t["ext"])), cover, root) for t in tracks]
    with multiprocessing.Pool(a.jobs) as pool:
        measured = pool.map(write_track, jobs, chunksize=32)
    t_tracks = time.time() - t0 - t_clips
    log("wrote %d tracks in %.1f s" % (len(tracks), t_tracks))
    errors = []
    if not a.no_verify:
        with multiprocessing.Pool(a.jobs) as pool:
            res = pool.map(verify_job, [(os.path.join(root, t["path"]), t) for t in tracks], chunksize=64)
        errors = [(t["path"], r) for t, r in zip(tracks, res) if r]
        for p, r in errors[:10]:
            log("verify: %s: %s" % (p, r))
        log("read back %d tracks with mutagen: %d problems" % (len(tracks), len(errors)))
    out_tracks = []
    for t, m in zip(tracks, measured):
        enc = by_id[t["clip"]]["encodings"][t["profile"]]
        row = {"path": t["path"], "format": t["format"], "profile": t["profile"], "ext": t["ext"], "clip": t["clip"],
               "samples": enc["samples"], "sample_rate": enc["sample_rate"], "channels": enc["channels"],
               "bits": enc["bits"], "duration_ms": round(enc["samples"] * 1000 / enc["sample_rate"], 3),
               "audiobook": t["audiobook"], "path_nfd": t["path_nfd"],
               "tag_kind": {"mp3": "id3v2.%d" % t["id3_version"], "aiff": "id3v2.%d chunk" % (
                   4 if t["id3_version"] == 4 else 3), "aac": "mp4", "alac": "mp4", "wav": "riff-info-" + (
                   "front" if t["wav_list_front"] else "back")}.get(t["format"], "vorbis-comment"),
               "expected": t["expected"]}
        row.update(m)
        out_tracks.append(row)
    summary = {"tracks": len(out_tracks), "bytes": sum(t["size"] for t in out_tracks),
               "minimum_bytes": sum(t["minimum_bytes"] for t in out_tracks),
               "by_format": {}, "by_profile": {}, "clip_seconds": round(t_clips, 1),
               "track_seconds": round(t_tracks, 1), "verify_problems": len(errors),
               "encodings_disagreeing": [list(b) for b in bad]}
    for key in ("format", "profile"):
        for t in out_tracks:
            d = summary["by_" + key].setdefault(t[key], {"tracks": 0, "bytes": 0, "minimum_bytes": 0, "seconds": 0.0})
            d["tracks"] += 1
            d["bytes"] += t["size"]
            d["minimum_bytes"] += t["minimum_bytes"]
            d["seconds"] = round(d["seconds"] + t["samples"] / t["sample_rate"], 3)
    manifest = {"generator": {"script": "contrib/bench/make_mixed_corpus.py", "version": VERSION, "seed": a.seed,
                              "tools": tools, "page": PAGE},
                "summary": summary, "profiles": PROFILES,
                "clips": clips, "albums": albums, "tracks": out_tracks}
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
    cols = ["path", "format", "profile", "samples", "sample_rate", "duration_ms", "channels", "bits", "size",
            "minimum_bytes", "tag_kind", "title", "artist", "album", "albumartist", "track", "compilation"]
    with open(os.path.join(out, "manifest.tsv"), "w", encoding="utf-8") as f:
        f.write("\t".join(cols) + "\n")
        for t in out_tracks:
            e = t["expected"]
            vals = [t.get(c, e.get(c, "")) for c in cols]
            f.write("\t".join(" ; ".join(v) if isinstance(v, list) else str(v) for v in vals) + "\n")
    mib = 2 ** 20
    log("done: %d tracks, %.0f MiB (minimum to index %.0f MiB) in %s" % (
        len(out_tracks), summary["bytes"] / mib, summary["minimum_bytes"] / mib, out))
    for fmt, d in sorted(summary["by_format"].items(), key=lambda x: -x[1]["tracks"]):
        log("  %-7s %5d tracks %7.0f MiB  minimum %5.1f MiB  %6.0f s of audio" % (
            fmt, d["tracks"], d["bytes"] / mib, d["minimum_bytes"] / mib, d["seconds"]))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
