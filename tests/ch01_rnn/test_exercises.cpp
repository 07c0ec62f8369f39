// Chapter 01's exercises. In the `exercises` preset the stubs are compiled in place of the
// solutions, and every test here must fail -- showing the input, the expected value and the
// value got -- until the reader writes the solution.
#include "bptt.hpp"
#include "ch01_test_support.hpp"
#include "gpu_rnn.hpp"
#include "gpu_test.hpp"
#include "reference.hpp"
#include "unrolled.hpp"

#include <cmath>

using rnn::Activation;

TEST_CASE("exercise 1: linear_rnn_kernel gives K_k = c · W^k u", "[exercise]") {
  for (int hidden : {1, 3, 16}) {
    const auto w = rnn::random_weights(hidden, 0.9, 11);
    const int length = 12;
    // The definition, literally: W^k formed by repeated multiplication.
    std::vector<double> expected(length), power(std::size_t(hidden) * hidden, 0.0);
    for (int i = 0; i < hidden; ++i) power[std::size_t(i) * hidden + i] = 1;
    for (int k = 0; k < length; ++k) {
      double K = 0;
      for (int i = 0; i < hidden; ++i)
        for (int j = 0; j < hidden; ++j) K += w.c[i] * power[std::size_t(i) * hidden + j] * w.u[j];
      expected[k] = K;
      std::vector<double> next(power.size(), 0.0);
      for (int i = 0; i < hidden; ++i)
        for (int m = 0; m < hidden; ++m)
          for (int j = 0; j < hidden; ++j)
            next[std::size_t(i) * hidden + j] += w.W[std::size_t(i) * hidden + m] * power[std::size_t(m) * hidden + j];
      power = next;
    }
    const auto got = rnn::linear_rnn_kernel(w, length);
    REQUIRE(got.size() == expected.size());
    CHECK_CLOSE("K for H = " << hidden << ", length " << length, common::compare(got, expected, {1e-13, 1e-10}));
  }
}

TEST_CASE("exercise 1: the convolution with K reproduces the linear recurrence", "[exercise]") {
  const auto w = rnn::random_weights(16, 0.95, 12);
  const auto s = rnn::random_sequences(1, 100, 12);
  const auto recurrence = rnn::run_cpu<double>(w, s, Activation::identity);
  CHECK_CLOSE(
      "y by convolution, H = 16, L = 100",
      common::compare(rnn::causal_convolution(rnn::linear_rnn_kernel(w, 100), s.x), recurrence.y, {1e-12, 1e-9}));
}

TEST_CASE("exercise 2: backprop_through_time equals finite differences", "[exercise]") {
  for (int length : {1, 2, 17}) {
    const int H = 16;
    const auto w = rnn::random_weights(H, 1.1, 13);
    const auto s = rnn::random_sequences(1, 2 * length, 13 + length);
    const std::vector<double> x(s.x.begin(), s.x.begin() + length), g(s.x.begin() + length, s.x.end());
    std::vector<double> h0(H);
    for (int j = 0; j < H; ++j) h0[j] = 0.2 * std::cos(j);
    const auto grad = rnn::backprop_through_time(w, x, g, h0);
    REQUIRE(grad.dW.size() == std::size_t(H) * H);
    REQUIRE(grad.du.size() == std::size_t(H));
    REQUIRE(grad.dc.size() == std::size_t(H));
    REQUIRE(grad.dh_initial.size() == std::size_t(H));

    const double eps = 1e-6;
    auto fd = [&](auto perturb) {
      rnn::Weights wp = w, wm = w;
      std::vector<double> hp = h0, hm = h0;
      perturb(wp, hp, eps);
      perturb(wm, hm, -eps);
      return (rnn::weighted_output_sum(wp, x, g, hp) - rnn::weighted_output_sum(wm, x, g, hm)) / (2 * eps);
    };
    std::vector<double> dW(grad.dW.size()), du(H), dc(H), dh(H);
    for (std::size_t i = 0; i < dW.size(); ++i) dW[i] = fd([i](rnn::Weights& v, auto&, double e) { v.W[i] += e; });
    for (int j = 0; j < H; ++j) {
      du[j] = fd([j](rnn::Weights& v, auto&, double e) { v.u[j] += e; });
      dc[j] = fd([j](rnn::Weights& v, auto&, double e) { v.c[j] += e; });
      dh[j] = fd([j](rnn::Weights&, auto& h, double e) { h[j] += e; });
    }
    const common::Tolerance tol{1e-7, 1e-5};
    CHECK_CLOSE("dW, L = " << length, common::compare(grad.dW, dW, tol));
    CHECK_CLOSE("du, L = " << length, common::compare(grad.du, du, tol));
    CHECK_CLOSE("dc, L = " << length, common::compare(grad.dc, dc, tol));
    CHECK_CLOSE("dh_initial, L = " << length, common::compare(grad.dh_initial, dh, tol));
  }
}

TEST_CASE("exercise 3: the step kernel (kernel 1) matches fp64", "[exercise][gpu]") {
  REQUIRE_GPU();
  for (auto [batch, length] : {std::pair{1, 1}, std::pair{7, 5}, std::pair{300, 33}}) {
    for (int hidden : {16, 32}) {
      const auto w = rnn::random_weights(hidden, 0.9, 14);
      const auto s = rnn::random_sequences(batch, length, 14);
      for (Activation f : {Activation::tanh, Activation::identity}) {
        const auto expected = rnn::run_cpu<double>(w, s, f);
        rnn::GpuRnn gpu(w, s);
        gpu.poison_outputs();
        gpu.run(rnn::Kernel::step_per_launch, f);
        CHECK_CLOSE("y of kernel 1, " << rnn::name(f) << ", batch " << batch << ", L " << length << ", H " << hidden,
                    common::compare(gpu.y(), expected.y, {2e-5, 1e-4}));
      }
    }
  }
}
