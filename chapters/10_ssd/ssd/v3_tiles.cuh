// v3_tiles.cuh: what version 3's forward and backward kernels share: the chunk and block sizes, the
// padded shared rows, the tiles' moves between global and shared memory, and the fragments of
// warp_mma.cuh's product addressed by where a tile lies in shared memory.
#pragma once

#include "async_copy.cuh"
#include "device_math.cuh"
#include "warp_mma.cuh"

#include <cstdint>
#include <type_traits>

namespace ssd::detail::v3 {

using selective_scan::detail::from_float;

constexpr int kQ = 64;     // positions a chunk
constexpr int kP = 64;     // channels a block
constexpr int kWarps = 8;  // warp w: rows 16 (w % 4) of every product, half w / 4 of its columns
// Every kernel of versions 3 and 4 runs kThreads threads a block: the tiles' loops step by it at
// compile time, and with the tiles' sizes known where they are inlined, they unroll, each
// thread's pieces a constant distance apart.
constexpr int kThreads = kWarps * 32;
// Elements after each shared row: consecutive rows start 16 bytes apart modulo 128, so
// ldmatrix's eight rows meet eight distinct banks.
constexpr int kPad = 8;
constexpr int kMaxStates = 256;
constexpr int kMaxPairedStates = 128;  // fp32 inputs (Operand<float>): their pairs double the tiles
constexpr float kLog2e = 1.4426950408889634f;

// The states a block's tiles are cut for: the call's, rounded up to 64, 128 or 256.
inline int state_tile(int dstate) { return dstate <= 64 ? 64 : dstate <= 128 ? 128 : 256; }

// Whether 16-byte loads may read a tensor's rows of `row` elements (each row, of every head or
// group, then starts 16 bytes aligned).
inline bool in_vectors(const void* tensor, std::int64_t row) {
  return reinterpret_cast<std::uintptr_t>(tensor) % 16 == 0 && row % 8 == 0;
}

// [snippet:tile_pieces]
// A thread's share of a kRows × kCols tile in 16-byte pieces (eight numbers of 16 bits), f(row,
// column of the piece's first number) for each: piece k of thread t is number t + k kThreads in
// row-major order. The sizes are compile-time, so the loop unrolls, and each piece lies a constant
// distance from the thread's first. From threadIdx.x, the compiler computes the offsets once,
// before the walk, and keeps them; from thread_read_here() (below), it computes them each chunk.
template <int kRows, int kCols, class F>
__device__ __forceinline__ void for_each_piece(F&& f, int thread = int(threadIdx.x)) {
  constexpr int kPieces = kCols / 8;  // a row's
  static_assert(kRows * kPieces % kThreads == 0 && kThreads % kPieces == 0, "whole pieces, whole rows a step");
  // Piece k's row is the thread's plus k kThreads / kPieces rows, its column the thread's: one
  // division a call, unsigned (a thread's index read by asm is not known to be positive).
  const int row = int(unsigned(thread) / kPieces), column = int(unsigned(thread) % kPieces) * 8;
#pragma unroll
  for (int k = 0; k < kRows * kPieces / kThreads; ++k) f(row + k * (kThreads / kPieces), column);
}
// [/snippet:tile_pieces]

// threadIdx.x read again where it is used, a value the compiler cannot keep from one chunk to the
// next: for_each_piece(f, thread_read_here()) recomputes its pieces' offsets each chunk, where
// offsets computed once before the walk would hold registers that a walk at its cap of 128 spills.
__device__ __forceinline__ int thread_read_here() {
  int thread;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(thread));
  return thread;
}

// kRows × kCols of T (16 or 32 bits) into shared rows of `stride` elements from global rows
// `from_stride` apart, zero outside [0, valid_rows) × [0, valid_cols): with `in_vectors`, 16-byte
// copies issued to run behind the thread (async_copy::wait_all waits for them); else one element
// at a time. A copy is kPer numbers; for_each_piece counts the row's bytes in pieces of 16.
template <int kRows, int kCols, class T>
__device__ __forceinline__ void load_tile(T* to, int stride, const T* from, std::int64_t from_stride, int valid_rows,
                                          int valid_cols, bool in_vectors) {
  constexpr int kPer = 16 / int(sizeof(T));
  static_assert(kPer == 8 || kPer == 4, "16- or 32-bit numbers");
  const auto copy = [&](int r, int piece_column) {
    const int c = piece_column / (8 / kPer);
    const bool inside = r < valid_rows && c < valid_cols;  // valid_cols is then a multiple of 8
    async_copy::copy16(to + r * stride + c, inside ? from + r * from_stride + c : from, inside);
  };
  const auto copy_elements = [&](int r, int piece_column) {
    const int c = piece_column / (8 / kPer);
    for (int k = 0; k < kPer; ++k)
      to[r * stride + c + k] =
          r < valid_rows && c + k < valid_cols ? from[r * from_stride + c + k] : from_float<T>(0.f);
  };
  constexpr int kPieceColumns = kCols * int(sizeof(T)) / 2;  // the row in 16-bit numbers
  if (in_vectors)
    for_each_piece<kRows, kPieceColumns>(copy, thread_read_here());
  else
    for_each_piece<kRows, kPieceColumns>(copy_elements, thread_read_here());
}

// Asks L2 for `rows` rows of `row_bytes` bytes, `stride` bytes apart (rows ≤ kThreads), that a
// later chunk will read: the row of thread (threadIdx.x − first_thread) mod kThreads, one
// prefetch.global.L2 a 128-byte line. No thread waits for the lines and no register holds them,
// where a load or a copy issued this early would keep registers or shared memory until it lands;
// `first_thread` spreads a chunk's tensors over the block's warps.
__device__ __forceinline__ void prefetch_rows_to_l2(const void* from, std::int64_t stride, int rows, int row_bytes,
                                                    int first_thread) {
  const int r = (int(threadIdx.x) - first_thread + kThreads) % kThreads;
  if (r >= rows) return;
  const std::uintptr_t row = reinterpret_cast<std::uintptr_t>(from) + r * stride;
  for (std::uintptr_t line = row & ~std::uintptr_t(127); line < row + row_bytes; line += 128)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(line));
}

// fp32 inputs on the tensor cores: each number v as a pair of bf16, hi = bf16(v) and
// lo = bf16(v − hi), about 16 significant bits together where one bf16 carries 8 and TF32 (the
// official kernels' fp32 products) 11. A product of two pairs is hi·hi + hi·lo + lo·hi, three
// mma.sync, fp32 sums: lo·lo is below 2^-16 of it. A tile's lo halves lie `lo` elements after its
// hi ones. Operand<T>: what the tensor cores multiply for inputs of T, and whether as pairs.
template <class T>
struct Operand {
  using type = T;
  static constexpr bool pairs = false;
};
template <>
struct Operand<float> {
  using type = __nv_bfloat16;
  static constexpr bool pairs = true;
};

// Two floats as the 32-bit words of their hi and lo halves in M (`first` at the lower address):
// hi rounded to M, lo what that rounding left, rounded to M.
template <class M = __nv_bfloat16>
__device__ __forceinline__ void pack_pair(float first, float second, std::uint32_t& hi, std::uint32_t& lo) {
  hi = warp_mma::pack<M>(first, second);
  const float2 back = warp_mma::unpack<M>(hi);
  lo = warp_mma::pack<M>(first - back.x, second - back.y);
}

// Two floats into a shared tile of M at `at`: rounded to M, or as pairs (hi at `at`, lo `lo`
// elements after it).
template <bool kPairs, class M>
__device__ __forceinline__ void put_two(M* at, int lo, float first, float second) {
  if constexpr (kPairs) {
    std::uint32_t hi_word, lo_word;
    pack_pair<M>(first, second, hi_word, lo_word);
    *reinterpret_cast<std::uint32_t*>(at) = hi_word;
    *reinterpret_cast<std::uint32_t*>(at + lo) = lo_word;
  } else {
    *reinterpret_cast<std::uint32_t*>(at) = warp_mma::pack<M>(first, second);
  }
}

// Two neighbouring elements of a shared tile as floats, hi + lo for pairs (`at` on a 4-byte
// boundary): one 32-bit load a half; and eight (`at` on a 16-byte boundary) in one 16-byte load a
// half. Read an element at a time, a warp's threads 16 bytes apart in a row meet four to a bank.
template <bool kPairs, class M>
__device__ __forceinline__ float2 get_two(const M* at, int lo) {
  const float2 hi = warp_mma::unpack<M>(*reinterpret_cast<const std::uint32_t*>(at));
  if constexpr (kPairs) {
    const float2 low = warp_mma::unpack<M>(*reinterpret_cast<const std::uint32_t*>(at + lo));
    return {hi.x + low.x, hi.y + low.y};
  } else {
    return hi;
  }
}
// Two neighbouring numbers of a shared tile of the inputs' own type as floats, `at` on a boundary
// of their size: one 32-bit load for 16-bit inputs, one 64-bit load for fp32 ones.
template <class T>
__device__ __forceinline__ float2 get_two_inputs(const T* at) {
  if constexpr (std::is_same_v<T, float>)
    return *reinterpret_cast<const float2*>(at);
  else
    return warp_mma::unpack<T>(*reinterpret_cast<const std::uint32_t*>(at));
}
// The eight 16-bit numbers of M that 16 bytes hold, as floats.
template <class M>
__device__ __forceinline__ void unpack_eight(float* v, const uint4& bytes) {
  const std::uint32_t words[4] = {bytes.x, bytes.y, bytes.z, bytes.w};
  for (int k = 0; k < 4; ++k) {
    const float2 two = warp_mma::unpack<M>(words[k]);
    v[2 * k] = two.x, v[2 * k + 1] = two.y;
  }
}
template <bool kPairs, class M>
__device__ __forceinline__ void get_eight(float (&v)[8], const M* at, int lo) {
  unpack_eight<M>(v, *reinterpret_cast<const uint4*>(at));
  if constexpr (kPairs) {
    float low[8];
    unpack_eight<M>(low, *reinterpret_cast<const uint4*>(at + lo));
    for (int k = 0; k < 8; ++k) v[k] += low[k];
  }
}

// put_two for eight neighbouring elements (`at` on a 16-byte boundary): one 16-byte store a half.
template <bool kPairs, class M>
__device__ __forceinline__ void put_eight(M* at, int lo, const float (&v)[8]) {
  std::uint32_t hi[4], low[4];
  for (int k = 0; k < 4; ++k) {
    if constexpr (kPairs)
      pack_pair<M>(v[2 * k], v[2 * k + 1], hi[k], low[k]);
    else
      hi[k] = warp_mma::pack<M>(v[2 * k], v[2 * k + 1]);
  }
  *reinterpret_cast<uint4*>(at) = make_uint4(hi[0], hi[1], hi[2], hi[3]);
  if constexpr (kPairs) *reinterpret_cast<uint4*>(at + lo) = make_uint4(low[0], low[1], low[2], low[3]);
}

// Eight neighbouring values of each of N rows of T as floats (zero from `valid` on): with
// `in_vectors` and eight valid numbers, 16-byte loads (two a row of fp32, one of 16 bits), every
// row's issued before any number is used, where a load waiting for the one before it would cost a
// trip to memory each (the fp32 backward's step 2 reads four rows so); else one at a time.
template <class T, int N>
__device__ __forceinline__ void load_rows_eight(float* const (&to)[N], const T* const (&rows)[N], int valid,
                                                bool in_vectors) {
  if (in_vectors && valid >= 8) {
    constexpr int kLoads = int(sizeof(T)) * 8 / 16;  // 16-byte loads a row
    uint4 bytes[N][kLoads];
    for (int k = 0; k < N; ++k)
      for (int i = 0; i < kLoads; ++i) bytes[k][i] = reinterpret_cast<const uint4*>(rows[k])[i];
    for (int k = 0; k < N; ++k)
      for (int i = 0; i < kLoads; ++i) {
        if constexpr (std::is_same_v<T, float>) {
          const uint4 b = bytes[k][i];
          to[k][4 * i] = __uint_as_float(b.x), to[k][4 * i + 1] = __uint_as_float(b.y);
          to[k][4 * i + 2] = __uint_as_float(b.z), to[k][4 * i + 3] = __uint_as_float(b.w);
        } else {
          unpack_eight<T>(to[k], bytes[k][i]);
        }
      }
    return;
  }
  for (int k = 0; k < N; ++k)
    for (int i = 0; i < 8; ++i) to[k][i] = i < valid ? selective_scan::detail::to_float(rows[k][i]) : 0.f;
}
template <class T>
__device__ __forceinline__ void load_eight(float (&v)[8], const T* row, int valid, bool in_vectors) {
  float* const to[1] = {v};
  const T* const rows[1] = {row};
  load_rows_eight(to, rows, valid, in_vectors);
}

// load_tile for fp32 rows into a tile of pairs: each thread reads eight floats (two 16-byte loads
// with `in_vectors`), splits them and stores their hi and lo halves; a plain load, not a copy
// behind the thread, since the numbers pass through registers. kBatched: where the whole tile is
// valid and in vectors, a thread issues the loads of four pieces before it stores any, where
// with a test and a store between them each load waited for the one before (a chunk of version
// 3's fp32 backward read x, B, C and h in 14 waits a thread where 4 do); 32 registers more,
// which a kernel of one block a multiprocessor has to spare.
template <int kRows, int kCols, bool kBatched = false>
__device__ __forceinline__ void load_tile_pairs(__nv_bfloat16* to, int stride, int lo, const float* from,
                                                std::int64_t from_stride, int valid_rows, int valid_cols,
                                                bool in_vectors) {
  constexpr int kVectors = kCols / 8, kPieces = kRows * kVectors / kThreads;  // a thread's pieces
  if (kBatched && in_vectors && valid_rows >= kRows && valid_cols >= kCols) {
    constexpr int kBatch = 4;
#pragma unroll
    for (int first = 0; first < kPieces; first += kBatch) {
      float4 v[kBatch][2];
#pragma unroll
      for (int k = 0; k < kBatch && first + k < kPieces; ++k) {
        const int i = int(threadIdx.x) + (first + k) * kThreads, r = i / kVectors, c = i % kVectors * 8;
        const float4* in = reinterpret_cast<const float4*>(from + r * from_stride + c);
        v[k][0] = in[0], v[k][1] = in[1];
      }
#pragma unroll
      for (int k = 0; k < kBatch && first + k < kPieces; ++k) {
        const int i = int(threadIdx.x) + (first + k) * kThreads, r = i / kVectors, c = i % kVectors * 8;
        const float eight[8] = {v[k][0].x, v[k][0].y, v[k][0].z, v[k][0].w, v[k][1].x, v[k][1].y, v[k][1].z, v[k][1].w};
        put_eight<true>(to + r * stride + c, lo, eight);
      }
    }
    return;
  }
  const auto split_and_put = [&](int r, int c) {
    float v[8];
    load_eight(v, from + r * from_stride + c, r < valid_rows ? valid_cols - c : 0, in_vectors);
    put_eight<true>(to + r * stride + c, lo, v);
  };
  for_each_piece<kRows, kCols>(split_and_put, thread_read_here());
}

// store_tile for a tile of pairs into fp32 rows: each float hi + lo.
template <int kRows, int kCols>
__device__ __forceinline__ void store_tile_pairs(float* to, std::int64_t to_stride, const __nv_bfloat16* from,
                                                 int stride, int lo, int valid_rows, int valid_cols, bool in_vectors) {
  const auto put_back = [&](int r, int c) {
    if (r >= valid_rows || c >= valid_cols) return;
    float v[8];
    get_eight<true>(v, from + r * stride + c, lo);
    float* out = to + r * to_stride + c;
    if (in_vectors) {
      *reinterpret_cast<float4*>(out) = make_float4(v[0], v[1], v[2], v[3]);
      *reinterpret_cast<float4*>(out + 4) = make_float4(v[4], v[5], v[6], v[7]);
    } else {
      for (int k = 0; k < 8 && c + k < valid_cols; ++k) out[k] = v[k];
    }
  };
  for_each_piece<kRows, kCols>(put_back, thread_read_here());
}

// A warp's fragment of an operand: four 8 × 8 tiles (ldmatrix .x4) from a shared tile, and for
// pairs (kPairs) the same four of the tile's lo halves, `lo_bytes` further on.
template <bool kPairs>
struct Fragment {
  std::uint32_t hi[4], lo[4];
  template <bool kTransposed = false>
  __device__ __forceinline__ void load(const void* row, int lo_bytes) {
    const void* lo_row = static_cast<const unsigned char*>(row) + lo_bytes;
    if constexpr (kTransposed) {
      warp_mma::load_tiles_transposed(hi, row);
      if constexpr (kPairs) warp_mma::load_tiles_transposed(lo, lo_row);
    } else {
      warp_mma::load_tiles(hi, row);
      if constexpr (kPairs) warp_mma::load_tiles(lo, lo_row);
    }
  }
};

// d += a b, with b's tiles `first` and `first` + 1 as the 16 × 8 right operand: one mma.sync, or
// for pairs three, hi·hi + hi·lo + lo·hi.
template <class M, bool kPairs>
__device__ __forceinline__ void multiply_add_fragments(float (&d)[4], const Fragment<kPairs>& a,
                                                       const Fragment<kPairs>& b, int first) {
  warp_mma::multiply_add<M>(d, a.hi, b.hi[first], b.hi[first + 1]);
  if constexpr (kPairs) {
    warp_mma::multiply_add<M>(d, a.hi, b.lo[first], b.lo[first + 1]);
    warp_mma::multiply_add<M>(d, a.lo, b.hi[first], b.hi[first + 1]);
  }
}

// The tile's valid part, [0, valid_rows) × [0, valid_cols), back to global memory, as load_tile
// reads it.
template <int kRows, int kCols, class T>
__device__ __forceinline__ void store_tile(T* to, std::int64_t to_stride, const T* from, int stride, int valid_rows,
                                           int valid_cols, bool in_vectors) {
  const auto put_back = [&](int r, int c) {
    if (r >= valid_rows || c >= valid_cols) return;
    if (in_vectors) {
      *reinterpret_cast<uint4*>(to + r * to_stride + c) = *reinterpret_cast<const uint4*>(from + r * stride + c);
    } else {
      for (int k = 0; k < 8 && c + k < valid_cols; ++k) to[r * to_stride + c + k] = from[r * stride + c + k];
    }
  };
  for_each_piece<kRows, kCols>(put_back, thread_read_here());
}

// A tile of inputs of T in the tensor cores' operands: as it is for 16-bit inputs (load_tile),
// as pairs for fp32 ones (load_tile_pairs, the lo halves `lo` elements after the hi ones; kBatched
// as there).
template <class T, int kRows, int kCols, bool kBatched = false>
__device__ __forceinline__ void load_operand_tile(typename Operand<T>::type* to, int stride, int lo, const T* from,
                                                  std::int64_t from_stride, int valid_rows, int valid_cols,
                                                  bool in_vectors) {
  if constexpr (Operand<T>::pairs)
    load_tile_pairs<kRows, kCols, kBatched>(to, stride, lo, from, from_stride, valid_rows, valid_cols, in_vectors);
  else
    load_tile<kRows, kCols>(to, stride, from, from_stride, valid_rows, valid_cols, in_vectors);
}

// load_operand_tile in two halves, for a tile of kRows × kCols on its way in while the block
// computes. 16-bit inputs: fetch issues the copies (cp.async) into the tile at once, and put has
// nothing left to do. fp32 inputs: fetch reads the thread's share into registers and put splits it
// into pairs in the tile, so that the loads travel between the two.
template <class T, int kRows, int kCols>
struct StagedTile {
  static constexpr int kPieces = kRows * (kCols / 8) / kThreads;  // eight numbers a piece, a thread's
  static_assert(kRows * (kCols / 8) % kThreads == 0, "the block's threads share the tile's pieces evenly");
  float v[Operand<T>::pairs ? kPieces : 1][8];

  __device__ __forceinline__ void fetch(typename Operand<T>::type* to, int stride, int lo, const T* from,
                                        std::int64_t from_stride, int valid_rows, int valid_cols, bool in_vectors) {
    if constexpr (Operand<T>::pairs) {
#pragma unroll
      for (int piece = 0; piece < kPieces; ++piece) {
        const int i = int(threadIdx.x) + piece * kThreads, r = i / (kCols / 8), c = i % (kCols / 8) * 8;
        load_eight(v[piece], from + r * from_stride + c, r < valid_rows ? valid_cols - c : 0, in_vectors);
      }
    } else {
      load_tile<kRows, kCols>(to, stride, from, from_stride, valid_rows, valid_cols, in_vectors);
    }
  }
  __device__ __forceinline__ void put(typename Operand<T>::type* to, int stride, int lo) const {
    if constexpr (Operand<T>::pairs) {
#pragma unroll
      for (int piece = 0; piece < kPieces; ++piece) {
        const int i = int(threadIdx.x) + piece * kThreads, r = i / (kCols / 8), c = i % (kCols / 8) * 8;
        put_eight<true>(to + r * stride + c, lo, v[piece]);
      }
    }
  }
};

// Such a tile's valid part back to global memory as T, as load_operand_tile reads it.
template <int kRows, int kCols, class T>
__device__ __forceinline__ void store_operand_tile(T* to, std::int64_t to_stride, const typename Operand<T>::type* from,
                                                   int stride, int lo, int valid_rows, int valid_cols,
                                                   bool in_vectors) {
  if constexpr (Operand<T>::pairs)
    store_tile_pairs<kRows, kCols>(to, to_stride, from, stride, lo, valid_rows, valid_cols, in_vectors);
  else
    store_tile<kRows, kCols>(to, to_stride, from, stride, valid_rows, valid_cols, in_vectors);
}

// Two neighbouring values of a global row of T, first at `at`: straight from the registers, where
// they are computed, T's own rounding (fp32 exact); the second only where `valid` (the elements
// of the row from `at` on) is over 1. With `in_vectors` (rows of a multiple of 8 elements, 16 bytes
// aligned) `at` is aligned for both at once.
template <class T>
__device__ __forceinline__ void store_two(T* at, float first, float second, int valid, bool in_vectors) {
  if (in_vectors && valid > 1) {
    if constexpr (std::is_same_v<T, float>)
      *reinterpret_cast<float2*>(at) = make_float2(first, second);
    else
      *reinterpret_cast<std::uint32_t*>(at) = warp_mma::pack<T>(first, second);
  } else if (valid > 0) {
    at[0] = from_float<T>(first);
    if (valid > 1) at[1] = from_float<T>(second);
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
// columns [col0 + 8 j, col0 + 8 j + 8)) into a shared tile of M, each lane's pairs where they lie
// (with kPairs, as bf16 pairs whose lo halves lie `lo` elements after).
template <bool kPairs = false, class M, int kTiles>
__device__ __forceinline__ void store_accumulators(M* tile, int stride, const float (&acc)[kTiles][4], int row0,
                                                   int col0, int lo = 0) {
  const int lane = int(threadIdx.x) % 32;
  for (int j = 0; j < kTiles; ++j)
    for (int e = 0; e < 4; e += 2) {
      const int row = row0 + lane / 4 + e / 2 * 8, col = col0 + 8 * j + 2 * (lane % 4);
      put_two<kPairs>(tile + row * stride + col, lo, acc[j][e], acc[j][e + 1]);
    }
}

// What rounding a passed state (or its gradient) to 16 bits leaves, where the products that take it
// need more than 16 bits (16-bit inputs; fp32's pairs carry it already): a warp's accumulators
// (kTiles tiles, as store_accumulators reads them) as the words of their remainders, two a tile,
// (e 0, 1) then (e 2, 3). Rounded as store_accumulators rounds, so that the tile plus these is
// the fp32 value. Tiles 2 k and 2 k + 1 are then words 4 k to 4 k + 3: the first operand of a
// product over k in [16 k, 16 k + 16) of the accumulators' columns (warp_mma.cuh's A), with
// their rows for its rows.
template <class M, int kTiles>
__device__ __forceinline__ void remainder_words(std::uint32_t (&words)[2 * kTiles], const float (&acc)[kTiles][4]) {
  for (int j = 0; j < kTiles; ++j)
    for (int k = 0; k < 2; ++k) {
      std::uint32_t hi;
      pack_pair<M>(acc[j][2 * k], acc[j][2 * k + 1], hi, words[2 * j + k]);
    }
}

// A block's remainders of one chunk's entering state in memory, kThreads × 2 kTiles words: the
// thread's 16-byte vector v at v kThreads + threadIdx.x, so that each of a warp's stores and loads
// is one run of 512 bytes. 16 kTiles bytes a thread: 128 NS a block and chunk.
template <int kTiles>
__device__ __forceinline__ void store_remainders(void* block_chunk, const std::uint32_t (&words)[2 * kTiles]) {
  uint4* const at = static_cast<uint4*>(block_chunk) + threadIdx.x;
  for (int v = 0; v < kTiles / 2; ++v)
    at[v * kThreads] = make_uint4(words[4 * v], words[4 * v + 1], words[4 * v + 2], words[4 * v + 3]);
}
template <int kTiles>
__device__ __forceinline__ void load_remainders(std::uint32_t (&words)[2 * kTiles], const void* block_chunk) {
  const uint4* const at = static_cast<const uint4*>(block_chunk) + threadIdx.x;
  for (int v = 0; v < kTiles / 2; ++v) {
    const uint4 four = at[v * kThreads];
    words[4 * v] = four.x, words[4 * v + 1] = four.y, words[4 * v + 2] = four.z, words[4 * v + 3] = four.w;
  }
}
// Where chunk c's remainders of block (bh, channel_block) start, for NS states (the tile's).
template <int NS>
__device__ __forceinline__ std::int64_t remainders_at(std::int64_t bh, int channel_blocks, int channel_block,
                                                      std::int64_t chunks, std::int64_t c) {
  return ((bh * channel_blocks + channel_block) * chunks + c) * (std::int64_t(kThreads) * NS / 2);
}

// The gate's sigmoid, 1 / (1 + exp(−z)), from the hardware's 2^y and 1/y alone (ex2.approx.ftz,
// as decay_exp2_fast takes it, and rcp.approx.ftz: a MUFU instruction each). __expf puts three
// instructions around its 2^y (a test and two scalings) that keep results below 2^-126 from being
// flushed to zero: here exp(−z) past z ≈ 87, where the sigmoid is 1 either way. The reciprocal flushes the sigmoid itself past
// z ≈ −87, where z times it is below 2^-119 either way.
__device__ __forceinline__ float sigmoid_fast(float z) {
  float sigmoid;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(sigmoid) : "f"(1.f + selective_scan::detail::decay_exp2_fast(z * -kLog2e)));
  return sigmoid;
}

// One position's dt as stored and its sequence number: fetched by one of the block's first kQ
// threads (thread t, position t of the chunk that starts at `at` in the (batch, seqlen) rows and
// has `len` positions), and kept in registers until store_step, so that a walk may fetch a chunk
// ahead. Args is either kernel's arguments (both carry the sizes, dt and its options, seq_idx).
template <class T>
struct FetchedStep {
  T dt;
  std::int32_t seq;
};
template <class T, class Args>
__device__ __forceinline__ FetchedStep<T> fetch_step(const Args& a, std::int64_t at, int h, int len) {
  const int t = int(threadIdx.x);
  FetchedStep<T> f{from_float<T>(0.f), 0};
  if (t < len) f.dt = static_cast<const T*>(a.dt)[(at + t) * a.s.heads + h];
  if (a.seq_idx) f.seq = a.seq_idx[at + min(t, len - 1)];
  return f;
}

// The fetched position into the chunk's dt' (0 past the sequence's end, so that the running sums
// stay put there) and sequence numbers (past the end, the last position's).
template <class T, class Args>
__device__ __forceinline__ void store_step(float* step, std::int32_t* seq, const FetchedStep<T>& f, const Args& a,
                                           int h, int len) {
  const int t = int(threadIdx.x);
  step[t] = t < len ? clamped_step(selective_scan::detail::to_float(f.dt), a.dt_bias ? a.dt_bias[h] : 0.f,
                                   a.dt_softplus, a.dt_min, a.dt_max)
                    : 0.f;
  seq[t] = f.seq;
}

// Both at once, by the block's first kQ threads.
template <class T, class Args>
__device__ __forceinline__ void load_steps(float* step, std::int32_t* seq, const Args& a, std::int64_t at, int h,
                                           int len) {
  if (threadIdx.x < kQ) store_step(step, seq, fetch_step<T>(a, at, h, len), a, h, len);
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

// Step 1 and the forward's weights from it, run by one whole warp: acs, the running sums; each
// position's weight in the state's update, dt'_t exp(acs_last − acs_t) (zero where t's sequence
// does not reach the chunk's end); the entering state's decay to it, exp(acs_t) (zero where the
// state's sequence, seq_before, is not t's).
__device__ __forceinline__ void forward_weights(const float* step, const std::int32_t* seq, std::int32_t seq_before,
                                                float A2, float* acs, float* weight, float* decay_to) {
  const RunningSums sums = running_sums(step, A2);
  const int lane = int(threadIdx.x) % 32;
  for (int k = 0; k < 2; ++k) {
    const int t = 2 * lane + k;
    acs[t] = sums.at[k];
    weight[t] = seq[t] == seq[kQ - 1] ? step[t] * exp2f(sums.last - sums.at[k]) : 0.f;
    decay_to[t] = seq[t] == seq_before ? exp2f(sums.at[k]) : 0.f;
  }
}

// The decay from position s to a later position t of one chunk, exp2(acs_t − acs_s) ≤ 1, as the
// hardware's 2^y alone (ex2.approx.ftz). exp2f adds instructions around it that keep results
// below 2^-126 from being flushed to zero: decays that small leave no trace in a product whose
// other terms are rounded to 16 bits. Building M takes 16 of them a lane a chunk.
__device__ __forceinline__ float decay_between(float acs_t, float acs_s) {
  return selective_scan::detail::decay_exp2_fast(acs_t - acs_s);
}

// Step 3 of the forward walks (versions 3 and 4), one lane's share of M: rows t = row0 + g (+ 8),
// columns u = col0 + 8 j + 2 q (+ 1), g and q numbering the lane as the products' accumulators do.
// M_tu = G_tu exp2(acs_t − acs_u) dt'_u where u ≤ t in one sequence, else 0. gram(j, i) is the
// lane's accumulator of G in column block j (i = 2 · row half + odd column); put(t, u, first,
// second) stores a pair of M.
template <class Gram, class Put>
__device__ __forceinline__ void lane_share_of_m(Gram gram, Put put, const float* acs, const float* step,
                                                const std::int32_t* seq, int row0, int col0) {
  const int lane = int(threadIdx.x) % 32, g = lane / 4, q = lane % 4;
  float acs_t[2];
  std::int32_t seq_t[2];
  for (int r = 0; r < 2; ++r) acs_t[r] = acs[row0 + g + 8 * r], seq_t[r] = seq[row0 + g + 8 * r];
  for (int j = 0; j < 4; ++j) {
    const int u = col0 + 8 * j + 2 * q;
    const float acs_u[2] = {acs[u], acs[u + 1]}, step_u[2] = {step[u], step[u + 1]};
    const std::int32_t seq_u[2] = {seq[u], seq[u + 1]};
    for (int r = 0; r < 2; ++r) {
      const int t = row0 + g + 8 * r;
      float m[2];
      for (int e = 0; e < 2; ++e)
        m[e] = u + e <= t && seq_u[e] == seq_t[r] ? gram(j, 2 * r + e) * decay_between(acs_t[r], acs_u[e]) * step_u[e]
                                                  : 0.f;
      put(t, u, m[0], m[1]);
    }
  }
}

// The operands of one 16×8×16 product (warp_mma.cuh), by where their tile lies in shared memory,
// `stride` elements a row, as Fragments (for pairs, the lo halves `lo_bytes` after the hi ones).
// An A operand covers rows [row0, row0 + 16) and k in [k0, k0 + 16); a B operand two products'
// worth: columns [col0, col0 + 8) in its tiles 0 and 1, the next 8 in tiles 2 and 3. "Row-major"
// tiles keep a row's k together, "k-major" ones a k's rows (or columns).
template <bool kPairs, class M>
__device__ __forceinline__ void a_row_major(Fragment<kPairs>& a, const M* tile, int stride, int row0, int k0,
                                            int lo_bytes) {
  const int lane = int(threadIdx.x) % 32;
  a.load(tile + (row0 + lane % 16) * stride + k0 + lane / 16 * 8, lo_bytes);
}
template <bool kPairs, class M>
__device__ __forceinline__ void a_k_major(Fragment<kPairs>& a, const M* tile, int stride, int row0, int k0,
                                          int lo_bytes) {
  const int lane = int(threadIdx.x) % 32;
  a.template load<true>(tile + (k0 + lane % 8 + lane / 16 * 8) * stride + row0 + lane / 8 % 2 * 8, lo_bytes);
}
template <bool kPairs, class M>
__device__ __forceinline__ void b_column_major(Fragment<kPairs>& b, const M* tile, int stride, int col0, int k0,
                                               int lo_bytes) {
  const int lane = int(threadIdx.x) % 32;
  b.load(tile + (col0 + lane % 8 + lane / 16 * 8) * stride + k0 + lane / 8 % 2 * 8, lo_bytes);
}
template <bool kPairs, class M>
__device__ __forceinline__ void b_k_major(Fragment<kPairs>& b, const M* tile, int stride, int col0, int k0,
                                          int lo_bytes) {
  const int lane = int(threadIdx.x) % 32;
  b.template load<true>(tile + (k0 + lane % 8 + lane / 8 % 2 * 8) * stride + col0 + lane / 16 * 8, lo_bytes);
}

// acc += A B over k in [k_begin, k_end) (a multiple of 16 apart): acc[j] the 16 × 8 tile of rows
// [row0, row0 + 16) and columns [col0 + 8 j, col0 + 8 j + 8); A read row-major or k-major as
// kAKMajor says, B k-major; tiles of M, as pairs where kPairs says.
template <bool kAKMajor, bool kPairs, class M, int kTiles>
__device__ __forceinline__ void add_product(float (&acc)[kTiles][4], const M* a, int a_stride, const M* b, int b_stride,
                                            int row0, int col0, int k_begin, int k_end, int lo_bytes) {
  for (int k0 = k_begin; k0 < k_end; k0 += 16) {
    Fragment<kPairs> af, bf;
    if constexpr (kAKMajor)
      a_k_major(af, a, a_stride, row0, k0, lo_bytes);
    else
      a_row_major(af, a, a_stride, row0, k0, lo_bytes);
    for (int pair = 0; pair < kTiles / 2; ++pair) {
      b_k_major(bf, b, b_stride, col0 + 16 * pair, k0, lo_bytes);
      multiply_add_fragments<M>(acc[2 * pair], af, bf, 0);
      multiply_add_fragments<M>(acc[2 * pair + 1], af, bf, 2);
    }
  }
}

}  // namespace ssd::detail::v3
