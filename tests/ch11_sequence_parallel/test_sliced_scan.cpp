// The sliced scan, forward and backward, equals chapter 08's fp64 reference on the whole sequence:
// 1 to 7 ranks and one rank a position, slices of unequal length, groups, every option on and
// off. And one slice's backward with a gradient of its last state equals finite differences.
#include "check_close.hpp"
#include "sliced_scan.hpp"
#include "slices.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

namespace {

constexpr common::Tolerance kExact{1e-11, 1e-10};

// Case c: each option on in half the cases.
ch08::Problem problem_of(std::int64_t seqlen, int c) {
  ch08::Problem shape;
  shape.batch = 2, shape.dim = 4, shape.seqlen = seqlen, shape.dstate = 3, shape.groups = c % 2 ? 2 : 1;
  shape.has_D = c & 1, shape.has_z = c & 2, shape.has_delta_bias = c & 4, shape.delta_softplus = c & 8;
  shape.has_initial_state = c & 16;
  return ch08::make_official_test_problem(shape, unsigned(c));
}

// Every gradient p has, ours against chapter 08's reference.
void check_gradients(const ch08::Gradients& ours, const ch08::Gradients& ref, const ch08::Problem& p) {
  CHECK_CLOSE("du", common::compare(ours.du, ref.du, kExact));
  CHECK_CLOSE("ddelta", common::compare(ours.ddelta, ref.ddelta, kExact));
  CHECK_CLOSE("dA", common::compare(ch11::real_parts(ours.dA), ch11::real_parts(ref.dA), kExact));
  CHECK_CLOSE("dB", common::compare(ch11::real_parts(ours.dB), ch11::real_parts(ref.dB), kExact));
  CHECK_CLOSE("dC", common::compare(ch11::real_parts(ours.dC), ch11::real_parts(ref.dC), kExact));
  if (p.has_D) CHECK_CLOSE("dD", common::compare(ours.dD, ref.dD, kExact));
  if (p.has_z) CHECK_CLOSE("dz", common::compare(ours.dz, ref.dz, kExact));
  if (p.has_delta_bias) CHECK_CLOSE("ddelta_bias", common::compare(ours.ddelta_bias, ref.ddelta_bias, kExact));
  if (p.has_initial_state)
    CHECK_CLOSE("dinitial_state",
                common::compare(ch11::real_parts(ours.dinitial_state), ch11::real_parts(ref.dinitial_state), kExact));
}

}  // namespace

TEST_CASE("the sliced forward equals the whole sequence's") {
  for (int c = 0; c < 32; c += 3)
    for (int ranks : {1, 2, 3, 7}) {
      INFO("case " << c << ", " << ranks << " ranks");
      const ch08::Problem p = problem_of(45, c);
      const ch08::ForwardResult whole = ch08::reference_forward(p);
      const ch11::SlicedForward sliced = ch11::sliced_forward(p, ranks);
      CHECK_CLOSE("out", common::compare(sliced.out, whole.out, kExact));
      if (p.has_z) CHECK_CLOSE("out_z", common::compare(sliced.out_z, whole.out_z, kExact));
      CHECK_CLOSE("last state", common::compare(sliced.last_state, ch11::real_parts(whole.last_state), kExact));
    }
  const ch08::Problem p = problem_of(9, 31);  // one rank a position
  CHECK_CLOSE("one position a rank",
              common::compare(ch11::sliced_forward(p, 9).out, ch08::reference_forward(p).out, kExact));
}

TEST_CASE("one slice's backward without a gradient from later slices is chapter 08's") {
  for (int c = 0; c < 32; c += 5) {
    INFO("case " << c);
    const ch08::Problem p = problem_of(30, c);
    const std::vector<double> dout = problem_of(30, c + 100).u;
    check_gradients(ch11::slice_backward(p, dout, {}), ch08::reference_backward(p, dout), p);
  }
}

TEST_CASE("a gradient of the slice's last state: its backward against central differences") {
  const ch08::Problem p = problem_of(12, 31);
  const std::vector<double> dout = problem_of(12, 131).u;
  const std::vector<double> dlast = ch11::real_parts(problem_of(12, 148).initial_state);
  // loss = Σ dout·out_z + Σ dlast·last_state
  const auto loss = [&](const ch08::Problem& q) {
    const ch08::ForwardResult r = ch08::reference_forward(q);
    double sum = 0.0;
    for (std::size_t e = 0; e < dout.size(); ++e) sum += dout[e] * r.out_z[e];
    for (std::size_t e = 0; e < dlast.size(); ++e) sum += dlast[e] * r.last_state[e].real();
    return sum;
  };
  const ch08::Gradients g = ch11::slice_backward(p, dout, dlast);
  const double step = 1e-6;
  const auto central = [&](auto&& perturb) {
    ch08::Problem plus = p, minus = p;
    perturb(plus, step);
    perturb(minus, -step);
    return (loss(plus) - loss(minus)) / (2 * step);
  };
  std::vector<double> numeric, analytic;
  for (std::size_t e : {0u, 5u, 17u, 40u}) {
    numeric.push_back(central([e](ch08::Problem& q, double h) { q.u[e] += h; }));
    analytic.push_back(g.du[e]);
    numeric.push_back(central([e](ch08::Problem& q, double h) { q.delta[e] += h; }));
    analytic.push_back(g.ddelta[e]);
  }
  for (std::size_t e : {0u, 4u, 11u}) {
    numeric.push_back(central([e](ch08::Problem& q, double h) { q.A[e] += h; }));
    analytic.push_back(g.dA[e].real());
    numeric.push_back(central([e](ch08::Problem& q, double h) { q.initial_state[e] += h; }));
    analytic.push_back(g.dinitial_state[e].real());
  }
  CHECK_CLOSE("finite differences", common::compare(analytic, numeric, common::Tolerance{1e-6, 1e-6}));
}

TEST_CASE("the sliced backward equals the whole sequence's") {
  for (int c = 0; c < 32; c += 3)
    for (int ranks : {2, 3, 7}) {
      INFO("case " << c << ", " << ranks << " ranks");
      const ch08::Problem p = problem_of(45, c);
      const std::vector<double> dout = problem_of(45, c + 100).u;
      check_gradients(ch11::sliced_backward(p, dout, ranks), ch08::reference_backward(p, dout), p);
    }
}
