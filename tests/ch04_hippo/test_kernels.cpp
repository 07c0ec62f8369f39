// Every GPU version of chapter 04 against fp64, on awkward sizes, with the output poisoned
// (NaN) before each run so that an element left unwritten fails.
#include "bound_check.hpp"
#include "ch04_test_support.hpp"
#include "gpu_test.hpp"
#include "gpu_vandermonde.hpp"
#include "s4d.hpp"

#include <string>

TEST_CASE("every Vandermonde kernel matches fp64 on awkward sizes", "[gpu]") {
  REQUIRE_GPU();
  struct Size {
    int channels, state, length;
  };
  // One of everything; lengths one off a warp, a block (256) and a block's 1024 outputs;
  // primes; an odd number of modes (N = 62 → 31); a long kernel.
  const Size sizes[] = {{1, 2, 1},    {2, 2, 2},     {3, 8, 31},    {1, 16, 33},  {4, 64, 255},
                        {3, 62, 257}, {2, 64, 1023}, {5, 64, 1025}, {7, 16, 997}, {2, 128, 8191}};
  for (const auto& info : s4d::kKernels)
    for (s4d::Init init : s4d::kInits)
      for (const auto& s : sizes) {
        const auto bank = s4d::make_bank(init, s.channels, s.state, s.length, 31 + s.length);
        s4d::GpuVandermonde gpu(bank);
        gpu.poison_output();
        gpu.run(info.id);
        CHECK_CLOSE(info.name << ", " << s4d::name(init) << ", " << s.channels << " channels, N " << s.state << ", L "
                              << s.length,
                    s4d::check_within_bound(gpu.K(), s4d::bank_reference(bank, s.channels),
                                            s4d::fp32_error_bound(bank, s.channels, info.multiplications)));
      }
}

TEST_CASE("the three versions agree on a long kernel with large l|dt A|", "[gpu]") {
  REQUIRE_GPU();
  const auto bank = s4d::make_bank(s4d::Init::inv, 3, 64, 20000, 41);  // S4D-Inv: |Im ΔA| up to ~128
  for (const auto& info : s4d::kKernels) {
    s4d::GpuVandermonde gpu(bank);
    gpu.poison_output();
    gpu.run(info.id);
    CHECK_CLOSE(info.name << " over 20000 lags",
                s4d::check_within_bound(gpu.K(), s4d::bank_reference(bank, 3),
                                        s4d::fp32_error_bound(bank, 3, info.multiplications)));
  }
}

TEST_CASE("shapes the kernels cannot take are refused before any launch", "[gpu]") {
  REQUIRE_GPU();
  const auto bank = s4d::make_bank(s4d::Init::lin, 65536, 2, 1, 1);  // more channels than gridDim.y
  s4d::GpuVandermonde gpu(bank);
  CHECK_THROWS_WITH(gpu.run(s4d::Kernel::exp_per_element), Catch::Contains("65535"));
}
