"""Pictures of boards and tours: SVG text and PNG images, no plotting library needed.

The board is drawn as a chessboard (``a1``, the bottom-left square, is dark), holes
as dark grey squares with a light cross, and a tour as **one polyline** through the
centres of its squares in visiting order. A closed tour's polyline repeats the first
point at the end, so it has ``len(tour) + 1`` points; an open tour's has ``len(tour)``.
The first square is marked by a green disc and the last by a red one.

SVG coordinates are in squares: the ``viewBox`` is ``0 0 cols rows`` and the square
``(r, c)`` has its centre at ``(c + 0.5, r + 0.5)``; the ``width`` and ``height``
attributes only set the default display size. PNG images are rasterised with numpy
(anti-aliased lines from a distance field) and encoded here with :mod:`zlib`; a
1000 x 1000 tour takes a few seconds.

Sizes are capped (:data:`MAX_SVG_SIDE`, :data:`MAX_PNG_SIDE`): above them the
functions raise :class:`~kt_formal.exceptions.InvalidInput` before drawing anything.

>>> from kt_formal.board import Board
>>> from kt_formal.tours import Tour
>>> ring = Board(3, 3, holes=[(1, 1)])
>>> t = Tour.from_squares(ring, [(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 1)],
...                       closed=True)
>>> svg = tour_svg(t)
>>> svg.count("<polyline"), 'viewBox="0 0 3 3"' in svg
(1, True)
>>> png = tour_png(t)
>>> png[:8] == PNG_SIGNATURE, png_size(png)
(True, (192, 192))
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np

from kt_formal.board import Board, ensure_memory
from kt_formal.exceptions import InvalidInput
from kt_formal.svg import (DARK, END, GRADIENT, HOLE, HOLE_MARK, LIGHT, LINE, MAX_PNG_SIDE, MAX_SVG_SIDE,
                           MIN_LINE_CELL, START, TEXT, board_repr_svg, board_svg, check_side, dark_mask,
                           tour_repr_svg, tour_svg)

#: Suffixes :func:`save_picture` understands.
PICTURE_SUFFIXES = (".svg", ".png")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

__all__ = [
    "board_svg",
    "board_repr_svg",
    "tour_repr_svg",
    "tour_svg",
    "board_png",
    "tour_png",
    "save_picture",
    "encode_png",
    "png_size",
    "PNG_SIGNATURE",
    "MAX_SVG_SIDE",
    "MAX_PNG_SIDE",
    "PICTURE_SUFFIXES",
    "MIN_LINE_CELL",
    "check_picture_path",
    "check_picture_size",
]


# ====================================================================== PNG
def _png_cell(board: Board, cell: int | None) -> int:
    if cell is not None:
        if cell < 1:
            raise InvalidInput(f"a square must be at least 1 pixel, got {cell}")
        return int(cell)
    side = max(board.rows, board.cols)
    # about 1600 pixels a side, up to 64 a square; big boards keep 3 pixels a square
    # (a knight move stays visible) until 3000 pixels, then shrink to 1
    return int(max(1, min(64, 1600 // side), min(3, 3000 // side)))


def _board_image(board: Board, cell: int) -> np.ndarray:
    """(H, W, 3) uint8 image of the board with ``cell`` pixels a square."""
    h, w = board.rows * cell, board.cols * cell
    ensure_memory(h * w * 24, f"a {w}x{h} pixel picture")
    kind = dark_mask(board).astype(np.uint8)  # 0 light, 1 dark, 2 hole
    if board.has_holes:
        kind[board.hole_mask] = 2
    dark = np.array(DARK, dtype=np.float64)
    if cell < 24:  # small squares: a faint chequer so the tour line stands out
        dark = 0.55 * np.array(LIGHT) + 0.45 * dark
    palette = np.array([LIGHT, dark.round(), HOLE], dtype=np.uint8)
    img = palette[np.repeat(np.repeat(kind, cell, axis=0), cell, axis=1)]
    return img


def _draw_segments(img: np.ndarray, x0, y0, x1, y1, width: float, colour,
                   budget: int = 1 << 21) -> None:
    """Blend anti-aliased segments (pixel coordinates, arrays) of ``width`` pixels into ``img``.

    Each segment is rasterised from its distance field in a small box around it (long
    along the segment's major axis); the coverages are summed per pixel with
    :func:`numpy.bincount` (clipped at 1), then blended with ``colour``. Segments go
    through in chunks of about ``budget`` box pixels to bound memory.
    """
    hgt, wid = img.shape[:2]
    x0, y0, x1, y1 = (np.asarray(a, dtype=np.float32).ravel() for a in (x0, y0, x1, y1))
    n = x0.size
    if n == 0:
        return
    half = width / 2.0
    pad = half + 1.0
    # long segments (not knight moves: a tour that was never checked) are cut into
    # pieces no longer than the typical move, so the boxes stay small
    lengths = np.maximum(np.abs(x1 - x0), np.abs(y1 - y0))
    limit = max(4.0, float(np.median(lengths)))
    pieces = np.maximum(1, np.ceil(lengths / limit - 1e-6).astype(np.int64))
    if pieces.max() > 1:
        seg = np.repeat(np.arange(n), pieces)
        first = np.cumsum(pieces) - pieces
        k = (np.arange(seg.size) - first[seg]).astype(np.float32)
        f0 = k / pieces[seg]
        f1 = (k + 1) / pieces[seg]
        dx, dy = x1 - x0, y1 - y0
        x0, y0, x1, y1 = (x0[seg] + f0 * dx[seg], y0[seg] + f0 * dy[seg],
                          x0[seg] + f1 * dx[seg], y0[seg] + f1 * dy[seg])
        n = x0.size
    # work in (u, v) coordinates where u is each segment's major axis
    swap = np.abs(y1 - y0) > np.abs(x1 - x0)
    u0, v0 = np.where(swap, y0, x0), np.where(swap, x0, y0)
    u1, v1 = np.where(swap, y1, x1), np.where(swap, x1, y1)
    span_u = int(np.ceil(float(np.abs(u1 - u0).max()) + 2 * pad)) + 1
    span_v = int(np.ceil(float(np.abs(v1 - v0).max()) + 2 * pad)) + 1
    off_u = np.arange(span_u, dtype=np.int32)
    off_v = np.arange(span_v, dtype=np.int32)
    chunk = max(1, budget // (span_u * span_v))
    cover = np.zeros(hgt * wid, dtype=np.float32)
    idx_parts, w_parts, pending = [], [], 0

    def flush():
        nonlocal idx_parts, w_parts, pending
        if idx_parts:
            cover[:] += np.bincount(np.concatenate(idx_parts), weights=np.concatenate(w_parts),
                                    minlength=hgt * wid).astype(np.float32)
        idx_parts, w_parts, pending = [], [], 0

    for s in range(0, n, chunk):
        a0, b0, a1, b1 = u0[s:s + chunk], v0[s:s + chunk], u1[s:s + chunk], v1[s:s + chunk]
        sw = swap[s:s + chunk][:, None, None]
        bu = np.floor(np.minimum(a0, a1) - pad).astype(np.int32)
        bv = np.floor(np.minimum(b0, b1) - pad).astype(np.int32)
        iu = bu[:, None, None] + off_u[None, None, :]           # (m, 1, su)
        iv = bv[:, None, None] + off_v[None, :, None]           # (m, sv, 1)
        pu = iu.astype(np.float32) + 0.5 - a0[:, None, None]   # pixel centre minus segment start
        pv = iv.astype(np.float32) + 0.5 - b0[:, None, None]
        du, dv = (a1 - a0)[:, None, None], (b1 - b0)[:, None, None]
        len2 = np.maximum(du * du + dv * dv, np.float32(1e-12))
        t = np.clip((pu * du + pv * dv) / len2, 0.0, 1.0)
        eu = pu - t * du
        ev = pv - t * dv
        cov = np.clip(np.float32(half + 0.5) - np.sqrt(eu * eu + ev * ev), 0.0, 1.0)
        ix = np.where(sw, iv, iu)
        iy = np.where(sw, iu, iv)
        keep = (cov > 0) & (ix >= 0) & (ix < wid) & (iy >= 0) & (iy < hgt)
        flat = iy.astype(np.int64) * wid + ix
        idx_parts.append(flat[keep])
        w_parts.append(cov[keep])
        pending += idx_parts[-1].size
        if pending > (1 << 23):
            flush()
    flush()
    _blend(img, cover.reshape(hgt, wid), colour)


def _blend(img: np.ndarray, cover: np.ndarray, colour) -> None:
    """``img = img * (1 - a) + colour * a`` with ``a = min(cover, 1)``, in place."""
    alpha = np.minimum(cover, np.float32(1.0)).astype(np.float32, copy=False)
    for ch in range(3):
        plane = img[..., ch].astype(np.float32)
        plane += (np.float32(colour[ch]) - plane) * alpha
        img[..., ch] = (plane + np.float32(0.5)).astype(np.uint8)


def _draw_discs(img: np.ndarray, cx, cy, radius: float, colour, ring=None) -> None:
    """Filled anti-aliased discs (pixel coordinates), optionally with a 1-pixel ring colour."""
    hgt, wid = img.shape[:2]
    for x, y in zip(np.atleast_1d(cx), np.atleast_1d(cy)):
        x0, x1 = int(max(0, np.floor(x - radius - 2))), int(min(wid, np.ceil(x + radius + 2)))
        y0, y1 = int(max(0, np.floor(y - radius - 2))), int(min(hgt, np.ceil(y + radius + 2)))
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32) + 0.5
        d = np.sqrt((xx - x) ** 2 + (yy - y) ** 2)
        patch = img[y0:y1, x0:x1]
        if ring is not None:
            cov = np.clip(radius + 1.5 - d, 0.0, 1.0)
            _blend(patch, cov, ring)
        _blend(patch, np.clip(radius + 0.5 - d, 0.0, 1.0), colour)


# a 3x5 bitmap font for step numbers on small boards (rows top to bottom, 3 bits each)
_DIGITS = {
    "0": (7, 5, 5, 5, 7), "1": (2, 6, 2, 2, 7), "2": (7, 1, 7, 4, 7), "3": (7, 1, 7, 1, 7),
    "4": (5, 5, 7, 1, 1), "5": (7, 4, 7, 1, 7), "6": (7, 4, 7, 5, 7), "7": (7, 1, 1, 1, 1),
    "8": (7, 5, 7, 5, 7), "9": (7, 5, 7, 1, 7),
}


def _glyphs(text: str) -> np.ndarray:
    """(5, 4 * len - 1) bool bitmap of a string of digits."""
    cols = []
    for i, ch in enumerate(text):
        bits = np.array([[(row >> (2 - k)) & 1 for k in range(3)] for row in _DIGITS[ch]], dtype=bool)
        if i:
            cols.append(np.zeros((5, 1), dtype=bool))
        cols.append(bits)
    return np.concatenate(cols, axis=1)


def _draw_numbers(img: np.ndarray, tour, cell: int) -> None:
    """Step numbers in a small bitmap font, white-outlined, in each square's top-left corner."""
    if cell < 16:
        return
    scale = max(1, int(cell * 0.25) // 5)
    rr, cc = tour.coords()
    for i, (r, c) in enumerate(zip(rr.tolist(), cc.tolist()), start=1):
        g = _glyphs(str(i))
        g = np.repeat(np.repeat(g, scale, axis=0), scale, axis=1)
        gh, gw = g.shape
        gw = min(gw, cell - 3)
        g = g[:, :gw]
        y0 = r * cell + 2
        x0 = c * cell + 2
        halo = np.zeros((gh + 2, gw + 2), dtype=bool)
        for dy in range(3):
            for dx in range(3):
                halo[dy:dy + gh, dx:dx + gw] |= g
        img[y0 - 1:y0 + gh + 1, x0 - 1:x0 + gw + 1][halo] = (255, 255, 255)
        img[y0:y0 + gh, x0:x0 + gw][g] = TEXT


def _board_raster(board: Board, cell: int) -> np.ndarray:
    img = _board_image(board, cell)
    if board.has_holes and cell >= 6:
        rr, cc = np.nonzero(board.hole_mask)
        q = cell * 0.25
        xa, ya = cc * cell + q, rr * cell + q
        xb, yb = xa + cell / 2, ya + cell / 2
        w = max(1.0, cell / 16)
        _draw_segments(img, np.concatenate([xa, xb]), np.concatenate([ya, ya]),
                       np.concatenate([xb, xa]), np.concatenate([yb, yb]), w, HOLE_MARK)
    return img


def _step_colours(tour, cell: int) -> np.ndarray:
    """Squares coloured by step number (start dark blue, end yellow), holes dark grey."""
    board = tour.board
    ensure_memory(board.rows * board.cols * cell * cell * 3 * 4, "a picture of the tour")
    n = len(tour)
    frac = np.zeros(board.rows * board.cols, dtype=np.float32)
    frac[tour.order] = np.arange(n, dtype=np.float32) / max(1, n - 1)
    stops = np.array(GRADIENT, dtype=np.float32)
    pos = frac * (len(stops) - 1)
    lo = np.minimum(pos.astype(np.int64), len(stops) - 2)
    w = (pos - lo)[:, None]
    rgb = (stops[lo] * (1 - w) + stops[lo + 1] * w + 0.5).astype(np.uint8)
    if board.has_holes:
        rgb[board.hole_mask.ravel()] = HOLE
    img = rgb.reshape(board.rows, board.cols, 3)
    if cell > 1:
        img = np.repeat(np.repeat(img, cell, axis=0), cell, axis=1)
    return img


def board_png(board: Board, *, cell: int | None = None) -> bytes:
    """PNG of a board (see :func:`tour_png` for ``cell``)."""
    check_side(board, MAX_PNG_SIDE, "PNG")
    return encode_png(_board_raster(board, _png_cell(board, cell)))


def tour_png(tour, *, numbers: bool = False, cell: int | None = None) -> bytes:
    """PNG of a tour: chessboard, anti-aliased tour line, start (green) and end (red) discs.

    Parameters
    ----------
    tour : Tour
    numbers : bool
        Step numbers in a small bitmap font (only drawn when squares are at least
        12 pixels, i.e. on boards up to a few dozen squares a side).
    cell : int, optional
        Pixels per square (default: 64 on small boards, shrinking so the long side
        is about 1600 pixels; 3 pixels a square up to 1000 squares a side, then less,
        at least 1). Below :data:`MIN_LINE_CELL` pixels a line would be a blur, so
        the squares are coloured by step number instead (dark blue at the start,
        yellow at the end) and no line, discs or numbers are drawn.
    """
    board = tour.board
    check_side(board, MAX_PNG_SIDE, "PNG")
    cell = _png_cell(board, cell)
    if cell < MIN_LINE_CELL:
        return encode_png(_step_colours(tour, cell))
    img = _board_raster(board, cell)
    r, c = tour.coords()
    x = (c.astype(np.float64) + 0.5) * cell
    y = (r.astype(np.float64) + 0.5) * cell
    if tour.closed and len(tour) > 1:
        x = np.append(x, x[0])
        y = np.append(y, y[0])
    width = max(1.0, cell / 16)
    _draw_segments(img, x[:-1], y[:-1], x[1:], y[1:], width, LINE)
    if cell >= 16:  # a dot on every visited square helps the eye at the turns
        n = len(tour)
        _draw_discs(img, x[:n], y[:n], 1.6 * width, LINE)
    rad = max(4.0 if cell >= 4 else 2.5, min(cell * 0.22, 4 * width))
    ring = (255, 255, 255) if cell >= 8 else None
    k = len(tour) - 1
    _draw_discs(img, [x[k]], [y[k]], rad, END, ring)
    _draw_discs(img, [x[0]], [y[0]], rad, START, ring)
    if numbers:
        _draw_numbers(img, tour, cell)
    return encode_png(img)


# ---------------------------------------------------------------------- PNG encoding
def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(img: np.ndarray, level: int = 6) -> bytes:
    """PNG bytes of an (H, W, 3) uint8 RGB image (8-bit truecolour, filter 'Up' on every row).

    >>> png_size(encode_png(np.zeros((2, 3, 3), dtype=np.uint8)))
    (3, 2)
    """
    img = np.ascontiguousarray(img, dtype=np.uint8)
    if img.ndim != 3 or img.shape[2] != 3:
        raise InvalidInput("encode_png expects an (H, W, 3) uint8 array")
    h, w = img.shape[:2]
    rows = img.reshape(h, w * 3)
    up = rows.copy()
    up[1:] -= rows[:-1]          # filter type 2 (Up): byte minus the byte above, mod 256
    raw = np.empty((h, w * 3 + 1), dtype=np.uint8)
    raw[:, 0] = 2
    raw[0, 0] = 0                # the first row has nothing above: filter type 0
    raw[0, 1:] = rows[0]
    raw[1:, 1:] = up[1:]
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (PNG_SIGNATURE + _chunk(b"IHDR", ihdr)
            + _chunk(b"IDAT", zlib.compress(raw.tobytes(), level)) + _chunk(b"IEND", b""))


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from the IHDR chunk of PNG bytes."""
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise InvalidInput("not a PNG image")
    return struct.unpack(">II", data[16:24])


# ---------------------------------------------------------------------- files
def check_picture_path(path) -> str:
    """The picture format of a path from its suffix ('svg' or 'png'); InvalidInput otherwise.
    ``-``, standard output, takes the SVG (text)."""
    if str(path) == "-":
        return "svg"
    suffix = Path(path).suffix.lower()
    if suffix not in PICTURE_SUFFIXES:
        raise InvalidInput(f"cannot tell the picture format of {path}: use a .svg or .png file name")
    return suffix[1:]


def check_picture_size(board: Board, fmt: str) -> None:
    """Raise InvalidInput if ``board`` is above the cap of picture format ``fmt``."""
    if fmt == "svg":
        check_side(board, MAX_SVG_SIDE, "SVG")
    else:
        check_side(board, MAX_PNG_SIDE, "PNG")


def save_picture(obj, path, *, numbers: bool = False, cell: int | None = None) -> Path:
    """Write a Tour or a Board as SVG or PNG, by the suffix of ``path``.

    ``numbers`` writes step numbers; ``cell`` sets the pixels per square of a PNG.

    Raises
    ------
    InvalidInput
        For an unknown suffix, a board above the cap, or a file that cannot be written.
    """
    from kt_formal.tours import Tour

    fmt = check_picture_path(path)
    if isinstance(obj, Tour):
        data = (tour_svg(obj, numbers=numbers).encode() if fmt == "svg"
                else tour_png(obj, numbers=numbers, cell=cell))
    elif isinstance(obj, Board):
        data = board_svg(obj).encode() if fmt == "svg" else board_png(obj, cell=cell)
    else:
        raise InvalidInput(f"cannot draw a {type(obj).__name__}")
    from kt_formal.files import output_file

    with output_file(path, binary=True) as fh:
        fh.write(data)
    return Path(path)
