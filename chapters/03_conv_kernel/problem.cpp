#include "problem.hpp"

#include "diagonal_ssm.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace conv {

ConvProblem random_problem(int batch, int channels, int n, std::uint64_t seed) {
  ConvProblem p{batch, channels, n, random_signal(std::size_t(channels) * n, seed),
                random_signal(std::size_t(batch) * channels * n, seed + 1)};
  for (double& v : p.t) v /= std::sqrt(double(n));
  return p;
}

ConvProblem ssm_problem(int batch, int channels, int n, std::uint64_t seed) {
  ConvProblem p{batch, channels, n, {}, random_signal(std::size_t(batch) * channels * n, seed + 1)};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> log_delta(std::log(1e-3), std::log(1e-1));
  p.t.reserve(std::size_t(channels) * n);
  for (int c = 0; c < channels; ++c) {
    const auto ssm = random_diagonal_ssm(16, 0.5, 10.0, 20.0, seed + 100 + c);
    const auto K = ssm_kernel_by_powers(discretize_zoh(ssm, std::exp(log_delta(rng))), n);
    p.t.insert(p.t.end(), K.begin(), K.end());
  }
  return p;
}

common::Tolerance fp32_tolerance(const std::vector<double>& reference, int n) {
  double largest = 0;
  for (double v : reference) largest = std::max(largest, std::abs(v));
  return {1e-5 * std::max(1.0, std::log2(double(n))) * largest, 1e-4};
}

}  // namespace conv
