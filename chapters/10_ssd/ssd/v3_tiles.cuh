// v3_tiles.cuh: what version 3's forward and backward kernels share: the chunk and block sizes, the
// padded shared rows, the tiles' moves between global and shared memory, and the fragments of
// warp_mma.cuh's product addressed by where a tile lies in shared memory.
#pragma once

#include "async_copy.cuh"
#include "device_math.cuh"
#include "warp_mma.cuh"

#include <cstdint>

namespace ssd::detail::v3 {

using selective_scan::detail::from_float;

constexpr int kQ = 64;     // positions a chunk
constexpr int kP = 64;     // channels a block
constexpr int kWarps = 8;  // warp w: rows 16 (w % 4) of every product, half w / 4 of its columns
// Elements after each shared row: consecutive rows start 16 bytes apart modulo 128, so
// ldmatrix's eight rows meet eight distinct banks.
constexpr int kPad = 8;
constexpr int kMaxStates = 256;
constexpr float kLog2e = 1.4426950408889634f;

// The states a block's tiles are cut for: the call's, rounded up to 64, 128 or 256.
inline int state_tile(int dstate) { return dstate <= 64 ? 64 : dstate <= 128 ? 128 : 256; }

// Whether 16-byte loads may read a tensor's rows of `row` elements (each row, of every head or
// group, then starts 16 bytes aligned).
inline bool in_vectors(const void* tensor, std::int64_t row) {
  return reinterpret_cast<std::uintptr_t>(tensor) % 16 == 0 && row % 8 == 0;
}

// rows × cols of T (cols a multiple of 8) into shared rows of `stride` elements from global rows
// `from_stride` apart, zero outside [0, valid_rows) × [0, valid_cols): with `in_vectors`, 16-byte
// copies issued to run behind the thread (async_copy::wait_all waits for them); else one element
// at a time.
template <class T>
__device__ void load_tile(T* to, int stride, const T* from, std::int64_t from_stride, int rows, int cols,
                          int valid_rows, int valid_cols, bool in_vectors) {
  const int vectors = cols / 8;
  for (int i = int(threadIdx.x); i < rows * vectors; i += int(blockDim.x)) {
    const int r = i / vectors, c = i % vectors * 8;
    T* out = to + r * stride + c;
    const T* in = from + r * from_stride + c;
    if (in_vectors) {
      const bool inside = r < valid_rows && c < valid_cols;  // valid_cols is then a multiple of 8
      async_copy::copy16(out, inside ? in : from, inside);
    } else {
      for (int k = 0; k < 8; ++k) out[k] = r < valid_rows && c + k < valid_cols ? in[k] : from_float<T>(0.f);
    }
  }
}

// The tile's valid part back to global memory, as load_tile reads it.
template <class T>
__device__ void store_tile(T* to, std::int64_t to_stride, const T* from, int stride, int rows, int cols,
                           bool in_vectors) {
  const int vectors = (cols + 7) / 8;
  for (int i = int(threadIdx.x); i < rows * vectors; i += int(blockDim.x)) {
    const int r = i / vectors, c = i % vectors * 8;
    if (in_vectors) {
      *reinterpret_cast<uint4*>(to + r * to_stride + c) = *reinterpret_cast<const uint4*>(from + r * stride + c);
    } else {
      for (int k = 0; k < 8 && c + k < cols; ++k) to[r * to_stride + c + k] = from[r * stride + c + k];
    }
  }
}

// dt' at one position: dt plus the head's bias, through softplus where asked, clamped to
// [dt_min, dt_max].
__device__ __forceinline__ float clamped_step(float dt, float bias, bool dt_softplus, float dt_min, float dt_max) {
  dt += bias;
  if (dt_softplus) dt = selective_scan::detail::softplus(dt);
  return fminf(fmaxf(dt, dt_min), dt_max);
}

// A warp's accumulators (kTiles tiles of 16 × 8, as add_product leaves them: rows [row0, row0 + 16),
// columns [col0 + 8 j, col0 + 8 j + 8)) into a shared tile as T, each lane's pairs where they lie.
template <class T, int kTiles>
__device__ __forceinline__ void store_accumulators(T* tile, int stride, const float (&acc)[kTiles][4], int row0,
                                                   int col0) {
  const int lane = int(threadIdx.x) % 32;
  for (int j = 0; j < kTiles; ++j)
    for (int e = 0; e < 4; e += 2) {
      const int row = row0 + lane / 4 + e / 2 * 8, col = col0 + 8 * j + 2 * (lane % 4);
      *reinterpret_cast<std::uint32_t*>(tile + row * stride + col) = warp_mma::pack<T>(acc[j][e], acc[j][e + 1]);
    }
}

// The chunk's dt' (0 past the sequence's end, so that the running sums stay put there) and
// sequence numbers (past the end, the last position's), by the block's first kQ threads: `at` is
// the chunk's first position in the (batch, seqlen) rows, `len` its positions. Args is either
// kernel's arguments (both carry the sizes, dt and its options, seq_idx).
template <class T, class Args>
__device__ __forceinline__ void load_steps(float* step, std::int32_t* seq, const Args& a, std::int64_t at, int h,
                                           int len) {
  if (threadIdx.x >= kQ) return;
  const int t = int(threadIdx.x);
  float dt = 0.f;
  if (t < len)
    dt = clamped_step(selective_scan::detail::to_float(static_cast<const T*>(a.dt)[(at + t) * a.s.heads + h]),
                      a.dt_bias ? a.dt_bias[h] : 0.f, a.dt_softplus, a.dt_min, a.dt_max);
  step[t] = dt;
  seq[t] = a.seq_idx ? a.seq_idx[at + min(t, len - 1)] : 0;
}

// Step 1, run by one whole warp: the running sums of A dt' (A2 = A log2 e: the sums are kept in
// base 2) over a chunk's kQ positions, two a lane; the pairs' sums scanned by shuffles.
// at[k] is the sum through position 2 lane + k, last the chunk's total.
struct RunningSums {
  float at[2], last;
};
__device__ __forceinline__ RunningSums running_sums(const float* step, float A2) {
  static_assert(kQ == 64, "two positions a lane of one warp");
  const int lane = int(threadIdx.x) % 32;
  const float first = step[2 * lane] * A2, second = step[2 * lane + 1] * A2;
  float inclusive = first + second;
  for (int offset = 1; offset < 32; offset *= 2) {
    const float before = __shfl_up_sync(0xffffffffu, inclusive, offset);
    if (lane >= offset) inclusive += before;
  }
  const float before_pair = __shfl_up_sync(0xffffffffu, inclusive, 1), exclusive = lane > 0 ? before_pair : 0.f;
  RunningSums sums{{exclusive + first, exclusive + first + second}, 0.f};
  sums.last = __shfl_sync(0xffffffffu, sums.at[1], 31);
  return sums;
}

// The operands of one 16×8×16 product (warp_mma.cuh), by where their tile lies in shared memory,
// `stride` elements a row. An A operand covers rows [row0, row0 + 16) and k in [k0, k0 + 16);
// a B operand two products' worth: columns [col0, col0 + 8) in b[0], b[1] and the next 8 in b[2],
// b[3]. "Row-major" tiles keep a row's k together, "k-major" ones a k's rows (or columns).
template <class T>
__device__ __forceinline__ void a_row_major(std::uint32_t (&a)[4], const T* tile, int stride, int row0, int k0) {
  const int lane = int(threadIdx.x) % 32;
  warp_mma::load_tiles(a, tile + (row0 + lane % 16) * stride + k0 + lane / 16 * 8);
}
template <class T>
__device__ __forceinline__ void a_k_major(std::uint32_t (&a)[4], const T* tile, int stride, int row0, int k0) {
  const int lane = int(threadIdx.x) % 32;
  warp_mma::load_tiles_transposed(a, tile + (k0 + lane % 8 + lane / 16 * 8) * stride + row0 + lane / 8 % 2 * 8);
}
template <class T>
__device__ __forceinline__ void b_column_major(std::uint32_t (&b)[4], const T* tile, int stride, int col0, int k0) {
  const int lane = int(threadIdx.x) % 32;
  warp_mma::load_tiles(b, tile + (col0 + lane % 8 + lane / 16 * 8) * stride + k0 + lane / 8 % 2 * 8);
}
template <class T>
__device__ __forceinline__ void b_k_major(std::uint32_t (&b)[4], const T* tile, int stride, int col0, int k0) {
  const int lane = int(threadIdx.x) % 32;
  warp_mma::load_tiles_transposed(b, tile + (k0 + lane % 8 + lane / 8 % 2 * 8) * stride + col0 + lane / 16 * 8);
}

// acc += A B over k in [k_begin, k_end) (a multiple of 16 apart): acc[j] the 16 × 8 tile of rows
// [row0, row0 + 16) and columns [col0 + 8 j, col0 + 8 j + 8); A read row-major or k-major as
// kAKMajor says, B k-major.
template <bool kAKMajor, class T, int kTiles>
__device__ __forceinline__ void add_product(float (&acc)[kTiles][4], const T* a, int a_stride, const T* b, int b_stride,
                                            int row0, int col0, int k_begin, int k_end) {
  for (int k0 = k_begin; k0 < k_end; k0 += 16) {
    std::uint32_t af[4], bf[4];
    if constexpr (kAKMajor)
      a_k_major(af, a, a_stride, row0, k0);
    else
      a_row_major(af, a, a_stride, row0, k0);
    for (int pair = 0; pair < kTiles / 2; ++pair) {
      b_k_major(bf, b, b_stride, col0 + 16 * pair, k0);
      warp_mma::multiply_add<T>(acc[2 * pair], af, bf[0], bf[1]);
      warp_mma::multiply_add<T>(acc[2 * pair + 1], af, bf[2], bf[3]);
    }
  }
}

}  // namespace ssd::detail::v3
