// Exercise 1: one row of the decay matrix (chapters/10_ssd/exercises/decay_row.cpp).
#include "ch10_test_support.hpp"
#include "decay_row.hpp"
#include "ssd_reference.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using ch10::Problem;

namespace {

// One channel and state, four steps dt' = 0.1, 0.2, 0.3, 0.4 with A = −1: a_k = −dt'_k.
Problem four_steps(std::vector<std::int64_t> seq_idx) {
  ch10::ProblemSpec spec;
  spec.shape = {1, 4, 1, 1, 1, 1};
  Problem p = ch10::make_problem(spec, 1);
  p.dt = {0.1, 0.2, 0.3, 0.4};
  p.A = {-1.0};
  p.seq_idx = std::move(seq_idx);
  return p;
}

}  // namespace

TEST_CASE("exercise 1: decay_row by hand, one sequence and two", "[exercise]") {
  const Problem one = four_steps({});
  const std::vector<double> steps = ch10::step_sizes(one);
  const ch10::DecayRow row = ch10::decay_row(one, steps, 0, 0, 3);
  REQUIRE(row.weights.size() == 4);
  CHECK(row.weights[3] == Approx(1.0));
  CHECK(row.weights[2] == Approx(std::exp(-0.4)));
  CHECK(row.weights[1] == Approx(std::exp(-0.7)));
  CHECK(row.weights[0] == Approx(std::exp(-0.9)));
  CHECK(row.initial == Approx(std::exp(-1.0)));

  // A second sequence starts at position 2: nothing before it reaches position 3, nor the state
  // before position 0; position 1 still sees position 0 and the initial state.
  const Problem two = four_steps({0, 0, 1, 1});
  const ch10::DecayRow late = ch10::decay_row(two, steps, 0, 0, 3);
  REQUIRE(late.weights.size() == 4);
  CHECK(late.weights[3] == Approx(1.0));
  CHECK(late.weights[2] == Approx(std::exp(-0.4)));
  CHECK(late.weights[1] == 0.0);
  CHECK(late.weights[0] == 0.0);
  CHECK(late.initial == 0.0);
  const ch10::DecayRow early = ch10::decay_row(two, steps, 0, 0, 1);
  REQUIRE(early.weights.size() == 2);
  CHECK(early.weights[0] == Approx(std::exp(-0.2)));
  CHECK(early.initial == Approx(std::exp(-0.3)));
}

TEST_CASE("exercise 1: the quadratic form built on decay_row equals the recurrence", "[exercise]") {
  ch10::ProblemSpec spec;
  spec.shape = {2, 37, 4, 5, 2, 16};
  spec.D = ch10::DForm::per_channel, spec.z = spec.dt_softplus = spec.dt_bias = spec.initial_states = true;
  spec.packing = {{9, 28}, {37}};
  const Problem p = ch10::make_problem(spec, 2);
  const ch10::Forward quadratic = ch10::ssd_quadratic(p), recurrence = ch10::ssd_recurrence(p);
  CHECK_CLOSE("y", common::compare(quadratic.y, recurrence.y, ch10::kFormsTolerance));
  CHECK_CLOSE("final states", common::compare(quadratic.final_states, recurrence.final_states, ch10::kFormsTolerance));
}
