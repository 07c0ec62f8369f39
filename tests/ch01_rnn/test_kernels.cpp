// Every GPU version of chapter 01 against the fp64 reference, on awkward sizes, with the
// outputs poisoned (NaN) before each run so that an element left unwritten fails.
#include "ch01_test_support.hpp"
#include "gpu_rnn.hpp"
#include "gpu_test.hpp"
#include "reference.hpp"

using rnn::Activation;

TEST_CASE("every kernel matches fp64 on awkward sizes", "[gpu]") {
  REQUIRE_GPU();
  // 1 × 1; a prime; one less and one more than a warp (31, 33) and a block (127, 129); a
  // length that is not a multiple of kernel 3's 32-step chunks.
  const std::pair<int, int> sizes[] = {{1, 1}, {2, 2}, {31, 33}, {33, 31}, {127, 65}, {129, 97}, {1000, 37}};
  for (const auto& info : rnn::kKernels) {
    for (int hidden : rnn::kHiddenSizes) {
      const auto w = rnn::random_weights(hidden, 0.9, 21);
      for (auto [batch, length] : sizes) {
        const auto s = rnn::random_sequences(batch, length, 22);
        for (Activation f : {Activation::tanh, Activation::identity}) {
          const auto expected = rnn::run_cpu<double>(w, s, f);
          rnn::GpuRnn gpu(w, s);
          gpu.poison_outputs();
          gpu.run(info.id, f);
          const std::string input = std::string(info.name) + ", " + rnn::name(f) + ", H " + std::to_string(hidden) +
                                    ", batch " + std::to_string(batch) + ", L " + std::to_string(length);
          CHECK_CLOSE("y of " << input, common::compare(gpu.y(), expected.y, {2e-5, 1e-4}));
          CHECK_CLOSE("h_L of " << input, common::compare(gpu.h_final(), expected.h_final, {2e-5, 1e-4}));
        }
      }
    }
  }
}

TEST_CASE("the kernels agree with each other over a long sequence", "[gpu]") {
  REQUIRE_GPU();
  const auto w = rnn::random_weights(32, 0.95, 23);
  const auto s = rnn::random_sequences(64, 5000, 24);
  const auto expected = rnn::run_cpu<double>(w, s, Activation::tanh);
  for (const auto& info : rnn::kKernels) {
    rnn::GpuRnn gpu(w, s);
    gpu.poison_outputs();
    gpu.run(info.id, Activation::tanh);
    CHECK_CLOSE(info.name << " over 5000 steps", common::compare(gpu.y(), expected.y, {2e-5, 1e-4}));
  }
}

TEST_CASE("shapes the kernels cannot take are refused before any launch", "[gpu]") {
  REQUIRE_GPU();
  auto w = rnn::random_weights(24, 0.9, 25);  // H = 24 has no compiled kernel
  const auto s = rnn::random_sequences(4, 4, 25);
  rnn::GpuRnn gpu(w, s);
  CHECK_THROWS_WITH(gpu.run(rnn::Kernel::thread_per_sequence, Activation::tanh), Catch::Contains("16 or 32"));
}

TEST_CASE("a problem too large for the GPU is refused with a clear message", "[gpu]") {
  REQUIRE_GPU();
  CHECK_THROWS_WITH(rnn::GpuRnn(rnn::random_weights(16, 0.9, 1), rnn::Sequences{1 << 24, 1 << 14, {}}),
                    Catch::Contains("--batch × --length needs"));
}
