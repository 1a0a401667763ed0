"""A small PNG reader (8-bit RGB/RGBA, non-interlaced: what Chromium writes) and a pixel comparison, so
the browser test needs no imaging package."""
import struct
import zlib


def read_png(data):
    """Returns (width, height, rows of (r, g, b) tuples)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, f"unsupported PNG: depth {depth} color {color}"
            channels = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, channels)])
        prev = line
    return width, height, rows


def differing_fraction(png_a, png_b, tolerance=24):
    """The fraction of pixels whose channels differ by more than `tolerance` (1.0 when the sizes differ)."""
    wa, ha, a = read_png(png_a)
    wb, hb, b = read_png(png_b)
    if (wa, ha) != (wb, hb):
        return 1.0
    bad = sum(1 for ra, rb in zip(a, b) for pa, pb in zip(ra, rb) if max(abs(x - y) for x, y in zip(pa, pb)) > tolerance)
    return bad / (wa * ha)
