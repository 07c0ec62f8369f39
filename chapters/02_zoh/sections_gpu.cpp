// Chapter 02's GPU sections: every kernel and rule checked against fp64 on awkward shapes, then
// the benchmark of bandwidth against a copy.
#include "benchmark_sweep.hpp"
#include "checked_timing.hpp"
#include "gpu_discretize.hpp"
#include "options.hpp"
#include "sections.hpp"
#include "selective.hpp"
#include "timing.hpp"
#include "zoh_kernels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
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
  std::vector<common::SweepPoint> points;
  for (int length : lengths) {
    const zoh::SelectiveShape shape{batch, length, channels, state};
    const double bytes = shape.bytes_moved();
    points.push_back({{std::to_string(length), fmt::format("{:.0f}", bytes / 1e6)},
                      fmt::format("L = {}", length),
                      {bytes / 1e6,
                       {std::to_string(batch), std::to_string(length), std::to_string(channels), std::to_string(state)},
                       bytes,
                       copy_gbps}});
  }
  // A column per kernel and rule, one curve each; the CSV keeps the rule in its last column.
  const auto rule_name = [](zoh::Rule rule) { return rule == zoh::Rule::zoh ? "ZOH" : "Mamba"; };
  std::vector<std::pair<zoh::Kernel, zoh::Rule>> runs;
  std::vector<common::SweepVersion> versions;
  for (const auto& info : zoh::kKernels) {
    for (zoh::Rule rule : {zoh::Rule::zoh, zoh::Rule::mamba}) {
      const std::string kernel = fmt::format("kernel {}", int(info.id));
      runs.push_back({info.id, rule});
      versions.push_back({int(info.id), fmt::format("k{} {} GB/s", int(info.id), rule_name(rule)), kernel,
                          fmt::format("{} ({})", kernel, zoh::name(rule)), kernel + ", " + rule_name(rule)});
    }
  }
  common::BenchmarkSweep sweep(nb, {.size_columns = {"batch", "length", "channels", "state"},
                                    .extra_columns = {"rule"},
                                    .label_headers = {"L", "MB"},
                                    .row_end_headers = {"memset GB/s"},
                                    .timing = {2, bench ? 20 : 5, true}});
  common::GpuTimer timer({2, bench ? 20 : 5, true});
  // The point's problem, its fp64 reference of the first tokens for each rule, and its GPU copy.
  zoh::SelectiveProblem problem;
  double tol_z = 0;
  std::map<zoh::Rule, zoh::SelectiveResult> reference;
  std::optional<zoh::GpuDiscretization> gpu;
  common::BenchmarkSweep::Steps steps;
  steps.prepare = [&](std::size_t i) {
    problem = zoh::random_selective_problem({batch, lengths[i], channels, state}, nb.options().seed + lengths[i]);
    tol_z = zoh::max_abs_z(problem);
  };
  steps.prepare_gpu = [&](std::size_t) {
    gpu.emplace(problem);
    for (zoh::Rule rule : {zoh::Rule::zoh, zoh::Rule::mamba})
      reference[rule] = zoh::discretize_selective_reference(problem, rule, checked_tokens);
  };
  steps.poison = [&](std::size_t) { gpu->poison_outputs(); };
  steps.run = [&](std::size_t v) { gpu->run(runs[v].first, runs[v].second); };
  steps.check = [&](std::size_t v) {
    const auto& expected = reference[runs[v].second];
    const std::size_t count = expected.abar.size();
    const auto a = common::compare(gpu->abar(count), expected.abar, zoh::fp32_tolerance(tol_z));
    const auto b = common::compare(gpu->bbar(count), expected.bbar, zoh::fp32_tolerance(tol_z));
    return a.ok && b.ok ? std::string() : fmt::format("Ā {}; B̄ {}", a.summary(), b.summary());
  };
  steps.csv_cells = [&](std::size_t v, const common::TimingStats&) {
    return std::vector<std::string>{rule_name(runs[v].second)};
  };
  // The write roof: both outputs set by cudaMemset, nothing read.
  steps.row_end = [&](std::size_t i, const std::vector<std::optional<common::TimingStats>>&) {
    const auto memset_time = timer.time([&] { gpu->poison_outputs(); });
    return std::vector<std::string>{sweep.record("cudaMemset of Ā and B̄", points[i].at, memset_time, {""})};
  };
  sweep.run(points, versions, steps);
  sweep.report("the timed kernels match fp64 before and after timing",
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
  f.series = sweep.series();
  const auto any = f.series.front();
  f.series.push_back(
      {"device-to-device copy", any.x, std::vector<double>(any.x.size(), copy_gbps), "lines lw 2 dt 2 lc rgb 'black'"});
  nb.figure(f, false);
}

}  // namespace ch02
