// What version 1's forward (v1_naive_forward.cu) and backward (v1_naive_backward.cu) share: the
// block of threads per (b, d) and the shared memory of their sums over states. The forward has a
// file of its own so that the book's exercises can compile the reader's kernel in its place, and
// that file launches its kernel (v1_naive_forward_launch.cuh, included at its end): CUDA 13 keeps a
// kernel template's launch stub inside the file that instantiates it (without separate
// compilation), so no other file can launch it by name.
#pragma once

#include "scan_args.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace selective_scan::detail {

constexpr int kSummedSteps = 32;  // steps whose per-state terms are summed together

// Thread n walks state n; the first 32 threads also finish the steps of a tile, so a block holds
// at least a warp.
inline int naive_threads(int dstate) { return std::max(32, (dstate + 31) / 32 * 32); }
// One block per (b, d), the grid capped: the kernels stride over the rest.
inline unsigned naive_blocks(std::int64_t batch_dim) { return unsigned(std::min<std::int64_t>(batch_dim, 1 << 30)); }
// One array of per-state terms in shared memory, [dstate][kSummedSteps + 1] floats: the + 1 puts
// the terms the states write at the same step on different banks.
inline std::size_t naive_terms_bytes(int dstate) { return std::size_t(dstate) * (kSummedSteps + 1) * sizeof(float); }

}  // namespace selective_scan::detail
