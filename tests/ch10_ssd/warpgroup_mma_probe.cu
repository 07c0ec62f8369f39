// The kernel behind launch_warpgroup_product (warpgroup_mma_probe.hpp): one block, one warpgroup.
#include "warpgroup_mma_probe.hpp"

#include "cuda_check.hpp"
#include "warpgroup_mma.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

namespace ch10_test {
namespace {

namespace wg = ssd::detail::warpgroup_mma;

template <typename T>
__device__ T to(float v) {
  if constexpr (std::is_same_v<T, __half>)
    return __float2half_rn(v);
  else
    return __float2bfloat16_rn(v);
}

template <typename T>
__device__ std::uint32_t pair(float low, float high) {
  const T l = to<T>(low), h = to<T>(high);
  return std::uint32_t(*reinterpret_cast<const std::uint16_t*>(&l)) |
         std::uint32_t(*reinterpret_cast<const std::uint16_t*>(&h)) << 16;
}

template <typename T, WarpgroupOperands kOperands, int N>
__global__ void __launch_bounds__(128) product_kernel(const float* a, const float* b, float* d, int* built) {
#if SSD_HAS_WGMMA
  constexpr bool a_mn = kOperands == WarpgroupOperands::shared_mn_major;
  constexpr bool b_mn = kOperands != WarpgroupOperands::shared_k_major;
  constexpr bool a_in_registers = kOperands == WarpgroupOperands::registers_a;
  __shared__ __align__(1024) unsigned char tiles[2][64 * wg::kRowBytes];
  const int t = threadIdx.x;
  for (int i = t; i < 64 * 64; i += 128) {
    const int row = i / 64, column = i % 64;  // A[m][k] with m = row; B[k][n] with k = row
    *reinterpret_cast<T*>(tiles[0] + (a_mn ? wg::swizzled_offset(column, row) : wg::swizzled_offset(row, column))) =
        to<T>(a[i]);
    *reinterpret_cast<T*>(tiles[1] + (b_mn ? wg::swizzled_offset(row, column) : wg::swizzled_offset(column, row))) =
        to<T>(b[i]);
  }
  wg::shared_writes_visible();
  __syncthreads();

  const int w = t / 32, g = (t % 32) / 4, q = t % 4;
  std::uint32_t fragments[4][4];
  if constexpr (a_in_registers)
    for (int s = 0; s < 4; ++s) {
      const int r = 16 * w + g, k = 16 * s + 2 * q;
      fragments[s][0] = pair<T>(a[r * 64 + k], a[r * 64 + k + 1]);
      fragments[s][1] = pair<T>(a[(r + 8) * 64 + k], a[(r + 8) * 64 + k + 1]);
      fragments[s][2] = pair<T>(a[r * 64 + k + 8], a[r * 64 + k + 9]);
      fragments[s][3] = pair<T>(a[(r + 8) * 64 + k + 8], a[(r + 8) * 64 + k + 9]);
    }
  // A product 32 wide takes B's columns 32..63 (warpgroup_mma.cuh says where they start).
  const unsigned char* const b_columns = tiles[1] + (N == 64 ? 0 : b_mn ? 64 : 32 * wg::kRowBytes);
  float acc[N / 2] = {};
  wg::fence();
#pragma unroll
  for (int s = 0; s < 4; ++s) {
    const std::uint64_t b_tile = b_mn ? wg::mn_major_step(b_columns, s) : wg::k_major_step(b_columns, s);
    if constexpr (a_in_registers)
      wg::multiply<T, b_mn, N>(acc, fragments[s], b_tile, s > 0);
    else
      wg::multiply<T, a_mn, b_mn, N>(acc, a_mn ? wg::mn_major_step(tiles[0], s) : wg::k_major_step(tiles[0], s), b_tile,
                                     s > 0);
  }
  wg::commit();
  wg::wait<0>();
  wg::pin(acc);
  for (int j = 0; j < N / 8; ++j)
    for (int i = 0; i < 4; ++i)
      d[(16 * w + g + (i >= 2 ? 8 : 0)) * 64 + 64 - N + 8 * j + 2 * q + (i & 1)] = acc[4 * j + i];
  if (t == 0) *built = 1;
#else
  (void)a, (void)b, (void)d;
  if (threadIdx.x == 0) *built = 0;
#endif
}

template <typename T, int N>
void launch(WarpgroupOperands operands, const float* a, const float* b, float* d, int* built) {
  switch (operands) {
    case WarpgroupOperands::shared_k_major:
      return product_kernel<T, WarpgroupOperands::shared_k_major, N><<<1, 128>>>(a, b, d, built);
    case WarpgroupOperands::shared_b_mn_major:
      return product_kernel<T, WarpgroupOperands::shared_b_mn_major, N><<<1, 128>>>(a, b, d, built);
    case WarpgroupOperands::shared_mn_major:
      return product_kernel<T, WarpgroupOperands::shared_mn_major, N><<<1, 128>>>(a, b, d, built);
    case WarpgroupOperands::registers_a:
      return product_kernel<T, WarpgroupOperands::registers_a, N><<<1, 128>>>(a, b, d, built);
  }
  throw std::invalid_argument("launch_warpgroup_product: unknown operands");
}

}  // namespace

void launch_warpgroup_product(WarpgroupOperands operands, bool half, bool narrow, const float* a, const float* b,
                              float* d, int* built) {
  if (half && narrow)
    launch<__half, 32>(operands, a, b, d, built);
  else if (half)
    launch<__half, 64>(operands, a, b, d, built);
  else if (narrow)
    launch<__nv_bfloat16, 32>(operands, a, b, d, built);
  else
    launch<__nv_bfloat16, 64>(operands, a, b, d, built);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ch10_test
