// staged_rows.cuh: a tile of the variable B and C rows of 16 states, staged once in shared
// memory for a whole warp (version 4, forward and backward). A warp's channels are neighbours,
// so they usually read the same rows (one batch, one group); staging them once, as fp32, spares
// each channel its own loads and, for fp16 and bf16, its own conversions.
#pragma once

#include "step_groups.cuh"
#include "tile.hpp"

#include <cstdint>

namespace selective_scan::detail {

// [snippet:shared_rows]
// Entry [g][k][j] holds steps g*4 ... g*4 + 3 of state j*K + k, so that the P lanes of a channel
// read 64 consecutive bytes.
template <int K, int P>
struct StagedRows {
  float4 B[kTile / kGroup][K][P], C[kTile / kGroup][K][P];
};
// The same tile as the lanes of a warp load it, one 16-byte vector at a time: vector
// e = lane + 32 i holds steps (e / kStates) * kSteps ... of state e % kStates, as fp32. Lanes
// next to each other take different states, so that their 16-byte stores into StagedRows fall
// on different banks (taking a row's consecutive vectors instead made them 8-way conflicts).
template <class Input, int kStates>
struct TileRows {
  static constexpr int kSteps = 16 / int(sizeof(Input));
  static constexpr int kPerRow = kTile / kSteps;
  static constexpr int kPerLane = kStates * kPerRow / 32;
  float B[kPerLane][kSteps], C[kPerLane][kSteps];
};
// [/snippet:shared_rows]

// Steps t0 ... t0 + kTile - 1 of rows 0 ... states - 1 of B (and of C), each row `stride` values
// after the last; a null row pointer (a constant B or C) and everything past the ends give 0.
template <class Input, int kStates>
__device__ __forceinline__ void fetch_rows(const Input* B0, std::int64_t B_stride, const Input* C0,
                                           std::int64_t C_stride, int states, std::int64_t t0, std::int64_t seqlen,
                                           TileRows<Input, kStates>& rows) {
  using Rows = TileRows<Input, kStates>;
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int i = 0; i < Rows::kPerLane; ++i) {
    const int e = lane + 32 * i, n = e % kStates;
    const std::int64_t t = t0 + (e / kStates) * Rows::kSteps;
#pragma unroll
    for (int s = 0; s < Rows::kSteps; ++s) rows.B[i][s] = rows.C[i][s] = 0.f;
    if (n >= states || t >= seqlen) continue;
    if (B0) load_steps<Rows::kSteps>(B0 + n * B_stride, t, seqlen, rows.B[i]);
    if (C0) load_steps<Rows::kSteps>(C0 + n * C_stride, t, seqlen, rows.C[i]);
  }
}

template <class Input, int K, int P>
__device__ __forceinline__ void stage_rows(const TileRows<Input, K * P>& rows, StagedRows<K, P>& staged) {
  using Rows = TileRows<Input, K * P>;
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int i = 0; i < Rows::kPerLane; ++i) {
    const int e = lane + 32 * i, n = e % (K * P);
    const int g0 = (e / (K * P)) * Rows::kSteps / kGroup;
#pragma unroll
    for (int q = 0; q < Rows::kSteps / kGroup; ++q) {
      const float* b = rows.B[i] + q * kGroup;
      const float* c = rows.C[i] + q * kGroup;
      staged.B[g0 + q][n % K][n / K] = {b[0], b[1], b[2], b[3]};
      staged.C[g0 + q][n % K][n / K] = {c[0], c[1], c[2], c[3]};
    }
  }
}

// Steps g ... g + 3 of the K states of lane j, from one matrix of a staged tile.
template <int K, int P>
__device__ __forceinline__ void read_rows(const float4 (&rows)[kTile / kGroup][K][P], int g, int j,
                                          float (&out)[K][kGroup]) {
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const float4 v = rows[g / kGroup][k][j];
    out[k][0] = v.x, out[k][1] = v.y, out[k][2] = v.z, out[k][3] = v.w;
  }
}

}  // namespace selective_scan::detail
