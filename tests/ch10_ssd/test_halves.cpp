// A run cut in two: the recurrence over the first half, its final states handed to the second
// half as initial states, is the run over the whole sequence -- its outputs and final states,
// and every gradient, the gradient of the first half's final states being what the second half's
// backward returns for its initial states. What a kernel that carries the state from one call to
// the next (a long sequence in pieces, one sequence across GPUs) relies on.
#include "ch10_test_support.hpp"
#include "ssd_backward.hpp"
#include "ssd_reference.hpp"

#include <random>
#include <vector>

using ch10::DForm;
using ch10::Forward;
using ch10::Gradients;
using ch10::Problem;
using ch10::ProblemSpec;

namespace {

using ch10_test::normals;

std::vector<double> sum(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> out(a);
  for (std::size_t e = 0; e < out.size(); ++e) out[e] += b[e];
  return out;
}

constexpr common::Tolerance kExact{0.0, 0.0};

// A gradient of two halves against the whole run's; an absent input's gradient is empty in both.
void check_gradient(const char* name, const std::vector<double>& halves, const std::vector<double>& whole) {
  if (whole.empty()) {
    INFO(name << ": the input is absent");
    CHECK(halves.empty());
    return;
  }
  // The per-head sums (dA, dD, ddt_bias) add their terms in another order: equal to rounding.
  CHECK_CLOSE(name, common::compare(halves, whole, ch10::kFormsTolerance));
}

void check_halves(const ProblemSpec& spec, std::int64_t cut, unsigned seed) {
  INFO(ch10_test::describe(spec) << ", cut at " << cut << ", seed " << seed);
  const Problem p = ch10::make_problem(spec, seed);
  const ch10::Index at{p.shape};
  const std::int64_t batch = p.shape.batch;

  // The forward: the same arithmetic in the same order, so the same numbers to the last bit.
  Problem first = ch10_test::slice(p, 0, cut);
  Problem second = ch10_test::slice(p, cut, p.shape.seqlen);
  const Forward whole = ch10::ssd_recurrence(p);
  const Forward first_run = ch10::ssd_recurrence(first);
  second.initial_states = first_run.final_states;
  const Forward second_run = ch10::ssd_recurrence(second);
  CHECK_CLOSE("y", common::compare(ch10_test::joined(first_run.y, second_run.y, batch), whole.y, kExact));
  CHECK_CLOSE("final states", common::compare(second_run.final_states, whole.final_states, kExact));
  // The chunked form cut the same way, with a chunk that divides neither half.
  const Forward first_chunked = ch10::ssd_chunked(first, 16);
  second.initial_states = first_chunked.final_states;
  const Forward second_chunked = ch10::ssd_chunked(second, 16);
  CHECK_CLOSE("chunked y", common::compare(ch10_test::joined(first_chunked.y, second_chunked.y, batch), whole.y,
                                           ch10::kFormsTolerance));
  CHECK_CLOSE("chunked final states",
              common::compare(second_chunked.final_states, whole.final_states, ch10::kFormsTolerance));
  second.initial_states = first_run.final_states;

  // The backward: the second half first, from dfinal; its dinitial_states is the first half's dfinal.
  const std::vector<double> dy = normals(at.x_size(), seed + 1000);
  const std::vector<double> dfinal = normals(at.state_size(), seed + 2000);
  const Gradients all = ch10::ssd_backward(p, dy, dfinal);
  const Gradients late = ch10::ssd_backward(second, ch10_test::x_slice(p, dy, cut, p.shape.seqlen), dfinal);
  const Gradients early = ch10::ssd_backward(first, ch10_test::x_slice(p, dy, 0, cut), late.dinitial_states);
  check_gradient("dx", ch10_test::joined(early.dx, late.dx, batch), all.dx);
  check_gradient("ddt", ch10_test::joined(early.ddt, late.ddt, batch), all.ddt);
  check_gradient("dB", ch10_test::joined(early.dB, late.dB, batch), all.dB);
  check_gradient("dC", ch10_test::joined(early.dC, late.dC, batch), all.dC);
  check_gradient("dz", ch10_test::joined(early.dz, late.dz, batch), all.dz);
  check_gradient("dA", sum(early.dA, late.dA), all.dA);
  check_gradient("dD", sum(early.dD, late.dD), all.dD);
  check_gradient("ddt_bias", sum(early.ddt_bias, late.ddt_bias), all.ddt_bias);
  check_gradient("dinitial_states", early.dinitial_states, all.dinitial_states);
}

}  // namespace

TEST_CASE("two halves run one after the other are one run: forward and gradients", "[ch10][halves]") {
  ProblemSpec spec;
  spec.shape = {2, 64, 4, 3, 2, 5};
  spec.D = DForm::per_channel;
  spec.z = spec.dt_softplus = spec.dt_bias = spec.initial_states = true;
  check_halves(spec, 32, 1);
  check_halves(spec, 37, 2);
  spec.D = DForm::per_head;
  spec.z = spec.dt_softplus = false;
  check_halves(spec, 1, 3);
}

TEST_CASE("two halves are one run across packed sequences, cut inside one or between two", "[ch10][halves][seq_idx]") {
  ProblemSpec spec;
  spec.shape = {2, 308, 4, 2, 2, 4};
  spec.packing = {{1, 7, 300}, {300, 7, 1}};
  spec.D = DForm::per_head;
  spec.z = spec.dt_softplus = spec.dt_bias = spec.initial_states = true;
  check_halves(spec, 154, 4);  // inside the sequence of 300 in both rows
  check_halves(spec, 8, 5);    // row 0: a new sequence starts at the cut; row 1: inside one
  check_halves(spec, 1, 6);    // row 0: the sequence of length 1 is the whole first half
}
