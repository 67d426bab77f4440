"""Picture speed and size: SVG and PNG of tours from 8x8 to 4000x4000 (the PNG cap).

    python benchmarks/bench_render.py            # prints a table
    python benchmarks/bench_render.py --quick    # skips the largest sizes

Every tour is verified before it is drawn: CP-SAT tours up to 40x40, divide and conquer
above (``find_tour`` with the automatic engine choice).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kt_formal import Board, find_tour  # noqa: E402
from kt_formal.io.render import png_size, tour_png, tour_svg  # noqa: E402


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    tours = {n: find_tour(Board(n, n), engine="cpsat", seed=0, workers=1).tour.verify() for n in (8, 20, 40)}
    for n in (200, 1000) if not args.quick else (200,):
        tours[n] = find_tour(Board(n, n)).tour.verify()
    print(f"{'board':>10} {'moves':>9} {'SVG s':>7} {'SVG KB':>8} {'PNG s':>7} {'PNG px':>11} {'PNG KB':>8}")
    for n, t in tours.items():
        if n <= 200:
            svg, ts = timed(lambda: tour_svg(t))
            svg_s, svg_kb = f"{ts:7.2f}", f"{len(svg) / 1024:8.0f}"
        else:
            svg_s, svg_kb = f"{'-':>7}", f"{'-':>8}"
        png, tp = timed(lambda: tour_png(t))
        w, h = png_size(png)
        print(f"{n:>4}x{n:<5} {len(t) - 1:>9} {svg_s} {svg_kb} {tp:7.2f} {f'{w}x{h}':>11} {len(png) / 1024:8.0f}")
    if not args.quick:  # at the PNG cap: 1 pixel a square, squares coloured by step
        t = find_tour(Board(4000, 4000)).tour.verify()
        png, tp = timed(lambda: tour_png(t))
        w, h = png_size(png)
        print(f"{'4000x4000':>10} {len(t) - 1:>9} {'-':>7} {'-':>8} {tp:7.2f} {f'{w}x{h}':>11} {len(png) / 1024:8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
