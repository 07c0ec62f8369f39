// The pieces of chapter 07's block scans, shared by the kernels of reverse_kernels.cu and
// version 3's kernel in reverse_block_scan.cu (exercise 4): the affine maps and their two
// combines, the warp and block scans forward and backward in time, a step of the reverse pass
// and the gradients it writes. Device code only; included by .cu files.
#pragma once

#include "reverse_kernels.hpp"

#include <cstddef>

namespace rscan {

inline constexpr unsigned kFullMask = 0xffffffffu;
inline constexpr int kWarp = 32;
inline constexpr int kWarps = kBlockThreads / kWarp;
static_assert(kBlockThreads % kWarp == 0 && kWarps <= kWarp, "the warp totals must fit one warp");

struct Affine {  // x ↦ a·x + b
  float a;
  float b;
};
// The map x ↦ x: what lanes past the end of a sequence hold.
inline __device__ Affine identity() { return {1.0f, 0.0f}; }

// chunks_per_sequence, for device code.
inline __device__ std::size_t chunk_count(std::size_t length) { return (length + kBlockThreads - 1) / kBlockThreads; }

// Forward in time: apply `earlier`, then `later`.
inline __device__ Affine forward_combine(Affine earlier, Affine later) {
  return {later.a * earlier.a, later.a * earlier.b + later.b};
}

// [snippet:reverse_combine_gpu]
// Backward in time: g_k = e.a (l.a g + l.b) + e.b, where `later` maps g past it to g at its start.
inline __device__ Affine reverse_combine(Affine earlier, Affine later) {
  return {earlier.a * later.a, earlier.a * later.b + earlier.b};
}
// [/snippet:reverse_combine_gpu]

// Inclusive prefix over the warp's lanes (lane 0 first in time).
inline __device__ Affine warp_forward_scan(Affine x, int lane) {
#pragma unroll
  for (int delta = 1; delta < kWarp; delta *= 2) {
    const Affine earlier{__shfl_up_sync(kFullMask, x.a, delta), __shfl_up_sync(kFullMask, x.b, delta)};
    if (lane >= delta) x = forward_combine(earlier, x);
  }
  return x;
}

// [snippet:warp_reverse_scan]
// Inclusive suffix over the warp's lanes: lane i ends with the map of lanes i..31, lane 0 with
// the whole warp's. Shuffle-down hands lane i the value of lane i + delta, which is later in time.
inline __device__ Affine warp_reverse_scan(Affine x, int lane) {
#pragma unroll
  for (int delta = 1; delta < kWarp; delta *= 2) {
    const Affine later{__shfl_down_sync(kFullMask, x.a, delta), __shfl_down_sync(kFullMask, x.b, delta)};
    if (lane + delta < kWarp) x = reverse_combine(x, later);
  }
  return x;
}
// [/snippet:warp_reverse_scan]

// Inclusive prefix over the block; `total` gets the whole block's map. Every thread of the
// block must call it (it synchronizes), and `warp_totals` is free again when it returns.
inline __device__ Affine block_forward_scan(Affine x, Affine* warp_totals, Affine& total) {
  const int lane = threadIdx.x % kWarp;
  const int warp = threadIdx.x / kWarp;
  x = warp_forward_scan(x, lane);
  if (lane == kWarp - 1) warp_totals[warp] = x;
  __syncthreads();
  if (warp == 0) {
    const Affine t = warp_forward_scan(lane < kWarps ? warp_totals[lane] : identity(), lane);
    if (lane < kWarps) warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0) x = forward_combine(warp_totals[warp - 1], x);
  total = warp_totals[kWarps - 1];
  __syncthreads();
  return x;
}

// [snippet:block_reverse_scan]
// Inclusive suffix over the block; `total` gets the whole block's map (thread 0's). The raking
// step mirrors the forward one: warp w's suffix is completed by the scanned totals of warps
// after it.
inline __device__ Affine block_reverse_scan(Affine x, Affine* warp_totals, Affine& total) {
  const int lane = threadIdx.x % kWarp;
  const int warp = threadIdx.x / kWarp;
  x = warp_reverse_scan(x, lane);
  if (lane == 0) warp_totals[warp] = x;
  __syncthreads();
  if (warp == 0) {
    const Affine t = warp_reverse_scan(lane < kWarps ? warp_totals[lane] : identity(), lane);
    if (lane < kWarps) warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp + 1 < kWarps) x = reverse_combine(x, warp_totals[warp + 1]);
  total = warp_totals[0];
  __syncthreads();
  return x;
}
// [/snippet:block_reverse_scan]

// Step k of the reverse pass, or the identity past the end of the sequence.
inline __device__ Affine reverse_step(const float* a, const float* dy, std::size_t length, std::size_t k) {
  if (k >= length) return identity();
  return {k + 1 < length ? a[k + 1] : 0.0f, dy[k]};
}

inline __device__ void write_gradients(const DeviceProblem& p, std::size_t first, std::size_t k, float g,
                                       float h_before) {
  p.grad_b[first + k] = g;
  p.grad_a[first + k] = g * h_before;
}

}  // namespace rscan
