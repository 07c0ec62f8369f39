// Chapter 06's GPU sections: every version checked on awkward sizes and batches, then the
// benchmark of every version, CUB and a copy against N.
#include "benchmark_sweep.hpp"
#include "ema_kernels.hpp"
#include "gpu_ema.hpp"
#include "reference.hpp"
#include "sections.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ch06 {

using common::Figure;

namespace {
std::string version_label(ema::Kernel k) { return fmt::format("{} {}", int(k), ema::info(k).name); }
}  // namespace

// ---- [6] ---------------------------------------------------------------------------------------
void section_gpu(Notebook& nb, const Options& o) {
  nb.section("Every GPU version against fp64, on awkward sizes and batches");
  std::vector<std::string> lines;
  for (const auto& k : ema::kKernels) lines.push_back(fmt::format("  {:>2}  {:<22} {}", int(k.id), k.name, k.idea));
  std::string list;
  for (const auto& l : lines) list += l + "\n";
  nb.text("The versions (ema_kernels.cu):\n" + list.substr(0, list.size() - 1));
  if (!nb.gpu()) return nb.gpu_skip("the GPU checks");
  const std::size_t long_length = static_cast<std::size_t>(o.check_length);
  const std::vector<std::pair<std::size_t, std::size_t>> shapes{
      {1, 1},           {1, 2},    {1, 31},
      {1, 33},          {1, 1000}, {1, 4097},
      {1, long_length}, {7, 1000}, {static_cast<std::size_t>(o.batch), kBatchedLength}};
  for (const auto& info : ema::kKernels) {
    if (!common::kernel_selected(nb.options(), int(info.id))) continue;
    std::string done;
    bool ok = true;
    common::Comparison worst;
    for (auto [batch, length] : shapes) {
      if (length > info.max_length) continue;
      const auto p = ema::random_problem(batch, length, kDecayLo, kDecayHi, nb.options().seed + batch * 7 + length);
      ema::GpuEma gpu(p);
      gpu.poison_output();
      gpu.run(info.id);
      const auto c = common::compare(gpu.output(), ema::recurrence_reference(p), kFp32);
      if (!c.ok || c.max_abs_error >= worst.max_abs_error) worst = c;
      ok = ok && c.ok;
      done += fmt::format("{}{}×{}", done.empty() ? "" : ", ", batch, length);
      if (!c.ok) break;
    }
    nb.check(fmt::format("version {} ({}), batch×L = {}", int(info.id), info.name, done), worst);
  }
}

// ---- [7] ---------------------------------------------------------------------------------------
void section_benchmark(Notebook& nb) {
  nb.section("Throughput against N: every version, CUB and a copy, in one run");
  const bool bench = nb.options().bench;
  const int top = bench ? 28 : 20;
  std::vector<std::size_t> sizes;
  for (int e = 10; e <= top; e += 2) sizes.push_back(std::size_t(1) << e);
  nb.text(
      "One sequence of N. GB/s = 12 bytes per element (a and b read, h written) / median time, L2\n"
      "flushed before every repetition. The roof: cudaMemcpyAsync device-to-device of 6N bytes (12N\n"
      "moved), timed the same way, in this run. Every version is checked before and after it is timed.");

  std::vector<common::SweepPoint> points;
  for (std::size_t n : sizes)
    points.push_back({{common::power_of_two_label(n)},
                      fmt::format("N = {}", n),
                      {double(n), {std::to_string(n)}, 12.0 * double(n)}});
  std::vector<common::SweepVersion> versions;
  for (const auto& info : ema::kKernels)
    versions.push_back({int(info.id), fmt::format("v{}", int(info.id)), version_label(info.id),
                        fmt::format("version {}", int(info.id))});
  common::BenchmarkSweep sweep(nb, {.size_columns = {"n"},
                                    .label_headers = {"N"},
                                    .cpu_name = "CPU fp32 loop (1 core)",
                                    .copy = true,
                                    .caption = "GB/s (v = version; see the list in section 6):",
                                    .timing = {2, bench ? 15 : 5, true}});
  // The point's problem, the fp64 recurrence the versions are checked against, and its GPU copy.
  ema::Problem p;
  std::vector<double> expected;
  std::optional<ema::GpuEma> problem;
  common::BenchmarkSweep::Steps steps;
  steps.prepare = [&](std::size_t i) {
    p = ema::random_problem(1, sizes[i], kDecayLo, kDecayHi, nb.options().seed + sizes[i]);
  };
  steps.time_cpu = [&](std::size_t i) -> std::optional<common::TimingStats> {
    if (sizes[i] > (std::size_t(1) << 22)) return std::nullopt;
    return common::time_cpu([&] { ema::recurrence_fp32(p); }, 1, 3);
  };
  steps.prepare_gpu = [&](std::size_t) {
    expected = ema::recurrence_reference(p);
    problem.emplace(p);
  };
  steps.takes = [&](std::size_t i, std::size_t v) { return sizes[i] <= ema::kKernels[v].max_length; };
  steps.poison = [&](std::size_t) { problem->poison_output(); };
  steps.run = [&](std::size_t v) { problem->run(ema::kKernels[v].id); };
  steps.check = [&](std::size_t) { return common::failure(common::compare(problem->output(), expected, kFp32)); };
  sweep.run(points, versions, steps);
  sweep.report("the timed versions match fp64 before and after timing");
  if (nb.gpu()) {
    const auto at_top = [&](const std::string& name) { return sweep.results().shown_at(name, double(sizes.back())); };
    const auto copy = at_top(common::BenchmarkSweep::kCopyName);
    // One line each: the four whole-array versions at the largest N, against the copy and CUB.
    const std::string at_n = fmt::format("at N = {}", common::power_of_two_label(sizes.back()));
    if (copy) nb.value(at_n + ", the copy", fmt::format("{:.0f} GB/s", *copy));
    for (auto k : {ema::Kernel::look_back, ema::Kernel::look_back_window, ema::Kernel::cub_device_scan,
                   ema::Kernel::cub_device_scan_float2}) {
      const auto gbps = at_top(version_label(k));
      if (gbps && copy)
        nb.value(fmt::format("{}, version {}", at_n, int(k)),
                 fmt::format("{:.0f} GB/s = {:.1f}% of the copy", *gbps, 100 * *gbps / *copy));
    }
    const auto window = at_top(version_label(ema::Kernel::look_back_window));
    const auto cub = at_top(version_label(ema::Kernel::cub_device_scan));
    if (window && cub)
      nb.value(at_n + ", version 5 against CUB (version 6)", fmt::format("{:.1f}%", 100 * *window / *cub));
  }
  Figure f{"bench_throughput",
           "h_k = a_k h_{k-1} + b_k over N elements: GB/s (12 bytes per element)",
           "N (elements)",
           "GB/s",
           true,
           true,
           {},
           {"set key outside right top", "set yrange [0.1:*]"}};
  f.markup = true;  // the title's h_{k-1}; the series, kernels' names, stay plain
  f.series = sweep.series();
  nb.figure(f, false);
}

}  // namespace ch06
