// Packed sequences' own final states in fp64 (sequence_states.hpp): the starts read from seq_idx,
// and each sequence's final state checked against the packed row's own recurrence cut at that
// sequence's end, with and without initial states.
#include "ch10_test_support.hpp"
#include "sequence_states.hpp"
#include "ssd_chunked.hpp"
#include "ssd_reference.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

TEST_CASE("sequence_starts reads where each packed sequence starts") {
  ch10::ProblemSpec spec;
  spec.shape = {1, 9, 2, 3, 1, 4};
  spec.packing = {{3, 1, 5}};
  CHECK(ch10::sequence_starts(ch10::make_problem(spec, 1)) == std::vector<std::int64_t>{0, 3, 4, 9});
  ch10::Problem skipped = ch10::make_problem(spec, 1);
  for (std::int64_t t = 4; t < 9; ++t) skipped.seq_idx[std::size_t(t)] = 3;  // 0 0 0 1 3 ...: no 2
  CHECK_THROWS_AS(ch10::sequence_starts(skipped), std::invalid_argument);
  spec.shape.batch = 2;
  spec.packing = {{3, 1, 5}, {9}};
  CHECK_THROWS_AS(ch10::sequence_starts(ch10::make_problem(spec, 1)), std::invalid_argument);
}

TEST_CASE("each packed sequence's final state is the packed row's state at its end") {
  for (bool initial : {false, true}) {
    ch10::ProblemSpec spec;
    spec.shape = {1, 40, 4, 3, 2, 5};
    spec.packing = {{1, 12, 7, 20}};
    spec.initial_states = initial, spec.z = true, spec.dt_softplus = true, spec.dt_bias = true;
    const ch10::Problem p = ch10::make_problem(spec, 5 + unsigned(initial));
    INFO(ch10_test::describe(spec));
    const std::vector<double> got = ch10::sequence_final_states(p);
    const std::vector<std::int64_t> starts = ch10::sequence_starts(p);
    const std::size_t per_sequence = ch10::Index{p.shape}.state_size();
    REQUIRE(got.size() == per_sequence * (starts.size() - 1));
    for (std::size_t n = 0; n + 1 < starts.size(); ++n) {
      // The row up to this sequence's end, its resets and all: its final state is this sequence's.
      const std::vector<double> row_state = ch10::ssd_recurrence(ch10_test::slice(p, 0, starts[n + 1])).final_states;
      const std::vector<double> one(got.begin() + std::ptrdiff_t(n * per_sequence),
                                    got.begin() + std::ptrdiff_t((n + 1) * per_sequence));
      INFO("sequence " << n);
      CHECK_CLOSE("its final state", common::compare(one, row_state, ch10::kFormsTolerance));
    }
  }
}

// Version 2's kernel for them (sequence_final_states_kernel in ssd/v2_chunked.cu) does this, in
// fp32 on the GPU: from the chunked stages, a sequence ending at l in chunk c takes the state
// entering c where it began before c (or is sequence 0, whose initial states enter chunk 0),
// decays it by exp(acs_l), and adds its own terms in the chunk. The same in fp64 must give the
// definition, chunks of any size.
TEST_CASE("the chunked stages give each packed sequence's final state as version 2 computes it") {
  ch10::ProblemSpec spec;
  spec.shape = {1, 45, 4, 3, 2, 5};
  spec.packing = {{2, 13, 1, 9, 20}};
  spec.initial_states = true, spec.dt_softplus = true;
  const ch10::Problem p = ch10::make_problem(spec, 17);
  const std::vector<double> want = ch10::sequence_final_states(p);
  const std::vector<std::int64_t> starts = ch10::sequence_starts(p);
  const ch10::Shape& s = p.shape;
  const ch10::Index at{s};
  for (std::int64_t size : {1, 4, 8, 16, 64}) {
    const ch10::Chunking chunks = ch10::chunking(p, size);
    const ch10::ChunkIndex ci{s, chunks};
    const ch10::ChunkCumsum cumsum = ch10::chunk_cumsum(p, chunks);
    const ch10::PassedStates passed = ch10::pass_states(p, chunks, cumsum, ch10::chunk_states(p, chunks, cumsum));
    std::vector<double> got;
    for (std::size_t n = 0; n + 1 < starts.size(); ++n)
      for (int h = 0; h < s.heads; ++h)
        for (int i = 0; i < s.head_dim; ++i)
          for (int k = 0; k < s.dstate; ++k) {
            const std::int64_t begin = starts[n], last = starts[n + 1] - 1, c = last / size, first = c * size;
            double state = 0.0;
            if (begin < first || begin == 0)
              state = std::exp(cumsum.dA_cumsum[ci.cumsum(0, h, last)]) * passed.entering[ci.state(0, c, h, i, k)];
            for (std::int64_t j = std::max(begin, first); j <= last; ++j)
              state += std::exp(cumsum.dA_cumsum[ci.cumsum(0, h, last)] - cumsum.dA_cumsum[ci.cumsum(0, h, j)]) *
                       cumsum.dt[ci.cumsum(0, h, j)] * p.x[at.x(0, j, h, i)] * p.B[at.bc(0, j, at.group(h), k)];
            got.push_back(state);
          }
    INFO("chunks of " << size);
    CHECK_CLOSE("each sequence's final state", common::compare(got, want, ch10::kFormsTolerance));
  }
}
