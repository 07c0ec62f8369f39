// Chapter 07's sections that run on the CPU: the gradient of a short sequence and of awkward
// sizes against finite differences (and the step they need), vanishing gradients seen from
// the scan, and the warp's and the block's reverse scans simulated step by step.
#include "reverse_kernels.hpp"
#include "scan_simulation.hpp"
#include "sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace ch07 {

using common::Figure;
using common::Series;

namespace {

// fp64 against fp64 finite differences. A central difference (L(θ+ε) − L(θ−ε)) / 2ε carries
// the rounding error of L divided by ε, about u·|L|/ε (u = 2^-53), and a truncation error of
// about ε²/6 times a third derivative of L. Section [2] measures both against ε; at the step
// below the two are of the same size, and the atol allows a hundred times the rounding.
constexpr double kStep = 1e-5;
constexpr double kUnitRoundoff = 0x1p-53;
Tolerance finite_difference_tolerance(double loss) {
  return {1e-9 + 100 * kUnitRoundoff * std::abs(loss) / kStep, 1e-6};
}

// Adding +0 turns −0 (from a product with h_{−1} = 0) into 0, so the tables print no "-0.0000".
std::string fixed(double v, int digits = 4) { return fmt::format("{:.{}f}", v + 0.0, digits); }

}  // namespace

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

}  // namespace ch07
