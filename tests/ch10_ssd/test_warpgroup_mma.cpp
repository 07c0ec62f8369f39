// warpgroup_mma.cuh, the wgmma wrapper version 4 is to be built on, against an fp64 product: one
// warpgroup multiplies two 64 × 64 matrices over four k-steps with its operands in each layout the
// wrapper offers (K-major and MN-major tiles in shared memory with the 128-byte swizzle, A from
// registers), 64 wide and 32 wide (B's right half, from inside the swizzled rows), in bf16 and fp16. The inputs are rounded to the 16-bit type first, so the only error
// left is the fp32 sums'. Skipped where the GPU is not sm_90 or the build has no sm_90a code.
#include "check_close.hpp"
#include "compare.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "gpu_test.hpp"
#include "warpgroup_mma_probe.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <span>
#include <vector>

namespace {

using ch10_test::WarpgroupOperands;

std::vector<float> uniform(unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(64 * 64);
  for (float& x : v) x = u(rng);
  return v;
}

std::vector<double> rounded(const std::vector<float>& v, bool half) {
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    r[i] = half ? double(__half2float(__float2half_rn(v[i]))) : double(__bfloat162float(__float2bfloat16_rn(v[i])));
  return r;
}

const char* name_of(WarpgroupOperands o) {
  switch (o) {
    case WarpgroupOperands::shared_k_major: return "A and B K-major in shared memory";
    case WarpgroupOperands::shared_b_mn_major: return "A K-major, B MN-major in shared memory";
    case WarpgroupOperands::shared_mn_major: return "A and B MN-major in shared memory";
    case WarpgroupOperands::registers_a: return "A from registers, B MN-major";
  }
  return "?";
}

// Ends the case as skipped (exit 77, as gpu_test.hpp's do) where wgmma cannot run.
void require_wgmma(bool built) {
  const common::DeviceInfo& d = common::gpu_status().device;
  const char* why = d.compute_major != 9 || d.compute_minor != 0 ? "the GPU is not sm_90"
                    : !built                                     ? "this build has no sm_90a code"
                                                                 : nullptr;
  if (!why) return;
  std::printf("SKIPPED: wgmma needs an sm_90 GPU and sm_90a code: %s\n", why);
  std::fflush(stdout);
  std::_Exit(77);
}

}  // namespace

TEST_CASE("warpgroup products (wgmma) equal the fp64 product in every operand layout", "[gpu]") {
  REQUIRE_GPU();
  require_wgmma(true);
  const std::vector<float> a = uniform(1), b = uniform(2);
  const common::DeviceBuffer<float> a_gpu{std::span<const float>(a)}, b_gpu{std::span<const float>(b)};
  const std::vector<float> poison(64 * 64, std::numeric_limits<float>::quiet_NaN());
  for (const bool half : {false, true}) {
    const std::vector<double> a64 = rounded(a, half), b64 = rounded(b, half);
    std::vector<double> want(64 * 64, 0.0);
    for (int m = 0; m < 64; ++m)
      for (int n = 0; n < 64; ++n)
        for (int k = 0; k < 64; ++k) want[m * 64 + n] += a64[m * 64 + k] * b64[k * 64 + n];
    for (const WarpgroupOperands o : {WarpgroupOperands::shared_k_major, WarpgroupOperands::shared_b_mn_major,
                                      WarpgroupOperands::shared_mn_major, WarpgroupOperands::registers_a}) {
      for (const bool narrow : {false, true}) {
        INFO((half ? "fp16, " : "bf16, ") << name_of(o) << (narrow ? ", 32 wide (D's columns 32..63)" : ", 64 wide"));
        common::DeviceBuffer<float> d_gpu{std::span<const float>(poison)};
        common::DeviceBuffer<int> built{std::span<const int>(std::vector<int>{-1})};
        ch10_test::launch_warpgroup_product(o, half, narrow, a_gpu.data(), b_gpu.data(), d_gpu.data(), built.data());
        CUDA_CHECK(cudaDeviceSynchronize());
        require_wgmma(built.download()[0] == 1);
        const std::vector<float> got = d_gpu.download();
        std::vector<double> got_columns, want_columns;  // the columns the product wrote
        for (int m = 0; m < 64; ++m)
          for (int n = narrow ? 32 : 0; n < 64; ++n)
            got_columns.push_back(got[m * 64 + n]), want_columns.push_back(want[m * 64 + n]);
        // Products of 16-bit numbers are exact in fp32; 64 fp32 additions of terms below 1.
        CHECK_CLOSE("D", common::compare(got_columns, want_columns, {1e-5, 1e-5}));
        if (narrow)  // and the columns it did not write are still the poison
          for (int m = 0; m < 64; ++m)
            for (int n = 0; n < 32; ++n) REQUIRE(std::isnan(got[m * 64 + n]));
      }
    }
  }
}
