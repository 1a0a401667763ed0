#!/usr/bin/env python3
"""Regenerates scan-equality/: the odd MP3 layouts the cold-read scanner (issue 23) must index
exactly as the scanner before it did.

    python3 make-scan-equality.py                 # rewrites scan-equality/ beside this script
    python3 make-scan-equality.py --out /tmp/se   # the same into another folder (to compare)

The files cover what reading exact ranges could get wrong: Xing, Info and VBRI header frames,
Xing-less CBR and VBR streams (scanned whole), ID3v2.2/2.3/2.4, whole-tag and per-frame
unsynchronisation, extended headers, a v2.4 footer, several APICs before, between and after the
text frames, iTunes-style v2.4 frame sizes that are not synchsafe, padding, ID3v1 only, junk
before the first frame (short, and past the first 64 KiB window), truncated streams (with and
without a Xing header) and a tag that claims more bytes than the file has. The artwork payloads
are 12-40 KiB, several pages each, so skipping them is a real skip.

What a correct index stores is not written here: `ScanEqualityTests` compares the database with
`Golden/scan-equality.dump`, made with the scanner before the change. Tags are written by hand
(below) so every flag and size is exact; audio is lame's, from make-fixtures.py's synthesiser.
Same tools as make-fixtures.py (lame 3.100); deterministic: two runs give the same bytes.
"""

import argparse
import importlib.util
import os
import shutil
import struct
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("fixtures", os.path.join(HERE, "make-fixtures.py"))
fx = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fx)

fx.PROFILES.update({
    "cbr128_info": (["-b", "128", "--cbr"], 44100, 2, 0),       # Info + LAME header
    "cbr128_noinfo": (["-b", "128", "--cbr", "-t"], 44100, 2, 0),
    "vbr_v2": (["-V", "2"], 44100, 2, 1),                       # Xing + LAME header
    "vbr_v4_noxing": (["-V", "4", "-t"], 44100, 2, 1),
    "mpeg2_noxing": (["-b", "48", "-m", "m", "-t"], 22050, 1, 0),
})


# ---- ID3v2 by hand ------------------------------------------------------------------------
def ss(n):
    return fx.syncsafe(n)


def enc_text(enc, s):
    if enc == 0:
        return b"\x00" + s.encode("latin-1")
    if enc == 1:
        return b"\x01\xff\xfe" + s.encode("utf-16-le")
    if enc == 2:
        return b"\x02" + s.encode("utf-16-be")
    return b"\x03" + s.encode("utf-8")


def frame(version, fid, data, flags=b"\x00\x00", plain=False):
    if version == 2:
        return fid.encode() + len(data).to_bytes(3, "big") + data
    size = len(data).to_bytes(4, "big") if version == 3 or plain else ss(len(data))
    return fid.encode() + size + flags + data


def text(version, fid, s, enc=0):
    return frame(version, fid, enc_text(enc, s))


def art(label, n):
    """A fake JPEG of n bytes: SOI/APP0 then pseudo-random bytes (0xFF allowed: unsync cases)."""
    return b"\xff\xd8\xff\xe0" + fx.prng_bytes(label, n - 4, avoid_ff=False).replace(b"ID3", b"ID4") \
        .replace(b"TAG", b"TAH").replace(b"Xing", b"Xinh").replace(b"Info", b"Infp")


def apic(version, data, ptype=3, desc="", enc=0, mime="image/jpeg"):
    if version == 2:
        return frame(2, "PIC", bytes([enc]) + b"JPG" + bytes([ptype]) + enc_text(enc, desc)[1:] + b"\x00" * (2 if enc in (1, 2) else 1) + data)
    return bytes([enc]) + mime.encode() + b"\x00" + bytes([ptype]) + enc_text(enc, desc)[1:] + \
        b"\x00" * (2 if enc in (1, 2) else 1) + data


def unsync(b):
    """ID3 unsynchronisation: a 0x00 after every 0xFF (allowed everywhere by the spec)."""
    return b.replace(b"\xff", b"\xff\x00")


def tag(version, frames, flags=0, ext=b"", padding=0, footer=False, unsynchronise=False):
    body = ext + b"".join(frames) + b"\x00" * padding
    if unsynchronise:
        body = unsync(body)
        flags |= 0x80
    if footer:
        flags |= 0x10
    if ext:
        flags |= 0x40
    head = bytes([version, 0, flags]) + ss(len(body))
    return b"ID3" + head + body + (b"3DI" + head if footer else b"")


def std_text(v, title, artist="Equal Artist", album="Equal Album", track="1/20", enc=0):
    ids = {2: ("TT2", "TP1", "TAL", "TRK"), 3: ("TIT2", "TPE1", "TALB", "TRCK"), 4: ("TIT2", "TPE1", "TALB", "TRCK")}[v]
    return [text(v, ids[0], title, enc), text(v, ids[1], artist, enc), text(v, ids[2], album, enc), text(v, ids[3], track)]


def vbri(stream):
    """Puts a Fraunhofer VBRI header into the first frame of a header-less CBR stream."""
    b = bytearray(stream)
    assert b[0] == 0xFF
    frames = 0
    i = 0
    while i + 4 <= len(b):
        h = fx.frame_header(bytes(b), i)
        if not h:
            break
        frames += 1
        i += h["size"]
    body = b"VBRI" + struct.pack(">HHHIIHHHH", 1, 1105, 75, len(b), frames - 1, 0, 1, 2, 1)
    b[36:36 + len(body)] = body
    return bytes(b)


def build():
    v1 = fx.v1("V1 Title", "V1 Artist", "V1 Album", "1999", "v1 comment", 7, 17, b"\x00")
    files = {}

    def put(name, head, profile, ms=700, hz=440, tail=b"", between=b"", cut=None, transform=None):
        stream = fx.audio(profile, ms, hz, TMP)
        if transform:
            stream = transform(stream)
        data = head + between + stream
        if cut:
            data = data[:cut(len(head) + len(between), len(stream))]
        files[name] = data + tail

    # Header frames.
    put("Headers/01 Xing VBR, APIC first.mp3",
        tag(3, [frame(3, "APIC", apic(3, art("a1", 24000)))] + std_text(3, "Xing VBR")), "vbr_v2")
    put("Headers/02 Info CBR, APICs last.mp3",
        tag(3, std_text(3, "Info CBR") + [frame(3, "APIC", apic(3, art("a2", 20000))),
                                         frame(3, "APIC", apic(3, art("a3", 13000), ptype=4, desc="back"))]),
        "cbr128_info")
    put("Headers/03 VBRI.mp3",
        tag(3, std_text(3, "VBRI") + [frame(3, "APIC", apic(3, art("a4", 16000)))]), "cbr128_noinfo",
        transform=vbri)
    put("Headers/04 Xing-less CBR.mp3",
        tag(4, [frame(4, "APIC", apic(4, art("a5", 18000)))] + std_text(4, "Xing-less CBR", enc=3)),
        "cbr128_noinfo", ms=1500)
    put("Headers/05 Xing-less VBR.mp3",
        tag(3, [frame(3, "APIC", apic(3, art("a6", 14000)))] + std_text(3, "Xing-less VBR", enc=1)
            + [frame(3, "APIC", apic(3, art("a7", 30000), ptype=4))]),
        "vbr_v4_noxing", ms=2000)
    put("Headers/06 MPEG-2 mono Xing-less.mp3",
        tag(3, std_text(3, "MPEG-2 mono") + [frame(3, "APIC", apic(3, art("a8", 12000)))]), "mpeg2_noxing")

    # Tag versions and their options.
    put("Tags/01 v2.2 PIC between.mp3",
        tag(2, std_text(2, "v2.2")[:2] + [apic(2, art("b1", 20000))] + std_text(2, "v2.2")[2:]), "vbr_v2")
    put("Tags/02 v2.3 unsynchronised.mp3",
        tag(3, std_text(3, "v2.3 unsynchronised") + [frame(3, "APIC", apic(3, art("b2", 16000)))]
            + [text(3, "TCON", "(17)")], unsynchronise=True), "cbr128_info")
    put("Tags/03 v2.4 frame unsync and DLI.mp3",
        tag(4, std_text(4, "v2.4 frame unsync", enc=3)
            + [frame(4, "APIC", ss(len(apic(4, art("b3", 15000)))) + unsync(apic(4, art("b3", 15000))),
                     flags=b"\x00\x03")]
            + [text(4, "TCON", "Shoegaze", enc=3)]), "vbr_v2")
    put("Tags/04 v2.3 extended header.mp3",
        tag(3, std_text(3, "v2.3 extended header") + [frame(3, "APIC", apic(3, art("b4", 17000)))],
            ext=struct.pack(">IHI", 6, 0, 0)), "cbr128_info")
    put("Tags/05 v2.4 extended header.mp3",
        tag(4, [frame(4, "APIC", apic(4, art("b5", 17000)))] + std_text(4, "v2.4 extended header", enc=3),
            ext=ss(6) + b"\x01\x00"), "vbr_v2")
    put("Tags/06 v2.4 footer.mp3",
        tag(4, std_text(4, "v2.4 footer", enc=3) + [frame(4, "APIC", apic(4, art("b6", 21000)))], footer=True),
        "vbr_v2")
    put("Tags/07 v2.4 plain sizes.mp3",
        tag(4, [frame(4, "TIT2", enc_text(3, "v2.4 plain sizes"), plain=True),
                frame(4, "APIC", apic(4, art("b7", 26000)), plain=True),
                frame(4, "TPE1", enc_text(3, "Plain Artist"), plain=True),
                frame(4, "TALB", enc_text(3, "Plain Album"), plain=True)]), "cbr128_info")
    put("Tags/08 three APICs, text between.mp3",
        tag(3, [frame(3, "APIC", apic(3, art("c1", 12000)))] + std_text(3, "three APICs")[:2]
            + [frame(3, "APIC", apic(3, art("c2", 40000), ptype=4, desc="back", enc=1))]
            + std_text(3, "three APICs")[2:]
            + [frame(3, "APIC", apic(3, art("c3", 12500), ptype=0, mime="image/png"))],
            padding=9000), "vbr_v2")
    put("Tags/09 v1 only.mp3", b"", "cbr128_info", tail=v1)
    put("Tags/10 v2.3 and v1.mp3",
        tag(3, std_text(3, "v2.3 and v1") + [frame(3, "APIC", apic(3, art("c4", 15000)))]),
        "vbr_v4_noxing", tail=v1)
    put("Tags/11 APIC only.mp3", tag(3, [frame(3, "APIC", apic(3, art("c5", 19000)))]), "cbr128_info")
    put("Tags/12 v2.3 comment and txxx after APIC.mp3",
        tag(3, [text(3, "TIT2", "after APIC"), frame(3, "APIC", apic(3, art("c6", 22000))),
                frame(3, "COMM", b"\x00eng\x00a comment after the picture"),
                frame(3, "TXXX", b"\x00REPLAYGAIN_TRACK_GAIN\x00-4.50 dB"),
                text(3, "TYER", "2011")]), "vbr_v2")

    # Damage.
    put("Damage/01 junk before first frame.mp3",
        tag(3, std_text(3, "short junk") + [frame(3, "APIC", apic(3, art("d1", 16000)))]), "vbr_v2",
        between=fx.prng_bytes("junk1", 3000))
    put("Damage/02 junk past 64 KiB.mp3",
        tag(3, std_text(3, "long junk") + [frame(3, "APIC", apic(3, art("d2", 12000)))]), "cbr128_info",
        between=fx.prng_bytes("junk2", 70000))
    put("Damage/03 truncated Xing.mp3",
        tag(3, std_text(3, "truncated Xing") + [frame(3, "APIC", apic(3, art("d3", 16000)))]), "vbr_v2",
        ms=1500, cut=lambda a, n: a + n * 3 // 5 + 101)
    put("Damage/04 truncated Xing-less.mp3",
        tag(3, [frame(3, "APIC", apic(3, art("d4", 16000)))] + std_text(3, "truncated Xing-less")),
        "cbr128_noinfo", ms=1500, cut=lambda a, n: a + n * 3 // 5 + 77)
    put("Damage/05 tag overflow.mp3",
        b"ID3\x03\x00\x00\x7f\x7f\x7f\x7f" + text(3, "TIT2", "overflow"), "cbr128_info")
    # The last one: an APIC frame whose size runs past the tag's end (the walk stops there).
    t = tag(3, std_text(3, "APIC runs past"))
    bad = frame(3, "APIC", apic(3, art("d5", 9000)))
    bad = bad[:4] + (len(bad) * 2).to_bytes(4, "big") + bad[8:]
    body = t[10:] + bad
    files["Damage/06 APIC size past the tag.mp3"] = b"ID3\x03\x00\x00" + ss(len(body)) + body + \
        fx.audio("vbr_v2", 700, 440, TMP)
    return files


def main():
    global TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "scan-equality"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as TMP:
        files = build()
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    for rel, data in sorted(files.items()):
        path = os.path.join(args.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    total = sum(len(d) for d in files.values())
    print("%d files, %d bytes in %s" % (len(files), total, args.out))


if __name__ == "__main__":
    main()
