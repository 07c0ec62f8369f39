// The forward of the fp64 reference: by hand on tiny cases, then the properties the kernels
// rely on (groups, the last state as the next call's initial state, the carries of a cut
// sequence, real stays real).
#include "ch08_test_support.hpp"

#include <cmath>
#include <stdexcept>
#include <type_traits>

using ch08::Complex;
using ch08::Problem;

namespace {

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// One channel, one state, three steps, everything given by hand.
Problem tiny_real() {
  Problem p;
  p.seqlen = 3;
  p.u = {1.0, -1.0, 2.0};
  p.delta = {0.5, 0.25, 1.0};
  p.A = {-1.0};
  p.B = {1.0, 2.0, 3.0};  // variable: (batch 1, groups 1, dstate 1, seqlen 3)
  p.C = {1.0, -1.0, 2.0};
  p.has_D = true;
  p.D = {0.5};
  return p;
}

// Nine steps of two batches and two groups, every flag and an initial state: the problem the
// tests below cut in time.
Problem split_in_time_problem(bool complex, unsigned seed) {
  Problem shape;
  shape.batch = 2;
  shape.dim = 4;
  shape.seqlen = 9;
  shape.dstate = 3;
  shape.groups = 2;
  shape.complex = complex;
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = shape.has_initial_state = true;
  return ch08::make_official_test_problem(shape, seed);
}

// A segment's a for steps [begin, end) of p, per (b, d, n): exp(A times the sum of delta after
// bias and softplus), the product of its decays.
std::vector<Complex> decay_product(const Problem& p, std::int64_t begin, std::int64_t end) {
  std::vector<Complex> a;
  for (std::int64_t b = 0; b < p.batch; ++b)
    for (std::int64_t d = 0; d < p.dim; ++d) {
      double sum = 0;
      for (std::int64_t t = begin; t < end; ++t) {
        const double x = p.delta[std::size_t((b * p.dim + d) * p.seqlen + t)] + p.delta_bias[std::size_t(d)];
        sum += x > 20 ? x : std::log1p(std::exp(x));
      }
      for (int n = 0; n < p.dstate; ++n) a.push_back(std::exp(p.A[std::size_t(d * p.dstate + n)] * sum));
    }
  return a;
}

// A gradient of the output for every step of p, and its steps [begin, end) of each sequence.
std::vector<double> output_gradient(const Problem& p) {
  std::vector<double> dout(std::size_t(p.sequence_elements()));
  for (std::size_t i = 0; i < dout.size(); ++i) dout[i] = std::sin(0.7 * double(i) + 0.3);
  return dout;
}
std::vector<double> steps_of(const Problem& p, const std::vector<double>& x, std::int64_t begin, std::int64_t end) {
  return ch08_test::steps_of_rows(x, p.batch * p.dim, p.seqlen, begin, end);
}

}  // namespace

TEST_CASE("forward of one real state over three steps, by hand") {
  const Problem p = tiny_real();
  const double h0 = 0.5 * 1.0 * 1.0;  // Ā h_{-1} + δ B u, h_{-1} = 0
  const double h1 = std::exp(-0.25) * h0 + 0.25 * 2.0 * -1.0;
  const double h2 = std::exp(-1.0) * h1 + 1.0 * 3.0 * 2.0;
  const std::vector<double> expected = {1.0 * h0 + 0.5 * 1.0, -1.0 * h1 + 0.5 * -1.0, 2.0 * h2 + 0.5 * 2.0};

  const ch08::ForwardResult r = ch08::reference_forward(p);
  CHECK_CLOSE("out", common::compare(r.out, expected, {1e-15, 1e-15}));
  CHECK(r.out_z.empty());
  REQUIRE(r.last_state.size() == 1);
  CHECK(r.last_state[0].real() == Approx(h2).epsilon(1e-15));
  CHECK(r.last_state[0].imag() == 0.0);
}

TEST_CASE("forward with softplus, delta_bias, a gate and an initial state, by hand") {
  Problem p = tiny_real();
  p.delta = {0.1, -0.3, 25.0};
  p.has_delta_bias = true;
  p.delta_bias = {0.2};
  p.delta_softplus = true;
  p.has_z = true;
  p.z = {0.5, -1.0, 2.0};
  p.has_initial_state = true;
  p.initial_state = {2.0};
  p.A = {-0.5};

  // softplus(x) = log(1 + e^x), and x itself above 20 (the last step: 25.2).
  const double d0 = std::log(1.0 + std::exp(0.3)), d1 = std::log(1.0 + std::exp(-0.1)), d2 = 25.2;
  const double h0 = std::exp(-0.5 * d0) * 2.0 + d0 * 1.0 * 1.0;
  const double h1 = std::exp(-0.5 * d1) * h0 + d1 * 2.0 * -1.0;
  const double h2 = std::exp(-0.5 * d2) * h1 + d2 * 3.0 * 2.0;
  const std::vector<double> y = {h0 + 0.5, -h1 - 0.5, 2.0 * h2 + 1.0};
  std::vector<double> gated(3);
  for (int t = 0; t < 3; ++t) gated[t] = y[t] * p.z[t] * sigmoid(p.z[t]);

  const ch08::ForwardResult r = ch08::reference_forward(p);
  CHECK_CLOSE("out", common::compare(r.out, y, {1e-14, 1e-14}));
  CHECK_CLOSE("out_z", common::compare(r.out_z, gated, {1e-14, 1e-14}));
  CHECK(r.last_state[0].real() == Approx(h2).epsilon(1e-14));
}

TEST_CASE("complex A: the output takes 2 Re(C h), by hand") {
  Problem p;
  p.seqlen = 2;
  p.complex = true;
  p.variable_B = p.variable_C = false;
  p.u = {1.0, 2.0};
  p.delta = {0.5, 0.25};
  const Complex A(-0.5, 2.0), B(1.0, 1.0), C(0.5, -1.0);
  p.A = {A};
  p.B = {B};  // constant: (dim 1, dstate 1)
  p.C = {C};
  // h_0 = 0.5 (1 + i); h_1 = e^{0.25 A} h_0 + 0.25 (1 + i) 2.
  const Complex h0 = 0.5 * B;
  const Complex h1 = std::exp(0.25 * A) * h0 + 0.25 * B * 2.0;
  // Re(C h_0) = Re((0.5 − i)(0.5 + 0.5 i)) = 0.25 + 0.5 = 0.75, so y_0 = 1.5.
  const std::vector<double> expected = {1.5, 2.0 * (C * h1).real()};

  const ch08::ForwardResult r = ch08::reference_forward(p);
  CHECK_CLOSE("out", common::compare(r.out, expected, {1e-15, 1e-15}));
  CHECK(r.last_state[0].real() == Approx(h1.real()).epsilon(1e-15));
  CHECK(r.last_state[0].imag() == Approx(h1.imag()).epsilon(1e-15));
}

TEST_CASE("channel d reads group d / (dim / groups) of a variable B and C") {
  Problem shape;
  shape.batch = 2;
  shape.dim = 4;
  shape.seqlen = 7;
  shape.dstate = 3;
  shape.groups = 2;
  shape.has_D = true;
  const Problem p = ch08::make_official_test_problem(shape, 11);
  // Silence group 1 of B: channels 2 and 3 receive no input, so only D u is left; 0 and 1 keep theirs.
  Problem silenced = p;
  for (std::int64_t b = 0; b < p.batch; ++b)
    for (std::int64_t i = 0; i < p.dstate * p.seqlen; ++i)
      silenced.B[std::size_t((b * 2 + 1) * p.dstate * p.seqlen + i)] = 0.0;
  const ch08::ForwardResult r = ch08::reference_forward(p), s = ch08::reference_forward(silenced);
  for (std::int64_t b = 0; b < p.batch; ++b)
    for (std::int64_t d = 0; d < p.dim; ++d)
      for (std::int64_t t = 0; t < p.seqlen; ++t) {
        const std::size_t i = std::size_t((b * p.dim + d) * p.seqlen + t);
        INFO("b " << b << ", d " << d << ", t " << t);
        if (d < 2) {
          CHECK(s.out[i] == r.out[i]);
        } else {
          CHECK(s.out[i] == Approx(p.D[std::size_t(d)] * p.u[i]).margin(1e-15));
        }
      }
}

TEST_CASE("the last state, fed back as the initial state, continues the sequence") {
  for (bool complex : {false, true}) {
    const Problem whole = split_in_time_problem(complex, 5);
    const ch08::ForwardResult all = ch08::reference_forward(whole);

    const Problem first = ch08_test::time_slice(whole, 0, 4);
    Problem second = ch08_test::time_slice(whole, 4, 5);
    const ch08::ForwardResult r1 = ch08::reference_forward(first);
    second.initial_state = r1.last_state;
    const ch08::ForwardResult r2 = ch08::reference_forward(second);

    INFO(ch08_test::describe(whole));
    std::vector<double> joined;
    for (std::int64_t row = 0; row < whole.batch * whole.dim; ++row) {
      for (std::int64_t t = 0; t < 4; ++t) joined.push_back(r1.out_z[std::size_t(row * 4 + t)]);
      for (std::int64_t t = 0; t < 5; ++t) joined.push_back(r2.out_z[std::size_t(row * 5 + t)]);
    }
    CHECK_CLOSE("out_z of the two halves", common::compare(joined, all.out_z, {1e-13, 1e-13}));
    CHECK_CLOSE("last state", common::compare(ch08_test::interleaved(r2.last_state),
                                              ch08_test::interleaved(all.last_state), {1e-13, 1e-13}));
    // ...while the second half from the problem's own initial state does not: the state matters.
    const ch08::ForwardResult restarted = ch08::reference_forward(ch08_test::time_slice(whole, 4, 5));
    CHECK_FALSE(common::compare(restarted.out_z, r2.out_z, {1e-6, 1e-6}).ok);
  }
}

// A sequence run in two calls: the forward of the second half starts from the first's last
// state, and the backward of the first half gets the second's dinitial_state as its dlast_state.
// Together they give every gradient of one call over the whole sequence (with a gradient of the
// whole sequence's last state too): per step, joined; per weight, summed.
TEST_CASE("two calls over the halves, the state and its gradient handed across, give one call's gradients") {
  for (bool complex : {false, true}) {
    const Problem whole = split_in_time_problem(complex, 6);
    const std::int64_t rows = whole.batch * whole.dim;
    const Problem dout_draw = ch08::make_official_test_problem(whole, 60);
    const std::vector<double>& dout = dout_draw.u;  // N(0, 1), the shape of the outputs
    const std::vector<Complex>& dlast = dout_draw.initial_state;
    const ch08::Gradients all = ch08::reference_backward(whole, dout, dlast);

    const Problem first = ch08_test::time_slice(whole, 0, 4);
    Problem second = ch08_test::time_slice(whole, 4, 5);
    second.initial_state = ch08::reference_forward(first).last_state;
    const ch08::Gradients g2 = ch08::reference_backward(second, steps_of(whole, dout, 4, whole.seqlen), dlast);
    const ch08::Gradients g1 = ch08::reference_backward(first, steps_of(whole, dout, 0, 4), g2.dinitial_state);

    INFO(ch08_test::describe(whole));
    // Rows along time of the two halves (4 and 5 steps), joined row by row.
    const auto joined = [](const auto& a, const auto& b, std::int64_t row_count) {
      return ch08_test::joined_rows(a, b, row_count, 4, 5);
    };
    using ch08_test::summed;
    const common::Tolerance tol{1e-12, 1e-12};
    CHECK_CLOSE("du", common::compare(joined(g1.du, g2.du, rows), all.du, tol));
    CHECK_CLOSE("ddelta", common::compare(joined(g1.ddelta, g2.ddelta, rows), all.ddelta, tol));
    CHECK_CLOSE("dz", common::compare(joined(g1.dz, g2.dz, rows), all.dz, tol));
    CHECK_CLOSE("dA",
                common::compare(ch08_test::interleaved(summed(g1.dA, g2.dA)), ch08_test::interleaved(all.dA), tol));
    // A variable B or C has rows along time (batch, groups, dstate); a constant one is a weight.
    const std::int64_t projections = whole.batch * whole.groups * whole.dstate;
    const auto dB = whole.variable_B ? joined(g1.dB, g2.dB, projections) : summed(g1.dB, g2.dB);
    const auto dC = whole.variable_C ? joined(g1.dC, g2.dC, projections) : summed(g1.dC, g2.dC);
    CHECK_CLOSE("dB", common::compare(ch08_test::interleaved(dB), ch08_test::interleaved(all.dB), tol));
    CHECK_CLOSE("dC", common::compare(ch08_test::interleaved(dC), ch08_test::interleaved(all.dC), tol));
    CHECK_CLOSE("dD", common::compare(summed(g1.dD, g2.dD), all.dD, tol));
    CHECK_CLOSE("ddelta_bias", common::compare(summed(g1.ddelta_bias, g2.ddelta_bias), all.ddelta_bias, tol));
    CHECK_CLOSE("dinitial_state", common::compare(ch08_test::interleaved(g1.dinitial_state),
                                                  ch08_test::interleaved(all.dinitial_state), tol));
    // ...while without the second half's gradient handed back, the first half's differs.
    const ch08::Gradients alone = ch08::reference_backward(first, steps_of(whole, dout, 0, 4));
    CHECK_FALSE(common::compare(alone.du, g1.du, {1e-6, 1e-6}).ok);
  }
}

// Packed sequences of 1, 7 and 300 steps laid end to end (cu_seqlens): one call gives what a call
// for each gives, forward and every gradient, each with its own initial state, last state and
// their gradients.
TEST_CASE("packed sequences: one call over sequences laid end to end equals a call for each") {
  const std::vector<std::int64_t> cu_seqlens{0, 1, 8, 308};
  for (bool complex : {false, true}) {
    Problem shape;
    shape.dim = 4, shape.seqlen = 308, shape.dstate = 3, shape.groups = 2, shape.complex = complex;
    shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = shape.has_initial_state = true;
    shape.cu_seqlens = cu_seqlens;
    const Problem packed = ch08::make_official_test_problem(shape, 11);
    const Problem draws = ch08::make_official_test_problem(packed, 12);
    const std::vector<double>& dout = draws.u;
    const std::vector<Complex>& dlast = draws.initial_state;  // (3 sequences, dim, dstate)
    const ch08::ForwardResult all = ch08::reference_forward(packed);
    const ch08::Gradients all_grad = ch08::reference_backward(packed, dout, dlast);
    INFO(ch08_test::describe(packed));

    const std::size_t states = std::size_t(packed.dim * packed.dstate);  // one sequence's
    const auto rows_of = [&](const auto& v, std::int64_t q) {
      return std::remove_cvref_t<decltype(v)>(v.begin() + std::ptrdiff_t(q * states),
                                              v.begin() + std::ptrdiff_t((q + 1) * states));
    };
    const common::Tolerance tol{1e-12, 1e-12};
    std::vector<Complex> dA(packed.A.size());
    std::vector<double> dD(packed.D.size()), ddelta_bias(packed.delta_bias.size());
    for (std::int64_t q = 0; q + 1 < std::int64_t(cu_seqlens.size()); ++q) {
      const std::int64_t begin = cu_seqlens[std::size_t(q)], end = cu_seqlens[std::size_t(q) + 1];
      Problem one = ch08_test::time_slice(packed, begin, end - begin);
      one.cu_seqlens.clear();
      one.initial_state = rows_of(packed.initial_state, q);
      const ch08::ForwardResult f = ch08::reference_forward(one);
      const ch08::Gradients g = ch08::reference_backward(one, steps_of(packed, dout, begin, end), rows_of(dlast, q));
      INFO("sequence " << q << ", steps " << begin << " to " << end - 1);
      const auto here = [&](const std::vector<double>& v) { return steps_of(packed, v, begin, end); };
      CHECK_CLOSE("out", common::compare(f.out, here(all.out), tol));
      CHECK_CLOSE("out_z", common::compare(f.out_z, here(all.out_z), tol));
      CHECK_CLOSE("last_state", common::compare(ch08_test::interleaved(f.last_state),
                                                ch08_test::interleaved(rows_of(all.last_state, q)), tol));
      CHECK_CLOSE("du", common::compare(g.du, here(all_grad.du), tol));
      CHECK_CLOSE("ddelta", common::compare(g.ddelta, here(all_grad.ddelta), tol));
      CHECK_CLOSE("dz", common::compare(g.dz, here(all_grad.dz), tol));
      const std::int64_t projections = packed.groups * packed.dstate;
      CHECK_CLOSE("dB", common::compare(ch08_test::interleaved(g.dB),
                                        ch08_test::interleaved(ch08_test::steps_of_rows(all_grad.dB, projections,
                                                                                        packed.seqlen, begin, end)),
                                        tol));
      CHECK_CLOSE("dC", common::compare(ch08_test::interleaved(g.dC),
                                        ch08_test::interleaved(ch08_test::steps_of_rows(all_grad.dC, projections,
                                                                                        packed.seqlen, begin, end)),
                                        tol));
      CHECK_CLOSE("dinitial_state", common::compare(ch08_test::interleaved(g.dinitial_state),
                                                    ch08_test::interleaved(rows_of(all_grad.dinitial_state, q)), tol));
      for (std::size_t i = 0; i < dA.size(); ++i) dA[i] += g.dA[i];
      for (std::size_t i = 0; i < dD.size(); ++i) dD[i] += g.dD[i], ddelta_bias[i] += g.ddelta_bias[i];
    }
    // The weights' gradients are the sequences' summed.
    CHECK_CLOSE("dA", common::compare(ch08_test::interleaved(dA), ch08_test::interleaved(all_grad.dA), tol));
    CHECK_CLOSE("dD", common::compare(dD, all_grad.dD, tol));
    CHECK_CLOSE("ddelta_bias", common::compare(ddelta_bias, all_grad.ddelta_bias, tol));
    // The same steps as one sequence (no resets) give other outputs after the first boundary.
    Problem unpacked = packed;
    unpacked.cu_seqlens.clear();
    unpacked.initial_state = rows_of(packed.initial_state, 0);
    const ch08::ForwardResult joined = ch08::reference_forward(unpacked);
    CHECK_FALSE(common::compare(joined.out, all.out, {1e-6, 1e-6}).ok);
  }
}

TEST_CASE("the reference refuses packed sequences that do not tile the steps") {
  Problem shape;
  shape.dim = 2, shape.seqlen = 6;
  Problem p = ch08::make_official_test_problem(shape, 1);
  p.cu_seqlens = {0, 3, 5};
  CHECK_THROWS_WITH(ch08::reference_forward(p), Catch::Contains("from 0 to seqlen"));
  p.cu_seqlens = {0, 3, 3, 6};
  CHECK_THROWS_WITH(ch08::reference_forward(p), Catch::Contains("every sequence has a step"));
  p.cu_seqlens = {0, 6};
  p.batch = 2;
  CHECK_THROWS_WITH(ch08::reference_forward(p), Catch::Contains("need batch 1"));
}

// Version 5 cuts a long sequence into segments (segment_carry.cuh) on two facts, checked here in
// fp64. Forwards, a segment maps the state at its start to the state at its end by
// h -> a h + b, with a = prod_t exp(delta_t A) = exp(A sum_t delta_t) and b its end state from
// h = 0. Backwards, the gradient q handed to the step before a segment is the segment's own part
// (from q = 0 at its end) plus conj(a) times the q handed back across its end.
TEST_CASE("a cut sequence: the product of the decays carries h forwards and q backwards") {
  for (bool complex : {false, true}) {
    const Problem whole = split_in_time_problem(complex, 7);
    constexpr std::int64_t kCut = 4;
    const Problem first = ch08_test::time_slice(whole, 0, kCut);
    Problem second = ch08_test::time_slice(whole, kCut, whole.seqlen - kCut);
    INFO(ch08_test::describe(whole));

    // Forwards: the end state of the second segment from h = 0, carried by a.
    const ch08::ForwardResult all = ch08::reference_forward(whole);
    const ch08::ForwardResult r1 = ch08::reference_forward(first);
    second.initial_state.assign(whole.initial_state.size(), Complex(0, 0));
    const ch08::ForwardResult from_zero = ch08::reference_forward(second);
    const std::vector<Complex> a2 = decay_product(whole, kCut, whole.seqlen);
    std::vector<Complex> carried;
    for (std::size_t i = 0; i < a2.size(); ++i) carried.push_back(a2[i] * r1.last_state[i] + from_zero.last_state[i]);
    CHECK_CLOSE(
        "h at the end, carried across the cut",
        common::compare(ch08_test::interleaved(carried), ch08_test::interleaved(all.last_state), {1e-12, 1e-12}));

    // Backwards: q at step 0 of the whole from the two segments' own.
    const std::vector<double> dout = output_gradient(whole);
    const std::vector<double> dout1 = steps_of(whole, dout, 0, kCut), dout2 = steps_of(whole, dout, kCut, whole.seqlen);
    second.initial_state = r1.last_state;  // the segment as it runs in the whole
    const ch08::Gradients g_all = ch08::reference_backward(whole, dout);
    const ch08::Gradients g1 = ch08::reference_backward(first, dout1);
    const ch08::Gradients g2 = ch08::reference_backward(second, dout2);
    const std::vector<Complex> a1 = decay_product(whole, 0, kCut);
    std::vector<Complex> q0;
    for (std::size_t i = 0; i < a1.size(); ++i)
      q0.push_back(g1.dinitial_state[i] + std::conj(a1[i]) * g2.dinitial_state[i]);
    CHECK_CLOSE(
        "q at the start, carried back across the cut",
        common::compare(ch08_test::interleaved(q0), ch08_test::interleaved(g_all.dinitial_state), {1e-12, 1e-12}));
    // ...and without the carried part it is wrong: the cut matters.
    CHECK_FALSE(common::compare(ch08_test::interleaved(g1.dinitial_state), ch08_test::interleaved(g_all.dinitial_state),
                                {1e-6, 1e-6})
                    .ok);
  }
}

// Version 5's backward cuts a sequence into many segments and folds their summaries both ways
// (v5_checkpoints_backward.cu, carry::fold_backward): a first launch gives each segment its end
// state from h = 0 (segment 0: from the initial state) and the q leaving its first step from
// q = 0; the second folds them, x = b_j + a_j x, segments 0 ... s - 1 for h at the start of
// segment s and S - 1 ... s + 1 for q at its end. Checked in fp64 on four segments of 2, 1, 3
// and 3 steps against the uncut sequence's state and gradient at every cut.
TEST_CASE("a sequence cut in four: the summaries folded both ways give h and q at every cut") {
  for (bool complex : {false, true}) {
    const Problem whole = split_in_time_problem(complex, 11);
    INFO(ch08_test::describe(whole));
    const std::vector<std::int64_t> bounds = {0, 2, 3, 6, 9};
    const int segments = int(bounds.size()) - 1;
    const std::vector<double> dout = output_gradient(whole);

    // The first launch: each segment's a and its two summaries.
    std::vector<std::vector<Complex>> a(segments), ends(segments), backs(segments);
    for (int s = 0; s < segments; ++s) {
      Problem segment = ch08_test::time_slice(whole, bounds[s], bounds[s + 1] - bounds[s]);
      if (s > 0) segment.initial_state.assign(whole.initial_state.size(), Complex(0, 0));
      a[s] = decay_product(whole, bounds[s], bounds[s + 1]);
      ends[s] = ch08::reference_forward(segment).last_state;
      backs[s] = ch08::reference_backward(segment, steps_of(whole, dout, bounds[s], bounds[s + 1])).dinitial_state;
    }
    // The second: the folds, in the kernel's order, against the uncut sequence.
    const std::size_t states = a[0].size();
    for (int s = 0; s < segments; ++s) {
      INFO("segment " << s);
      std::vector<Complex> h(states), q(states);
      for (std::size_t i = 0; i < states; ++i) {
        for (int j = 0; j < s; ++j) h[i] = ends[j][i] + a[j][i] * h[i];
        for (int j = segments - 1; j > s; --j) q[i] = backs[j][i] + std::conj(a[j][i]) * q[i];
      }
      if (s > 0) {
        const std::vector<Complex> truth =
            ch08::reference_forward(ch08_test::time_slice(whole, 0, bounds[s])).last_state;
        CHECK_CLOSE("h at the segment's start",
                    common::compare(ch08_test::interleaved(h), ch08_test::interleaved(truth), {1e-12, 1e-12}));
      }
      if (s + 1 < segments) {
        // The uncut sequence's q there: what the rest of it hands back to its first step.
        Problem rest = ch08_test::time_slice(whole, bounds[s + 1], whole.seqlen - bounds[s + 1]);
        rest.initial_state = ch08::reference_forward(ch08_test::time_slice(whole, 0, bounds[s + 1])).last_state;
        const std::vector<Complex> truth =
            ch08::reference_backward(rest, steps_of(whole, dout, bounds[s + 1], whole.seqlen)).dinitial_state;
        CHECK_CLOSE("q at the segment's end",
                    common::compare(ch08_test::interleaved(q), ch08_test::interleaved(truth), {1e-12, 1e-12}));
      }
    }
  }
}

TEST_CASE("real A stays real: every imaginary part of the states is zero") {
  Problem shape;
  shape.batch = 2;
  shape.dim = 4;
  shape.seqlen = 6;
  shape.dstate = 3;
  shape.has_initial_state = true;
  const ch08::ForwardResult r = ch08::reference_forward(ch08::make_official_test_problem(shape, 3));
  for (const Complex& h : r.last_state) CHECK(h.imag() == 0.0);
}

TEST_CASE("constant B and C equal variable ones repeated over batch and time") {
  Problem shape;
  shape.batch = 2;
  shape.dim = 4;
  shape.seqlen = 5;
  shape.dstate = 3;
  shape.groups = 4;  // one channel per group: a variable B can hold a constant (dim, dstate) one
  shape.complex = true;
  shape.has_D = shape.has_z = true;
  shape.variable_B = shape.variable_C = false;
  const Problem constant = ch08::make_official_test_problem(shape, 8);
  const Problem variable = ch08_test::made_variable(constant);
  CHECK_CLOSE("out_z", common::compare(ch08::reference_forward(variable).out_z, ch08::reference_forward(constant).out_z,
                                       {0, 0}));
}

TEST_CASE("the reference refuses inconsistent problems with one line") {
  Problem shape;
  shape.dim = 4;
  shape.seqlen = 3;
  Problem p = ch08::make_official_test_problem(shape, 1);
  p.groups = 3;  // 4 channels cannot split into 3 groups
  CHECK_THROWS_WITH(ch08::reference_forward(p), Catch::Contains("divisible by groups"));
  CHECK_THROWS_AS(ch08::make_official_test_problem(p, 1), std::invalid_argument);
  p.groups = 1;
  p.u.pop_back();
  CHECK_THROWS_WITH(ch08::reference_forward(p), Catch::Contains("u has 11 elements, expected 12"));
  p = ch08::make_official_test_problem(shape, 1);
  CHECK_THROWS_WITH(ch08::reference_backward(p, std::vector<double>(5)), Catch::Contains("dout has 5 elements"));
}
