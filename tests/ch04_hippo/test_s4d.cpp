// Chapter 04's S4D half in fp64: the initializations, ZOH, the Vandermonde kernel against
// the recurrence, and the fp32 error bound's checker.
#include "bound_check.hpp"
#include "ch04_test_support.hpp"
#include "s4d.hpp"

#include <cmath>
#include <limits>
#include <numbers>

using s4d::complex;
using s4d::Init;

TEST_CASE("the S4D initializations follow their formulas") {
  const auto lin = s4d::init_A(Init::lin, 8);
  REQUIRE(lin.size() == 4);
  CHECK(lin[3] == complex(-0.5, 3 * std::numbers::pi));
  const auto inv = s4d::init_A(Init::inv, 8);
  REQUIRE(inv.size() == 4);
  CHECK(inv[0].imag() == Approx(8 / std::numbers::pi * 7));
  CHECK(inv[3].imag() == Approx(8 / std::numbers::pi * (8.0 / 7 - 1)));
  const auto real = s4d::init_A(Init::real, 5);
  REQUIRE(real.size() == 5);
  for (int n = 0; n < 5; ++n) CHECK(real[n] == complex(-(n + 1.0), 0));
  CHECK_THROWS(s4d::init_A(Init::lin, 7));
}

TEST_CASE("ZOH of a diagonal SSM is exact for a piecewise-constant input") {
  // One real mode, input 1 on [0, Δ): h(Δ) = (e^{ΔA} − 1)/A · B exactly.
  const s4d::Channel ch{{complex(-3.0, 0)}, {complex(2.0, 0)}, {complex(1.0, 0)}, 0.1, false};
  const auto d = s4d::zoh(ch);
  CHECK(d.A_bar[0].real() == Approx(std::exp(-0.3)).epsilon(1e-15));
  CHECK(d.B_bar[0].real() == Approx((std::exp(-0.3) - 1) / -3.0 * 2.0).epsilon(1e-14));
}

TEST_CASE("the Vandermonde kernel equals the recurrence's impulse response, every initialization") {
  for (Init init : s4d::kInits)
    for (double dt : {1e-3, 0.05, 0.5}) {
      const auto A = s4d::init_A(init, 16);
      s4d::Channel ch{A, std::vector<complex>(A.size(), 1.0), {}, dt, s4d::conjugate_pairs(init)};
      for (std::size_t n = 0; n < A.size(); ++n) ch.C.push_back(complex(std::cos(n + 1.0), std::sin(2.0 * n)));
      CHECK_CLOSE(s4d::name(init) << ", Δ " << dt,
                  common::compare(s4d::kernel_vandermonde(ch, 300), s4d::kernel_by_recurrence(ch, 300), {1e-12, 1e-9}));
    }
}

TEST_CASE("a bank's reference is the per-channel Vandermonde kernel") {
  const auto bank = s4d::make_bank(Init::inv, 3, 8, 50, 7);
  REQUIRE(bank.modes == 4);
  REQUIRE(bank.W.size() == 12);
  const auto K = s4d::bank_reference(bank, 3);
  REQUIRE(K.size() == 150);
  // ℓ = 0: K̄_0 = 2 Re Σ_n W_n.
  for (int c = 0; c < 3; ++c) {
    complex sum = 0;
    for (int n = 0; n < 4; ++n) sum += bank.W[c * 4 + n];
    CHECK(K[c * 50] == Approx(2 * sum.real()).margin(1e-15));
  }
}

TEST_CASE("the bound check fails on NaN, on an error past the bound, and passes within it") {
  const std::vector<double> expected{1.0, 2.0, 3.0}, bound{1e-6, 1e-6, 1e-6};
  CHECK(s4d::check_within_bound(std::vector<float>{1.0f, 2.0f, 3.0f}, expected, bound).ok);
  const auto past = s4d::check_within_bound(std::vector<float>{1.0f, 2.001f, 3.0f}, expected, bound);
  CHECK_FALSE(past.ok);
  CHECK(past.worst_index == 1);
  const auto nan =
      s4d::check_within_bound(std::vector<float>{1.0f, std::numeric_limits<float>::quiet_NaN(), 3.0f}, expected, bound);
  CHECK_FALSE(nan.ok);
  CHECK(nan.worst_index == 1);
}

TEST_CASE("the fp32 error bound grows with ℓ|ΔA| and shrinks with e^{ℓ Re ΔA}") {
  s4d::Bank bank{1, 1, 2000, 2.0, {complex(1.0, 0)}, {complex(-0.005, 0.5)}};
  const auto bound = s4d::fp32_error_bound(bank, 1, 0);
  CHECK(bound[100] > bound[0]);     // ℓ|z| = 50 outweighs e^{−0.5}
  CHECK(bound[1999] < bound[200]);  // e^{−10} wins in the end
}
