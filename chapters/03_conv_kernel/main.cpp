// ch03_conv_kernel -- Chapter 03: the convolution view of an SSM.
//
// The kernel K̄ of a diagonal SSM, the Toeplitz products it defines (forward and backward),
// the GPU versions of the causal product, the FFT path, and why input-dependent Δ, B, C
// leave no kernel to convolve with. Run with --help for the options; the chapter's text is
// README.md beside this file.
#include "benchmark_results.hpp"
#include "chapter_main.hpp"
#include "checked_timing.hpp"
#include "conv_kernels.hpp"
#include "diagonal_ssm.hpp"
#include "fft_conv.hpp"
#include "finite_differences.hpp"
#include "gpu.hpp"
#include "gpu_conv.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "problem.hpp"
#include "results_csv.hpp"
#include "time_varying.hpp"
#include "timing.hpp"
#include "toeplitz.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace {

using conv::finite_differences;

using common::Figure;
using common::Notebook;
using conv::complex;

struct Options {
  int batch = 4;
  int channels = 64;
  int length = 1000;
};

constexpr common::Tolerance kFp64Tolerance{1e-12, 1e-9};

std::vector<double> range(int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

// The first ℓ with |K̄_ℓ| < 1e-3 |K̄_0|.
int steps_to_thousandth(const std::vector<double>& K) {
  for (std::size_t l = 0; l < K.size(); ++l)
    if (std::abs(K[l]) < 1e-3 * std::abs(K[0])) return static_cast<int>(l);
  return static_cast<int>(K.size());
}

void section_kernel(Notebook& nb, const Options&) {
  nb.section("The kernel K̄ of a diagonal SSM, and convolution = recurrence");
  nb.text(
      "h_t = Ā h_{t-1} + B̄ x_t, y_t = Re(C h_t) unrolls into y_t = Σ_ℓ K̄_ℓ x_{t-ℓ} with\n"
      "K̄_ℓ = Re Σ_n C_n Ā_n^ℓ B̄_n: for diagonal A, a Vandermonde matrix V_{n,ℓ} = Ā_n^ℓ times C ⊙ B̄.");
  const int L = 512;
  const auto ssm = conv::random_diagonal_ssm(16, 0.1, 5.0, 10.0, nb.options().seed);
  const auto d = conv::discretize_zoh(ssm, 0.05);
  const auto K = conv::ssm_kernel(d, L);
  nb.value("SSM", "N = 16 states in conjugate pairs, Δ = 0.05, L = 512");
  nb.value("K̄_0 .. K̄_4", fmt::format("{:.6f}, {:.6f}, {:.6f}, {:.6f}, {:.6f}", K[0], K[1], K[2], K[3], K[4]));
  nb.check("K̄ by the Vandermonde product = C Ā^ℓ B̄ by repeated multiplication",
           common::compare(K, conv::ssm_kernel_by_powers(d, L), {1e-14, 1e-10}));
  std::vector<double> by_convolution, by_recurrence;
  for (int s = 0; s < 8; ++s) {
    const auto x = conv::random_signal(L, nb.options().seed + 10 + s);
    const auto yc = conv::causal_toeplitz(K, x), yr = conv::run_recurrence(d, x);
    by_convolution.insert(by_convolution.end(), yc.begin(), yc.end());
    by_recurrence.insert(by_recurrence.end(), yr.begin(), yr.end());
  }
  nb.check("y = K̄ ∗ x equals the recurrence (8 sequences × 512 steps, fp64)",
           common::compare(by_convolution, by_recurrence, kFp64Tolerance),
           [&](std::size_t i) { return fmt::format("sequence {}, t = {}", i / L, i % L); });

  nb.text(
      "One real state: K̄_ℓ / K̄_0 = Ā^ℓ = exp(ΔA)^ℓ. The decay is set by |Ā|: near 0 the kernel\n"
      "dies at once (short memory), near 1 it lasts (long memory). The decay depends on Δ and A only\n"
      "through ΔA; B̄ = (Ā − 1) B / A depends on Δ as well.");
  Figure f{"kernel_decay",
           "K̄_ℓ / K̄_0 of one real state, for several A and Δ",
           "lag ℓ",
           "K̄_ℓ / K̄_0",
           false,
           true,
           {},
           {"set yrange [1e-6:1e3]", "set key inside right top"}};
  f.markup = true;  // K̄_ℓ: a subscript
  std::vector<std::vector<std::string>> rows;
  int wrong_predictions = 0;
  for (auto [a, delta] : {std::pair{-1.0, 1.0}, std::pair{-1.0, 0.2}, std::pair{-1.0, 0.05}, std::pair{-0.1, 0.2},
                          std::pair{-0.1, 0.05}}) {
    const auto one = conv::discretize_zoh({{a}, {1.0}, {1.0}}, delta);
    auto k = conv::ssm_kernel(one, 400);
    const double k0 = k[0];
    for (double& v : k) v /= k0;
    const double a_bar = one.A_bar[0].real();
    const int measured = steps_to_thousandth(k);
    const int predicted = static_cast<int>(std::floor(std::log(1e-3) / std::log(a_bar))) + 1;
    if (measured != predicted && measured < 400) ++wrong_predictions;
    f.series.push_back({fmt::format("A = {}, Δ = {} (Ā = {:.3f})", a, delta, a_bar), range(400), k});
    rows.push_back({fmt::format("{}", a), fmt::format("{}", delta), fmt::format("{:.4f}", a_bar),
                    fmt::format("{:.4f}", one.B_bar[0].real()), measured < 400 ? std::to_string(measured) : "> 400",
                    std::to_string(predicted)});
  }
  nb.table({"A", "Δ", "Ā = exp(ΔA)", "B̄", "steps to 1e-3", "⌊ln 1e-3 / ln Ā⌋ + 1"}, rows);
  nb.check("the steps to 1e-3 are the ones |Ā|^ℓ predicts", wrong_predictions == 0,
           fmt::format("{} of {} differ", wrong_predictions, rows.size()));
  nb.figure(f);
}

void section_oscillating(Notebook& nb, const Options&) {
  nb.section("Complex eigenvalues: oscillating kernels");
  nb.text(
      "A conjugate pair A = -α ± iω (with C and B conjugated alike) gives a real kernel,\n"
      "K̄_ℓ = 2 |C B̄| e^{-αΔℓ} cos(ωΔℓ + arg(C B̄)): |Ā| = e^{-αΔ} sets the decay, ωΔ the turn per step.");
  const double delta = 0.1;
  const int L = 200;
  Figure f{"kernel_oscillating",
           "K̄_ℓ of one conjugate pair A = -α ± iω (Δ = 0.1, C = 1)",
           "lag ℓ",
           "K̄_ℓ",
           false,
           false,
           {},
           {"set xzeroaxis", "set key inside right top", "set yrange [-0.2:0.35]"}};
  f.markup = true;  // K̄_ℓ
  double worst_imaginary = 0;
  std::vector<double> got, closed;
  for (auto [alpha, omega] : {std::pair{0.2, 1.0}, std::pair{0.2, 4.0}, std::pair{1.0, 4.0}, std::pair{0.05, 2.0}}) {
    const complex a(-alpha, omega);
    const conv::DiagonalSsm ssm{{a, std::conj(a)}, {1.0, 1.0}, {1.0, 1.0}};
    const auto d = conv::discretize_zoh(ssm, delta);
    const auto K = conv::ssm_kernel(d, L);
    const complex w = d.C[0] * d.B_bar[0];
    for (int l = 0; l < L; ++l) {
      complex sum = 0.0;  // the full complex sum, to see its imaginary part vanish
      for (int n = 0; n < 2; ++n) sum += d.C[n] * std::pow(d.A_bar[n], l) * d.B_bar[n];
      worst_imaginary = std::max(worst_imaginary, std::abs(sum.imag()));
      closed.push_back(2 * std::abs(w) * std::exp(-alpha * delta * l) * std::cos(omega * delta * l + std::arg(w)));
    }
    got.insert(got.end(), K.begin(), K.end());
    f.series.push_back(
        {fmt::format("α = {}, ω = {} (|Ā| = {:.3f})", alpha, omega, std::exp(-alpha * delta)), range(L), K});
  }
  nb.check("K̄ of a conjugate pair = the damped cosine", common::compare(got, closed, {1e-14, 1e-10}));
  nb.check("the imaginary parts cancel", worst_imaginary < 1e-15,
           fmt::format("max |Im Σ_n C_n Ā_n^ℓ B̄_n| = {:.1e} (bound 1e-15)", worst_imaginary));
  nb.figure(f);
}

// A row-major matrix whose entries are the stand-in values 1, 2, ... of named symbols (or
// zero), written back as the symbols.
std::vector<std::vector<std::string>> symbolic(const std::vector<double>& M, std::size_t columns,
                                               const std::function<std::string(int)>& name,
                                               const std::function<std::string(int)>& row_name) {
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < M.size() / columns; ++i) {
    std::vector<std::string> row{row_name(static_cast<int>(i))};
    for (std::size_t j = 0; j < columns; ++j) {
      const double v = M[i * columns + j];
      row.push_back(std::abs(v) < 0.5 ? "0" : name(static_cast<int>(std::lround(v))));
    }
    rows.push_back(row);
  }
  return rows;
}

std::vector<double> transpose(const std::vector<double>& M, std::size_t rows, std::size_t columns) {
  std::vector<double> T(M.size());
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < columns; ++j) T[j * rows + i] = M[i * columns + j];
  return T;
}

// The Jacobian ∂o/∂v (o: n outputs) as an n × |v| row-major matrix, by finite differences.
std::vector<double> jacobian(const std::vector<double>& v, std::size_t outputs,
                             const std::function<std::vector<double>(const std::vector<double>&)>& f) {
  std::vector<double> J(outputs * v.size());
  for (std::size_t i = 0; i < outputs; ++i) {
    const auto column = finite_differences(v, [&](const std::vector<double>& u) { return f(u)[i]; });
    for (std::size_t k = 0; k < v.size(); ++k) J[i * v.size() + k] = column[k];
  }
  return J;
}

void section_toeplitz(Notebook& nb, const Options&) {
  nb.section("Toeplitz products, forward: causal and non-causal");
  nb.text(
      "T_{ij} = t_{i-j}. Causal: o_i = Σ_{j≤i} t_{i-j} x_j (n values of t). Non-causal:\n"
      "o_i = Σ_j t_{i-j} x_j, t indexed -(n-1) .. n-1 (2n-1 values). Both for n = 4, built by the code:");
  auto t_name = [](int v) { return fmt::format("t{}", v - 4); };               // t_k stored as k + 4
  std::vector<double> causal_t{4, 5, 6, 7}, noncausal_t{1, 2, 3, 4, 5, 6, 7};  // t_k ↦ k + 4
  auto header = [](const char* what) { return std::vector<std::string>{what, "j=0", "j=1", "j=2", "j=3"}; };
  auto o_row = [](int i) { return fmt::format("o{} =", i); };
  nb.table(header("causal T"), symbolic(conv::causal_toeplitz_matrix(causal_t), 4, t_name, o_row));
  nb.table(header("non-causal T"), symbolic(conv::noncausal_toeplitz_matrix(noncausal_t), 4, t_name, o_row));
  for (int n : {1, 2, 64}) {
    const auto x = conv::random_signal(n, nb.options().seed + 20);
    const auto tc = conv::random_signal(n, nb.options().seed + 21),
               tn = conv::random_signal(2 * n - 1, nb.options().seed + 22);
    const auto Tc = conv::causal_toeplitz_matrix(tc), Tn = conv::noncausal_toeplitz_matrix(tn);
    std::vector<double> got, expected;
    for (auto [T, o] : {std::pair{Tc, conv::causal_toeplitz(tc, x)}, std::pair{Tn, conv::noncausal_toeplitz(tn, x)}}) {
      for (int i = 0; i < n; ++i) {
        double sum = 0;
        for (int j = 0; j < n; ++j) sum += T[std::size_t(i) * n + j] * x[j];
        expected.push_back(sum);
      }
      got.insert(got.end(), o.begin(), o.end());
    }
    nb.check(fmt::format("causal and non-causal sums = T x with the matrix, n = {}", n),
             common::compare(got, expected, kFp64Tolerance));
  }
}

void section_backward(Notebook& nb, const Options&) {
  nb.section("Toeplitz products, backward: the gradients for t and x");
  nb.text(
      "For ℓ with g = ∂ℓ/∂o: ∂ℓ/∂x = Tᵀ g, and ∂ℓ/∂t_k = Σ_j g_{j+k} x_j. The transposed Jacobians,\n"
      "measured by finite differences of the code (x_j ↦ \"xj\", t_k ↦ \"tk\"), causal, n = 4:");
  auto x_name = [](int v) { return fmt::format("x{}", v - 1); };
  auto t_name = [](int v) { return fmt::format("t{}", v - 1); };
  const std::vector<double> x{1, 2, 3, 4}, t{1, 2, 3, 4};  // x_j ↦ j + 1, t_k ↦ k + 1
  const auto d_dt = jacobian(t, 4, [&](const auto& v) { return conv::causal_toeplitz(v, x); });
  const auto d_dx = jacobian(x, 4, [&](const auto& v) { return conv::causal_toeplitz(t, v); });
  auto row = [](const char* v, int offset) {
    return [v, offset](int i) { return fmt::format("∂ℓ/∂{}{} =", v, i + offset); };
  };
  nb.table({"(∂o/∂t)ᵀ g", "g0", "g1", "g2", "g3"}, symbolic(transpose(d_dt, 4, 4), 4, x_name, row("t", 0)));
  nb.table({"(∂o/∂x)ᵀ g", "g0", "g1", "g2", "g3"}, symbolic(transpose(d_dx, 4, 4), 4, t_name, row("x", 0)));
  nb.text(
      "so ∂ℓ/∂t_k = Σ_{j=0}^{n-1-k} x_j g_{j+k} and ∂ℓ/∂x_k = Σ_{j=0}^{n-1-k} t_j g_{j+k}: the last row\n"
      "of (∂o/∂x)ᵀ holds t0. Non-causal, n = 3 (t_k ↦ \"tk\", k = -2 .. 2):");
  const std::vector<double> x3{1, 2, 3}, t5{1, 2, 3, 4, 5};  // t_k ↦ k + 3
  const auto n_dt = jacobian(t5, 3, [&](const auto& v) { return conv::noncausal_toeplitz(v, x3); });
  const auto n_dx = jacobian(x3, 3, [&](const auto& v) { return conv::noncausal_toeplitz(t5, v); });
  nb.table({"(∂o/∂t)ᵀ g", "g0", "g1", "g2"}, symbolic(transpose(n_dt, 3, 5), 3, x_name, row("t", -2)));
  nb.table({"(∂o/∂x)ᵀ g", "g0", "g1", "g2"},
           symbolic(
               transpose(n_dx, 3, 3), 3, [](int v) { return fmt::format("t{}", v - 3); }, row("x", 0)));

  const common::Tolerance fd{1e-8, 1e-7};
  // ℓ = g · (T x) is linear in t and in x alone, so central differences have no truncation error,
  // only the rounding of ℓ over 2·step: a step of 1e-3 keeps that near 1e-11 at n = 50 (1e-6 let
  // it reach 2.5e-8, past the tolerance, for some seeds).
  constexpr double step = 1e-3;
  for (int n : {1, 2, 50}) {
    const auto xs = conv::random_signal(n, nb.options().seed + 30), g = conv::random_signal(n, nb.options().seed + 31);
    const auto tc = conv::random_signal(n, nb.options().seed + 32),
               tn = conv::random_signal(2 * n - 1, nb.options().seed + 33);
    const auto causal = conv::causal_toeplitz_backward(tc, xs, g);
    const auto noncausal = conv::noncausal_toeplitz_backward(tn, xs, g);
    auto loss = [&](auto product) {
      return [&g, product](const std::vector<double>& v) { return conv::weighted_sum(g, product(v)); };
    };
    nb.check(fmt::format("causal ∂ℓ/∂t = finite differences, n = {}", n),
             common::compare(
                 causal.dt,
                 finite_differences(tc, loss([&](const auto& v) { return conv::causal_toeplitz(v, xs); }), step), fd));
    nb.check(fmt::format("causal ∂ℓ/∂x = finite differences, n = {}", n),
             common::compare(
                 causal.dx,
                 finite_differences(xs, loss([&](const auto& v) { return conv::causal_toeplitz(tc, v); }), step), fd));
    nb.check(
        fmt::format("non-causal ∂ℓ/∂t = finite differences, n = {}", n),
        common::compare(
            noncausal.dt,
            finite_differences(tn, loss([&](const auto& v) { return conv::noncausal_toeplitz(v, xs); }), step), fd));
    nb.check(
        fmt::format("non-causal ∂ℓ/∂x = finite differences, n = {}", n),
        common::compare(
            noncausal.dx,
            finite_differences(xs, loss([&](const auto& v) { return conv::noncausal_toeplitz(tn, v); }), step), fd));
  }
}

// The reference for the first `rows` rows (b = 0, c = 0 .. rows−1) of a problem, to re-check
// a large GPU run without paying for the whole batch in fp64.
std::vector<double> reference_prefix(const conv::ConvProblem& p, int rows) {
  const std::size_t n = p.n;
  std::vector<double> t(p.t.begin(), p.t.begin() + rows * n), x(p.x.begin(), p.x.begin() + rows * n);
  return conv::causal_toeplitz_batched(t, x, 1, rows, p.n);
}

std::vector<float> output_prefix(const std::vector<float>& o, int rows, int n) {
  return {o.begin(), o.begin() + std::size_t(rows) * n};
}

// The GPU check's problem at the command line's size (batch × channels rows of n), checked
// before any work: the FFT path (cufftPlanMany, int sizes) takes fewer than 2^31 numbers; the
// host holds t, x, the fp64 reference and the GPU's result (8 bytes an element of t, about 24
// of x with the fp32 copies sent up); the GPU holds t, x, the output and the FFT's buffers.
// The sizes take memory only where the GPU check runs.
void require_gpu_check_fits(const Options& o) {
  constexpr const char* options = "--batch × --channels × --length";
  const double rows = double(o.batch) * o.channels, N = conv::fft_length(o.length);
  if (rows * N > INT_MAX)
    throw common::OptionError(
        fmt::format("{}: the FFT path pads {:.0f} rows to {:.0f} numbers each, {:.0f} in all, "
                    "and takes fewer than 2^31: make them smaller",
                    options, rows, N, rows * N));
  common::require_host_memory(8.0 * o.channels * o.length + 24.0 * rows * o.length, options);
  common::require_device_memory(conv::GpuConvolution::device_bytes(o.batch, o.channels, o.length), options);
}

void section_gpu(Notebook& nb, const Options& o) {
  nb.section("The causal product on the GPU: five versions, each checked against fp64");
  for (const auto& k : conv::kKernels)
    nb.value(fmt::format("kernel {}", int(k.id)), fmt::format("{}: {}", k.name, k.idea));
  if (!nb.gpu()) return nb.gpu_skip("every GPU kernel and its checks");
  // Awkward sizes first -- n = 1, 2, primes, one off a warp and off each tile width -- then
  // the size from the command line. t is each channel's SSM kernel K̄.
  const std::vector<std::tuple<int, int, int>> sizes{
      {1, 1, 1},   {1, 2, 2},   {2, 3, 31},   {1, 3, 129},
      {2, 1, 511}, {1, 2, 513}, {3, 2, 1021}, {o.batch, o.channels, o.length}};
  for (const auto& info : conv::kKernels) {
    if (!common::kernel_selected(nb.options(), int(info.id))) continue;
    std::vector<float> got;
    std::vector<double> expected;
    std::string size_list, worst_size;
    double worst_ratio = -1;
    bool ok = true;
    for (auto [batch, channels, n] : sizes) {
      const auto p = conv::ssm_problem(batch, channels, n, nb.options().seed + n);
      const auto reference = conv::causal_toeplitz_batched(p.t, p.x, batch, channels, n);
      conv::GpuConvolution gpu(p.t, p.x, batch, channels, n);
      gpu.poison_output();
      gpu.run(info.id);
      const auto c = common::compare(gpu.output(), reference, conv::fp32_tolerance(reference, n));
      const double ratio = c.max_abs_error / c.tolerance.atol;
      // Report the first failure, or else the size that came closest to its bound.
      if (ok && (!c.ok || ratio > worst_ratio))
        worst_ratio = ratio, worst_size = fmt::format("{}×{}×{}: {}", batch, channels, n, c.summary());
      ok = ok && c.ok;
      size_list += fmt::format("{}{}×{}×{}", size_list.empty() ? "" : ", ", batch, channels, n);
    }
    nb.check(fmt::format("kernel {} on (batch × channels × n) {}", int(info.id), size_list), ok,
             fmt::format("worst {}", worst_size));
  }
}

void section_benchmark(Notebook& nb) {
  nb.section("Time against n: the direct sum against the FFT");
  const bool bench = nb.options().bench;
  const int batch = 4, channels = 256;
  std::vector<int> lengths{16, 32, 64, 128, 256, 512, 1024, 2048};
  if (bench) lengths.insert(lengths.end(), {4096, 8192, 16384, 32768, 65536});
  const int cpu_max = bench ? 1024 : 256;  // one core, fp64: beyond this a run takes seconds
  const int thread_per_row_max = 2048;     // version 1's single thread per row: n²/2 steps each
  const int direct_max = 16384;            // versions 2–4: O(n²) work in total
  nb.text(
      fmt::format("batch {} × channels {} rows, t = each channel's SSM kernel K̄, x ~ N(0, 1).\n"
                  "Every version is timed on the same data in the same run (median of repeated runs, L2\n"
                  "flushed); version 1 up to n = {}, the other direct versions up to n = {}. The first 4\n"
                  "rows of each result (1 row beyond n = 8192) are checked against fp64 before and after timing.",
                  batch, channels, thread_per_row_max, direct_max));
  const bool gpu = nb.gpu();
  if (!gpu) nb.gpu_skip("the GPU timings (the CPU column still runs)");
  common::ResultsCsv csv(nb.out_dir() + "/bench.csv", gpu ? common::gpu_status().device.name : "cpu only", nb.date(),
                         {"implementation", "batch", "channels", "n", "median_ms", "min_ms", "max_ms", "fft_length"});
  common::BenchmarkResults results(csv, common::BenchmarkResults::Shown::median_ms, 4);
  std::vector<std::vector<std::string>> rows;
  std::optional<common::CheckedTiming> timing;
  if (gpu) timing.emplace(nb, common::TimingOptions{2, bench ? 20 : 5, true});
  std::vector<std::tuple<int, double, double, int>> fft_vs_direct;  // n, fft ms, best direct ms, best version
  for (int n : lengths) {
    const auto p = conv::ssm_problem(batch, channels, n, nb.options().seed + 1000 + n);
    std::vector<std::string> row{std::to_string(n)};
    // The CSV's size columns; the FFT's padded length goes last (0 for the direct sums).
    const common::BenchmarkPoint at{double(n), {std::to_string(batch), std::to_string(channels), std::to_string(n)}};
    if (n <= cpu_max) {
      const auto t = common::time_cpu([&] { conv::causal_toeplitz_batched(p.t, p.x, batch, channels, n); }, 0, 3);
      row.push_back(results.record("CPU direct, fp64 (1 core)", at, t, {"0"}));
    } else {
      row.push_back("-");
    }
    if (!gpu) {
      rows.push_back(row);
      continue;
    }
    const int checked_rows = n <= 8192 ? 4 : 1;  // re-checked against fp64 before and after timing
    const auto reference = reference_prefix(p, checked_rows);
    const auto tolerance = conv::fp32_tolerance(reference, n);
    conv::GpuConvolution problem(p.t, p.x, batch, channels, n);  // the FFT plans are made here, untimed
    double best_direct = 1e300, fft = 0;
    int best_version = 0;
    for (const auto& info : conv::kKernels) {
      const bool too_long = (info.id == conv::Kernel::thread_per_row && n > thread_per_row_max) ||
                            (info.id != conv::Kernel::fft_convolution && n > direct_max);
      if (!common::kernel_selected(nb.options(), int(info.id)) || too_long) {
        row.push_back("-");
        continue;
      }
      const auto t = timing->time(
          fmt::format("kernel {} at n = {}", int(info.id), n), [&] { problem.poison_output(); },
          [&] { problem.run(info.id); },
          [&] {
            return common::failure(
                common::compare(output_prefix(problem.output(), checked_rows, n), reference, tolerance));
          });
      if (!t) {
        row.push_back("wrong");
        continue;
      }
      const bool is_fft = info.id == conv::Kernel::fft_convolution;
      row.push_back(results.record(fmt::format("GPU {} {}", int(info.id), is_fft ? "FFT (cuFFT)" : "direct"), at, *t,
                                   {std::to_string(is_fft ? problem.fft_length() : 0)}));
      if (is_fft) {
        fft = t->median_ms;
      } else if (t->median_ms < best_direct) {
        best_direct = t->median_ms;
        best_version = int(info.id);
      }
    }
    if (fft > 0 && best_version > 0) fft_vs_direct.emplace_back(n, fft, best_direct, best_version);
    rows.push_back(row);
  }
  std::vector<std::string> header{"n", "CPU ms"};
  if (gpu)
    for (const auto& info : conv::kKernels) header.push_back(fmt::format("k{} ms", int(info.id)));
  nb.table(header, rows);
  nb.value("results", csv.path());
  if (gpu) {
    // The crossover: the smallest measured n from which on the FFT beats the best direct
    // version at every measured n.
    int crossover = 0;
    for (auto it = fft_vs_direct.rbegin(); it != fft_vs_direct.rend() && std::get<1>(*it) < std::get<2>(*it); ++it)
      crossover = std::get<0>(*it);
    if (fft_vs_direct.empty()) {
      nb.value("crossover", "not measured (select an FFT and a direct version)");
    } else if (crossover == 0) {
      nb.value("crossover",
               fmt::format("the best direct version is still faster at n = {}", std::get<0>(fft_vs_direct.back())));
    } else {
      for (const auto& [n, f, d, k] : fft_vs_direct)
        if (n == crossover)
          nb.value("crossover",
                   fmt::format("the FFT path is faster from n = {} on ({:.4f} ms against {:.4f} ms for kernel {})", n,
                               f, d, k));
    }
    timing->report("the timed kernels match fp64 before and after timing");
  }
  Figure f{"bench_time", fmt::format("Causal convolution of {} × {} rows of length n", batch, channels),
           "n",          "median time (ms)",
           true,         true,
           {},           {"set key inside right bottom", "set yrange [1e-6:*]"}};
  f.series = results.series();
  nb.figure(f, false);
}

void section_time_varying(Notebook& nb, const Options&) {
  nb.section("When Δ depends on the input, there is no kernel");
  nb.text(
      "With a step Δ_t per step, y = M x with M_{t,s} = Re Σ_n C_n exp(A_n (Δ_{s+1} + … + Δ_t)) B̄_{n,s}.\n"
      "M depends on s and t, not on t - s alone: it is not Toeplitz, so no K̄ exists to convolve with.");
  const int L = 120;
  // Real eigenvalues (ω = 0), so that the responses below show decay alone.
  const auto ssm = conv::random_diagonal_ssm(8, 0.5, 3.0, 0.0, nb.options().seed + 40);
  const auto x = conv::random_signal(L, nb.options().seed + 41);
  const std::vector<double> fixed(L, 0.1);
  std::vector<double> varying(L);  // as if computed from the input: large steps reset, small ones remember
  for (int t = 0; t < L; ++t) varying[t] = t % 40 < 20 ? 0.02 : 0.5;
  const auto M_fixed = conv::time_varying_matrix(ssm, fixed), M_varying = conv::time_varying_matrix(ssm, varying);
  for (const auto& [name, deltas, M] :
       {std::tuple{"fixed Δ", fixed, M_fixed}, std::tuple{"varying Δ_t", varying, M_varying}}) {
    std::vector<double> y(L, 0.0);
    for (int t = 0; t < L; ++t)
      for (int s = 0; s <= t; ++s) y[t] += M[std::size_t(t) * L + s] * x[s];
    nb.check(fmt::format("M x = the recurrence, {}", name),
             common::compare(y, conv::run_time_varying_recurrence(ssm, deltas, x), kFp64Tolerance));
  }
  const double fixed_deviation = conv::toeplitz_deviation(M_fixed, L);
  const double varying_deviation = conv::toeplitz_deviation(M_varying, L);
  nb.value("max |M_{t,s} - M_{t-s,0}|, fixed Δ", fmt::format("{:.1e}", fixed_deviation));
  nb.value("max |M_{t,s} - M_{t-s,0}|, varying Δ_t", fmt::format("{:.1e}", varying_deviation));
  nb.check("fixed Δ: M is Toeplitz (its columns are K̄ shifted)", fixed_deviation < 1e-14,
           fmt::format("{:.1e} < 1e-14", fixed_deviation));
  nb.check("varying Δ_t: M is not Toeplitz", varying_deviation > 1e-2, fmt::format("{:.1e} > 1e-2", varying_deviation));

  Figure f{"time_varying",
           "Impulse responses M_{t,s} / M_{s,s} under a varying Δ_t",
           "lag t - s",
           "M_{t,s} / M_{s,s}",
           false,
           false,
           {},
           {"set key inside right top"}};
  f.markup = true;  // M_{t,s}, Δ_t
  for (int s : {0, 10, 20, 30}) {
    std::vector<double> column;
    for (int t = s; t < s + 60; ++t)
      column.push_back(M_varying[std::size_t(t) * L + s] / M_varying[std::size_t(s) * L + s]);
    f.series.push_back(
        {fmt::format("impulse at s = {} (Δ_s = {})", s, varying[s]), range(60), column, "lines lw 2", true});
  }
  std::vector<double> k;
  for (int t = 0; t < 60; ++t) k.push_back(M_fixed[std::size_t(t) * L] / M_fixed[0]);
  f.series.push_back({"fixed Δ = 0.1 (K̄, any s)", range(60), k, "lines lw 3 dt 2 lc rgb 'black'"});
  nb.figure(f);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  return common::run_chapter(
      {"ch03_conv_kernel", "Chapter 03 · The convolution view: K̄, Toeplitz products, FFT", conv::kKernelCount}, argc,
      argv,
      [&](CLI::App& app) {
        app.add_option("--batch", o.batch, "Sequences per channel for the GPU check")
            ->check(common::integer_in(1, 1 << 16))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--channels", o.channels, "Channels (each with its own K̄) for the GPU check")
            ->check(common::integer_in(1, 1 << 16))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--length", o.length,
                       "Sequence length n for the GPU check (its fp64 reference is O(n²) on the CPU)")
            ->check(common::integer_in(1, 1 << 14))
            ->capture_default_str()
            ->group(common::kGpuOptions);
      },
      [&](Notebook& nb) {
        if (nb.gpu()) require_gpu_check_fits(o);
        section_kernel(nb, o);
        section_oscillating(nb, o);
        section_toeplitz(nb, o);
        section_backward(nb, o);
        section_gpu(nb, o);
        section_benchmark(nb);
        section_time_varying(nb, o);
      });
}
