// The CPU side of chapter 01: the reference itself, and the identities the chapter states.
#include "ch01_test_support.hpp"
#include "reference.hpp"
#include "unrolled.hpp"

#include <cmath>

using rnn::Activation;

TEST_CASE("random weights have exactly the spectral radius asked for") {
  for (double radius : {0.5, 0.99, 1.5}) {
    const auto w = rnn::random_weights(16, radius, 7);
    CHECK(rnn::spectral_radius(w.W, 16) == Approx(radius).epsilon(1e-12));
  }
}

TEST_CASE("tanh's damping bounds a step by the norm of W, not by its spectral radius") {
  // W = [[1, 1], [-1, -1]] is nilpotent (W² = 0, ρ = 0) but ‖W‖₂ = 2: the linear RNN forgets
  // everything after two steps, while W diag(d) W = (d_1 − d_2) W is not zero once tanh damps
  // the two units differently.
  rnn::Weights w{2, {1, 1, -1, -1}, {1, 0}, {1, 0}};
  CHECK(rnn::spectral_radius(w.W, 2) == Approx(0).margin(1e-7));
  CHECK(rnn::spectral_norm(w.W, 2) == Approx(2).epsilon(1e-12));
  const rnn::Sequences s{1, 2, {0.7, -0.4}};
  const std::vector<double> h0{0.3, 0.1};
  CHECK(rnn::jacobian_norms(w, s, 0, Activation::identity, h0)[1] == 0.0);
  CHECK(rnn::jacobian_norms(w, s, 0, Activation::tanh, h0)[1] > 0.1);
}

TEST_CASE("the batched reference equals the recurrence written out for one sequence") {
  const auto w = rnn::random_weights(16, 0.9, 3);
  const auto s = rnn::random_sequences(5, 23, 4);
  for (Activation f : {Activation::tanh, Activation::identity}) {
    const auto batched = rnn::run_cpu<double>(w, s, f);
    for (int b = 0; b < s.batch; ++b) {
      const auto h = rnn::trajectory(w, s, b, f);
      for (int t = 0; t < s.length; ++t) {
        double y = 0;
        for (int j = 0; j < 16; ++j) y += w.c[j] * h[t + 1][j];
        CHECK(batched.y[rnn::at(t, b, s.batch)] == Approx(y).margin(1e-14));
      }
      for (int j = 0; j < 16; ++j) CHECK(batched.h_final[b * 16 + j] == Approx(h.back()[j]).margin(1e-14));
    }
  }
}

TEST_CASE("the reference restricted to a prefix of the batch equals the whole reference there") {
  const auto w = rnn::random_weights(16, 0.9, 3);
  const auto s = rnn::random_sequences(9, 11, 4);
  const auto whole = rnn::run_cpu<double>(w, s, Activation::tanh);
  const auto prefix = rnn::run_reference_prefix(w, s, Activation::tanh, 4);
  for (int t = 0; t < 11; ++t)
    for (int b = 0; b < 4; ++b) CHECK(prefix.y[rnn::at(t, b, 4)] == whole.y[rnn::at(t, b, 9)]);
}

TEST_CASE("a linear RNN's influence of x_0 decays like the spectral radius to the power t") {
  const auto s = rnn::random_sequences(1, 400, 5);
  for (double radius : {0.5, 0.9}) {
    const auto w = rnn::random_weights(16, radius, 5);
    const auto influence = rnn::input_influence(w, s, 0, Activation::identity);
    // ‖A^t B‖^(1/t) → ρ(A) (Gelfand's formula), slowly: compare over a long stretch.
    const double rate = std::pow(influence[399] / influence[199], 1.0 / 200);
    CHECK(rate == Approx(radius).epsilon(0.02));
  }
}

TEST_CASE("derivatives by the chain rule equal finite differences") {
  const auto s = rnn::random_sequences(1, 30, 6);
  const std::vector<double> h0(16, 0.05);
  for (Activation f : {Activation::tanh, Activation::identity}) {
    const auto w = rnn::random_weights(16, 1.2, 6);
    CHECK_CLOSE("dh_12/dx_0",
                common::compare(rnn::input_influence_vector(w, s, 0, f, 12),
                                rnn::input_influence_finite_differences(w, s, 0, f, 12, 1e-6), {1e-9, 1e-6}));
    CHECK_CLOSE("dh_12/dh_-1",
                common::compare(rnn::jacobian(w, s, 0, f, h0, 12),
                                rnn::jacobian_finite_differences(w, s, 0, f, h0, 12, 1e-6), {1e-8, 1e-6}));
  }
}

TEST_CASE("causal convolution on a hand-checked example") {
  // y_0 = 1·1, y_1 = 1·2 + 2·1, y_2 = 1·3 + 2·2 + 3·1
  CHECK(rnn::causal_convolution({1, 2, 3}, {1, 2, 3}) == std::vector<double>{1, 4, 10});
  CHECK_THROWS(rnn::causal_convolution({1}, {1, 2}));
}
