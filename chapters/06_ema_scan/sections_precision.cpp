// Chapter 06's sections on fp32: the error of the loop and of the tree against L, and the
// product of the a's underflowing.
#include "benchmark_sweep.hpp"
#include "reference.hpp"
#include "sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace ch06 {

using common::Figure;
using common::Series;

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
    std::vector<std::string> row{common::power_of_two_label(n)};
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

}  // namespace ch06
