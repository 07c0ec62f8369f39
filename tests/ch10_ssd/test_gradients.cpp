// Every gradient of the fp64 backward against central finite differences of the loss
// L = Σ dy ∘ y + Σ dfinal ∘ final_states, on tiny problems that switch every option.
//
// Tolerance (finite_differences.hpp): a central difference with step 1e-6 has a truncation error
// of order 1e-12 here and a rounding error of about eps·|L|/1e-6, a few 1e-9 for these losses
// (the worst error measured is 8.3e-9); atol 1e-7 + rtol 1e-6 sits twelve times above it, while a
// wrong term of the backward (a lost decay, a missing softplus slope, a gradient let through the
// clamp) is off by 1e-3 or more.
#include "ch10_test_support.hpp"
#include "finite_differences.hpp"
#include "ssd_backward.hpp"

#include <random>
#include <vector>

using ch10::DForm;
using ch10::Problem;
using ch10::ProblemSpec;

namespace {

using ch10_test::normals;

void check_block(const char* name, const Problem& p, const std::vector<double>& analytic,
                 std::vector<double> Problem::*field, const std::vector<double>& dy,
                 const std::vector<double>& dfinal) {
  const std::vector<double>& input = p.*field;
  if (input.empty()) {
    INFO(name << ": the input is absent, so must its gradient be");
    CHECK(analytic.empty());
    return;
  }
  CHECK_CLOSE(name, common::compare(analytic, ch10::finite_differences(p, field, dy, dfinal),
                                    ch10::kFiniteDifferenceTolerance));
}

void check_gradients(const ProblemSpec& spec, bool with_dfinal, unsigned seed) {
  INFO(ch10_test::describe(spec) << (with_dfinal ? ", dfinal" : "") << ", seed " << seed);
  const Problem p = ch10::make_problem(spec, seed);
  const ch10::Index at{p.shape};
  const std::vector<double> dy = normals(at.x_size(), seed + 1000);
  const std::vector<double> dfinal = with_dfinal ? normals(at.state_size(), seed + 2000) : std::vector<double>{};
  const ch10::Gradients g = ch10::ssd_backward(p, dy, dfinal);

  check_block("dx", p, g.dx, &Problem::x, dy, dfinal);
  check_block("ddt", p, g.ddt, &Problem::dt, dy, dfinal);
  check_block("dA", p, g.dA, &Problem::A, dy, dfinal);
  check_block("dB", p, g.dB, &Problem::B, dy, dfinal);
  check_block("dC", p, g.dC, &Problem::C, dy, dfinal);
  check_block("dD", p, g.dD, &Problem::D, dy, dfinal);
  check_block("dz", p, g.dz, &Problem::z, dy, dfinal);
  check_block("ddt_bias", p, g.ddt_bias, &Problem::dt_bias, dy, dfinal);
  check_block("dinitial_states", p, g.dinitial_states, &Problem::initial_states, dy, dfinal);
}

using ch10_test::spec_of;

}  // namespace

TEST_CASE("every gradient matches finite differences: every option on, packed sequences", "[ch10][backward]") {
  ProblemSpec spec = spec_of(2, 9, 4, 2, 3, 4);
  spec.D = DForm::per_channel;
  spec.z = spec.dt_softplus = spec.dt_bias = spec.initial_states = true;
  spec.packing = {{1, 3, 5}, {5, 4}};
  check_gradients(spec, true, 1);
}

TEST_CASE("every gradient matches finite differences: D per head, no softplus, an active clamp", "[ch10][backward]") {
  ProblemSpec spec = spec_of(1, 11, 2, 1, 2, 3);
  spec.D = DForm::per_head;
  spec.dt_bias = spec.initial_states = true;
  spec.dt_limit = {0.005, 0.05};
  check_gradients(spec, false, 2);
  spec.dt_softplus = true;
  check_gradients(spec, true, 3);
}

TEST_CASE("every gradient matches finite differences: nothing optional", "[ch10][backward]") {
  check_gradients(spec_of(1, 6, 1, 1, 1, 1), false, 4);
  check_gradients(spec_of(2, 7, 2, 2, 2, 2), true, 5);
}

TEST_CASE("the backward refuses gradients of the wrong size", "[ch10][backward]") {
  const Problem p = ch10::make_problem(spec_of(1, 3, 1, 1, 1, 1), 6);
  CHECK_THROWS_WITH(ch10::ssd_backward(p, {1.0}), "ch10 SSD backward: dy has 1 elements, expected 3");
  CHECK_THROWS_WITH(ch10::ssd_backward(p, {1.0, 1.0, 1.0}, {1.0, 2.0}),
                    "ch10 SSD backward: dfinal_states has 2 elements, expected 1");
}
