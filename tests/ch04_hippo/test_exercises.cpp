// Chapter 04's exercises. In the `exercises` preset the stubs are compiled in place of the
// solutions, and every test here must fail -- showing the input, the expected value and the
// value got -- until the reader writes the solution.
#include "bound_check.hpp"
#include "ch04_test_support.hpp"
#include "gpu_test.hpp"
#include "gpu_vandermonde.hpp"
#include "hippo.hpp"
#include "legendre.hpp"
#include "s4d.hpp"

#include <cmath>

TEST_CASE("exercise 1: legendre_reconstruct sums c_n √(2n+1) P_n(x)", "[exercise]") {
  const std::vector<double> c{0.5, -1.25, 0.75, 2.0, -0.3, 0.1};
  for (std::size_t count : {std::size_t(1), std::size_t(2), c.size()}) {
    std::vector<double> got, expected;
    for (double x : {-1.0, -0.6, 0.0, 0.35, 1.0}) {
      const auto p = hippo::legendre_values(static_cast<int>(count), x);
      double sum = 0;
      for (std::size_t n = 0; n < count; ++n) sum += c[n] * std::sqrt(2.0 * n + 1) * p[n];
      expected.push_back(sum);
      got.push_back(hippo::legendre_reconstruct(std::span(c.data(), count), x));
    }
    CHECK_CLOSE("c = first " << count << " of {0.5, −1.25, 0.75, 2, −0.3, 0.1} at x = −1, −0.6, 0, 0.35, 1",
                common::compare(got, expected, {1e-13, 1e-13}));
  }
}

TEST_CASE("exercise 1: projecting a polynomial and reconstructing it gives it back", "[exercise]") {
  auto f = [](double s) { return 1 + s - 4 * s * s * s + std::pow(s, 6); };  // degree 6 < N = 9
  const auto c = hippo::legs_projection(f, 2.0, 9);
  std::vector<double> got, expected;
  for (double s = 0; s <= 2.0; s += 0.125) {
    got.push_back(hippo::legendre_reconstruct(std::span(c.data(), c.size()), s - 1));  // x = 2s/t − 1
    expected.push_back(f(s));
  }
  CHECK_CLOSE("f(s) = 1 + s − 4s³ + s⁶ on [0, 2], N = 9", common::compare(got, expected, {1e-11, 1e-11}));
}

TEST_CASE("exercise 2: legs gives the LegS matrices (legs_matrices)", "[exercise]") {
  // The ODE pins A and B down: for every f, the exact projection obeys dc/dt = (A c + B f)/t.
  for (int N : {1, 3, 10}) {
    const auto op = hippo::legs(N);
    REQUIRE(op.A.rows() == N);
    REQUIRE(op.A.cols() == N);
    REQUIRE(op.B.size() == N);
    int which = 0;
    for (auto f : {+[](double s) { return std::cos(2 * s); }, +[](double s) { return s * s * s - s; },
                   +[](double s) { return std::exp(0.5 * s); }}) {
      const double t = 1.3, h = 1e-4;
      const hippo::Vector dc = (hippo::legs_projection(f, t + h, N) - hippo::legs_projection(f, t - h, N)) / (2 * h);
      const hippo::Vector rhs = (op.A * hippo::legs_projection(f, t, N) + op.B * f(t)) / t;
      CHECK_CLOSE("dc/dt vs (A c + B f)/t, N " << N << ", function " << which << ", t " << t,
                  common::compare(as_vector(rhs), as_vector(dc), {1e-7, 1e-7}));
      ++which;
    }
    CHECK_CLOSE("A above the diagonal (must be 0), N " << N,
                common::compare(as_vector(hippo::Matrix(op.A.triangularView<Eigen::StrictlyUpper>())),
                                std::vector<double>(N * N, 0.0), {0, 0}));
  }
}

TEST_CASE("exercise 3: kernel 1 matches fp64 (exp_kernel)", "[exercise][gpu]") {
  REQUIRE_GPU();
  for (auto [channels, state, length] : {std::tuple{1, 2, 1}, std::tuple{3, 16, 33}, std::tuple{2, 64, 1000}})
    for (s4d::Init init : s4d::kInits) {
      const auto bank = s4d::make_bank(init, channels, state, length, 5);
      s4d::GpuVandermonde gpu(bank);
      gpu.poison_output();
      gpu.run(s4d::Kernel::exp_per_element);
      CHECK_CLOSE(
          "K̄ of kernel 1, " << s4d::name(init) << ", " << channels << " channels, N " << state << ", L " << length,
          s4d::check_within_bound(gpu.K(), s4d::bank_reference(bank, channels),
                                  s4d::fp32_error_bound(bank, channels, 0)));
    }
}
