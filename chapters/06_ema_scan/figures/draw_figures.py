#!/usr/bin/env python3
"""Draws version 5's look-back as plain SVG (no dependencies, the primer's style): the window
of 32 predecessor tiles one warp reads at once, and the two status words of a tile. Run it
from anywhere; it rewrites look_back_window.svg next to itself.

    python3 chapters/06_ema_scan/figures/draw_figures.py

What it shows is ema_kernels.cu's version 5 and chapter 05's scan::look_back (tile_scan.cuh):
lane l reads tile t - 1 - l; the flags kNotReady = 0, kAggregate = 1, kPrefix = 2 in the high
32 bits of a word, the float in the low 32; PairStatus's words 2t and 2t + 1.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "book"))
sys.dont_write_bytecode = True  # no __pycache__ beside the book's sources
from svg_drawing import svg, rect, text, arrow, ARROW_HEAD  # noqa: E402 (the path above first)

# The primer's colours (chapters/00_gpu_primer/figures/draw_figures.py), and what they mean here.
PALE, MID, STRONG = "#eef3fb", "#b3cdef", "#5b8fd6"
AGGREGATE, PREFIX, NOT_READY = MID, "#e6f2e1", "#f6e0e0"
GREY = "#f0f0f0"  # lanes past the nearest prefix


def word(x, y, flag, value, flag_fill, w_flag=96, w_value=136, h=34):
    """A 64-bit status word: the flag in the high half, the float in the low half."""
    b = rect(x, y, w_flag, h, flag_fill, rx=3, width=1.2)
    b += rect(x + w_flag, y, w_value, h, "white", rx=3, width=1.2)
    b += text(x + w_flag / 2, y + 22, flag, 13, "middle")
    b += text(x + w_flag + w_value / 2, y + 22, value, 13, "middle")
    return b


def look_back_window():
    W, H = 800, 660
    b = ARROW_HEAD
    # ---- The window: tiles t-32 .. t-1 read by lanes 31 .. 0, tile t itself on the right.
    b += text(20, 28, "Tile t's first warp reads 32 predecessors at once: lane l reads tile t − 1 − l", 15,
              weight="bold")
    cw, ch, x0, y0 = 21, 30, 84, 78
    nearest = 5  # the example: lanes 0-4 read aggregates, lane 5 the nearest prefix
    for i in range(33):
        x = x0 + i * cw
        if i == 32:  # tile t
            b += rect(x + 6, y0, cw - 2, ch, STRONG, rx=3, width=2.5)
            b += text(x + 6 + (cw - 2) / 2, y0 + 20, "t", 13, "middle", "bold", "white")
            continue
        lane = 31 - i
        if lane < nearest:
            fill, mark = AGGREGATE, "A"
        elif lane == nearest:
            fill, mark = PREFIX, "P"
        else:
            fill, mark = GREY, ("P" if lane % 3 == 0 else "A")
        b += rect(x, y0, cw - 2, ch, fill, rx=3, width=2 if lane <= nearest else 1,
                  stroke="#34495e" if lane <= nearest else "#95a5a6")
        b += text(x + (cw - 2) / 2, y0 + 20, mark, 13, "middle",
                  fill="#1d2b3a" if lane <= nearest else "#7f8c8d")
        if lane in (31, 24, 16, 8) or lane <= nearest:
            b += text(x + (cw - 2) / 2, y0 + ch + 17, str(lane), 12, "middle")
    b += text(x0 - 8, y0 + ch + 17, "lane", 12, "end")
    # Tile names above the cells.
    for i, name in ((0, "t−32"), (31 - nearest, "t−6"), (31, "t−1")):
        b += text(x0 + i * cw + (cw - 2) / 2, y0 - 8, name, 12, "middle")
    b += text(x0 - 28, y0 + 20, "…", 15, "middle")
    # The window's brace, and what a window that finds no prefix does.
    yb = y0 + ch + 28
    b += f"<path d='M{x0} {yb} v6 H{x0 + 32 * cw - 2} v-6' fill='none' stroke='#34495e' stroke-width='1.5'/>\n"
    b += text(x0 + 16 * cw, yb + 22, "one window: 32 loads in one round trip to L2", 13, "middle")
    b += arrow(x0 + 60, yb + 44, x0 - 30, yb + 44)
    b += text(x0 + 70, yb + 48, "no lane sees a prefix: the window slides 32 tiles further back", 13)
    # The ballot and the composition.
    y = yb + 82
    b += rect(20, y, 760, 118, PALE)
    b += text(34, y + 24, "Ballot: the lowest lane that read a prefix stops the walk (here lane 5, tile t−6).", 13)
    b += text(34, y + 46, "Lanes 0–5 must all be ready, else the warp reads the window again; lanes 6–31", 13)
    b += text(34, y + 66, "(grey) become the identity (1, 0). A prefix h reads as the map (0, h).", 13)
    b += text(34, y + 90, "A shuffle-down reduction composes the window, farthest tile first:", 13)
    b += text(34, y + 110, "lane 0 gets (0, h before tile t).", 13)
    # Legend.
    lx = 560
    b += rect(lx, y + 78, 19, 22, PREFIX, rx=3, width=1.2)
    b += text(lx + 9.5, y + 94, "P", 12, "middle")
    b += text(lx + 26, y + 94, "prefix", 12)
    b += rect(lx + 80, y + 78, 19, 22, AGGREGATE, rx=3, width=1.2)
    b += text(lx + 89.5, y + 94, "A", 12, "middle")
    b += text(lx + 106, y + 94, "aggregate", 12)

    # ---- The two status words of tile t, over time.
    y = 390
    b += text(20, y, "Tile t's status: two 64-bit words, each a flag (high 32 bits) beside a float (low 32 bits)",
              15, weight="bold")
    cols = (("cleared before the launch", "", 20), ("after the tile's scan:", "publish_aggregate", 284),
            ("after its look-back:", "publish_prefix", 548))
    for title, call, x in cols:
        b += text(x, y + 30, title, 13, weight="bold")
        if call:
            b += text(x, y + 48, call, 13, mono=True)
    yw = y + 60
    rows = (("word 2t", ("0 not ready", "—", NOT_READY), ("1 aggregate", "A of the tile", AGGREGATE),
             ("1 aggregate", "A, unchanged", AGGREGATE)),
            ("word 2t+1", ("0 not ready", "—", NOT_READY), ("1 aggregate", "B of the tile", AGGREGATE),
             ("2 prefix", "h at its end", PREFIX)))
    for r, (name, *states) in enumerate(rows):
        yy = yw + r * 58
        for (title, call, x), (flag, value, fill) in zip(cols, states):
            b += text(x, yy + 12, name, 12, fill="#555")
            b += word(x, yy + 18, flag, value, fill)
    for x in (254, 518):
        for r in range(2):
            b += arrow(x + 4, yw + 35 + r * 58, x + 27, yw + 35 + r * 58)
    b += text(284, yw + 136, "stored 2t, then 2t+1; seen in any order", 12, fill="#555")
    b += text(548, yw + 136, "word 2t+1 alone, rewritten", 12, fill="#555")
    # The reader's rule.
    yr = yw + 166
    b += text(20, yr, "A reader loads word 2t, then word 2t+1, and accepts", 13, weight="bold")
    b += text(20, yr + 22, "a prefix h if word 2t+1 says 2; the pair (A, B) only if both say 1; anything else "
              "is not ready: read again.", 13)
    return svg(W, H, b)


if __name__ == "__main__":
    (HERE / "look_back_window.svg").write_text(look_back_window())
