#include "reference.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

namespace ema {

Problem random_problem(std::size_t batch, std::size_t length, double a_lo, double a_hi, std::uint64_t seed) {
  if (!(a_lo <= a_hi)) throw std::invalid_argument("random_problem: a_lo must not exceed a_hi");
  Problem p{batch, length, std::vector<float>(batch * length), std::vector<float>(batch * length)};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> da(a_lo, a_hi), db(-1.0, 1.0);
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.a[i] = static_cast<float>(a_lo == a_hi ? a_lo : da(rng));
    p.b[i] = static_cast<float>(db(rng));
  }
  return p;
}

Problem ema_problem(double alpha, std::span<const float> x) {
  Problem p{1, x.size(), std::vector<float>(x.size(), static_cast<float>(alpha)), std::vector<float>(x.size())};
  for (std::size_t k = 0; k < x.size(); ++k) p.b[k] = static_cast<float>((1.0 - alpha) * x[k]);
  return p;
}

// [snippet:reference]
std::vector<double> recurrence_reference(const Problem& p) {
  std::vector<double> h(p.size());
  for (std::size_t s = 0; s < p.batch; ++s) {
    double state = 0;
    for (std::size_t k = s * p.length; k < (s + 1) * p.length; ++k)
      h[k] = state = double(p.a[k]) * state + double(p.b[k]);
  }
  return h;
}
// [/snippet:reference]

std::vector<float> recurrence_fp32(const Problem& p) {
  std::vector<float> h(p.size());
  for (std::size_t s = 0; s < p.batch; ++s) {
    float state = 0;
    for (std::size_t k = s * p.length; k < (s + 1) * p.length; ++k) h[k] = state = p.a[k] * state + p.b[k];
  }
  return h;
}

namespace {
// Scans pairs[lo, hi) in place, as a balanced tree.
void tree_scan(std::vector<Pair<float>>& pairs, std::size_t lo, std::size_t hi) {
  if (hi - lo < 2) return;
  const std::size_t mid = lo + (hi - lo) / 2;
  tree_scan(pairs, lo, mid);
  tree_scan(pairs, mid, hi);
  const Pair<float> left_total = pairs[mid - 1];
  for (std::size_t k = mid; k < hi; ++k) pairs[k] = combine(left_total, pairs[k]);
}
}  // namespace

std::vector<float> recurrence_tree_fp32(const Problem& p) {
  std::vector<float> h(p.size());
  for (std::size_t s = 0; s < p.batch; ++s) {
    std::vector<Pair<float>> pairs(p.length);
    for (std::size_t k = 0; k < p.length; ++k) pairs[k] = {p.a[s * p.length + k], p.b[s * p.length + k]};
    tree_scan(pairs, 0, p.length);
    // h_k = A_k·h_{-1} + B_k with h_{-1} = 0: the b half of the inclusive scan.
    for (std::size_t k = 0; k < p.length; ++k) h[s * p.length + k] = pairs[k].b;
  }
  return h;
}

std::vector<float> running_product_fp32(std::span<const float> a) {
  std::vector<float> product(a.size());
  float running = 1;
  for (std::size_t k = 0; k < a.size(); ++k) product[k] = running *= a[k];
  return product;
}

std::vector<double> running_product_fp64(std::span<const float> a) {
  std::vector<double> product(a.size());
  double running = 1;
  for (std::size_t k = 0; k < a.size(); ++k) product[k] = running *= double(a[k]);
  return product;
}

double ema_impulse_response(double alpha, std::size_t k) { return (1.0 - alpha) * std::pow(alpha, double(k)); }

}  // namespace ema
