// warp_mma.cuh: the warp-level tensor-core instructions version 3 is built from (sm_80 and later).
// ldmatrix moves four 8×8 tiles of 16-bit numbers from shared memory into the registers of a
// warp, each lane holding two neighbours of each tile, which is the layout mma.sync multiplies:
// one 16×8×16 product a call, fp32 accumulators, operands in fp16 or bf16.
//
// The fragments of D += A B (A 16×16 row-major, B 16×8 column-major, D 16×8), lane l, g = l / 4,
// q = l % 4 (PTX ISA, "Matrix Fragments for mma.m16n8k16"):
//   A: a[0] (row g, cols 2q, 2q+1), a[1] (row g+8, same cols), a[2] (row g, cols 2q+8, 2q+9), a[3] (row g+8)
//   B: b[0] (rows 2q, 2q+1 of col g), b[1] (rows 2q+8, 2q+9 of col g)
//   D: d[0], d[1] (row g, cols 2q, 2q+1), d[2], d[3] (row g+8, cols 2q, 2q+1)
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

namespace ssd::detail::warp_mma {

__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// Four 8×8 tiles: lane l names row l % 8 of tile l / 8 by its address; r[i] receives the lane's
// pair of tile i (row l / 4, columns 2 (l % 4) and the next). `transposed` hands out the tiles'
// transposes instead: the lane's pair is then (rows 2 (l % 4) and the next, column l / 4).
__device__ __forceinline__ void load_tiles(std::uint32_t (&r)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(row))
               : "memory");
}
__device__ __forceinline__ void load_tiles_transposed(std::uint32_t (&r)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(row))
               : "memory");
}

// d += a b on the tensor cores, operands of T.
template <class T>
__device__ __forceinline__ void multiply_add(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                             std::uint32_t b1);
template <>
__device__ __forceinline__ void multiply_add<__nv_bfloat16>(float (&d)[4], const std::uint32_t (&a)[4],
                                                            std::uint32_t b0, std::uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
template <>
__device__ __forceinline__ void multiply_add<__half>(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                                     std::uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Two floats rounded to T, as the one 32-bit word that holds them in memory (`first` at the lower address).
template <class T>
__device__ __forceinline__ std::uint32_t pack(float first, float second);
template <>
__device__ __forceinline__ std::uint32_t pack<__nv_bfloat16>(float first, float second) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(first, second);
  return *reinterpret_cast<const std::uint32_t*>(&v);
}
template <>
__device__ __forceinline__ std::uint32_t pack<__half>(float first, float second) {
  const __half2 v = __floats2half2_rn(first, second);
  return *reinterpret_cast<const std::uint32_t*>(&v);
}

// The two numbers of T in one 32-bit word (as pack writes them) as floats, the lower address first.
template <class T>
__device__ __forceinline__ float2 unpack(std::uint32_t word);
template <>
__device__ __forceinline__ float2 unpack<__nv_bfloat16>(std::uint32_t word) {
  return __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&word));
}
template <>
__device__ __forceinline__ float2 unpack<__half>(std::uint32_t word) {
  return __half22float2(*reinterpret_cast<const __half2*>(&word));
}

}  // namespace ssd::detail::warp_mma
