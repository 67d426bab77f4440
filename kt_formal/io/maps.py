"""Maps: grids of coloured cells with a title, axis labels, panel names and a legend, as SVG or PNG.

A *map* is a figure of one or more *panels*. A panel is a grid of cells, each cell
named by a key of a colour table (``yes``, ``no``, ...), with a name above it, labels
along its top (columns) and its left side (rows), and a caption for each axis. The
figure has a title, a note under it, and a legend of the colours used. The layout
is computed once (:func:`layout`) as a list of rectangles and texts in pixels; the
SVG writer and the PNG writer draw the same list, so the two pictures agree and the
SVG's ``viewBox`` holds every text.

SVG text uses a monospace font, whose advance is at most 0.6 em, so the layout can
measure it without a font; PNG text is drawn by Pillow with its bundled font (one of
the package's dependencies: a rasteriser with a font, where hand-drawn glyphs would be
hundreds of lines of data to keep).

>>> p = Panel("closed, hole 1x1", [["yes", "no"], ["no", "yes"]], ["2", "1"], ["a", "b"])
>>> svg = map_svg(Figure("3x3 board", [p], note="top-left square of the hole"), {"yes": (0, 160, 0), "no": (200, 0, 0)})
>>> svg.count("<rect class="), "closed, hole 1x1" in svg
(4, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

__all__ = ["Panel", "Figure", "layout", "map_svg", "map_png", "CHAR_WIDTH"]

#: Advance of one character of the layout's font, in ems (monospace fonts are at most 0.6).
CHAR_WIDTH = 0.62


@dataclass
class Panel:
    """One grid: ``cells[i][j]`` is a colour key (or None for no cell); labels may be None."""

    name: str
    cells: list
    row_labels: list | None = None
    col_labels: list | None = None
    row_axis: str = ""
    col_axis: str = ""


@dataclass
class Figure:
    """Panels under a title and a note, with a legend; ``legend`` maps colour keys to words."""

    title: str
    panels: list
    note: str = ""
    legend: dict = field(default_factory=dict)


def _text_width(text: str, size: float) -> float:
    return len(text) * size * CHAR_WIDTH


def layout(fig: Figure, colours: dict, *, cell: int = 14, max_width: int = 1200, min_width: int = 420):
    """The figure as ``(width, height, items)``: items ``("rect", x, y, w, h, key)`` and
    ``("text", x, y, text, size, anchor, weight)`` (y is the text's baseline)."""
    title_size, name_size, label_size = 16, 12, 10
    pad = 10
    items: list = []
    y = pad + title_size
    items.append(("text", pad, y, fig.title, title_size, "start", "bold"))
    width_needed = pad * 2 + _text_width(fig.title, title_size)
    if fig.note:
        y += 6 + label_size + 2
        items.append(("text", pad, y, fig.note, label_size + 1, "start", "normal"))
        width_needed = max(width_needed, pad * 2 + _text_width(fig.note, label_size + 1))
    y += 10
    # panel boxes: each panel's own size, then flowed left to right in rows
    boxes = []
    for p in fig.panels:
        nrows = len(p.cells)
        ncols = max((len(r) for r in p.cells), default=0)
        left = 0.0
        if p.row_labels:
            left = max(_text_width(str(t), label_size) for t in p.row_labels) + 4
        if p.row_axis:
            left += label_size + 4
        top = name_size + 4 + (label_size + 3 if p.col_labels else 0)
        grid_w = ncols * cell
        w = max(left + grid_w, _text_width(p.name, name_size), left + _text_width(p.col_axis, label_size))
        h = top + nrows * cell + (label_size + 6 if p.col_axis else 0)
        boxes.append((p, left, top, w, h))
    usable = max(max_width, max((b[3] for b in boxes), default=0) + 2 * pad)
    x = pad
    row_h = 0.0
    widest = 0.0
    gap = 18
    for p, left, top, w, h in boxes:
        if x > pad and x + w > usable - pad:
            x = pad
            y += row_h + gap
            row_h = 0.0
        items.append(("text", x, y + name_size, p.name, name_size, "start", "bold"))
        gx, gy = x + left, y + top
        if p.col_labels:
            for j, t in enumerate(p.col_labels):
                items.append(("text", gx + j * cell + cell / 2, gy - 3, str(t), label_size, "middle", "normal"))
        if p.row_labels:
            for i, t in enumerate(p.row_labels):
                items.append(("text", gx - 4, gy + i * cell + cell / 2 + label_size * 0.35, str(t),
                              label_size, "end", "normal"))
        if p.row_axis:
            items.append(("vtext", x + label_size, gy + len(p.cells) * cell / 2, p.row_axis, label_size,
                          "middle", "normal"))
        for i, line in enumerate(p.cells):
            for j, key in enumerate(line):
                if key is not None:
                    items.append(("rect", gx + j * cell, gy + i * cell, cell - 1, cell - 1, key))
        if p.col_axis:
            items.append(("text", gx, gy + len(p.cells) * cell + label_size + 3, p.col_axis, label_size,
                          "start", "normal"))
        x += w + gap
        widest = max(widest, x - gap + pad)
        row_h = max(row_h, h)
    y += row_h + gap
    # the legend: the keys it names, in its order
    lx = pad
    legend_w = 0.0
    for key, words in fig.legend.items():
        if key not in colours:
            continue
        items.append(("rect", lx, y, 12, 12, key))
        items.append(("text", lx + 16, y + 10, words, label_size + 1, "start", "normal"))
        step = 16 + _text_width(words, label_size + 1) + 14
        lx += step
        legend_w = lx
    height = y + 12 + pad
    width = max(min_width, widest, width_needed, legend_w + pad)
    return int(width + 0.5), int(height + 0.5), items


def _hex(rgb) -> str:
    return "#%02x%02x%02x" % tuple(rgb)


def map_svg(fig: Figure, colours: dict, *, cell: int = 14) -> str:
    """The figure as an SVG document whose ``viewBox`` holds every cell and text."""
    width, height, items = layout(fig, colours, cell=cell)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="monospace">',
           f"<title>{escape(fig.title)}</title>",
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    for it in items:
        if it[0] == "rect":
            _, x, y, w, h, key = it
            out.append(f'<rect class="{escape(key)}" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" '
                       f'fill="{_hex(colours[key])}"/>')
        else:
            kind, x, y, text, size, anchor, weight = it
            rot = f' transform="rotate(-90 {x:g} {y:g})"' if kind == "vtext" else ""
            bold = ' font-weight="bold"' if weight == "bold" else ""
            out.append(f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}"{bold}{rot}>'
                       f"{escape(text)}</text>")
    out.append("</svg>\n")
    return "\n".join(out)


def map_png(fig: Figure, colours: dict, *, cell: int = 14, scale: int = 1) -> bytes:
    """The figure as PNG bytes (drawn with Pillow)."""
    import io

    from PIL import Image, ImageDraw, ImageFont

    width, height, items = layout(fig, colours, cell=cell)
    img = Image.new("RGB", (width * scale, height * scale), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    fonts: dict = {}

    def font(size, weight):
        key = (size, weight)
        if key not in fonts:
            fonts[key] = ImageFont.load_default(size=size * scale)
        return fonts[key]

    for it in items:
        if it[0] == "rect":
            _, x, y, w, h, key = it
            draw.rectangle([x * scale, y * scale, (x + w) * scale - 1, (y + h) * scale - 1],
                           fill=tuple(colours[key]))
            continue
        kind, x, y, text, size, anchor, weight = it
        f = font(size, weight)
        a = {"start": "ls", "middle": "ms", "end": "rs"}[anchor]
        if kind == "vtext":
            tw = int(f.getlength(text)) + 2
            box = Image.new("L", (tw, (size + 4) * scale), 0)
            ImageDraw.Draw(box).text((tw / 2, size * scale), text, fill=255, font=f, anchor="ms")
            box = box.rotate(90, expand=True)
            img.paste((0, 0, 0), (int(x * scale - box.width), int(y * scale - box.height / 2)), box)
            continue
        draw.text((x * scale, y * scale), text, fill=(0, 0, 0), font=f, anchor=a)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()
