// Chapter 03's GPU sections: every version of the causal product checked against fp64 on
// awkward sizes, then the benchmark of the direct sums against the FFT.
#include "benchmark_results.hpp"
#include "checked_timing.hpp"
#include "conv_kernels.hpp"
#include "fft_conv.hpp"
#include "gpu.hpp"
#include "gpu_conv.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "problem.hpp"
#include "results_csv.hpp"
#include "sections.hpp"
#include "timing.hpp"
#include "toeplitz.hpp"

#include <fmt/format.h>

#include <climits>
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

}  // namespace ch03
