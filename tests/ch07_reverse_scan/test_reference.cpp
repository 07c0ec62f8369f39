// The formulas of the text, checked on the CPU in fp64.
#include "ch07_test_support.hpp"
#include "gpu_reverse.hpp"

#include <cmath>

TEST_CASE("the reverse pass matches central finite differences of the loss") {
  for (std::size_t length : {1, 2, 5, 31, 33}) {
    const Inputs in = random_inputs({3, length}, 7 + static_cast<unsigned>(length));
    const auto h = rscan::forward(in.shape, in.a, in.b);
    const auto grads = rscan::backward(in.shape, in.a, h, rscan::log_cosh_loss_gradient(h, in.target));
    const auto fd = rscan::finite_differences(in.shape, in.a, in.b, in.target, 1e-6);
    CHECK_CLOSE("dL/db vs finite differences, L = " << length, common::compare(grads.g, fd.g, {1e-8, 1e-6}));
    CHECK_CLOSE("dL/da vs finite differences, L = " << length, common::compare(grads.grad_a, fd.grad_a, {1e-8, 1e-6}));
  }
}

TEST_CASE("a wrong gradient is caught by the finite differences") {
  const Inputs in = random_inputs({1, 9}, 3);
  const auto h = rscan::forward(in.shape, in.a, in.b);
  auto grads = rscan::backward(in.shape, in.a, h, rscan::log_cosh_loss_gradient(h, in.target));
  grads.g[4] += 1e-4;
  const auto fd = rscan::finite_differences(in.shape, in.a, in.b, in.target, 1e-6);
  CHECK_FALSE(common::compare(grads.g, fd.g, {1e-8, 1e-6}).ok);
}

TEST_CASE("forward is the recurrence h_k = a_k h_{k-1} + b_k, restarted for each sequence") {
  const std::vector<double> a{0.5, 2, 3, 0.5, 2, 3}, b{1, 1, 1, 1, 1, 1};
  const auto h = rscan::forward({2, 3}, a, b);
  CHECK(h == std::vector<double>{1, 3, 10, 1, 3, 10});
}

TEST_CASE("with the loss on the last step only, g_k = a^(L-1-k) for a constant a") {
  const std::size_t length = 40;
  const double decay = 0.8;
  std::vector<double> a(length, decay), dy(length, 0.0), expected(length);
  dy.back() = 1.0;
  for (std::size_t k = 0; k < length; ++k) expected[k] = std::pow(decay, double(length - 1 - k));
  CHECK_CLOSE("g", common::compare(rscan::reverse_pass({1, length}, a, dy), expected, {0, 1e-14}));
}

TEST_CASE("the memory model: version 4 keeps one state per chunk") {
  const rscan::Shape shape{6, 1000};
  CHECK(rscan::bytes_kept_for_h(rscan::Kernel::block_reverse, shape) == 6 * 1000 * sizeof(float));
  CHECK(rscan::bytes_kept_for_h(rscan::Kernel::recompute_h, shape) == 6 * 4 * sizeof(float));
  CHECK(rscan::bytes_moved_per_step(rscan::Kernel::block_reverse, shape) == 8 * 6000 * sizeof(float));
  CHECK(rscan::bytes_moved_per_step(rscan::Kernel::recompute_h, shape) == 9 * 6000 * sizeof(float));
}
