#include "reference.hpp"

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace scan {

// [snippet:reference]
std::vector<double> inclusive_scan_reference(std::span<const float> x) {
  std::vector<double> y(x.size());
  double running = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    running += x[k];
    y[k] = running;
  }
  return y;
}
// [/snippet:reference]

std::vector<float> inclusive_scan_fp32(std::span<const float> x) {
  std::vector<float> y(x.size());
  float running = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    running += x[k];
    y[k] = running;
  }
  return y;
}

double max_abs_prefix(std::span<const float> x) {
  double running = 0, largest = 0;
  for (float v : x) {
    running += v;
    largest = std::max(largest, std::abs(running));
  }
  return largest;
}

std::vector<float> integer_input(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> x(n);
  // A zero-mean walk: its partial sums grow like sqrt(n), about 2·10^4 at n = 2^28.
  for (float& v : x) v = static_cast<float>(static_cast<int>(rng() % 7) - 3);
  if (max_abs_prefix(x) >= kExactLimit)
    throw std::runtime_error("integer_input: a partial sum reached 2^23 (n = " + std::to_string(n) +
                             "); fp32 would no longer hold every partial sum exactly: choose another --seed");
  return x;
}

std::vector<float> uniform_input(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<float> x(n);
  for (float& v : x) v = uniform(rng);
  return x;
}

}  // namespace scan
