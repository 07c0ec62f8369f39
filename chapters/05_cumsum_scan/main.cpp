// ch05_cumsum_scan -- Chapter 05: the cumulative sum as a parallel scan.
//
// The running sum y_k = x_0 + ... + x_k looks as sequential as chapter 01's RNN, but + is
// associative, and that is enough to compute it in O(log N) parallel steps. Run with --help
// for the options; the chapter's text is README.md beside this file.
#include "benchmark_results.hpp"
#include "chapter_main.hpp"
#include "checked_timing.hpp"
#include "gpu.hpp"
#include "gpu_scan.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "reference.hpp"
#include "results_csv.hpp"
#include "scan_kernels.hpp"
#include "scan_simulation.hpp"
#include "timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

using common::Figure;
using common::Notebook;
using common::Series;
using common::Tolerance;

struct Options {
  long long check_size = (1 << 20) + 7;
  int tiles = 16;
  int resident_blocks = 4;
};

// Integer inputs make every partial sum exact in fp32 (reference.hpp says why), so every
// correct scan reproduces the reference to the last bit, whatever its order of additions;
// a dropped, doubled or misplaced element is off by a whole number.
constexpr Tolerance kExact{0.0, 0.0};

// A small example whose sums a reader can check by eye.
const std::vector<double> kExample{3, 1, 7, 0, 4, 1, 6, 3, 5, 2, 8, 1, 0, 9, 2, 4};

std::string row_of(const std::vector<double>& values, const std::function<std::string(double)>& cell, int width = 4) {
  std::string out;
  for (double v : values) out += fmt::format("{:>{}}", cell(v), width);
  return out;
}
std::string range_cell(double v) { return scan::held_range(v); }
std::string number(double v) { return fmt::format("{}", v); }

std::string power_of_two_label(std::size_t n) {
  const int e = static_cast<int>(std::log2(static_cast<double>(n)));
  if (std::size_t(1) << e == n) return fmt::format("2^{}", e);
  return std::to_string(n);
}

// ---- [1] ---------------------------------------------------------------------------------------
void section_reference(Notebook& nb, const Options& o) {
  nb.section("The cumulative sum, one addition after another (fp64 reference on the CPU)");
  nb.text(
      "y_k = x_0 + x_1 + ... + x_k. The loop carries one running total: step k needs step k-1,\n"
      "a chain of N dependent additions -- the shape of chapter 01's RNN, with + in place of the RNN step.");
  nb.text(fmt::format("example x = {}", row_of(kExample, number)));
  nb.text(fmt::format(
      "        y = {}",
      row_of(scan::inclusive_scan_reference(std::vector<float>(kExample.begin(), kExample.end())), number)));

  nb.text(
      "The inputs of every check: whole numbers in {-3..3}. Every partial sum a scan can form is a sum\n"
      "of neighbours x_a..x_b, a whole number below 2^24 here, which fp32 holds exactly -- so every\n"
      "order of additions gives the exact result, and the checks ask for it (tolerance 0).");
  const std::size_t n = static_cast<std::size_t>(o.check_size);
  const auto x = scan::integer_input(n, nb.options().seed);
  nb.value(fmt::format("largest |y_k| for N = {}", n),
           fmt::format("{:.0f} (limit 2^23 = 8388608)", scan::max_abs_prefix(x)));
  nb.check(fmt::format("the fp32 loop on whole numbers = fp64, N = {}", n),
           common::compare(scan::inclusive_scan_fp32(x), scan::inclusive_scan_reference(x), kExact));

  nb.text(
      "With real inputs (uniform in [0, 1)) fp32 rounds at every step, and the error of the running\n"
      "total grows with N. A parallel scan adds in another order, so it does not reproduce the\n"
      "sequential fp32 result bit for bit either; that is why the checks use whole numbers.");
  std::vector<std::vector<std::string>> rows;
  for (std::size_t m : {std::size_t(1) << 10, std::size_t(1) << 14, std::size_t(1) << 18, std::size_t(1) << 22}) {
    const auto u = scan::uniform_input(m, nb.options().seed);
    const auto c = common::compare(scan::inclusive_scan_fp32(u), scan::inclusive_scan_reference(u), {1.0, 0.0});
    rows.push_back(
        {power_of_two_label(m), fmt::format("{:.2e}", c.max_abs_error), fmt::format("{:.2e}", c.max_rel_error)});
  }
  nb.table({"N", "max |fp32 - fp64|", "max rel err"}, rows);
}

// ---- [2] ---------------------------------------------------------------------------------------
// Draws one state per row (row 0 at the top), a label per element saying which inputs it holds,
// and arrows from the elements each new value was made of.
struct Arrow {
  double x0, y0, x1, y1;
  std::string colour;
};

Figure dependency_figure(const std::string& name, const std::string& title,
                         const std::vector<std::vector<double>>& states, const std::vector<std::string>& row_names,
                         const std::vector<Arrow>& arrows) {
  const std::size_t n = states.front().size();
  Figure f{name, title, "element j", "", false, false, {}, {}};
  // Rows far enough apart for labels that read at the book's scale (the figure is shown at its
  // own width): 56 px a row, plus the title and the axis.
  f.height = 160 + 56 * static_cast<int>(states.size());
  Series nodes{"", {}, {}, "points pt 7 ps 0.9 lc rgb '#444444'"};
  std::string ytics = "set ytics (";
  for (std::size_t r = 0; r < states.size(); ++r) {
    for (std::size_t j = 0; j < n; ++j) {
      nodes.x.push_back(static_cast<double>(j));
      nodes.y.push_back(-static_cast<double>(r));
      f.settings.push_back(fmt::format("set label '{}' at {},{} center font ',10' boxed front",
                                       scan::held_range(states[r][j]), j, -static_cast<double>(r) + 0.3));
    }
    ytics += fmt::format("{}'{}' {}", r ? ", " : "", row_names[r], -static_cast<double>(r));
  }
  f.series.push_back(nodes);
  f.settings.push_back("set style textbox opaque noborder margins 0.5,0.5");  // arrows pass behind the labels
  f.settings.push_back(ytics + ")");
  f.settings.push_back("unset key");
  f.settings.push_back("set grid noxtics noytics");
  f.settings.push_back(fmt::format("set xrange [-0.8:{}]", n - 0.2));
  f.settings.push_back(fmt::format("set yrange [{}:0.7]", -static_cast<double>(states.size()) + 0.5));
  f.settings.push_back(fmt::format("set xtics 0,1,{}", n - 1));
  for (const Arrow& a : arrows)
    f.settings.push_back(fmt::format("set arrow from {},{} to {},{} head filled size 0.12,20 lw 1.2 lc rgb '{}' back",
                                     a.x0, a.y0 - 0.08, a.x1, a.y1 + 0.08, a.colour));
  return f;
}

void section_hillis_steele(Notebook& nb) {
  nb.section("Hillis-Steele, step by step (CPU simulation, 16 elements)");
  nb.text(
      "In step s every element j >= 2^s adds the element 2^s places to its left (j - 2^s, reading the\n"
      "values from before the step). After step s, element j holds x_{j-2^(s+1)+1} + ... + x_j.\n"
      "log2(N) steps; every step keeps all N elements busy: about N log2 N additions in all.");
  const auto states = scan::hillis_steele_trace(kExample);
  for (std::size_t s = 0; s < states.size(); ++s)
    nb.text(
        fmt::format("{:<12}{}", s == 0 ? "input" : fmt::format("offset {}", 1 << (s - 1)), row_of(states[s], number)));
  nb.check(
      "the last step = the sequential scan (16 elements)",
      common::compare(states.back(),
                      scan::inclusive_scan_reference(std::vector<float>(kExample.begin(), kExample.end())), {0, 0}));

  nb.text("The same steps on x_j = 2^j: the binary digits of each value say which inputs it holds.");
  const auto traced = scan::hillis_steele_trace(scan::power_of_two_input(16));
  std::vector<std::string> row_names;
  std::vector<Arrow> arrows;
  for (std::size_t s = 0; s < traced.size(); ++s) {
    row_names.push_back(s == 0 ? "input" : fmt::format("offset {}", 1 << (s - 1)));
    nb.text(fmt::format("{:<12}{}", row_names.back(), row_of(traced[s], range_cell, 7)));
    if (s == 0) continue;
    const std::size_t offset = std::size_t(1) << (s - 1);
    for (std::size_t j = 0; j < 16; ++j) {
      const double y0 = -static_cast<double>(s - 1), y1 = -static_cast<double>(s);
      arrows.push_back({double(j), y0, double(j), y1, "#bbbbbb"});
      if (j >= offset) arrows.push_back({double(j - offset), y0, double(j), y1, "#1f77b4"});
    }
  }
  Figure figure = dependency_figure("hillis_steele", "Hillis-Steele: each element adds the one 2^s places to its left",
                                    traced, row_names, arrows);
  figure.markup = true;  // 2^s
  nb.figure(figure, false);
  std::size_t additions = 0;
  for (std::size_t offset = 1; offset < 16; offset *= 2) additions += 16 - offset;
  nb.value("additions for N = 16", fmt::format("{} (the sequential loop: 15)", additions));
}

// ---- [3] ---------------------------------------------------------------------------------------
void section_blelloch(Notebook& nb) {
  nb.section("Blelloch's up-sweep and down-sweep, step by step (CPU simulation, 16 elements)");
  nb.text(
      "Up-sweep: a reduction tree; at stride d the right element of each pair adds the left one.\n"
      "Clear the root, then down-sweep: each left child takes its parent's value (the sum of\n"
      "everything before the pair), each right child that plus the old left child. The result is\n"
      "the exclusive scan; 2(N-1) additions and moves in 2 log2 N levels: work-efficient.");
  const auto steps = scan::blelloch_trace(kExample);
  for (const auto& step : steps) nb.text(fmt::format("{:<22}{}", step.what, row_of(step.state, number)));
  const auto inclusive = scan::inclusive_scan_reference(std::vector<float>(kExample.begin(), kExample.end()));
  std::vector<double> exclusive(kExample.size(), 0.0);
  for (std::size_t j = 1; j < kExample.size(); ++j) exclusive[j] = inclusive[j - 1];
  nb.check("the last step = the exclusive scan (16 elements)", common::compare(steps.back().state, exclusive, {0, 0}));

  nb.text("On x_j = 2^j (which inputs each element holds; ∅ = nothing, the identity):");
  const auto traced = scan::blelloch_trace(scan::power_of_two_input(16));
  std::vector<std::vector<double>> states;
  std::vector<std::string> row_names;
  std::vector<Arrow> arrows;
  for (std::size_t r = 0; r < traced.size(); ++r) {
    const auto& step = traced[r];
    states.push_back(step.state);
    row_names.push_back(r == 0             ? "input"
                        : step.stride == 0 ? "clear root"
                                           : fmt::format("{} {}", step.up ? "up" : "down", step.stride));
    nb.text(fmt::format("{:<22}{}", step.what, row_of(step.state, range_cell, 7)));
    if (r == 0) continue;
    const double y0 = -static_cast<double>(r - 1), y1 = -static_cast<double>(r);
    std::vector<bool> touched(16, false);
    if (step.stride == 0) {
      arrows.push_back({15, y0, 15, y1, "#d62728"});
      touched[15] = true;
    }
    for (std::size_t i = 0; step.stride > 0 && step.stride * (2 * i + 2) <= 16; ++i) {
      const double left = double(step.stride * (2 * i + 1) - 1), right = double(step.stride * (2 * i + 2) - 1);
      touched[std::size_t(left)] = touched[std::size_t(right)] = true;
      arrows.push_back({right, y0, right, y1, "#1f77b4"});
      arrows.push_back({left, y0, right, y1, "#1f77b4"});
      if (!step.up) arrows.push_back({right, y0, left, y1, "#ff7f0e"});
    }
    for (std::size_t j = 0; j < 16; ++j)
      if (!touched[j]) arrows.push_back({double(j), y0, double(j), y1, "#dddddd"});
  }
  nb.figure(dependency_figure("blelloch", "Blelloch: up-sweep (a reduction tree), then down-sweep (prefixes)", states,
                              row_names, arrows),
            false);

  nb.text(
      "Shared memory has 32 banks (word address mod 32). The first warp of an up-sweep level reads\n"
      "tree[d(2t+1)-1] for t = 0..31: at stride d that address steps by 2d, so several threads hit\n"
      "the same bank and wait for each other. One spare word after every 32 (index i -> i + i/32)\n"
      "spreads them. Worst accesses per bank for a 1024-element tile:");
  std::vector<std::vector<std::string>> rows;
  for (std::size_t stride = 1; stride < 1024; stride *= 2)
    rows.push_back({std::to_string(stride), std::to_string(scan::up_sweep_conflict_degree(1024, stride, false)),
                    std::to_string(scan::up_sweep_conflict_degree(1024, stride, true))});
  nb.table({"stride d", "unpadded: n-way", "padded: n-way"}, rows);
}

// ---- [4] ---------------------------------------------------------------------------------------
const char* phase_mark(scan::TilePhase p) {
  switch (p) {
    case scan::TilePhase::not_started: return ".";
    case scan::TilePhase::reducing: return "r";
    case scan::TilePhase::looking_back: return "A";
    case scan::TilePhase::done: return "P";
  }
  return "?";
}

void section_look_back(Notebook& nb, const Options& o) {
  nb.section("The single-pass scan's tile states (CPU simulation of decoupled look-back)");
  nb.text(
      fmt::format("{} tiles, {} blocks resident at a time, each tile claimed in order. A tile reads and sums its\n"
                  "elements (r), publishes its sum with flag A (aggregate), then looks back over its predecessors,\n"
                  "adding their values, until one has flag P (inclusive prefix); it then publishes its own P.\n"
                  "A tile that meets a predecessor with nothing published yet (.) or still reducing (r) waits.",
                  o.tiles, o.resident_blocks));
  std::vector<double> tile_sums(o.tiles);
  const auto x = scan::integer_input(std::size_t(o.tiles) * 8, nb.options().seed);
  for (int t = 0; t < o.tiles; ++t) {
    double sum = 0;
    for (int i = 0; i < 8; ++i) sum += x[std::size_t(t) * 8 + i];
    tile_sums[t] = sum;
  }
  const auto sim = scan::simulate_decoupled_look_back(tile_sums, o.resident_blocks, nb.options().seed);
  std::vector<std::string> header{"step"};
  for (int t = 0; t < o.tiles; ++t) header.push_back(std::to_string(t));
  std::vector<std::vector<std::string>> rows;
  Series reducing{"reading and reducing", {}, {}, "points pt 5 ps 1.6 lc rgb '#bbbbbb'"};
  Series looking{"aggregate published, looking back", {}, {}, "points pt 5 ps 1.6 lc rgb '#ff7f0e'"};
  Series done{"inclusive prefix published", {}, {}, "points pt 5 ps 1.6 lc rgb '#2ca02c'"};
  for (std::size_t step = 0; step < sim.phases.size(); ++step) {
    std::vector<std::string> row{std::to_string(step)};
    for (int t = 0; t < o.tiles; ++t) {
      const auto p = sim.phases[step][t];
      row.push_back(phase_mark(p));
      Series* s = p == scan::TilePhase::reducing       ? &reducing
                  : p == scan::TilePhase::looking_back ? &looking
                  : p == scan::TilePhase::done         ? &done
                                                       : nullptr;
      if (s) {
        s->x.push_back(static_cast<double>(step));
        s->y.push_back(t);
      }
    }
    rows.push_back(row);
  }
  nb.table(header, rows);
  for (const auto& e : sim.events) nb.text(e);
  std::vector<double> expected(o.tiles, 0.0);
  for (int t = 1; t < o.tiles; ++t) expected[t] = expected[t - 1] + tile_sums[t - 1];
  nb.check("every tile's look-back found the sum of the tiles before it",
           common::compare(sim.exclusive_prefix, expected, {0, 0}));
  Figure f{"look_back",
           "Decoupled look-back: the state of each tile, step by step",
           "time step",
           "tile",
           false,
           false,
           {reducing, looking, done},
           {fmt::format("set yrange [-0.7:{}]", o.tiles - 0.3), "set ytics 0,1",
            fmt::format("set xrange [-0.7:{}]", sim.phases.size() - 0.3)}};
  nb.figure(f, false);
}

// ---- [5] ---------------------------------------------------------------------------------------
std::vector<std::size_t> check_sizes(const Options& o) {
  std::vector<std::size_t> sizes{1, 2, 31, 33, 1000, 1023, 1025, 4095, 4097, 65537, std::size_t(o.check_size)};
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

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
  const bool gpu = nb.gpu();
  if (!gpu) nb.gpu_skip("the GPU timings (the CPU column still runs)");

  common::ResultsCsv csv(nb.out_dir() + "/bench.csv", gpu ? common::gpu_status().device.name : "cpu only", nb.date(),
                         {"implementation", "n", "median_ms", "min_ms", "max_ms", "bytes", "gb_per_s", "pct_of_copy"});
  common::BenchmarkResults results(csv, common::BenchmarkResults::Shown::gb_per_s, 0);
  std::vector<std::vector<std::string>> rows;
  std::optional<common::CheckedTiming> timing;
  if (gpu) timing.emplace(nb, common::TimingOptions{2, bench ? 15 : 5, true});
  for (std::size_t n : sizes) {
    const auto x = scan::integer_input(n, nb.options().seed + n);
    common::BenchmarkPoint at{double(n), {std::to_string(n)}, 8.0 * double(n)};
    std::vector<std::string> row{power_of_two_label(n)};
    if (n <= cpu_max) {
      row.push_back(
          results.record("CPU fp32 loop (1 core)", at, common::time_cpu([&] { scan::inclusive_scan_fp32(x); }, 1, 3)));
    } else {
      row.push_back("-");
    }
    if (!gpu) {
      rows.push_back(row);
      continue;
    }
    const auto expected = scan::inclusive_scan_reference(x);
    scan::GpuScan problem(x);
    common::GpuTimer timer({2, bench ? 15 : 5, true});
    {
      common::DeviceBuffer<float> a(n), b(n);
      CUDA_CHECK(cudaMemset(a.data(), 0, a.bytes()));
      const auto t =
          timer.time([&] { CUDA_CHECK(cudaMemcpyAsync(b.data(), a.data(), a.bytes(), cudaMemcpyDeviceToDevice)); });
      at.copy_gbps = common::gigabytes_per_second(at.bytes, t.median_ms);
      row.push_back(results.record("copy (cudaMemcpy D2D)", at, t));
    }
    for (const auto& info : scan::kKernels) {
      if (!common::kernel_selected(nb.options(), int(info.id)) || n > info.max_n) {
        row.push_back("-");
        continue;
      }
      const auto t = timing->time(
          fmt::format("version {} at N = {}", int(info.id), n), [&] { problem.poison_output(); },
          [&] { problem.run(info.id); },
          [&] { return common::failure(common::compare(problem.output(), expected, kExact)); });
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
    for (const auto& info : scan::kKernels) header.push_back(fmt::format("v{}", int(info.id)));
  }
  nb.text("GB/s (v = version; see the list in section 5):");
  nb.table(header, rows);
  nb.value("results", csv.path());
  if (gpu) {
    timing->report("the timed versions are exact before and after timing");
    const std::string ours = fmt::format("{} {}", int(scan::Kernel::decoupled_look_back),
                                         scan::info(scan::Kernel::decoupled_look_back).name);
    const std::string cub =
        fmt::format("{} {}", int(scan::Kernel::cub_device_scan), scan::info(scan::Kernel::cub_device_scan).name);
    const double top = double(sizes.back());
    const auto ours_gbps = results.shown_at(ours, top), cub_gbps = results.shown_at(cub, top),
               copy_gbps = results.shown_at("copy (cudaMemcpy D2D)", top);
    if (ours_gbps && cub_gbps && copy_gbps) {
      nb.value(fmt::format("at N = {}", power_of_two_label(sizes.back())),
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
  for (Series s : results.series()) {
    if (s.title.rfind("copy", 0) == 0) s.style = "lines lw 3 dt 2 lc rgb 'black'";
    f.series.push_back(s);
  }
  nb.figure(f, false);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  return common::run_chapter(
      {"ch05_cumsum_scan", "Chapter 05 · The cumulative sum as a parallel scan", scan::kKernelCount}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--check-size", o.check_size, "Largest N of the checks (with 1, 2, 31, 33, 1000, ...)")
            ->check(common::integer_in(1, 1 << 28))
            ->capture_default_str();
        app.add_option("--tiles", o.tiles, "Tiles in the look-back simulation")
            ->check(common::integer_in(1, 64))
            ->capture_default_str();
        app.add_option("--resident-blocks", o.resident_blocks, "Blocks resident at once in the look-back simulation")
            ->check(common::integer_in(1, 64))
            ->capture_default_str();
      },
      [&](Notebook& nb) {
        // Before any work: section 1 holds N inputs, their fp32 scan and the fp64 one (16 bytes
        // an element); with a GPU, section 5 holds the fp64 scan, a version's result and the
        // merged lists its check compares (24).
        common::require_host_memory((nb.gpu() ? 24.0 : 16.0) * double(o.check_size), "--check-size");
        section_reference(nb, o);
        section_hillis_steele(nb);
        section_blelloch(nb);
        section_look_back(nb, o);
        section_gpu(nb, o);
        section_benchmark(nb);
      });
}
