#!/usr/bin/env python3
"""Seeds for fuzz target 6 (FuzzEvdev.swift), into OUT_DIR/seeds: every evemu recording of the tests
(Tests/ClickWheelCoreTests/Traces, Tests/DevicesTests/Evdev) in the target's layout, behind a few setups
(rotary on REL_X or REL_DIAL, touch ring at 15° a step, with a fitted ring): two setup bytes, then per
event kind (raw: 5 | type << 3 | code >> 8 << 5), code & 0xFF, value (int32 LE), time since the last
event in 0.1 ms (uint16 LE).

Usage: seeds.py REPO OUT_DIR
"""
import pathlib
import struct
import sys

repo, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]) / "seeds"
out.mkdir(parents=True, exist_ok=True)
for old in out.iterdir():
    old.unlink()
traces = sorted(repo.glob("Tests/ClickWheelCoreTests/Traces/*.evemu")) + sorted(repo.glob("Tests/DevicesTests/Evdev/*.evemu"))
setups = [(0x00, 15), (0x04, 15), (0x10, 15), (0x91, 15), (0x5F, 30)]
n = 0
for trace in traces:
    events, last = b"", None
    for line in trace.read_text().splitlines():
        if not line.startswith("E: "):
            continue
        stamp, etype, code, value = line[3:].split()[:4]
        etype, code, value = int(etype, 16), int(code, 16), int(value)
        if etype > 3 or code > 0x7FF:
            continue
        t = float(stamp)
        dt = 0 if last is None else min(65535, max(0, round((t - last) * 10000)))
        last = t
        events += struct.pack("<BBiH", 5 | etype << 3 | (code >> 8) << 5, code & 0xFF, value, dt)
    for setup, step in setups:
        (out / f"{trace.stem}-{setup:02x}").write_bytes(bytes([setup, step]) + events)
        n += 1
print(f"evdev seeds: {n} from {len(traces)} recordings", file=sys.stderr)
