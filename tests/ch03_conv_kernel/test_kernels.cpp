// Every GPU version of chapter 03 against the fp64 reference, on awkward sizes, with the
// output poisoned (NaN) before each run so that an element left unwritten fails.
#include "ch03_test_support.hpp"
#include "fft_conv.hpp"
#include "gpu_conv.hpp"
#include "gpu_test.hpp"
#include "problem.hpp"
#include "toeplitz.hpp"

#include <string>
#include <tuple>

TEST_CASE("every kernel matches fp64 on awkward sizes", "[gpu]") {
  REQUIRE_GPU();
  // n = 1 and 2; primes; one off a warp (31, 33), off version 3's 128-wide tile (127, 129)
  // and version 4's 512-wide one (511, 513); 1000; batch × channels not a multiple of anything.
  const std::tuple<int, int, int> sizes[] = {{1, 1, 1},   {1, 2, 2},    {2, 3, 3},   {3, 1, 31},
                                             {1, 3, 33},  {2, 2, 127},  {1, 3, 129}, {2, 1, 511},
                                             {1, 2, 513}, {3, 2, 1000}, {1, 1, 1021}};
  for (const auto& info : conv::kKernels) {
    for (auto [batch, channels, n] : sizes) {
      for (bool ssm : {false, true}) {
        const auto p = ssm ? conv::ssm_problem(batch, channels, n, 50) : conv::random_problem(batch, channels, n, 51);
        const auto expected = conv::causal_toeplitz_batched(p.t, p.x, batch, channels, n);
        conv::GpuConvolution gpu(p.t, p.x, batch, channels, n);
        gpu.poison_output();
        gpu.run(info.id);
        CHECK_CLOSE(info.name << (ssm ? ", SSM kernels" : ", random t") << ", batch " << batch << ", channels "
                              << channels << ", n " << n,
                    common::compare(gpu.output(), expected, conv::fp32_tolerance(expected, n)));
      }
    }
  }
}

TEST_CASE("the kernels agree with fp64 on a long sequence", "[gpu]") {
  REQUIRE_GPU();
  const int batch = 2, channels = 3, n = 4099;  // a prime beyond several tiles
  const auto p = conv::ssm_problem(batch, channels, n, 52);
  const auto expected = conv::causal_toeplitz_batched(p.t, p.x, batch, channels, n);
  for (const auto& info : conv::kKernels) {
    conv::GpuConvolution gpu(p.t, p.x, batch, channels, n);
    gpu.poison_output();
    gpu.run(info.id);
    CHECK_CLOSE(info.name << ", n = 4099", common::compare(gpu.output(), expected, conv::fp32_tolerance(expected, n)));
  }
}

TEST_CASE("shapes the kernels cannot take are refused before any launch", "[gpu]") {
  REQUIRE_GPU();
  CHECK_THROWS_WITH(
      conv::run_direct(conv::Kernel::shared_tiles, conv::DeviceProblem{1, 1, 0, nullptr, nullptr, nullptr}),
      Catch::Contains("at least 1"));
  CHECK_THROWS_WITH(
      conv::run_direct(conv::Kernel::fft_convolution, conv::DeviceProblem{1, 1, 4, nullptr, nullptr, nullptr}),
      Catch::Contains("not a direct version"));
}

TEST_CASE("a failed cuFFT call becomes an error naming its cufftResult", "[gpu]") {
  REQUIRE_GPU();
  CHECK_THROWS_WITH(conv::FftPlan(0, 1, CUFFT_R2C), Catch::Contains("CUFFT_INVALID_SIZE"));
}
