// Chapter 03's GPU sections: every version of the causal product checked against fp64 on
// awkward sizes, then the benchmark of the direct sums against the FFT.
#include "benchmark_sweep.hpp"
#include "checked_timing.hpp"
#include "conv_kernels.hpp"
#include "fft_conv.hpp"
#include "gpu.hpp"
#include "gpu_conv.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "problem.hpp"
#include "sections.hpp"
#include "timing.hpp"
#include "toeplitz.hpp"

#include <fmt/format.h>

#include <climits>
#include <iterator>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ch03 {

using common::Figure;

namespace {

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

}  // namespace

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

  std::vector<common::SweepPoint> points;
  for (int n : lengths)
    points.push_back({{std::to_string(n)},
                      fmt::format("n = {}", n),
                      {double(n), {std::to_string(batch), std::to_string(channels), std::to_string(n)}}});
  const auto is_fft = [](std::size_t v) { return conv::kKernels[v].id == conv::Kernel::fft_convolution; };
  std::vector<common::SweepVersion> versions;
  for (std::size_t v = 0; v < std::size(conv::kKernels); ++v) {
    const int id = int(conv::kKernels[v].id);
    versions.push_back({id, fmt::format("k{} ms", id),
                        fmt::format("GPU {} {}", id, is_fft(v) ? "FFT (cuFFT)" : "direct"),
                        fmt::format("kernel {}", id)});
  }
  // The CSV's size columns; the FFT's padded length goes last (0 for the direct sums).
  common::BenchmarkSweep sweep(nb, {.size_columns = {"batch", "channels", "n"},
                                    .bandwidth = false,
                                    .extra_columns = {"fft_length"},
                                    .shown = common::BenchmarkResults::Shown::median_ms,
                                    .decimals = 4,
                                    .label_headers = {"n"},
                                    .cpu_header = "CPU ms",
                                    .cpu_name = "CPU direct, fp64 (1 core)",
                                    .timing = {2, bench ? 20 : 5, true}});
  // The point's problem, the fp64 reference of its first rows, and its GPU problem.
  conv::ConvProblem p;
  int checked_rows = 0;
  std::vector<double> reference;
  common::Tolerance tolerance;
  std::optional<conv::GpuConvolution> problem;
  std::vector<std::tuple<int, double, double, int>> fft_vs_direct;  // n, fft ms, best direct ms, best version
  common::BenchmarkSweep::Steps steps;
  steps.prepare = [&](std::size_t i) {
    p = conv::ssm_problem(batch, channels, lengths[i], nb.options().seed + 1000 + lengths[i]);
  };
  steps.time_cpu = [&](std::size_t) -> std::optional<common::TimingStats> {
    if (p.n > cpu_max) return std::nullopt;
    return common::time_cpu([&] { conv::causal_toeplitz_batched(p.t, p.x, batch, channels, p.n); }, 0, 3);
  };
  steps.prepare_gpu = [&](std::size_t) {
    checked_rows = p.n <= 8192 ? 4 : 1;  // re-checked against fp64 before and after timing
    reference = reference_prefix(p, checked_rows);
    tolerance = conv::fp32_tolerance(reference, p.n);
    problem.emplace(p.t, p.x, batch, channels, p.n);  // the FFT plans are made here, untimed
  };
  steps.takes = [&](std::size_t i, std::size_t v) {
    const auto id = conv::kKernels[v].id;
    return !((id == conv::Kernel::thread_per_row && lengths[i] > thread_per_row_max) ||
             (id != conv::Kernel::fft_convolution && lengths[i] > direct_max));
  };
  steps.poison = [&](std::size_t) { problem->poison_output(); };
  steps.run = [&](std::size_t v) { problem->run(conv::kKernels[v].id); };
  steps.check = [&](std::size_t) {
    return common::failure(common::compare(output_prefix(problem->output(), checked_rows, p.n), reference, tolerance));
  };
  steps.csv_cells = [&](std::size_t v, const common::TimingStats&) {
    const bool fft = v != common::BenchmarkSweep::kCpu && is_fft(v);
    return std::vector<std::string>{std::to_string(fft ? problem->fft_length() : 0)};
  };
  // No cells: the row's end keeps the FFT's and the best direct version's times for the crossover.
  steps.row_end = [&](std::size_t i, const std::vector<std::optional<common::TimingStats>>& timings) {
    std::optional<double> fft;
    double best_direct = 1e300;
    int best_version = 0;
    for (std::size_t v = 0; v < timings.size(); ++v) {
      if (!timings[v]) continue;
      if (is_fft(v)) {
        fft = timings[v]->median_ms;
      } else if (timings[v]->median_ms < best_direct) {
        best_direct = timings[v]->median_ms;
        best_version = int(conv::kKernels[v].id);
      }
    }
    if (fft && best_version > 0) fft_vs_direct.emplace_back(lengths[i], *fft, best_direct, best_version);
    return std::vector<std::string>{};
  };
  sweep.run(points, versions, steps);
  if (nb.gpu()) {
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
  }
  sweep.report("the timed kernels match fp64 before and after timing");
  Figure f{"bench_time", fmt::format("Causal convolution of {} × {} rows of length n", batch, channels),
           "n",          "median time (ms)",
           true,         true,
           {},           {"set key inside right bottom", "set yrange [1e-6:*]"}};
  f.series = sweep.series();
  nb.figure(f, false);
}

}  // namespace ch03
