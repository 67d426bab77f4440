"""Boards and tours as SVG text: the pictures a notebook shows and ``--svg`` writes.

This module sits below the value types (it takes a board or a tour by its attributes
and imports neither), so that :class:`~kt_formal.board.Board` and
:class:`~kt_formal.tours.Tour` draw themselves in Jupyter (``_repr_svg_``) however they
are imported; :mod:`kt_formal.io.render` adds PNG images and files.

The board is drawn as a chessboard (``a1``, the bottom-left square, is dark), holes as
dark grey squares with a light cross, and a tour as one polyline through the centres of
its squares in visiting order. SVG coordinates are in squares: the ``viewBox`` is
``0 0 cols rows``.

>>> from kt_formal.board import Board
>>> svg = board_svg(Board(3, 4, holes=[(1, 1)]))
>>> 'viewBox="0 0 4 3"' in svg, svg.count('class="holes"')
(True, 1)
"""

from __future__ import annotations

import numpy as np

from kt_formal.exceptions import InvalidInput

__all__ = ["board_svg", "tour_svg", "board_repr_svg", "tour_repr_svg", "check_side", "dark_mask", "hex_colour",
           "MAX_SVG_SIDE", "MAX_PNG_SIDE", "LIGHT", "DARK", "HOLE", "HOLE_MARK", "LINE", "START", "END", "TEXT",
           "GRADIENT", "MIN_LINE_CELL"]

#: Largest board side drawn as SVG (the file grows with the number of squares).
MAX_SVG_SIDE = 200
#: Largest board side drawn as PNG.
MAX_PNG_SIDE = 4000

# colours (RGB)
LIGHT = (240, 217, 181)
DARK = (181, 136, 99)
HOLE = (72, 72, 72)
HOLE_MARK = (150, 150, 150)
LINE = (20, 40, 120)
START = (30, 160, 60)
END = (210, 40, 40)
TEXT = (0, 0, 0)
#: Colours of the step-number gradient used when squares are too small for lines.
GRADIENT = ((48, 18, 100), (33, 120, 160), (60, 180, 110), (250, 225, 40))
#: Fewest pixels a square for the tour to be drawn as a line; below, squares are
#: coloured by step number instead.
MIN_LINE_CELL = 3


def hex_colour(rgb) -> str:
    """``#rrggbb`` of an RGB triple."""
    return "#%02x%02x%02x" % tuple(rgb)


def check_side(board, cap: int, what: str) -> None:
    """Refuse (InvalidInput) a picture of a board with a side above ``cap``."""
    side = max(board.rows, board.cols)
    if side > cap:
        raise InvalidInput(
            f"the {board.rows}x{board.cols} board is too large for {'an' if what == 'SVG' else 'a'} {what} picture "
            f"(at most {cap} squares a side{'; try PNG' if what == 'SVG' else ''})"
        )


def dark_mask(board) -> np.ndarray:
    """(rows, cols) bool: dark squares under the chess colouring (a1 dark)."""
    r = np.arange(board.rows)[:, None]
    c = np.arange(board.cols)[None, :]
    return (board.rows - 1 - r + c) % 2 == 0


# ====================================================================== SVG
def _svg_line_width(side: int) -> float:
    """Stroke width of the tour in squares: bold on small boards, thin on big ones."""
    return float(min(0.1, max(0.02, 0.6 / side ** 0.75)))


def _svg_board(board) -> list[str]:
    rows, cols = board.rows, board.cols
    parts = [f'<rect class="light" x="0" y="0" width="{cols}" height="{rows}" fill="{hex_colour(LIGHT)}"/>']
    dark = dark_mask(board) & board.live_mask()
    rr, cc = np.nonzero(dark)
    if rr.size:
        d = "".join(f"M{c} {r}h1v1h-1z" for r, c in zip(rr.tolist(), cc.tolist()))
        parts.append(f'<path class="dark" fill="{hex_colour(DARK)}" shape-rendering="crispEdges" d="{d}"/>')
    holes = board.holes()
    if holes:
        cross = max(0.03, min(0.08, 0.5 / max(rows, cols) ** 0.5))
        rects = "".join(
            f'<rect x="{c}" y="{r}" width="1" height="1"/>' for r, c in holes
        )
        marks = "".join(
            f"M{c + 0.25} {r + 0.25}l0.5 0.5M{c + 0.75} {r + 0.25}l-0.5 0.5" for r, c in holes
        )
        parts.append(f'<g class="holes" fill="{hex_colour(HOLE)}" shape-rendering="crispEdges">{rects}</g>')
        parts.append(f'<path class="hole-marks" fill="none" stroke="{hex_colour(HOLE_MARK)}" '
                     f'stroke-width="{cross:.3g}" stroke-linecap="round" d="{marks}"/>')
    return parts


def _svg_document(board, body: list[str], title: str, pixels: float | None) -> str:
    rows, cols = board.rows, board.cols
    if pixels is None:
        pixels = float(min(60, max(3, 720 // max(rows, cols))))
    w, h = cols * pixels, rows * pixels
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}" height="{h:g}" '
        f'viewBox="0 0 {cols} {rows}" shape-rendering="geometricPrecision">'
        f"<title>{title}</title>" + "".join(body) + "</svg>\n"
    )


def board_svg(board, *, pixels: float | None = None) -> str:
    """SVG of a board: chessboard squares, holes dark grey with a cross.

    Parameters
    ----------
    board : Board
    pixels : float, optional
        Display size of one square (default: about 720 pixels for the long side).

    Raises
    ------
    InvalidInput
        If a side exceeds :data:`MAX_SVG_SIDE`.
    """
    check_side(board, MAX_SVG_SIDE, "SVG")
    return _svg_document(board, _svg_board(board), f"{board.describe()} board", pixels)


def tour_svg(tour, *, numbers: bool = False, pixels: float | None = None) -> str:
    """SVG of a tour: the board, one polyline through the squares, start and end marks.

    Parameters
    ----------
    tour : Tour
    numbers : bool
        Write each square's step number (1 at the start) on it.
    pixels : float, optional
        Display size of one square.

    Returns
    -------
    str
        The SVG document. The polyline has ``len(tour) + 1`` points for a closed tour
        (the first point repeated at the end) and ``len(tour)`` for an open one.
    """
    board = tour.board
    check_side(board, MAX_SVG_SIDE, "SVG")
    side = max(board.rows, board.cols)
    body = _svg_board(board)
    r, c = tour.coords()
    if tour.closed and len(tour) > 1:
        r = np.append(r, r[0])
        c = np.append(c, c[0])
    pts = " ".join(f"{x + 0.5:g},{y + 0.5:g}" for x, y in zip(c.tolist(), r.tolist()))
    lw = _svg_line_width(side)
    body.append(f'<polyline class="tour" fill="none" stroke="{hex_colour(LINE)}" stroke-width="{lw:.3g}" '
                f'stroke-linejoin="round" stroke-linecap="round" points="{pts}"/>')
    if side <= 40:
        rr0, cc0 = tour.coords()
        dots = "".join(f"M{x + 0.5:g} {y + 0.5:g}h0" for y, x in zip(rr0.tolist(), cc0.tolist()))
        body.append(f'<path class="squares-visited" stroke="{hex_colour(LINE)}" stroke-width="{2.4 * lw:.3g}" '
                    f'stroke-linecap="round" d="{dots}"/>')
    radius = min(0.24, max(0.12, 3.0 * lw))
    (sr, sc), (er, ec) = tour.start, tour.end
    body.append(f'<circle class="end" cx="{ec + 0.5:g}" cy="{er + 0.5:g}" r="{radius:.3g}" '
                f'fill="{hex_colour(END)}" stroke="#ffffff" stroke-width="{lw / 2:.3g}"/>')
    body.append(f'<circle class="start" cx="{sc + 0.5:g}" cy="{sr + 0.5:g}" r="{radius:.3g}" '
                f'fill="{hex_colour(START)}" stroke="#ffffff" stroke-width="{lw / 2:.3g}"/>')
    if numbers:
        rr, cc = tour.coords()
        texts = "".join(
            f'<text x="{x + 0.06:g}" y="{y + 0.06:g}">{i}</text>'
            for i, (y, x) in enumerate(zip(rr.tolist(), cc.tolist()), start=1)
        )
        size = 0.3 if len(tour) < 1000 else 0.24
        body.append(
            f'<g class="numbers" font-family="sans-serif" font-size="{size}" text-anchor="start" '
            f'dominant-baseline="hanging" fill="{hex_colour(TEXT)}" stroke="#ffffff" '
            f'stroke-width="0.06" paint-order="stroke">{texts}</g>'
        )
    kind = "closed" if tour.closed else "open"
    return _svg_document(board, body, f"{kind} knight's tour of the {board.describe()} board", pixels)


def board_repr_svg(board) -> str | None:
    """Jupyter display of a :class:`~kt_formal.board.Board` (None above :data:`MAX_SVG_SIDE`)."""
    if max(board.rows, board.cols) > MAX_SVG_SIDE:
        return None  # too big for an inline SVG; Jupyter falls back to repr
    return board_svg(board)


def tour_repr_svg(tour) -> str | None:
    """Jupyter display of a :class:`~kt_formal.tours.Tour`, numbered up to 12x12."""
    if max(tour.board.rows, tour.board.cols) > MAX_SVG_SIDE:
        return None
    return tour_svg(tour, numbers=max(tour.board.rows, tour.board.cols) <= 12)
