#!/usr/bin/env python3
"""Draws the primer's two pictures as plain SVG (no dependencies): the thread hierarchy and
the memory hierarchy. Run it from anywhere; it rewrites hierarchy.svg and memory.svg next to
itself.

    python3 chapters/00_gpu_primer/figures/draw_figures.py

The pictures carry no hardware figures except those a recorded run prints (plots/): the
number of SMs and the memory of the recorded GPUs, and the device-to-device copy bandwidth.
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2] / "book"))
sys.dont_write_bytecode = True  # no __pycache__ beside the book's sources
from svg_drawing import svg, rect, text, line, arrow, ARROW_HEAD  # noqa: E402 (the path above first)

# Colours: one per level, the same in both pictures.
GRID, BLOCK, WARP, THREAD = "#eef3fb", "#d6e4f7", "#b3cdef", "#5b8fd6"
SHARED, L2, HBM = "#e6f2e1", "#fdf0d9", "#f6e0e0"


def hierarchy():
    """Grid → blocks → warps → threads, with the index arithmetic of a launch."""
    W, H = 800, 560
    b = ""
    # The grid: 2 rows of 4 blocks.
    b += rect(20, 20, 360, 250, GRID)
    b += text(35, 46, "grid", 17, weight="bold")
    b += text(35, 68, "kernel<<<blocks, threads>>>(…)", 14, mono=True)
    bw, bh = 76, 70
    for r in range(2):
        for c in range(4):
            x, y = 35 + c * (bw + 10), 88 + r * (bh + 12)
            hi = (r, c) == (0, 3)
            b += rect(x, y, bw, bh, BLOCK, width=2.5 if hi else 1.2)
            b += text(x + bw / 2, y + 32, "block", 14, "middle")
            b += text(x + bw / 2, y + 52, str(r * 4 + c), 14, "middle", mono=True)
    b += text(35, 262, "the number under each block is its blockIdx.x", 12)
    # Block 1, expanded.
    bx, by = 430, 20
    b += line(35 + 3 * (bw + 10) + bw, 88, bx, by)
    b += line(35 + 3 * (bw + 10) + bw, 88 + bh, bx, by + 250)
    b += rect(bx, by, 350, 250, BLOCK)
    b += text(bx + 15, by + 26, "block: blockDim.x threads (≤ 1024)", 15, weight="bold")
    b += text(bx + 15, by + 48, "runs on one SM; shares __shared__ memory", 13)
    for k in range(4):
        y = by + 64 + k * 44
        hi = k == 3
        b += rect(bx + 15, y, 320, 34, WARP, width=2.5 if hi else 1.2)
        b += text(bx + 25, y + 22, f"warp {k}: threads {32 * k}–{32 * k + 31}", 14)
    # Warp 2, expanded into 32 lanes.
    wy = 330
    b += line(bx + 15, by + 64 + 3 * 44 + 34, 20, wy)
    b += line(bx + 335, by + 64 + 3 * 44 + 34, 780, wy)
    b += rect(20, wy, 760, 110, WARP)
    b += text(35, wy + 26, "warp: 32 lanes issue one instruction together (SIMT); shuffles move registers between lanes", 13.5, weight="bold")
    lw = 22
    for lane in range(32):
        x = 35 + lane * lw
        b += rect(x, wy + 42, lw - 3, 30, THREAD, stroke="#2c3e50", width=1, rx=3)
        if lane % 4 == 0 or lane == 31:
            b += text(x + (lw - 3) / 2, wy + 90, str(lane), 11, "middle")
    b += text(35, wy + 104, "lane = threadIdx.x % 32; each thread has its own registers", 12)
    # The index arithmetic.
    y = 470
    b += text(20, y, "A thread finds its element from where it sits:", 15, weight="bold")
    b += text(20, y + 26, "i = blockIdx.x * blockDim.x + threadIdx.x;   if (i >= n) return;", 15, mono=True)
    b += text(20, y + 52, "blocks = (n + threads - 1) / threads;   // the ceil-div: enough blocks to cover n", 15, mono=True)
    return svg(W, H, b)


def memory():
    """Registers and shared memory inside each SM; L2 and HBM shared by the whole GPU."""
    W, H = 800, 510
    b = ARROW_HEAD
    b += rect(20, 20, 640, 480, "#fafafa", dash="6,4")
    b += text(35, 46, "the GPU", 17, weight="bold")
    # Three SMs drawn, the rest implied.
    for k, label in enumerate(["SM 0", "SM 1", "SM 131"]):
        x = 40 + k * 205
        if k == 2:
            b += text(x - 18, 150, "…", 26, "middle")
        b += rect(x, 60, 180, 200, "#ffffff")
        b += text(x + 10, 82, label, 15, weight="bold")
        b += rect(x + 10, 94, 160, 58, THREAD, rx=4)
        b += text(x + 90, 116, "registers", 15, "middle", "bold", "white")
        b += text(x + 90, 138, "each thread's own", 13, "middle", fill="white")
        b += rect(x + 10, 162, 160, 86, SHARED, rx=4)
        b += text(x + 90, 184, "shared memory", 15, "middle", "bold")
        b += text(x + 90, 204, "a block's, on chip,", 13, "middle")
        b += text(x + 90, 222, "32 banks · and the", 13, "middle")
        b += text(x + 90, 240, "L1 cache beside it", 13, "middle")
    b += rect(40, 285, 590, 62, L2)
    b += text(335, 311, "L2 cache", 16, "middle", "bold")
    b += text(335, 333, "one for the whole GPU: every SM's global loads and stores pass through it", 13, "middle")
    b += rect(40, 372, 590, 112, HBM)
    b += text(335, 398, "HBM: global memory (cudaMalloc), off the chip", 16, "middle", "bold")
    b += text(335, 422, "140 GiB on the recorded H200 (the runs' headers)", 13, "middle")
    b += text(335, 444, "moved in 32-byte sectors; a device-to-device copy measured in the same run", 13, "middle")
    b += text(335, 466, "is the yardstick: 4187 GB/s (plots/01_rnn), 4216 GB/s (plots/08), H200s", 13, "middle")
    # Larger and slower, downwards.
    b += arrow(705, 80, 705, 470)
    b += text(720, 110, "larger,", 15)
    b += text(720, 130, "slower,", 15)
    b += text(720, 150, "shared", 15)
    b += text(720, 170, "by more", 15)
    b += text(720, 190, "threads", 15)
    return svg(W, H, b)


if __name__ == "__main__":
    (HERE / "hierarchy.svg").write_text(hierarchy())
    (HERE / "memory.svg").write_text(memory())
