// Chapter 04's GPU sections: every version of the kernel bank checked against its fp32 bound on
// awkward sizes, then the benchmark of powers by exp against powers by products.
#include "bound_check.hpp"
#include "checked_timing.hpp"
#include "gpu.hpp"
#include "gpu_vandermonde.hpp"
#include "options.hpp"
#include "results_csv.hpp"
#include "s4d.hpp"
#include "sections.hpp"
#include "timing.hpp"
#include "vandermonde_kernels.hpp"

#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

namespace ch04 {

using common::Figure;
using common::Series;

namespace {

std::string channel_index(std::size_t i, int length) {
  return fmt::format("channel {}, ℓ = {}", i / length, i % length);
}

struct KernelCheck {
  bool ok;
  std::string detail;
};

// One kernel on one bank: poisoned output, run, the first `count` channels against fp64.
KernelCheck check_bank(const s4d::KernelInfo& info, const s4d::Bank& bank, int count) {
  s4d::GpuVandermonde gpu(bank);
  gpu.poison_output();
  gpu.run(info.id);
  const auto c = s4d::check_within_bound(gpu.K_prefix(count), s4d::bank_reference(bank, count),
                                         s4d::fp32_error_bound(bank, count, info.multiplications));
  return {c.ok, c.summary([&](std::size_t i) { return channel_index(i, bank.length); })};
}

}  // namespace

void section_gpu(Notebook& nb, const Options& o) {
  nb.section("S4D kernels on the GPU: three versions, each checked against fp64");
  for (const auto& k : s4d::kKernels)
    nb.value(fmt::format("kernel {}", int(k.id)), fmt::format("{}: {}", k.name, k.idea));
  if (!nb.gpu()) return nb.gpu_skip("every GPU kernel and its checks");
  // (channels, state size N, length): one of everything; sizes one off a warp, a block and
  // a block's 1024 outputs; primes.
  struct Size {
    int channels, state, length;
  };
  const Size sizes[] = {{1, 2, 1}, {3, 2, 31}, {2, 64, 129}, {5, 62, 1023}, {7, 64, 1025}, {3, o.state, 4099}};
  for (const auto& info : s4d::kKernels) {
    if (!common::kernel_selected(nb.options(), int(info.id))) continue;
    for (s4d::Init init : s4d::kInits) {
      bool ok = true;
      std::string detail;
      for (const auto& s : sizes) {
        const auto bank = s4d::make_bank(init, s.channels, s.state, s.length, nb.options().seed);
        const auto r = check_bank(info, bank, s.channels);
        if (!r.ok || detail.empty()) detail = fmt::format("{} ({}×{}×{})", r.detail, s.channels, s.state, s.length);
        ok = ok && r.ok;
        if (!r.ok) break;
      }
      nb.check(fmt::format("kernel {}, {}, 6 awkward sizes", int(info.id), s4d::name(init)), ok, detail);
    }
  }
}

void section_benchmark(Notebook& nb, const Options& o) {
  nb.section("Timing: powers by exp against powers by products");
  const bool bench = nb.options().bench;
  const int channels = bench ? 1024 : o.channels;
  const std::vector<int> lengths = bench ? std::vector<int>{1024, 4096, 16384} : std::vector<int>{1024, 4096};
  constexpr int checked_channels = 4;
  nb.text(
      fmt::format("{} channels of S4D-Lin, N = {} ({} complex modes). Bytes moved: W and z read (16 B per\n"
                  "mode), K̄ written (4 B per ℓ). Each kernel is checked on the first {} channels before and\n"
                  "after timing.",
                  channels, o.state, o.state / 2, checked_channels));
  if (!nb.gpu()) return nb.gpu_skip("the GPU timings");
  const double copy_gbps = common::measure_copy_bandwidth(std::size_t(512) << 20);
  nb.value("device-to-device copy", fmt::format("{:.0f} GB/s (read + write)", copy_gbps));
  common::ResultsCsv csv(nb.out_dir() + "/bench.csv", common::gpu_status().device.name, nb.date(),
                         {"kernel", "channels", "modes", "length", "median_ms", "min_ms", "max_ms", "bytes", "gb_per_s",
                          "pct_of_copy", "powers_per_ns"});
  std::map<std::string, Series> series;
  std::vector<std::vector<std::string>> rows;
  common::CheckedTiming timing(nb, {2, bench ? 20 : 5, true});
  for (int length : lengths) {
    const auto bank = s4d::make_bank(s4d::Init::lin, channels, o.state, length, nb.options().seed + length);
    const auto reference = s4d::bank_reference(bank, checked_channels);
    s4d::GpuVandermonde gpu(bank);
    for (const auto& info : s4d::kKernels) {
      if (!common::kernel_selected(nb.options(), int(info.id))) continue;
      const auto bound = s4d::fp32_error_bound(bank, checked_channels, info.multiplications);
      const auto timed = timing.time(
          fmt::format("kernel {} at L = {}", int(info.id), length), [&] { gpu.poison_output(); },
          [&] { gpu.run(info.id); },
          [&] {
            const auto c = s4d::check_within_bound(gpu.K_prefix(checked_channels), reference, bound);
            return c.ok ? std::string() : c.summary();
          });
      if (!timed) continue;
      const common::TimingStats& t = *timed;
      const double bytes = static_cast<double>(gpu.bytes_moved());
      const double gbps = common::gigabytes_per_second(bytes, t.median_ms);
      const double powers_per_ns = double(channels) * bank.modes * length / (t.median_ms * 1e6);
      csv.row({info.name, std::to_string(channels), std::to_string(bank.modes), std::to_string(length),
               fmt::format("{:.5f}", t.median_ms), fmt::format("{:.5f}", t.min_ms), fmt::format("{:.5f}", t.max_ms),
               fmt::format("{:.0f}", bytes), fmt::format("{:.2f}", gbps), fmt::format("{:.3f}", 100 * gbps / copy_gbps),
               fmt::format("{:.1f}", powers_per_ns)});
      rows.push_back({std::to_string(length), std::to_string(int(info.id)), fmt::format("{:.4f}", t.median_ms),
                      fmt::format("{:.1f}", powers_per_ns), fmt::format("{:.1f}", gbps),
                      fmt::format("{:.2f}%", 100 * gbps / copy_gbps)});
      const std::string name = fmt::format("kernel {}", int(info.id));
      series.try_emplace(name, Series{name, {}, {}, "linespoints lw 2"});
      series[name].x.push_back(length);
      series[name].y.push_back(t.median_ms);
    }
  }
  nb.table({"L", "kernel", "median ms", "powers/ns", "GB/s", "% of copy"}, rows);
  nb.value("results", csv.path());
  timing.report("the timed kernels are within the fp32 bound before and after timing",
                fmt::format("first {} channels of each", checked_channels));
  Figure f{"bench_time", fmt::format("S4D-Lin kernels for {} channels, N = {}", channels, o.state),
           "length L",   "median time (ms)",
           true,         true,
           {},           {"set key inside right bottom"}};
  for (auto& [name, s] : series) f.series.push_back(s);
  nb.figure(f, false);
}

}  // namespace ch04
