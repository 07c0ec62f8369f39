// Every GPU version of chapter 02 against the fp64 reference, on awkward shapes, with the
// outputs poisoned (NaN) before each run so that an element left unwritten fails.
#include "ch02_test_support.hpp"
#include "gpu_discretize.hpp"
#include "gpu_test.hpp"
#include "selective.hpp"

#include <string>

namespace {

std::string describe(const zoh::KernelInfo& info, zoh::Rule rule, const zoh::SelectiveShape& s) {
  return std::string(info.name) + ", " + zoh::name(rule) + ", batch " + std::to_string(s.batch) + ", L " +
         std::to_string(s.length) + ", D " + std::to_string(s.channels) + ", N " + std::to_string(s.state);
}

void check_every_kernel(const zoh::SelectiveProblem& problem, const std::string& what) {
  const auto tol = zoh::fp32_tolerance(zoh::max_abs_z(problem));
  for (const auto& info : zoh::kKernels) {
    for (zoh::Rule rule : {zoh::Rule::zoh, zoh::Rule::mamba}) {
      const auto expected = zoh::discretize_selective_reference(problem, rule);
      zoh::GpuDiscretization gpu(problem);
      gpu.poison_outputs();
      gpu.run(info.id, rule);
      const std::string input = what + ": " + describe(info, rule, problem.shape);
      CHECK_CLOSE("Ā of " << input, common::compare(gpu.abar(), expected.abar, tol));
      CHECK_CLOSE("B̄ of " << input, common::compare(gpu.bbar(), expected.bbar, tol));
    }
  }
}

}  // namespace

TEST_CASE("every kernel matches fp64 on awkward shapes", "[gpu]") {
  REQUIRE_GPU();
  // One element; counts that are not multiples of 4 (kernel 3's partial group); a prime in
  // every dimension; one off a warp; one off a block of 256 threads; Mamba's N = 16.
  const zoh::SelectiveShape shapes[] = {{1, 1, 1, 1},   {1, 1, 1, 3},   {2, 3, 5, 7},   {1, 31, 33, 17},
                                        {3, 5, 257, 1}, {2, 7, 255, 2}, {2, 64, 96, 16}};
  for (const auto& shape : shapes) check_every_kernel(zoh::random_selective_problem(shape, 31), "random");
}

TEST_CASE("the kernels handle a = 0 and tiny and large steps", "[gpu]") {
  REQUIRE_GPU();
  // a = 0 makes z = 0 (φ₁'s 0/0 if written naively); Δ = 1e-7 makes exp(z) − 1 cancel;
  // Δ = 1 with a = −24 makes z = −24, where the argument's rounding matters most.
  auto problem = zoh::random_selective_problem({2, 3, 4, 5}, 32, 1e-7, 1.0);
  for (int n = 0; n < 5; ++n) problem.A[n] = 0.0f;  // channel 0 only integrates
  problem.A[5] = -24.0f;
  problem.delta[0] = 1e-7f;
  problem.delta[1] = 1.0f;
  check_every_kernel(problem, "edge values");
}

TEST_CASE("a problem too large for the GPU is refused with a clear message", "[gpu]") {
  REQUIRE_GPU();
  zoh::SelectiveProblem huge{{1 << 16, 1 << 16, 1 << 10, 16}, {}, {}, {}};
  CHECK_THROWS_WITH(zoh::GpuDiscretization(huge), Catch::Contains("--batch × --length × --channels × --state needs"));
}
