// Chapter 10's GPU exercise (exercise 2: version 2's decay mask, ssd/v2_decay_mask.cu). In the
// `exercises` preset the stub runs here, and every case must fail until the reader writes the
// kernel. Each case runs the library's forward with version 2 and compares y and the final states
// with the fp64 recurrence: M reaches y only, and every position past a chunk's first reads it.
// y is NaN before each call (gpu_forward poisons it).
#include "gpu_checks.hpp"
#include "gpu_test.hpp"
#include "ssd.hpp"

#include <catch2/catch.hpp>

#include <cstdint>

using ch10::ProblemSpec;

namespace {

// spec_of's problem with dt through softplus and a dt_bias.
ProblemSpec softplus_spec_of(std::int64_t batch, std::int64_t seqlen, int heads, int groups, int head_dim, int dstate) {
  ProblemSpec spec = ch10_test::spec_of(batch, seqlen, heads, groups, head_dim, dstate);
  spec.dt_softplus = spec.dt_bias = true;
  return spec;
}

}  // namespace

TEST_CASE("exercise 2: the decay mask of one sequence and chunks that do not divide it", "[exercise][gpu]") {
  REQUIRE_GPU();
  // Four heads in two groups (each head reads its group's C Bᵀ); 37 positions in chunks of 8
  // (the last one 5 long) and of 64 (one chunk longer than the sequence).
  ch10_test::check_forward(softplus_spec_of(2, 37, 4, 2, 6, 5), ssd::DataType::float32, ssd::Kernel::chunked, 8, 1);
  ch10_test::check_forward(softplus_spec_of(2, 37, 4, 2, 6, 5), ssd::DataType::float32, ssd::Kernel::chunked, 64, 2);
  ch10_test::check_forward(softplus_spec_of(1, 300, 3, 1, 8, 16), ssd::DataType::bfloat16, ssd::Kernel::chunked, 32, 3);
}

TEST_CASE("exercise 2: the decay mask where packed sequences start inside a chunk", "[exercise][gpu]") {
  REQUIRE_GPU();
  ProblemSpec spec = softplus_spec_of(2, 40, 4, 2, 4, 8);
  spec.packing = {{3, 14, 23}, {1, 7, 32}};
  ch10_test::check_forward(spec, ssd::DataType::float32, ssd::Kernel::chunked, 16, 4);
}
