"""A small independent PNG decoder for the tests (8-bit RGB / RGBA / grey, all five filters).

It shares no code with kt_formal.io.render, so a bug in the encoder cannot hide itself.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode_png(data: bytes) -> np.ndarray:
    """(H, W, C) uint8 array of an 8-bit non-interlaced PNG; checks every chunk's CRC."""
    assert data[:8] == SIGNATURE, "bad signature"
    pos = 8
    idat = b""
    header = None
    seen_end = False
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, f"bad CRC in {kind!r}"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            seen_end = True
            break
        pos += 12 + length
    assert header is not None and seen_end
    w, h, depth, colour, _, _, interlace = header
    assert depth == 8 and interlace == 0
    channels = {0: 1, 2: 3, 6: 4}[colour]
    raw = zlib.decompress(idat)
    stride = w * channels
    assert len(raw) == h * (stride + 1), "IDAT has the wrong length"
    out = np.zeros((h, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int64)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int64)
        if f == 0:
            cur = line
        elif f == 2:
            cur = (line + prev) % 256
        else:  # 1 Sub, 3 Average, 4 Paeth: byte by byte
            cur = np.zeros(stride, dtype=np.int64)
            for i in range(stride):
                a = int(cur[i - channels]) if i >= channels else 0
                b = int(prev[i])
                c = int(prev[i - channels]) if i >= channels else 0
                pred = {1: a, 3: (a + b) // 2, 4: _paeth(a, b, c)}[f]
                cur[i] = (int(line[i]) + pred) % 256
        out[y] = cur
        prev = cur
    return out.reshape(h, w, channels)
