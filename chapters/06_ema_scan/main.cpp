// ch06_ema_scan -- Chapter 06: the EMA and the first-order recurrence as a scan of pairs.
//
// h_k = a_k h_{k-1} + b_k is not a sum, but each step is an affine map h -> a h + b, and
// composing affine maps is associative: the whole recurrence is a scan with the pair operator
// (a1, b1) ∘ (a2, b2) = (a1 a2, a2 b1 + b2). Run with --help for the options; the chapter's
// text is README.md beside this file.
#include "benchmark_results.hpp"
#include "chapter_main.hpp"
#include "checked_timing.hpp"
#include "ema_kernels.hpp"
#include "gpu.hpp"
#include "gpu_ema.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "reference.hpp"
#include "results_csv.hpp"
#include "timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using common::Figure;
using common::Notebook;
using common::Series;
using common::Tolerance;

struct Options {
  long long check_length = (1 << 20) + 7;
  long long batch = 64;
  bool tile_sweep = false;
};

// a_k in [0.95, 1), |b_k| < 1: the checks' inputs. Section 4 measures the fp32 error this
// tolerance has to cover; a wrong carry is off by O(1).
constexpr double kDecayLo = 0.95, kDecayHi = 1.0;
constexpr Tolerance kFp32{1e-4, 1e-4};

std::string power_of_two_label(std::size_t n) {
  const int e = static_cast<int>(std::log2(static_cast<double>(n)));
  if (std::size_t(1) << e == n) return fmt::format("2^{}", e);
  return std::to_string(n);
}

// The roof: a device-to-device copy of 6n bytes (12n moved), timed like the versions.
common::TimingStats time_copy(std::size_t n, common::GpuTimer& timer) {
  common::DeviceBuffer<char> from(6 * n), to(6 * n);
  CUDA_CHECK(cudaMemset(from.data(), 0, from.bytes()));
  return timer.time(
      [&] { CUDA_CHECK(cudaMemcpyAsync(to.data(), from.data(), from.bytes(), cudaMemcpyDeviceToDevice)); });
}

std::string version_label(ema::Kernel k) { return fmt::format("{} {}", int(k), ema::info(k).name); }

// ---- [1] ---------------------------------------------------------------------------------------
void section_recurrence(Notebook& nb) {
  nb.section("The EMA is a first-order linear recurrence (fp64 reference on the CPU)");
  nb.text(
      "EMA: h_k = α h_{k-1} + (1 - α) x_k. With a_k = α and b_k = (1 - α) x_k it is the general\n"
      "h_k = a_k h_{k-1} + b_k, Mamba's recurrence for one channel and one state (a_k = exp(Δ_k A),\n"
      "b_k = Δ_k B_k x_k). Every sequence starts from h_{-1} = 0.");
  const std::vector<float> x{1, 0, 0, 0, 2, 2, 2, 2};
  const auto p = ema::ema_problem(0.5, x);
  const auto h = ema::recurrence_reference(p);
  std::string xs, hs;
  for (std::size_t k = 0; k < x.size(); ++k) {
    xs += fmt::format("{:>9}", x[k]);
    hs += fmt::format("{:>9.5f}", h[k]);
  }
  nb.text("α = 0.5\n  x = " + xs + "\n  h = " + hs);
  std::vector<double> expected(x.size());
  double state = 0;
  for (std::size_t k = 0; k < x.size(); ++k) expected[k] = state = 0.5 * state + 0.5 * x[k];
  nb.check("the recurrence with a = α, b = (1 - α)x is the EMA", common::compare(h, expected, {0, 0}));
}

// ---- [2] ---------------------------------------------------------------------------------------
void section_pair_operator(Notebook& nb, const Options& o) {
  nb.section("The pair operator: associative, with identity (1, 0)");
  nb.text(
      "(a1, b1) ∘ (a2, b2) = (a1 a2, a2 b1 + b2): first the map h -> a1 h + b1, then h -> a2 h + b2.\n"
      "The inclusive scan of the pairs gives (A_k, B_k) with h_k = A_k h_{-1} + B_k = B_k.");
  std::mt19937_64 rng(nb.options().seed);
  std::uniform_real_distribution<double> d(-2.0, 2.0);
  double worst = 0, identity_worst = 0;
  for (int i = 0; i < 10000; ++i) {
    const ema::Pair<double> p{d(rng), d(rng)}, q{d(rng), d(rng)}, r{d(rng), d(rng)};
    const auto left = ema::combine(ema::combine(p, q), r), right = ema::combine(p, ema::combine(q, r));
    worst = std::max({worst, std::abs(left.a - right.a), std::abs(left.b - right.b)});
    const auto e = ema::identity<double>();
    for (const auto& c : {ema::combine(e, p), ema::combine(p, e)})
      identity_worst = std::max({identity_worst, std::abs(c.a - p.a), std::abs(c.b - p.b)});
  }
  nb.check("(p∘q)∘r = p∘(q∘r) on 10000 random triples (fp64, only rounding apart)", worst <= 1e-13,
           fmt::format("largest difference {:.1e} ≤ 1e-13", worst));
  nb.check("(1,0)∘p = p∘(1,0) = p", identity_worst == 0, fmt::format("largest difference {:.1e}", identity_worst));
  const ema::Pair<double> p{0.5, 1}, q{2, 3};
  nb.text(fmt::format("Not commutative: (0.5, 1)∘(2, 3) = ({}, {}), (2, 3)∘(0.5, 1) = ({}, {}).", ema::combine(p, q).a,
                      ema::combine(p, q).b, ema::combine(q, p).a, ema::combine(q, p).b));
  const auto problem =
      ema::random_problem(1, static_cast<std::size_t>(o.check_length), kDecayLo, kDecayHi, nb.options().seed);
  const auto expected = ema::recurrence_reference(problem);
  nb.check(fmt::format("fp32 tree of pairs vs fp64 loop, L = {}, a in [0.95, 1)", o.check_length),
           common::compare(ema::recurrence_tree_fp32(problem), expected, kFp32));
  nb.check(fmt::format("fp32 loop vs fp64 loop, L = {}", o.check_length),
           common::compare(ema::recurrence_fp32(problem), expected, kFp32));
}

// ---- [3] ---------------------------------------------------------------------------------------
void section_impulse(Notebook& nb) {
  nb.section("Impulse responses: how fast the EMA forgets");
  nb.text("x = (1, 0, 0, ...) gives h_k = (1 - α) α^k: a geometric decay with memory about 1/(1 - α) steps.");
  Figure f{"impulse_response",
           "EMA impulse response h_k = (1 - α) α^k",
           "step k",
           "h_k",
           false,
           true,
           {},
           {"set yrange [1e-6:1]", "set key top right"}};
  f.markup = true;  // h_k, α^k
  std::vector<std::vector<std::string>> rows;
  double worst = 0;
  for (double alpha : {0.5, 0.8, 0.9, 0.97, 0.99}) {
    std::vector<float> x(300, 0.f);
    x[0] = 1.f;
    const auto h = ema::recurrence_reference(ema::ema_problem(alpha, x));
    Series s{fmt::format("α = {}", alpha), {}, {}};
    for (std::size_t k = 0; k < h.size(); ++k) {
      if (h[k] >= 1e-6) s.x.push_back(double(k)), s.y.push_back(h[k]);
      worst = std::max(worst, std::abs(h[k] / ema::ema_impulse_response(alpha, k) - 1));
    }
    f.series.push_back(s);
    rows.push_back({fmt::format("{}", alpha), fmt::format("{:.0f}", 1 / (1 - alpha)),
                    fmt::format("{:.1f}", std::log(0.5) / std::log(alpha))});
  }
  nb.table({"α", "memory 1/(1-α)", "half-life (steps)"}, rows);
  // α and 1 - α are fp32 numbers in the problem: relative 6e-8 each, k·6e-8 for α^k.
  nb.check("the recurrence's impulse response = (1 - α) α^k (300 steps)", worst <= 5e-5,
           fmt::format("largest relative difference {:.1e} ≤ 5e-5", worst));
  nb.figure(f);
}

// ---- [4] ---------------------------------------------------------------------------------------
void section_precision(Notebook& nb) {
  nb.section("fp32 error against L: the sequential loop and the parallel tree");
  nb.text(
      "Both orders round at every combine. With a = 1 the recurrence is a running sum and the error\n"
      "keeps growing with L, as in chapter 05. With a_k < 1 each error is multiplied by later a's: it\n"
      "fades after about 1/(1 - a) steps, so the error stops growing once L passes the memory.");
  struct Case {
    std::string name;
    double lo, hi;
  };
  const std::vector<Case> cases{{"a = 1 (running sum)", 1.0, 1.0},
                                {"a in [0.999, 1)", 0.999, 1.0},
                                {"a in [0.95, 1) (the checks)", kDecayLo, kDecayHi}};
  Figure f{"precision_vs_length",
           "fp32 error of h against fp64 (b uniform in [-1, 1))",
           "L",
           "max |h(fp32) - h(fp64)|",
           true,
           true,
           {},
           {"set key inside top left", "set yrange [*:0.1]"}};
  std::vector<std::vector<std::string>> rows;
  std::map<std::string, Series> loop_series, tree_series;
  for (int e = 4; e <= 20; e += 2) {
    const std::size_t n = std::size_t(1) << e;
    std::vector<std::string> row{power_of_two_label(n)};
    for (const auto& c : cases) {
      const auto p = ema::random_problem(1, n, c.lo, c.hi, nb.options().seed + n);
      const auto expected = ema::recurrence_reference(p);
      const double loop = common::compare(ema::recurrence_fp32(p), expected, {1e9, 0}).max_abs_error;
      const double tree = common::compare(ema::recurrence_tree_fp32(p), expected, {1e9, 0}).max_abs_error;
      auto& ls = loop_series.try_emplace(c.name, Series{"loop, " + c.name, {}, {}, "linespoints lw 2"}).first->second;
      auto& ts =
          tree_series.try_emplace(c.name, Series{"tree, " + c.name, {}, {}, "linespoints lw 2 dt 2"}).first->second;
      ls.x.push_back(double(n)), ls.y.push_back(std::max(loop, 1e-12));
      ts.x.push_back(double(n)), ts.y.push_back(std::max(tree, 1e-12));
      row.push_back(fmt::format("{:.1e}", loop));
      row.push_back(fmt::format("{:.1e}", tree));
    }
    rows.push_back(row);
  }
  nb.table({"L", "a=1 loop", "a=1 tree", "0.999 loop", "0.999 tree", "0.95 loop", "0.95 tree"}, rows);
  for (const auto& c : cases) {
    f.series.push_back(loop_series[c.name]);
    f.series.push_back(tree_series[c.name]);
  }
  nb.text(
      "The checks use a in [0.95, 1): |h| < 20 and errors fade within ~20 steps, so the error is\n"
      "bounded at every L and atol = rtol = 1e-4 covers it with margin; a wrong carry is off by O(1).");
  nb.figure(f, false);
}

// ---- [5] ---------------------------------------------------------------------------------------
void section_underflow(Notebook& nb) {
  nb.section("When the product of the a's underflows");
  nb.text(
      "The scan carries A_k = a_0 a_1 ... a_k. With a_k = 0.5, A_k = 2^-(k+1): below 2^-126 fp32 goes\n"
      "subnormal (losing bits), and past 2^-149 it is exactly 0.");
  const std::size_t steps = 200;
  const std::vector<float> a(steps, 0.5f);
  const auto p32 = ema::running_product_fp32(a);
  const auto p64 = ema::running_product_fp64(a);
  const auto first_zero = std::find(p32.begin(), p32.end(), 0.0f) - p32.begin();
  nb.value("first k with A_k = 0 in fp32",
           fmt::format("{} (fp64: A_k = 2^-{} = {:.2e})", first_zero, first_zero + 1, p64[first_zero]));
  auto problem = ema::random_problem(1, steps, 0.5, 0.5, nb.options().seed);
  const auto c = common::compare(ema::recurrence_tree_fp32(problem), ema::recurrence_reference(problem), {1e-6, 1e-6});
  nb.check("h from the fp32 tree is still accurate after A_k underflowed", c);
  nb.text(
      "Harmless for h: A_k multiplies h_{-1} (here 0), and the carry from far back is scaled by a\n"
      "product below 2^-149, which could not change h by even one rounding unit anyway. Not harmless\n"
      "for gradients: ∂h_199/∂h_{-1} = A_199 is now exactly 0 instead of 6e-61 -- a vanishing gradient becomes\n"
      "a vanished one, and log A_k (what a backward pass may want) is -inf. Summing log a in fp32\n"
      "instead (-0.69 per step) never underflows.");
  Figure f{"underflow", "Running product of a_k = 0.5: log2 A_k",
           "step k",    "log2 A_k",
           false,       false,
           {},          {"set key inside bottom left", "set arrow from 149,-260 to 149,0 nohead dt 2"}};
  f.markup = true;  // a_k, A_k
  Series s64{"fp64", {}, {}}, s32{"fp32 (0 from k = 149: log2 = -inf, not drawn)", {}, {}, "lines lw 3 dt 2"};
  for (std::size_t k = 0; k < steps; ++k) {
    s64.x.push_back(double(k)), s64.y.push_back(std::log2(p64[k]));
    if (p32[k] > 0) s32.x.push_back(double(k)), s32.y.push_back(std::log2(double(p32[k])));
  }
  f.series = {s64, s32};
  nb.figure(f, false);
}

// ---- [6] ---------------------------------------------------------------------------------------
constexpr std::size_t kBatchedLength = 20001;  // the length of the batched GPU check's sequences

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
  const bool gpu = nb.gpu();
  if (!gpu) nb.gpu_skip("the GPU timings (the CPU column still runs)");
  common::ResultsCsv csv(nb.out_dir() + "/bench.csv", gpu ? common::gpu_status().device.name : "cpu only", nb.date(),
                         {"implementation", "n", "median_ms", "min_ms", "max_ms", "bytes", "gb_per_s", "pct_of_copy"});
  common::BenchmarkResults results(csv, common::BenchmarkResults::Shown::gb_per_s, 0);
  std::vector<std::vector<std::string>> rows;
  std::optional<common::CheckedTiming> timing;
  if (gpu) timing.emplace(nb, common::TimingOptions{2, bench ? 15 : 5, true});
  for (std::size_t n : sizes) {
    const auto p = ema::random_problem(1, n, kDecayLo, kDecayHi, nb.options().seed + n);
    common::BenchmarkPoint at{double(n), {std::to_string(n)}, 12.0 * double(n)};
    std::vector<std::string> row{power_of_two_label(n)};
    if (n <= (std::size_t(1) << 22)) {
      row.push_back(
          results.record("CPU fp32 loop (1 core)", at, common::time_cpu([&] { ema::recurrence_fp32(p); }, 1, 3)));
    } else {
      row.push_back("-");
    }
    if (!gpu) {
      rows.push_back(row);
      continue;
    }
    const auto expected = ema::recurrence_reference(p);
    ema::GpuEma problem(p);
    common::GpuTimer timer({2, bench ? 15 : 5, true});
    {
      const auto t = time_copy(n, timer);
      at.copy_gbps = common::gigabytes_per_second(at.bytes, t.median_ms);
      row.push_back(results.record("copy (cudaMemcpy D2D)", at, t));
    }
    for (const auto& info : ema::kKernels) {
      if (!common::kernel_selected(nb.options(), int(info.id)) || n > info.max_length) {
        row.push_back("-");
        continue;
      }
      const auto t = timing->time(
          fmt::format("version {} at N = {}", int(info.id), n), [&] { problem.poison_output(); },
          [&] { problem.run(info.id); },
          [&] { return common::failure(common::compare(problem.output(), expected, kFp32)); });
      if (!t) {
        row.push_back("wrong");
        continue;
      }
      row.push_back(results.record(fmt::format("{} {}", int(info.id), info.name), at, *t));
    }
    rows.push_back(row);
  }
  std::vector<std::string> header{"N", "CPU"};
  if (gpu) {
    header.push_back("copy");
    for (const auto& info : ema::kKernels) header.push_back(fmt::format("v{}", int(info.id)));
  }
  nb.text("GB/s (v = version; see the list in section 6):");
  nb.table(header, rows);
  nb.value("results", csv.path());
  if (gpu) {
    timing->report("the timed versions match fp64 before and after timing");
    const auto at_top = [&](const std::string& name) { return results.shown_at(name, double(sizes.back())); };
    const auto copy = at_top("copy (cudaMemcpy D2D)");
    std::string line;
    for (auto k : {ema::Kernel::look_back, ema::Kernel::look_back_window, ema::Kernel::cub_device_scan,
                   ema::Kernel::cub_device_scan_float2}) {
      const auto gbps = at_top(version_label(k));
      if (!gbps || !copy) continue;
      line += fmt::format("{}version {} {:.0f} GB/s = {:.1f}% of copy", line.empty() ? "" : "; ", int(k), *gbps,
                          100 * *gbps / *copy);
    }
    if (copy) line += fmt::format(" ({:.0f} GB/s)", *copy);
    const auto window = at_top(version_label(ema::Kernel::look_back_window));
    const auto cub = at_top(version_label(ema::Kernel::cub_device_scan));
    if (window && cub) line += fmt::format("; version 5 = {:.1f}% of CUB (version 6)", 100 * *window / *cub);
    if (!line.empty()) nb.value(fmt::format("at N = {}", power_of_two_label(sizes.back())), line);
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
  for (Series s : results.series()) {
    if (s.title.rfind("copy", 0) == 0) s.style = "lines lw 3 dt 2 lc rgb 'black'";
    f.series.push_back(s);
  }
  nb.figure(f, false);
}

// ---- [8] ---------------------------------------------------------------------------------------
void section_tile_sweep(Notebook& nb) {
  const std::size_t n = std::size_t(1) << 28;
  nb.section("Tuning version 5: every tile shape at N = 2^28");
  nb.text(
      fmt::format("Version 5 built for each tile shape of kWindowTileShapes (ema_kernels.hpp), raced against\n"
                  "the copy and CUB (version 6) in the same run, L2 flushed before every repetition. The\n"
                  "chapter's runs use kWindowTile = {} × {}.",
                  ema::kWindowTile.threads, ema::kWindowTile.items_per_thread));
  if (!nb.gpu()) return nb.gpu_skip("the tile sweep");
  const auto p = ema::random_problem(1, n, kDecayLo, kDecayHi, nb.options().seed + n);
  const auto expected = ema::recurrence_reference(p);
  ema::GpuEma problem(p);
  const double bytes = 12.0 * double(n);
  common::GpuTimer timer({2, 15, true});
  common::CheckedTiming timing(nb, {2, 15, true});
  const double copy_gbps = common::gigabytes_per_second(bytes, time_copy(n, timer).median_ms);
  const auto poison = [&] { problem.poison_output(); };
  const auto check = [&] { return common::failure(common::compare(problem.output(), expected, kFp32)); };
  const auto cub = timing.time(
      "version 6 at N = 2^28", poison, [&] { problem.run(ema::Kernel::cub_device_scan); }, check);
  const double cub_gbps = cub ? common::gigabytes_per_second(bytes, cub->median_ms) : 0;
  common::ResultsCsv csv(nb.out_dir() + "/tile_sweep.csv", common::gpu_status().device.name, nb.date(),
                         {"threads", "items_per_thread", "tile", "median_ms", "gb_per_s", "pct_of_copy", "pct_of_cub"});
  std::vector<std::vector<std::string>> rows;
  for (const auto& shape : ema::kWindowTileShapes) {
    const bool chosen =
        shape.threads == ema::kWindowTile.threads && shape.items_per_thread == ema::kWindowTile.items_per_thread;
    std::vector<std::string> row{fmt::format("{} × {}", shape.threads, shape.items_per_thread),
                                 std::to_string(shape.size())};
    const auto t = timing.time(
        fmt::format("version 5, tile {} × {}", shape.threads, shape.items_per_thread), poison,
        [&] { problem.run_window(shape); }, check);
    if (!t) {
      rows.push_back({row[0], row[1], "wrong", "-", "-", chosen ? "kWindowTile" : ""});
      continue;
    }
    const double gbps = common::gigabytes_per_second(bytes, t->median_ms);
    const std::string of_cub = cub_gbps > 0 ? fmt::format("{:.1f}", 100 * gbps / cub_gbps) : "-";
    csv.row({std::to_string(shape.threads), std::to_string(shape.items_per_thread), std::to_string(shape.size()),
             fmt::format("{:.5f}", t->median_ms), fmt::format("{:.2f}", gbps),
             fmt::format("{:.2f}", 100 * gbps / copy_gbps), cub_gbps > 0 ? of_cub : ""});
    rows.push_back({row[0], row[1], fmt::format("{:.0f}", gbps), fmt::format("{:.1f}", 100 * gbps / copy_gbps), of_cub,
                    chosen ? "kWindowTile" : ""});
  }
  nb.value("copy", fmt::format("{:.0f} GB/s", copy_gbps));
  nb.value("CUB (version 6)", cub ? fmt::format("{:.0f} GB/s = {:.1f}% of copy", cub_gbps, 100 * cub_gbps / copy_gbps)
                                  : std::string("wrong"));
  nb.table({"threads × items", "tile", "GB/s", "% of copy", "% of CUB", ""}, rows);
  nb.value("results", csv.path());
  timing.report("every tile shape matches fp64 before and after timing");
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  return common::run_chapter(
      {"ch06_ema_scan", "Chapter 06 · The EMA and the linear recurrence as a scan of pairs", ema::kKernelCount}, argc,
      argv,
      [&](CLI::App& app) {
        app.add_option("--check-length", o.check_length,
                       "Longest sequence of the checks (with 1, 2, 31, 33, 1000, ...)")
            ->check(common::integer_in(1, 1 << 26))
            ->capture_default_str();
        app.add_option("--batch", o.batch, "Sequences in the batched GPU check")
            ->check(common::integer_in(1, 4096))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_flag("--tile-sweep", o.tile_sweep,
                     "Add section 8 (--bench adds it too): version 5 timed at N = 2^28 with every tile shape of "
                     "kWindowTileShapes");
      },
      [&](Notebook& nb) {
        // Before any work: section 2 holds a sequence of --check-length as pairs, its fp64
        // recurrence and two fp32 ones (about 32 bytes an element); a GPU check holds a problem's
        // pairs, its fp64 reference and the GPU's result (20), the longest and the batched in turn.
        const double sequence = 32.0 * double(o.check_length), batched = 20.0 * double(o.batch) * kBatchedLength;
        if (nb.gpu() && batched > sequence)
          common::require_host_memory(batched, "--batch");
        else
          common::require_host_memory(sequence, "--check-length");
        section_recurrence(nb);
        section_pair_operator(nb, o);
        section_impulse(nb);
        section_precision(nb);
        section_underflow(nb);
        section_gpu(nb, o);
        section_benchmark(nb);
        if (o.tile_sweep || nb.options().bench) section_tile_sweep(nb);
      });
}
