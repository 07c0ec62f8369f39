// Chapter 05's GPU sections: every version checked on awkward sizes, then the benchmark of
// every version, the libraries and a copy against N.
#include "benchmark_sweep.hpp"
#include "gpu_scan.hpp"
#include "reference.hpp"
#include "scan_kernels.hpp"
#include "sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ch05 {

using common::Figure;

// ---- [5] ---------------------------------------------------------------------------------------
namespace {

std::vector<std::size_t> check_sizes(const Options& o) {
  std::vector<std::size_t> sizes{1, 2, 31, 33, 1000, 1023, 1025, 4095, 4097, 65537, std::size_t(o.check_size)};
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

}  // namespace

void section_gpu(Notebook& nb, const Options& o) {
  nb.section("The GPU versions, each checked on awkward sizes");
  for (const auto& k : scan::kKernels)
    nb.value(fmt::format("version {}", int(k.id)), fmt::format("{}: {}", k.name, k.idea));
  if (!nb.gpu()) return nb.gpu_skip("every GPU version and its checks");
  const auto sizes = check_sizes(o);
  struct Problem {
    std::vector<double> expected;
    std::unique_ptr<scan::GpuScan> gpu;
  };
  std::vector<Problem> problems;
  for (std::size_t n : sizes) {
    const auto x = scan::integer_input(n, nb.options().seed + n);
    problems.push_back({scan::inclusive_scan_reference(x), std::make_unique<scan::GpuScan>(x)});
  }
  for (const auto& info : scan::kKernels) {
    if (!common::kernel_selected(nb.options(), int(info.id))) continue;
    std::vector<float> got;
    std::vector<double> expected;
    std::vector<std::pair<std::size_t, std::size_t>> segments;  // (first index, N)
    std::string list;
    for (auto& p : problems) {
      const std::size_t n = p.gpu->size();
      if (n > info.max_n) continue;
      p.gpu->poison_output();
      p.gpu->run(info.id);
      const auto out = p.gpu->output();
      segments.push_back({got.size(), n});
      got.insert(got.end(), out.begin(), out.end());
      expected.insert(expected.end(), p.expected.begin(), p.expected.end());
      list += fmt::format("{}{}", list.empty() ? "" : ", ", n);
    }
    nb.check(fmt::format("version {} ({}), N = {}: exact", int(info.id), info.name, list),
             common::compare(got, expected, kExact), [&](std::size_t i) {
               auto it = std::prev(std::upper_bound(segments.begin(), segments.end(), std::pair{i, SIZE_MAX}));
               return fmt::format("y_{} of N = {}", i - it->first, it->second);
             });
  }
}

// ---- [6] ---------------------------------------------------------------------------------------
void section_benchmark(Notebook& nb) {
  nb.section("Throughput against N: every version, the libraries and a copy, in one run");
  const bool bench = nb.options().bench;
  const int top = bench ? 28 : 20;
  std::vector<std::size_t> sizes;
  for (int e = 10; e <= top; e += bench ? 1 : 2) sizes.push_back(std::size_t(1) << e);
  const std::size_t cpu_max = std::size_t(1) << (bench ? 24 : 20);
  nb.text(
      "GB/s = 8 bytes per element (x read once, y written once) / median time, L2 flushed before\n"
      "every repetition. The roof: cudaMemcpyAsync device-to-device of the same 4N bytes, timed\n"
      "the same way, in this run. Every version is checked (exactly) before and after it is timed.\n"
      "One thread runs up to N = 2^17, the one-block versions up to 2^24: beyond, they only take time.");

  std::vector<common::SweepPoint> points;
  for (std::size_t n : sizes)
    points.push_back(
        {{common::power_of_two_label(n)}, fmt::format("N = {}", n), {double(n), {std::to_string(n)}, 8.0 * double(n)}});
  std::vector<common::SweepVersion> versions;
  for (const auto& info : scan::kKernels)
    versions.push_back({int(info.id), fmt::format("v{}", int(info.id)), fmt::format("{} {}", int(info.id), info.name),
                        fmt::format("version {}", int(info.id))});
  common::BenchmarkSweep sweep(nb, {.size_columns = {"n"},
                                    .label_headers = {"N"},
                                    .cpu_name = "CPU fp32 loop (1 core)",
                                    .copy = true,
                                    .caption = "GB/s (v = version; see the list in section 5):",
                                    .timing = {2, bench ? 15 : 5, true}});
  // The point's input, the fp64 scan the versions are checked against, and its GPU problem.
  std::vector<float> x;
  std::vector<double> expected;
  std::optional<scan::GpuScan> problem;
  common::BenchmarkSweep::Steps steps;
  steps.prepare = [&](std::size_t i) { x = scan::integer_input(sizes[i], nb.options().seed + sizes[i]); };
  steps.time_cpu = [&](std::size_t i) -> std::optional<common::TimingStats> {
    if (sizes[i] > cpu_max) return std::nullopt;
    return common::time_cpu([&] { scan::inclusive_scan_fp32(x); }, 1, 3);
  };
  steps.prepare_gpu = [&](std::size_t) {
    expected = scan::inclusive_scan_reference(x);
    problem.emplace(x);
  };
  steps.takes = [&](std::size_t i, std::size_t v) { return sizes[i] <= scan::kKernels[v].max_n; };
  steps.poison = [&](std::size_t) { problem->poison_output(); };
  steps.run = [&](std::size_t v) { problem->run(scan::kKernels[v].id); };
  steps.check = [&](std::size_t) { return common::failure(common::compare(problem->output(), expected, kExact)); };
  sweep.run(points, versions, steps);
  sweep.report("the timed versions are exact before and after timing");
  if (nb.gpu()) {
    const std::string ours = fmt::format("{} {}", int(scan::Kernel::decoupled_look_back),
                                         scan::info(scan::Kernel::decoupled_look_back).name);
    const std::string cub =
        fmt::format("{} {}", int(scan::Kernel::cub_device_scan), scan::info(scan::Kernel::cub_device_scan).name);
    const double top = double(sizes.back());
    const auto ours_gbps = sweep.results().shown_at(ours, top), cub_gbps = sweep.results().shown_at(cub, top),
               copy_gbps = sweep.results().shown_at(common::BenchmarkSweep::kCopyName, top);
    if (ours_gbps && cub_gbps && copy_gbps) {
      nb.value(fmt::format("at N = {}", common::power_of_two_label(sizes.back())),
               fmt::format("version 7 {:.0f} GB/s = {:.1f}% of CUB ({:.0f} GB/s); copy {:.0f} GB/s; "
                           "version 7 {:.1f}% and CUB {:.1f}% of copy",
                           *ours_gbps, 100 * *ours_gbps / *cub_gbps, *cub_gbps, *copy_gbps,
                           100 * *ours_gbps / *copy_gbps, 100 * *cub_gbps / *copy_gbps));
    }
  }
  Figure f{"bench_throughput",
           "Inclusive scan of N floats: GB/s (8 bytes per element)",
           "N (elements)",
           "GB/s",
           true,
           true,
           {},
           {"set key outside right top", "set yrange [0.1:*]"}};
  f.series = sweep.series();
  nb.figure(f, false);
}
}  // namespace ch05
