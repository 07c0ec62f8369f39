// warpgroup_mma.cuh: Hopper's warpgroup matrix product (wgmma, the sm_90a target only), the
// instruction version 4 is to be built from. Four consecutive warps (a warpgroup, the first warp's
// index a multiple of 4) multiply a 64×16 tile of A by a 16×N tile of B (N 32 or 64 here) into a
// 64×N tile of fp32 accumulators that the 128 threads hold N / 2 each. B is read from shared memory, A from shared
// memory or from registers, and the product runs asynchronously: the warps issue it, go on, and
// wait for it later (commit, then wait).
//
// A tile in shared memory is described by a 64-bit descriptor: its address, and how its rows and
// groups of rows are laid out. Version 4 uses one layout, the one TMA writes with a 128-byte
// swizzle: rows of 64 16-bit numbers (128 bytes), eight rows a 1024-byte group, and in each row the
// eight 16-byte pieces permuted by the row's place in its group (piece p stored at p ^ (row % 8)),
// so that the eight rows of a group spread a column's reads over every bank. A row of the tile can
// hold either operand dimension:
//   - K-major: a row is one row of A (or one column of B) and holds 64 consecutive k; a product
//     over k 16s..16s+15 starts 32 s bytes into the row;
//   - MN-major: a row is one k and holds 64 consecutive rows of A (or columns of B); the product
//     over k 16s..16s+15 starts at row 16 s, 2048 s bytes in.
// A product 32 wide takes B's columns 32..63 from 64 bytes into each row (MN-major) or from row 32,
// 4096 bytes in (K-major).
// The tile's start must be 1024-byte aligned (the swizzle is of the address's bits 4-6 by its bits
// 7-9).
//
// The accumulator layout (PTX ISA, "Matrix Fragments for wgmma.mma_async.m64nNk16"), thread t of
// the warpgroup, w = t / 32, g = (t % 32) / 4, q = t % 4: d[4 j + i] is row 16 w + g (+8 for i ≥ 2),
// column 8 j + 2 q (+1 for odd i). A from registers: four 32-bit registers of two numbers each,
// a[0] (row 16 w + g, k 2q and 2q+1), a[1] (row +8), a[2] (k +8), a[3] (row +8, k +8): mma.sync's
// A fragment (warp_mma.cuh), one per warp.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace ssd::detail::warpgroup_mma {

// Whether this compilation pass has wgmma: the sm_90a target. Every other pass compiles the
// functions below to a trap, and the library never calls them there.
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define SSD_HAS_WGMMA 1
#else
#define SSD_HAS_WGMMA 0
#endif

inline constexpr int kRowBytes = 128;              // 64 numbers of 16 bits
inline constexpr int kGroupBytes = 8 * kRowBytes;  // the swizzle's period

// [snippet:wgmma_descriptor]
// Where number `column` (0..63) of row `row` lies in a swizzled tile, in bytes from its start.
__host__ __device__ constexpr int swizzled_offset(int row, int column) {
  return row * kRowBytes + (((column >> 3) ^ (row & 7)) << 4) + (column & 7) * 2;
}

// The descriptor of a swizzled tile at `tile` (shared memory) whose 1024-byte groups of rows lie
// `group_stride` bytes apart (1024 when they follow each other). The leading offset, the distance
// between blocks of 64 along the row's dimension, is never used here: every product's tiles are 64
// wide, so it is given as the one 16-byte unit the PTX ISA expects.
__device__ __forceinline__ std::uint64_t descriptor(const void* tile, std::uint32_t group_stride = kGroupBytes) {
  const auto address = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile));
  std::uint64_t d = (address & 0x3FFFF) >> 4;              // bits 0-13: the address / 16
  d |= std::uint64_t{1} << 16;                             // bits 16-29: leading offset / 16
  d |= std::uint64_t((group_stride >> 4) & 0x3FFF) << 32;  // bits 32-45: group stride / 16
  d |= std::uint64_t{1} << 62;                             // bits 62-63: 1, the 128-byte swizzle
  return d;
}
// [/snippet:wgmma_descriptor]

// The descriptor of k-step s (k 16s..16s+15) of a tile, K-major or MN-major (see the top).
__device__ __forceinline__ std::uint64_t k_major_step(const void* tile, int s) {
  return descriptor(static_cast<const char*>(tile) + 32 * s);
}
__device__ __forceinline__ std::uint64_t mn_major_step(const void* tile, int s) {
  return descriptor(static_cast<const char*>(tile) + 16 * kRowBytes * s);
}

// Ordering. fence(): before the first product that reads accumulators (or A registers) written by
// ordinary instructions. commit(): closes the group of products issued so far. wait<N>(): until at
// most N committed groups are still running. shared_writes_visible(): after ordinary stores to
// shared memory that a product will read, before the barrier that orders them (the tensor cores
// read through the async proxy).
__device__ __forceinline__ void fence() {
#if SSD_HAS_WGMMA
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#else
  __trap();
#endif
}
__device__ __forceinline__ void commit() {
#if SSD_HAS_WGMMA
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#else
  __trap();
#endif
}
template <int N>
__device__ __forceinline__ void wait() {
#if SSD_HAS_WGMMA
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#else
  __trap();
#endif
}
__device__ __forceinline__ void shared_writes_visible() {
#if SSD_HAS_WGMMA
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#else
  __trap();
#endif
}

// Keeps the compiler from moving reads or writes of the accumulators across an asynchronous
// product: each register is made to look read and written here.
template <int K>
__device__ __forceinline__ void pin(float (&d)[K]) {
#pragma unroll
  for (int i = 0; i < K; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// The accumulators as inline-assembly operands: %0..%15 for 64 × 32, %0..%31 for 64 × 64.
#define SSD_WGMMA_D16(d)                                                                                      \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), \
      "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
#define SSD_WGMMA_D32(d)                                                                                       \
  SSD_WGMMA_D16(d), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), \
      "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),  \
      "+f"(d[31])
#define SSD_WGMMA_LIST16 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"
#define SSD_WGMMA_LIST32                                                                                       \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, " \
  "%23, %24, %25, %26, %27, %28, %29, %30, %31}"
// One product, its operands named after the accumulators: with A in shared memory, A's and B's
// descriptors, whether to accumulate, whether A and B are MN-major; with A in registers, A's four
// registers in braces, B's descriptor, whether to accumulate, whether B is MN-major.
#define SSD_WGMMA(shape, type, list, operands, accumulate, transposes)                                             \
  "{\n.reg .pred p;\nsetp.ne.b32 p, " accumulate ", 0;\nwgmma.mma_async.sync.aligned." shape ".f32." type "." type \
  " " list ", " operands ", p, 1, 1, " transposes ";\n}\n"

template <int N>
inline constexpr bool kWidthTaken = N == 32 || N == 64;

// d (+)= A B over one k-step: A 64 × 16 and B 16 × N (N 32 or 64) in shared memory, of 16-bit
// type T (__half or __nv_bfloat16); d the thread's N / 2 accumulators. `accumulate` false
// overwrites d. `a_mn_major`: A's tile is MN-major (else K-major); the same for B.
template <typename T, bool a_mn_major, bool b_mn_major, int N>
__device__ __forceinline__ void multiply(float (&d)[N / 2], std::uint64_t a, std::uint64_t b, bool accumulate) {
  static_assert(kWidthTaken<N>, "warpgroup products here are 64 x 32 or 64 x 64");
#if SSD_HAS_WGMMA
  constexpr bool half = std::is_same_v<T, __half>;
  if constexpr (N == 32 && half)
    asm volatile(SSD_WGMMA("m64n32k16", "f16", SSD_WGMMA_LIST16, "%16, %17", "%18", "%19, %20")
                 : SSD_WGMMA_D16(d)
                 : "l"(a), "l"(b), "r"(int(accumulate)), "n"(int(a_mn_major)), "n"(int(b_mn_major)));
  else if constexpr (N == 32)
    asm volatile(SSD_WGMMA("m64n32k16", "bf16", SSD_WGMMA_LIST16, "%16, %17", "%18", "%19, %20")
                 : SSD_WGMMA_D16(d)
                 : "l"(a), "l"(b), "r"(int(accumulate)), "n"(int(a_mn_major)), "n"(int(b_mn_major)));
  else if constexpr (half)
    asm volatile(SSD_WGMMA("m64n64k16", "f16", SSD_WGMMA_LIST32, "%32, %33", "%34", "%35, %36")
                 : SSD_WGMMA_D32(d)
                 : "l"(a), "l"(b), "r"(int(accumulate)), "n"(int(a_mn_major)), "n"(int(b_mn_major)));
  else
    asm volatile(SSD_WGMMA("m64n64k16", "bf16", SSD_WGMMA_LIST32, "%32, %33", "%34", "%35, %36")
                 : SSD_WGMMA_D32(d)
                 : "l"(a), "l"(b), "r"(int(accumulate)), "n"(int(a_mn_major)), "n"(int(b_mn_major)));
#else
  (void)d, (void)a, (void)b, (void)accumulate;
  __trap();
#endif
}

// d (+)= A B over one k-step, A from registers (the fragment at the top), B in shared memory.
template <typename T, bool b_mn_major, int N>
__device__ __forceinline__ void multiply(float (&d)[N / 2], const std::uint32_t (&a)[4], std::uint64_t b,
                                         bool accumulate) {
  static_assert(kWidthTaken<N>, "warpgroup products here are 64 x 32 or 64 x 64");
#if SSD_HAS_WGMMA
  constexpr bool half = std::is_same_v<T, __half>;
  if constexpr (N == 32 && half)
    asm volatile(SSD_WGMMA("m64n32k16", "f16", SSD_WGMMA_LIST16, "{%16, %17, %18, %19}, %20", "%21", "%22")
                 : SSD_WGMMA_D16(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(int(accumulate)), "n"(int(b_mn_major)));
  else if constexpr (N == 32)
    asm volatile(SSD_WGMMA("m64n32k16", "bf16", SSD_WGMMA_LIST16, "{%16, %17, %18, %19}, %20", "%21", "%22")
                 : SSD_WGMMA_D16(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(int(accumulate)), "n"(int(b_mn_major)));
  else if constexpr (half)
    asm volatile(SSD_WGMMA("m64n64k16", "f16", SSD_WGMMA_LIST32, "{%32, %33, %34, %35}, %36", "%37", "%38")
                 : SSD_WGMMA_D32(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(int(accumulate)), "n"(int(b_mn_major)));
  else
    asm volatile(SSD_WGMMA("m64n64k16", "bf16", SSD_WGMMA_LIST32, "{%32, %33, %34, %35}, %36", "%37", "%38")
                 : SSD_WGMMA_D32(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(int(accumulate)), "n"(int(b_mn_major)));
#else
  (void)d, (void)a, (void)b, (void)accumulate;
  __trap();
#endif
}

#undef SSD_WGMMA_D16
#undef SSD_WGMMA_D32
#undef SSD_WGMMA_LIST16
#undef SSD_WGMMA_LIST32
#undef SSD_WGMMA

}  // namespace ssd::detail::warpgroup_mma
