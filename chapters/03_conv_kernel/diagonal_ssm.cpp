#include "diagonal_ssm.hpp"

#include "phi1.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

namespace conv {

// [snippet:zoh]
Discretized discretize_zoh(const DiagonalSsm& ssm, double delta) {
  if (!(delta > 0)) throw std::invalid_argument("discretize_zoh: the step Δ must be positive");
  const std::size_t N = ssm.A.size();
  if (ssm.B.size() != N || ssm.C.size() != N) throw std::invalid_argument("discretize_zoh: A, B, C sizes differ");
  Discretized d{std::vector<complex>(N), std::vector<complex>(N), ssm.C};
  for (std::size_t n = 0; n < N; ++n) {
    const complex z = delta * ssm.A[n];
    d.A_bar[n] = std::exp(z);
    d.B_bar[n] = delta * common::phi1(z) * ssm.B[n];  // = Δ (exp(ΔA) − 1)/(ΔA) · B, without cancellation
  }
  return d;
}
// [/snippet:zoh]

std::vector<double> ssm_kernel_by_powers(const Discretized& d, int length) {
  std::vector<double> K(length, 0.0);
  for (std::size_t n = 0; n < d.A_bar.size(); ++n) {
    complex power_times_B = d.B_bar[n];  // Ā_n^ℓ B̄_n
    for (int l = 0; l < length; ++l) {
      // Past 1e-290 the powers only sink into fp64's subnormal range, where every operation
      // is many times slower and adds nothing a sum of normal numbers could notice.
      if (std::abs(power_times_B) < 1e-290) break;
      K[l] += (d.C[n] * power_times_B).real();
      power_times_B *= d.A_bar[n];
    }
  }
  return K;
}

// [snippet:recurrence]
std::vector<double> run_recurrence(const Discretized& d, const std::vector<double>& x) {
  std::vector<complex> h(d.A_bar.size(), 0.0);
  std::vector<double> y(x.size());
  for (std::size_t t = 0; t < x.size(); ++t) {
    complex out = 0.0;
    for (std::size_t n = 0; n < h.size(); ++n) {
      h[n] = d.A_bar[n] * h[n] + d.B_bar[n] * x[t];  // every state is its own scalar recurrence
      out += d.C[n] * h[n];
    }
    y[t] = out.real();
  }
  return y;
}
// [/snippet:recurrence]

DiagonalSsm random_diagonal_ssm(int states, double decay_min, double decay_max, double max_frequency,
                                std::uint64_t seed) {
  if (states < 2 || states % 2 != 0) throw std::invalid_argument("random_diagonal_ssm: states must be even");
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> decay(decay_min, decay_max), frequency(0.0, max_frequency);
  std::normal_distribution<double> normal(0.0, 1.0 / std::sqrt(double(states)));
  DiagonalSsm ssm;
  for (int k = 0; k < states / 2; ++k) {
    const complex a(-decay(rng), frequency(rng));
    const complex c(normal(rng), normal(rng));
    ssm.A.insert(ssm.A.end(), {a, std::conj(a)});
    ssm.B.insert(ssm.B.end(), {1.0, 1.0});
    ssm.C.insert(ssm.C.end(), {c, std::conj(c)});
  }
  return ssm;
}

std::vector<double> random_signal(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> x(count);
  for (double& v : x) v = normal(rng);
  return x;
}

}  // namespace conv
