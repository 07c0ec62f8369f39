// ch08_selective_scan -- Chapter 08: Mamba's selective scan, forward and backward, on the GPU.
//
// For each channel and state the scan is the recurrence h_t = exp(δ_t A) h_{t−1} + δ_t B_t u_t,
// with the step size δ_t taken from the input; the output sums C_t h_t over the states. The
// library in selective_scan/ computes it and its gradients in five versions, and this program
// checks both against the fp64 reference and times them against the bytes they must move.
// Run with --help for the options; the chapter's text is README.md beside this file.
#include "byte_model.hpp"
#include "chapter_main.hpp"
#include "check_group.hpp"
#include "checked_timing.hpp"
#include "device_problem.hpp"
#include "gpu.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "finite_differences.hpp"
#include "official_times.hpp"
#include "reference.hpp"
#include "softplus.hpp"
#include "results_csv.hpp"
#include "selective_scan.hpp"
#include "timing.hpp"
#include "tolerances.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using ch08::Complex;
using ch08::Problem;
using common::Figure;
using common::Notebook;
using common::Series;
using common::Tolerance;
using selective_scan::DataType;
using selective_scan::Kernel;

struct Options {
  std::vector<std::string> dtypes{"fp32", "fp16", "bf16"};
  long long check_seqlen = 2 * selective_scan::kChunkLength + 3;
  long long batch = 2, dim = 768, seqlen = 2048, dstate = 16;  // the benchmark's shape without --bench
  std::string official_csv;  // official-bench's times from the same device call (--official)
};

const char* dtype_name(DataType t) {
  switch (t) {
    case DataType::float32: return "fp32";
    case DataType::float16: return "fp16";
    case DataType::bfloat16: return "bf16";
  }
  return "?";
}
DataType dtype_from_name(const std::string& name) {
  if (name == "fp16") return DataType::float16;
  if (name == "bf16") return DataType::bfloat16;
  return DataType::float32;
}
int dtype_bytes(DataType t) { return t == DataType::float32 ? 4 : 2; }
std::vector<DataType> selected_dtypes(const Options& o) {
  std::vector<DataType> types;
  for (const char* name : {"fp32", "fp16", "bf16"})
    if (std::find(o.dtypes.begin(), o.dtypes.end(), name) != o.dtypes.end()) types.push_back(dtype_from_name(name));
  return types;
}

std::string version_label(Kernel k) {
  return k == Kernel::automatic ? "auto" : fmt::format("{} {}", int(k), selective_scan::version_of(k)->name);
}

// What the checks and the benchmark run: every version, version 5 a second time with the
// forward's kept states (state_checkpoints), which its backward reads instead of recomputing,
// and (without --kernel) Kernel::automatic, the library's default.
struct Run {
  Kernel kernel;
  bool keep_checkpoints;
  std::string label() const { return version_label(kernel) + (keep_checkpoints ? " + kept h" : ""); }
};
std::vector<Run> selected_runs(const common::CommonOptions& options) {
  std::vector<Run> runs;
  for (const auto& k : selective_scan::kVersions) {
    if (!common::kernel_selected(options, int(k.id))) continue;
    runs.push_back({k.id, false});
    if (k.id == Kernel::checkpoints) runs.push_back({k.id, true});
  }
  if (options.kernels.empty()) runs.push_back({Kernel::automatic, false});  // the default, by itself
  return runs;
}

using common::softplus;
double silu(double x) { return x / (1.0 + std::exp(-x)); }

// Adding +0 turns −0 into 0, so the tables print no "-0.0000".
std::string fixed(double v, int digits = 4) { return fmt::format("{:.{}f}", v + 0.0, digits); }
std::string megabytes(std::int64_t bytes) { return fmt::format("{:.1f}", double(bytes) / 1e6); }

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

// (re, im) pairs for a complex problem, the real parts alone for a real one.
std::vector<double> flatten(const std::vector<Complex>& values, bool complex) {
  std::vector<double> out;
  out.reserve(values.size() * (complex ? 2 : 1));
  for (const Complex& v : values) {
    out.push_back(v.real());
    if (complex) out.push_back(v.imag());
  }
  return out;
}

std::vector<double> normal_values(std::size_t count, std::uint64_t seed, double scale = 1.0) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, scale);
  std::vector<double> v(count);
  for (double& x : v) x = normal(rng);
  return v;
}

// ---- [1] ---------------------------------------------------------------------------------------
void section_one_channel(Notebook& nb) {
  nb.section("The selective scan on one channel, by the formulas");
  Problem shape;
  shape.seqlen = 6;
  shape.dstate = 2;
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = true;
  const Problem p = ch08::make_official_test_problem(shape, unsigned(nb.options().seed));
  nb.text("One channel (batch = dim = 1), two states, six steps, the official test suite's random data:\n"
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
  nb.text(fmt::format("δ_t = softplus({} u_t + bias), bias = softplus⁻¹({}) = {:.3f}; A = {}, B = C = 1. Quiet input\n"
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
  nb.text("A large δ forgets the past (Ā near 0) and takes the input in; a small δ holds the state\n"
          "(Ā near 1) and lets the input through hardly at all: the burst's value is remembered long\n"
          "after it ends, and the noise between bursts barely moves it.");
  Problem p = single_state(A, u, delta_raw);
  p.has_delta_bias = p.delta_softplus = true;
  p.delta_bias = {bias};
  nb.check("the loop above is the reference's forward (one state, softplus, bias)",
           common::compare(h, ch08::reference_forward(p).out, {1e-14, 1e-12}));
  Figure f{"selective_delta", "The selective step size: δ follows the input, h follows δ", "step t", "", false, false, {},
           {"set key inside top right", "set yrange [-0.5:3]"}};
  Series su{"input u_t", {}, {}, "lines lw 1"}, sd{"step size δ_t", {}, {}, "lines lw 2"},
      sh{"state h_t (A = −1)", {}, {}, "lines lw 2"};
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
  nb.text(fmt::format("A_n = −(n + 1) for n = 0..{} (the real S4D initialisation), δ = {}: state n forgets at its own rate\n"
                      "Ā_n = exp(δ A_n). The impulse response of state n (u = 1 at t = 0, then 0; B = 1) is δ Ā_n^k.\n"
                      "An Ā well below 1 dies out within a few steps; an Ā close to 1 keeps the input for long.",
                      N - 1, delta));
  std::vector<double> got, expected;
  std::vector<std::vector<std::string>> rows;
  Figure f{"state_decay", fmt::format("Impulse response of each state, δ = {}", delta), "steps k after the impulse",
           "h_k = δ exp(δ A_n)^k", false, true, {}, {"set key inside top right", "set yrange [1e-8:1]"}};
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
      rows.push_back({std::to_string(n), fixed(A, 0), fixed(std::exp(delta * A)), fmt::format("{:.2f}", std::log(2.0) / (delta * -A))});
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
  nb.text("Zero-order hold discretises both: Ā = exp(δA), B̄ = (δA)⁻¹(exp(δA) − 1) δB. Mamba's kernel keeps\n"
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
  nb.check(fmt::format("ZOH's recurrence samples the exact solution of h' = A h + B u (δ|A| = {}, {} steps)", delta * -A, steps),
           common::compare(zoh, exact, {1e-15, 1e-13}));
  const auto reference = ch08::reference_forward(single_state(A, std::vector<double>(steps, 1.0), std::vector<double>(steps, delta))).out;
  nb.check("the reference (and every kernel) uses Euler's B̄ = δB", common::compare(euler, reference, {1e-15, 1e-13}));
  nb.value("after 40 steps, Euler's state ÷ ZOH's", fmt::format("{:.4f} (= x / (1 − e^{{−x}}) at x = {})", euler.back() / zoh.back(), delta * -A));

  Figure f{"zoh_vs_euler", "B̄ by zero-order hold, per unit of Euler's δB", "x = δ|A|", "B̄_ZOH ÷ δB", true, false, {},
           {"set key inside bottom left", "set yrange [0:1.1]"}};
  Series ratio{"ZOH: (1 − e^{−x}) / x", {}, {}, "lines lw 2"}, one{"Euler (Mamba's kernel): 1", {}, {}, "lines lw 2 dt 2"};
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
  nb.text(fmt::format("L = Σ dout · out_final with dout ~ N(0, 1); every gradient of reference_backward against the central\n"
                      "difference (L(θ + h) − L(θ − h)) / 2h, h = {:g}, of every element of every input.", ch08::kFiniteDifferenceStep));
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
    check("dinitial_state", flatten(g.dinitial_state, p.complex), flatten(ch08::finite_differences(p, &Problem::initial_state, dout), p.complex));
    const common::Tolerance tol = ch08::kFiniteDifferenceTolerance;
    gradients.report(nb, fmt::format("{} (batch {}, dim {}, seqlen {}, dstate {})", c.name, p.batch, p.dim, p.seqlen, p.dstate),
                     "gradients", [&](int count, int) {
                       return fmt::format("{} gradients match within atol {:g} + rtol {:g}·|ref|", count, tol.atol, tol.rtol);
                     });
  }
}

// ---- [6] and [8]: the configurations ----------------------------------------------------------
struct Config {
  std::string label;
  DataType type;
  std::int64_t batch, dim, seqlen;
  int dstate;
  bool variable_BC = true;
};

// The official kernel on its six timed configurations (official_baseline.md: one H200,
// 2026-11-21): B and C variable, D, z, delta_bias and softplus on; its times and its ratios to
// the floor.
struct OfficialRun {
  DataType type;
  std::int64_t batch, dim, seqlen;
  double forward_ms, forward_backward_ms, forward_ratio, forward_backward_ratio;
};
constexpr OfficialRun kOfficialRuns[] = {
    {DataType::float32, 8, 1536, 2048, 0.884, 2.915, 7.4, 9.4},  {DataType::bfloat16, 8, 1536, 2048, 0.460, 2.215, 7.7, 14.3},
    {DataType::float32, 1, 5120, 8192, 1.618, 5.067, 8.2, 9.9},  {DataType::bfloat16, 1, 5120, 8192, 0.903, 4.060, 9.1, 15.7},
    {DataType::float32, 16, 1536, 512, 0.470, 1.546, 7.8, 10.0}, {DataType::bfloat16, 16, 1536, 512, 0.235, 1.049, 7.7, 13.4},
};

std::string config_label(DataType type, std::int64_t batch, std::int64_t dim, std::int64_t seqlen, int dstate, bool variable_BC) {
  return fmt::format("{} ({}, {}, {}, {}){}", dtype_name(type), batch, dim, seqlen, dstate, variable_BC ? "" : " B, C const");
}
Config make_config(DataType type, std::int64_t batch, std::int64_t dim, std::int64_t seqlen, int dstate, bool variable_BC = true) {
  return {config_label(type, batch, dim, seqlen, dstate, variable_BC), type, batch, dim, seqlen, dstate, variable_BC};
}

// The official kernel's timed run (official_baseline.md) with this configuration, if it has one.
const OfficialRun* official_run(const Config& c) {
  for (const OfficialRun& r : kOfficialRuns)
    if (c.label == config_label(r.type, r.batch, r.dim, r.seqlen, 16, true)) return &r;
  return nullptr;
}

// The official kernel's times for a configuration: official-bench's, run in the same device call
// (--official), where they were given; else official_baseline.md's H200 run, for its six.
struct OfficialTimes {
  double forward_ms = 0, forward_backward_ms = 0;
  std::string source;  // empty: no time for this configuration
};
OfficialTimes official_times(const Config& c, const std::map<std::string, ch08::OfficialTime>& measured) {
  if (!measured.empty()) {
    if (!c.variable_BC || (c.type != DataType::float32 && c.type != DataType::bfloat16)) return {};
    const auto found = measured.find(ch08::official_spec(dtype_name(c.type), c.batch, c.dim, c.seqlen, c.dstate, 1));
    if (found == measured.end()) return {};
    return {found->second.forward_ms, found->second.forward_backward_ms, "official-bench, this run"};
  }
  const OfficialRun* r = official_run(c);
  return r ? OfficialTimes{r->forward_ms, r->forward_backward_ms, "official_baseline.md, H200 2026-11-21"} : OfficialTimes{};
}

// --bench: the official kernel's six, then one change each from the first (dstate 64, seqlen
// 32768, constant B and C, fp16), then the official test suite's shape at one of its short
// sequences, where a few channels leave most of the GPU idle.
std::vector<Config> bench_configs() {
  std::vector<Config> configs;
  for (const OfficialRun& r : kOfficialRuns) configs.push_back(make_config(r.type, r.batch, r.dim, r.seqlen, 16));
  configs.push_back(make_config(DataType::float32, 8, 1536, 2048, 64));
  configs.push_back(make_config(DataType::float32, 1, 1536, 32768, 16));
  configs.push_back(make_config(DataType::float32, 8, 1536, 2048, 16, false));
  configs.push_back(make_config(DataType::float16, 8, 1536, 2048, 16));
  // The official test suite's shape (batch 2, dim 4, dstate 8) at one of its short sequences.
  configs.push_back(make_config(DataType::float32, 2, 4, 512, 8));
  return configs;
}
std::vector<Config> small_configs(const Options& o) {
  std::vector<Config> configs;
  for (DataType t : selected_dtypes(o)) configs.push_back(make_config(t, o.batch, o.dim, o.seqlen, int(o.dstate)));
  return configs;
}

// The benchmark at the command line's shape, checked before any work where it runs (a GPU,
// no --bench). The host holds the fp64 problem, its copy in the DeviceProblem, the slice check's
// dout and fp64 gradients, and a run's results brought back: about 88 bytes a sequence element
// (batch × dim × seqlen) and 192 an element of B or C (batch × dstate × seqlen). The GPU holds
// at least the nine sequence tensors, B, C and their gradients (the workspaces come on top).
// In doubles, so that no product of sizes can overflow.
void require_benchmark_fits(const Options& o) {
  constexpr const char* options = "--batch × --dim × --seqlen × --dstate";
  const double sequence = double(o.batch) * double(o.dim) * double(o.seqlen);
  const double projection = double(o.batch) * double(o.dstate) * double(o.seqlen);
  common::require_host_memory(88 * sequence + 192 * projection, options);
  int input_bytes = 0;
  for (DataType t : selected_dtypes(o)) input_bytes = std::max(input_bytes, dtype_bytes(t));
  common::require_device_memory(std::size_t(9 * sequence * input_bytes + projection * (2 * input_bytes + 8)), options);
}

// What the benchmark's runs move (DeviceProblem writes the last state too).
ch08::ByteShape byte_shape(const Config& c) {
  ch08::ByteShape s;
  s.batch = c.batch, s.dim = c.dim, s.seqlen = c.seqlen, s.dstate = c.dstate;
  s.input_bytes = dtype_bytes(c.type);
  s.variable_B = s.variable_C = c.variable_BC;
  s.has_last_state = true;
  return s;
}

void section_bytes(Notebook& nb) {
  nb.section("Bytes: fused against unfused, recomputation against stored states");
  nb.text("The byte model (byte_model.hpp) counts every input read once and every output written once:\n"
          "the floor a memory-bound kernel is held to. An unfused forward writes Ā and B̄u for every\n"
          "(b, d, n, t) and reads them back; the fused kernel keeps them in registers. The backward needs\n"
          "h_t: storing every state costs batch·dim·seqlen·dstate floats, one state per chunk of 2048 steps\n"
          "costs 2048 times less, and the backward recomputes the rest.");
  std::vector<std::vector<std::string>> rows;
  for (const Config& c : bench_configs()) {
    const ch08::ByteShape s = byte_shape(c);
    rows.push_back({c.label, megabytes(ch08::forward_bytes(s)), megabytes(ch08::unfused_forward_bytes(s)),
                    fmt::format("{:.1f}×", double(ch08::unfused_forward_bytes(s)) / double(ch08::forward_bytes(s))),
                    megabytes(ch08::forward_backward_bytes(s)), megabytes(ch08::chunk_state_bytes(s)),
                    megabytes(ch08::all_states_bytes(s))});
  }
  nb.table({"configuration", "fwd MB", "unfused fwd MB", "unfused ÷ fused", "fwd+bwd MB", "chunk states MB", "every state MB"}, rows);

  nb.text("The official kernel's times (official_baseline.md, one H200) over this model's floor, counted as\n"
          "it stores its chunk states ((decay, state) pairs) and dB, dC (input type), at that run's 4.26 TB/s copy:");
  rows.clear();
  bool reproduced = true;
  for (const OfficialRun& r : kOfficialRuns) {
    ch08::ByteShape s = byte_shape(make_config(r.type, r.batch, r.dim, r.seqlen, 16));
    s.has_last_state = false;
    s.accounting = ch08::StateAccounting::official_kernel;
    const double fwd = r.forward_ms / (double(ch08::forward_bytes(s)) / ch08::kOfficialCopyBandwidth * 1e3);
    const double both = r.forward_backward_ms / (double(ch08::forward_backward_bytes(s)) / ch08::kOfficialCopyBandwidth * 1e3);
    // official_baseline.md prints two digits; their rounding explains up to 1%.
    reproduced = reproduced && std::abs(fwd / r.forward_ratio - 1) <= 0.01 && std::abs(both / r.forward_backward_ratio - 1) <= 0.01;
    rows.push_back({config_label(r.type, r.batch, r.dim, r.seqlen, 16, true), fmt::format("{:.3f}", r.forward_ms),
                    fmt::format("{:.2f}× ({:.1f}×)", fwd, r.forward_ratio), fmt::format("{:.3f}", r.forward_backward_ms),
                    fmt::format("{:.2f}× ({:.1f}×)", both, r.forward_backward_ratio)});
  }
  nb.table({"official kernel", "fwd ms", "fwd ÷ floor (printed)", "fwd+bwd ms", "fwd+bwd ÷ floor (printed)"}, rows);
  nb.check("the byte model gives official_baseline.md's ratios for all six rows", reproduced, "every ratio within 1% of the printed one");

  Figure f{"bytes_moved", "Bytes moved and kept, batch 8, dim 1536, dstate 16, fp32", "seqlen", "bytes", true, true, {},
           {"set key inside top left", "set yrange [1e5:1e15]"}};
  Series fused{"forward, fused", {}, {}, "linespoints lw 2 pt 7"}, unfused{"forward, unfused (Ā, B̄u in memory)", {}, {}, "linespoints lw 2 pt 5"},
      both{"forward + backward, fused", {}, {}, "linespoints lw 2 pt 9"}, chunks{"kept: one state per chunk", {}, {}, "lines lw 2 dt 2"},
      every{"kept: every state", {}, {}, "lines lw 2 dt 3"};
  for (int e = 7; e <= 16; ++e) {
    const ch08::ByteShape s = byte_shape(make_config(DataType::float32, 8, 1536, std::int64_t(1) << e, 16));
    const double L = double(std::int64_t(1) << e);
    fused.x.push_back(L), fused.y.push_back(double(ch08::forward_bytes(s)));
    unfused.x.push_back(L), unfused.y.push_back(double(ch08::unfused_forward_bytes(s)));
    both.x.push_back(L), both.y.push_back(double(ch08::forward_backward_bytes(s)));
    chunks.x.push_back(L), chunks.y.push_back(double(ch08::chunk_state_bytes(s)));
    every.x.push_back(L), every.y.push_back(double(ch08::all_states_bytes(s)));
  }
  f.series = {unfused, every, both, fused, chunks};
  nb.figure(f);
}

// ---- [7] ---------------------------------------------------------------------------------------
// Every output and gradient of one run, each against its own expected tensor and tolerance.
class Verdict {
 public:
  void add(const std::string& name, const std::vector<double>& got, const std::vector<double>& expected, Tolerance tol) {
    const common::Comparison c = common::compare(got, expected, tol);
    ++tensors_;
    if (!c.ok) {
      ok_ = false;
      failures_ += fmt::format("{}{}: {}", failures_.empty() ? "" : "; ", name, c.summary());
      return;
    }
    const double used = ch08::bound_used(got, expected, tol);  // how close to its bound the closest element came
    if (used > worst_) worst_ = used, worst_name_ = name;
  }
  // A condition that has no tolerance (a value that must be exactly zero, or finite).
  void require(const std::string& name, bool passed, const std::string& why) {
    ++tensors_;
    if (!passed) ok_ = false, failures_ += fmt::format("{}{}: {}", failures_.empty() ? "" : "; ", name, why);
  }
  bool ok() const { return ok_; }
  std::string failure() const { return ok_ ? std::string() : failures_; }
  int tensors() const { return tensors_; }
  double worst() const { return worst_; }                     // the nearest tensor's bound_used
  const std::string& worst_name() const { return worst_name_; }

 private:
  bool ok_ = true;
  int tensors_ = 0;
  double worst_ = 0;
  std::string worst_name_, failures_;
};

void add_forward(Verdict& v, const Problem& p, const ch08::OfficialTolerances& tol, const ch08::ForwardResult& got,
                 const ch08::ForwardResult& expected) {
  v.add("out", got.out, expected.out, tol.out);
  if (p.has_z) v.add("out_z", got.out_z, expected.out_z, tol.out);
  v.add("last_state", flatten(got.last_state, p.complex), flatten(expected.last_state, p.complex), tol.last_state);
}
void add_gradients(Verdict& v, const Problem& p, const ch08::OfficialTolerances& tol, const ch08::Gradients& got,
                   const ch08::Gradients& expected) {
  v.add("du", got.du, expected.du, tol.du);
  v.add("ddelta", got.ddelta, expected.ddelta, tol.ddelta);
  if (p.has_z) v.add("dz", got.dz, expected.dz, tol.dz);
  v.add("dA", flatten(got.dA, p.complex), flatten(expected.dA, p.complex), tol.dA);
  v.add("dB", flatten(got.dB, p.complex), flatten(expected.dB, p.complex), tol.dB);
  v.add("dC", flatten(got.dC, p.complex), flatten(expected.dC, p.complex), tol.dC);
  if (p.has_D) v.add("dD", got.dD, expected.dD, tol.dD);
  if (p.has_delta_bias) v.add("ddelta_bias", got.ddelta_bias, expected.ddelta_bias, tol.ddelta_bias);
  if (p.has_initial_state)
    v.add("dinitial_state", flatten(got.dinitial_state, p.complex), flatten(expected.dinitial_state, p.complex), tol.dinitial_state);
}

struct CheckCase {
  std::string name;  // what the case tries
  Problem shape;
  std::string size() const { return fmt::format("({}, {}, {}, {})", shape.batch, shape.dim, shape.seqlen, shape.dstate); }
};

std::vector<CheckCase> check_cases(const Options& o) {
  std::vector<CheckCase> cases;
  Problem s;
  s.batch = 2, s.dim = 4, s.seqlen = 372, s.dstate = 8;
  s.has_D = s.has_z = s.has_delta_bias = s.delta_softplus = true;
  cases.push_back({"the official test suite's shape, every option", s});
  s = Problem{};
  s.variable_B = s.variable_C = false;
  cases.push_back({"constant B and C, nothing optional", s});
  s = Problem{};
  s.batch = 2, s.dim = 6, s.seqlen = selective_scan::kChunkLength + 1, s.dstate = 16, s.groups = 2;
  s.has_D = s.has_z = s.delta_softplus = s.has_initial_state = true;
  cases.push_back({"one chunk + 1, 2 groups, initial state", s});
  s = Problem{};
  s.batch = 3, s.dim = 5, s.seqlen = 37, s.dstate = 5, s.complex = true, s.variable_B = false;
  s.has_D = s.has_z = true;
  cases.push_back({"complex A, constant B, variable C", s});
  s = Problem{};
  s.batch = 1, s.dim = 3, s.seqlen = o.check_seqlen, s.dstate = 64;
  s.has_delta_bias = s.delta_softplus = true;
  cases.push_back({"dstate 64, no gate", s});
  return cases;
}

void section_gpu_checks(Notebook& nb, const Options& o) {
  nb.section("Every version against the fp64 reference");
  std::string list;
  for (const auto& k : selective_scan::kVersions) list += fmt::format("\n  {:>2}  {:<8} {}", int(k.id), k.name, k.idea);
  nb.text("The versions (selective_scan.hpp):" + list);
  const std::vector<CheckCase> cases = check_cases(o);
  std::string case_list;
  for (const CheckCase& c : cases) case_list += fmt::format("\n  {:<18} {}", c.size(), c.name);
  nb.text("Forward and backward of each version on the official test suite's data, rounded to the input type\n"
          "first; outputs poisoned (NaN) before every run; every output and gradient within the official\n"
          "suite's tolerances (official_baseline.md) against the fp64 reference of the rounded inputs.\n"
          "The cases, (batch, dim, seqlen, dstate):" +
          case_list);
  nb.text("One line per version and input type: its cases together, and the tensor that came nearest its bound\n"
          "(1 = at the bound). A case that fails gets a line of its own.");
  if (!nb.gpu()) return nb.gpu_skip("the GPU checks");
  const std::vector<Run> runs = selected_runs(nb.options());
  const std::vector<DataType> types = selected_dtypes(o);
  std::vector<std::vector<ch08::CheckGroup>> groups(runs.size(), std::vector<ch08::CheckGroup>(types.size()));
  std::uint64_t seed = nb.options().seed;
  for (const CheckCase& c : cases) {
    for (std::size_t ti = 0; ti < types.size(); ++ti) {
      const DataType type = types[ti];
      const Problem p = ch08::as_gpu_sees(ch08::make_official_test_problem(c.shape, unsigned(++seed)), type);
      const std::vector<double> dout = ch08::round_to(normal_values(std::size_t(p.sequence_elements()), seed + 1000), type);
      const ch08::ForwardResult expected = ch08::reference_forward(p);
      const ch08::Gradients expected_grad = ch08::reference_backward(p, dout);
      const ch08::OfficialTolerances tol = ch08::official_tolerances(type, p);
      for (std::size_t r = 0; r < runs.size(); ++r) {
        const Run& run = runs[r];
        ch08::DeviceProblem device(p, type, run.kernel, false, 0, run.keep_checkpoints);
        if (run.keep_checkpoints && !device.forward_params().state_checkpoints) continue;  // version 5 declines the call
        device.set_dout(dout);
        device.poison_outputs();
        device.forward();
        device.backward();
        CUDA_CHECK(cudaDeviceSynchronize());
        Verdict v;
        add_forward(v, p, tol, device.forward_result(), expected);
        add_gradients(v, p, tol, device.gradients(), expected_grad);
        groups[r][ti].add({fmt::format("version {}, {}, {} {}", run.label(), dtype_name(type), c.size(), c.name), v.ok(),
                           v.failure(), v.tensors(), v.worst(), fmt::format("{} in {}", v.worst_name(), c.size())});
      }
    }
  }
  for (std::size_t r = 0; r < runs.size(); ++r)
    for (std::size_t ti = 0; ti < types.size(); ++ti)
      groups[r][ti].report(nb, fmt::format("version {}, {}", runs[r].label(), dtype_name(types[ti])), "cases",
                           [](int count, int tensors) {
                             return fmt::format("{} cases, {} tensors within the official tolerances", count, tensors);
                           });

  // The deterministic backward sums in a fixed order: two runs, every bit the same.
  const CheckCase& c = cases[2];
  const Problem p = ch08::make_official_test_problem(c.shape, unsigned(seed + 1));
  const std::vector<double> dout = normal_values(std::size_t(p.sequence_elements()), seed + 2);
  ch08::CheckGroup deterministic;
  for (const auto& k : selective_scan::kVersions) {
    if (!common::kernel_selected(nb.options(), int(k.id))) continue;
    std::vector<ch08::Gradients> twice;
    for (int run = 0; run < 2; ++run) {
      ch08::DeviceProblem device(p, DataType::float32, k.id, /*deterministic=*/true);
      device.set_dout(dout);
      device.forward();
      device.backward();
      twice.push_back(device.gradients());
    }
    const ch08::Gradients &a = twice[0], &b = twice[1];
    const bool identical = a.du == b.du && a.ddelta == b.ddelta && a.dz == b.dz && a.dA == b.dA && a.dB == b.dB && a.dC == b.dC &&
                           a.dD == b.dD && a.ddelta_bias == b.ddelta_bias && a.dinitial_state == b.dinitial_state;
    deterministic.add({fmt::format("version {}, deterministic backward: two runs bit-identical on {}", version_label(k.id), c.size()),
                       identical, "the two runs differ", 1, 0, ""});
  }
  deterministic.report(nb, fmt::format("deterministic backward, fp32, {} {}", c.size(), c.name), "versions", [](int count, int) {
    return fmt::format("{} versions, two runs each: every gradient equal, bit for bit", count);
  });
}

// ---- [8] ---------------------------------------------------------------------------------------
// The official kernel's benchmark data (official_baseline.md): u, z ~ N(0,1); δraw = 0.5·N(0,1); A_n = −(n+1)·U(0.5, 1.5);
// delta_bias = softplus⁻¹(dt), dt log-uniform in [1e-3, 0.1]; B, C, D ~ N(0,1).
Problem benchmark_problem(const Config& c, std::uint64_t seed) {
  Problem p;
  p.batch = c.batch, p.dim = c.dim, p.seqlen = c.seqlen, p.dstate = c.dstate;
  p.variable_B = p.variable_C = c.variable_BC;
  p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = true;
  const std::size_t sequence = std::size_t(p.sequence_elements());
  p.u = normal_values(sequence, seed);
  p.z = normal_values(sequence, seed + 1);
  p.delta = normal_values(sequence, seed + 2, 0.5);
  std::mt19937_64 rng(seed + 3);
  std::uniform_real_distribution<double> scale(0.5, 1.5), log_dt(std::log(1e-3), std::log(0.1));
  std::normal_distribution<double> normal;
  for (std::int64_t d = 0; d < p.dim; ++d) {
    for (int n = 0; n < p.dstate; ++n) p.A.push_back(Complex(-(n + 1) * scale(rng), 0));
    p.D.push_back(normal(rng));
    p.delta_bias.push_back(std::log(std::expm1(std::exp(log_dt(rng)))));
  }
  const std::size_t projection = std::size_t(c.variable_BC ? p.batch * p.dstate * p.seqlen : p.dim * p.dstate);
  for (std::size_t i = 0; i < projection; ++i) p.B.push_back(Complex(normal(rng), 0));
  for (std::size_t i = 0; i < projection; ++i) p.C.push_back(Complex(normal(rng), 0));
  return p;
}

// The fp64 reference of a whole benchmark problem takes minutes, so the timed runs are checked
// on a slice: dout is zero but on a few channels, the reference runs on those channels alone,
// and every gradient of the other channels must come out exactly zero.
class SliceCheck {
 public:
  SliceCheck(const Problem& full, DataType type, std::vector<std::int64_t> channels, std::uint64_t seed)
      : full_(full), channels_(std::move(channels)) {
    for (std::size_t j = 0; j < channels_.size(); ++j) slot_[channels_[j]] = j;
    sub_ = ch08::as_gpu_sees(sub_problem(), type);
    const std::int64_t L = full_.seqlen;
    std::vector<double> sub_dout = ch08::round_to(normal_values(std::size_t(sub_.sequence_elements()), seed), type);
    dout_.assign(std::size_t(full_.sequence_elements()), 0.0);
    for (std::int64_t b = 0; b < full_.batch; ++b)
      for (std::size_t j = 0; j < channels_.size(); ++j)
        std::copy_n(&sub_dout[std::size_t((b * sub_.dim + std::int64_t(j)) * L)], L,
                    &dout_[std::size_t((b * full_.dim + channels_[j]) * L)]);
    expected_ = ch08::reference_forward(sub_);
    expected_grad_ = ch08::reference_backward(sub_, sub_dout);
    tol_ = ch08::official_tolerances(type, sub_);
  }

  const std::vector<double>& dout() const { return dout_; }
  static std::string describe() {
    return "channels 0, dim/2 and dim − 1 of every batch against fp64; dout zero elsewhere, so every other gradient must be 0";
  }

  std::string forward_failure(const ch08::DeviceProblem& device) const {
    Verdict v;
    add_forward(v, device.forward_result());
    return v.failure();
  }
  std::string forward_backward_failure(const ch08::DeviceProblem& device) const {
    Verdict v;
    add_forward(v, device.forward_result());
    const ch08::Gradients g = device.gradients();
    add_rows(v, "du", g.du, expected_grad_.du, tol_.du, full_.batch, full_.seqlen);
    add_rows(v, "ddelta", g.ddelta, expected_grad_.ddelta, tol_.ddelta, full_.batch, full_.seqlen);
    if (full_.has_z) add_rows(v, "dz", g.dz, expected_grad_.dz, tol_.dz, full_.batch, full_.seqlen);
    add_rows(v, "dA", flatten(g.dA, full_.complex), flatten(expected_grad_.dA, full_.complex), tol_.dA, 1, full_.dstate * parts());
    if (full_.has_D) add_rows(v, "dD", g.dD, expected_grad_.dD, tol_.dD, 1, 1);
    if (full_.has_delta_bias) add_rows(v, "ddelta_bias", g.ddelta_bias, expected_grad_.ddelta_bias, tol_.ddelta_bias, 1, 1);
    add_projection(v, "dB", g.dB, expected_grad_.dB, tol_.dB, full_.variable_B);
    add_projection(v, "dC", g.dC, expected_grad_.dC, tol_.dC, full_.variable_C);
    return v.failure();
  }

 private:
  std::int64_t parts() const { return full_.complex ? 2 : 1; }
  std::int64_t group_of(std::int64_t d) const { return d / (full_.dim / full_.groups); }

  // The chosen channels as a problem of their own; with several groups each channel becomes a
  // group of one, holding its group's B and C.
  Problem sub_problem() const {
    Problem s = full_;
    const std::int64_t k = std::int64_t(channels_.size()), L = full_.seqlen, N = full_.dstate;
    s.dim = k;
    s.groups = full_.groups == 1 ? 1 : int(k);
    const auto rows = [&](const auto& from, std::int64_t batches, std::int64_t length) {
      std::remove_cvref_t<decltype(from)> out;
      for (std::int64_t b = 0; b < batches; ++b)
        for (std::int64_t d : channels_)
          out.insert(out.end(), from.begin() + (b * full_.dim + d) * length, from.begin() + (b * full_.dim + d + 1) * length);
      return out;
    };
    s.u = rows(full_.u, full_.batch, L);
    s.delta = rows(full_.delta, full_.batch, L);
    if (full_.has_z) s.z = rows(full_.z, full_.batch, L);
    s.A = rows(full_.A, 1, N);
    if (full_.has_D) s.D = rows(full_.D, 1, 1);
    if (full_.has_delta_bias) s.delta_bias = rows(full_.delta_bias, 1, 1);
    if (full_.has_initial_state) s.initial_state = rows(full_.initial_state, full_.batch, N);
    const auto projection = [&](const std::vector<Complex>& from, bool variable) {
      if (!variable) return rows(from, 1, N);
      if (full_.groups == 1) return from;
      std::vector<Complex> out;
      for (std::int64_t b = 0; b < full_.batch; ++b)
        for (std::int64_t d : channels_) {
          const auto begin = from.begin() + (b * full_.groups + group_of(d)) * N * L;
          out.insert(out.end(), begin, begin + N * L);
        }
      return out;
    };
    s.B = projection(full_.B, full_.variable_B);
    s.C = projection(full_.C, full_.variable_C);
    return s;
  }

  // out and out_z on the chosen channels against fp64, and written (finite) everywhere.
  void add_forward(Verdict& v, const ch08::ForwardResult& got) const {
    const auto sequence = [&](const char* name, const std::vector<double>& all, const std::vector<double>& expected) {
      std::vector<double> chosen;
      std::size_t non_finite = 0;
      for (std::int64_t b = 0; b < full_.batch; ++b)
        for (std::int64_t d = 0; d < full_.dim; ++d) {
          const auto row = all.begin() + (b * full_.dim + d) * full_.seqlen;
          if (slot_.count(d)) chosen.insert(chosen.end(), row, row + full_.seqlen);
          non_finite += std::size_t(std::count_if(row, row + full_.seqlen, [](double x) { return !std::isfinite(x); }));
        }
      v.add(name, chosen, expected, tol_.out);
      v.require(std::string(name) + " written", non_finite == 0, fmt::format("{} elements NaN or Inf", non_finite));
    };
    sequence("out", got.out, expected_.out);
    if (full_.has_z) sequence("out_z", got.out_z, expected_.out_z);
    std::vector<double> state;
    const std::vector<double> all = flatten(got.last_state, full_.complex);
    const std::int64_t row = full_.dstate * parts();
    for (std::int64_t b = 0; b < full_.batch; ++b)
      for (std::int64_t d : channels_) state.insert(state.end(), all.begin() + (b * full_.dim + d) * row, all.begin() + (b * full_.dim + d + 1) * row);
    v.add("last_state", state, flatten(expected_.last_state, full_.complex), tol_.last_state);
  }

  // A tensor of `batches` × dim rows of `length`: the chosen rows against fp64, the others 0.
  void add_rows(Verdict& v, const std::string& name, const std::vector<double>& all, const std::vector<double>& expected, Tolerance tol,
                std::int64_t batches, std::int64_t length) const {
    std::vector<double> chosen;
    std::size_t nonzero = 0;
    for (std::int64_t b = 0; b < batches; ++b)
      for (std::int64_t d = 0; d < full_.dim; ++d) {
        const auto row = all.begin() + (b * full_.dim + d) * length;
        if (slot_.count(d)) chosen.insert(chosen.end(), row, row + length);
        else nonzero += std::size_t(std::count_if(row, row + length, [](double x) { return x != 0.0; }));
      }
    v.add(name, chosen, expected, tol);
    v.require(name + " elsewhere", nonzero == 0, fmt::format("{} elements not 0 where dout is 0", nonzero));
  }

  // dB or dC: constant ones by channel rows; variable ones are sums over the channels of a group.
  void add_projection(Verdict& v, const std::string& name, const std::vector<Complex>& got, const std::vector<Complex>& sub_grad, Tolerance tol,
                      bool variable) const {
    if (!variable) return add_rows(v, name, flatten(got, full_.complex), flatten(sub_grad, full_.complex), tol, 1, full_.dstate * parts());
    if (full_.groups == 1) return v.add(name, flatten(got, full_.complex), flatten(sub_grad, full_.complex), tol);
    const std::int64_t block = full_.dstate * full_.seqlen;
    std::vector<Complex> expected(got.size());
    for (std::int64_t b = 0; b < full_.batch; ++b)
      for (std::size_t j = 0; j < channels_.size(); ++j)
        for (std::int64_t i = 0; i < block; ++i)
          expected[std::size_t((b * full_.groups + group_of(channels_[j])) * block + i)] +=
              sub_grad[std::size_t((b * std::int64_t(channels_.size()) + std::int64_t(j)) * block + i)];
    v.add(name, flatten(got, full_.complex), flatten(expected, full_.complex), tol);
  }

  const Problem& full_;
  std::vector<std::int64_t> channels_;
  std::map<std::int64_t, std::size_t> slot_;
  Problem sub_;
  std::vector<double> dout_;
  ch08::ForwardResult expected_;
  ch08::Gradients expected_grad_;
  ch08::OfficialTolerances tol_;
};

std::vector<std::int64_t> slice_channels(std::int64_t dim) {
  const std::set<std::int64_t> unique{0, dim / 2, dim - 1};
  return {unique.begin(), unique.end()};
}

struct Timed {
  std::optional<common::TimingStats> forward, forward_backward;
};

std::string ratio(double numerator, double denominator) {
  return numerator > 0 && denominator > 0 ? fmt::format("{:.2f}", numerator / denominator) : "-";
}

void section_benchmark(Notebook& nb, const Options& o) {
  nb.section("Benchmark: every version on the official kernel's shapes");
  const bool bench = nb.options().bench;
  const std::vector<Config> configs = bench ? bench_configs() : small_configs(o);
  nb.text(bench ? "The official kernel's six timed configurations (official_baseline.md), then dstate 64, seqlen 32768,\n"
                  "constant B and C, and fp16, each changed from the first, and the official test suite's shape at\n"
                  "seqlen 512. B, C variable (one group) unless said; D, z, delta_bias, softplus on."
                : "One small shape (--bench runs the official kernel's configurations). D, z, delta_bias, softplus on.");
  nb.text("× bytes = time ÷ the byte floor (bytes of the byte model ÷ this run's device-to-device copy bandwidth).\n"
          "× exps = time ÷ the exp floor (one exp2 a state step forward, two forward + backward, at 16 MUFU\n"
          "results a clock per multiprocessor and the device's peak clock). Forward + backward times both\n"
          "passes, as training runs them. Each version is checked before and after it is timed on a slice of\n"
          "channels against fp64 (see the check lines), outputs poisoned before each check.");

  Figure f{"bench_floor", "Each version's time over its floor (lower is better)", "", "time ÷ floor", false, true, {}, {}};
  std::string tics;
  for (std::size_t i = 0; i < configs.size(); ++i)
    tics += fmt::format("{}\"{} {}×{}×{}{}{}\" {}", tics.empty() ? "" : ", ", dtype_name(configs[i].type), configs[i].batch,
                        configs[i].dim, configs[i].seqlen, configs[i].dstate == 16 ? "" : fmt::format(" N={}", configs[i].dstate),
                        configs[i].variable_BC ? "" : " B,C const", i + 1);
  // The configurations as x tics, the first `shown` of them in range.
  const auto axis_settings = [&](std::size_t shown) {
    return std::vector<std::string>{"set xtics (" + tics + ") rotate by 35 right font ',10'",
                                    fmt::format("set xrange [0.5:{}]", shown + 0.5), "set key below maxrows 3 font ',10'",
                                    "set grid ytics", "set lmargin 12"};
  };
  f.settings = axis_settings(configs.size());
  std::map<std::string, ch08::OfficialTime> measured;
  if (!o.official_csv.empty()) {
    measured = ch08::read_official_csv(o.official_csv);
    for (const auto& [spec, time] : measured)
      if (nb.gpu() && time.device != common::gpu_status().device.name)
        throw std::runtime_error("--official: " + o.official_csv + " was timed on " + time.device + ", this is " +
                                 common::gpu_status().device.name);
  }
  const std::string official_when = measured.empty() ? "H200, 2026-11-21" : "this run";
  Series official_fwd{"official forward (" + official_when + ")", {}, {}, "points pt 6 ps 1.5"},
      official_both{"official fwd+bwd (" + official_when + ")", {}, {}, "points pt 4 ps 1.5"};
  for (std::size_t i = 0; i < configs.size(); ++i)
    if (const OfficialRun* r = bench && measured.empty() ? official_run(configs[i]) : nullptr) {
      official_fwd.x.push_back(double(i + 1)), official_fwd.y.push_back(r->forward_ratio);
      official_both.x.push_back(double(i + 1)), official_both.y.push_back(r->forward_backward_ratio);
    }
  const Series goal_fwd{"goal, forward: 3×", {0.5, configs.size() + 0.5}, {3, 3}, "lines lw 1 dt 2 lc rgb 'gray40'"};
  const Series goal_both{"goal, fwd+bwd: 5×", {0.5, configs.size() + 0.5}, {5, 5}, "lines lw 1 dt 3 lc rgb 'gray40'"};
  const auto draw = [&](std::vector<Series> versions) {
    for (const Series& s : {official_fwd, official_both})
      if (!s.x.empty()) versions.push_back(s);
    versions.push_back(goal_fwd);
    versions.push_back(goal_both);
    f.series = versions;
    nb.figure(f, false);
  };

  if (!nb.gpu()) {
    std::vector<std::vector<std::string>> rows;
    for (const Config& c : configs) {
      const ch08::ByteShape s = byte_shape(c);
      const auto floor_ms = [](std::int64_t bytes) { return fmt::format("{:.3f}", double(bytes) / ch08::kOfficialCopyBandwidth * 1e3); };
      rows.push_back({c.label, megabytes(ch08::forward_bytes(s)), floor_ms(ch08::forward_bytes(s)),
                      megabytes(ch08::forward_backward_bytes(s)), floor_ms(ch08::forward_backward_bytes(s))});
    }
    nb.text("The configurations and their floors at official_baseline.md's 4.26 TB/s (a GPU run measures its own copy):");
    nb.table({"configuration", "fwd MB", "fwd floor ms", "fwd+bwd MB", "fwd+bwd floor ms"}, rows);
    nb.gpu_skip("the benchmark (the figure shows the official kernel's ratios and the goals alone)");
    return draw({});
  }

  const std::size_t copy_bytes = std::size_t(bench ? 1024 : 256) << 20;
  common::require_device_memory(2 * copy_bytes, "the copy-bandwidth buffers");
  const double copy_gbps = common::measure_copy_bandwidth(copy_bytes);
  nb.value("device-to-device copy (cudaMemcpyAsync, read + write)", fmt::format("{:.0f} GB/s", copy_gbps));
  const common::DeviceInfo& device_info = common::gpu_status().device;
  const double clock_hz = device_info.clock_khz * 1e3;
  nb.value("exp2 rate (MUFU: 16 a clock × multiprocessors × peak clock)",
           fmt::format("{:.2f}·10^12 a second ({} × {} × {:.2f} GHz)",
                       ch08::kMufuResultsPerClock * device_info.multiprocessors * clock_hz / 1e12,
                       ch08::kMufuResultsPerClock, device_info.multiprocessors, clock_hz / 1e9));
  common::ResultsCsv csv(nb.out_dir() + "/bench.csv", device_info.name, nb.date(),
                         {"configuration", "dtype", "batch", "dim", "seqlen", "dstate", "variable_BC", "version", "kept_h", "kept_h_MB", "fwd_ms",
                          "fwd_floor_ms", "fwd_x_floor", "fwd_exp_floor_ms", "fwd_x_exp_floor", "fwd_GBps", "fwd_bwd_ms",
                          "fwd_bwd_floor_ms", "fwd_bwd_x_floor", "fwd_bwd_exp_floor_ms", "fwd_bwd_x_exp_floor",
                          "fwd_bwd_GBps", "fwd_speedup_v1", "fwd_speedup_v2", "fwd_speedup_v4", "fwd_bwd_speedup_v1",
                          "fwd_bwd_speedup_v2", "fwd_bwd_speedup_v4", "official_fwd_ms", "official_fwd_bwd_ms",
                          "fwd_speedup_official", "fwd_bwd_speedup_official", "official_source", "copy_GBps",
                          "clock_MHz", "plan"});
  Figure against_official{"bench_official",
                          measured.empty() ? "Speedup over the official kernel (its H200 times of 2026-11-21)"
                                           : "Speedup over the official kernel (timed in the same run)",
                          "", "official time ÷ this version's", false, true, {}, {}};
  // Without --official only the official kernel's six configurations have a time: bench_configs()
  // lists them first.
  against_official.settings = axis_settings(measured.empty() ? std::size(kOfficialRuns) : configs.size());
  std::vector<Series> official_speedups;
  common::CheckedTiming timing(nb, {2, bench ? 10 : 5, true});
  const std::vector<Run> runs = selected_runs(nb.options());
  std::vector<Series> versions;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const std::string name = runs[r].kernel == Kernel::automatic
                                 ? "auto"
                                 : fmt::format("v{}{}", int(runs[r].kernel), runs[r].keep_checkpoints ? " + kept h" : "");
    // One colour a run (gnuplot's line type), a filled circle forward, a square both ways.
    const int colour = int(r) + 1;
    versions.push_back({name + " forward", {}, {}, fmt::format("linespoints lw 2 pt 7 lc {}", colour)});
    versions.push_back({name + " fwd+bwd", {}, {}, fmt::format("linespoints lw 2 dt 2 pt 5 lc {}", colour)});
    official_speedups.push_back({name + " forward", {}, {}, fmt::format("points pt 7 ps 1.2 lc {}", colour)});
    official_speedups.push_back({name + " fwd+bwd", {}, {}, fmt::format("points pt 5 ps 1.2 lc {}", colour)});
  }
  std::vector<std::vector<std::string>> rows;
  for (std::size_t ci = 0; ci < configs.size(); ++ci) {
    const Config& c = configs[ci];
    const ch08::ByteShape shape = byte_shape(c);
    const double fwd_floor_ms = double(ch08::forward_bytes(shape)) / (copy_gbps * 1e9) * 1e3;
    const double both_floor_ms = double(ch08::forward_backward_bytes(shape)) / (copy_gbps * 1e9) * 1e3;
    const int sms = device_info.multiprocessors;
    const double fwd_exp_ms = ch08::exp_floor_seconds(shape, ch08::kForwardExps, sms, clock_hz) * 1e3;
    const double both_exp_ms = ch08::exp_floor_seconds(shape, ch08::kForwardBackwardExps, sms, clock_hz) * 1e3;
    const OfficialTimes official = official_times(c, measured);
    if (!measured.empty() && official.forward_ms > 0) {  // its time over this run's floor, on the first figure
      official_fwd.x.push_back(double(ci + 1)), official_fwd.y.push_back(official.forward_ms / fwd_floor_ms);
      official_both.x.push_back(double(ci + 1)), official_both.y.push_back(official.forward_backward_ms / both_floor_ms);
    }
    const Problem p = benchmark_problem(c, nb.options().seed + ci);
    const SliceCheck slice(p, c.type, slice_channels(c.dim), nb.options().seed + 100 + ci);
    std::vector<Timed> times(runs.size());
    std::vector<std::int64_t> kept_bytes(runs.size(), 0);
    std::vector<std::string> plans(runs.size());
    for (std::size_t r = 0; r < runs.size(); ++r) {
      ch08::DeviceProblem device(p, c.type, runs[r].kernel, false, 0, runs[r].keep_checkpoints);
      plans[r] = selective_scan::plan_of(device.backward_params()).summary();
      kept_bytes[r] = runs[r].keep_checkpoints ? selective_scan::state_checkpoints_floats(device.forward_params()) * 4 : 0;
      if (runs[r].keep_checkpoints && kept_bytes[r] == 0) continue;  // version 5 declines the call: nothing to keep
      device.set_dout(slice.dout());
      const auto poison = [&] { device.poison_outputs(); };
      const std::string what = fmt::format("version {}, {}", runs[r].label(), c.label);
      Timed& t = times[r];
      t.forward = timing.time(what + ", forward", poison, [&] { device.forward(); }, [&] { return slice.forward_failure(device); });
      t.forward_backward = timing.time(
          what + ", forward + backward", poison,
          [&] {
            device.forward();
            device.backward();
          },
          [&] { return slice.forward_backward_failure(device); });
    }
    const auto time_of = [](const std::optional<common::TimingStats>& t) { return t ? t->median_ms : 0.0; };
    // A version's time without kept states (0 where it did not run), for the speedups.
    const auto ms = [&](int version, bool both) {
      for (std::size_t r = 0; r < runs.size(); ++r)
        if (int(runs[r].kernel) == version && !runs[r].keep_checkpoints)
          return time_of(both ? times[r].forward_backward : times[r].forward);
      return 0.0;
    };
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const int v = int(runs[r].kernel);
      const double fwd = time_of(times[r].forward), both = time_of(times[r].forward_backward);
      if (fwd <= 0 && both <= 0) continue;
      const auto cell = [](double value, const char* format) { return value > 0 ? fmt::format(fmt::runtime(format), value) : std::string("-"); };
      const double fwd_x = fwd / fwd_floor_ms, both_x = both / both_floor_ms;
      const double fwd_gbps = fwd > 0 ? common::gigabytes_per_second(double(ch08::forward_bytes(shape)), fwd) : 0;
      const double both_gbps = both > 0 ? common::gigabytes_per_second(double(ch08::forward_backward_bytes(shape)), both) : 0;
      const double official_fwd_ms = official.forward_ms, official_both_ms = official.forward_backward_ms;
      const std::string kept_mb = kept_bytes[r] > 0 ? megabytes(kept_bytes[r]) : "-";
      rows.push_back({c.label, runs[r].label(), plans[r], cell(fwd, "{:.3f}"), cell(fwd_x, "{:.1f}×"), cell(fwd / fwd_exp_ms, "{:.1f}×"),
                      cell(both, "{:.3f}"), cell(both_x, "{:.1f}×"), cell(both / both_exp_ms, "{:.1f}×"), ratio(ms(4, false), fwd),
                      ratio(ms(4, true), both), ratio(official_fwd_ms, fwd), ratio(official_both_ms, both), kept_mb});
      csv.row({c.label, dtype_name(c.type), std::to_string(c.batch), std::to_string(c.dim), std::to_string(c.seqlen),
               std::to_string(c.dstate), c.variable_BC ? "1" : "0", v == 0 ? "auto" : std::to_string(v),
               kept_bytes[r] > 0 ? "1" : "0",
               kept_mb == "-" ? "0" : kept_mb, cell(fwd, "{:.4f}"),
               fmt::format("{:.4f}", fwd_floor_ms), cell(fwd_x, "{:.2f}"), fmt::format("{:.4f}", fwd_exp_ms),
               cell(fwd / fwd_exp_ms, "{:.2f}"), cell(fwd_gbps, "{:.1f}"), cell(both, "{:.4f}"),
               fmt::format("{:.4f}", both_floor_ms), cell(both_x, "{:.2f}"), fmt::format("{:.4f}", both_exp_ms),
               cell(both / both_exp_ms, "{:.2f}"), cell(both_gbps, "{:.1f}"), ratio(ms(1, false), fwd), ratio(ms(2, false), fwd),
               ratio(ms(4, false), fwd), ratio(ms(1, true), both), ratio(ms(2, true), both), ratio(ms(4, true), both),
               cell(official_fwd_ms, "{:.3f}"), cell(official_both_ms, "{:.3f}"), ratio(official_fwd_ms, fwd),
               ratio(official_both_ms, both), official.source, fmt::format("{:.1f}", copy_gbps),
               fmt::format("{:.0f}", clock_hz / 1e6),
               plans[r]});
      const double x = double(ci + 1) + 0.07 * (double(r) - 2.5);  // runs side by side, not on top of each other
      if (official_fwd_ms > 0 && fwd > 0) official_speedups[2 * r].x.push_back(x), official_speedups[2 * r].y.push_back(official_fwd_ms / fwd);
      if (official_both_ms > 0 && both > 0)
        official_speedups[2 * r + 1].x.push_back(x), official_speedups[2 * r + 1].y.push_back(official_both_ms / both);
      if (fwd > 0) versions[2 * r].x.push_back(double(ci + 1)), versions[2 * r].y.push_back(fwd_x);
      if (both > 0) versions[2 * r + 1].x.push_back(double(ci + 1)), versions[2 * r + 1].y.push_back(both_x);
    }
  }
  nb.table({"configuration", "version", "plan", "fwd ms", "× bytes", "× exps", "fwd+bwd ms", "× bytes", "× exps", "fwd vs v4",
            "f+b vs v4", "fwd vs official", "f+b vs official", "kept h MB"},
           rows);
  nb.text((measured.empty() ? std::string("vs v4, vs official: the speedup over version 4 and over the official kernel (its "
                                            "times on an\nH200, official_baseline.md)")
                              : "vs v4, vs official: the speedup over version 4 and over the official kernel (timed in\n"
                                "this run by official-bench, " + o.official_csv + ")") +
          ": their time divided by this version's. The chapter's goal is 2 against the official\n"
          "kernel in both directions. The CSV also has GB/s and the speedups over versions 1 and 2.\n"
          "+ kept h: version 5's forward keeps h every 8 steps (state_checkpoints) and its backward reads them\n"
          "instead of recomputing them; kept h MB is that memory, which the official kernel does not spend (it\n"
          "keeps one state every 2048 steps, as every row here does too). The floors are the same for both: the\n"
          "kept states are bytes the kernel chooses to move, not bytes the problem needs. Where version 5's\n"
          "forward declines a call (dstate above 16, B and C both constant), it keeps nothing and has no such row.");
  nb.value("results", csv.path());
  timing.report("the timed versions match fp64 before and after timing", SliceCheck::describe());
  std::vector<Series> drawn;
  for (const Series& s : versions)
    if (!s.x.empty()) drawn.push_back(s);
  draw(drawn);
  if (bench) {
    for (const Series& s : official_speedups)
      if (!s.x.empty()) against_official.series.push_back(s);
    against_official.series.push_back({"level with the official kernel", {0.5, configs.size() + 0.5}, {1, 1}, "lines lw 1 dt 3 lc rgb 'gray40'"});
    against_official.series.push_back({"goal: 2×", {0.5, configs.size() + 0.5}, {2, 2}, "lines lw 1 dt 2 lc rgb 'gray40'"});
    nb.figure(against_official, false);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  return common::run_chapter(
      {"ch08_selective_scan", "Chapter 08 · Mamba's selective scan, forward and backward", selective_scan::kVersionCount}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--official", o.official_csv,
                       "official-bench's CSV, timed in the same device call: the benchmark's official times")
            ->check(CLI::ExistingFile);
        app.add_option("--dtype", o.dtypes, "Input types of the GPU checks and of the small benchmark (repeatable)")
            ->check(CLI::IsMember({"fp32", "fp16", "bf16"}))
            ->capture_default_str();
        app.add_option("--check-seqlen", o.check_seqlen, "seqlen of the longest GPU check (dstate 64)")
            ->check(common::integer_in(1, 1 << 16))
            ->capture_default_str();
        app.add_option("--batch", o.batch, "batch of the benchmark without --bench")->check(common::integer_in(1, 16))->capture_default_str();
        app.add_option("--dim", o.dim, "dim of the benchmark without --bench")->check(common::integer_in(1, 1024))->capture_default_str();
        app.add_option("--seqlen", o.seqlen, "seqlen of the benchmark without --bench")
            ->check(common::integer_in(1, 1 << 16))
            ->capture_default_str();
        app.add_option("--dstate", o.dstate, "dstate of the benchmark without --bench")
            ->check(common::integer_in(1, selective_scan::kMaxStates))
            ->capture_default_str();
      },
      [&](Notebook& nb) {
        if (nb.gpu() && !nb.options().bench) require_benchmark_fits(o);
        section_one_channel(nb);
        section_selective_delta(nb);
        section_state_decay(nb);
        section_zoh_vs_euler(nb);
        section_gradients(nb);
        section_bytes(nb);
        section_gpu_checks(nb, o);
        section_benchmark(nb, o);
      });
}
