// Every gradient of the reference backward against central finite differences of the loss
// L = Σ dout · out_final, over the flags the kernels must handle.
//
// Tolerance. A central difference with step h has truncation error ~h^2 |L'''|/6 (~1e-12 here)
// and rounding error ~eps |L|/h: |L| reaches ~160 in these cases, so up to ~3.5e-8. The worst
// error measured over every case below is 3.3e-8 (complex A, the largest losses); atol 1e-7 +
// rtol 1e-6 sits three times above that, while an error in any term of the backward (a missing
// conjugate, a lost factor 2, a wrong softplus slope) is of order 1e-2 or more.
#include "ch08_test_support.hpp"
#include "finite_differences.hpp"

#include <string>
#include <vector>

using ch08::Complex;
using ch08::Problem;

namespace {

// with_dlast_state: the loss also reads the last state, Re(Σ conj(dlast) h_last), dlast drawn from
// N(0, 1) (what a later call's backward would hand back).
void check_gradients(const Problem& p, unsigned seed, bool with_dlast_state = false) {
  INFO(ch08_test::describe(p) << ", seed " << seed << (with_dlast_state ? ", with dlast_state" : ""));
  const std::vector<double> dout =
      ch08::make_official_test_problem(p, seed + 1000).u;  // N(0, 1), like the official suite's
  std::vector<Complex> dlast;
  if (with_dlast_state) {
    Problem states = p;
    states.has_initial_state = true;  // an N(0, 1) tensor of the last state's shape
    dlast = ch08::make_official_test_problem(states, seed + 2000).initial_state;
  }
  const ch08::Gradients g = ch08::reference_backward(p, dout, dlast);

  CHECK_CLOSE("du", common::compare(g.du, ch08::finite_differences(p, &Problem::u, dout, dlast),
                                    ch08::kFiniteDifferenceTolerance));
  CHECK_CLOSE("ddelta", common::compare(g.ddelta, ch08::finite_differences(p, &Problem::delta, dout, dlast),
                                        ch08::kFiniteDifferenceTolerance));
  CHECK_CLOSE("dA", common::compare(ch08_test::interleaved(g.dA),
                                    ch08_test::interleaved(ch08::finite_differences(p, &Problem::A, dout, dlast)),
                                    ch08::kFiniteDifferenceTolerance));
  CHECK_CLOSE("dB", common::compare(ch08_test::interleaved(g.dB),
                                    ch08_test::interleaved(ch08::finite_differences(p, &Problem::B, dout, dlast)),
                                    ch08::kFiniteDifferenceTolerance));
  CHECK_CLOSE("dC", common::compare(ch08_test::interleaved(g.dC),
                                    ch08_test::interleaved(ch08::finite_differences(p, &Problem::C, dout, dlast)),
                                    ch08::kFiniteDifferenceTolerance));
  if (p.has_z)
    CHECK_CLOSE("dz", common::compare(g.dz, ch08::finite_differences(p, &Problem::z, dout, dlast),
                                      ch08::kFiniteDifferenceTolerance));
  else
    CHECK(g.dz.empty());
  if (p.has_D)
    CHECK_CLOSE("dD", common::compare(g.dD, ch08::finite_differences(p, &Problem::D, dout, dlast),
                                      ch08::kFiniteDifferenceTolerance));
  else
    CHECK(g.dD.empty());
  if (p.has_delta_bias)
    CHECK_CLOSE("ddelta_bias",
                common::compare(g.ddelta_bias, ch08::finite_differences(p, &Problem::delta_bias, dout, dlast),
                                ch08::kFiniteDifferenceTolerance));
  else
    CHECK(g.ddelta_bias.empty());
  if (p.has_initial_state)
    CHECK_CLOSE(
        "dinitial_state",
        common::compare(ch08_test::interleaved(g.dinitial_state),
                        ch08_test::interleaved(ch08::finite_differences(p, &Problem::initial_state, dout, dlast)),
                        ch08::kFiniteDifferenceTolerance));
  else
    CHECK(g.dinitial_state.empty());
}

// The official test suite's batch and dim with dstate 3; seqlen runs through 5..9 from case to case.
Problem small_problem(bool complex, bool variable_B, bool variable_C, int groups, std::int64_t seqlen) {
  Problem shape;
  shape.batch = 2;
  shape.dim = 4;
  shape.dstate = 3;
  shape.seqlen = seqlen;
  shape.groups = groups;
  shape.complex = complex;
  shape.variable_B = variable_B;
  shape.variable_C = variable_C;
  return shape;
}

// Every combination of B and C (groups 2 only when both are variable, as in the official suite),
// softplus and gate, with D, delta_bias and an initial state present.
void check_all_combinations(bool complex) {
  unsigned seed = complex ? 100 : 0;
  for (bool variable_B : {false, true})
    for (bool variable_C : {false, true})
      for (int groups : {1, 2}) {
        if (groups == 2 && !(variable_B && variable_C)) continue;
        for (bool softplus : {false, true})
          for (bool gate : {false, true}) {
            Problem shape = small_problem(complex, variable_B, variable_C, groups, 5 + seed % 5);
            shape.delta_softplus = softplus;
            shape.has_z = gate;
            shape.has_D = shape.has_delta_bias = shape.has_initial_state = true;
            check_gradients(ch08::make_official_test_problem(shape, seed), seed);
            ++seed;
          }
      }
}

}  // namespace

TEST_CASE("every gradient equals finite differences of the loss: real A") { check_all_combinations(false); }

TEST_CASE("every gradient equals finite differences of the loss: complex A") { check_all_combinations(true); }

// A loss that also reads the last state (a later piece of the sequence does): every gradient
// takes its share, through q after the last step (BackwardParams::dlast_state).
TEST_CASE("every gradient with a gradient of the last state equals finite differences") {
  unsigned seed = 300;
  for (bool complex : {false, true})
    for (bool initial : {false, true}) {
      Problem shape = small_problem(complex, true, true, 2, 6);
      shape.delta_softplus = shape.has_z = shape.has_D = shape.has_delta_bias = true;
      shape.has_initial_state = initial;
      check_gradients(ch08::make_official_test_problem(shape, seed), seed, true);
      ++seed;
    }
}

// Packed sequences of 1, 3 and 4 steps (batch 1): each from its own initial state, each with its
// own last state that the loss reads; every gradient, those of the initial states among them.
TEST_CASE("packed sequences: every gradient equals finite differences of the loss") {
  unsigned seed = 400;
  for (bool complex : {false, true})
    for (bool variable : {false, true}) {
      Problem shape = small_problem(complex, variable, variable, variable ? 2 : 1, 8);
      shape.batch = 1;
      shape.cu_seqlens = {0, 1, 4, 8};
      shape.delta_softplus = shape.has_z = shape.has_D = shape.has_delta_bias = shape.has_initial_state = true;
      check_gradients(ch08::make_official_test_problem(shape, seed), seed, true);
      ++seed;
    }
}

TEST_CASE("gradients without D, delta_bias or an initial state") {
  for (bool complex : {false, true}) {
    Problem shape = small_problem(complex, true, true, 1, 6);
    shape.delta_softplus = shape.has_z = true;
    check_gradients(ch08::make_official_test_problem(shape, 7), 7);
  }
}

// Above 20, softplus(x) = x and its slope is 1: they differ from log(1 + e^x) and σ(x) by
// e^-20 ~ 2e-9 only, so the cut keeps the kernels' exp from overflowing without changing a
// result. The forward's exact δ = x is checked by hand in test_reference.cpp; here, that the
// gradients stay right past the cut.
TEST_CASE("gradients with a step size past softplus's cut at 20") {
  Problem shape = small_problem(false, true, true, 1, 5);
  shape.delta_softplus = shape.has_delta_bias = true;
  Problem p = ch08::make_official_test_problem(shape, 9);
  p.delta[3] = 21.0;  // x = 21 + delta_bias > 20
  check_gradients(p, 9);
}

TEST_CASE("a real problem has gradients with zero imaginary parts") {
  Problem shape = small_problem(false, false, true, 1, 7);
  shape.has_z = shape.has_D = shape.has_initial_state = true;
  const Problem p = ch08::make_official_test_problem(shape, 4);
  const ch08::Gradients g = ch08::reference_backward(p, std::vector<double>(std::size_t(p.sequence_elements()), 1.0));
  for (const auto* v : {&g.dA, &g.dB, &g.dC, &g.dinitial_state})
    for (const Complex& x : *v) CHECK(x.imag() == 0.0);
}

TEST_CASE("dB and dC of constant B and C are those of the same B and C made variable, summed over batch and time") {
  // One channel per group, so a variable B can hold the constant one repeated.
  Problem shape = small_problem(true, false, false, 4, 6);
  shape.has_z = true;
  const Problem constant = ch08::make_official_test_problem(shape, 12);
  const Problem variable = ch08_test::made_variable(constant);
  const std::vector<double> dout = ch08::make_official_test_problem(shape, 13).u;
  const ch08::Gradients gc = ch08::reference_backward(constant, dout), gv = ch08::reference_backward(variable, dout);
  std::vector<Complex> summed_B(constant.B.size()), summed_C(constant.C.size());
  for (std::int64_t b = 0; b < shape.batch; ++b)
    for (std::int64_t d = 0; d < shape.dim; ++d)
      for (int n = 0; n < shape.dstate; ++n)
        for (std::int64_t t = 0; t < shape.seqlen; ++t) {
          const std::size_t i = std::size_t(((b * shape.dim + d) * shape.dstate + n) * shape.seqlen + t);
          summed_B[std::size_t(d * shape.dstate + n)] += gv.dB[i];
          summed_C[std::size_t(d * shape.dstate + n)] += gv.dC[i];
        }
  CHECK_CLOSE("dB", common::compare(ch08_test::interleaved(gc.dB), ch08_test::interleaved(summed_B), {1e-13, 1e-13}));
  CHECK_CLOSE("dC", common::compare(ch08_test::interleaved(gc.dC), ch08_test::interleaved(summed_C), {1e-13, 1e-13}));
}
