// Chapter 06's sections on the recurrence itself: the EMA as h_k = a_k h_{k-1} + b_k, the
// associative pair operator that makes it a scan, and how fast the EMA forgets.
#include "pair.hpp"
#include "reference.hpp"
#include "sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace ch06 {

using common::Figure;
using common::Series;

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

}  // namespace ch06
