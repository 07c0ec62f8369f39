// Chapter 03's exercises. In the `exercises` preset the stubs are compiled in place of the
// solutions, and every test here must fail -- showing the input, the expected value and the
// value got -- until the reader writes the solution.
#include "ch03_test_support.hpp"
#include "diagonal_ssm.hpp"
#include "gpu_conv.hpp"
#include "gpu_test.hpp"
#include "problem.hpp"
#include "toeplitz.hpp"

TEST_CASE("exercise 1: ssm_kernel gives K̄_ℓ = Re Σ C Ā^ℓ B̄", "[exercise]") {
  for (int states : {2, 16}) {
    for (double delta : {0.01, 0.5}) {
      const auto d = conv::discretize_zoh(conv::random_diagonal_ssm(states, 0.1, 3.0, 8.0, 31), delta);
      const auto got = conv::ssm_kernel(d, 64);
      REQUIRE(got.size() == 64);
      CHECK_CLOSE("K̄ for N = " << states << ", Δ = " << delta,
                  common::compare(got, conv::ssm_kernel_by_powers(d, 64), {1e-13, 1e-10}));
    }
  }
}

TEST_CASE("exercise 1: the convolution with ssm_kernel reproduces the recurrence", "[exercise]") {
  const auto d = conv::discretize_zoh(conv::random_diagonal_ssm(16, 0.2, 4.0, 10.0, 32), 0.05);
  const auto x = conv::random_signal(200, 33);
  CHECK_CLOSE("y by convolution, N = 16, L = 200", common::compare(conv::causal_toeplitz(conv::ssm_kernel(d, 200), x),
                                                                   conv::run_recurrence(d, x), {1e-12, 1e-9}));
}

TEST_CASE("exercise 2: the causal backward equals finite differences", "[exercise]") {
  for (int n : {1, 2, 3, 17}) {
    const auto t = conv::random_signal(n, 34), x = conv::random_signal(n, 35), g = conv::random_signal(n, 36);
    const auto grad = conv::causal_toeplitz_backward(t, x, g);
    REQUIRE(grad.dt.size() == std::size_t(n));
    REQUIRE(grad.dx.size() == std::size_t(n));
    const auto dt =
        finite_differences(t, [&](const auto& v) { return conv::weighted_sum(g, conv::causal_toeplitz(v, x)); });
    const auto dx =
        finite_differences(x, [&](const auto& v) { return conv::weighted_sum(g, conv::causal_toeplitz(t, v)); });
    CHECK_CLOSE("dℓ/dt, n = " << n, common::compare(grad.dt, dt, {1e-8, 1e-7}));
    CHECK_CLOSE("dℓ/dx, n = " << n, common::compare(grad.dx, dx, {1e-8, 1e-7}));
  }
}

TEST_CASE("exercise 2: the causal backward's dx is Tᵀ g", "[exercise]") {
  const int n = 9;
  const auto t = conv::random_signal(n, 37), x = conv::random_signal(n, 38), g = conv::random_signal(n, 39);
  CHECK_CLOSE("dx, n = 9", common::compare(conv::causal_toeplitz_backward(t, x, g).dx,
                                           transpose_times(conv::causal_toeplitz_matrix(t), g), {1e-14, 1e-12}));
}

TEST_CASE("exercise 3: the FFT convolution (version 5) matches fp64", "[exercise][gpu]") {
  REQUIRE_GPU();
  for (auto [batch, channels, n] : {std::tuple{1, 1, 1}, std::tuple{2, 3, 31}, std::tuple{3, 5, 1000}}) {
    const auto p = conv::random_problem(batch, channels, n, 40);
    const auto expected = conv::causal_toeplitz_batched(p.t, p.x, batch, channels, n);
    conv::GpuConvolution gpu(p.t, p.x, batch, channels, n);
    gpu.poison_output();
    gpu.run(conv::Kernel::fft_convolution);
    CHECK_CLOSE("o of version 5, batch " << batch << ", channels " << channels << ", n " << n,
                common::compare(gpu.output(), expected, conv::fp32_tolerance(expected, n)));
  }
}
