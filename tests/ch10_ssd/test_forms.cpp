// The three forward forms (the recurrence, the quadratic form, the chunked algorithm) agree on
// small and awkward problems: lengths that no chunk size divides, one head, groups, 1 and 256
// states, 1 and 5 channels a head, D per head and per channel, the gate, softplus, an active
// clamp, initial states and packed sequences. And the chunked algorithm's stages hold what
// ssd_chunked.hpp says they hold.
#include "ch10_test_support.hpp"
#include "ssd_chunked.hpp"
#include "ssd_reference.hpp"

#include <cstdint>
#include <string>
#include <vector>

using ch10::DForm;
using ch10::Forward;
using ch10::Problem;
using ch10::ProblemSpec;

namespace {

using ch10_test::spec_of;

// Every form against the recurrence, for each chunk size.
void check_forms(const ProblemSpec& spec, const std::vector<std::int64_t>& chunk_sizes, unsigned seed) {
  INFO(ch10_test::describe(spec) << ", seed " << seed);
  const Problem p = ch10::make_problem(spec, seed);
  const Forward ref = ch10::ssd_recurrence(p);
  const Forward quadratic = ch10::ssd_quadratic(p);
  CHECK_CLOSE("quadratic y", common::compare(quadratic.y, ref.y, ch10::kFormsTolerance));
  CHECK_CLOSE("quadratic final states",
              common::compare(quadratic.final_states, ref.final_states, ch10::kFormsTolerance));
  for (const std::int64_t chunk : chunk_sizes) {
    INFO("chunk " << chunk);
    const Forward chunked = ch10::ssd_chunked(p, chunk);
    CHECK_CLOSE("chunked y", common::compare(chunked.y, ref.y, ch10::kFormsTolerance));
    CHECK_CLOSE("chunked final states", common::compare(chunked.final_states, ref.final_states, ch10::kFormsTolerance));
  }
}

}  // namespace

TEST_CASE("the three forms agree on lengths no chunk divides", "[ch10][forms]") {
  ProblemSpec spec = spec_of(2, 37, 4, 1, 5, 16);
  spec.D = DForm::per_channel;
  spec.z = spec.dt_softplus = spec.dt_bias = spec.initial_states = true;
  check_forms(spec, {1, 16, 36, 37, 64}, 1);

  spec = spec_of(1, 300, 4, 2, 1, 1);
  spec.D = DForm::per_head;
  check_forms(spec, {16, 64, 299, 1000}, 2);

  spec = spec_of(1, 300, 4, 2, 5, 256);
  spec.z = spec.dt_softplus = spec.initial_states = true;
  check_forms(spec, {16, 64}, 3);
}

TEST_CASE("the three forms agree with one head, groups, 1 and 256 states, 1 and 5 channels", "[ch10][forms]") {
  ProblemSpec spec = spec_of(1, 37, 1, 1, 5, 256);
  spec.dt_softplus = true;
  check_forms(spec, {16, 64}, 3);

  for (const int groups : {1, 2})
    for (const int dstate : {1, 256})
      for (const int head_dim : {1, 5}) {
        spec = spec_of(2, 37, 4, groups, head_dim, dstate);
        spec.D = head_dim == 1 ? DForm::per_head : DForm::per_channel;
        spec.z = dstate == 1;
        spec.initial_states = groups == 2;
        check_forms(spec, {16}, 10u + unsigned(groups * 100 + dstate + head_dim));
      }
}

TEST_CASE("the three forms agree with and without softplus, dt_bias and an active clamp", "[ch10][forms]") {
  for (const bool softplus : {false, true})
    for (const bool bias : {false, true})
      for (const bool limited : {false, true}) {
        ProblemSpec spec = spec_of(2, 45, 4, 2, 3, 8);
        spec.dt_softplus = softplus;
        spec.dt_bias = bias;
        if (limited) spec.dt_limit = {0.005, 0.05};  // the drawn steps lie in [1e-3, 0.1]: both ends cut
        spec.initial_states = true;
        check_forms(spec, {16}, 20u + 4u * softplus + 2u * bias + limited);
      }
}

TEST_CASE("the three forms agree on packed sequences of lengths 1, 7 and 300", "[ch10][forms][seq_idx]") {
  ProblemSpec spec = spec_of(2, 308, 4, 2, 5, 4);
  spec.packing = {{1, 7, 300}, {300, 7, 1}};
  spec.D = DForm::per_channel;
  spec.z = spec.dt_softplus = spec.dt_bias = spec.initial_states = true;
  check_forms(spec, {1, 16, 64, 400}, 30);

  // Sequences that start exactly at chunk boundaries, and one of a chunk's length.
  spec = spec_of(1, 53, 2, 1, 2, 3);
  spec.packing = {{16, 16, 5, 16}};
  spec.initial_states = true;
  check_forms(spec, {16, 8, 32}, 31);
}

TEST_CASE("initial states belong to the sequence numbered 0 alone", "[ch10][forms][seq_idx]") {
  ProblemSpec spec = spec_of(2, 40, 2, 1, 3, 4);
  spec.packing = {{10, 30}, {25, 15}};
  spec.initial_states = true;
  Problem p = ch10::make_problem(spec, 40);
  for (std::int64_t& id : p.seq_idx) id += 1;  // no position is numbered 0 any more
  Problem without = p;
  without.initial_states.clear();
  const Forward ref = ch10::ssd_recurrence(without);
  CHECK_CLOSE("y, recurrence", common::compare(ch10::ssd_recurrence(p).y, ref.y, {0, 0}));
  CHECK_CLOSE("y, quadratic", common::compare(ch10::ssd_quadratic(p).y, ref.y, ch10::kFormsTolerance));
  CHECK_CLOSE("y, chunked", common::compare(ch10::ssd_chunked(p, 16).y, ref.y, ch10::kFormsTolerance));
}

TEST_CASE("the three forms agree on one position and on one chunk", "[ch10][forms]") {
  ProblemSpec spec = spec_of(3, 1, 4, 2, 2, 5);
  spec.D = DForm::per_head;
  spec.z = spec.initial_states = true;
  check_forms(spec, {1, 64}, 50);
}

TEST_CASE("a chunk size below 1 is refused", "[ch10][forms]") {
  const Problem p = ch10::make_problem(spec_of(1, 4, 1, 1, 1, 1), 60);
  CHECK_THROWS_WITH(ch10::ssd_chunked(p, 0), "ch10 SSD: chunk_size must be at least 1, got 0");
}

TEST_CASE("the chunked stages hold what their header says", "[ch10][forms][stages]") {
  ProblemSpec spec = spec_of(2, 37, 4, 2, 3, 5);
  spec.dt_softplus = spec.dt_bias = spec.initial_states = true;
  const Problem p = ch10::make_problem(spec, 70);
  const ch10::Chunking chunks = ch10::chunking(p, 16);
  REQUIRE(chunks.count() == 3);
  REQUIRE(chunks.end(2) == 37);
  const ch10::ChunkCumsum cumsum = ch10::chunk_cumsum(p, chunks);
  const std::vector<double> steps = ch10::step_sizes(p);
  const ch10::Index at{p.shape};

  SECTION("cumsum: dt' and its running sum times A, restarting at every chunk") {
    for (std::int64_t b = 0; b < 2; ++b)
      for (int h = 0; h < 4; ++h) {
        const std::size_t row = std::size_t((b * 4 + h) * 37);
        for (std::int64_t t = 0; t < 37; ++t) {
          CHECK(cumsum.dt[row + std::size_t(t)] == steps[at.dt(b, t, h)]);
          const double before = t % 16 == 0 ? 0.0 : cumsum.dA_cumsum[row + std::size_t(t) - 1];
          CHECK(cumsum.dA_cumsum[row + std::size_t(t)] == before + steps[at.dt(b, t, h)] * p.A[std::size_t(h)]);
        }
      }
  }
  SECTION("C·B: a group's products inside a chunk, zero past the end") {
    const std::vector<double> cb = ch10::chunk_cb(p, chunks);
    REQUIRE(cb.size() == std::size_t(2 * 3 * 2 * 16 * 16));
    const std::int64_t b = 1, c = 2, i = 3, j = 1;
    const int g = 1;
    double expected = 0.0;
    for (int k = 0; k < 5; ++k) expected += p.C[at.bc(b, 32 + i, g, k)] * p.B[at.bc(b, 32 + j, g, k)];
    CHECK(cb[std::size_t((((b * 3 + c) * 2 + g) * 16 + i) * 16 + j)] == expected);
    CHECK(cb[std::size_t((((b * 3 + c) * 2 + g) * 16 + 5) * 16 + 1)] == 0.0);  // row 32 + 5 = 37: past the end
  }
  SECTION("the state entering each chunk is the recurrence's state before the chunk") {
    const ch10::PassedStates passed = ch10::pass_states(p, chunks, cumsum, ch10::chunk_states(p, chunks, cumsum));
    const std::size_t per_chunk = std::size_t(4 * 3 * 5);
    for (std::int64_t c = 0; c < chunks.count(); ++c) {
      INFO("chunk " << c);
      // Before chunk 0: the initial states; before chunk c: the final states of the first c chunks.
      const std::vector<double> expected =
          c == 0 ? p.initial_states : ch10::ssd_recurrence(ch10_test::slice(p, 0, chunks.begin(c))).final_states;
      std::vector<double> entering;
      for (std::int64_t b = 0; b < 2; ++b) {
        const auto first = passed.entering.begin() + std::ptrdiff_t((b * 3 + c) * std::int64_t(per_chunk));
        entering.insert(entering.end(), first, first + std::ptrdiff_t(per_chunk));
      }
      CHECK_CLOSE("entering states", common::compare(entering, expected, ch10::kFormsTolerance));
    }
  }
}
