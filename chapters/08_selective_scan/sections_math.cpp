// The sections of chapter 08 on the formulas and the fp64 reference: one channel by hand, the
// selective step size, the decay of each state, ZOH against Euler, and the gradients.
#include "sections.hpp"

#include "check_group.hpp"
#include "finite_differences.hpp"
#include "reference.hpp"
#include "softplus.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

namespace ch08 {
namespace {

using common::Figure;
using common::Notebook;
using common::Series;

using common::softplus;
double silu(double x) { return x / (1.0 + std::exp(-x)); }

// Adding +0 turns −0 into 0, so the tables print no "-0.0000".
std::string fixed(double v, int digits = 4) { return fmt::format("{:.{}f}", v + 0.0, digits); }

// A one-channel, one-state problem (dim = dstate = batch = 1, constant B = C = 1, nothing
// optional): the recurrence h_t = exp(δ_t A) h_{t−1} + δ_t u_t, whose output y_t is h_t itself.
Problem single_state(double A, const std::vector<double>& u, const std::vector<double>& delta_raw) {
  Problem p;
  p.seqlen = std::int64_t(u.size());
  p.variable_B = p.variable_C = false;
  p.u = u;
  p.delta = delta_raw;
  p.A = {Complex(A, 0)};
  p.B = p.C = {Complex(1, 0)};
  return p;
}

}  // namespace

// ---- [1] ---------------------------------------------------------------------------------------
void section_one_channel(Notebook& nb) {
  nb.section("The selective scan on one channel, by the formulas");
  Problem shape;
  shape.seqlen = 6;
  shape.dstate = 2;
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = true;
  const Problem p = ch08::make_official_test_problem(shape, unsigned(nb.options().seed));
  nb.text(
      "One channel (batch = dim = 1), two states, six steps, the official test suite's random data:\n"
      "  δ_t = softplus(δraw_t + bias),  Ā_t,n = exp(δ_t A_n),  h_t,n = Ā_t,n h_t−1,n + δ_t B_t,n u_t,\n"
      "  y_t = Σ_n C_t,n h_t,n + D u_t,  out_z_t = y_t · silu(z_t),  h_−1 = 0.");
  nb.text(fmt::format("A = ({}, {}), D = {}, bias = {}", fixed(p.A[0].real()), fixed(p.A[1].real()), fixed(p.D[0]),
                      fixed(p.delta_bias[0])));
  const std::int64_t L = p.seqlen;
  std::vector<double> h(2, 0.0), y, out_z;
  std::vector<std::vector<std::string>> rows;
  for (std::int64_t t = 0; t < L; ++t) {
    const double delta = softplus(p.delta[t] + p.delta_bias[0]);
    std::vector<std::string> row{std::to_string(t), fixed(p.u[t]), fixed(delta)};
    double sum = 0;
    for (int n = 0; n < 2; ++n) {
      const double a_bar = std::exp(delta * p.A[n].real());
      h[n] = a_bar * h[n] + delta * p.B[n * L + t].real() * p.u[t];
      sum += p.C[n * L + t].real() * h[n];
      row.push_back(fixed(a_bar));
      row.push_back(fixed(h[n]));
    }
    y.push_back(sum + p.D[0] * p.u[t]);
    out_z.push_back(y.back() * silu(p.z[t]));
    row.push_back(fixed(y.back()));
    row.push_back(fixed(out_z.back()));
    rows.push_back(row);
  }
  nb.table({"t", "u_t", "δ_t", "Ā_t,0", "h_t,0", "Ā_t,1", "h_t,1", "y_t", "out_z_t"}, rows);
  const ch08::ForwardResult r = ch08::reference_forward(p);
  nb.check("the fp64 reference (reference.cpp) gives the same y", common::compare(y, r.out, {1e-14, 1e-13}));
  nb.check("and the same gated output", common::compare(out_z, r.out_z, {1e-14, 1e-13}));
  nb.check("and the same last state", common::compare(h, flatten(r.last_state, false), {1e-14, 1e-13}));
}

// ---- [2] ---------------------------------------------------------------------------------------
void section_selective_delta(Notebook& nb) {
  nb.section("The selective Δ: step sizes that follow the input");
  // δ_t = softplus(w u_t + bias): a quiet input keeps δ near softplus(bias) = 0.02, a burst
  // makes it large. A = −1, B = C = 1.
  const double w = 4.0, quiet_delta = 0.02, bias = std::log(std::expm1(quiet_delta)), A = -1.0;
  const std::size_t L = 200;
  std::vector<double> u = normal_values(L, nb.options().seed, 0.05);
  for (std::size_t t = 40; t < 50; ++t) u[t] = 1.5;
  for (std::size_t t = 120; t < 126; ++t) u[t] = 1.0;
  nb.text(
      fmt::format("δ_t = softplus({} u_t + bias), bias = softplus⁻¹({}) = {:.3f}; A = {}, B = C = 1. Quiet input\n"
                  "(u ~ 0.05·N(0,1)) with bursts at t = 40..49 (u = 1.5) and t = 120..125 (u = 1).",
                  w, quiet_delta, bias, A));
  std::vector<double> delta_raw(L), delta(L), h(L);
  double state = 0;
  for (std::size_t t = 0; t < L; ++t) {
    delta_raw[t] = w * u[t];
    delta[t] = softplus(delta_raw[t] + bias);
    state = std::exp(delta[t] * A) * state + delta[t] * u[t];
    h[t] = state;
  }
  struct Stretch {
    const char* name;
    std::size_t begin, end;
  };
  std::vector<std::vector<std::string>> rows;
  for (const Stretch s : {Stretch{"quiet, t = 0..39", 0, 40}, Stretch{"burst, t = 40..49", 40, 50},
                          Stretch{"quiet, t = 50..119", 50, 120}, Stretch{"burst, t = 120..125", 120, 126}}) {
    double sum = 0;
    for (std::size_t t = s.begin; t < s.end; ++t) sum += delta[t];
    const double mean = sum / double(s.end - s.begin);
    rows.push_back({s.name, fmt::format("{:.3f}", mean), fmt::format("{:.3f}", std::exp(mean * A)),
                    fmt::format("{:.1f}", 1.0 / (mean * std::abs(A)))});
  }
  nb.table({"stretch", "mean δ", "Ā = exp(δA)", "memory 1/(δ|A|), steps"}, rows);
  nb.text(
      "A large δ forgets the past (Ā near 0) and takes the input in; a small δ holds the state\n"
      "(Ā near 1) and lets the input through hardly at all: the burst's value is remembered long\n"
      "after it ends, and the noise between bursts barely moves it.");
  Problem p = single_state(A, u, delta_raw);
  p.has_delta_bias = p.delta_softplus = true;
  p.delta_bias = {bias};
  nb.check("the loop above is the reference's forward (one state, softplus, bias)",
           common::compare(h, ch08::reference_forward(p).out, {1e-14, 1e-12}));
  Figure f{"selective_delta",
           "The selective step size: δ follows the input, h follows δ",
           "step t",
           "",
           false,
           false,
           {},
           {"set key inside top right", "set yrange [-0.5:4.5]"}};  // h reaches 3.7 after the first burst
  // u_t, δ_t, h_t: subscripts
  Series su{"input u_t", {}, {}, "lines lw 1", true}, sd{"step size δ_t", {}, {}, "lines lw 2", true},
      sh{"state h_t (A = −1)", {}, {}, "lines lw 2", true};
  for (std::size_t t = 0; t < L; ++t) {
    su.x.push_back(double(t)), su.y.push_back(u[t]);
    sd.x.push_back(double(t)), sd.y.push_back(delta[t]);
    sh.x.push_back(double(t)), sh.y.push_back(h[t]);
  }
  f.series = {su, sd, sh};
  nb.figure(f);
}

// ---- [3] ---------------------------------------------------------------------------------------
void section_state_decay(Notebook& nb) {
  nb.section("Decay per state");
  const double delta = 0.1;
  const int N = 16, K = 60;
  nb.text(fmt::format(
      "A_n = −(n + 1) for n = 0..{} (the real S4D initialisation), δ = {}: state n forgets at its own rate\n"
      "Ā_n = exp(δ A_n). The impulse response of state n (u = 1 at t = 0, then 0; B = 1) is δ Ā_n^k.\n"
      "An Ā well below 1 dies out within a few steps; an Ā close to 1 keeps the input for long.",
      N - 1, delta));
  std::vector<double> got, expected;
  std::vector<std::vector<std::string>> rows;
  Figure f{"state_decay",
           fmt::format("Impulse response of each state, δ = {}", delta),
           "steps k after the impulse",
           "h_k = δ exp(δ A_n)^k",
           false,
           true,
           {},
           {"set key inside top right", "set yrange [1e-8:1]"}};
  f.markup = true;  // h_k, A_n
  for (int n = 0; n < N; ++n) {
    const double A = -(n + 1.0);
    std::vector<double> u(K, 0.0);
    u[0] = 1.0;
    const auto y = ch08::reference_forward(single_state(A, u, std::vector<double>(K, delta))).out;
    Series s{fmt::format("n = {} (A = {})", n, A), {}, {}, "linespoints lw 2 pt 7 ps 0.5"};
    for (int k = 0; k < K; ++k) {
      got.push_back(y[k]);
      expected.push_back(delta * std::exp(delta * A * k));
      if (y[k] >= 1e-8) s.x.push_back(k), s.y.push_back(y[k]);
    }
    if (n == 0 || n == 1 || n == 3 || n == 7 || n == 15) {
      f.series.push_back(s);
      rows.push_back({std::to_string(n), fixed(A, 0), fixed(std::exp(delta * A)),
                      fmt::format("{:.2f}", std::log(2.0) / (delta * -A))});
    }
  }
  nb.table({"state n", "A_n", "Ā_n = exp(δ A_n)", "half-life (steps)"}, rows);
  nb.check(fmt::format("the reference's impulse responses are δ Ā_n^k (all {} states, {} steps)", N, K),
           common::compare(got, expected, {1e-16, 1e-13}));
  nb.figure(f);
}

// ---- [4] ---------------------------------------------------------------------------------------
void section_zoh_vs_euler(Notebook& nb) {
  nb.section("ZOH against Euler for B̄");
  nb.text(
      "Zero-order hold discretises both: Ā = exp(δA), B̄ = (δA)⁻¹(exp(δA) − 1) δB. Mamba's kernel keeps\n"
      "Ā = exp(δA) but takes the simpler B̄ = δB (Euler). Per unit of δB, ZOH's B̄ is (1 − e^{−x}) / x\n"
      "with x = δ|A|: the two agree for small steps and part ways as δ|A| grows. Held input u = 1, B = 1:\n"
      "ZOH's state settles at B u / |A| for any δ; Euler's at δ B u / (1 − e^{−x}), too high by ~x/2.");
  std::vector<std::vector<std::string>> rows;
  for (double x : {0.001, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0})
    rows.push_back({fmt::format("{}", x), fmt::format("{:.4f}", -std::expm1(-x) / x), "1",
                    fmt::format("{:.4f}", x / -std::expm1(-x))});
  nb.table({"δ|A|", "B̄ ZOH ÷ δB", "steady state ZOH · |A|", "steady state Euler · |A|"}, rows);

  // The held input u = 1 from h = 0: ZOH is exact at the sample times, h(kδ) = (1 − e^{A kδ}) / |A|.
  const double A = -1.0, delta = 0.5;
  const int steps = 40;
  std::vector<double> zoh, exact, euler;
  double hz = 0, he = 0;
  for (int k = 1; k <= steps; ++k) {
    hz = std::exp(delta * A) * hz + std::expm1(delta * A) / A;
    he = std::exp(delta * A) * he + delta;
    zoh.push_back(hz);
    euler.push_back(he);
    exact.push_back(-std::expm1(A * k * delta) / -A);
  }
  nb.check(fmt::format("ZOH's recurrence samples the exact solution of h' = A h + B u (δ|A| = {}, {} steps)",
                       delta * -A, steps),
           common::compare(zoh, exact, {1e-15, 1e-13}));
  const auto reference =
      ch08::reference_forward(single_state(A, std::vector<double>(steps, 1.0), std::vector<double>(steps, delta))).out;
  nb.check("the reference (and every kernel) uses Euler's B̄ = δB", common::compare(euler, reference, {1e-15, 1e-13}));
  nb.value("after 40 steps, Euler's state ÷ ZOH's",
           fmt::format("{:.4f} (= x / (1 − e^{{−x}}) at x = {})", euler.back() / zoh.back(), delta * -A));

  Figure f{"zoh_vs_euler",
           "B̄ by zero-order hold, per unit of Euler's δB",
           "x = δ|A|",
           "B̄_ZOH ÷ δB",
           true,
           false,
           {},
           {"set key inside bottom left", "set yrange [0:1.1]"}};
  Series ratio{"ZOH: (1 − e^{−x}) / x", {}, {}, "lines lw 2", true},  // the axis label's B̄_ZOH stays plain
      one{"Euler (Mamba's kernel): 1", {}, {}, "lines lw 2 dt 2"};
  for (int i = 0; i <= 80; ++i) {
    const double x = std::pow(10.0, -3.0 + 4.3 * i / 80);
    ratio.x.push_back(x), ratio.y.push_back(-std::expm1(-x) / x);
    one.x.push_back(x), one.y.push_back(1.0);
  }
  f.series = {ratio, one};
  nb.figure(f);
}

// ---- [5] ---------------------------------------------------------------------------------------

void section_gradients(Notebook& nb) {
  nb.section("The reference's gradients against finite differences");
  nb.text(fmt::format(
      "L = Σ dout · out_final with dout ~ N(0, 1); every gradient of reference_backward against the central\n"
      "difference (L(θ + h) − L(θ − h)) / 2h, h = {:g}, of every element of every input.",
      ch08::kFiniteDifferenceStep));
  struct Case {
    const char* name;
    Problem shape;
  };
  Problem real;
  real.batch = 2, real.dim = 4, real.seqlen = 7, real.dstate = 3, real.groups = 2;
  real.has_D = real.has_z = real.has_delta_bias = real.delta_softplus = real.has_initial_state = true;
  Problem complex = real;
  complex.seqlen = 6, complex.groups = 1, complex.complex = true, complex.variable_B = false;
  for (const Case& c : {Case{"real A, B and C variable in 2 groups, every option", real},
                        Case{"complex A, constant B, variable C, every option", complex}}) {
    const Problem p = ch08::make_official_test_problem(c.shape, unsigned(nb.options().seed) + 11);
    const std::vector<double> dout = normal_values(std::size_t(p.sequence_elements()), nb.options().seed + 12);
    const ch08::Gradients g = ch08::reference_backward(p, dout);
    // One line for the case's nine gradients; a gradient that fails gets its own line.
    ch08::CheckGroup gradients;
    const auto check = [&](const char* what, const std::vector<double>& analytic, const std::vector<double>& numeric) {
      const common::Comparison result = common::compare(analytic, numeric, ch08::kFiniteDifferenceTolerance);
      gradients.add({fmt::format("{}, {}", what, p.complex ? "complex" : "real"), result.ok, result.summary(), 1,
                     ch08::bound_used(analytic, numeric, ch08::kFiniteDifferenceTolerance), what});
    };
    check("du", g.du, ch08::finite_differences(p, &Problem::u, dout));
    check("ddelta", g.ddelta, ch08::finite_differences(p, &Problem::delta, dout));
    check("dz", g.dz, ch08::finite_differences(p, &Problem::z, dout));
    check("dA", flatten(g.dA, p.complex), flatten(ch08::finite_differences(p, &Problem::A, dout), p.complex));
    check("dB", flatten(g.dB, p.complex), flatten(ch08::finite_differences(p, &Problem::B, dout), p.complex));
    check("dC", flatten(g.dC, p.complex), flatten(ch08::finite_differences(p, &Problem::C, dout), p.complex));
    check("dD", g.dD, ch08::finite_differences(p, &Problem::D, dout));
    check("ddelta_bias", g.ddelta_bias, ch08::finite_differences(p, &Problem::delta_bias, dout));
    check("dinitial_state", flatten(g.dinitial_state, p.complex),
          flatten(ch08::finite_differences(p, &Problem::initial_state, dout), p.complex));
    const common::Tolerance tol = ch08::kFiniteDifferenceTolerance;
    gradients.report(
        nb, fmt::format("{} (batch {}, dim {}, seqlen {}, dstate {})", c.name, p.batch, p.dim, p.seqlen, p.dstate),
        "gradients", [&](int count, int) {
          return fmt::format("{} gradients match within atol {:g} + rtol {:g}·|ref|", count, tol.atol, tol.rtol);
        });
  }
}

}  // namespace ch08
