// Chapter 09's exercises. In the `exercises` preset the stubs are compiled in place of the
// solutions, and every test here must fail until the reader writes the solution. No expected
// value comes from the solutions themselves: they come from finite differences of the forward
// pieces (which are not exercises), from numbers worked by hand, and from chapter 08's parallel
// scan.
#include "causal_conv1d.hpp"
#include "ch09_test_support.hpp"
#include "reference.hpp"
#include "rms_norm.hpp"
#include "ssm_step.hpp"

#include <cmath>
#include <functional>

namespace {

std::vector<double> normals(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> v(n);
  for (double& x : v) x = normal(rng);
  return v;
}

// Central differences of loss() in each element of `x`.
std::vector<double> differences(std::vector<double>& x, const std::function<double()>& loss) {
  const double h = 1e-6;
  std::vector<double> g(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double keep = x[i];
    x[i] = keep + h;
    const double up = loss();
    x[i] = keep - h;
    const double down = loss();
    x[i] = keep;
    g[i] = (up - down) / (2 * h);
  }
  return g;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

// ---- Exercise 1: the causal conv1d backward ----

TEST_CASE("exercise 1: causal_conv1d_backward by hand on a width-2 filter", "[exercise]") {
  // out_t = b + w0 x_{t-1} + w1 x_t over x = (1, 2, 3): dout = (1, 0, 0) reaches x_0 through w1
  // only; dout = (0, 0, 1) reaches x_1 through w0 and x_2 through w1.
  const std::vector<double> x = {1, 2, 3}, w = {10, 100};
  std::vector<double> dx(3), dw = {0, 0};
  double db = 0;
  ch09::causal_conv1d_backward(x, w, std::vector<double>{1, 0, 0}, dx, dw, db);
  CHECK_CLOSE("dx, dout = (1,0,0)", common::compare(dx, std::vector<double>{100, 0, 0}, {0, 1e-14}));
  CHECK_CLOSE("dw, dout = (1,0,0)", common::compare(dw, std::vector<double>{0, 1}, {0, 1e-14}));  // x_{-1} = 0
  CHECK(db == 1.0);
  ch09::causal_conv1d_backward(x, w, std::vector<double>{0, 0, 1}, dx, dw, db);
  CHECK_CLOSE("dx, dout = (0,0,1)", common::compare(dx, std::vector<double>{0, 10, 100}, {0, 1e-14}));
  CHECK_CLOSE("dw accumulated", common::compare(dw, std::vector<double>{2, 4}, {0, 1e-14}));
  CHECK(db == 2.0);
}

TEST_CASE("exercise 1: causal_conv1d_backward matches finite differences of the forward", "[exercise]") {
  const std::size_t L = 11, W = 4;
  std::vector<double> x = normals(L, 1), w = normals(W, 2), dout = normals(L, 3);
  std::vector<double> bias = {0.3};
  auto loss = [&] {
    std::vector<double> out(L);
    ch09::causal_conv1d_forward(x, w, bias[0], out);
    return dot(out, dout);
  };
  std::vector<double> dx(L), dw(W, 0.0);
  double db = 0;
  ch09::causal_conv1d_backward(x, w, dout, dx, dw, db);
  CHECK_CLOSE("dx", common::compare(dx, differences(x, loss), {1e-8, 1e-7}));
  CHECK_CLOSE("dweight", common::compare(dw, differences(w, loss), {1e-8, 1e-7}));
  CHECK_CLOSE("dbias", common::compare(std::vector<double>{db}, differences(bias, loss), {1e-8, 1e-7}));
}

// ---- Exercise 2: the RMSNorm backward ----

TEST_CASE("exercise 2: rms_norm_backward matches finite differences of the forward", "[exercise]") {
  const std::size_t C = 7;
  std::vector<double> x = normals(C, 4), w = normals(C, 5), dout = normals(C, 6);
  auto loss = [&] {
    std::vector<double> out(C);
    ch09::rms_norm_forward(x, w, out);
    return dot(out, dout);
  };
  std::vector<double> out(C), dx(C), dw(C, 0.0);
  const double inv_rms = ch09::rms_norm_forward(x, w, out);
  ch09::rms_norm_backward(x, w, inv_rms, dout, dx, dw);
  CHECK_CLOSE("dx", common::compare(dx, differences(x, loss), {1e-8, 1e-7}));
  CHECK_CLOSE("dweight", common::compare(dw, differences(w, loss), {1e-8, 1e-7}));
}

TEST_CASE("exercise 2: rms_norm_backward by hand: a column along x passes no gradient", "[exercise]") {
  // RMSNorm output does not change when x is scaled (eps aside), so a gradient along x itself
  // must vanish from dx: with w = 1 and dout = x, dx = x·r³·eps ≈ 1e-6. And dweight adds up over calls.
  const std::vector<double> x = {3, -4}, w = {1, 1};
  std::vector<double> out(2), dx(2), dw = {1, 1};
  const double r = ch09::rms_norm_forward(x, w, out);  // rms = sqrt(12.5 + eps)
  ch09::rms_norm_backward(x, w, r, x, dx, dw);
  CHECK_CLOSE("dx", common::compare(dx, std::vector<double>{0, 0}, {1e-5, 0}));
  CHECK_CLOSE("dweight", common::compare(dw, std::vector<double>{1 + 9 * r, 1 + 16 * r}, {1e-12, 1e-12}));
  std::vector<double> dx2(2), dw2 = {0, 0};
  ch09::rms_norm_backward(x, w, r, std::vector<double>{1, 0}, dx2, dw2);
  CHECK(dx2[0] > 0.0);  // pushing n_0 up pulls x_0 up...
  CHECK(dx2[1] > 0.0);  // ...and, x_1 being negative, x_1 up too (it shrinks the rms)
}

// ---- Exercise 3: one recurrent step of the SSM ----

TEST_CASE("exercise 3: ssm_step by hand, one state", "[exercise]") {
  // h = 2, δ = ln 2, A = -1: Ā = 1/2; h ← 1 + δ·B·u = 1 + ln2·3·1; y = C h + D u.
  std::vector<double> h = {2.0};
  const double delta = std::log(2.0);
  const double out = ch09::ssm_step(h, std::vector<double>{-1.0}, std::vector<double>{3.0}, std::vector<double>{0.5},
                                    delta, 0.25, 1.0, 40.0);  // silu(40) = 40 to 1e-16
  const double h_new = 1.0 + 3.0 * delta;
  CHECK(h[0] == Approx(h_new).epsilon(1e-14));
  CHECK(out == Approx((0.5 * h_new + 0.25) * 40.0).epsilon(1e-13));
}

TEST_CASE("exercise 3: ssm_step stepped over a sequence equals chapter 08's parallel scan", "[exercise]") {
  ch08::Problem shape;
  shape.dim = 3;
  shape.seqlen = 9;
  shape.dstate = 4;
  shape.variable_B = shape.variable_C = true;
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = true;
  const ch08::Problem p = ch08::make_official_test_problem(shape, 17);
  const std::vector<double> expected = ch08::reference_forward(p).out_z;
  const std::size_t N = 4, L = 9;
  std::vector<double> got(expected.size());
  for (std::size_t d = 0; d < 3; ++d) {
    std::vector<double> h(N, 0.0), A(N), B(N), C(N);
    for (std::size_t n = 0; n < N; ++n) A[n] = p.A[d * N + n].real();
    for (std::size_t t = 0; t < L; ++t) {
      for (std::size_t n = 0; n < N; ++n) {
        B[n] = p.B[n * L + t].real();
        C[n] = p.C[n * L + t].real();
      }
      const std::size_t i = d * L + t;
      const double x = p.delta[i] + p.delta_bias[d];
      const double delta = x > 20 ? x : std::log1p(std::exp(x));
      got[i] = ch09::ssm_step(h, A, B, C, delta, p.D[d], p.u[i], p.z[i]);
    }
  }
  CHECK_CLOSE("gated outputs", common::compare(got, expected, {1e-12, 1e-10}));
}
