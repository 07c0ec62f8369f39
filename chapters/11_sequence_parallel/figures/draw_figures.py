#!/usr/bin/env python3
"""Draws chapter 11's pictures as plain SVG (no dependencies, the primer's style). Run it from
anywhere; it rewrites the SVGs next to itself.

    python3 chapters/11_sequence_parallel/figures/draw_figures.py

  sliced_forward.svg   one sequence cut into slices, one a GPU: the scan from zero and its summary,
                       the all-gather, the fold, the scan again (sequence_parallel.cu's forward,
                       sliced_scan.cpp's sliced_forward)
  sliced_backward.svg  the backward of sliced_scan.cpp (fp64, on the CPU): what each slice's own
                       outputs ask of its entering state, gathered and folded from the last slice
                       back (summaries.cpp's gradient_after), the slice's backward again
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "book"))
sys.dont_write_bytecode = True  # no __pycache__ beside the book's sources
from svg_drawing import svg, rect, text, line, arrow, ARROW_HEAD  # noqa: E402 (the path above first)

# The primer's colours (chapters/00_gpu_primer/figures/draw_figures.py), as chapter 08's figures
# use them: blues for work, green for what is handed on, yellow for the carry, red for the wire.
PALE, LIGHT = "#eef3fb", "#d6e4f7"
GREEN, YELLOW, RED, GREY = "#e6f2e1", "#fdf0d9", "#f6e0e0", "#f0f0f0"
SUB = "₀₁₂₃"

X0, CW = 150, 160  # the first slice's column and a column's width


def col(r):
    return X0 + r * CW


def slices_row(b, y):
    for r in range(4):
        b += rect(col(r), y, CW - 6, 34, LIGHT, rx=4)
        b += text(col(r) + (CW - 6) / 2, y + 22, f"GPU {r}: slice {r}", 13, "middle", "bold")
    b += text(20, y + 22, "time →", 13)
    return b


def rank_boxes(b, y, h, fill, lines, above=None):
    """One box a GPU at height y, h tall: lines(r) its text, two lines from the left or one centred;
    with `above`, an arrow down to it from the bottom of the row above."""
    for r in range(4):
        if above is not None:
            b += arrow(col(r) + 77, above, col(r) + 77, y - 2)
        b += rect(col(r), y, CW - 6, h, fill, rx=4)
        texts = lines(r)
        if len(texts) == 1:
            b += text(col(r) + (CW - 6) / 2, y + 22, texts[0], 12, "middle")
        else:
            for i, s in enumerate(texts):
                b += text(col(r) + 8, y + 20 + 18 * i, s, 12)
    return b


def label(b, y, title, *lines):
    b += text(20, y + 16, title, 13, weight="bold")
    for i, s in enumerate(lines):
        b += text(20, y + 34 + 16 * i, s, 12)
    return b


def sliced_forward():
    """The forward: pass 1 from zero, the summary, the all-gather, the fold, pass 2."""
    W, H = 800, 600
    b = ARROW_HEAD
    b += text(20, 28, "One sequence cut into slices of L/P steps, one a GPU (here P = 4): the forward", 15,
              weight="bold")
    b = slices_row(b, 44)
    # Pass 1.
    y1 = 98
    b = label(b, y1, "pass 1", "every GPU at", "once, alone")
    b = rank_boxes(b, y1, 54, PALE, lambda r: ["scan its slice from", "h = 0; sum its Δ"])
    # Summaries.
    y2 = 176
    b = label(b, y2, "summary", "fp32, on its", "own GPU")
    b = rank_boxes(b, y2, 50, GREEN,
                   lambda r: [f"b{SUB[r]}: its last state", f"ΣΔ{SUB[r]}: a{SUB[r]} = exp(A·ΣΔ{SUB[r]})"],
                   above=y1 + 54)
    # The all-gather.
    y3 = 252
    b = label(b, y3, "all-gather", "NCCL, one call")
    b += rect(col(0), y3, 4 * CW - 6, 46, RED, rx=4)
    b += text(col(0) + 2 * CW - 3, y3 + 19, "every GPU receives every summary: P × b·d·(N + 1) floats,", 12, "middle")
    b += text(col(0) + 2 * CW - 3, y3 + 37, "the same whatever the length of the sequence", 12, "middle")
    for r in range(4):
        b += arrow(col(r) + 77, y2 + 50, col(r) + 77, y3 - 2)
    # The fold.
    y4 = 326
    b = label(b, y4, "carry", "the state entering", "the slice")
    ins = ["initial state (or 0)", "fold of 0", "fold of 0, 1", "fold of 0, 1, 2"]
    b = rank_boxes(b, y4, 34, YELLOW, lambda r: [ins[r]], above=y3 + 46)
    # Pass 2.
    y5 = 390
    b = label(b, y5, "pass 2")
    b = rank_boxes(b, y5, 54, LIGHT,
                   lambda r: ["scan again from the", "carry: its outputs" if r < 3 else "carry: outputs, last h"],
                   above=y4 + 34)
    y6 = 470
    b += rect(20, y6, 760, 116, PALE, rx=4)
    b += text(34, y6 + 22, "GPU r folds the summaries of slices 0 … r−1 in order, state by state (chapter 06's pair):", 13)
    b += text(400, y6 + 46, "h ← a_k·h + b_k,   k = 0, 1, …, r − 1", 14, "middle", mono=True)
    b += text(34, y6 + 70, "Every GPU walks its slice twice, and the last GPU's summary is gathered but folded by no one.", 12)
    b += text(34, y6 + 88, "Chapter 8b cuts one GPU's sequence across blocks the same way; here the summaries travel through", 12)
    b += text(34, y6 + 106, "NCCL instead of global memory.", 12)
    return svg(W, H, b)


def sliced_backward():
    """The backward: local gradients, gathered, folded from the end, the slice's backward again."""
    W, H = 800, 520
    b = ARROW_HEAD
    b += text(20, 28, "The backward, run the other way (fp64 on the CPU: sliced_scan.cpp)", 15, weight="bold")
    b = slices_row(b, 44)
    y1 = 98
    b = label(b, y1, "backward 1", "from its carry,", "g = 0 at its end")
    b = rank_boxes(b, y1, 54, PALE, lambda r: ["what its own outputs", f"ask of its carry: ℓ{SUB[r]}"])
    y2 = 176
    b = label(b, y2, "all-gather", "b·d·N floats", "a GPU")
    b += rect(col(0), y2, 4 * CW - 6, 34, RED, rx=4)
    b += text(col(0) + 2 * CW - 3, y2 + 22, "every GPU receives every ℓ (and holds every summary a from the forward)", 12,
              "middle")
    for r in range(4):
        b += arrow(col(r) + 77, y1 + 54, col(r) + 77, y2 - 2)
    y3 = 236
    b = label(b, y3, "gradient", "reaching the", "slice's end")
    ins = ["fold of 3, 2, 1", "fold of 3, 2", "fold of 3", "0: nothing after"]
    b = rank_boxes(b, y3, 34, YELLOW, lambda r: [ins[r]], above=y2 + 34)
    y4 = 300
    b = label(b, y4, "backward 2")
    b = rank_boxes(b, y4, 54, LIGHT, lambda r: ["again, with that", "gradient at its end"], above=y3 + 34)
    y5 = 378
    b += rect(20, y5, 760, 128, PALE, rx=4)
    b += text(34, y5 + 22, "GPU r folds what the later slices ask, from the last one back (chapter 07's direction):", 13)
    b += text(400, y5 + 46, "g ← ℓ_k + a_k·g,   k = P − 1, …, r + 1", 14, "middle", mono=True)
    b += text(34, y5 + 70, "Backward 2 gives the gradients of the slice's own positions (du, dΔ, dz, dB, dC) where they", 12)
    b += text(34, y5 + 88, "are; dA, dD and the bias's gradient are sums over all positions: an all-reduce over the GPUs.", 12)
    b += text(34, y5 + 106, "GPU 0's gradient of its carry is the sequence's gradient of its initial state.", 12)
    return svg(W, H, b)


if __name__ == "__main__":
    (HERE / "sliced_forward.svg").write_text(sliced_forward())
    (HERE / "sliced_backward.svg").write_text(sliced_backward())
