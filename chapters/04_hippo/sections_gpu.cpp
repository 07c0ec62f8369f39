// Chapter 04's GPU sections: every version of the kernel bank checked against its fp32 bound on
// awkward sizes, then the benchmark of powers by exp against powers by products.
#include "benchmark_sweep.hpp"
#include "bound_check.hpp"
#include "gpu_vandermonde.hpp"
#include "options.hpp"
#include "s4d.hpp"
#include "sections.hpp"
#include "timing.hpp"
#include "vandermonde_kernels.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

namespace ch04 {

using common::Figure;

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

// The bytes a run moves at least, as GpuVandermonde::bytes_moved counts them, known before
// the bank is on the GPU: W and z read (two fp32 complex numbers per mode), K̄ written.
double bytes_moved(const s4d::Bank& bank) { return double(bank.channels) * (16.0 * bank.modes + 4.0 * bank.length); }

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

  const double copy_gbps = common::measure_copy_bandwidth(std::size_t(512) << 20);  // the roof of pct_of_copy
  nb.value("device-to-device copy", fmt::format("{:.0f} GB/s (read + write)", copy_gbps));
  // Each length's bank, made up front: its modes and bytes describe the point.
  std::vector<s4d::Bank> banks;
  std::vector<common::SweepPoint> points;
  for (int length : lengths) {
    const s4d::Bank& bank =
        banks.emplace_back(s4d::make_bank(s4d::Init::lin, channels, o.state, length, nb.options().seed + length));
    points.push_back({{std::to_string(length)},
                      fmt::format("L = {}", length),
                      {double(length),
                       {std::to_string(channels), std::to_string(bank.modes), std::to_string(length)},
                       bytes_moved(bank),
                       copy_gbps}});
  }
  // The CSV names each kernel by its function, the table, the figure and the check lines by its number.
  std::vector<common::SweepVersion> versions;
  for (const auto& info : s4d::kKernels) {
    const std::string kernel = fmt::format("kernel {}", int(info.id));
    versions.push_back({int(info.id), fmt::format("k{} ms", int(info.id)), info.name, kernel, kernel});
  }
  common::BenchmarkSweep sweep(nb, {.size_columns = {"channels", "modes", "length"},
                                    .extra_columns = {"powers_per_ns"},
                                    .shown = common::BenchmarkResults::Shown::median_ms,
                                    .decimals = 4,
                                    .label_headers = {"L"},
                                    .caption = "Median ms per kernel (powers/ns, GB/s and % of copy in the CSV):",
                                    .timing = {2, bench ? 20 : 5, true}});
  // The point's bank, the fp64 kernels of its first channels, each version's fp32 bound on
  // them, and its GPU problem.
  const s4d::Bank* bank = nullptr;
  std::vector<double> reference;
  std::vector<std::vector<double>> bounds;
  std::optional<s4d::GpuVandermonde> gpu;
  common::BenchmarkSweep::Steps steps;
  steps.prepare_gpu = [&](std::size_t i) {
    bank = &banks[i];
    reference = s4d::bank_reference(*bank, checked_channels);
    bounds.clear();
    for (const auto& info : s4d::kKernels)
      bounds.push_back(s4d::fp32_error_bound(*bank, checked_channels, info.multiplications));
    gpu.emplace(*bank);
  };
  steps.poison = [&](std::size_t) { gpu->poison_output(); };
  steps.run = [&](std::size_t v) { gpu->run(s4d::kKernels[v].id); };
  steps.check = [&](std::size_t v) {
    const auto c = s4d::check_within_bound(gpu->K_prefix(checked_channels), reference, bounds[v]);
    return c.ok ? std::string() : c.summary();
  };
  steps.csv_cells = [&](std::size_t, const common::TimingStats& t) {
    const double powers = double(bank->channels) * bank->modes * bank->length;
    return std::vector<std::string>{fmt::format("{:.1f}", powers / (t.median_ms * 1e6))};
  };
  sweep.run(points, versions, steps);
  sweep.report("the timed kernels are within the fp32 bound before and after timing",
               fmt::format("first {} channels of each", checked_channels));

  Figure f{"bench_time", fmt::format("S4D-Lin kernels for {} channels, N = {}", channels, o.state),
           "length L",   "median time (ms)",
           true,         true,
           {},           {"set key inside right bottom"}};
  f.series = sweep.series();
  nb.figure(f, false);
}

}  // namespace ch04
