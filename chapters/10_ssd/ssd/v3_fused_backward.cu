// Version 3's backward: the chunks walked in reverse on the tensor cores, the gradient of the state
// carried from chunk to chunk in the warps' fp32 accumulators as the forward carries the state.
//
// It starts from u, the output before the gate, and the state h entering every chunk, in the
// input type: a forward's saved (fused_forward_saving), or else made first by a forward run
// ungated (fused_forward_states). Then one block of 8 warps a (batch row,
// head, 64 channels) walks its chunks from the last, holding dh = ∂L/∂(the state leaving the
// chunk), zero after the last. Where those blocks would leave the GPU part idle, each row is cut
// into segments of whole chunks, as the forward cuts it: a first launch walks every segment but
// the first from dh = 0 with steps 1, 2 and 6 alone (its summary: dh at its start, and its
// decay), and each segment's walk starts from the summaries of the segments after it. A chunk,
// positions s (a column of x) and t (a row of y), s ≤ t,
// dec_ts = exp(acs_t − acs_s), weight_s = dt'_s exp(acs_last − acs_s):
//   1 dt', acs, the weights (as the forward);
//   2 the gate: du = dy silu(z), dz = dy u silu'(z); dD += du x;
//   3 Gᵀ = B Cᵀ and BD = B dhᵀ in one pass over the states (both read B), XD = x duᵀ over the
//     channels; Mᵀ_st = Gᵀ_st dec_ts and W_st = XD_st dec_ts dt'_s into shared memory, and
//     ∂L/∂acs from G ∘ W (+ at t, − at s);
//   4 dx = dt' ∘ (Mᵀ du) + weight ∘ BD + D du; the rows' dots with x give dt''s own gradient;
//   5 dB = W C + weight ∘ (x dh), dC = Wᵀ B + exp(acs) ∘ (du h), added over the group's heads;
//   6 dh = exp(acs_last) dh + (exp(acs) du)ᵀ C, the gradient of the state entering the chunk;
//   7 ∂L/∂acs summed from each position to the chunk's end gives dt' its share (times A) and A
//     its gradient.
// With seq_idx, the forward's masks hold here too: dec_ts, weight_s, exp(acs_t) and the chunk's
// decay are zero where their two ends lie in different sequences, and so is every gradient that
// flows through them.
// Products take the input type (M, W and du rounded to it, as the forward rounds M), sums are
// fp32; fp32 inputs are multiplied as the forward multiplies them, bf16 pairs (hi + lo), three
// products for one. For 16-bit inputs, what the passed states' roundings leave is kept where it
// reaches dA: du exp(acs) in step 6 split hi + lo, dh's remainders in a tile of their own and in
// BD, and the entering state's (saved by the forward) in the sums of ∂L/∂acs that take it
// (add_remainder_dots): chunks of 64 pass four times the states of the official kernels' 256.
// dB, dC and ∂L/∂dt' are added across blocks with float atomics (heads of a group,
// blocks of channels), dA and dD with fp64 ones into sums rounded to fp32 once at the end: the
// backward is not deterministic, and refuses a call that asks it to be.
#include "check.hpp"
#include "device_facts.hpp"
#include "launch.cuh"
#include "layouts.hpp"
#include "v3_fused.hpp"
#include "v3_segments.cuh"
#include "v3_tiles.cuh"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace ssd::detail {
namespace {

using namespace v3;
using selective_scan::detail::device_limits;
namespace mma = warp_mma;

struct BackwardArgs {
  Sizes s;
  // entering_lo: for 16-bit inputs, what rounding the entering states to 16 bits left (SavedParts).
  const void *x, *dt, *B, *C, *z, *dy, *u, *entering_states, *entering_lo;
  void *dx, *dz;
  const float *A, *D, *dt_bias;
  const std::int32_t* seq_idx;
  bool D_per_channel, dt_softplus;
  float dt_min, dt_max;
  int channel_blocks;
  float *ddt_prime, *dB, *dC, *dinitial_states;  // all but the last zeroed, then added to
  // dA (heads) then dD (heads, or heads × head_dim; null without D): zeroed, added to in fp64.
  double *dA_sums, *dD_sums;
  // Whether 16-byte accesses may read (write) the rows of x, dy, dx, z and dz; of B and C; of the
  // entering states; and add to the rows of dB and dC (4 floats).
  bool x_in_vectors, bc_in_vectors, states_in_vectors, dbc_in_vectors;
  // A row's segments and the chunks of each (the last may have fewer), as the forward cuts a row;
  // with more than one, the summaries of segments 1 to segments - 1: dh at the segment's start
  // from dh = 0 at its end, (segments - 1, batch, heads, head_dim, dstate), and the product of
  // its chunks' decays, (segments - 1, batch, heads).
  int segments = 1;
  std::int64_t segment_chunks = 0;
  float *segment_states = nullptr, *segment_decays = nullptr;
};

// Where block blockIdx.x of a launch over `units` (batch row, head, channel block) units a
// segment works: its segment, row, head and channels.
struct BackwardBlock {
  int segment, channel_block, h, group, p0, channels;
  std::int64_t bh, b;
};
__device__ __forceinline__ BackwardBlock backward_block(const BackwardArgs& a) {
  const Sizes& s = a.s;
  const std::int64_t units = s.batch * s.heads * a.channel_blocks, unit = blockIdx.x % units;
  BackwardBlock k;
  k.segment = int(blockIdx.x / units);
  k.channel_block = int(unit % a.channel_blocks);
  k.bh = unit / a.channel_blocks, k.b = k.bh / s.heads;
  k.h = int(k.bh % s.heads), k.group = k.h / (s.heads / s.groups);
  k.p0 = k.channel_block * kP, k.channels = min(kP, s.head_dim - k.p0);
  return k;
}

// The gate's backward at one position and channel (y = u silu(z)): ∂L/∂u from dy, and dz. The
// sigmoid is the forward's (sigmoid_fast: the hardware's exp and reciprocal, a MUFU instruction
// each, a few ulp), where the accurate library calls take several instructions each.
__device__ __forceinline__ float gate_backward(float dy, float z, float u, float& dz) {
  const float sig = sigmoid_fast(z);
  dz = dy * u * sig * (1.f + z * (1.f - sig));
  return dy * z * sig;
}

// The block's shared memory: tiles of 16-bit operands (x, dy, z then dx, u, du; B, C; the entering
// state h and dh, [p][n]; Mᵀ and W, [s][t]), then kFloats floats a position. fp32's pairs take
// each tile twice (hi halves, then lo halves kElements further). A lean block keeps x, du, B, C, h,
// dh, Mᵀ and W alone: step 2 reads dy, z and u (and for pairs x, for dD's fp32 sum) from global
// memory (each once) and step 4 writes dx from its registers. Step 6's du exp(acs) is made from
// du's tile: for pairs in it, once step 5 is done with du; for 16-bit inputs in the registers
// (add_state_gradient).
template <int NS, bool kPairs, bool kLean>
struct BackwardShared {
  static constexpr int kXRow = kP + kPad, kStateRow = NS + kPad, kChunkRow = kQ + kPad, kXTile = kQ * kXRow;
  static constexpr int kOwn = kLean ? 0 : kXTile;  // the tiles that a lean block does without
  static constexpr int kX = 0, kDy = kX + kXTile, kZ = kDy + kOwn, kU = kZ + kOwn, kDu = kU + kOwn, kB = kDu + kXTile,
                       kC = kB + kQ * kStateRow, kH = kC + kQ * kStateRow, kDh = kH + kP * kStateRow,
                       kMt = kDh + kP * kStateRow, kW = kMt + kQ * kChunkRow;
  // 16-bit inputs: dh's remainders lie in Mᵀ's and W's tiles, free from the chunk's start (a lean
  // block's: from step 2's end) until step 3 writes them, and past W where they need more room (at
  // 256 states).
  static constexpr int kDhLo = kMt, kLoRoom = kPairs ? 0 : kP * kStateRow - 2 * kQ * kChunkRow;
  static constexpr int kElements = kW + kQ * kChunkRow + (kLoRoom > 0 ? kLoRoom : 0);
  // step, acs (base 2), weight, to_last = exp(acs_last − acs), decay_to = exp(acs), ds = ∂L/∂acs,
  // row_a = x·(Mᵀ du), row_b = x·BD; then the positions' sequence numbers (int32) and one float,
  // <dh, h>.
  static constexpr int kFloats = 8;
  static constexpr std::size_t bytes() { return kElements * 2 * (kPairs ? 2 : 1) + ((kFloats + 1) * kQ + 1) * 4; }
};

// How the backward lays out a block for inputs of T and NS states (the call's, rounded up). Two
// blocks a multiprocessor where two fit one, at 128 registers a thread: twice the warps to cover
// the walk's waits on shared memory (ncu: one block of 8 warps issued once in 3.6 cycles,
// PERFORMANCE.md), 16-bit inputs up to 128 states. A lean block: fp32's pairs, which would not fit
// one block past 64 states without it, and 16-bit inputs at 128 states, whose two blocks it fits.
template <class T, int NS>
struct BackwardLayout {
  static constexpr bool kPairs = Operand<T>::pairs;
  static constexpr int kBlocks = !kPairs && NS <= 128 ? 2 : 1;
  static constexpr bool kLean = kPairs || (kBlocks == 2 && NS == 128);
  using Shared = BackwardShared<NS, kPairs, kLean>;
};

// For 16-bit inputs, or fp32 ones (as pairs).
std::size_t backward_shared_bytes(int dstate, bool pairs) {
  const int tile = state_tile(dstate);
  if (pairs)
    return tile == 64 ? BackwardLayout<float, 64>::Shared::bytes() : BackwardLayout<float, 128>::Shared::bytes();
  return tile == 64    ? BackwardLayout<__half, 64>::Shared::bytes()
         : tile == 128 ? BackwardLayout<__half, 128>::Shared::bytes()
                       : BackwardLayout<__half, 256>::Shared::bytes();
}

// Eight floats into a row of T (those from `valid` on left alone), as load_eight reads them.
template <class T>
__device__ __forceinline__ void store_eight(T* row, const float (&v)[8], int valid, bool in_vectors) {
  if (in_vectors && valid >= 8) {
    if constexpr (std::is_same_v<T, float>) {
      *reinterpret_cast<float4*>(row) = make_float4(v[0], v[1], v[2], v[3]);
      *reinterpret_cast<float4*>(row + 4) = make_float4(v[4], v[5], v[6], v[7]);
    } else {
      std::uint32_t words[4];
      for (int k = 0; k < 4; ++k) words[k] = warp_mma::pack<T>(v[2 * k], v[2 * k + 1]);
      *reinterpret_cast<uint4*>(row) = *reinterpret_cast<const uint4*>(words);
    }
    return;
  }
  for (int k = 0; k < 8 && k < valid; ++k) row[k] = from_float<T>(v[k]);
}

__device__ __forceinline__ float sum_over_quad(float v) {  // the 4 lanes of one row g
  v += __shfl_xor_sync(0xffffffffu, v, 1);
  return v + __shfl_xor_sync(0xffffffffu, v, 2);
}
__device__ __forceinline__ float sum_over_rows(float v) {  // the 8 lanes of one column q
  v += __shfl_xor_sync(0xffffffffu, v, 4);
  v += __shfl_xor_sync(0xffffffffu, v, 8);
  return v + __shfl_xor_sync(0xffffffffu, v, 16);
}
__device__ __forceinline__ float sum_over_warp(float v) { return sum_over_quad(sum_over_rows(v)); }

// A warp's 16 rows from row0 of an add_product accumulator, each row r times by[r].
template <int kTiles>
__device__ __forceinline__ void scale_rows(float (&acc)[kTiles][4], const float* by, int row0) {
  const int g = int(threadIdx.x) % 32 / 4;
  for (int j = 0; j < kTiles; ++j)
    for (int e = 0; e < 4; ++e) acc[j][e] *= by[row0 + g + e / 2 * 8];
}

// The accumulator (rows from row0, columns from col0) added with atomics to the rows of `to`,
// `stride` apart, where the row is below `rows` and the column below `cols`. dB and dC take 2 Q N
// atomics a chunk and block, so on sm_90 four adjacent columns go as one 16-byte atomic (where
// `in_vectors`: `to` 16-byte aligned, stride and cols multiples of 4): lanes q and q ^ 1 trade
// pairs, the even lane then holding row g's four columns from 2q, the odd one row g + 8's.
template <int kTiles>
__device__ __forceinline__ void add_rows(float* to, std::int64_t stride, const float (&acc)[kTiles][4], int row0,
                                         int col0, int rows, int cols, bool in_vectors) {
  const int lane = int(threadIdx.x) % 32, g = lane / 4, q = lane % 4;
#if __CUDA_ARCH__ >= 900
  if (in_vectors) {
    const bool odd = q % 2;
    for (int j = 0; j < kTiles; ++j) {
      const float given[2] = {__shfl_xor_sync(0xffffffffu, odd ? acc[j][0] : acc[j][2], 1),
                              __shfl_xor_sync(0xffffffffu, odd ? acc[j][1] : acc[j][3], 1)};
      const float4 four = odd ? make_float4(given[0], given[1], acc[j][2], acc[j][3])
                              : make_float4(acc[j][0], acc[j][1], given[0], given[1]);
      const int row = row0 + g + (odd ? 8 : 0), col = col0 + 8 * j + 2 * (q & ~1);
      if (row < rows && col < cols) atomicAdd(reinterpret_cast<float4*>(to + row * stride + col), four);
    }
    return;
  }
#endif
  for (int j = 0; j < kTiles; ++j)
    for (int e = 0; e < 4; ++e) {
      const int row = row0 + g + e / 2 * 8, col = col0 + 8 * j + 2 * q + e % 2;
      if (row < rows && col < cols) atomicAdd(&to[row * stride + col], acc[j][e]);
    }
}

// Step 6 for 16-bit inputs: dh += (du exp(acs))ᵀ C over the chunk, this warp's rows p and the
// columns from col0 (dh's layout), du exp(acs) made in the registers from du's tile [t][p] and split
// hi + lo, a mma.sync each: rounded to 16 bits, it put dA behind the official kernels' where they
// pass fewer states (appendix A, 2026-12-02), and made in a tile, it took a pass over shared memory.
template <class M, int kTiles>
__device__ __forceinline__ void add_state_gradient(float (&dh)[kTiles][4], const M* du, int du_stride,
                                                   const float* decay_to, const M* c, int c_stride, int row0,
                                                   int col0) {
  const int q = int(threadIdx.x) % 4;
  for (int k0 = 0; k0 < kQ; k0 += 16) {
    Fragment<false> af, bf;
    a_k_major(af, du, du_stride, row0, k0, 0);
    // The lane's first operand holds t = k0 + 2q (+ 1) in words 0 and 1, t + 8 (+ 1) in 2 and 3.
    const float2 near = {decay_to[k0 + 2 * q], decay_to[k0 + 2 * q + 1]};
    const float2 far = {decay_to[k0 + 2 * q + 8], decay_to[k0 + 2 * q + 9]};
    std::uint32_t hi[4], lo[4];
    for (int i = 0; i < 4; ++i) {
      const float2 v = mma::unpack<M>(af.hi[i]), d = i < 2 ? near : far;
      pack_pair<M>(v.x * d.x, v.y * d.y, hi[i], lo[i]);
    }
    for (int pair = 0; pair < kTiles / 2; ++pair) {
      b_k_major(bf, c, c_stride, col0 + 16 * pair, k0, 0);
      mma::multiply_add<M>(dh[2 * pair], hi, bf.hi[0], bf.hi[1]);
      mma::multiply_add<M>(dh[2 * pair + 1], hi, bf.hi[2], bf.hi[3]);
      mma::multiply_add<M>(dh[2 * pair], lo, bf.hi[0], bf.hi[1]);
      mma::multiply_add<M>(dh[2 * pair + 1], lo, bf.hi[2], bf.hi[3]);
    }
  }
}

// For each position t of the chunk, Σ_p v_tp Σ_n R_tn lo_pn over this warp's rows p and the states
// n from n0 (its half), times scale[t] where given, added to out[t] (shared, other warps adding
// theirs): lo a state's remainders as the lane's accumulators hold them (remainder_words), R a
// tile [t][n] (C), v a tile [t][p] (du). R lo^T is made 16 rows t at a time, R the first operand and
// lo the second as it lies: words 4k and 4k + 2 hold channels row0 + g, states 16 k + 2q (+ 1) and
// + 8, the second operand's columns 0-7; 4k + 1 and 4k + 3 the channels 8 further. The lane's two
// neighbouring channels of a row t then meet v's pair in one 32-bit load, summed over the quad.
template <class M, int kTiles>
__device__ __forceinline__ void add_remainder_dots(const std::uint32_t (&lo)[2 * kTiles], const M* r, int r_stride,
                                                   const M* v, int v_stride, const float* scale, float* out, int row0,
                                                   int n0) {
  const int lane = int(threadIdx.x) % 32, g = lane / 4, q = lane % 4;
  for (int t0 = 0; t0 < kQ; t0 += 16) {
    float e[2][4] = {};
    for (int k = 0; k < kTiles / 2; ++k) {
      Fragment<false> af;
      a_row_major(af, r, r_stride, t0, n0 + 16 * k, 0);
      mma::multiply_add<M>(e[0], af.hi, lo[4 * k], lo[4 * k + 2]);
      mma::multiply_add<M>(e[1], af.hi, lo[4 * k + 1], lo[4 * k + 3]);
    }
    for (int h = 0; h < 2; ++h) {
      const int t = t0 + g + 8 * h;
      float sum = 0.f;
      for (int i = 0; i < 2; ++i) {
        const float2 pair = get_two<false>(v + t * v_stride + row0 + 8 * i + 2 * q, 0);
        sum += pair.x * e[i][2 * h] + pair.y * e[i][2 * h + 1];
      }
      sum = sum_over_quad(sum);
      if (q == 0) atomicAdd(&out[t], scale ? sum * scale[t] : sum);
    }
  }
}

// T is the inputs' type; the tensor cores multiply Operand<T>'s (fp32 inputs as bf16 pairs).
template <class T, int NS>
__global__ void __launch_bounds__(kWarps * 32, BackwardLayout<T, NS>::kBlocks) fused_backward_kernel(BackwardArgs a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap();  // fused_backward_refuses keeps a call from here
#else
  using M = typename Operand<T>::type;
  constexpr bool kPairs = Operand<T>::pairs, kLean = BackwardLayout<T, NS>::kLean;
  using L = typename BackwardLayout<T, NS>::Shared;
  // Where a tile's lo halves lie, in elements and in bytes after its hi ones (0 without pairs).
  constexpr int kLo = kPairs ? L::kElements : 0, kLoBytes = kLo * int(sizeof(M));
  extern __shared__ __align__(16) unsigned char shared[];
  M *const tiles = reinterpret_cast<M *>(shared);
  M *const xs = tiles + L::kX, *const dys = tiles + L::kDy, *const zs = tiles + L::kZ, *const us = tiles + L::kU;
  M *const dus = tiles + L::kDu, *const bs = tiles + L::kB;
  M *const cs = tiles + L::kC, *const hs = tiles + L::kH, *const dhs = tiles + L::kDh;
  M *const mt = tiles + L::kMt, *const ws = tiles + L::kW, *const dh_lo = tiles + L::kDhLo;
  M *const dxs = zs;  // 16-bit: z is read in step 2 only; dx's tile takes its place in step 4
  // A lean 16-bit block's dy and z arrive in Mᵀ's and W's tiles (free until step 3), its u in du's
  // (step 2 writes du over u where it reads it).
  M *const lean_dy = mt, *const lean_z = ws;
  float *const step = reinterpret_cast<float *>(tiles + L::kElements * (kPairs ? 2 : 1));
  float *const acs = step + kQ, *const weight = acs + kQ, *const to_last = weight + kQ, *const decay_to = to_last + kQ;
  float *const ds = decay_to + kQ, *const row_a = ds + kQ, *const row_b = row_a + kQ;
  std::int32_t *const seq = reinterpret_cast<std::int32_t *>(row_b + kQ);
  float *const state_dot = reinterpret_cast<float *>(seq + kQ);

  const Sizes &s = a.s;
  const BackwardBlock block = backward_block(a);
  // The last segment, which folds no summary, in the launch's first blocks: they are the ones
  // that start beside the summaries (wait_for_summaries).
  const int segment = a.segments - 1 - block.segment, h = block.h, group = block.group, p0 = block.p0,
            channels = block.channels;
  const std::int64_t bh = block.bh, b = block.b;
  const std::int64_t width = std::int64_t(s.heads) * s.head_dim, projection = std::int64_t(s.groups) * s.dstate;
  const std::int64_t chunks = (s.seqlen + kQ - 1) / kQ;
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32, g = lane / 4, q = lane % 4;
  const int row0 = 16 * (warp % 4), half = warp / 4;
  const float A = a.A[h], A2 = A * kLog2e;
  const T *const x = static_cast<const T *>(a.x), *const z = static_cast<const T *>(a.z);
  const T *const dy = static_cast<const T *>(a.dy), *const u = static_cast<const T *>(a.u);

  constexpr int kStateTiles = NS / 16;
  // Columns of dB and dC a pass: it bounds the registers, to 128 a thread where two blocks share a
  // multiprocessor.
  constexpr int kGroup = BackwardLayout<T, NS>::kBlocks == 2 || NS / 2 < 64 ? 32 : 64;
  float dh[kStateTiles][4] = {};  // this lane: p = row0 + g (+ 8), n = half NS/2 + 8 j + 2 q (+ 1)
  float du_x[8] = {};             // Σ du x over the walk, channels 8 (thread % 8) + k (step 2's)
  // A cut row's segment starts from dh carried back over the segments after it: each takes dh at
  // its end by its decay and adds its summary.
  const std::int64_t states_at = ((b * s.heads + h) * s.head_dim + p0) * s.dstate;
  const std::int64_t all_states = s.batch * s.heads * std::int64_t(s.head_dim) * s.dstate;
  if (segment < a.segments - 1) wait_for_summaries();
  for (int later = a.segments - 1; later > segment; --later) {
    const float decay = a.segment_decays[(later - 1) * s.batch * s.heads + bh];
    const float *const summary = a.segment_states + (later - 1) * all_states + states_at;
    for (int j = 0; j < kStateTiles; ++j)
      for (int e = 0; e < 4; ++e) {
        const int p = row0 + g + e / 2 * 8, n = half * NS / 2 + 8 * j + 2 * q + e % 2;
        dh[j][e] = decay * dh[j][e] + (p < channels && n < s.dstate ? summary[p * s.dstate + n] : 0.f);
      }
  }

  float d_of[4][2];  // D of this lane's channels in step 4, p = 32 half + 8 j + 2 q (+ 1)
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 2; ++k) {
      const int p = 32 * half + 8 * j + 2 * q + k;
      d_of[j][k] = !a.D || p >= channels ? 0.f : a.D[a.D_per_channel ? h * s.head_dim + p0 + p : h];
    }

  // Asks L2 for the rows chunk c reads (a whole chunk: only a row's last may be short), a chunk
  // before it, so that step 2's loads from global memory and the tiles' copies find them there.
  // fp32's backward alone: one block a multiprocessor has few warps to cover their wait, and it
  // is 6-9% faster forward + backward; the 16-bit walks, two blocks a multiprocessor at 128
  // registers, spilled more for it and were slower on three shapes of five (PERFORMANCE.md).
  const auto rows_to_l2 = [&](std::int64_t c) {
    const std::int64_t at = b * s.seqlen + c * kQ, x_at = at * width + std::int64_t(h) * s.head_dim + p0;
    const std::int64_t bc_at = at * projection + std::int64_t(group) * s.dstate;
    const int row = channels * int(sizeof(T)), states = s.dstate * int(sizeof(T));
    const std::int64_t x_stride = width * sizeof(T), bc_stride = projection * sizeof(T);
    prefetch_rows_to_l2(x + x_at, x_stride, kQ, row, 0);
    prefetch_rows_to_l2(dy + x_at, x_stride, kQ, row, kQ);
    if (z) {
      prefetch_rows_to_l2(z + x_at, x_stride, kQ, row, 2 * kQ);
      prefetch_rows_to_l2(u + x_at, x_stride, kQ, row, 3 * kQ);
    }
    prefetch_rows_to_l2(static_cast<const T *>(a.B) + bc_at, bc_stride, kQ, states, 0);
    prefetch_rows_to_l2(static_cast<const T *>(a.C) + bc_at, bc_stride, kQ, states, kQ);
    const T *const entering =
        static_cast<const T *>(a.entering_states) + ((bh * chunks + c) * s.head_dim + p0) * s.dstate;
    prefetch_rows_to_l2(entering, states, channels, states, 2 * kQ);
  };

  // Where chunk c's rows start in x and in B, its positions, and its entering state.
  struct ChunkAt {
    std::int64_t at, x_at, bc_at;
    int len;
    const T *entering;
  };
  // Where chunk c's remainders of its entering state lie (16-bit inputs).
  const auto remainders_of = [&](std::int64_t c) {
    return static_cast<const unsigned char *>(a.entering_lo) +
           remainders_at<NS>(bh, a.channel_blocks, block.channel_block, chunks, c);
  };
  const auto chunk_at = [&](std::int64_t c) {
    const std::int64_t at = b * s.seqlen + c * kQ;
    return ChunkAt{at, at * width + std::int64_t(h) * s.head_dim + p0, at * projection + std::int64_t(group) * s.dstate,
                   int(min(std::int64_t(kQ), s.seqlen - c * kQ)),
                   static_cast<const T *>(a.entering_states) + ((bh * chunks + c) * s.head_dim + p0) * s.dstate};
  };
  // A lean 16-bit block (128 states, two blocks a multiprocessor) copies a chunk's tiles behind its
  // threads into tiles the chunk before is done with: x, B, h, and dy and z into Mᵀ's and W's
  // tiles (free until step 3) once step 5 is done; C, and u into du's tile (step 2 writes du over
  // u where it reads it) once step 6 is. They travel while steps 6 and 7 run (step 7 on one warp):
  // its backward was 8-12% faster on an H200 than with every copy at the chunk's start and dy, z
  // and u read in step 2 from global memory, one wait after another. Other blocks load at the
  // chunk's start: at 64 states the early copies' addresses spilled (40 bytes where 8) and the
  // backward was 7% slower, at 256 level; fp32's pairs pass through registers (PERFORMANCE.md,
  // 2026-12-01).
  const auto copy_first = [&](const ChunkAt &k) {
    load_operand_tile<T, kQ, kP>(xs, L::kXRow, kLo, x + k.x_at, width, k.len, channels, a.x_in_vectors);
    load_operand_tile<T, kQ, NS>(bs, L::kStateRow, kLo, static_cast<const T *>(a.B) + k.bc_at, projection, k.len,
                                 s.dstate, a.bc_in_vectors);
    load_operand_tile<T, kP, NS>(hs, L::kStateRow, kLo, k.entering, s.dstate, channels, s.dstate, a.states_in_vectors);
    load_operand_tile<T, kQ, kP>(lean_dy, L::kChunkRow, kLo, dy + k.x_at, width, k.len, channels, a.x_in_vectors);
    if (z) load_operand_tile<T, kQ, kP>(lean_z, L::kChunkRow, kLo, z + k.x_at, width, k.len, channels, a.x_in_vectors);
  };
  const auto copy_second = [&](const ChunkAt &k) {
    load_operand_tile<T, kQ, NS>(cs, L::kStateRow, kLo, static_cast<const T *>(a.C) + k.bc_at, projection, k.len,
                                 s.dstate, a.bc_in_vectors);
    if (z) load_operand_tile<T, kQ, kP>(us, L::kXRow, kLo, u + k.x_at, width, k.len, channels, a.x_in_vectors);
  };
  constexpr bool kCopiesAhead = kLean && !kPairs;

  const std::int64_t first_chunk = segment * a.segment_chunks;
  const std::int64_t last_chunk = min(chunks, first_chunk + a.segment_chunks) - 1;
  for (std::int64_t c = last_chunk; c >= first_chunk; --c) {
    const ChunkAt here = chunk_at(c);
    const std::int64_t at = here.at, x_at = here.x_at, bc_at = here.bc_at;
    const int len = here.len;
    // As the forward: the entering state's sequence is the position's before the chunk; past the
    // row's end, each position takes the last one's.
    const std::int32_t seq_before = a.seq_idx && c > 0 ? a.seq_idx[at - 1] : 0;

    if constexpr (kCopiesAhead) {
      if (c == last_chunk) copy_first(here), copy_second(here);
    } else {  // fp32's pairs four pieces a thread at a time (load_tile_pairs' kBatched): one block a
              // multiprocessor has the registers
      load_operand_tile<T, kQ, kP, kPairs>(xs, L::kXRow, kLo, x + x_at, width, len, channels, a.x_in_vectors);
      if constexpr (!kLean) {
        load_operand_tile<T, kQ, kP, kPairs>(dys, L::kXRow, kLo, dy + x_at, width, len, channels, a.x_in_vectors);
        if (z) {
          load_operand_tile<T, kQ, kP, kPairs>(zs, L::kXRow, kLo, z + x_at, width, len, channels, a.x_in_vectors);
          load_operand_tile<T, kQ, kP, kPairs>(us, L::kXRow, kLo, u + x_at, width, len, channels, a.x_in_vectors);
        }
      }
      load_operand_tile<T, kQ, NS, kPairs>(bs, L::kStateRow, kLo, static_cast<const T *>(a.B) + bc_at, projection, len,
                                           s.dstate, a.bc_in_vectors);
      load_operand_tile<T, kQ, NS, kPairs>(cs, L::kStateRow, kLo, static_cast<const T *>(a.C) + bc_at, projection, len,
                                           s.dstate, a.bc_in_vectors);
      load_operand_tile<T, kP, NS, kPairs>(hs, L::kStateRow, kLo, here.entering, s.dstate, channels, s.dstate,
                                           a.states_in_vectors);
    }
    if constexpr (kPairs)
      store_accumulators<true>(dhs, L::kStateRow, dh, row0, half * NS / 2, kLo);
    else if constexpr (!kLean)  // dh rounded in its tile, what that left in Mᵀ's
      store_accumulators<true>(dhs, L::kStateRow, dh, row0, half * NS / 2, L::kDhLo - L::kDh);
    load_steps<T>(step, seq, a, at, h, len);
    if (threadIdx.x < kQ) {
      ds[threadIdx.x] = row_a[threadIdx.x] = row_b[threadIdx.x] = 0.f;
      if (threadIdx.x == 0) *state_dot = 0.f;
    }
    async_copy::wait_all();
    __syncthreads();

    if (warp == 0) {  // step 1, as the forward's
      const RunningSums sums = running_sums(step, A2);
      for (int k = 0; k < 2; ++k) {
        const int t = 2 * lane + k;
        acs[t] = sums.at[k];
        to_last[t] = seq[t] == seq[kQ - 1] ? exp2f(sums.last - sums.at[k]) : 0.f;
        weight[t] = step[t] * to_last[t];
        decay_to[t] = seq[t] == seq_before ? exp2f(sums.at[k]) : 0.f;
      }
    }
    // Step 2: the gate, eight channels a thread (always the same eight: 256 is a multiple of 8).
    // x, dy, z and u from their tiles, or in a lean block from global memory (zero past the chunk's
    // rows; x from its tile but for pairs).
    for (int i = int(threadIdx.x); i < kQ * kP / 8; i += kWarps * 32) {
      const int t = i / (kP / 8), p = i % (kP / 8) * 8;
      const int valid = t < len ? channels - p : 0;
      float dout[8], zv[8] = {}, uv[8] = {}, xv[8], du[8], dz[8] = {};
      if constexpr (kLean && kPairs) {
        // fp32's x too, not its pair: dD sums du x in fp32, and the pair's 16 bits would round every
        // term. The four rows' loads go out together (without z, x and dy twice), where one after
        // another each waited for the one before.
        const std::int64_t row = x_at + t * width + p;
        const T *const rows[4] = {x + row, dy + row, z ? z + row : x + row, z ? u + row : dy + row};
        float *const to[4] = {xv, dout, zv, uv};
        load_rows_eight(to, rows, valid, a.x_in_vectors);
      } else if constexpr (kLean) {
        get_eight<false>(xv, xs + t * L::kXRow + p, 0);
        get_eight<false>(dout, lean_dy + t * L::kChunkRow + p, 0);
        if (z) get_eight<false>(zv, lean_z + t * L::kChunkRow + p, 0), get_eight<false>(uv, us + t * L::kXRow + p, 0);
      } else {
        get_eight<false>(xv, xs + t * L::kXRow + p, kLo);
        get_eight<false>(dout, dys + t * L::kXRow + p, kLo);
        if (z) get_eight<false>(zv, zs + t * L::kXRow + p, kLo), get_eight<false>(uv, us + t * L::kXRow + p, kLo);
      }
      for (int k = 0; k < 8; ++k) {
        du[k] = z ? gate_backward(dout[k], zv[k], uv[k], dz[k]) : dout[k];
        du_x[k] += du[k] * xv[k];
      }
      put_eight<kPairs>(dus + t * L::kXRow + p, kLo, du);
      if (z && valid > 0) store_eight(static_cast<T *>(a.dz) + x_at + t * width + p, dz, valid, a.x_in_vectors);
    }
    __syncthreads();
    if constexpr (!kPairs && kLean) {  // dy and z are read from Mᵀ's and W's tiles: dh and its remainders
      store_accumulators<true>(dhs, L::kStateRow, dh, row0, half * NS / 2, L::kDhLo - L::kDh);
      __syncthreads();
    }

    // Step 3: this warp's rows s of Gᵀ and XD (columns t in its half) and of BD (channels in its
    // half). A tile wholly below the diagonal (every t < s) is not needed.
    float gt[4][4] = {}, bd[4][4] = {}, xd[4][4] = {};
    const bool needs_g = 32 * half + 31 >= row0;
    for (int k0 = 0; k0 < NS; k0 += 16) {
      Fragment<kPairs> ba, bb;
      a_row_major(ba, bs, L::kStateRow, row0, k0, kLoBytes);
      for (int pair = 0; pair < 2; ++pair) {
        const int col0 = 32 * half + 16 * pair;
        if (needs_g) {
          b_column_major(bb, cs, L::kStateRow, col0, k0, kLoBytes);
          multiply_add_fragments<M>(gt[2 * pair], ba, bb, 0);
          multiply_add_fragments<M>(gt[2 * pair + 1], ba, bb, 2);
        }
        b_column_major(bb, dhs, L::kStateRow, col0, k0, kLoBytes);
        multiply_add_fragments<M>(bd[2 * pair], ba, bb, 0);
        multiply_add_fragments<M>(bd[2 * pair + 1], ba, bb, 2);
        if constexpr (!kPairs) {  // + B times what dh's rounding left
          b_column_major(bb, dh_lo, L::kStateRow, col0, k0, 0);
          multiply_add_fragments<M>(bd[2 * pair], ba, bb, 0);
          multiply_add_fragments<M>(bd[2 * pair + 1], ba, bb, 2);
        }
      }
    }
    if (needs_g) {
      for (int k0 = 0; k0 < kP; k0 += 16) {
        Fragment<kPairs> xa, bb;
        a_row_major(xa, xs, L::kXRow, row0, k0, kLoBytes);
        for (int pair = 0; pair < 2; ++pair) {
          b_column_major(bb, dus, L::kXRow, 32 * half + 16 * pair, k0, kLoBytes);
          multiply_add_fragments<M>(xd[2 * pair], xa, bb, 0);
          multiply_add_fragments<M>(xd[2 * pair + 1], xa, bb, 2);
        }
      }
    }
    if constexpr (!kPairs) __syncthreads();  // every warp is done with dh's remainders: Mᵀ and W may come
    if (needs_g) {
      float from_rows[2] = {}, from_columns[4][2] = {};
      for (int j = 0; j < 4; ++j) {
        const int col = 32 * half + 8 * j + 2 * q;
        // The lane's two columns' sums and sequences, read once for both rows (the stores into Mᵀ
        // and W between them would otherwise have them read again).
        const float acs_col[2] = {acs[col], acs[col + 1]};
        const std::int32_t seq_col[2] = {seq[col], seq[col + 1]};
        for (int r = 0; r < 2; ++r) {
          const int row = row0 + g + 8 * r;
          float m[2], w[2];
          for (int e = 0; e < 2; ++e) {
            const float dec = col + e >= row && seq_col[e] == seq[row] ? decay_between(acs_col[e], acs[row]) : 0.f;
            m[e] = gt[j][2 * r + e] * dec;
            w[e] = xd[j][2 * r + e] * dec * step[row];
            from_rows[r] += gt[j][2 * r + e] * w[e];  // G ∘ W: W holds dec already
            from_columns[j][e] += gt[j][2 * r + e] * w[e];
          }
          put_two<kPairs>(mt + row * L::kChunkRow + col, kLo, m[0], m[1]);
          put_two<kPairs>(ws + row * L::kChunkRow + col, kLo, w[0], w[1]);
        }
      }
      for (int r = 0; r < 2; ++r) {
        const float v = sum_over_quad(from_rows[r]);
        if (q == 0) atomicAdd(&ds[row0 + g + 8 * r], -v);
      }
      for (int j = 0; j < 4; ++j)
        for (int e = 0; e < 2; ++e) {
          const float v = sum_over_rows(from_columns[j][e]);
          if (g == 0) atomicAdd(&ds[32 * half + 8 * j + 2 * q + e], v);
        }
    }
    {  // <dh, h>: the entering state's share of ∂L/∂acs_last
      float dot = 0.f;
      for (int j = 0; j < kStateTiles; ++j)
        for (int r = 0; r < 2; ++r) {
          const int p = row0 + g + 8 * r, n = half * NS / 2 + 8 * j + 2 * q;
          const float2 h = get_two<kPairs>(hs + p * L::kStateRow + n, kLo);
          dot += dh[j][2 * r] * h.x + dh[j][2 * r + 1] * h.y;
        }
      dot = sum_over_warp(dot);
      if (lane == 0) atomicAdd(state_dot, dot);
    }
    __syncthreads();

    // Step 4: dx, rows s, channels in this warp's half; Mᵀ du over t ≥ s only.
    float mdu[4][4] = {};
    add_product<false, kPairs>(mdu, mt, L::kChunkRow, dus, L::kXRow, row0, 32 * half, row0, kQ, kLoBytes);
    {
      float dot_a[2] = {}, dot_b[2] = {};
      for (int j = 0; j < 4; ++j)
        for (int r = 0; r < 2; ++r) {
          const int row = row0 + g + 8 * r, p = 32 * half + 8 * j + 2 * q;
          float out[2];
          const float2 x2 = get_two<kPairs>(xs + row * L::kXRow + p, kLo);
          const float2 du2 = get_two<kPairs>(dus + row * L::kXRow + p, kLo);
          for (int e = 0; e < 2; ++e) {
            const float xv = e == 0 ? x2.x : x2.y;
            dot_a[r] += xv * mdu[j][2 * r + e];
            dot_b[r] += xv * bd[j][2 * r + e];
            out[e] =
                step[row] * mdu[j][2 * r + e] + weight[row] * bd[j][2 * r + e] + d_of[j][e] * (e == 0 ? du2.x : du2.y);
          }
          if constexpr (kLean) {  // straight out: a lean block has no tile of dx
            T *const to = static_cast<T *>(a.dx) + x_at + row * width + p;
            if (row < len && p < channels) {
              if (!a.x_in_vectors)
                for (int e = 0; e < 2 && p + e < channels; ++e) to[e] = from_float<T>(out[e]);
              else if constexpr (kPairs)
                *reinterpret_cast<float2 *>(to) = make_float2(out[0], out[1]);
              else
                *reinterpret_cast<std::uint32_t *>(to) = mma::pack<T>(out[0], out[1]);
            }
          } else {
            *reinterpret_cast<std::uint32_t *>(dxs + row * L::kXRow + p) = mma::pack<M>(out[0], out[1]);
          }
        }
      for (int r = 0; r < 2; ++r) {
        const float va = sum_over_quad(dot_a[r]), vb = sum_over_quad(dot_b[r]);
        if (q == 0) atomicAdd(&row_a[row0 + g + 8 * r], va), atomicAdd(&row_b[row0 + g + 8 * r], vb);
      }
    }
    if constexpr (!kPairs) {
      // What rounding the entering state to 16 bits left (h_lo, from the forward's saved, asked of
      // L2 a chunk ago), in the two sums of ∂L/∂acs that take the state: <dh, h_lo> (its decay) and
      // exp(acs_t) du_t·(C h_lo)_t (its share of y), summed over this warp's rows p and half of the
      // states. dh's is in BD already (step 3).
      std::uint32_t lo[2 * kStateTiles];
      load_remainders<kStateTiles>(lo, remainders_of(c));
      float dot = 0.f;
      for (int j = 0; j < kStateTiles; ++j)
        for (int k = 0; k < 2; ++k) {
          const float2 h_lo = mma::unpack<M>(lo[2 * j + k]);
          dot += dh[j][2 * k] * h_lo.x + dh[j][2 * k + 1] * h_lo.y;
        }
      dot = sum_over_warp(dot);
      if (lane == 0) atomicAdd(state_dot, dot);
      add_remainder_dots<M, kStateTiles>(lo, cs, L::kStateRow, dus, L::kXRow, decay_to, ds, row0, half * NS / 2);
    }

    // Step 5: dB (rows s) and dC (rows t), kGroup of this warp's half of the states at a time.
    for (int n0 = half * NS / 2; n0 < (half + 1) * NS / 2; n0 += kGroup) {
      float acc[kGroup / 8][4] = {};
      add_product<false, kPairs>(acc, xs, L::kXRow, dhs, L::kStateRow, row0, n0, 0, kP, kLoBytes);  // x dh
      scale_rows(acc, weight, row0);
      // + W C over t ≥ s
      add_product<false, kPairs>(acc, ws, L::kChunkRow, cs, L::kStateRow, row0, n0, row0, kQ, kLoBytes);
      add_rows(a.dB + bc_at, projection, acc, row0, n0, len, s.dstate, a.dbc_in_vectors);

      for (auto &tile : acc)
        for (float &v : tile) v = 0.f;
      add_product<false, kPairs>(acc, dus, L::kXRow, hs, L::kStateRow, row0, n0, 0, kP, kLoBytes);  // du h
      float c_dot[2] = {};  // C_t · (du h)_t: the entering state's share of ∂L/∂acs_t
      for (int j = 0; j < kGroup / 8; ++j)
        for (int r = 0; r < 2; ++r) {
          const float2 c2 = get_two<kPairs>(cs + (row0 + g + 8 * r) * L::kStateRow + n0 + 8 * j + 2 * q, kLo);
          c_dot[r] += c2.x * acc[j][2 * r] + c2.y * acc[j][2 * r + 1];
        }
      for (int r = 0; r < 2; ++r) {
        const float v = sum_over_quad(c_dot[r]);
        if (q == 0) atomicAdd(&ds[row0 + g + 8 * r], v * decay_to[row0 + g + 8 * r]);
      }
      scale_rows(acc, decay_to, row0);
      // + Wᵀ B over s ≤ t
      add_product<true, kPairs>(acc, ws, L::kChunkRow, bs, L::kStateRow, row0, n0, 0, row0 + 16, kLoBytes);
      add_rows(a.dC + bc_at, projection, acc, row0, n0, len, s.dstate, a.dbc_in_vectors);
    }

    if constexpr (kLean) {  // every warp is past step 5: x, B, h, Mᵀ and W may be overwritten
      __syncthreads();
      if constexpr (kCopiesAhead)
        if (c > first_chunk) copy_first(chunk_at(c - 1));
    }
    if constexpr (kPairs) {  // du exp(acs) in du's tile, two neighbours a thread
      for (int i = int(threadIdx.x); i < kQ * kP / 2; i += kThreads) {
        const int t = i / (kP / 2), p = i % (kP / 2) * 2;
        const float2 v = get_two<true>(dus + t * L::kXRow + p, kLo);
        put_two<true>(dus + t * L::kXRow + p, kLo, v.x * decay_to[t], v.y * decay_to[t]);
      }
      __syncthreads();
    }
    // Step 6: dh through the chunk, this warp's rows p and half of the states.
    const float chunk_decay = seq[kQ - 1] == seq_before ? exp2f(acs[kQ - 1]) : 0.f;
    for (int j = 0; j < kStateTiles; ++j)
      for (int e = 0; e < 4; ++e) dh[j][e] *= chunk_decay;
    if constexpr (kPairs)
      add_product<true, true>(dh, dus, L::kXRow, cs, L::kStateRow, row0, half * NS / 2, 0, kQ, kLoBytes);
    else
      add_state_gradient<M>(dh, dus, L::kXRow, decay_to, cs, L::kStateRow, row0, half * NS / 2);
    __syncthreads();
    if (c > first_chunk) {
      if constexpr (kPairs) {
        rows_to_l2(c - 1);
      } else {
        if constexpr (kCopiesAhead) copy_second(chunk_at(c - 1));
        prefetch_rows_to_l2(remainders_of(c - 1), 128, NS, 128, 0);  // read after the next chunk's step 4
      }
    }

    if (warp == 0) {
      // Step 7. The state's update adds at acs_last what it takes at each acs_s (weight_s x_s·BD_s),
      // and the entering state's decay exp(acs_last) <dh, h>; then ∂L/∂(dt'_s A) = Σ_{t ≥ s} ∂L/∂acs_t.
      float d[2], through_state = 0.f;
      for (int k = 0; k < 2; ++k) {
        const int t = 2 * lane + k;
        d[k] = ds[t] - weight[t] * row_b[t];
        through_state += weight[t] * row_b[t];
      }
      through_state = sum_over_warp(through_state);
      if (lane == 31) d[1] += through_state + chunk_decay * *state_dot;
      const float pair_sum = d[0] + d[1];
      float suffix = pair_sum;  // Σ over this lane's pair and every later lane's
      for (int offset = 1; offset < 32; offset *= 2) {
        const float after = __shfl_down_sync(0xffffffffu, suffix, offset);
        if (lane + offset < 32) suffix += after;
      }
      const float from_t[2] = {suffix, suffix - d[0]};
      float chunk_dA = 0.f;  // Σ dt' ∂L/∂(dt' A) over the chunk
      for (int k = 0; k < 2; ++k) {
        const int t = 2 * lane + k;
        chunk_dA += step[t] * from_t[k];
        if (t < len) atomicAdd(&a.ddt_prime[(at + t) * s.heads + h], row_a[t] + to_last[t] * row_b[t] + A * from_t[k]);
      }
      // The chunks' shares summed in fp64 (a register carried across the walk would spill).
      chunk_dA = sum_over_warp(chunk_dA);
      if (lane == 0) atomicAdd(&a.dA_sums[h], double(chunk_dA));
    }
    if constexpr (!kLean)
      store_tile<kQ, kP>(static_cast<T *>(a.dx) + x_at, width, dxs, L::kXRow, len, channels, a.x_in_vectors);
    __syncthreads();
  }

  // What the walk leaves: the first segment's dh is the initial state's gradient; dD summed over
  // the block.
  if (a.dinitial_states && segment == 0) {
    for (int j = 0; j < kStateTiles; ++j)
      for (int e = 0; e < 4; ++e) {
        const int p = row0 + g + e / 2 * 8, n = half * NS / 2 + 8 * j + 2 * q + e % 2;
        if (p < channels && n < s.dstate) a.dinitial_states[states_at + p * s.dstate + n] = dh[j][e];
      }
  }
  if (a.dD_sums) {
    // The block's sum of du x in fp64, in a fixed order: the 32 threads of a channel (lanes l,
    // l ^ 8, l ^ 16 and l ^ 24 of each warp hold step 2's same eight), then the warps, then for
    // one D a head the channels, then across blocks by fp64 atomics, rounded to fp32 once after
    // the walk. Summed in fp32 through shared atomics, a loop over the channels and float atomics,
    // dD was 0.22-0.83 as accurate as the official kernels' per-chunk sums (appendix A,
    // 2026-12-01). The tiles are done with.
    double *const by_warp = reinterpret_cast<double *>(shared), *const by_channel = by_warp + kWarps * kP;
    double part[8];
    for (int k = 0; k < 8; ++k) part[k] = du_x[k];
    for (int offset = kP / 8; offset < 32; offset *= 2)
      for (int k = 0; k < 8; ++k) part[k] += __shfl_xor_sync(0xffffffffu, part[k], offset);
    if (lane < kP / 8)
      for (int k = 0; k < 8; ++k) by_warp[warp * kP + lane * 8 + k] = part[k];
    __syncthreads();
    if (int(threadIdx.x) < channels) {
      double sum = 0.0;
      for (int w = 0; w < kWarps; ++w) sum += by_warp[w * kP + int(threadIdx.x)];
      if (a.D_per_channel)
        atomicAdd(&a.dD_sums[h * s.head_dim + p0 + int(threadIdx.x)], sum);
      else
        by_channel[threadIdx.x] = sum;
    }
    __syncthreads();
    if (!a.D_per_channel && threadIdx.x == 0) {
      double sum = 0.0;
      for (int p = 0; p < channels; ++p) sum += by_channel[p];
      atomicAdd(&a.dD_sums[h], sum);
    }
  }
#endif
}

// A summary's shared memory: the tiles of C and of du (for pairs du exp(acs), twice over), then
// dt', acs and the decay to each position, and the sequence numbers.
template <int NS, bool kPairs>
struct SummaryShared {
  static constexpr int kXRow = kP + kPad, kStateRow = NS + kPad;
  static constexpr int kC = 0, kDu = kC + kQ * kStateRow, kElements = kDu + kQ * kXRow;
  static constexpr std::size_t bytes() { return kElements * 2 * (kPairs ? 2 : 1) + 4 * kQ * 4; }
};

// The first launch of a cut row: segment blockIdx.x / units + 1 walked from dh = 0 at its end to
// its start, steps 1, 2 and 6 of the walk alone (the gate's du, dh through the chunk), for the
// walks of the segments before it to fold. Writes dh and the product of the chunks' decays.
// Two blocks a multiprocessor up to 128 states, a bound that costs nothing: a summary launch
// comes only where the rows are cut, its blocks fewer than the walk's two a multiprocessor. Left
// to itself, ptxas kept 80 registers at 128 states and spilled the L2 requests' addresses.
template <class T, int NS>
__global__ void __launch_bounds__(kWarps * 32, NS <= 128 ? 2 : 1) backward_summary_kernel(BackwardArgs a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap();  // fused_backward_refuses keeps a call from here
#else
  using M = typename Operand<T>::type;
  constexpr bool kPairs = Operand<T>::pairs;
  using L = SummaryShared<NS, kPairs>;
  constexpr int kLo = kPairs ? L::kElements : 0, kLoBytes = kLo * int(sizeof(M));
  extern __shared__ __align__(16) unsigned char shared[];
  M *const tiles = reinterpret_cast<M *>(shared);
  M *const cs = tiles + L::kC, *const dus = tiles + L::kDu;
  float *const step = reinterpret_cast<float *>(tiles + L::kElements * (kPairs ? 2 : 1));
  float *const acs = step + kQ, *const decay_to = acs + kQ;
  std::int32_t *const seq = reinterpret_cast<std::int32_t *>(decay_to + kQ);

  const Sizes &s = a.s;
  const BackwardBlock block = backward_block(a);
  const int segment = block.segment + 1, h = block.h, group = block.group, p0 = block.p0, channels = block.channels;
  let_walk_start();
  const std::int64_t bh = block.bh, b = block.b;
  const std::int64_t width = std::int64_t(s.heads) * s.head_dim, projection = std::int64_t(s.groups) * s.dstate;
  const std::int64_t chunks = (s.seqlen + kQ - 1) / kQ;
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32, g = lane / 4, q = lane % 4;
  const int row0 = 16 * (warp % 4), half = warp / 4;
  const float A2 = a.A[h] * kLog2e;
  const T *const z = static_cast<const T *>(a.z), *const dy = static_cast<const T *>(a.dy);
  const T *const u = static_cast<const T *>(a.u);

  constexpr int kStateTiles = NS / 16;
  float dh[kStateTiles][4] = {};
  float segment_decay = 1.f;
  const std::int64_t first_chunk = segment * a.segment_chunks;
  for (std::int64_t c = min(chunks, first_chunk + a.segment_chunks) - 1; c >= first_chunk; --c) {
    const std::int64_t t0 = c * kQ, at = b * s.seqlen + t0, x_at = at * width + std::int64_t(h) * s.head_dim + p0;
    const int len = int(min(std::int64_t(kQ), s.seqlen - t0));
    const std::int32_t seq_before = a.seq_idx && c > 0 ? a.seq_idx[at - 1] : 0;
    const T *const C = static_cast<const T *>(a.C) + at * projection + std::int64_t(group) * s.dstate;
    // The chunk before, next in this walk and whole, asked of L2 now: each chunk here waits for C's
    // tile and then for dy, z and u, two trips to memory with little work between them.
    if (c > first_chunk) {
      const std::int64_t before = x_at - kQ * width, x_stride = width * std::int64_t(sizeof(T));
      const int row = channels * int(sizeof(T));
      prefetch_rows_to_l2(C - kQ * projection, projection * std::int64_t(sizeof(T)), kQ, s.dstate * int(sizeof(T)), 0);
      prefetch_rows_to_l2(dy + before, x_stride, kQ, row, kQ);
      if (z) {
        prefetch_rows_to_l2(z + before, x_stride, kQ, row, 2 * kQ);
        prefetch_rows_to_l2(u + before, x_stride, kQ, row, 3 * kQ);
      }
    }
    load_operand_tile<T, kQ, NS>(cs, L::kStateRow, kLo, C, projection, len, s.dstate, a.bc_in_vectors);
    load_steps<T>(step, seq, a, at, h, len);
    async_copy::wait_all();
    __syncthreads();
    if (warp == 0) {  // step 1: the decay to each position, as the walk's
      const RunningSums sums = running_sums(step, A2);
      for (int k = 0; k < 2; ++k) {
        const int t = 2 * lane + k;
        acs[t] = sums.at[k];
        decay_to[t] = seq[t] == seq_before ? exp2f(sums.at[k]) : 0.f;
      }
    }
    __syncthreads();
    // Step 2's du, for pairs times exp(acs) (step 6's operand; 16-bit inputs' is made in the registers).
    for (int i = int(threadIdx.x); i < kQ * kP / 8; i += kWarps * 32) {
      const int t = i / (kP / 8), p = i % (kP / 8) * 8;
      const int valid = t < len ? channels - p : 0;
      float dout[8], zv[8] = {}, uv[8] = {}, du[8];
      load_eight(dout, dy + x_at + t * width + p, valid, a.x_in_vectors);
      if (z) {
        load_eight(zv, z + x_at + t * width + p, valid, a.x_in_vectors);
        load_eight(uv, u + x_at + t * width + p, valid, a.x_in_vectors);
      }
      for (int k = 0; k < 8; ++k) {
        float unused_dz;
        du[k] = (z ? gate_backward(dout[k], zv[k], uv[k], unused_dz) : dout[k]) * (kPairs ? decay_to[t] : 1.f);
      }
      put_eight<kPairs>(dus + t * L::kXRow + p, kLo, du);
    }
    __syncthreads();
    // Step 6: dh through the chunk.
    const float chunk_decay = seq[kQ - 1] == seq_before ? exp2f(acs[kQ - 1]) : 0.f;
    segment_decay *= chunk_decay;
    for (int j = 0; j < kStateTiles; ++j)
      for (int e = 0; e < 4; ++e) dh[j][e] *= chunk_decay;
    if constexpr (kPairs)
      add_product<true, true>(dh, dus, L::kXRow, cs, L::kStateRow, row0, half * NS / 2, 0, kQ, kLoBytes);
    else
      add_state_gradient<M>(dh, dus, L::kXRow, decay_to, cs, L::kStateRow, row0, half * NS / 2);
    __syncthreads();  // before the next chunk overwrites the tiles
  }

  const std::int64_t all_states = s.batch * s.heads * std::int64_t(s.head_dim) * s.dstate;
  float *const out = a.segment_states + (segment - 1) * all_states + ((b * s.heads + h) * s.head_dim + p0) * s.dstate;
  for (int j = 0; j < kStateTiles; ++j)
    for (int e = 0; e < 4; ++e) {
      const int p = row0 + g + e / 2 * 8, n = half * NS / 2 + 8 * j + 2 * q + e % 2;
      if (p < channels && n < s.dstate) out[p * s.dstate + n] = dh[j][e];
    }
  if (block.channel_block == 0 && threadIdx.x == 0)
    a.segment_decays[(segment - 1) * s.batch * s.heads + bh] = segment_decay;
#endif
}

// Rows cut as the backward's costs find fastest (segment_model.hpp): their summaries first where
// there is more than one.
template <class T, int NS>
void launch_backward(BackwardArgs args, cudaStream_t stream) {
  launch_segments(args, kBackwardSegments, backward_summary_kernel<T, NS>,
                  SummaryShared<NS, Operand<T>::pairs>::bytes(), fused_backward_kernel<T, NS>,
                  BackwardLayout<T, NS>::Shared::bytes(), stream);
}

}  // namespace

std::string fused_backward_refuses(const BackwardParams& p) {
  const ForwardParams& f = p.forward;
  if (std::string problem = fused_refuses(f); !problem.empty()) return problem;
  if (p.deterministic) return "version 3's backward adds its gradients with float atomics, which is not deterministic";
  const auto limits = device_limits();
  if (!limits) return {};  // no device answers: the launch will say so
  const std::size_t needed = backward_shared_bytes(f.sizes.dstate, f.input_type == DataType::float32);
  if (needed > std::size_t(limits->shared_per_block_optin))
    return "version 3's backward needs " + std::to_string(needed) + " bytes of shared memory a block for " +
           std::to_string(f.sizes.dstate) + " states; this GPU gives " + std::to_string(limits->shared_per_block_optin);
  return {};
}

void fused_backward(const BackwardParams& p, cudaStream_t stream) {
  const ForwardParams& f = p.forward;
  const Sizes& s = f.sizes;
  const std::int64_t steps = s.batch * s.seqlen * s.heads;
  const std::int64_t bc = s.batch * s.seqlen * s.groups * std::int64_t(s.dstate);
  // u and the entering states: the forward's saved where it kept them, else made again here, laid
  // out as saved.
  const bool made = !f.saved;
  Scratch<unsigned char> saved_made(made ? fused_saved_bytes(f) : 0, stream);
  const SavedParts parts = saved_parts(f, made ? saved_made.get() : f.saved);
  Scratch<float> ddt_prime(std::size_t(steps), stream), ddt_by_head(f.dt_bias ? std::size_t(steps) : 0, stream);
  const std::int64_t d_count = !f.D ? 0 : f.D_per_channel ? std::int64_t(s.heads) * s.head_dim : s.heads;
  Scratch<double> head_sums(std::size_t(s.heads + d_count), stream);  // dA, then dD
  double *const dA_sums = head_sums.get(), *const dD_sums = f.D ? dA_sums + s.heads : nullptr;
  SSD_CHECK(cudaMemsetAsync(dA_sums, 0, std::size_t(s.heads + d_count) * sizeof(double), stream));
  zero_floats({{ddt_prime.get(), steps}, {p.dB, bc}, {p.dC, bc}}, stream);
  if (made) fused_forward_states(f, parts, stream);
  const BackwardArgs args{s,
                          f.x,
                          f.dt,
                          f.B,
                          f.C,
                          f.z,
                          p.dy,
                          parts.u,
                          parts.entering_states,
                          parts.entering_lo,
                          p.dx,
                          p.dz,
                          f.A,
                          f.D,
                          f.dt_bias,
                          f.seq_idx,
                          f.D_per_channel,
                          f.dt_softplus,
                          f.dt_min,
                          f.dt_max,
                          (s.head_dim + kP - 1) / kP,
                          ddt_prime.get(),
                          p.dB,
                          p.dC,
                          p.dinitial_states,
                          dA_sums,
                          dD_sums,
                          in_vectors(f.x, s.head_dim) && in_vectors(p.dy, s.head_dim) && in_vectors(p.dx, s.head_dim) &&
                              (!f.z || (in_vectors(f.z, s.head_dim) && in_vectors(p.dz, s.head_dim))),
                          in_vectors(f.B, s.dstate) && in_vectors(f.C, s.dstate),
                          in_vectors(parts.entering_states, s.dstate),
                          reinterpret_cast<std::uintptr_t>(p.dB) % 16 == 0 &&
                              reinterpret_cast<std::uintptr_t>(p.dC) % 16 == 0 && s.dstate % 4 == 0};
  by_type(f.input_type, [&](auto zero) {
    using T = decltype(zero);
    const int tile = state_tile(s.dstate);
    if (tile == 64) return launch_backward<T, 64>(args, stream);
    if (tile == 128) return launch_backward<T, 128>(args, stream);
    if constexpr (Operand<T>::pairs)  // fused_refuses keeps fp32 from here
      throw Error("ssd version 3: fp32 inputs take at most " + std::to_string(kMaxPairedStates) + " states");
    else
      launch_backward<T, 256>(args, stream);
  });
  round_sums(dA_sums, p.dA, s.heads, stream);
  if (f.D) round_sums(dD_sums, p.dD, d_count, stream);
  fold_step_gradients(f, ddt_prime.get(), p.ddt, ddt_by_head.get(), stream);
  if (f.dt_bias) sum_segments(ddt_by_head.get(), p.ddt_bias, s.heads, s.batch * s.seqlen, stream);
}

}  // namespace ssd::detail
