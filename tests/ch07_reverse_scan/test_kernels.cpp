// Every GPU version against the fp64 reverse pass, on awkward sizes, with outputs poisoned.
#include "ch07_test_support.hpp"
#include "gpu_reverse.hpp"
#include "gpu_test.hpp"

namespace {

void check_every_version(rscan::Shape shape, unsigned seed) {
  const Inputs in = random_inputs(shape, seed);
  const auto h = rscan::forward(shape, in.a, in.b);
  const auto dy = rscan::log_cosh_loss_gradient(h, in.target);
  const auto expected = rscan::backward(shape, in.a, h, dy);
  rscan::GpuProblem gpu(shape, rscan::to_float(in.a), rscan::to_float(in.b), rscan::to_float(dy));
  for (const auto& k : rscan::kKernels) {
    gpu.gradients(k.id);
    CHECK_CLOSE(k.name << " dL/db, " << shape.sequences << " x " << shape.length,
                common::compare(gpu.grad_b(), expected.g, kGradB));
    CHECK_CLOSE(k.name << " dL/da, " << shape.sequences << " x " << shape.length,
                common::compare(gpu.grad_a(), expected.grad_a, kGradA));
  }
}

}  // namespace

TEST_CASE("every version matches fp64 on awkward sizes", "[gpu]") {
  REQUIRE_GPU();
  for (std::size_t length : {1, 2, 31, 33, 255, 256, 257, 1000})
    check_every_version({3, length}, 100 + static_cast<unsigned>(length));
}

// Kept apart from the sanitized cases: one block walking 4097 chunks is slow under racecheck.
TEST_CASE("every version matches fp64 on one sequence of 2^20 + 7 steps", "[gpu]") {
  REQUIRE_GPU();
  check_every_version({1, (std::size_t(1) << 20) + 7}, 1);
}

TEST_CASE("every version handles many sequences (batch x channels x states)", "[gpu]") {
  REQUIRE_GPU();
  check_every_version({2 * 5 * 16, 1000}, 2);  // batch 2, 5 channels, 16 states
  check_every_version({1000, 1}, 3);
  check_every_version({131, 33}, 4);  // more sequences than one block of version 1 holds
}

TEST_CASE("every version matches finite differences in fp64 terms", "[gpu]") {
  REQUIRE_GPU();
  const Inputs in = random_inputs({4, 33}, 5);
  const auto h = rscan::forward(in.shape, in.a, in.b);
  const auto fd = rscan::finite_differences(in.shape, in.a, in.b, in.target, 1e-6);
  rscan::GpuProblem gpu(in.shape, rscan::to_float(in.a), rscan::to_float(in.b),
                        rscan::to_float(rscan::log_cosh_loss_gradient(h, in.target)));
  for (const auto& k : rscan::kKernels) {
    gpu.gradients(k.id);
    CHECK_CLOSE(k.name << " dL/db vs finite differences", common::compare(gpu.grad_b(), fd.g, kGradB));
    CHECK_CLOSE(k.name << " dL/da vs finite differences", common::compare(gpu.grad_a(), fd.grad_a, kGradA));
  }
}
