#!/usr/bin/env python3
"""Draws chapter 08's pictures as plain SVG (no dependencies, the primer's style). Run it from
anywhere; it rewrites the SVGs next to itself.

    python3 chapters/08_selective_scan/figures/draw_figures.py

  blocked_chunks.svg  version 2's map (README.md): a block per (b, d), chunks of kThreads x kItems
                      steps, kItems steps a thread, a block scan per state, the running prefix
                      (v2_blocked_forward.cu; the shapes: v2_blocked_common.cuh's table)
  ring_forward.svg    version 5's forward ring (ADVANCED.md): ring_stages, consumer_warps and the
                      barriers' arrival counts of v5_ring_forward.cu; RingPosition (shared_ring.cuh)
  segment_carry.svg   a sequence cut into segments (ADVANCED.md): segment_carry.cuh's summaries
                      and fold, v5_ring_forward.cu's two passes
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "book"))
sys.dont_write_bytecode = True  # no __pycache__ beside the book's sources
from svg_drawing import svg, rect, text, line, arrow, ARROW_HEAD  # noqa: E402 (the path above first)

# The primer's colours (chapters/00_gpu_primer/figures/draw_figures.py): blues for the levels of
# threads, green for shared memory, red for global memory; yellow and grey mark roles and padding.
PALE, LIGHT, MID, STRONG = "#eef3fb", "#d6e4f7", "#b3cdef", "#5b8fd6"
GREEN, YELLOW, RED = "#e6f2e1", "#fdf0d9", "#f6e0e0"
GREY, WHITE, THREAD = "#f0f0f0", "#ffffff", STRONG
SHARED, HBM = GREEN, RED
FULL, EMPTY = MID, YELLOW


def cells(x, y, n, w, h, fill, stroke="#2c3e50"):
    return "".join(rect(x + i * w, y, w - 2, h, fill, stroke=stroke, width=0.8, rx=1.5) for i in range(n))


def blocked_chunks():
    """Version 2: one block per (b, d); the sequence in chunks; a chunk over threads; the carry."""
    W, H = 800, 600
    b = ARROW_HEAD
    # The grid: one block per (b, d).
    b += text(20, 28, "The grid: one block per (batch b, channel d); block b·dim + d walks one sequence", 15,
              weight="bold")
    names = ["b 0, d 0", "b 0, d 1", "b 0, d 2", "…", "b 0, d dim−1", "b 1, d 0", "…"]
    x = 20
    for k, name in enumerate(names):
        w = 30 if name == "…" else 96
        if name == "…":
            b += text(x + w / 2, 62, "…", 17, "middle")
        else:
            b += rect(x, 42, w, 30, LIGHT, width=2.5 if k == 2 else 1.2, rx=4)
            b += text(x + w / 2, 62, name, 13, "middle")
        x += w + 8
    # Block (0, 2)'s sequence, in chunks.
    y = 112
    b += line(20 + 2 * 104, 72, 20, y)
    b += line(20 + 2 * 104 + 96, 72, 780, y)
    b += rect(20, y, 760, 100, LIGHT)
    b += text(34, y + 24, "Its sequence of L steps, walked in chunks of 128 threads × 16 items = 2048 steps (L > 1024)",
              13.5, weight="bold")
    chunks = [("chunk 0", "steps 0–2047"), ("chunk 1", "2048–4095"), ("chunk 2", "4096–6143"), ("last chunk", "to L−1")]
    cx = 34
    for k, (name, steps) in enumerate(chunks):
        if k == 3:
            b += text(cx + 6, y + 70, "…", 17, "middle")
            cx += 30
        last = k == 3
        b += rect(cx, y + 40, 150, 44, WHITE, width=2.5 if k == 1 else 1.2, rx=4)
        if last:
            b += rect(cx + 96, y + 40, 54, 44, GREY, rx=4, width=1.2, dash="4,3")
            b += text(cx + 123, y + 67, "past L", 12, "middle")
        b += text(cx + (75 if not last else 48), y + 59, name, 13, "middle", "bold")
        b += text(cx + (75 if not last else 48), y + 77, steps, 12, "middle")
        if k < 3:
            b += arrow(cx + 150, y + 62, cx + 176, y + 62)
            b += text(cx + 162, y + 56, "h", 13, "middle", "bold")
        cx += 176
    # Chunk 1 over the threads.
    y2 = 250
    b += line(34 + 176, y + 84, 20, y2)
    b += line(34 + 176 + 150, y + 84, 780, y2)
    b += rect(20, y2, 760, 128, PALE)
    b += text(34, y2 + 24, "One chunk: thread i holds steps 16i to 16i + 15 in registers", 13.5, weight="bold")
    threads = [(0, "0–15"), (1, "16–31"), (2, "32–47"), None, (126, "2016–2031"), (127, "2032–2047")]
    tx = 34
    for t in threads:
        if t is None:
            b += text(tx + 12, y2 + 68, "…", 17, "middle")
            tx += 26
            continue
        i, steps = t
        b += text(tx + 58, y2 + 48, f"thread {i}", 12, "middle")
        b += cells(tx, y2 + 54, 16, 7.3, 24, THREAD)
        b += text(tx + 58, y2 + 96, steps, 12, "middle")
        tx += 126
    b += text(34, y2 + 118, "each item: u, Δ, y, B, C and a pair (Ā, ΔBu), a state at a time", 12)
    # Per state: the scan.
    y3 = 404
    b += text(20, y3, "For each state n in turn, over the chunk:", 15, weight="bold")
    steps = [("1. each thread forms", "its 16 pairs (Ā, ΔBu)"),
             ("2. cub::BlockScan", "InclusiveScan over 128 threads"),
             ("3. y += C·h", "each step, in registers")]
    sx = 20
    for k, (a1, a2) in enumerate(steps):
        b += rect(sx, y3 + 14, 224, 52, LIGHT if k != 1 else MID, rx=4)
        b += text(sx + 112, y3 + 36, a1, 13, "middle", "bold")
        b += text(sx + 112, y3 + 56, a2, 12, "middle")
        if k < 2:
            b += arrow(sx + 224, y3 + 40, sx + 262, y3 + 40)
        sx += 268
    b += text(288, y3 + 88, "the prefix callback: thread 0 returns running[n], the map of every earlier", 12)
    b += text(288, y3 + 106, "chunk, and folds in this chunk's total; after the chunk, running[n].b = h,", 12)
    b += text(288, y3 + 124, "which thread 0 stores in chunk_states: one state every 2048 steps", 12)
    # The shapes.
    y4 = 560
    b += text(20, y4, "Block shape by L (threads × items = chunk):", 13, weight="bold")
    shapes = ["≤ 128: 32 × 4", "≤ 256: 32 × 8", "≤ 512: 32 × 16", "≤ 1024: 64 × 16", "more: 128 × 16 = 2048"]
    b += text(20, y4 + 24, "   ·   ".join(shapes), 13)
    return svg(W, H, b)


def ring_forward():
    """Version 5's forward: a producer warp fills a ring of tiles that the consumer warps walk."""
    W, H = 800, 610
    b = ARROW_HEAD
    b += text(20, 28, "A block of 5 warps (160 threads) around a ring of 3 tiles in shared memory (≤ 64 states)", 15,
              weight="bold")
    # Global memory and the copy engine, above the ring.
    b += rect(260, 46, 280, 40, HBM, rx=4)
    b += text(400, 71, "global memory: Δ, u, z, B, C", 13, "middle")
    # The ring.
    sy, sh = 126, 62
    for s in range(3):
        y = sy + s * (sh + 12)
        b += rect(260, y, 280, sh, SHARED, rx=4)
        b += text(272, y + 22, f"slot {s}", 13, weight="bold")
        b += text(272, y + 44, "a tile: 32 steps", 12)
        b += rect(396, y + 8, 60, 22, FULL, rx=3, width=1.2)
        b += text(426, y + 24, f"full {s}", 12, "middle")
        b += rect(466, y + 8, 66, 22, EMPTY, rx=3, width=1.2)
        b += text(499, y + 24, f"empty {s}", 12, "middle")
        b += text(464, y + 50, "two mbarriers", 12, "middle", fill="#555")
    b += arrow(400, 86, 400, sy - 2)
    b += text(410, 108, "bulk copies, one a row; full counts their bytes", 12)
    # The producer.
    b += rect(20, 126, 210, 210, YELLOW)
    b += text(32, 150, "producer warp", 14, weight="bold")
    b += text(32, 170, "warp 4, 32 lanes", 12)
    for k, s in enumerate(["for tile n, slot n mod 3:", "1. wait on empty, if the", "    slot was used before",
                           "2. lane 0: arrive, announce", "    the tile's bytes on full", "3. a bulk copy per row",
                           "4. the other lanes arrive"]):
        b += text(32, 196 + 20 * k, s, 12)
    b += arrow(230, 230, 258, 230)
    # The consumers.
    b += rect(570, 126, 210, 210, LIGHT)
    b += text(582, 150, "consumer warps", 14, weight="bold")
    b += text(582, 170, "warps 0–3, 128 threads", 12)
    for k, s in enumerate(["for tile n, slot n mod 3:", "1. wait on full", "2. walk its 32 steps",
                           "3. every thread arrives", "    on empty"]):
        b += text(582, 196 + 20 * k, s, 12)
    b += arrow(542, 214, 568, 214)
    b += arrow(568, 246, 542, 246)
    b += text(400, 370, "full ends a phase when the producer's 32 lanes have arrived and every announced byte",
              12, "middle")
    b += text(400, 388, "has landed; empty when all 128 consumer threads have arrived. Past 64 states: 2 slots;",
              12, "middle")
    b += text(400, 406, "past 128 states: 8 consumer warps (256 arrivals on empty).", 12, "middle")
    # The phase bit.
    y = 436
    b += text(20, y, "Each slot's barriers end one phase a round: a wait names the round's parity", 15,
              weight="bold")
    rows = [("tile n", lambda n: str(n)), ("slot n mod 3", lambda n: str(n % 3)),
            ("round n / 3", lambda n: str(n // 3)),
            ("consumers wait on full, parity", lambda n: str(n // 3 % 2)),
            ("producer waits on empty, parity", lambda n: "—" if n < 3 else str((n // 3 - 1) % 2))]
    x0, cw, rh = 270, 56, 26
    for n in range(9):
        fill = PALE if n // 3 % 2 == 0 else LIGHT
        b += rect(x0 + n * cw, y + 12, cw - 4, rh * len(rows) + 6, fill, rx=3, width=0.8, stroke="#95a5a6")
    for r, (label, f) in enumerate(rows):
        yy = y + 32 + r * rh
        b += text(20, yy, label, 13, weight="bold" if r == 3 else "normal")
        for n in range(9):
            b += text(x0 + n * cw + (cw - 4) / 2, yy, f(n), 13, "middle", mono=True)
    return svg(W, H, b)


def segment_carry():
    """A sequence cut into segments: pass 1 and its summary, the fold, pass 2."""
    W, H = 800, 572
    b = ARROW_HEAD
    b += text(20, 28, "One channel group's sequence cut into time segments, one block each (here 4)", 15,
              weight="bold")
    x0, cw = 150, 160
    col = lambda s: x0 + s * cw
    # The sequence.
    for s in range(4):
        b += rect(col(s), 44, cw - 6, 34, LIGHT, rx=4)
        b += text(col(s) + (cw - 6) / 2, 66, f"segment {s}", 13, "middle", "bold")
    b += text(20, 66, "time →", 13)
    # Pass 1.
    y1 = 100
    b += text(20, y1 + 22, "pass 1", 13, weight="bold")
    b += text(20, y1 + 40, "all at once,", 12)
    b += text(20, y1 + 56, "waiting for", 12)
    b += text(20, y1 + 72, "no one", 12)
    for s in range(3):
        b += rect(col(s), y1, cw - 6, 62, PALE, rx=4)
        b += text(col(s) + 8, y1 + 22, "walk from its initial" if s == 0 else "walk from h = 0,", 12)
        b += text(col(s) + 8, y1 + 40, "state, no outputs" if s == 0 else "no outputs", 12)
    b += rect(col(3), y1, cw - 6, 62, GREY, rx=4, dash="4,3", width=1.2)
    b += text(col(3) + 8, y1 + 22, "none: no segment", 12)
    b += text(col(3) + 8, y1 + 40, "continues the last", 12)
    # Summaries.
    y2 = 190
    b += text(20, y2 + 16, "summary", 13, weight="bold")
    b += text(20, y2 + 34, "published in", 12)
    b += text(20, y2 + 50, "global memory", 12)
    for s in range(3):
        b += arrow(col(s) + 77, y1 + 62, col(s) + 77, y2 - 2)
        b += rect(col(s), y2, cw - 6, 56, SHARED, rx=4)
        b += text(col(s) + 8, y2 + 22, f"b{'₀₁₂'[s]}: its end state", 12)
        b += text(col(s) + 8, y2 + 42, f"ΣΔ{'₀₁₂'[s]}: decays exp(A·ΣΔ{'₀₁₂'[s]})", 12)
    # The fold.
    y3 = 290
    b += text(20, y3 + 20, "carry-in", 13, weight="bold")
    b += text(20, y3 + 38, "h at its start", 12)
    ins = ["its initial state", "fold of 0", "fold of 0, 1", "fold of 0, 1, 2"]
    for s in range(4):
        b += rect(col(s), y3, cw - 6, 34, YELLOW, rx=4)
        b += text(col(s) + (cw - 6) / 2, y3 + 22, ins[s], 12, "middle")
        for j in range(s):
            b += line(col(j) + 120, y2 + 56, col(s) + 40 + 20 * j, y3, dash="", color="#7f8c8d")
    # Pass 2.
    y4 = 370
    b += text(20, y4 + 22, "pass 2", 13, weight="bold")
    for s in range(4):
        b += arrow(col(s) + 77, y3 + 34, col(s) + 77, y4 - 2)
        b += rect(col(s), y4, cw - 6, 44, LIGHT, rx=4)
        b += text(col(s) + 8, y4 + 18, "walk from the carry-in,", 12)
        b += text(col(s) + 8, y4 + 36, "write the outputs", 12)
    y5 = 440
    b += rect(20, y5, 760, 118, PALE, rx=4)
    b += text(34, y5 + 22, "The fold of segment s takes the summaries (b, ΣΔ) of segments 0 … s−1 in order:", 13)
    b += text(400, y5 + 44, "h ← b + exp(A·ΣΔ)·h", 14, "middle", mono=True)
    b += text(34, y5 + 68, "a fixed order, the same result on every run; 8 summaries loaded at once. A summary word is a ready flag", 12)
    b += text(34, y5 + 88, "beside a float, zeroed before the launch. At most 64 segments, each of at least 64 steps", 12)
    b += text(34, y5 + 108, "(below 512 steps, one 32-step tile each where all fit at once), each starting on a multiple of 32 steps.", 12)
    return svg(W, H, b)

if __name__ == "__main__":
    (HERE / "blocked_chunks.svg").write_text(blocked_chunks())
    (HERE / "ring_forward.svg").write_text(ring_forward())
    (HERE / "segment_carry.svg").write_text(segment_carry())
