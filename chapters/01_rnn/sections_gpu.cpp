// Chapter 01's GPU sections: every kernel checked against fp64 on awkward sizes, then the
// benchmark of time against sequence length.
#include "benchmark_sweep.hpp"
#include "checked_timing.hpp"
#include "gpu_rnn.hpp"
#include "options.hpp"
#include "reference.hpp"
#include "rnn_kernels.hpp"
#include "sections.hpp"
#include "stats.hpp"
#include "timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ch01 {

using common::Figure;
using rnn::Activation;

namespace {

// The first `count` sequences of a time-major L × batch array.
std::vector<float> first_sequences(const std::vector<float>& y, int batch, int length, int count) {
  std::vector<float> out(std::size_t(count) * length);
  for (int t = 0; t < length; ++t)
    for (int b = 0; b < count; ++b) out[rnn::at(t, b, count)] = y[rnn::at(t, b, batch)];
  return out;
}

// Runs one kernel on several problems and checks every y_t and every final state against
// fp64, as one comparison (one check line) whose report names the problem of the worst
// element.
void check_kernel(Notebook& nb, rnn::Kernel kernel, Activation act, const rnn::Weights& w,
                  const std::vector<std::pair<int, int>>& sizes, std::uint64_t seed) {
  std::vector<float> got;
  std::vector<double> expected;
  std::vector<std::pair<std::size_t, std::string>> segments;  // (first index, what it holds)
  std::string size_list;
  for (auto [batch, length] : sizes) {
    const auto s = rnn::random_sequences(batch, length, seed);
    const auto reference = rnn::run_cpu<double>(w, s, act);
    rnn::GpuRnn gpu(w, s);
    gpu.poison_outputs();
    gpu.run(kernel, act);
    for (auto [values, reference_values, name] :
         {std::tuple{gpu.y(), reference.y, "y"}, std::tuple{gpu.h_final(), reference.h_final, "h_L"}}) {
      segments.push_back({got.size(), fmt::format("{} of the {} × {} problem", name, batch, length)});
      got.insert(got.end(), values.begin(), values.end());
      expected.insert(expected.end(), reference_values.begin(), reference_values.end());
    }
    size_list += fmt::format("{}{}×{}", size_list.empty() ? "" : ", ", batch, length);
  }
  nb.check(fmt::format("kernel {} ({}) on {}, every y_t and h_L", int(kernel), rnn::name(act), size_list),
           common::compare(got, expected, kFp32Tolerance), [&](std::size_t i) {
             auto it = std::prev(std::upper_bound(segments.begin(), segments.end(), std::pair{i, std::string()},
                                                  [](const auto& x, const auto& y) { return x.first < y.first; }));
             return fmt::format("element {} of {}", i - it->first, it->second);
           });
}

}  // namespace

void section_gpu(Notebook& nb, const Options& o) {
  nb.section("The RNN on the GPU: three versions, each checked against fp64");
  for (const auto& k : rnn::kKernels)
    nb.value(fmt::format("kernel {}", int(k.id)), fmt::format("{}: {}", k.name, k.idea));
  if (!nb.gpu()) return nb.gpu_skip("every GPU kernel and its checks");
  // Awkward sizes first: one sequence of one step, sizes that are not multiples of a warp
  // or a block, then the size given on the command line.
  const std::vector<std::pair<int, int>> sizes{{1, 1}, {31, 7}, {33, 40}, {o.batch, o.length}};
  const auto w = rnn::random_weights(o.hidden, o.radius, nb.options().seed);
  for (const auto& info : rnn::kKernels) {
    if (!common::kernel_selected(nb.options(), int(info.id))) continue;
    for (Activation act : {Activation::tanh, Activation::identity})
      check_kernel(nb, info.id, act, w, sizes, nb.options().seed);
  }
}

void section_benchmark(Notebook& nb, const Options& o) {
  nb.section("Time against sequence length: the O(L) chain");
  const bool bench = nb.options().bench;
  const int batch = bench ? 16384 : 4096;
  const std::vector<int> lengths =
      bench ? std::vector<int>{16, 64, 256, 1024, 4096, 16384} : std::vector<int>{16, 64, 256, 1024};
  const int cpu_max_length = bench ? 1024 : 256;  // beyond this one core takes seconds per run
  constexpr int checked_sequences = 64;           // re-checked against fp64 after timing
  nb.text(fmt::format(
      "{} sequences, H = {}, tanh. CPU: the batched fp32 loop on one core (Eigen), up to L = {}\n"
      "(\"-\" past it: one core takes seconds a run there; --bench goes further). GPU: each kernel is\n"
      "checked on the first {} sequences before and after it is timed; \"-\" for a kernel --kernel left out.",
      batch, o.hidden, cpu_max_length, checked_sequences));
  const auto w = rnn::random_weights(o.hidden, o.radius, nb.options().seed);

  double copy_gbps = 0;  // measured once, beforehand: the roof of the "% of copy" cells, not a column
  if (nb.gpu()) {
    copy_gbps = common::measure_copy_bandwidth(std::size_t(512) << 20);
    nb.value("device-to-device copy", fmt::format("{:.0f} GB/s (read + write)", copy_gbps));
  }
  std::vector<common::SweepPoint> points;
  for (int length : lengths) {
    const double bytes = 8.0 * batch * length;  // x read + y written, fp32
    points.push_back({{std::to_string(length)},
                      fmt::format("L = {}", length),
                      {double(length),
                       {std::to_string(batch), std::to_string(o.hidden), std::to_string(length)},
                       bytes,
                       copy_gbps}});
  }
  std::vector<common::SweepVersion> versions;
  for (const auto& info : rnn::kKernels)
    versions.push_back({int(info.id), fmt::format("k{} ms", int(info.id)), fmt::format("GPU kernel {}", int(info.id)),
                        fmt::format("kernel {}", int(info.id))});
  common::BenchmarkSweep sweep(nb, {.size_columns = {"batch", "hidden", "length"},
                                    .extra_columns = {"ns_per_step"},
                                    .shown = common::BenchmarkResults::Shown::median_ms,
                                    .decimals = 3,
                                    .label_headers = {"L"},
                                    .cpu_header = "CPU ms",
                                    .cpu_name = "CPU fp32 (1 core)",
                                    .row_end_headers = {"best ns/step", "best GB/s", "% of copy"},
                                    .timing = {2, bench ? 10 : 5, true}});
  // The point's sequences, the fp64 reference of the first ones, and its GPU problem.
  int length = 0;
  rnn::Sequences s;
  rnn::Result reference;
  std::optional<rnn::GpuRnn> problem;
  common::BenchmarkSweep::Steps steps;
  steps.prepare = [&](std::size_t i) {
    length = lengths[i];
    s = rnn::random_sequences(batch, length, nb.options().seed + length);
  };
  steps.time_cpu = [&](std::size_t) -> std::optional<common::TimingStats> {
    if (length > cpu_max_length) return std::nullopt;
    return common::time_cpu([&] { rnn::run_cpu<float>(w, s, Activation::tanh); }, 1, 3);
  };
  steps.prepare_gpu = [&](std::size_t) {
    reference = rnn::run_reference_prefix(w, s, Activation::tanh, checked_sequences);
    problem.emplace(w, s);
  };
  steps.poison = [&](std::size_t) { problem->poison_outputs(); };
  steps.run = [&](std::size_t v) { problem->run(rnn::kKernels[v].id, Activation::tanh); };
  steps.check = [&](std::size_t) {
    const auto y = first_sequences(problem->y(), batch, length, checked_sequences);
    return common::failure(common::compare(y, reference.y, kFp32Tolerance));
  };
  steps.csv_cells = [&](std::size_t, const common::TimingStats& t) {
    return std::vector<std::string>{fmt::format("{:.1f}", 1e6 * t.median_ms / length)};
  };
  // The fastest kernel's time per step, bandwidth and share of the copy's.
  steps.row_end = [&](std::size_t i, const std::vector<std::optional<common::TimingStats>>& timings) {
    std::optional<common::TimingStats> best;
    for (const auto& t : timings)
      if (t && (!best || t->median_ms < best->median_ms)) best = t;
    if (!best) return std::vector<std::string>{"-", "-", "-"};
    const double gbps = common::gigabytes_per_second(points[i].at.bytes, best->median_ms);
    return std::vector<std::string>{fmt::format("{:.0f}", 1e6 * best->median_ms / length), fmt::format("{:.1f}", gbps),
                                    fmt::format("{:.2f}%", 100 * gbps / copy_gbps)};
  };
  sweep.run(points, versions, steps);
  sweep.report("the timed kernels match fp64 before and after timing",
               fmt::format("first {} sequences of each, tol atol {:.0e} + rtol {:.0e}·|ref|", checked_sequences,
                           kFp32Tolerance.atol, kFp32Tolerance.rtol));

  Figure f{"bench_time",
           fmt::format("Time for {} sequences against their length (H = {}, tanh)", batch, o.hidden),
           "sequence length L",
           "median time (ms)",
           true,
           true,
           {},
           {"set key inside right bottom"}};
  f.series = sweep.series();
  nb.figure(f, false);
}

}  // namespace ch01
