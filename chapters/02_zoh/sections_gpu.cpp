// Chapter 02's GPU sections: every kernel and rule checked against fp64 on awkward shapes, then
// the benchmark of bandwidth against a copy.
#include "benchmark_results.hpp"
#include "checked_timing.hpp"
#include "gpu.hpp"
#include "gpu_discretize.hpp"
#include "options.hpp"
#include "results_csv.hpp"
#include "sections.hpp"
#include "selective.hpp"
#include "timing.hpp"
#include "zoh_kernels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ch02 {

using common::Figure;

double check_host_bytes(const zoh::SelectiveShape& s) {
  const double tokens = double(s.batch) * s.length, D = s.channels, N = s.state;
  const double checked = std::min(tokens, double(kCheckedTokens));
  return 4 * (tokens * (D + N) + 2 * D * N) + 80 * checked * D * N;
}

namespace {

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

}  // namespace

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

}  // namespace ch02
