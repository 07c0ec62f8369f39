// ch07_reverse_scan -- Chapter 07: the reverse scan, the gradient of the linear recurrence.
//
// Training needs ∂L/∂a and ∂L/∂b of h_k = a_k h_{k−1} + b_k. The gradient flows backwards in
// time through the same recurrence, so it is a scan too, run from the end. Run with --help for
// the options; the chapter's text is README.md beside this file.
#include "chapter_main.hpp"
#include "gpu.hpp"
#include "gpu_reverse.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "reference.hpp"
#include "results_csv.hpp"
#include "reverse_kernels.hpp"
#include "scan_simulation.hpp"
#include "timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using common::Figure;
using common::Notebook;
using common::Series;
using common::Tolerance;
using rscan::Shape;

struct Options {
  long long check_length = (1 << 20) + 7;
};

// fp64 against fp64 finite differences. A central difference (L(θ+ε) − L(θ−ε)) / 2ε carries
// the rounding error of L divided by ε, about u·|L|/ε (u = 2^-53), and a truncation error of
// about ε²/6 times a third derivative of L. Section [2] measures both against ε; at the step
// below the two are of the same size, and the atol allows a hundred times the rounding.
constexpr double kStep = 1e-5;
constexpr double kUnitRoundoff = 0x1p-53;
Tolerance finite_difference_tolerance(double loss) {
  return {1e-9 + 100 * kUnitRoundoff * std::abs(loss) / kStep, 1e-6};
}
// fp32 on the GPU against fp64: decays below 0.95 keep g and h below 20, and an error made at
// one step fades geometrically, so the error stays near a few float epsilons times 20.
constexpr Tolerance kGradB{2e-4, 2e-4};
constexpr Tolerance kGradA{2e-3, 2e-4};

struct Problem {
  Shape shape;
  std::vector<double> a, b, target, h, dy;
};

Problem random_problem(Shape shape, std::uint64_t seed, double lo = 0.3, double hi = 0.95) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> decay(lo, hi), unit(-1.0, 1.0);
  Problem p{shape,
            std::vector<double>(shape.size()),
            std::vector<double>(shape.size()),
            std::vector<double>(shape.size()),
            {},
            {}};
  for (std::size_t i = 0; i < shape.size(); ++i) {
    p.a[i] = decay(rng);
    p.b[i] = unit(rng);
    p.target[i] = unit(rng);
  }
  p.h = rscan::forward(shape, p.a, p.b);
  p.dy = rscan::log_cosh_loss_gradient(p.h, p.target);
  return p;
}

std::string shape_name(Shape s) { return fmt::format("{} × {}", s.sequences, s.length); }

// "3 block scan" for reverse_block_scan: short, and a figure's legend reads '_' as a subscript.
std::string legend_name(const rscan::KernelInfo& k) {
  std::string words = k.name;
  if (words.starts_with("reverse_")) words.erase(0, 8);
  std::replace(words.begin(), words.end(), '_', ' ');
  return fmt::format("{} {}", static_cast<int>(k.id), words);
}

// Adding +0 turns −0 (from a product with h_{−1} = 0) into 0, so the tables print no "-0.0000".
std::string fixed(double v, int digits = 4) { return fmt::format("{:.{}f}", v + 0.0, digits); }

void section_small_example(Notebook& nb, const common::CommonOptions& common) {
  nb.section("The gradient of one short sequence, by the reverse pass and by finite differences");
  const Problem p = random_problem({1, 6}, common.seed);
  const auto grads = rscan::backward(p.shape, p.a, p.h, p.dy);
  nb.text("Loss L = Σ log cosh(h_k − t_k), so dy_k = tanh(h_k − t_k). g_k = dy_k + a_{k+1} g_{k+1}, from the end.");
  std::vector<std::vector<std::string>> rows;
  for (std::size_t k = 0; k < p.shape.length; ++k)
    rows.push_back({std::to_string(k), fixed(p.a[k]), fixed(p.b[k]), fixed(p.h[k]), fixed(p.dy[k]), fixed(grads.g[k]),
                    fixed(grads.grad_a[k])});
  nb.table({"k", "a_k", "b_k", "h_k", "dy_k", "g_k = dL/db_k", "dL/da_k"}, rows);
  const auto fd = rscan::finite_differences(p.shape, p.a, p.b, p.target, kStep);
  const Tolerance tol = finite_difference_tolerance(rscan::log_cosh_loss(p.h, p.target));
  nb.check("dL/db = g against central differences (fp64)", common::compare(grads.g, fd.g, tol));
  nb.check("dL/da = g_k h_{k−1} against central differences (fp64)", common::compare(grads.grad_a, fd.grad_a, tol));
}

void section_finite_differences(Notebook& nb, const common::CommonOptions& common) {
  nb.section("Finite differences on awkward sizes, and the step they need");
  for (std::size_t length : {1, 2, 31, 33, 1000}) {
    const Shape shape{length < 1000 ? std::size_t(3) : std::size_t(1), length};
    const Problem p = random_problem(shape, common.seed + length);
    const auto grads = rscan::backward(shape, p.a, p.h, p.dy);
    const auto fd = rscan::finite_differences(shape, p.a, p.b, p.target, kStep);
    const Tolerance tol = finite_difference_tolerance(rscan::log_cosh_loss(p.h, p.target));
    nb.check(fmt::format("dL/db, {}", shape_name(shape)), common::compare(grads.g, fd.g, tol));
    nb.check(fmt::format("dL/da, {}", shape_name(shape)), common::compare(grads.grad_a, fd.grad_a, tol));
  }
  // The error of a central difference against its step: ~ε² (truncation) on the right,
  // ~u·|L|/ε (rounding) on the left, a V with its bottom near ε = (u·|L|)^{1/3}.
  const Problem p = random_problem({1, 33}, common.seed);
  const auto grads = rscan::backward(p.shape, p.a, p.h, p.dy);
  const double loss = rscan::log_cosh_loss(p.h, p.target);
  auto worst = [](const std::vector<double>& got, const std::vector<double>& expected) {
    double w = 0;
    for (std::size_t i = 0; i < got.size(); ++i) w = std::max(w, std::abs(got[i] - expected[i]));
    return std::max(w, 1e-17);  // an exact 0 cannot be drawn on a log scale
  };
  Series err_a{"dL/da", {}, {}, "linespoints lw 2 pt 7"}, err_b{"dL/db", {}, {}, "linespoints lw 2 pt 6"};
  Series rounding{"u·|L|/ε (rounding)", {}, {}, "lines lw 2 dt 2"};
  std::vector<std::vector<std::string>> rows;
  double error_at_step = 0;
  for (int e = -12; e <= -1; ++e) {
    const double step = std::pow(10.0, e);
    const auto fd = rscan::finite_differences(p.shape, p.a, p.b, p.target, step);
    const double a_error = worst(fd.grad_a, grads.grad_a), b_error = worst(fd.g, grads.g);
    if (std::abs(step / kStep - 1) < 1e-9) error_at_step = std::max(a_error, b_error);
    err_a.x.push_back(step);
    err_a.y.push_back(a_error);
    err_b.x.push_back(step);
    err_b.y.push_back(b_error);
    rounding.x.push_back(step);
    rounding.y.push_back(kUnitRoundoff * loss / step);
    rows.push_back({fmt::format("1e{}", e), fmt::format("{:.2e}", b_error), fmt::format("{:.2e}", a_error),
                    fmt::format("{:.2e}", kUnitRoundoff * loss / step)});
  }
  nb.text(
      fmt::format("The step: one sequence of 33 steps, L = {:.2f}; the largest error of the central difference "
                  "against the reverse pass, for every step ε.",
                  loss));
  nb.table({"ε", "dL/db", "dL/da", "u·|L|/ε"}, rows);
  const Tolerance tol = finite_difference_tolerance(loss);
  nb.check(fmt::format("at the checks' step ε = {:.0e} the error is inside the checks' atol", kStep),
           error_at_step <= tol.atol,
           fmt::format("largest error {:.2e}; atol {:.2e} = 1e-9 + 100·u·|L|/ε", error_at_step, tol.atol));
  nb.figure({"finite_difference_step",
             "Central difference: truncation against rounding",
             "step ε",
             "max |finite difference − reverse pass|",
             true,
             true,
             {err_b, err_a, rounding},
             {"set key inside bottom left"}});
}

void section_vanishing(Notebook& nb) {
  nb.section("Vanishing gradients, seen from the scan");
  nb.text("The loss sees only the last step (dy = 0 except dy_{L−1} = 1), a is constant: g_k = a^{L−1−k}.");
  const std::size_t length = 400;
  Figure fig{"gradient_vs_distance",
             "|g_k| against the distance L − 1 − k from the loss",
             "distance from the loss (steps)",
             "|g_k| = |dL/db_k|",
             false,
             true,
             {},
             {"set yrange [1e-20:1e3]", "set key inside right center"}};
  fig.markup = true;  // g_k, b_k
  std::vector<std::vector<std::string>> rows;
  for (double decay : {0.5, 0.9, 0.99, 1.0, 1.01}) {
    std::vector<double> a(length, decay), dy(length, 0.0);
    dy.back() = 1.0;
    const auto g = rscan::reverse_pass({1, length}, a, dy);
    Series s{fmt::format("a = {}", decay), {}, {}};
    std::string first_tiny = "never";
    for (std::size_t k = length; k-- > 0;) {
      const std::size_t distance = length - 1 - k;
      s.x.push_back(static_cast<double>(distance));
      s.y.push_back(std::abs(g[k]));
      if (first_tiny == "never" && std::abs(g[k]) < 1e-6) first_tiny = std::to_string(distance);
    }
    rows.push_back({fmt::format("{}", decay), fmt::format("{:.3e}", std::abs(g[length - 1 - 100])), first_tiny});
    fig.series.push_back(std::move(s));
  }
  nb.table({"a", "|g| 100 steps back", "first distance with |g| < 1e-6"}, rows);
  nb.figure(fig);
}

void section_warp_simulation(Notebook& nb, const common::CommonOptions& common, const Options& o) {
  nb.section("The warp reverse scan, shuffle-down step by step (a CPU simulation)");
  const std::size_t lanes = 8;
  const Problem p = random_problem({1, lanes}, common.seed);
  const auto steps = rscan::reverse_steps(p.a, p.dy);
  const auto trace = rscan::warp_reverse_scan_trace(steps);
  nb.text(fmt::format(
      "{} lanes; lane i holds the map (A, B) of steps i..i+span−1; B is g_i once the span reaches the end.", lanes));
  std::vector<std::vector<std::string>> rows;
  for (std::size_t s = 0; s < trace.size(); ++s) {
    std::vector<std::string> row{s == 0 ? "input" : fmt::format("delta {}", std::size_t(1) << (s - 1))};
    for (const auto& step : trace[s]) row.push_back(fmt::format("{:+.3f}", step.b));
    rows.push_back(row);
  }
  std::vector<std::string> header{"B after"};
  for (std::size_t i = 0; i < lanes; ++i) header.push_back(fmt::format("lane {}", i));
  nb.table(header, rows);
  std::vector<double> g;
  for (const auto& step : trace.back()) g.push_back(step.b);
  nb.check("the last stage's B is g (8 lanes)",
           common::compare(g, rscan::reverse_pass(p.shape, p.a, p.dy), {1e-14, 1e-12}));

  nb.text("The block version: chunks of 256 from the end, warps of 32, warp totals raked, g carried back.");
  for (std::size_t length : {std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(33), std::size_t(1000),
                             static_cast<std::size_t>(o.check_length)}) {
    const Problem q = random_problem({1, length}, common.seed + 1);
    const auto got = rscan::block_reverse_scan(rscan::reverse_steps(q.a, q.dy), rscan::kBlockThreads, 32);
    nb.check(fmt::format("block reverse scan simulation, L = {}", length),
             common::compare(got, rscan::reverse_pass(q.shape, q.a, q.dy), {1e-12, 1e-10}));
  }
}

std::vector<Shape> check_shapes(const Options& o) {
  return {{3, 1},
          {3, 2},
          {3, 31},
          {3, 33},
          {3, 257},
          {3, 1000},
          {2 * 5 * 16, 1000},
          {1000, 1},
          {1, static_cast<std::size_t>(o.check_length)}};
}

// One check line for a version and a gradient over many problems: their comparisons merged
// (all with the same tolerance), and on a failure the worst element named by its problem.
class MergedCheck {
 public:
  void add(const common::Comparison& c, const std::string& problem) {
    const std::size_t offset = total_.count;
    if (parts_.empty()) {
      total_ = c;
    } else {
      // Name the first failure; a non-finite element outranks one that is only out of tolerance.
      if (!c.ok && (total_.ok || (c.non_finite > 0 && total_.non_finite == 0))) {
        total_.worst_index = offset + c.worst_index;
        total_.worst_got = c.worst_got;
        total_.worst_expected = c.worst_expected;
      }
      total_.ok = total_.ok && c.ok;
      total_.count += c.count;
      total_.failures += c.failures;
      total_.non_finite += c.non_finite;
      total_.max_abs_error = std::max(total_.max_abs_error, c.max_abs_error);
      total_.max_rel_error = std::max(total_.max_rel_error, c.max_rel_error);
    }
    parts_.push_back({offset, problem});
  }
  void report(Notebook& nb, const std::string& what) const {
    nb.check(what, total_, [&](std::size_t i) {
      auto it = std::prev(std::upper_bound(parts_.begin(), parts_.end(), i,
                                           [](std::size_t v, const auto& part) { return v < part.first; }));
      return fmt::format("element {} of {}", i - it->first, it->second);
    });
  }

 private:
  common::Comparison total_;
  std::vector<std::pair<std::size_t, std::string>> parts_;  // (first element, problem)
};

// Every selected version against the fp64 reverse pass on the problems of a section, outputs
// poisoned first. The section prints one line per version and gradient, not one per problem.
class VersionChecks {
 public:
  // Runs every selected version on p; returns whether all of them matched.
  bool run(const Notebook& nb, const Problem& p, const std::string& when) {
    const auto expected = rscan::backward(p.shape, p.a, p.h, p.dy);
    rscan::GpuProblem gpu(p.shape, rscan::to_float(p.a), rscan::to_float(p.b), rscan::to_float(p.dy));
    const std::string problem = shape_name(p.shape) + when;
    bool ok = true;
    for (const auto& k : rscan::kKernels) {
      if (!common::kernel_selected(nb.options(), static_cast<int>(k.id))) continue;
      gpu.gradients(k.id);
      const auto grad_b = common::compare(gpu.grad_b(), expected.g, kGradB);
      const auto grad_a = common::compare(gpu.grad_a(), expected.grad_a, kGradA);
      ok &= grad_b.ok && grad_a.ok;
      auto& merged = merged_[static_cast<int>(k.id)];
      merged.first.add(grad_b, problem);
      merged.second.add(grad_a, problem);
    }
    return ok;
  }
  // `over` says what the lines cover, e.g. "9 problems".
  void report(Notebook& nb, const std::string& over) const {
    for (const auto& [id, merged] : merged_) {
      const std::string version = fmt::format("{} {}", id, rscan::kKernels[id - 1].name);
      merged.first.report(nb, fmt::format("{} dL/db, {}", version, over));
      merged.second.report(nb, fmt::format("{} dL/da, {}", version, over));
    }
  }

 private:
  std::map<int, std::pair<MergedCheck, MergedCheck>> merged_;  // by version: dL/db, dL/da
};

std::string shape_list(const std::vector<Shape>& shapes) {
  std::string list;
  for (Shape s : shapes) list += (list.empty() ? "" : ", ") + shape_name(s);
  return list;
}

void section_gpu_checks(Notebook& nb, const common::CommonOptions& common, const Options& o) {
  nb.section("Every GPU version against the fp64 reverse pass (sequences × length)");
  if (!nb.gpu()) return nb.gpu_skip("the GPU checks");
  const auto shapes = check_shapes(o);
  nb.value("problems", shape_list(shapes));
  VersionChecks checks;
  for (Shape shape : shapes) checks.run(nb, random_problem(shape, common.seed + shape.length), "");
  checks.report(nb, fmt::format("{} problems", shapes.size()));
}

void section_memory(Notebook& nb, const common::CommonOptions& common) {
  nb.section("Storing h or recomputing it: the memory kept and the bytes moved");
  const Shape shape{1024, 4096};
  std::vector<std::vector<std::string>> rows;
  for (rscan::Kernel k : {rscan::Kernel::block_reverse, rscan::Kernel::recompute_h}) {
    const auto& info = rscan::kKernels[static_cast<int>(k) - 1];
    rows.push_back({fmt::format("{} {}", static_cast<int>(k), info.name),
                    fmt::format("{:.3f}", rscan::bytes_kept_for_h(k, shape) / 1e6),
                    fmt::format("{:.1f}", double(rscan::bytes_moved_per_step(k, shape)) / shape.size()),
                    fmt::format("{:.1f}", double(rscan::bytes_moved_backward(k, shape)) / shape.size())});
  }
  nb.text(fmt::format("Model, for {} sequences × {} steps, fp32:", shape.sequences, shape.length));
  nb.table({"version", "MB kept for h", "bytes/step, forward + backward", "bytes/step, backward"}, rows);
  Figure fig{"memory_kept",
             "Memory kept for h between the passes (fp32)",
             "sequence length L (one sequence)",
             "bytes",
             true,
             true,
             {},
             {"set key inside top left"}};
  Series stored{"store every h (versions 1-3)", {}, {}}, kept{"one state per chunk of 256 (version 4)", {}, {}};
  for (int e = 0; e <= 20; ++e) {
    const Shape one{1, std::size_t(1) << e};
    stored.x.push_back(double(one.length));
    stored.y.push_back(double(rscan::bytes_kept_for_h(rscan::Kernel::block_reverse, one)));
    kept.x.push_back(double(one.length));
    kept.y.push_back(double(rscan::bytes_kept_for_h(rscan::Kernel::recompute_h, one)));
  }
  fig.series = {stored, kept};
  nb.figure(fig);

  if (!nb.gpu()) return nb.gpu_skip("the measured allocations and timings");
  // Measured: the device's free memory before and after each way of keeping h.
  const Problem p = random_problem(shape, common.seed);
  rscan::GpuProblem gpu(p.shape, rscan::to_float(p.a), rscan::to_float(p.b), rscan::to_float(p.dy));
  auto free_bytes = [] {
    std::size_t free = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return free;
  };
  const std::size_t before_h = free_bytes();
  gpu.gradients(rscan::Kernel::block_reverse);
  const std::size_t after_h = free_bytes();
  gpu.gradients(rscan::Kernel::recompute_h);
  const std::size_t after_checkpoints = free_bytes();
  nb.value("device memory taken by the stored h (measured)",
           fmt::format("{:.3f} MB", double(before_h - after_h) / 1e6));
  nb.value("device memory taken by the checkpoints (measured)",
           fmt::format("{:.3f} MB (cudaMalloc works in pages of about 2 MB: a small array reads as one page or none)",
                       double(after_h - after_checkpoints) / 1e6));
  common::GpuTimer timer({2, 10, true});
  const auto stored_step = timer.time([&] {
    gpu.store_h();
    gpu.backward(rscan::Kernel::block_reverse);
  });
  const auto recomputed_step = timer.time([&] { gpu.backward(rscan::Kernel::recompute_h); });
  nb.value("forward storing h + version 3", fmt::format("{:.3f} ms (median)", stored_step.median_ms));
  nb.value("version 4 (its own forward pass included)", fmt::format("{:.3f} ms (median)", recomputed_step.median_ms));
  VersionChecks after_timing;
  after_timing.run(nb, p, ", after timing");
  after_timing.report(nb, shape_name(shape) + ", after timing");
}

void section_benchmark(Notebook& nb, const common::CommonOptions& common) {
  nb.section("Throughput against a copy, measured in the same run");
  if (!nb.gpu()) return nb.gpu_skip("the benchmark");
  const bool bench = common.bench;
  const std::size_t total = std::size_t(1) << (bench ? 25 : 22);
  std::vector<std::size_t> lengths{256, 4096, 65536};
  if (bench) lengths = {64, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20};
  common::ResultsCsv csv(nb.out_dir() + "/benchmark.csv", common::gpu_status().device.name, nb.date(),
                         {"version", "sequences", "length", "median_ms", "GBps", "copy_GBps", "percent_of_copy"});
  common::GpuTimer timer({2, bench ? 15 : 5, true});
  std::vector<Series> series;
  for (const auto& k : rscan::kKernels) series.push_back({legend_name(k), {}, {}, "linespoints lw 2 pt 7"});
  Series copy{"copy (same bytes)", {}, {}, "lines lw 2 dt 2"};
  std::vector<std::vector<std::string>> rows;
  VersionChecks checks;
  for (std::size_t length : lengths) {
    const Shape shape{total / length, length};
    const Problem p = random_problem(shape, common.seed + length);
    if (!checks.run(nb, p, ", before timing")) continue;
    rscan::GpuProblem gpu(p.shape, rscan::to_float(p.a), rscan::to_float(p.b), rscan::to_float(p.dy));
    gpu.store_h();
    const double copy_gbps =
        common::measure_copy_bandwidth(rscan::bytes_moved_backward(rscan::Kernel::block_reverse, shape) / 2);
    copy.x.push_back(double(length));
    copy.y.push_back(copy_gbps);
    for (const auto& k : rscan::kKernels) {
      // One thread walking a long sequence takes seconds: version 1 only where it is short.
      if (k.id == rscan::Kernel::sequential && length > 4096) continue;
      if (!common::kernel_selected(common, static_cast<int>(k.id))) continue;
      const auto t = timer.time([&] { gpu.backward(k.id); });
      const double gbps = double(rscan::bytes_moved_backward(k.id, shape)) / (t.median_ms * 1e-3) / 1e9;
      series[static_cast<int>(k.id) - 1].x.push_back(double(length));
      series[static_cast<int>(k.id) - 1].y.push_back(gbps);
      rows.push_back({fmt::format("{} {}", static_cast<int>(k.id), k.name), shape_name(shape), fixed(t.median_ms, 3),
                      fmt::format("{:.0f}", gbps), fmt::format("{:.0f}", copy_gbps),
                      fmt::format("{:.0f}%", 100 * gbps / copy_gbps)});
      csv.row({std::to_string(static_cast<int>(k.id)), std::to_string(shape.sequences), std::to_string(length),
               fixed(t.median_ms, 4), fmt::format("{:.1f}", gbps), fmt::format("{:.1f}", copy_gbps),
               fmt::format("{:.1f}", 100 * gbps / copy_gbps)});
    }
    checks.run(nb, p, ", after timing");
  }
  checks.report(nb, fmt::format("{} shapes, before and after timing", lengths.size()));
  nb.table({"version", "sequences × length", "median ms", "GB/s", "copy GB/s", "of copy"}, rows);
  series.push_back(copy);
  nb.figure({"throughput",
             fmt::format("Reverse pass throughput, {} steps in all (fp32)", total),
             "sequence length L (sequences = total / L)",
             "GB/s",
             true,
             false,
             series,
             {"set offsets 0, 0, graph 0.1, 0"}});  // the copy's line clear of the top
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  return common::run_chapter(
      {"ch07_reverse_scan", "Chapter 07 · The reverse scan: the gradient of the recurrence", rscan::kKernelCount}, argc,
      argv,
      [&](CLI::App& app) {
        app.add_option("--check-length", o.check_length,
                       "Longest sequence of the checks (with 1, 2, 31, 33, 1000, ...)")
            ->check(common::integer_in(1, 1 << 26))
            ->capture_default_str();
      },
      [&](Notebook& nb) {
        // Before any work: the longest check holds its problem in fp64 (a, b, target, h, dy) and
        // either the simulation's steps and results or the fp64 gradients and the fp32 copies
        // sent to the GPU: at most about 72 bytes an element.
        common::require_host_memory(72.0 * double(o.check_length), "--check-length");
        section_small_example(nb, nb.options());
        section_finite_differences(nb, nb.options());
        section_vanishing(nb);
        section_warp_simulation(nb, nb.options(), o);
        section_gpu_checks(nb, nb.options(), o);
        section_memory(nb, nb.options());
        section_benchmark(nb, nb.options());
      });
}
