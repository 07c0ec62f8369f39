#!/usr/bin/env python3
"""Draws chapter 10's two pictures as plain SVG (no dependencies, the primer's style): the matrix M
of section [1] as a heat map, and how the chunked algorithm cuts M into blocks. Run it from
anywhere; it rewrites ssd_matrix.svg and chunk_blocks.svg next to itself.

    python3 chapters/10_ssd/figures/draw_figures.py

The heat map's numbers are read from the recorded run, section [1] of plots/10_ssd/output.txt
(six steps, one channel, two states); the block picture carries no numbers.
"""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "book"))
sys.dont_write_bytecode = True  # no __pycache__ beside the book's sources
from svg_drawing import svg, rect, text, arrow, ARROW_HEAD  # noqa: E402 (the path above first)

# The primer's colours (chapters/00_gpu_primer/figures/draw_figures.py), and a red for positives.
PALE, MID, STRONG = "#eef3fb", "#b3cdef", "#5b8fd6"
GREEN, SAND, ROSE = "#e6f2e1", "#fdf0d9", "#f6e0e0"
INK = "#1d2b3a"
NEGATIVE, POSITIVE = (91, 143, 214), (214, 91, 91)  # STRONG, and its red twin


def recorded_matrix():
    """Section [1]'s table of M: six rows, '·' above the diagonal (None here)."""
    output = (ROOT / "plots" / "10_ssd" / "output.txt").read_text(encoding="utf-8")
    section = output.split("[1] ", 1)[1].split("\n[2] ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = line.split()
        if len(cells) == 7 and re.fullmatch(r"\d", cells[0]):
            rows.append([None if c == "·" else float(c) for c in cells[1:]])
    if len(rows) != 6:
        sys.exit("draw_figures.py: section [1] of plots/10_ssd/output.txt has no 6 x 6 table of M")
    return rows


def shade(value, largest):
    """White at 0, STRONG blue at -largest, its red at +largest."""
    t = min(1.0, abs(value) / largest)
    r, g, b = NEGATIVE if value < 0 else POSITIVE
    mix = lambda c: round(255 + (c - 255) * t)  # noqa: E731
    return f"#{mix(r):02x}{mix(g):02x}{mix(b):02x}"


def ssd_matrix():
    """M = L ∘ C Bᵀ (times dt'), six steps of one head and channel, from the recorded run."""
    M = recorded_matrix()
    largest = max(abs(v) for row in M for v in row if v is not None)
    W, H = 800, 530
    b = ""
    b += text(20, 28, "M for six steps of one head (section [1] of the recorded run)", 16, weight="bold")
    cell, x0, y0 = 58, 70, 78
    for j in range(6):
        b += text(x0 + j * cell + cell / 2, y0 - 10, f"j = {j}", 13, "middle")
    for i in range(6):
        b += text(x0 - 10, y0 + i * cell + cell / 2 + 5, f"i = {i}", 13, "end")
        for j in range(6):
            v = M[i][j]
            x, y = x0 + j * cell, y0 + i * cell
            if v is None:
                b += rect(x, y, cell, cell, "#ffffff", stroke="#d5dbe1", width=1, rx=0)
                b += text(x + cell / 2, y + cell / 2 + 5, "0", 12, "middle", fill="#b0b8c0")
                continue
            fill = shade(v, largest)
            b += rect(x, y, cell, cell, fill, stroke="#ffffff", width=1.5, rx=0)
            light = abs(v) / largest > 0.6
            b += text(x + cell / 2, y + cell / 2 + 5, f"{v:+.4f}", 11.5, "middle",
                      fill="white" if light else INK)
    b += text(x0 + 3 * cell, y0 + 6 * cell + 26, "column j: the input xⱼ", 13, "middle")
    # Colour scale.
    sx, sy, sw = x0, y0 + 6 * cell + 46, 6 * cell
    steps = 24
    for k in range(steps):
        v = -largest + (2 * largest) * (k + 0.5) / steps
        b += rect(sx + k * sw / steps, sy, sw / steps + 0.5, 14, shade(v, largest), stroke="none", width=0, rx=0)
    b += text(sx, sy + 30, f"−{largest:.4f}", 12, "middle")
    b += text(sx + sw / 2, sy + 30, "0", 12, "middle")
    b += text(sx + sw, sy + 30, f"+{largest:.4f}", 12, "middle")
    # What a cell is.
    tx = x0 + 6 * cell + 40
    lines = [
        ("row i: the output yᵢ = Σⱼ M[i][j] xⱼ", "bold"),
        ("", None),
        ("M[i][j] = (Cᵢ · Bⱼ) · L[i][j] · dt'ⱼ", "mono"),
        ("", None),
        ("L[i][j] = exp(A·(dt'ⱼ₊₁ + … + dt'ᵢ)),", "mono"),
        ("the decay from step j to step i: 1 on the", None),
        ("diagonal, 0 above it (the future never", None),
        ("reaches the past).", None),
        ("", None),
        ("Cᵢ · Bⱼ: how much of what step j wrote", None),
        ("into the state step i reads back out.", None),
        ("", None),
        ("With one A a head, the decay is one number", None),
        ("per (i, j), the same for every state: it", None),
        ("factors out of Cᵢ · Bⱼ. M is then the", None),
        ("same for every channel of the head, and", None),
        ("y = M x is a matrix product.", None),
    ]
    y = y0 + 4
    for s, style in lines:
        if s:
            b += text(tx, y, s, 13, weight="bold" if style == "bold" else "normal", mono=style == "mono")
        y += 19
    return svg(W, H, b)


def chunk_blocks():
    """M cut into chunks of Q = 4 positions: diagonal blocks and low-rank blocks below them."""
    W, H = 800, 610
    b = ARROW_HEAD
    b += text(20, 28, "The chunked algorithm: M cut into chunks (12 positions, Q = 4)", 16, weight="bold")
    n, Q, cell, x0, y0 = 12, 4, 23, 84, 94
    blocks = n // Q
    diag_fill, low_fill = MID, GREEN
    for i in range(n):
        for j in range(n):
            x, y = x0 + j * cell, y0 + i * cell
            ci, cj = i // Q, j // Q
            fill = "#ffffff" if j > i else diag_fill if ci == cj else low_fill
            b += rect(x, y, cell, cell, fill, stroke="#ffffff" if j <= i else "#e3e7eb", width=1, rx=0)
    for c in range(blocks + 1):  # chunk borders
        p = c * Q * cell
        b += f"<line x1='{x0 + p}' y1='{y0}' x2='{x0 + p}' y2='{y0 + n * cell}' stroke='#34495e' stroke-width='2'/>\n"
        b += f"<line x1='{x0}' y1='{y0 + p}' x2='{x0 + n * cell}' y2='{y0 + p}' stroke='#34495e' stroke-width='2'/>\n"
    for c in range(blocks):
        mid = (c * Q + Q / 2) * cell
        b += text(x0 + mid, y0 - 10, f"chunk {c}", 13, "middle")
        b += text(x0 - 8, y0 + mid + 5, f"chunk {c}", 13, "end")
    b += text(x0 + n * cell / 2, y0 - 32, "inputs j (columns)", 13, "middle", fill="#555")
    b += text(20, y0 + n * cell + 24, "outputs i (rows); white: zero above the diagonal", 13, fill="#555")
    # The block (chunk 2, chunk 0): marked, and spelled out on the right.
    bx, by = x0, y0 + 2 * Q * cell
    b += rect(bx + 2, by + 2, Q * cell - 4, Q * cell - 4, "none", stroke="#c0392b", width=2.5, rx=2)
    b += text(bx + Q * cell / 2, by + Q * cell / 2 + 5, "(2, 0)", 13, "middle", "bold", "#c0392b")
    # Legend and the factors of block (2, 0).
    tx = x0 + n * cell + 34
    y = y0 + 2
    b += rect(tx, y - 13, 18, 18, diag_fill, rx=2, width=1)
    b += text(tx + 28, y + 2, "a chunk with itself: the quadratic form", 14, weight="bold")
    b += text(tx + 28, y + 21, "stage 4: the chunk's C·Bᵀ (Q × Q), masked, decayed;", 13)
    b += text(tx + 28, y + 39, "stage 5: times the chunk's dt'·x", 13)
    y += 72
    b += rect(tx, y - 13, 18, 18, low_fill, rx=2, width=1)
    b += text(tx + 28, y + 2, "an earlier chunk: rank ≤ n, never built", 14, weight="bold")
    b += text(tx + 28, y + 21, "block (2, 0), row i in chunk 2, column j in chunk 0,", 13)
    b += text(tx + 28, y + 39, "is the product of three factors:", 13)
    y += 56
    terms = [
        ("exp(acsᵢ) Cᵢ", "stage 5: state to output, inside chunk 2", ROSE),
        ("a₁ = exp(acs at chunk 1's last position)", "stage 3: the decay across chunk 1", SAND),
        ("exp(acs_last − acsⱼ) dt'ⱼ xⱼ Bⱼᵀ", "stage 2: summed over j, chunk 0's state s₀", PALE),
    ]
    for k, (term, what, fill) in enumerate(terms):
        yy = y + k * 56
        b += rect(tx + 28, yy, 346, 44, fill, rx=4, width=1.2)
        b += text(tx + 38, yy + 18, term, 13, mono=True)
        b += text(tx + 38, yy + 36, what, 12.5, fill="#444")
    y += 3 * 56 + 14
    b += text(tx, y, "acs: the running sum of dt'·A inside a chunk (stage 1)", 13)
    # The scan across chunks, under the matrix.
    yb = 446
    b += text(20, yb, "Across chunks, a scan of pairs: chapter 06's recurrence one level up", 15, weight="bold")
    yb += 20
    bw, gap = 210, 56
    for c in range(blocks):
        x = 20 + c * (bw + gap)
        sub = "₀₁₂"[c]
        prev = ("₋₁", "₀", "₁")[c]
        b += rect(x, yb, bw, 34, PALE, rx=4, width=1.2)
        b += text(x + bw / 2, yb + 22, f"chunk {c}'s pair (a{sub}, s{sub})", 13, "middle")
        b += rect(x, yb + 62, bw, 34, SAND, rx=4, width=1.2)
        b += text(x + bw / 2, yb + 84, f"h{sub} = a{sub}·h{prev} + s{sub}", 13.5, "middle")
        b += arrow(x + bw / 2, yb + 34, x + bw / 2, yb + 59)
        if c < blocks - 1:
            b += arrow(x + bw, yb + 79, x + bw + gap - 3, yb + 79)
    b += text(20, yb + 122, "a: a chunk's total decay; s: what its own inputs leave in the state; h: the state after "
              "the chunk,", 13)
    b += text(20, yb + 141, "which the next chunk's outputs read (h₋₁: the initial states, or 0; h₂: the final states).",
              13)
    return svg(W, H, b)


if __name__ == "__main__":
    (HERE / "ssd_matrix.svg").write_text(ssd_matrix())
    (HERE / "chunk_blocks.svg").write_text(chunk_blocks())
