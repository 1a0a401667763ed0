#!/usr/bin/env python3
"""Seeds for fuzz target 4 (FuzzConfig.swift), into OUT_DIR/seeds: configuration files from the repository
(contrib/clickwheel.example.yaml and the YAML written in Tests/ClickWheelConfigTests) each with the edits the
calibration makes (rotary, touch ring), in the target's layout: file, NUL, key index byte + value, NUL, …

Usage: seeds.py REPO OUT_DIR
"""
import pathlib
import re
import sys

repo, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]) / "seeds"
out.mkdir(parents=True, exist_ok=True)
for old in out.iterdir():
    old.unlink()
keys = re.findall(r'^\s*ConfigKey\(\s*name: "([a-z_0-9]+)"', (repo / "Sources/ClickWheelConfig/ConfigKeys.swift").read_text(), re.M)
if len(keys) < 20:
    keys = re.findall(r'name: "([a-z_0-9]+)"', (repo / "Sources/ClickWheelConfig/ConfigKeys.swift").read_text())
files = [(repo / "contrib/clickwheel.example.yaml").read_bytes(), b""]
# Multi-line string literals ("""…""") of the config tests that look like YAML.
for test in sorted((repo / "Tests/ClickWheelConfigTests").glob("*.swift")):
    for block in re.findall(r'"""\n(.*?)"""', test.read_text(), re.S):
        if re.search(r"^\s*[a-z_]+:", block, re.M):
            files.append(block.encode())
edits = [
    [],
    [("steps_per_detent", "2"), ("invert_wheel", "true")],
    [("touch_ring", "512,498,230"), ("degrees_per_step", "15"), ("select_key", "28")],
    [("input", "/dev/input/by-path/platform-rotary@11-event"), ("hold_ms", "600")],
    [("music", "'/home/pi/My Music'"), ("log_level", "debug")],
]
n = 0
for text in files:
    for edit in edits:
        data = text
        for key, value in edit:
            if key in keys:
                data += b"\0" + bytes([keys.index(key)]) + value.encode()
        (out / f"seed-{n:03}").write_bytes(data)
        n += 1
print(f"config seeds: {n} from {len(files)} files, {len(keys)} keys", file=sys.stderr)
