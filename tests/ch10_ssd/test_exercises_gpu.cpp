// Chapter 10's GPU exercise (exercise 2: version 2's decay mask, ssd/v2_decay_mask.cu). In the
// `exercises` preset the stub runs here, and every case must fail until the reader writes the
// kernel. Each case runs the library's forward with version 2 and compares y and the final states
// with the fp64 recurrence: M reaches y only, and every position past a chunk's first reads it.
// y is NaN before each call (gpu_forward poisons it).
#include "ch10_test_support.hpp"
#include "device_problem.hpp"
#include "device_ssd.hpp"
#include "gpu_test.hpp"
#include "ssd.hpp"
#include "ssd_reference.hpp"

#include <catch2/catch.hpp>

#include <cstdint>

using ch10::ProblemSpec;

namespace {

ProblemSpec spec_of(std::int64_t batch, std::int64_t seqlen, int heads, int groups, int head_dim, int dstate) {
  ProblemSpec spec;
  spec.shape = {batch, seqlen, heads, head_dim, groups, dstate};
  spec.dt_softplus = spec.dt_bias = true;
  return spec;
}

void check_version_2(const ProblemSpec& spec, ssd::DataType type, std::int64_t chunk, unsigned seed) {
  INFO((type == ssd::DataType::float32 ? "fp32" : "bf16") << ", chunk " << chunk << ", " << ch10_test::describe(spec));
  const ch10::Problem p = ch10::as_gpu_sees(ch10::make_problem(spec, seed), type);
  const ch10::Forward got = ch10::gpu_forward(p, type, ssd::Kernel::chunked, chunk);
  const ch10::Forward ref = ch10::ssd_recurrence(p);
  CHECK_CLOSE("y", common::compare(got.y, ch08::round_to(ref.y, type), ch10::gpu_tolerance(type, ref.y)));
  CHECK_CLOSE("final states",
              common::compare(got.final_states, ref.final_states, ch10::gpu_tolerance(type, ref.final_states)));
}

}  // namespace

TEST_CASE("exercise 2: the decay mask of one sequence and chunks that do not divide it", "[exercise][gpu]") {
  REQUIRE_GPU();
  // Four heads in two groups (each head reads its group's C Bᵀ); 37 positions in chunks of 8
  // (the last one 5 long) and of 64 (one chunk longer than the sequence).
  check_version_2(spec_of(2, 37, 4, 2, 6, 5), ssd::DataType::float32, 8, 1);
  check_version_2(spec_of(2, 37, 4, 2, 6, 5), ssd::DataType::float32, 64, 2);
  check_version_2(spec_of(1, 300, 3, 1, 8, 16), ssd::DataType::bfloat16, 32, 3);
}

TEST_CASE("exercise 2: the decay mask where packed sequences start inside a chunk", "[exercise][gpu]") {
  REQUIRE_GPU();
  ProblemSpec spec = spec_of(2, 40, 4, 2, 4, 8);
  spec.packing = {{3, 14, 23}, {1, 7, 32}};
  check_version_2(spec, ssd::DataType::float32, 16, 4);
}
