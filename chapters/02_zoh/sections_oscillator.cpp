// Chapter 02's sections on one continuous system, a damped oscillator, and the four rules that
// discretize it: their (Ā, B̄), their convergence on a staircase input (ZOH exact), and their
// step and impulse responses at a coarse step.
#include "discretize.hpp"
#include "oscillator.hpp"
#include "sections.hpp"
#include "ssm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace ch02 {

using common::Figure;
using zoh::Method;

namespace {

// The test system of sections 1-3, and the coarse step its responses are drawn at.
const zoh::Oscillator kOscillator{2.0, 0.2};
constexpr double kCoarseStep = 0.25;

// The largest |eigenvalue| of a 2 × 2 row-major matrix, from its trace and determinant.
double spectral_radius_2x2(const std::vector<double>& m) {
  const double trace = m[0] + m[3], det = m[0] * m[3] - m[1] * m[2];
  const double disc = trace * trace - 4 * det;
  if (disc < 0) return std::sqrt(det);  // a complex pair, |λ|² = det
  return std::max(std::abs(trace + std::sqrt(disc)), std::abs(trace - std::sqrt(disc))) / 2;
}

std::string matrix_text(const std::vector<double>& m, int n) {
  std::string out = "[";
  for (int i = 0; i < n; ++i) {
    out += i ? "; " : "";
    for (int j = 0; j < n; ++j) out += fmt::format("{}{:.5f}", j ? ", " : "", m[std::size_t(i) * n + j]);
  }
  return out + "]";
}

std::string vector_text(const std::vector<double>& v) {
  std::string out = "(";
  for (std::size_t i = 0; i < v.size(); ++i) out += fmt::format("{}{:.5f}", i ? ", " : "", v[i]);
  return out + ")";
}

}  // namespace

void section_four_rules(Notebook& nb) {
  nb.section("One continuous system, four discrete ones");
  nb.text(
      "h' = A h + B x, y = C h + D x, for a damped oscillator p'' + 2ζω p' + ω² p = ω² x (ω = 2, ζ = 0.2):\n"
      "A = [[0, 1], [-ω², -2ζω]], B = (0, ω²), C = (1, 0), D = 0. Each rule gives (Ā, B̄) for the step Δ;\n"
      "C and D are the same in every discrete system.");
  const auto system = kOscillator.system();
  std::vector<std::vector<std::string>> rows;
  for (Method m : zoh::kMethods) {
    const auto d = zoh::discretize(system, kCoarseStep, m);
    rows.push_back({zoh::name(m), matrix_text(d.Abar, 2), vector_text(d.Bbar)});
  }
  nb.value("Δ", fmt::format("{}", kCoarseStep));
  nb.table({"rule", "Ā", "B̄"}, rows);

  const auto block = zoh::discretize(system, kCoarseStep, Method::zoh);
  nb.check("ZOH's B̄ from exp(Δ[[A, B], [0, 0]]) = A⁻¹(exp(ΔA) − I)B (A invertible)",
           common::compare(block.Bbar, zoh::zoh_bbar_by_inverse(system, kCoarseStep), {1e-15, 1e-13}));

  // A double integrator p'' = x: A is nilpotent (A² = 0), so exp(ΔA) = I + ΔA and
  // ∫₀^Δ exp(sA) ds B = (ΔI + Δ²A/2) B -- exact, and A⁻¹ does not exist.
  const zoh::ContinuousSsm integrator{2, {0, 1, 0, 0}, {0, 1}, {1, 0}, 0};
  std::vector<double> got, expected;
  for (double delta : {1e-8, 0.25, 3.0}) {
    const auto d = zoh::discretize(integrator, delta, Method::zoh);
    got.insert(got.end(), d.Abar.begin(), d.Abar.end());
    got.insert(got.end(), d.Bbar.begin(), d.Bbar.end());
    expected.insert(expected.end(), {1, delta, 0, 1, delta * delta / 2, delta});
  }
  nb.check("ZOH of a singular A (p'' = x): Ā = I + ΔA, B̄ = (Δ²/2, Δ) for Δ = 1e-8, 0.25, 3",
           common::compare(got, expected, {1e-15, 1e-13}));
}

void section_exact_for_staircase(Notebook& nb) {
  nb.section("ZOH is exact for piecewise-constant input; the others converge");
  nb.text(
      "The oscillator driven by a staircase: 8 random levels, each held for one time unit. The exact\n"
      "output is a sum of shifted closed-form step responses. Each rule steps with Δ = 1/m, so the input\n"
      "is constant over every step; the error is max_k |y_k − y((k+1)Δ)| over 0 < t ≤ 8.");
  std::mt19937_64 rng(nb.options().seed);
  std::uniform_real_distribution<double> level(-1.0, 1.0);
  std::vector<double> levels(8);
  for (double& v : levels) v = level(rng);
  const auto system = kOscillator.system();

  std::map<Method, std::vector<double>> errors;
  std::vector<double> deltas;
  std::vector<std::vector<std::string>> rows;
  for (int m = 1; m <= 1024; m *= 2) {
    const double delta = 1.0 / m;
    deltas.push_back(delta);
    const auto x = zoh::staircase_samples(levels, m);
    std::vector<double> exact(x.size());
    for (std::size_t k = 0; k < x.size(); ++k)
      exact[k] = zoh::staircase_response(kOscillator, levels, 1.0, double(k + 1) / m);
    std::vector<std::string> row{fmt::format("1/{}", m)};
    for (Method method : zoh::kMethods) {
      const auto y = zoh::simulate(zoh::discretize(system, delta, method), x);
      double worst = 0;
      for (std::size_t k = 0; k < y.size(); ++k) worst = std::max(worst, std::abs(y[k] - exact[k]));
      errors[method].push_back(worst);
      row.push_back(sci(worst));
    }
    rows.push_back(row);
  }
  std::vector<std::string> header{"Δ"};
  for (Method method : zoh::kMethods) header.push_back(zoh::name(method));
  nb.table(header, rows);

  Figure f{"error_vs_delta",
           "Largest output error on a staircase input, against the step Δ",
           "step Δ",
           "max_k |y_k − y(t_k)|",
           true,
           true,
           {},
           {"set key inside right center", "set format y '10^{%T}'"}};
  f.markup = true;  // max_k, y_k: subscripts
  for (Method method : zoh::kMethods)
    f.series.push_back({zoh::name(method), deltas, errors[method], "linespoints lw 2"});
  nb.figure(f);

  const double zoh_worst = *std::max_element(errors[Method::zoh].begin(), errors[Method::zoh].end());
  nb.check("ZOH matches the exact solution at every step, for every Δ", zoh_worst <= 1e-12,
           fmt::format("largest error {} ≤ 1e-12", sci(zoh_worst)));
  // The order p of a rule: error ∝ Δ^p, measured between Δ = 1/256 and 1/1024.
  const std::size_t last = deltas.size() - 1;
  for (auto [method, order] :
       {std::pair{Method::euler, 1.0}, std::pair{Method::mamba, 1.0}, std::pair{Method::bilinear, 2.0}}) {
    const double p = std::log(errors[method][last - 2] / errors[method][last]) / std::log(4.0);
    nb.check(fmt::format("{} converges with order {}", zoh::name(method), order), std::abs(p - order) <= 0.1,
             fmt::format("measured order {:.3f} between Δ = 1/256 and 1/1024 (allowed {} ± 0.1)", p, order));
  }
}

void section_responses(Notebook& nb) {
  nb.section("Step and impulse responses at a coarse step");
  nb.text(fmt::format(
      "The same oscillator, Δ = {} (about 13 steps per period). Step: x_k = 1. Impulse: x_0 = 1, then 0; the\n"
      "discrete impulse response K_k = C Ā^k B̄ is compared with the continuous g(t) = C exp(tA) B through\n"
      "K_k / Δ. The continuous system settles at D − C A⁻¹ B = 1.",
      kCoarseStep));
  const auto system = kOscillator.system();
  const int steps = 40;
  const double t_end = steps * kCoarseStep;
  const auto fine = linspace(0, t_end, 801);

  Figure step{"step_response",
              fmt::format("Step response, Δ = {}", kCoarseStep),
              "time t",
              "y(t)",
              false,
              false,
              {},
              {"set key inside right bottom", "set yrange [-1.2:2.2]"}};
  Figure impulse{"impulse_response",
                 fmt::format("Impulse response: K_k / Δ over [kΔ, (k+1)Δ), Δ = {}", kCoarseStep),
                 "time t",
                 "K_k / Δ",
                 false,
                 false,
                 {},
                 {"set key inside left bottom", "set yrange [-6:4]", "set xzeroaxis"}};
  impulse.markup = true;  // K_k
  std::vector<double> exact_step, exact_impulse;
  for (double t : fine) {
    exact_step.push_back(kOscillator.step_response(t));
    exact_impulse.push_back(kOscillator.impulse_response(t));
  }
  step.series.push_back({"exact", fine, exact_step, "lines lw 3 lc rgb '#bbbbbb'"});
  impulse.series.push_back({"exact g(t)", fine, exact_impulse, "lines lw 3 lc rgb '#bbbbbb'"});

  std::vector<double> ones(steps, 1.0), pulse(steps, 0.0), t_end_of_step(steps), t_start_of_step(steps);
  pulse[0] = 1.0;
  for (int k = 0; k < steps; ++k) t_end_of_step[k] = (k + 1) * kCoarseStep, t_start_of_step[k] = k * kCoarseStep;
  std::vector<std::vector<std::string>> rows;
  std::map<Method, std::vector<double>> K;
  for (Method method : zoh::kMethods) {
    const auto d = zoh::discretize(system, kCoarseStep, method);
    const auto y = zoh::simulate(d, ones);
    K[method] = zoh::simulate(d, pulse);
    std::vector<double> per_time(steps);
    for (int k = 0; k < steps; ++k) per_time[k] = K[method][k] / kCoarseStep;
    step.series.push_back({zoh::name(method), t_end_of_step, y, "points pt 7 ps 0.6"});
    impulse.series.push_back({zoh::name(method), t_start_of_step, per_time, "steps lw 2"});
    double worst = 0;
    for (int k = 0; k < steps; ++k)
      worst = std::max(worst, std::abs(y[k] - kOscillator.step_response(t_end_of_step[k])));
    rows.push_back({zoh::name(method), fmt::format("{:.4f}", spectral_radius_2x2(d.Abar)), sci(worst),
                    fmt::format("{:.6f}", zoh::steady_state_gain(d))});
  }
  nb.table({"rule", "ρ(Ā)", "max step-response error", "C(I − Ā)⁻¹B̄"}, rows);
  nb.text(
      "ρ(Ā) < 1: the discrete system is stable and settles at C(I − Ā)⁻¹B̄ + D. Euler's ρ > 1 here: it\n"
      "oscillates with a growing amplitude instead (it is stable only for Δ < 2ζ/ω = 0.2).");
  nb.figure(step);
  nb.figure(impulse);

  // ZOH's K_k is the response to x = 1 on [0, Δ): s((k+1)Δ) − s(kΔ), the integral of g over
  // step k. Mamba's B̄ = ΔB makes K_k = Δ C exp(kΔA) B = Δ g(kΔ): the left end of that step.
  std::vector<double> zoh_expected(steps), mamba_expected(steps);
  for (int k = 0; k < steps; ++k) {
    zoh_expected[k] = kOscillator.step_response(t_end_of_step[k]) - kOscillator.step_response(t_start_of_step[k]);
    mamba_expected[k] = kCoarseStep * kOscillator.impulse_response(t_start_of_step[k]);
  }
  nb.check("ZOH: K_k = s((k+1)Δ) − s(kΔ) = ∫ g over step k",
           common::compare(K[Method::zoh], zoh_expected, {1e-13, 1e-12}));
  nb.check("Mamba: K_k = Δ g(kΔ)", common::compare(K[Method::mamba], mamba_expected, {1e-13, 1e-12}));
  nb.check(
      "ZOH settles where the continuous system does (gain 1)",
      common::compare(std::vector<double>{zoh::steady_state_gain(zoh::discretize(system, kCoarseStep, Method::zoh))},
                      std::vector<double>{1.0}, {0, 1e-12}));
}

}  // namespace ch02
