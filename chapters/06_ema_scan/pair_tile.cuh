// What chapter 06 adds to chapter 05's tile scan (tile_scan.cuh) for pairs: the pair operator in
// the form chapter 05's scans take, the loads of a tile of pairs from two arrays, and the stores
// of the states it yields. Shared by the kernels of ema_kernels.cu and version 2's kernel in
// warp_pairs_kernel.cu (exercise 3). Device code only; included by .cu files.
#pragma once

#include "pair.hpp"
#include "tile_scan.cuh"

#include <cstddef>

namespace ema {

using PairF = Pair<float>;

// [snippet:pair_operator]
// Chapter 05's scans take their operator as a type; this is the pair operator (pair.hpp) in
// that form. A pair crosses lanes as two floats: two shuffles where a sum needed one.
struct ComposeMaps {
  using Value = PairF;
  static __device__ PairF identity() { return ema::identity<float>(); }
  static __device__ PairF combine(PairF earlier, PairF later) { return ema::combine(earlier, later); }
  static __device__ PairF shfl_up(PairF v, int offset) {
    return {__shfl_up_sync(scan::kFullMask, v.a, offset), __shfl_up_sync(scan::kFullMask, v.b, offset)};
  }
  static __device__ PairF shfl_down(PairF v, int offset) {
    return {__shfl_down_sync(scan::kFullMask, v.a, offset), __shfl_down_sync(scan::kFullMask, v.b, offset)};
  }
  static __device__ PairF shfl(PairF v, int lane) {
    return {__shfl_sync(scan::kFullMask, v.a, lane), __shfl_sync(scan::kFullMask, v.b, lane)};
  }
};
// [/snippet:pair_operator]

// [snippet:load_pairs]
// The tile is chapter 05's, loaded from two arrays: a and b each take chapter 05's load (one
// float4 per row where it can), and missing elements read as the identity (1, 0).
template <int Threads, int Vectors>
__device__ __forceinline__ void load_pairs(const float* __restrict__ a, const float* __restrict__ b, int valid,
                                           PairF (&v)[Vectors][4]) {
  const bool vectorized = scan::aligned16(a) && scan::aligned16(b);
  float va[Vectors][4], vb[Vectors][4];
  scan::load_tile<Threads, Vectors>(a, valid, vectorized, va, 1.f);
  scan::load_tile<Threads, Vectors>(b, valid, vectorized, vb, 0.f);
#pragma unroll
  for (int k = 0; k < Vectors; ++k)
#pragma unroll
    for (int e = 0; e < 4; ++e) v[k][e] = {va[k][e], vb[k][e]};
}

// What is stored: the state h = A·h_before + B of every scanned pair.
struct StateFrom {
  float h_before;
  __device__ float operator()(PairF map) const { return apply(map, h_before); }
};
// [/snippet:load_pairs]

template <int Threads, int Vectors>
__device__ __forceinline__ void store_states(float* __restrict__ h, int valid, const PairF (&v)[Vectors][4],
                                             float h_before) {
  scan::store_tile<Threads, Vectors>(h, valid, scan::aligned16(h), v, StateFrom{h_before});
}

}  // namespace ema
