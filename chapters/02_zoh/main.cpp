// ch02_zoh -- Chapter 02: from continuous to discrete.
//
// The continuous state space model h' = Ah + Bx, y = Ch + Dx, and four ways to turn it into
// the recurrence h_k = Ā h_{k-1} + B̄ x_k: zero-order hold (ZOH), bilinear, forward Euler and
// Mamba's mix. Run with --help for the options; the chapter's text is README.md beside this
// file.
#include "benchmark_results.hpp"
#include "chapter_main.hpp"
#include "checked_timing.hpp"
#include "diagonal.hpp"
#include "discretize.hpp"
#include "gpu.hpp"
#include "gpu_discretize.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "oscillator.hpp"
#include "results_csv.hpp"
#include "selective.hpp"
#include "timing.hpp"
#include "zoh_kernels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using common::Figure;
using common::Notebook;
using common::Series;
using zoh::Method;

struct Options {
  int batch = 2;
  int length = 300;
  int channels = 96;
  int state = 16;
};

// The test system of sections 1-3, and the coarse step its responses are drawn at.
const zoh::Oscillator kOscillator{2.0, 0.2};
constexpr double kCoarseStep = 0.25;

std::string sci(double v) { return fmt::format("{:.2e}", v); }

std::vector<double> linspace(double first, double last, int count) {
  std::vector<double> v(count);
  for (int i = 0; i < count; ++i) v[i] = first + (last - first) * i / (count - 1);
  return v;
}

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

// φ₁ in 80-bit long double, for checking the double versions.
double phi1_long_double(double z) { return z == 0 ? 1.0 : double(std::expm1(static_cast<long double>(z)) / z); }

void section_diagonal(Notebook& nb) {
  nb.section("Diagonal A: element by element, and no 0/0");
  nb.text(
      "For A = diag(a), every rule acts on each a_i alone: ā = exp(z), b̄ = Δ φ₁(z) b with z = Δ a_i and\n"
      "φ₁(z) = (exp(z) − 1)/z (ZOH). Written with expm1, φ₁ survives a_i = 0 and a tiny Δ.");
  // S4D-Real's A = −(1 .. 16), and a zero (a channel that only integrates).
  std::vector<double> a{0.0}, b;
  for (int n = 1; n <= 16; ++n) a.push_back(-n);
  for (std::size_t i = 0; i < a.size(); ++i) b.push_back(std::cos(1.0 + double(i)));
  for (Method method : zoh::kMethods) {
    std::vector<double> dense, diagonal;
    for (double delta : {1e-9, 1e-3, 0.1, 1.0}) {
      const int n = int(a.size());
      zoh::ContinuousSsm s{n, std::vector<double>(std::size_t(n) * n, 0.0), b, std::vector<double>(n, 1.0), 0};
      for (int i = 0; i < n; ++i) s.A[std::size_t(i) * n + i] = a[i];
      const auto d = zoh::discretize(s, delta, method);
      const auto e = zoh::discretize_diagonal(a, b, delta, method);
      std::vector<double> as_matrix(std::size_t(n) * n, 0.0);
      for (int i = 0; i < n; ++i) as_matrix[std::size_t(i) * n + i] = e.abar[i];
      dense.insert(dense.end(), d.Abar.begin(), d.Abar.end());
      dense.insert(dense.end(), d.Bbar.begin(), d.Bbar.end());
      diagonal.insert(diagonal.end(), as_matrix.begin(), as_matrix.end());
      diagonal.insert(diagonal.end(), e.bbar.begin(), e.bbar.end());
    }
    nb.check(
        fmt::format("{}: dense (Eigen) = element-wise for A = diag(0, −1, …, −16), Δ = 1e-9 … 1", zoh::name(method)),
        common::compare(dense, diagonal, {1e-15, 1e-13}));
  }

  std::vector<std::vector<std::string>> rows;
  Figure f{"phi1_rounding",
           "Relative error of φ₁(z) = (e^z − 1)/z in double precision",
           "|z|  (z < 0)",
           "relative error",
           true,
           true,
           {},
           {"set key inside right top", "set yrange [1e-18:10]"}};
  f.markup = true;  // e^z
  Series naive{"(exp(z) − 1)/z as written", {}, {}, "linespoints lw 2"};
  Series stable{"expm1(z)/z", {}, {}, "linespoints lw 2"};
  std::vector<double> got, expected;
  for (int e = -16; e <= 0; ++e) {
    const double z = -std::pow(10.0, e);
    const double reference = phi1_long_double(z);
    const double naive_error = std::abs(zoh::phi1_naive(z) - reference) / reference;
    const double stable_error = std::abs(zoh::phi1(z) - reference) / reference;
    naive.x.push_back(-z), naive.y.push_back(std::max(naive_error, 1e-18));
    stable.x.push_back(-z), stable.y.push_back(std::max(stable_error, 1e-18));
    if (e % 4 == 0)
      rows.push_back({sci(z), fmt::format("{:.17g}", zoh::phi1_naive(z)), fmt::format("{:.17g}", zoh::phi1(z))});
  }
  f.series = {naive, stable};
  nb.table({"z", "(exp(z) − 1)/z", "expm1(z)/z"}, rows);
  nb.figure(f, false);

  for (double z : {0.0, 1e-300, -1e-300, 1e-12, -1e-8, -0.5, 2.0, -50.0, -800.0}) {
    got.push_back(zoh::phi1(z));
    expected.push_back(phi1_long_double(z));
  }
  nb.check("φ₁ = expm1(z)/z to full precision at z = 0, ±1e-300, 1e-12, −1e-8, −0.5, 2, −50, −800",
           common::compare(got, expected, {0, 4e-16}));
}

// g(z) = (φ₁ − 1)/φ₁ in long double, with φ₁ − 1 = Σ_{k≥1} z^k/(k+1)! summed term by term for
// |z| ≤ 1 (so nothing cancels), and 1 − z/expm1(z) beyond.
double gap_long_double(double z) {
  const long double zl = z;
  if (std::abs(z) > 1) return double(1.0L - zl / std::expm1(zl));
  long double term = 1, phi1_minus_one = 0;
  for (int k = 1; k <= 30; ++k) phi1_minus_one += (term *= zl / (k + 1));
  return double(phi1_minus_one / (1 + phi1_minus_one));
}

void section_gap(Notebook& nb) {
  nb.section("ZOH's B̄ against Mamba's ΔB");
  nb.text(
      "Mamba keeps ZOH's Ā = exp(ΔA) but takes Euler's B̄ = ΔB. Per element, relative to ZOH,\n"
      "  g(z) = (B̄_zoh − ΔB)/B̄_zoh = 1 − z/(e^z − 1) = z/2 − z²/12 + z⁴/720 − …,  z = Δa.\n"
      "For a stable a < 0, g < 0: ΔB is too large by −g ≈ Δ|a|/2. Mamba initialises Δ in [0.001, 0.1] and\n"
      "A = −(1 … 16) (N = 16), so |z| starts between 0.001 and 1.6.");
  std::vector<std::vector<std::string>> rows;
  for (double delta : {0.001, 0.01, 0.1, 1.0}) {
    for (double a : {-1.0, -4.0, -16.0}) {
      const double z = delta * a;
      rows.push_back({fmt::format("{}", delta), fmt::format("{}", a), fmt::format("{}", z),
                      fmt::format("{:.5f}", zoh::phi1(z)), fmt::format("{:+.3f}%", -100 * zoh::zoh_euler_gap(z))});
    }
  }
  nb.table({"Δ", "a", "z = Δa", "φ₁(z) = B̄_zoh/ΔB", "ΔB vs B̄_zoh"}, rows);

  Figure f{
      "bbar_gap",
      "How much larger Mamba's B̄ = ΔB is than ZOH's B̄",
      "Δ|a|",
      "ΔB / B̄(ZOH) − 1",
      true,
      true,
      {},
      {"set key inside right bottom", "set object 1 rect from 0.001, graph 0 to 1.6, graph 1 fc rgb '#eeeeee' behind",
       "set label 1 'Mamba at initialisation' at 0.0015, graph 0.93"}};
  Series exact{"z/(e^z − 1) − 1", {}, {}, "lines lw 2", true};  // e^z
  Series first_order{"Δ|a|/2 (first order)", {}, {}, "lines lw 2 dt 2"};
  for (double e = -4; e <= 1.0001; e += 0.05) {
    const double x = std::pow(10.0, e);
    exact.x.push_back(x), exact.y.push_back(-zoh::zoh_euler_gap(-x));
    first_order.x.push_back(x), first_order.y.push_back(x / 2);
  }
  f.series = {exact, first_order};
  nb.figure(f);

  Figure stability{"abar_vs_z",
                   "Ā for a real eigenvalue: where each rule sends z = Δa",
                   "z = Δa",
                   "Ā",
                   false,
                   false,
                   {},
                   {"set key inside left bottom", "set yrange [-2:1.2]", "set xzeroaxis",
                    "set arrow 1 from -10,-1 to 0,-1 nohead dt 3"}};
  const auto z = linspace(-10, 0, 201);
  for (Method method : {Method::zoh, Method::bilinear, Method::euler}) {
    Series s{method == Method::zoh ? "ZOH and Mamba: exp(z)" : zoh::name(method), z, {}, "lines lw 2"};
    for (double v : z) s.y.push_back(zoh::discretize_diagonal({v}, {1.0}, 1.0, method).abar[0]);
    stability.series.push_back(s);
  }
  nb.figure(stability, false);

  // The gap formula against a direct evaluation in long double, and its consequence: for a
  // constant input the scalar recurrence settles at b̄/(1 − ā), so Mamba's steady state is
  // ZOH's (the continuous one, −b/a) times 1/φ₁(z) = 1 − g(z): measured by running it.
  std::vector<double> got, expected, gain_ratio, gain_expected;
  for (double zv : {-1e-6, -1e-3, -0.009, -0.011, -0.1, -1.0, -1.6, -5.0, 0.5}) {
    got.push_back(zoh::zoh_euler_gap(zv));
    expected.push_back(gap_long_double(zv));
  }
  nb.check("g(z) = 1 − z/(e^z − 1), series and direct form, against long double",
           common::compare(got, expected, {0, 4e-14}));  // the direct form's cancellation: ≤ 2⁻⁵³/|g| ≈ 2e-14
  for (double delta : {0.01, 0.1, 0.5}) {
    const double a = -2.0;
    const zoh::ContinuousSsm scalar{1, {a}, {1.0}, {1.0}, 0};
    const std::vector<double> ones(20000, 1.0);
    const double zoh_final = zoh::simulate(zoh::discretize(scalar, delta, Method::zoh), ones).back();
    const double mamba_final = zoh::simulate(zoh::discretize(scalar, delta, Method::mamba), ones).back();
    gain_ratio.push_back(mamba_final / zoh_final);
    gain_expected.push_back(1.0 / zoh::phi1(delta * a));
  }
  nb.check("a constant input: Mamba's state settles at 1/φ₁(z) times ZOH's (a = −2, Δ = 0.01, 0.1, 0.5)",
           common::compare(gain_ratio, gain_expected, {0, 1e-12}));
}

constexpr std::size_t kCheckedTokens = 4096;
constexpr const char* kShapeOptions = "--batch × --length × --channels × --state";

// Host memory of the GPU check at the command line's shape: its inputs (Δ, B and A in fp32),
// and for its first kCheckedTokens tokens the fp64 reference of Ā and B̄ with what
// check_kernel holds while it compares them (the GPU's results, copies, the merged lists):
// about 80 bytes an element checked. In doubles, so that no product of sizes can overflow.
double check_host_bytes(const zoh::SelectiveShape& s) {
  const double tokens = double(s.batch) * s.length, D = s.channels, N = s.state;
  const double checked = std::min(tokens, double(kCheckedTokens));
  return 4 * (tokens * (D + N) + 2 * D * N) + 80 * checked * D * N;
}

// Checks one kernel and rule on several problems, as one check line.
void check_kernel(Notebook& nb, zoh::Kernel kernel, zoh::Rule rule, const std::vector<zoh::SelectiveShape>& shapes,
                  std::uint64_t seed) {
  std::vector<float> got;
  std::vector<double> expected;
  std::string shape_list;
  double z_max = 0;
  for (const auto& shape : shapes) {
    const auto problem = zoh::random_selective_problem(shape, seed);
    z_max = std::max(z_max, zoh::max_abs_z(problem));
    zoh::GpuDiscretization gpu(problem);
    gpu.poison_outputs();
    gpu.run(kernel, rule);
    // Every element of the small shapes; the first tokens of a large one (the fp64 reference
    // of a whole large problem would not fit in host memory).
    const auto reference = zoh::discretize_selective_reference(problem, rule, kCheckedTokens);
    const std::size_t checked = reference.abar.size();
    for (const auto& [values, reference_values] :
         {std::pair{gpu.abar(checked), reference.abar}, std::pair{gpu.bbar(checked), reference.bbar}}) {
      got.insert(got.end(), values.begin(), values.end());
      expected.insert(expected.end(), reference_values.begin(), reference_values.end());
    }
    shape_list += fmt::format("{}{}×{}×{}×{}", shape_list.empty() ? "" : ", ", shape.batch, shape.length,
                              shape.channels, shape.state);
  }
  nb.check(fmt::format("kernel {} ({}) on {}, every Ā and B̄", int(kernel), zoh::name(rule), shape_list),
           common::compare(got, expected, zoh::fp32_tolerance(z_max)));
}

void section_gpu(Notebook& nb, const Options& o) {
  nb.section("Discretizing a whole (batch, L, D, N) problem on the GPU");
  nb.text(
      "Inputs Δ (batch, L, D), A (D, N), B (batch, L, N); outputs Ā and B̄ (batch, L, D, N), fp32.\n"
      "Each kernel is checked against fp64 on awkward shapes, outputs poisoned (NaN) first. Tolerance:\n"
      "rtol = (6 + 2·max|Δa|)·2⁻²⁴ (the error bound derived in the text).");
  for (const auto& k : zoh::kKernels)
    nb.value(fmt::format("kernel {}", int(k.id)), fmt::format("{}: {}", k.name, k.idea));
  if (!nb.gpu()) return nb.gpu_skip("every GPU kernel and its checks");
  // One element; a count that is not a multiple of 4 (kernel 3's tail); one off a warp in
  // every dimension; one off a block of 256 threads; then the size from the command line.
  const std::vector<zoh::SelectiveShape> shapes{
      {1, 1, 1, 1}, {2, 3, 5, 7}, {1, 31, 33, 17}, {3, 5, 257, 1}, {o.batch, o.length, o.channels, o.state}};
  for (const auto& info : zoh::kKernels) {
    if (!common::kernel_selected(nb.options(), int(info.id))) continue;
    for (zoh::Rule rule : {zoh::Rule::zoh, zoh::Rule::mamba})
      check_kernel(nb, info.id, rule, shapes, nb.options().seed);
  }
}

void section_benchmark(Notebook& nb) {
  nb.section("Bandwidth: the discretization against a copy");
  const bool bench = nb.options().bench;
  const int batch = bench ? 8 : 2, channels = bench ? 1536 : 768, state = 16;
  const std::vector<int> lengths = bench ? std::vector<int>{128, 512, 2048} : std::vector<int>{128, 512};
  constexpr std::size_t checked_tokens = 8;  // re-checked against fp64 after timing
  nb.text(fmt::format(
      "batch {}, D = {}, N = {}, L as listed. Bytes moved, at least:\n"
      "  4 · (2·batch·L·D·N + batch·L·D + D·N + batch·L·N)   (both outputs written, every input read once).\n"
      "Each kernel is checked on the first {} tokens before and after timing. 'memset' writes both outputs\n"
      "with cudaMemset: the roof for a kernel that mostly writes, which can beat a copy (a copy also reads).",
      batch, channels, state, checked_tokens));
  if (!nb.gpu()) return nb.gpu_skip("the bandwidth measurements");

  const double copy_gbps = common::measure_copy_bandwidth(std::size_t(512) << 20);
  nb.value("device-to-device copy", fmt::format("{:.0f} GB/s (read + write)", copy_gbps));
  common::ResultsCsv csv(nb.out_dir() + "/bench.csv", common::gpu_status().device.name, nb.date(),
                         {"implementation", "batch", "length", "channels", "state", "median_ms", "min_ms", "max_ms",
                          "bytes", "gb_per_s", "pct_of_copy", "rule"});
  common::GpuTimer timer({2, bench ? 20 : 5, true});
  common::BenchmarkResults results(csv, common::BenchmarkResults::Shown::gb_per_s, 0);
  std::vector<std::vector<std::string>> rows;
  common::CheckedTiming timing(nb, {2, bench ? 20 : 5, true});
  for (int length : lengths) {
    const zoh::SelectiveShape shape{batch, length, channels, state};
    const auto problem = zoh::random_selective_problem(shape, nb.options().seed + length);
    const double bytes = shape.bytes_moved();
    const double tol_z = zoh::max_abs_z(problem);
    zoh::GpuDiscretization gpu(problem);
    std::vector<std::string> row{std::to_string(length), fmt::format("{:.0f}", bytes / 1e6)};
    const common::BenchmarkPoint at{
        bytes / 1e6,
        {std::to_string(batch), std::to_string(length), std::to_string(channels), std::to_string(state)},
        bytes,
        copy_gbps};
    for (const auto& info : zoh::kKernels) {
      for (zoh::Rule rule : {zoh::Rule::zoh, zoh::Rule::mamba}) {
        if (!common::kernel_selected(nb.options(), int(info.id))) {
          row.push_back("-");
          continue;
        }
        const auto reference = zoh::discretize_selective_reference(problem, rule, checked_tokens);
        const auto t = timing.time(
            fmt::format("kernel {} ({}) at L = {}", int(info.id), zoh::name(rule), length),
            [&] { gpu.poison_outputs(); }, [&] { gpu.run(info.id, rule); },
            [&] {
              const std::size_t count = reference.abar.size();
              const auto a = common::compare(gpu.abar(count), reference.abar, zoh::fp32_tolerance(tol_z));
              const auto b = common::compare(gpu.bbar(count), reference.bbar, zoh::fp32_tolerance(tol_z));
              return a.ok && b.ok ? std::string() : fmt::format("Ā {}; B̄ {}", a.summary(), b.summary());
            });
        if (!t) {
          row.push_back("wrong");
          continue;
        }
        // One curve per kernel and rule; the CSV keeps the rule in its last column.
        const std::string kernel = fmt::format("kernel {}", int(info.id));
        const std::string rule_name = rule == zoh::Rule::zoh ? "ZOH" : "Mamba";
        row.push_back(results.record(kernel, at, *t, {rule_name}, kernel + ", " + rule_name));
      }
    }
    // The write roof: both outputs set by cudaMemset, nothing read.
    const auto memset_time = timer.time([&] { gpu.poison_outputs(); });
    row.push_back(results.record("cudaMemset of Ā and B̄", at, memset_time, {""}));
    rows.push_back(row);
  }
  std::vector<std::string> header{"L", "MB"};
  for (const auto& info : zoh::kKernels)
    for (const char* rule : {"ZOH", "Mamba"}) header.push_back(fmt::format("k{} {} GB/s", int(info.id), rule));
  header.push_back("memset GB/s");
  nb.table(header, rows);
  nb.value("results", csv.path());
  timing.report("the timed kernels match fp64 before and after timing",
                fmt::format("first {} tokens of each", checked_tokens));

  Figure f{"bench_bandwidth",
           fmt::format("Discretization bandwidth (batch {}, D = {}, N = {})", batch, channels, state),
           "bytes moved (MB)",
           "GB/s",
           true,
           false,
           {},
           {"set key inside left bottom maxrows 4 spacing 0.9 font ',11'",
            fmt::format("set yrange [0:{:.0f}]", 1.15 * copy_gbps)}};
  f.series = results.series();
  const auto& any = results.series().front();
  f.series.push_back(
      {"device-to-device copy", any.x, std::vector<double>(any.x.size(), copy_gbps), "lines lw 2 dt 2 lc rgb 'black'"});
  nb.figure(f, false);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  return common::run_chapter(
      {"ch02_zoh", "Chapter 02 · From continuous to discrete", zoh::kKernelCount}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--batch", o.batch, "Sequences in the GPU check")
            ->check(common::integer_in(1, 1 << 16))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--length", o.length, "Tokens per sequence L in the GPU check")
            ->check(common::integer_in(1, 1 << 20))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--channels", o.channels, "Channels D in the GPU check")
            ->check(common::integer_in(1, 1 << 16))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--state", o.state, "State size N in the GPU check")
            ->check(common::integer_in(1, 1024))
            ->capture_default_str()
            ->group(common::kGpuOptions);
      },
      [&](Notebook& nb) {
        // Before any work: the sizes are the GPU check's, and take memory only where it runs.
        if (nb.gpu()) {
          const zoh::SelectiveShape shape{o.batch, o.length, o.channels, o.state};
          common::require_host_memory(check_host_bytes(shape), kShapeOptions);
          common::require_device_memory(zoh::GpuDiscretization::device_bytes(shape), kShapeOptions);
        }
        section_four_rules(nb);
        section_exact_for_staircase(nb);
        section_responses(nb);
        section_diagonal(nb);
        section_gap(nb);
        section_gpu(nb, o);
        section_benchmark(nb);
      });
}
