// The chunked backward (ssd_chunked_backward.hpp) gives the adjoint recurrence's gradients
// (ssd_backward) for every chunk size, on the awkward shapes the forward tests use: lengths no
// chunk divides, chunk 1 and chunks longer than the sequence, groups, 1 and 64 states, D per head
// and per channel, the gate, softplus, an active clamp, initial states, dfinal_states, and packed
// sequences of 1, 7 and 300. And its reverse scan across chunks holds, at every chunk's first
// position, the recurrence's gradient of the state entering there: ssd_backward's dinitial_states
// for the sequence from that position on.
//
// Tolerance: the two backwards sum the same terms in different orders, so they agree to rounding:
// the worst error measured on these problems is 5.7e-14 absolute; 1e-11 (absolute and relative)
// sits far above it, while a lost term (dropping pass_states' share of dA_cumsum puts ddt off by 4.7)
// is off by 1e-3 or more.
#include "ch10_test_support.hpp"
#include "ssd_backward.hpp"
#include "ssd_chunked_backward.hpp"

#include <cstdint>
#include <random>
#include <vector>

using ch10::DForm;
using ch10::Gradients;
using ch10::Problem;
using ch10::ProblemSpec;

namespace {

using ch10_test::normals;

constexpr common::Tolerance kChunkedBackwardTolerance{1e-11, 1e-11};

using ch10_test::spec_of;

void check_block(const char* name, const std::vector<double>& chunked, const std::vector<double>& ref) {
  INFO(name);
  REQUIRE(chunked.size() == ref.size());
  if (!ref.empty()) CHECK_CLOSE(name, common::compare(chunked, ref, kChunkedBackwardTolerance));
}

// The gradient of the state entering chunk c, by the recurrence: ssd_backward of the sequence
// from the chunk's first position on, started from initial states (any: the gradient does not
// depend on them), with the same dy and dfinal. Laid out (batch, chunks, heads, head_dim, dstate).
std::vector<double> entering_gradients_by_recurrence(const Problem& p, const std::vector<double>& dy,
                                                     const std::vector<double>& dfinal, const ch10::Chunking& chunks) {
  const ch10::Shape& s = p.shape;
  const ch10::Index at{s};
  const std::size_t per_row = std::size_t(s.heads * s.head_dim) * std::size_t(s.dstate);
  std::vector<double> out(std::size_t(s.batch * chunks.count()) * per_row);
  for (std::int64_t c = 0; c < chunks.count(); ++c) {
    Problem rest = ch10_test::slice(p, chunks.begin(c), s.seqlen);
    rest.initial_states.assign(at.state_size(), 0.0);
    const Gradients g = ch10::ssd_backward(rest, ch10_test::x_slice(p, dy, chunks.begin(c), s.seqlen), dfinal);
    for (std::int64_t b = 0; b < s.batch; ++b)
      for (std::size_t e = 0; e < per_row; ++e)
        out[std::size_t(b * chunks.count() + c) * per_row + e] = g.dinitial_states[std::size_t(b) * per_row + e];
  }
  return out;
}

void check_chunked_backward(const ProblemSpec& spec, const std::vector<std::int64_t>& chunk_sizes, bool with_dfinal,
                            unsigned seed) {
  INFO(ch10_test::describe(spec) << (with_dfinal ? ", dfinal" : "") << ", seed " << seed);
  const Problem p = ch10::make_problem(spec, seed);
  const ch10::Index at{p.shape};
  const std::vector<double> dy = normals(at.x_size(), seed + 1000);
  const std::vector<double> dfinal = with_dfinal ? normals(at.state_size(), seed + 2000) : std::vector<double>{};
  const Gradients ref = ch10::ssd_backward(p, dy, dfinal);
  for (const std::int64_t chunk : chunk_sizes) {
    INFO("chunk " << chunk);
    const ch10::ChunkedBackward stages = ch10::ssd_chunked_backward_stages(p, dy, dfinal, chunk);
    const Gradients& g = stages.grad;
    check_block("dx", g.dx, ref.dx);
    check_block("ddt", g.ddt, ref.ddt);
    check_block("dA", g.dA, ref.dA);
    check_block("dB", g.dB, ref.dB);
    check_block("dC", g.dC, ref.dC);
    check_block("dD", g.dD, ref.dD);
    check_block("dz", g.dz, ref.dz);
    check_block("ddt_bias", g.ddt_bias, ref.ddt_bias);
    check_block("dinitial_states", g.dinitial_states, ref.dinitial_states);
    check_block("dentering (every chunk)", stages.passed.dentering,
                entering_gradients_by_recurrence(p, dy, dfinal, ch10::chunking(p, chunk)));
  }
}

}  // namespace

TEST_CASE("the chunked backward gives the recurrence's gradients on lengths no chunk divides",
          "[ch10][chunked_backward]") {
  ProblemSpec spec = spec_of(2, 37, 4, 1, 5, 16);
  spec.D = DForm::per_channel;
  spec.z = spec.dt_softplus = spec.dt_bias = spec.initial_states = true;
  check_chunked_backward(spec, {1, 16, 36, 37, 64}, true, 1);

  spec = spec_of(1, 45, 4, 2, 1, 1);
  spec.D = DForm::per_head;
  check_chunked_backward(spec, {8, 44, 1000}, false, 2);

  spec = spec_of(1, 40, 4, 2, 3, 64);
  spec.z = spec.dt_softplus = spec.initial_states = true;
  check_chunked_backward(spec, {16, 13}, true, 3);
}

TEST_CASE("the chunked backward gives the recurrence's gradients with an active clamp", "[ch10][chunked_backward]") {
  ProblemSpec spec = spec_of(1, 23, 2, 1, 2, 3);
  spec.D = DForm::per_head;
  spec.dt_bias = spec.initial_states = true;
  spec.dt_limit = {0.005, 0.05};
  check_chunked_backward(spec, {4, 7}, false, 4);
  spec.dt_softplus = true;
  check_chunked_backward(spec, {4, 7}, true, 5);
}

TEST_CASE("the chunked backward gives the recurrence's gradients on packed sequences of 1, 7 and 300",
          "[ch10][chunked_backward]") {
  ProblemSpec spec = spec_of(2, 308, 2, 2, 2, 4);
  spec.D = DForm::per_channel;
  spec.z = spec.dt_softplus = spec.dt_bias = spec.initial_states = true;
  spec.packing = {{1, 7, 300}, {300, 7, 1}};
  check_chunked_backward(spec, {64, 7, 308}, true, 6);

  spec = spec_of(1, 16, 1, 1, 1, 2);
  spec.initial_states = true;
  spec.packing = {{1, 7, 1, 7}};
  check_chunked_backward(spec, {1, 2, 8, 16}, false, 7);
}

TEST_CASE("the chunked backward refuses gradients of the wrong size", "[ch10][chunked_backward]") {
  const Problem p = ch10::make_problem(spec_of(1, 3, 1, 1, 1, 1), 8);
  CHECK_THROWS_WITH(ch10::ssd_chunked_backward(p, {1.0}, {}, 2),
                    "ch10 SSD chunked backward: dy has 1 elements, expected 3");
  CHECK_THROWS_WITH(ch10::ssd_chunked_backward(p, {1.0, 1.0, 1.0}, {1.0, 2.0}, 2),
                    "ch10 SSD chunked backward: dfinal_states has 2 elements, expected 1");
}
