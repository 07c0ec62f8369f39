// Chapter 08's exercises. In the `exercises` preset the stubs are compiled in place of the
// solutions, and every test here must fail -- showing the input, the expected value and the
// value got -- until the reader writes the solution. reference_backward calls the solutions of
// exercises 1 and 2, so no expected value below comes from it: they come from hand-worked
// numbers and from finite differences of reference_loss, which runs only the forward.
#include "ch08_test_support.hpp"
#include "finite_differences.hpp"
#include "softplus.hpp"
#include "striped_writes.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using ch08::Complex;
using ch08::Problem;

namespace {

template <class T>
std::string listed(const std::vector<T>& v) {
  std::ostringstream s;
  s << '[';
  for (std::size_t i = 0; i < v.size(); ++i) s << (i ? " " : "") << v[i];
  s << ']';
  return s.str();
}

std::vector<double> as_doubles(const std::vector<int>& v) { return {v.begin(), v.end()}; }

using common::softplus;

}  // namespace

// ---- Exercise 1: the step size's gradient through softplus ----

TEST_CASE("exercise 1: step_size_gradient by hand on both sides of softplus's cut at 20", "[exercise]") {
  struct Case {
    double ddelta, x;
    bool softplus;
    double expected;
  };
  // σ(0) = 1/2, σ(ln 3) = 3/4, σ(−ln 3) = 1/4; at x = 20 the forward still takes softplus, past it
  // δ = x; without softplus δ = x everywhere.
  const Case cases[] = {
      {2, 0, true, 1},
      {1, std::log(3.0), true, 0.75},
      {-4, -std::log(3.0), true, -1},
      {3, 20, true, 3 / (1 + std::exp(-20.0))},
      {3, 20.5, true, 3},
      {3, 25, true, 3},
      {2, -3, false, 2},
      {-2, 25, false, -2},
  };
  for (const Case& c : cases) {
    const double got = ch08::step_size_gradient(c.ddelta, c.x, c.softplus);
    CHECK_CLOSE("ddelta " << c.ddelta << ", x " << c.x << (c.softplus ? ", softplus" : ", no softplus"),
                common::compare(std::vector<double>{got}, std::vector<double>{c.expected}, {0, 1e-14}));
  }
}

TEST_CASE("exercise 1: step_size_gradient chains dL/d(delta) into the finite differences in delta_raw", "[exercise]") {
  // One channel with a bias and softplus; delta_raw spans softplus's curve and one step lies past
  // the cut. dL/dδ is the finite difference of the same problem with δ given directly
  // (softplus off, no bias, delta = softplus(x)); dL/d delta_raw that of the problem itself.
  Problem shape;
  shape.dim = 2;
  shape.seqlen = 6;
  shape.dstate = 2;
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = true;
  Problem p = ch08::make_official_test_problem(shape, 8);
  p.delta = {-3, -1, 0, 0.5, 1.5, 3, 2, -0.5, 24, 0.25, -2, 1};
  const std::vector<double> dout = ch08::make_official_test_problem(shape, 9).u;

  std::vector<double> x(p.delta.size());
  Problem direct = p;
  direct.delta_softplus = direct.has_delta_bias = false;
  direct.delta_bias.clear();
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = p.delta[i] + p.delta_bias[i / std::size_t(p.seqlen)];
    direct.delta[i] = softplus(x[i]);
  }
  std::vector<double> got, expected;
  for (std::size_t i = 0; i < x.size(); ++i) {
    got.push_back(ch08::step_size_gradient(ch08::central_difference(direct, direct.delta[i], dout), x[i], true));
    expected.push_back(ch08::central_difference(p, p.delta[i], dout));
  }
  CHECK_CLOSE("dL/d delta_raw from dL/d(delta), x = " << listed(x),
              common::compare(got, expected, ch08::kFiniteDifferenceTolerance));
}

// ---- Exercise 2: one step of the backward's reverse scan ----

TEST_CASE("exercise 2: reverse_step by hand for real and complex A", "[exercise]") {
  // Real: g = 2 + 3 = 5, q = 0.5 · 5 = 2.5.
  // Complex: g = (1 − i) + (2 + 0.5i) = 3 − 0.5i; q = conj(0.6 + 0.8i) g = (0.6 − 0.8i)(3 − 0.5i)
  // = 1.4 − 2.7i (without the conjugate it would be 2.2 + 2.1i).
  struct Case {
    Complex A_bar, c, q_next, g, q;
  };
  const Case cases[] = {
      {0.5, 2, 3, 5, 2.5},
      {{0.6, 0.8}, {1, -1}, {2, 0.5}, {3, -0.5}, {1.4, -2.7}},
  };
  for (const Case& c : cases) {
    const ch08::ReverseStep got = ch08::reverse_step(c.A_bar, c.c, c.q_next);
    CHECK_CLOSE(
        "A_bar " << c.A_bar << ", c " << c.c << ", q_next " << c.q_next << ": (g, q) as (re, im, re, im)",
        common::compare(ch08_test::interleaved({got.g, got.q}), ch08_test::interleaved({c.g, c.q}), {1e-15, 1e-15}));
  }
}

TEST_CASE("exercise 2: reverse_step walked from the last step gives dB and the initial state's gradient",
          "[exercise]") {
  // One channel without gate, D, bias or softplus, so that δ_t = delta_t and dy = dout. Walking
  // reverse_step from q = 0 at the end gives g_t, hence dB_t = δ_t u_t g_t, and q_0 = dh_{−1}:
  // both are compared with finite differences of the loss.
  for (bool complex : {false, true}) {
    Problem shape;
    shape.seqlen = 7;
    shape.dstate = 2;
    shape.complex = complex;
    shape.has_initial_state = true;
    const Problem p = ch08::make_official_test_problem(shape, complex ? 31 : 30);
    const std::vector<double> dout = ch08::make_official_test_problem(shape, 40).u;
    const double s = complex ? 2.0 : 1.0;
    const auto T = std::size_t(p.seqlen);

    std::vector<Complex> dB(p.B.size()), dinitial_state(p.initial_state.size());
    for (std::size_t n = 0; n < std::size_t(p.dstate); ++n) {
      Complex q = 0;
      for (std::size_t t = T; t-- > 0;) {
        const Complex A_bar = std::exp(p.delta[t] * p.A[n]);
        const ch08::ReverseStep step = ch08::reverse_step(A_bar, s * dout[t] * std::conj(p.C[n * T + t]), q);
        dB[n * T + t] = p.delta[t] * p.u[t] * step.g;
        q = step.q;
      }
      dinitial_state[n] = q;
    }
    INFO((complex ? "complex A" : "real A") << ", one channel, seqlen 7, dstate 2, variable B and C, initial state");
    CHECK_CLOSE("dB = δ u g", common::compare(ch08_test::interleaved(dB),
                                              ch08_test::interleaved(ch08::finite_differences(p, &Problem::B, dout)),
                                              ch08::kFiniteDifferenceTolerance));
    CHECK_CLOSE("dinitial_state = q_0",
                common::compare(ch08_test::interleaved(dinitial_state),
                                ch08_test::interleaved(ch08::finite_differences(p, &Problem::initial_state, dout)),
                                ch08::kFiniteDifferenceTolerance));
  }
}

// ---- Exercise 3: the striped hand-out of a chunk's dB and dC writes ----

namespace {
// The block shapes of version 2 (with_block_shape in selective_scan/v2_blocked_common.cuh).
struct Shape {
  int threads, items;
};
constexpr Shape kBlockShapes[] = {{32, 4}, {32, 8}, {32, 16}, {64, 16}, {128, 16}};

// Full chunks and ragged tails: one step, one warp and one off, a prime, one short of full.
std::vector<int> valid_counts(Shape shape) {
  const int chunk = shape.threads * shape.items;
  std::vector<int> counts{1, 2, 31, 32, 33, shape.threads + 1, 97, chunk - 1, chunk};
  std::erase_if(counts, [&](int v) { return v > chunk; });
  return counts;
}
}  // namespace

TEST_CASE("exercise 3: striped_steps by hand for 4 threads of 3 items with 10 valid steps", "[exercise]") {
  const std::vector<std::vector<int>> expected{{0, 4, 8}, {1, 5, 9}, {2, 6}, {3, 7}};
  for (int k = 0; k < 4; ++k) {
    const std::vector<int> got = ch08::striped_steps(k, 4, 3, 10);
    INFO("thread " << k << " of 4, 3 items, 10 valid steps: expected " << listed(expected[std::size_t(k)]) << ", got "
                   << listed(got));
    CHECK(got == expected[std::size_t(k)]);
  }
}

TEST_CASE("exercise 3: striped_steps writes every valid step exactly once for every block shape", "[exercise]") {
  for (const Shape shape : kBlockShapes)
    for (int valid : valid_counts(shape)) {
      // How often each step of the chunk is written; a step outside the chunk counts at the end.
      const int chunk = shape.threads * shape.items;
      std::vector<int> written(std::size_t(chunk) + 1, 0), expected(written.size(), 0);
      for (int step = 0; step < valid; ++step) expected[std::size_t(step)] = 1;
      for (int k = 0; k < shape.threads; ++k)
        for (int step : ch08::striped_steps(k, shape.threads, shape.items, valid))
          ++written[step >= 0 && step < chunk ? std::size_t(step) : std::size_t(chunk)];
      CHECK_CLOSE("times each step is written (the last entry: steps outside the chunk), "
                      << shape.threads << " threads of " << shape.items << " items, " << valid << " valid steps",
                  common::compare(as_doubles(written), as_doubles(expected), {0, 0}));
    }
}

TEST_CASE("exercise 3: in each round of striped_steps the threads write consecutive steps", "[exercise]") {
  // What makes a warp's 32 atomics hit 32 consecutive addresses: round j's writes, in thread
  // order, are steps j·threads, j·threads + 1, ... up to the round's end or the last valid step.
  for (const Shape shape : kBlockShapes)
    for (int valid : valid_counts(shape)) {
      std::vector<std::vector<int>> per_thread;
      for (int k = 0; k < shape.threads; ++k)
        per_thread.push_back(ch08::striped_steps(k, shape.threads, shape.items, valid));
      for (int round = 0; round < shape.items; ++round) {
        std::vector<int> got, expected;
        for (const std::vector<int>& steps : per_thread)
          if (std::size_t(round) < steps.size()) got.push_back(steps[std::size_t(round)]);
        for (int step = round * shape.threads; step < std::min((round + 1) * shape.threads, valid); ++step)
          expected.push_back(step);
        INFO(shape.threads << " threads of " << shape.items << " items, " << valid << " valid steps, round " << round
                           << ": expected " << listed(expected) << ", got " << listed(got));
        CHECK(got == expected);
      }
    }
}
