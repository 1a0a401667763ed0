#!/usr/bin/env python3
"""Regenerates the LibraryTests fixture library: music/ and expected.json beside this script.

    python3 make-fixtures.py                 # rebuild music/ and expected.json, then verify them
    python3 make-fixtures.py --out /tmp/fx   # the same into another folder (to compare)

Needs lame and mpg123 on PATH and the mutagen module (Debian: apt-get install lame mpg123
python3-mutagen).  Nothing else: no sox, no image tools, nothing outside this repository.

Deterministic: audio is synthesised with integer arithmetic only (no libm), pseudo-random
bytes come from SHA-256 in counter mode, images are written by hand with zlib level 0, and lame
and mutagen write no timestamps, so the same lame/mpg123/mutagen versions give the same bytes.

expected.json is written from the values stated in this file, then every claim that can be
checked independently is checked: the tags are read back with mutagen (which resolves ID3
genres itself), "samples", "sample_rate" and "channels" are *measured* by decoding the final
file with mpg123 (`mpg123 -w`), "is_vbr" is measured by walking the MPEG frames, and every
audio file must pass `mpg123 -t`.  Any mismatch aborts with a message.
"""

import argparse
import hashlib
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import wave
import zlib

try:
    from mutagen import id3
    from mutagen._constants import GENRES as ID3V1_GENRES
except ImportError:
    sys.exit("make-fixtures.py needs mutagen: apt-get install python3-mutagen (or pip install mutagen)")

HERE = os.path.dirname(os.path.abspath(__file__))

# ------------------------------------------------------------------------------------------
# Audio: integer-only synthesis (a triangle tone per channel plus, for VBR variety, bursts of
# LCG noise every other 1/10 s), encoded by lame.  --resample is always passed so that lame
# never picks another output rate on its own (lame -b 32 alone would resample).
# ------------------------------------------------------------------------------------------
PROFILES = {
    # name: (lame arguments, sample rate, channels, noise amount)
    # 32 kbps CBR is too small a frame for the Xing/LAME header: no header, like lame -t.
    "cbr32":         (["-b", "32", "--cbr", "-t"], 44100, 2, 0),
    "cbr64_info":    (["-b", "64", "--cbr"], 44100, 2, 0),            # Info + LAME header
    "cbr64_noinfo":  (["-b", "64", "--cbr", "-t"], 44100, 2, 0),      # no header frame
    "vbr_xing":      (["-V", "9"], 44100, 2, 1),                      # Xing + LAME header
    "vbr_noxing":    (["-V", "9", "-t"], 44100, 2, 1),                # VBR, no header frame
    "mpeg2_mono":    (["-b", "64", "-m", "m"], 22050, 1, 0),          # MPEG-2, Info + LAME
    "mpeg2_mono24":  (["-b", "24", "-m", "m"], 22050, 1, 0),          # MPEG-2, frame too small: no header
    "cbr64_48k":     (["-b", "64", "--cbr"], 48000, 2, 0),            # 48 kHz, Info + LAME
}


def synth_wav(path, rate, channels, n, hz, noise):
    out = bytearray()
    x = 12345
    period_units = 4 * 65536
    burst = rate // 10
    for i in range(n):
        frame = []
        for c in range(channels):
            f = hz if noise else hz + 90 * c         # VBR: both channels alike (cheap side channel)
            ph = (i * f * period_units // rate) % period_units
            tri = ph if ph < 2 * 65536 else period_units - ph          # 0..131072
            v = (tri - 65536) // 8                                      # about -8192..8192
            frame.append(v)
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        if noise and (i // burst) % 2:
            frame = [v + ((x >> 16) - 16384) * noise // 8 for v in frame]
        fade = min(i, n - 1 - i, 441)                                   # 10 ms fades
        for v in frame:
            out += struct.pack("<h", max(-32768, min(32767, v * fade // 441)))
    with wave.open(path, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(out))


AUDIO_CACHE = {}


def audio(profile, ms, hz, tmp):
    """Encoded MP3 bytes (no tags) for a tone of `ms` milliseconds."""
    key = (profile, ms, hz)
    if key not in AUDIO_CACHE:
        args, rate, channels, noise = PROFILES[profile]
        wav = os.path.join(tmp, "src.wav")
        mp3 = os.path.join(tmp, "enc.mp3")
        synth_wav(wav, rate, channels, rate * ms // 1000, hz, noise)
        subprocess.run(["lame", "--quiet", "--noreplaygain", "--resample", "%g" % (rate / 1000)]
                       + args + [wav, mp3], check=True)
        AUDIO_CACHE[key] = open(mp3, "rb").read()
    return AUDIO_CACHE[key]


# ------------------------------------------------------------------------------------------
# MPEG frame walking (Layer III), for is_vbr and for cutting a file mid-frame.
# ------------------------------------------------------------------------------------------
BITRATES = {True: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
            False: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]}
RATES = {3: (44100, 48000, 32000), 2: (22050, 24000, 16000), 0: (11025, 12000, 8000)}


def frame_header(b, i):
    if i + 4 > len(b) or b[i] != 0xFF or (b[i + 1] & 0xE0) != 0xE0:
        return None
    ver, layer = (b[i + 1] >> 3) & 3, (b[i + 1] >> 1) & 3
    bri, sri, pad = b[i + 2] >> 4, (b[i + 2] >> 2) & 3, (b[i + 2] >> 1) & 1
    if ver == 1 or layer != 1 or bri in (0, 15) or sri == 3:
        return None
    mpeg1 = ver == 3
    kbps, rate = BITRATES[mpeg1][bri], RATES[ver][sri]
    return {"mpeg1": mpeg1, "kbps": kbps, "rate": rate,
            "size": (144 if mpeg1 else 72) * kbps * 1000 // rate + pad,
            "channels": 1 if (b[i + 3] >> 6) == 3 else 2}


def walk_frames(b):
    """For a bare lame stream: header tag ("Xing"/"Info"/None) and the audio frames' offsets."""
    h = frame_header(b, 0)
    assert h, "stream does not start with a frame"
    side = (17 if h["channels"] == 1 else 32) if h["mpeg1"] else (9 if h["channels"] == 1 else 17)
    tag = b[4 + side:8 + side].decode("latin-1")
    tag = tag if tag in ("Xing", "Info") else None
    i = h["size"] if tag else 0
    frames = []
    while True:
        h = frame_header(b, i)
        if h is None or i + h["size"] > len(b):
            break
        frames.append((i, h))
        i += h["size"]
    assert i == len(b), "trailing bytes after the last frame"
    return tag, frames


def stream_is_vbr(b):
    tag, frames = walk_frames(b)
    return tag == "Xing" or len({h["kbps"] for _, h in frames}) > 1


# ------------------------------------------------------------------------------------------
# Images: an 8x8 PNG (zlib level 0, i.e. stored) and a 1x1 baseline JPEG, both by hand.
# ------------------------------------------------------------------------------------------
def png_bytes():
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"".join(bytes((x * 32, y * 32, 128)) for x in range(8)) for y in range(8))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 0)) + chunk(b"IEND", b""))


def jpeg_bytes():
    """1x1 grey baseline JPEG: one DC code and one EOB code, each a 1-bit Huffman code."""
    dqt = b"\xff\xdb\x00\x43\x00" + bytes([1] * 64)
    sof = b"\xff\xc0\x00\x0b\x08\x00\x01\x00\x01\x01\x01\x11\x00"
    dht_dc = b"\xff\xc4\x00\x14\x00" + bytes([1] + [0] * 15) + b"\x00"
    dht_ac = b"\xff\xc4\x00\x14\x10" + bytes([1] + [0] * 15) + b"\x00"
    sos = b"\xff\xda\x00\x08\x01\x01\x00\x00\x3f\x00"
    return b"\xff\xd8" + dqt + sof + dht_dc + dht_ac + sos + b"\x3f" + b"\xff\xd9"


PNG = png_bytes()
JPEG = jpeg_bytes()


def prng_bytes(label, n, avoid_ff=True):
    """Deterministic pseudo-random bytes.  With avoid_ff no byte is 0xFF, so the bytes can
    hold no MPEG sync word and cannot be mistaken for audio (the expectation stays exact)."""
    out = bytearray()
    k = 0
    while len(out) < n:
        out += hashlib.sha256(b"%s/%d" % (label.encode(), k)).digest()
        k += 1
    out = out[:n]
    if avoid_ff:
        out = out.replace(b"\xff", b"\xfe")
    for bad in (b"ID3", b"TAG", b"RIFF", b"Xing", b"Info", b"LAME"):
        assert bad not in out, "pseudo-random bytes hold %r; change the label" % bad
    return bytes(out)


# ------------------------------------------------------------------------------------------
# Tag writers.  ID3v2.3/2.4 by mutagen (padding 0; mutagen.save does not convert frames, so
# v2.3 keeps its off-spec TSOP/TSOA/TSOT, as iTunes writes them), ID3v2.2 and ID3v1 by hand.
# ------------------------------------------------------------------------------------------
def v2(version, frames):
    tags = id3.ID3()
    for f in frames:
        tags.add(f)
    buf = io.BytesIO()
    tags.save(buf, v2_version=version, v1=0, padding=lambda info: 0)
    return buf.getvalue()


def T(fid, enc, *values):
    return getattr(id3, fid)(encoding=enc, text=list(values))


def TXXX(enc, desc, value):
    return id3.TXXX(encoding=enc, desc=desc, text=[value])


def COMM(enc, text, lang="eng"):
    return id3.COMM(encoding=enc, lang=lang, desc="", text=[text])


def APIC(data, mime):
    return id3.APIC(encoding=0, mime=mime, type=3, desc="", data=data)


def syncsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def v22(frames):
    """frames: list of (id, payload bytes).  No unsynchronisation, no compression."""
    body = b"".join(fid.encode("ascii") + len(data).to_bytes(3, "big") + data for fid, data in frames)
    return b"ID3\x02\x00\x00" + syncsafe(len(body)) + body


def v22_text(value, enc):
    if enc == 0:
        return b"\x00" + value.encode("latin-1")
    return b"\x01\xff\xfe" + value.encode("utf-16-le")


def v1(title, artist, album, year, comment, track, genre, pad):
    """ID3v1 (track None) or v1.1 (comment 28 bytes, NUL, track byte); Latin-1; `pad` is the
    filler byte for short fields (b" " or b"\\0")."""
    def field(s, n):
        b = s.encode("latin-1")
        assert len(b) <= n, s
        return b + pad * (n - len(b))
    if track is None:
        com = field(comment, 30)
        assert com[28] != 0, "a v1.0 comment must reach byte 29, or it reads as v1.1"
    else:
        com = field(comment, 28) + b"\x00" + bytes([track])
    out = b"TAG" + field(title, 30) + field(artist, 30) + field(album, 30) + field(year, 4) + com + bytes([genre])
    assert len(out) == 128
    return out


# ------------------------------------------------------------------------------------------
# The library.  Each entry: path, tag bytes before the audio, audio, bytes after, and the
# expected FIELDS (tag part; samples/sample_rate/channels/is_vbr are measured and added).
# ------------------------------------------------------------------------------------------
L1, U16, U16BE, U8 = 0, 1, 2, 3


def build(tmp):
    tracks = []      # dicts: path, head, audio, tail, expect, problems, check (mutagen check on/off)

    def track(path, profile, ms, hz, head=b"", tail=b"", expect=None, problems=(), check=True,
              note=None, stream=None):
        a = stream if stream is not None else audio(profile, ms, hz, tmp)
        tracks.append({"path": path, "head": head, "audio": a, "tail": tail, "expect": expect or {},
                       "problems": list(problems), "check": check, "note": note, "profile": profile})

    # ---- ID3v1 / v1.1 -----------------------------------------------------------------------
    track("Tag Formats/id3v1.mp3", "cbr32", 300, 330,
          tail=v1("Café Olé", "Jürgen Weiß", "Frühlingsfest", "1987",
                  "Ein Kommentar über Grüße, v1.0", None, 17, b" "),
          expect={"title": "Café Olé", "artist": ["Jürgen Weiß"], "album": "Frühlingsfest",
                  "year": 1987, "date": "1987", "comment": "Ein Kommentar über Grüße, v1.0",
                  "genre": ["Rock"], "tag_format": "id3v1"})
    track("Tag Formats/id3v1.1.mp3", "cbr32", 305, 350,
          tail=v1("Naïve Señorita", "Björk Ågren", "Øresund Nights", "1992", "v1.1 comment",
                  5, 13, b"\x00"),
          expect={"title": "Naïve Señorita", "artist": ["Björk Ågren"], "album": "Øresund Nights",
                  "year": 1992, "date": "1992", "comment": "v1.1 comment", "track_number": 5,
                  "genre": ["Pop"], "tag_format": "id3v1.1"})

    # ---- ID3v2.2 (hand-written; TCP and PIC are frames libmpg123 drops) -----------------------
    track("Tag Formats/id3v2.2.mp3", "vbr_xing", 340, 370,
          head=v22([("TT2", v22_text("Two Point Two", 0)),
                    ("TP1", v22_text("Zoë Ünderwood", 1)),
                    ("TAL", v22_text("Old Format Album", 0)),
                    ("TYE", v22_text("1998", 0)),
                    ("TRK", v22_text("4/9", 0)),
                    ("TCO", v22_text("(8)", 0)),
                    ("TCP", v22_text("1", 0)),
                    ("PIC", b"\x00PNG\x03\x00" + PNG)]),
          expect={"title": "Two Point Two", "artist": ["Zoë Ünderwood"], "album": "Old Format Album",
                  "year": 1998, "date": "1998", "track_number": 4, "track_total": 9,
                  "genre": ["Jazz"], "is_compilation": True, "has_artwork": True,
                  "tag_format": "id3v2.2"})

    # ---- ID3v2.3 -------------------------------------------------------------------------------
    track("Tag Formats/id3v2.3 latin1.mp3", "cbr64_info", 360, 392,
          head=v2(3, [T("TIT2", L1, "Déjà Vu"), T("TPE1", L1, "Amélie Laurent"),
                      T("TALB", L1, "Fête de la Musique"), T("TPE2", L1, "Various Artists"),
                      T("TYER", L1, "1999"), T("TRCK", L1, "3/12"), T("TPOS", L1, "1/2"),
                      T("TCMP", L1, "1"), T("TCOM", L1, "Françoise Hardi"), T("TCON", L1, "(17)"),
                      T("TSOP", L1, "Laurent, Amélie"), T("TSOA", L1, "Fete de la Musique"),
                      T("TSOT", L1, "Deja Vu"), T("TSO2", L1, "Artists, Various"),
                      TXXX(L1, "REPLAYGAIN_TRACK_GAIN", "-6.50 dB"),
                      TXXX(L1, "REPLAYGAIN_TRACK_PEAK", "0.988525"),
                      TXXX(L1, "replaygain_album_gain", "-7.25 dB"),
                      TXXX(L1, "replaygain_album_peak", "0.999969"),
                      COMM(L1, "Latin-1 Kommentar über Bäume"), APIC(JPEG, "image/jpeg")]),
          expect={"title": "Déjà Vu", "artist": ["Amélie Laurent"], "album": "Fête de la Musique",
                  "album_artist": ["Various Artists"], "year": 1999, "date": "1999",
                  "track_number": 3, "track_total": 12, "disc_number": 1, "disc_total": 2,
                  "is_compilation": True, "composer": ["Françoise Hardi"], "genre": ["Rock"],
                  "sort_artist": "Laurent, Amélie", "sort_album": "Fete de la Musique",
                  "sort_title": "Deja Vu", "sort_album_artist": "Artists, Various",
                  "rg_track_gain": -6.5, "rg_track_peak": 0.988525, "rg_album_gain": -7.25,
                  "rg_album_peak": 0.999969, "comment": "Latin-1 Kommentar über Bäume",
                  "has_artwork": True, "tag_format": "id3v2.3"})
    track("Tag Formats/id3v2.3 utf16.mp3", "vbr_noxing", 380, 415,
          head=v2(3, [T("TIT2", U16, "Ночной поезд"), T("TPE1", U16, "Алиса Морозова"),
                      T("TALB", U16, "東京スカイライン"), T("TPE2", U16, "Алиса Морозова"),
                      T("TYER", U16, "2001"), T("TRCK", U16, "7/10"), T("TPOS", U16, "2/2"),
                      T("TCOM", U16, "Пётр Чайковский"), T("TCON", U16, "17"),
                      T("TSOP", U16, "Morozova, Alisa"), T("TSOA", U16, "Tokyo Skyline"),
                      T("TSOT", U16, "Nochnoy poezd"), T("TSO2", U16, "Morozova, Alisa"),
                      TXXX(U16, "REPLAYGAIN_TRACK_GAIN", "+1.20 dB"),
                      TXXX(U16, "REPLAYGAIN_TRACK_PEAK", "0.501187"),
                      TXXX(U16, "replaygain_album_gain", "-0.35 dB"),
                      TXXX(U16, "replaygain_album_peak", "0.700000"),
                      COMM(U16, "Комментарий в UTF-16"), APIC(PNG, "image/png")]),
          expect={"title": "Ночной поезд", "artist": ["Алиса Морозова"], "album": "東京スカイライン",
                  "album_artist": ["Алиса Морозова"], "year": 2001, "date": "2001",
                  "track_number": 7, "track_total": 10, "disc_number": 2, "disc_total": 2,
                  "composer": ["Пётр Чайковский"], "genre": ["Rock"],
                  "sort_artist": "Morozova, Alisa", "sort_album": "Tokyo Skyline",
                  "sort_title": "Nochnoy poezd", "sort_album_artist": "Morozova, Alisa",
                  "rg_track_gain": 1.2, "rg_track_peak": 0.501187, "rg_album_gain": -0.35,
                  "rg_album_peak": 0.7, "comment": "Комментарий в UTF-16", "has_artwork": True,
                  "tag_format": "id3v2.3"})
    track("Tag Formats/id3v2.3 plus id3v1.mp3", "cbr32", 310, 440,
          head=v2(3, [T("TIT2", L1, "Version Two Wins"), T("TPE1", L1, "Victor Vance"),
                      T("TALB", L1, "Both Tags"), T("TYER", L1, "2003"), T("TRCK", L1, "6"),
                      T("TCON", L1, "(17)Rock")]),
          tail=v1("Version One Loses", "V1 Artist", "V1 Album", "1970", "", 1, 0, b"\x00"),
          expect={"title": "Version Two Wins", "artist": ["Victor Vance"], "album": "Both Tags",
                  "year": 2003, "date": "2003", "track_number": 6, "genre": ["Rock"],
                  "tag_format": "id3v2.3"})

    # ---- ID3v2.4 -------------------------------------------------------------------------------
    track("Tag Formats/id3v2.4 utf8.mp3", "vbr_xing", 390, 466,
          head=v2(4, [T("TIT2", U8, "Ünïcödé ✓ UTF-8"), T("TPE1", U8, "Anna Abbott", "Ben Barnes"),
                      T("TALB", U8, "Multi Value Album"), T("TPE2", U8, "Anna Abbott"),
                      T("TDRC", U8, "2004-05-06"), T("TDRL", U8, "2004-06-01"),
                      T("TRCK", U8, "2/5"), T("TPOS", U8, "1"), T("TCON", U8, "Ambient", "Jazz"),
                      T("TCOM", U8, "Clara Carver"),
                      id3.RVA2(desc="track", channel=1, gain=-3.25, peak=0.5),
                      COMM(U8, "UTF-8 comment ✓")]),
          expect={"title": "Ünïcödé ✓ UTF-8", "artist": ["Anna Abbott", "Ben Barnes"],
                  "album": "Multi Value Album", "album_artist": ["Anna Abbott"], "year": 2004,
                  "date": "2004-05-06", "track_number": 2, "track_total": 5, "disc_number": 1,
                  "genre": ["Ambient", "Jazz"], "composer": ["Clara Carver"],
                  "rg_track_gain": -3.25, "rg_track_peak": 0.5, "comment": "UTF-8 comment ✓",
                  "tag_format": "id3v2.4"},
          note="TDRL 2004-06-01 is present but this is not a podcast: date stays TDRC, no "
               "release_date.  RVA2 'track' (master) -3.25 dB, peak 0.5 (16-bit peak 0x4000).")
    track("Tag Formats/id3v2.4 utf16.mp3", "cbr32", 315, 494,
          head=v2(4, [T("TIT2", U16, "Σπίτι 🏠"), T("TPE1", U16, "Αστέρια", "Zoë Lefèvre"),
                      T("TALB", U16, "Ελληνικά"), T("TDRC", U16, "2010"), T("TRCK", U16, "01"),
                      T("TCON", U16, "13", "Synthwave")]),
          expect={"title": "Σπίτι 🏠", "artist": ["Αστέρια", "Zoë Lefèvre"], "album": "Ελληνικά",
                  "year": 2010, "date": "2010", "track_number": 1, "genre": ["Pop", "Synthwave"],
                  "tag_format": "id3v2.4"})
    track("Tag Formats/id3v2.4 utf16be.mp3", "cbr32", 320, 523,
          head=v2(4, [T("TIT2", U16BE, "Big Endian Äpfel"), T("TPE1", U16BE, "Hugo Hayes", "Iris Irving"),
                      T("TALB", U16BE, "Big Endian Album"), T("TDRC", U16BE, "2015-11"),
                      T("TRCK", U16BE, "9/9"), T("TCON", U16BE, "Folk", "Country"),
                      T("TSOP", U16BE, "Hayes, Hugo")]),
          expect={"title": "Big Endian Äpfel", "artist": ["Hugo Hayes", "Iris Irving"],
                  "album": "Big Endian Album", "year": 2015, "date": "2015-11", "track_number": 9,
                  "track_total": 9, "genre": ["Folk", "Country"], "sort_artist": "Hayes, Hugo",
                  "tag_format": "id3v2.4"})

    # ---- no tag: everything from the path -----------------------------------------------------
    track("Artist Name/Album Name/07 Some Title.mp3", "vbr_noxing", 370, 554,
          expect={"title": "Some Title", "artist": ["Artist Name"], "album": "Album Name",
                  "track_number": 7, "tag_format": "none"})
    track("Dash Artist/Dash Album/04 Dash Artist - Dash Title.mp3", "cbr32", 325, 587,
          expect={"title": "Dash Title", "artist": ["Dash Artist"], "album": "Dash Album",
                  "track_number": 4, "tag_format": "none"},
          note="'NN Artist - Title.mp3': the 'Artist - ' part of the file name is the artist "
               "(it matches the folder), the title is what follows ' - '.")

    # ---- upper-case extension -------------------------------------------------------------------
    track("Extensions/Loud Extension.MP3", "cbr32", 330, 622,
          head=v2(3, [T("TIT2", L1, "Loud Extension"), T("TPE1", L1, "Capital Letters"),
                      T("TALB", L1, "Shouting"), T("TRCK", L1, "1")]),
          expect={"title": "Loud Extension", "artist": ["Capital Letters"], "album": "Shouting",
                  "track_number": 1, "tag_format": "id3v2.3"})

    # ---- podcasts ---------------------------------------------------------------------------------
    feed = "https://podcasts.example.org/%s/feed.xml"
    track("Talk/Genre Cast/2021-03-04 Genre Episode.mp3", "mpeg2_mono24", 500, 300,
          head=v2(4, [T("TIT2", U8, "Genre Episode"), T("TPE1", U8, "Gina Host"),
                      T("TALB", U8, "Genre Cast"), T("TCON", U8, "Podcast"), T("TRCK", U8, "12"),
                      T("TDRL", U8, "2021-03-04"), T("TDES", U8, "An episode found by its genre."),
                      id3.WFED(url=feed % "genre-cast")]),
          expect={"title": "Genre Episode", "artist": ["Gina Host"], "album": "Genre Cast",
                  "genre": ["Podcast"], "track_number": 12, "is_podcast": True,
                  "podcast_show": "Genre Cast", "release_date": "2021-03-04",
                  "description": "An episode found by its genre.", "feed_url": feed % "genre-cast",
                  "tag_format": "id3v2.4"},
          note="podcast by TCON 'Podcast' only (no PCST, not under Podcasts/); release date from "
               "TDRL; no TDRC so no year/date.")
    track("Talk/Flag Cast/Flag Episode.mp3", "mpeg2_mono24", 520, 320,
          head=v2(4, [T("TIT2", U8, "Flag Episode"), T("TPE1", U8, "Fred Flagg"),
                      T("TALB", U8, "Flag Cast"), T("TCON", U8, "Speech"),
                      T("TDRC", U8, "2020-12-25"), T("TDES", U8, "An episode found by its PCST frame."),
                      id3.WFED(url=feed % "flag-cast"), id3.PCST(value=1)]),
          expect={"title": "Flag Episode", "artist": ["Fred Flagg"], "album": "Flag Cast",
                  "genre": ["Speech"], "year": 2020, "date": "2020-12-25", "is_podcast": True,
                  "podcast_show": "Flag Cast", "release_date": "2020-12-25",
                  "description": "An episode found by its PCST frame.", "feed_url": feed % "flag-cast",
                  "tag_format": "id3v2.4"},
          note="podcast by PCST only (libmpg123 drops PCST and WFED); release date from TDRC.")
    track("Podcasts/Show Name/Folder Episode.mp3", "mpeg2_mono24", 540, 340,
          head=v2(4, [T("TIT2", U8, "Folder Episode"), T("TPE1", U8, "Folder Host"),
                      T("TDRC", U8, "2022-11-30")]),
          expect={"title": "Folder Episode", "artist": ["Folder Host"], "year": 2022,
                  "date": "2022-11-30", "is_podcast": True, "podcast_show": "Show Name",
                  "release_date": "2022-11-30", "tag_format": "id3v2.4"},
          note="podcast only because it lives under Podcasts/; no TALB, so the show is the folder "
               "name and album stays absent (the file is tagged: no path fallback for album).")
    track("Podcasts/Show Name/Older Folder Episode.mp3", "mpeg2_mono24", 400, 360,
          head=v2(4, [T("TIT2", U8, "Older Folder Episode"), T("TPE1", U8, "Folder Host"),
                      T("TDRC", U8, "2022-10-01")]),
          expect={"title": "Older Folder Episode", "artist": ["Folder Host"], "year": 2022,
                  "date": "2022-10-01", "is_podcast": True, "podcast_show": "Show Name",
                  "release_date": "2022-10-01", "tag_format": "id3v2.4"},
          note="second episode of 'Show Name', older: episodes sort newest first.")

    # ---- sorting: articles, diacritics, numbers -----------------------------------------------
    sorting = [
        ("Sorting/The Beatles - Abbey Lane.mp3", "The Beatles", "Abbey Lane", "The Green Album",
         [T("TCON", L1, "Shoegaze")], {"genre": ["Shoegaze"]}, L1),
        ("Sorting/A Tribe - Bonita.mp3", "A Tribe", "Bonita", "A Low End",
         [T("TSOP", L1, "A Tribe")], {"sort_artist": "A Tribe"}, L1),
        ("Sorting/an Artist - cello.mp3", "an Artist", "cello", "An Album", [], {}, L1),
        ("Sorting/Ärzte - Zäh.mp3", "Ärzte", "Zäh", "Ärztekammer", [], {}, U8),
        ("Sorting/2 Unlimited - Two.mp3", "2 Unlimited", "Two", "2 Much", [], {}, L1),
        ("Sorting/10cc - Ten.mp3", "10cc", "Ten", "10 Albums", [], {}, L1),
        ("Sorting/Élan Vital - élan.mp3", "Élan Vital", "élan", "Épilogue", [], {}, L1),
    ]
    for k, (path, artist, title, album, extra, extra_exp, enc) in enumerate(sorting):
        version = 4 if enc == U8 else 3
        e = {"title": title, "artist": [artist], "album": album, "track_number": k + 1,
             "tag_format": "id3v2.%d" % version}
        e.update(extra_exp)
        track(path, "cbr32", 335 + 5 * k, 660 + 30 * k,
              head=v2(version, [T("TIT2", enc, title), T("TPE1", enc, artist), T("TALB", enc, album),
                                T("TRCK", enc, str(k + 1))] + extra),
              expect=e)

    # ---- durations ----------------------------------------------------------------------------
    durations = [
        ("01 CBR Info", "cbr64_info", 405), ("02 VBR Xing", "vbr_xing", 425),
        ("03 VBR no Xing", "vbr_noxing", 445), ("04 CBR no Info", "cbr64_noinfo", 465),
        ("05 MPEG-2 22050 mono", "mpeg2_mono", 485), ("06 48000 Hz", "cbr64_48k", 505),
    ]
    for k, (name, profile, ms) in enumerate(durations):
        title = name[3:]
        track("Durations/%s.mp3" % name, profile, ms, 440,
              head=v2(3, [T("TIT2", L1, title), T("TPE1", L1, "Duration Tester"),
                          T("TALB", L1, "Durations"), T("TRCK", L1, "%d/6" % (k + 1))]),
              expect={"title": title, "artist": ["Duration Tester"], "album": "Durations",
                      "track_number": k + 1, "track_total": 6, "tag_format": "id3v2.3"})

    # ---- bad input that is still indexed ------------------------------------------------------
    vx = audio("vbr_xing", 640, 500, tmp)
    tag, frames = walk_frames(vx)
    cut_frame = frames[len(frames) * 3 // 5]
    cut = cut_frame[0] + cut_frame[1]["size"] // 2                    # in the middle of a frame
    track("_bad/truncated.mp3", "vbr_xing", 640, 500, stream=vx[:cut],
          head=v2(3, [T("TIT2", L1, "Truncated"), T("TPE1", L1, "Bad Input"), T("TALB", L1, "Bad Files")]),
          expect={"title": "Truncated", "artist": ["Bad Input"], "album": "Bad Files",
                  "tag_format": "id3v2.3"},
          problems=["truncated"],
          note="VBR with Xing/LAME header cut in the middle of audio frame %d of %d; the Xing "
               "header still claims the full length.  samples is what mpg123 decodes from the "
               "cut file (whole frames only, encoder delay trimmed, no end padding trimmed).  "
               "libmpg123 1.31.2: mpg123_length 28224 at open, 17280 after mpg123_scan (untrimmed)."
               % (len(frames) * 3 // 5 + 1, len(frames)))
    junk = prng_bytes("junk-before-audio", 70 * 1024)
    track("_bad/junk-before-audio.mp3", "cbr64_info", 330, 587,
          head=v2(3, [T("TIT2", L1, "Junk Before Audio"), T("TPE1", L1, "Bad Input"),
                      T("TALB", L1, "Bad Files")]) + junk,
          expect={"title": "Junk Before Audio", "artist": ["Bad Input"], "album": "Bad Files",
                  "tag_format": "id3v2.3"},
          problems=["junk-before-audio"],
          note="valid ID3v2.3 tag, then 71680 pseudo-random bytes (no 0xFF byte, so no false "
               "sync), then a valid CBR stream with Info/LAME header.  libmpg123's default "
               "resync search gives up after 65536 bytes of junk ('Giving up searching valid MPEG "
               "header'): set MPG123_RESYNC_LIMIT to -1 or find the first frame yourself.  samples "
               "measured with mpg123 --resync-limit -1.")
    bad_utf8 = v2(4, [T("TIT2", U8, "Bad XXX Title"), T("TPE1", U8, "Bad Input"),
                      T("TALB", U8, "Bad Files")])
    assert bad_utf8.count(b"XXX") == 1
    bad_utf8 = bad_utf8.replace(b"XXX", b"\xff\xfe\xc3")
    track("_bad/bad-utf8-tag.mp3", "cbr32", 375, 622, head=bad_utf8, check=False,
          expect={"title": "Bad \ufffd\ufffd\ufffd Title", "artist": ["Bad Input"],
                  "album": "Bad Files", "tag_format": "id3v2.4"},
          problems=["invalid-text"],
          note="TIT2 is declared UTF-8 (encoding 3) but holds b'Bad \\xff\\xfe\\xc3 Title'.  "
               "Expected: each invalid byte replaced by U+FFFD (what Swift's String(decoding:as:"
               "UTF8.self) and Python's decode('utf-8','replace') give), other frames kept.")
    track("_bad/tag-overflow.mp3", "cbr64_info", 350, 659,
          head=b"ID3\x03\x00\x00\x7f\x7f\x7f\x7f", check=False,
          expect={"title": "tag-overflow", "tag_format": "none"},
          problems=["tag-overflow"],
          note="decided: INDEXED.  10-byte ID3v2.3 header whose size field (7F 7F 7F 7F) claims "
               "268435455 bytes, then at offset 10 a valid CBR stream with Info/LAME header.  No "
               "tag frames can be read, so tag_format is none and the title comes from the file "
               "name; the file is only one folder deep, so no artist/album from the path.  libmpg123 "
               "1.31.2 opens it but mpg123_getformat returns MPG123_DONE: decode from offset 10.")
    track("_bad/folder.mp3/inside.mp3", "cbr32", 380, 698,
          head=v2(3, [T("TIT2", L1, "Inside a Folder Named .mp3"), T("TPE1", L1, "Bad Input"),
                      T("TALB", L1, "Bad Files")]),
          expect={"title": "Inside a Folder Named .mp3", "artist": ["Bad Input"],
                  "album": "Bad Files", "tag_format": "id3v2.3"},
          note="the directory _bad/folder.mp3 must be walked, not opened as a file.")

    # ---- skipped files --------------------------------------------------------------------------
    skipped = [
        ("_bad/empty.mp3", b"", "empty"),
        ("_bad/random.mp3", prng_bytes("random.mp3", 64 * 1024), "not-audio"),
        ("_bad/not-really.mp3", b"This is not an MP3 file.\nIt is a short text file that happens "
                                b"to be named like one.\n", "not-audio"),
        ("_bad/._resource.mp3", (b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        "
                                 + bytes(4096))[:4096], "appledouble"),
    ]
    ignored = [
        ("Artist Name/Album Name/cover.jpg", JPEG),
        ("Artist Name/Album Name/desktop.ini", b"[.ShellClassInfo]\r\nIconResource=folder.ico,0\r\n"),
        ("Tag Formats/.DS_Store", b"\x00\x00\x00\x01Bud1" + bytes(2040)),
        ("Tag Formats/Thumbs.db", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)),
    ]

    # ---- playlists ----------------------------------------------------------------------------
    playlists = []
    mix = [("../Sorting/Ärzte - Zäh.mp3", "Sorting/Ärzte - Zäh.mp3"),
           ("../Tag Formats/id3v1.mp3", "Tag Formats/id3v1.mp3"),
           ("../Missing Artist/Gone Album/09 Not Here.mp3", None),
           ("../Extensions/Loud Extension.MP3", "Extensions/Loud Extension.MP3"),
           ("../Artist Name/Album Name/07 Some Title.mp3", "Artist Name/Album Name/07 Some Title.mp3")]
    playlists.append(("Playlists/Mix.m3u", "\r\n".join(l for l, _ in mix).encode("latin-1") + b"\r\n",
                      [t for _, t in mix]))
    trip = [("#EXTINF:0,Anna Abbott - Ünïcödé ✓ UTF-8", "../Tag Formats/id3v2.4 utf8.mp3",
             "Tag Formats/id3v2.4 utf8.mp3"),
            (None, "..\\Durations\\03 VBR no Xing.mp3", "Durations/03 VBR no Xing.mp3"),
            ("#EXTINF:0,Алиса Морозова - Ночной поезд", "../Tag Formats/id3v2.3 utf16.mp3",
             "Tag Formats/id3v2.3 utf16.mp3"),
            (None, "../Sorting/Élan Vital - élan.mp3", "Sorting/Élan Vital - élan.mp3")]
    lines = ["#EXTM3U"]
    for inf, line, _ in trip:
        if inf:
            lines.append(inf)
        lines.append(line)
    playlists.append(("Playlists/Trip.m3u8", ("\n".join(lines) + "\n").encode("utf-8"),
                      [t for _, _, t in trip]))
    playlists.append(("Playlists/Empty.m3u", b"", []))
    return tracks, skipped, ignored, playlists


# ------------------------------------------------------------------------------------------
# Measuring and checking.
# ------------------------------------------------------------------------------------------
def decode(path, tmp):
    """(samples per channel, rate, channels) as mpg123 outputs them for this file."""
    wav = os.path.join(tmp, "dec.wav")
    if os.path.exists(wav):
        os.remove(wav)
    subprocess.run(["mpg123", "-q", "--resync-limit", "-1", "-w", wav, path], check=True,
                   stderr=subprocess.DEVNULL)
    if not os.path.exists(wav):                  # mpg123 found no audio at all
        return 0, None, None
    with wave.open(wav) as w:
        return w.getnframes(), w.getframerate(), w.getnchannels()


def mpg123_test_ok(path):
    r = subprocess.run(["mpg123", "-t", "--resync-limit", "-1", path], capture_output=True)
    return r.returncode == 0 and b"error" not in r.stderr.lower()


def mutagen_view(path):
    """The tag as mutagen reads it, in expected.json's terms (for the fields it can give)."""
    from mutagen.id3 import ID3, ID3NoHeaderError
    try:
        t = ID3(path)
        version = "id3v2.%d" % t.version[1]
    except ID3NoHeaderError:                 # ID3v1 only: mutagen reads it (and raises
        from mutagen.id3 import ParseID3v1   # ID3NoHeaderError for ID3())
        with open(path, "rb") as f:
            f.seek(-128, 2)
            frames = ParseID3v1(f.read(128))
        t = {k: v for k, v in (frames or {}).items()}
        version = None
    out = {}

    def text(fid):
        f = t.get(fid)
        return list(f.text) if f is not None else None

    for fid, key in (("TIT2", "title"), ("TALB", "album"), ("TSOT", "sort_title"),
                     ("TSOP", "sort_artist"), ("TSOA", "sort_album"), ("TSO2", "sort_album_artist"),
                     ("TDES", "description")):
        v = text(fid)
        if v:
            out[key] = v[0]
    for fid, key in (("TPE1", "artist"), ("TPE2", "album_artist"), ("TCOM", "composer")):
        v = text(fid)
        if v:
            out[key] = [s for part in v for s in part.split("/")] if version == "id3v2.3" else v
    if t.get("TCON") is not None:
        out["genre"] = list(dict.fromkeys(t["TCON"].genres))
    for fid, a, b in (("TRCK", "track_number", "track_total"), ("TPOS", "disc_number", "disc_total")):
        v = text(fid)
        if v:
            n, _, m = v[0].partition("/")
            out[a] = int(n)
            if m:
                out[b] = int(m)
    for fid in ("TYER", "TDRC"):
        v = text(fid)
        if v:
            out["date"] = str(v[0])
            out["year"] = int(str(v[0])[:4])
    if t.get("TDRL") is not None:
        out["_tdrl"] = str(t["TDRL"].text[0])
    if t.get("TCMP") is not None:
        out["is_compilation"] = t["TCMP"].text[0] == "1"
    comms = [f for k, f in t.items() if k.startswith("COMM")]
    if comms:
        out["comment"] = comms[0].text[0]
    if any(k.startswith("APIC") for k in t.keys()) or any(k.startswith("PIC") for k in t.keys()):
        out["has_artwork"] = True
    for k, f in t.items():
        if k.startswith("TXXX"):
            key = {"replaygain_track_gain": "rg_track_gain", "replaygain_track_peak": "rg_track_peak",
                   "replaygain_album_gain": "rg_album_gain",
                   "replaygain_album_peak": "rg_album_peak"}.get(f.desc.lower())
            if key:
                out[key] = float(f.text[0].replace("dB", "").strip())
        if k.startswith("RVA2") and f.channel == 1 and "rg_track_gain" not in out:
            out["rg_track_gain"], out["rg_track_peak"] = f.gain, f.peak
        if k.startswith("WFED"):
            out["feed_url"] = f.url
        if k.startswith("PCST"):
            out["_pcst"] = True
    out["_version"] = version
    return out


def check_track(path, e):
    """Compare the mutagen view with the stated expectation; returns a list of mismatches."""
    m = mutagen_view(path)
    errs = []
    keys = ["title", "artist", "album", "album_artist", "genre", "composer", "year", "date",
            "track_number", "track_total", "disc_number", "disc_total", "sort_title", "sort_artist",
            "sort_album", "sort_album_artist", "comment", "has_artwork", "rg_track_gain",
            "rg_track_peak", "rg_album_gain", "rg_album_peak", "description", "feed_url"]
    if e["tag_format"] == "none":
        if m["_version"] is not None or len(m) > 1:
            errs.append("untagged file has a tag: %r" % m)
        return errs
    for k in keys:
        if k == "comment" and e["tag_format"].startswith("id3v1"):
            continue                                     # mutagen's ID3v1 reader drops comments
        a, b = e.get(k), m.get(k)
        if k == "has_artwork":
            a, b = bool(a), bool(b)
        if isinstance(a, float) or isinstance(b, float):
            ok = a is not None and b is not None and abs(a - b) < 1e-6
        else:
            ok = a == b
        if not ok:
            errs.append("%s: expected %r, mutagen reads %r" % (k, a, b))
    if e.get("is_compilation", False) != m.get("is_compilation", False):
        errs.append("is_compilation: expected %r, mutagen %r" % (e.get("is_compilation"), m.get("is_compilation")))
    if e.get("is_podcast") and not (m.get("_pcst") or e.get("genre") == ["Podcast"] or path.split(os.sep).count("Podcasts")):
        errs.append("is_podcast without PCST, TCON Podcast or a Podcasts folder")
    if e.get("is_podcast") and e.get("release_date") != m.get("_tdrl", m.get("date")):
        errs.append("release_date: expected %r, tag has TDRL %r / date %r"
                    % (e.get("release_date"), m.get("_tdrl"), m.get("date")))
    if e["tag_format"].startswith("id3v2") and m["_version"] != e["tag_format"]:
        errs.append("tag_format: expected %s, mutagen reads %s" % (e["tag_format"], m["_version"]))
    return errs


def raw_v1_check(data, e):
    """ID3v1 checked by hand: the last 128 bytes, Latin-1, trimmed of spaces and NULs."""
    t = data[-128:]
    assert t[:3] == b"TAG"
    f = lambda a, b: t[a:b].rstrip(b"\x00 ").decode("latin-1")
    is11 = t[125] == 0 and t[126] != 0
    got = {"title": f(3, 33), "artist": [f(33, 63)], "album": f(63, 93), "date": f(93, 97),
           "comment": f(97, 125 if is11 else 127), "genre": [ID3V1_GENRES[t[127]]],
           "tag_format": "id3v1.1" if is11 else "id3v1"}
    errs = ["v1 %s: expected %r, bytes say %r" % (k, e.get(k), v) for k, v in got.items() if e.get(k) != v]
    if is11 and e.get("track_number") != t[126]:
        errs.append("v1.1 track: expected %r, byte says %d" % (e.get("track_number"), t[126]))
    return errs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=HERE, help="folder to write music/ and expected.json into")
    args = ap.parse_args()
    for tool in ("lame", "mpg123"):
        if shutil.which(tool) is None:
            sys.exit("needs %s on PATH (Debian: apt-get install lame mpg123)" % tool)
    music = os.path.join(args.out, "music")
    if os.path.exists(music):
        shutil.rmtree(music)
    os.makedirs(music)
    tmp = tempfile.mkdtemp(prefix="cw-fixtures-")
    try:
        tracks, skipped, ignored, playlists = build(tmp)
        expected = {"tracks": {}, "skipped": {}, "problems": {}, "playlists": {}, "ignored": [],
                    "notes": {}}
        errors = []

        def write(rel, data):
            p = os.path.join(music, *rel.split("/"))
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(data)
            return p

        for t in tracks:
            data = t["head"] + t["audio"] + t["tail"]
            p = write(t["path"], data)
            e = dict(t["expect"])
            # Measured, not stated: decode this very file with mpg123.  The tag-overflow file
            # is decoded from offset 10 (the stream alone) as well, and both must agree.
            samples, rate, channels = decode(p, tmp)
            if t["path"] == "_bad/tag-overflow.mp3":
                alone = os.path.join(tmp, "stream.mp3")
                with open(alone, "wb") as f:
                    f.write(t["audio"])
                s2 = decode(alone, tmp)
                if s2 != (samples, rate, channels):
                    t["note"] += ("  mpg123 on the whole file gives %d samples; the stream alone %d; "
                                  "samples is the stream's." % (samples, s2[0]))
                    samples, rate, channels = s2
            e.update(samples=samples, sample_rate=rate, channels=channels,
                     is_vbr=stream_is_vbr(t["audio"]) if "truncated" not in t["problems"]
                     else walk_frames(AUDIO_CACHE[("vbr_xing", 640, 500)])[0] == "Xing")
            e.setdefault("is_compilation", False)
            e.setdefault("has_artwork", False)
            e.setdefault("is_podcast", False)
            expected["tracks"][t["path"]] = e
            if t["problems"]:
                expected["problems"][t["path"]] = t["problems"]
            if t["note"]:
                expected["notes"][t["path"]] = t["note"]
            # independent checks
            if "truncated" not in t["problems"] and t["path"] != "_bad/tag-overflow.mp3" \
                    and not mpg123_test_ok(p):
                errors.append("%s: mpg123 -t reports an error" % t["path"])
            if t["check"]:
                errors += ["%s: %s" % (t["path"], x) for x in check_track(p, e)]
            if t["tail"]:
                errors += ["%s: %s" % (t["path"], x) for x in raw_v1_check(data, e)
                           if e["tag_format"].startswith("id3v1")]
            if "truncated" in t["problems"]:
                full = os.path.join(tmp, "full.mp3")
                open(full, "wb").write(AUDIO_CACHE[("vbr_xing", 640, 500)])
                expected["notes"][t["path"]] += ("  The uncut stream decodes to %d samples." % decode(full, tmp)[0])
        for rel, data, kind in skipped:
            write(rel, data)
            expected["skipped"][rel] = kind
        expected["notes"]["_bad/folder.mp3"] = "a directory, walked; it is neither a track nor skipped"
        expected["notes"]["_bad/random.mp3"] = ("65536 pseudo-random bytes (SHA-256 counter mode) with "
                                                "no 0xFF byte, so nothing in it can sync as MPEG audio")
        for rel, data in ignored:
            write(rel, data)
            expected["ignored"].append(rel)
        for rel, data, entries in playlists:
            write(rel, data)
            expected["playlists"][rel] = entries
            for target in entries:
                if target is not None and target not in expected["tracks"]:
                    errors.append("%s lists %s, which is not a track" % (rel, target))
        expected["notes"]["Playlists/Mix.m3u"] = "Latin-1, CRLF, paths relative to the playlist; entry 3 is missing"
        expected["notes"]["Playlists/Trip.m3u8"] = ("#EXTM3U, UTF-8, LF; entry 2 uses Windows backslashes; "
                                                    "#EXTINF lines are not entries")
        expected["notes"]["Playlists/Empty.m3u"] = "zero bytes: a playlist with no entries"
        expected["ignored"].sort()
        with open(os.path.join(args.out, "expected.json"), "w", encoding="utf-8") as f:
            json.dump(expected, f, ensure_ascii=False, indent=1, sort_keys=True)
            f.write("\n")
        total = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(music) for n in ns)
        print("wrote %d tracks, %d skipped, %d ignored, %d playlists; music/ is %d bytes"
              % (len(tracks), len(skipped), len(ignored), len(playlists), total))
        if errors:
            print("\n".join("CHECK FAILED: " + e for e in errors), file=sys.stderr)
            sys.exit(1)
        print("all checks passed (mutagen read-back, hand-read ID3v1, mpg123 -t, mpg123 decode)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
