// The step's fp64 reference (step_reference.hpp) against chapter 08's reference of the whole
// recurrence: T steps from an initial state are the scan of T tokens, out and last state alike.
#include "reference.hpp"
#include "step_reference.hpp"

#include <catch2/catch.hpp>

#include <cmath>

namespace {

// Token t of a Mamba-1 problem (variable B and C, one group) as one step's inputs.
ch08_step::StepProblem token(const ch08::Problem& scan, std::int64_t t, const std::vector<double>& state) {
  ch08_step::StepProblem s;
  s.batch = s.slots = scan.batch, s.heads = 1, s.head_dim = scan.dim, s.dstate = scan.dstate, s.groups = 1;
  s.softplus = scan.delta_softplus;
  s.state = state;
  const std::int64_t L = scan.seqlen, N = scan.dstate;
  for (std::int64_t bd = 0; bd < scan.batch * scan.dim; ++bd) {
    s.x.push_back(scan.u[std::size_t(bd * L + t)]);
    s.dt.push_back(scan.delta[std::size_t(bd * L + t)]);
    if (scan.has_z) s.z.push_back(scan.z[std::size_t(bd * L + t)]);
  }
  for (std::int64_t b = 0; b < scan.batch; ++b)
    for (std::int64_t n = 0; n < N; ++n) {
      s.B.push_back(scan.B[std::size_t((b * N + n) * L + t)].real());
      s.C.push_back(scan.C[std::size_t((b * N + n) * L + t)].real());
    }
  for (const ch08::Complex& a : scan.A) s.A.push_back(a.real());
  s.D = scan.D, s.dt_bias = scan.delta_bias;
  return s;
}

}  // namespace

TEST_CASE("step reference: T steps are the recurrence of T tokens") {
  ch08::Problem shape;
  shape.batch = 2, shape.dim = 5, shape.seqlen = 37, shape.dstate = 6;
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = shape.has_initial_state = true;
  const ch08::Problem scan = ch08::make_official_test_problem(shape, 41);
  const ch08::ForwardResult whole = ch08::reference_forward(scan);

  std::vector<double> state;
  for (const ch08::Complex& h : scan.initial_state) state.push_back(h.real());
  double worst = 0;
  for (std::int64_t t = 0; t < scan.seqlen; ++t) {
    const ch08_step::StepResult r = ch08_step::reference_step(token(scan, t, state));
    state = r.state;
    for (std::int64_t bd = 0; bd < scan.batch * scan.dim; ++bd)
      worst = std::fmax(worst, std::fabs(r.out[std::size_t(bd)] - whole.out_z[std::size_t(bd * scan.seqlen + t)]));
  }
  CHECK(worst < 1e-12);
  for (std::size_t i = 0; i < state.size(); ++i) CHECK(std::fabs(state[i] - whole.last_state[i].real()) < 1e-12);
}

TEST_CASE("step reference: heads share their group's B and C, and pads skip") {
  ch08_step::StepShape shape;
  shape.batch = 4, shape.heads = 4, shape.head_dim = 3, shape.dstate = 5, shape.groups = 2;
  shape.slots = ch08_step::Slots::pool;
  const ch08_step::StepProblem p = ch08_step::make_step_problem(shape, 3);
  REQUIRE(p.slots == 11);
  REQUIRE(p.indices[1] == -1);
  REQUIRE(p.indices[3] == -1);
  const ch08_step::StepResult r = ch08_step::reference_step(p);
  CHECK(r.skipped == std::vector<bool>{false, true, false, true});
  // Sequence 2's head 3 channel 1, state 4, by hand: group 3 / (4 / 2) = 1.
  const std::int64_t b = 2, h = 3, d = 1, n = 4, slot = p.indices[2];
  const std::size_t channel = std::size_t((b * 4 + h) * 3 + d), state = std::size_t(((slot * 4 + h) * 3 + d) * 5 + n);
  const double dt = p.dt[channel], B = p.B[std::size_t((b * 2 + 1) * 5 + n)];
  const double expected = std::exp(dt * p.A[std::size_t((h * 3 + d) * 5 + n)]) * p.state[state] + dt * B * p.x[channel];
  CHECK(r.state[state] == Approx(expected).epsilon(1e-15));
  for (std::int64_t i = 0; i < 4 * 3; ++i) CHECK(std::isnan(r.out[std::size_t(4 * 3 + i)]));  // sequence 1 skipped
}
