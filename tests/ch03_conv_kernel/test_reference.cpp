// The CPU side of chapter 03: the references, and every identity the chapter states.
#include "ch03_test_support.hpp"
#include "diagonal_ssm.hpp"
#include "fft_conv.hpp"
#include "problem.hpp"
#include "time_varying.hpp"
#include "toeplitz.hpp"

#include <cmath>
#include <numbers>

using conv::complex;

TEST_CASE("ZOH has no 0/0 where ΔA is zero or tiny, and matches the closed form elsewhere") {
  const conv::DiagonalSsm ssm{{0.0, complex(-1e-9, 0), complex(-2.0, 3.0)}, {1.0, 2.0, 0.5}, {1.0, 1.0, 1.0}};
  const double delta = 0.1;
  const auto d = conv::discretize_zoh(ssm, delta);
  CHECK(d.A_bar[0] == complex(1.0, 0.0));
  CHECK(std::abs(d.B_bar[0] - delta * 1.0) < 1e-16);                  // A = 0: B̄ = ΔB exactly
  CHECK(std::abs(d.B_bar[1] - delta * 2.0 * (1 - 0.5e-10)) < 1e-16);  // B̄ = ΔB (1 + ΔA/2 + …)
  const complex a = ssm.A[2];
  CHECK(std::abs(d.A_bar[2] - std::exp(delta * a)) < 1e-15);
  CHECK(std::abs(d.B_bar[2] - (std::exp(delta * a) - 1.0) / a * 0.5) < 1e-15);
  CHECK_THROWS(conv::discretize_zoh(ssm, 0.0));
}

TEST_CASE("K̄ of a one-state SSM is C B̄ Ā^ℓ") {
  const conv::DiagonalSsm ssm{{-0.7}, {1.3}, {0.4}};
  const auto d = conv::discretize_zoh(ssm, 0.05);
  const auto K = conv::ssm_kernel_by_powers(d, 50);
  for (int l = 0; l < 50; ++l)
    CHECK(K[l] == Approx(0.4 * d.B_bar[0].real() * std::exp(-0.7 * 0.05 * l)).epsilon(1e-13));
}

TEST_CASE("a conjugate pair gives a real, damped cosine kernel") {
  // A = −α ± iω, B = 1, C = c, c̄: K̄_ℓ = 2 Re(c B̄ Ā^ℓ) = 2 |c B̄| e^{−αΔℓ} cos(ωΔℓ + arg(c B̄)).
  const double alpha = 0.3, omega = 2.0, delta = 0.2;
  const complex a(-alpha, omega), c(0.6, -0.2);
  const conv::DiagonalSsm ssm{{a, std::conj(a)}, {1.0, 1.0}, {c, std::conj(c)}};
  const auto d = conv::discretize_zoh(ssm, delta);
  const complex w = c * d.B_bar[0];
  const auto K = conv::ssm_kernel_by_powers(d, 80);
  std::vector<double> closed(80);
  for (int l = 0; l < 80; ++l)
    closed[l] = 2 * std::abs(w) * std::exp(-alpha * delta * l) * std::cos(omega * delta * l + std::arg(w));
  CHECK_CLOSE("K̄ of a conjugate pair", common::compare(K, closed, {1e-14, 1e-12}));
}

TEST_CASE("convolution with K̄ equals the recurrence") {
  for (double delta : {0.01, 0.1, 1.0}) {
    const auto d = conv::discretize_zoh(conv::random_diagonal_ssm(16, 0.1, 5.0, 10.0, 3), delta);
    const auto x = conv::random_signal(300, 4);
    CHECK_CLOSE("Δ = " << delta, common::compare(conv::causal_toeplitz(conv::ssm_kernel_by_powers(d, 300), x),
                                                 conv::run_recurrence(d, x), {1e-12, 1e-9}));
  }
}

TEST_CASE("the Toeplitz products equal multiplication by the matrix T") {
  for (int n : {1, 2, 7, 40}) {
    const auto x = conv::random_signal(n, 5);
    const auto tc = conv::random_signal(n, 6);
    const auto tn = conv::random_signal(2 * n - 1, 7);
    const auto Tc = conv::causal_toeplitz_matrix(tc), Tn = conv::noncausal_toeplitz_matrix(tn);
    std::vector<double> oc(n, 0.0), on(n, 0.0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) oc[i] += Tc[i * n + j] * x[j], on[i] += Tn[i * n + j] * x[j];
    CHECK_CLOSE("causal, n = " << n, common::compare(conv::causal_toeplitz(tc, x), oc, {1e-14, 1e-12}));
    CHECK_CLOSE("non-causal, n = " << n, common::compare(conv::noncausal_toeplitz(tn, x), on, {1e-14, 1e-12}));
    // The causal product is the non-causal one with t_k = 0 for k < 0.
    std::vector<double> padded(n - 1, 0.0);
    padded.insert(padded.end(), tc.begin(), tc.end());
    CHECK_CLOSE("causal as non-causal, n = " << n,
                common::compare(conv::noncausal_toeplitz(padded, x), conv::causal_toeplitz(tc, x), {1e-14, 1e-12}));
  }
  CHECK(conv::causal_toeplitz_matrix({1, 2, 3}) == std::vector<double>{1, 0, 0, 2, 1, 0, 3, 2, 1});
  // t = (t_{−2}, t_{−1}, t_0, t_1, t_2) = (5, 4, 1, 2, 3): row i holds t_{i−j}.
  CHECK(conv::noncausal_toeplitz_matrix({5, 4, 1, 2, 3}) == std::vector<double>{1, 4, 5, 2, 1, 4, 3, 2, 1});
}

TEST_CASE("the non-causal backward equals finite differences and Tᵀ g") {
  for (int n : {1, 2, 5, 33}) {
    const auto x = conv::random_signal(n, 8);
    const auto t = conv::random_signal(2 * n - 1, 9);
    const auto g = conv::random_signal(n, 10);
    const auto grad = conv::noncausal_toeplitz_backward(t, x, g);
    const auto dt =
        finite_differences(t, [&](const auto& v) { return conv::weighted_sum(g, conv::noncausal_toeplitz(v, x)); });
    const auto dx =
        finite_differences(x, [&](const auto& v) { return conv::weighted_sum(g, conv::noncausal_toeplitz(t, v)); });
    CHECK_CLOSE("dt, n = " << n, common::compare(grad.dt, dt, {1e-8, 1e-7}));
    CHECK_CLOSE("dx, n = " << n, common::compare(grad.dx, dx, {1e-8, 1e-7}));
    CHECK_CLOSE("dx = Tᵀ g, n = " << n,
                common::compare(grad.dx, transpose_times(conv::noncausal_toeplitz_matrix(t), g), {1e-14, 1e-12}));
  }
}

TEST_CASE("the batched reference is the single-row product per (batch, channel)") {
  const auto p = conv::random_problem(3, 4, 17, 11);
  const auto o = conv::causal_toeplitz_batched(p.t, p.x, p.batch, p.channels, p.n);
  for (int b = 0; b < p.batch; ++b)
    for (int c = 0; c < p.channels; ++c) {
      const std::size_t row = std::size_t(b) * p.channels + c;
      const std::vector<double> t(p.t.begin() + c * p.n, p.t.begin() + (c + 1) * p.n);
      const std::vector<double> x(p.x.begin() + row * p.n, p.x.begin() + (row + 1) * p.n);
      const std::vector<double> got(o.begin() + row * p.n, o.begin() + (row + 1) * p.n);
      CHECK(got == conv::causal_toeplitz(t, x));
    }
}

TEST_CASE("with Δ fixed the time-varying matrix is Toeplitz; with Δ varying it is not") {
  const auto ssm = conv::random_diagonal_ssm(8, 0.5, 4.0, 6.0, 12);
  const int L = 60;
  const auto x = conv::random_signal(L, 13);
  const std::vector<double> fixed(L, 0.1);
  std::vector<double> varying(L);
  for (int t = 0; t < L; ++t) varying[t] = 0.1 * (1.0 + 0.9 * std::sin(0.3 * t));
  const auto M_fixed = conv::time_varying_matrix(ssm, fixed);
  const auto M_varying = conv::time_varying_matrix(ssm, varying);
  CHECK(conv::toeplitz_deviation(M_fixed, L) < 1e-14);
  CHECK(conv::toeplitz_deviation(M_varying, L) > 1e-2);
  // Column 0 of the fixed-Δ matrix is K̄.
  std::vector<double> column(L);
  for (int t = 0; t < L; ++t) column[t] = M_fixed[std::size_t(t) * L];
  CHECK_CLOSE("first column = K̄",
              common::compare(column, conv::ssm_kernel_by_powers(conv::discretize_zoh(ssm, 0.1), L), {1e-14, 1e-12}));
  // M x is the time-varying recurrence, fixed Δ or not.
  for (const auto& [deltas, M] : {std::pair{fixed, M_fixed}, std::pair{varying, M_varying}}) {
    std::vector<double> y(L, 0.0);
    for (int t = 0; t < L; ++t)
      for (int s = 0; s <= t; ++s) y[t] += M[std::size_t(t) * L + s] * x[s];
    CHECK_CLOSE("M x = recurrence",
                common::compare(y, conv::run_time_varying_recurrence(ssm, deltas, x), {1e-12, 1e-9}));
  }
}

TEST_CASE("the FFT length is the smallest 7-smooth number ≥ 2n") {
  CHECK(conv::fft_length(1) == 2);
  CHECK(conv::fft_length(11) == 24);      // 22 = 2·11 and 23 are not 7-smooth
  CHECK(conv::fft_length(1000) == 2000);  // 2^4 · 5^3
  CHECK(conv::fft_length(1021) == 2048);  // 2042 = 2·1021 .. 2047 = 23·89 all have a factor > 7
  CHECK(conv::fft_length(1024) == 2048);
  CHECK_THROWS(conv::fft_length(0));
}

TEST_CASE("the fp32 tolerance scales with the size of the outputs") {
  const auto tol = conv::fp32_tolerance({-4.0, 1.0, 2.0}, 1024);
  CHECK(tol.atol == Approx(1e-5 * 10 * 4.0));
  CHECK(tol.rtol == 1e-4);
}
