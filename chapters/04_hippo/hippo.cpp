#include "hippo.hpp"

#include "legendre.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hippo {
namespace {

// g_n(x) = √(2n + 1) P_n(x) for n = 0 .. N−1.
Vector scaled_legendre(int N, double x) {
  const auto p = legendre_values(N, x);
  Vector g(N);
  for (int n = 0; n < N; ++n) g[n] = std::sqrt(2.0 * n + 1) * p[n];
  return g;
}

// (1/2) ∫_{−1}^{1} f(x) g(x) dx for every g_n, with f given on [−1, 1].
Vector project(const std::function<double(double)>& f_of_x, int N, int points) {
  const Quadrature q = gauss_legendre(points);
  Vector c = Vector::Zero(N);
  for (int i = 0; i < points; ++i) c += 0.5 * q.weights[i] * f_of_x(q.nodes[i]) * scaled_legendre(N, q.nodes[i]);
  return c;
}

std::vector<int> steps_to_report(std::vector<int> report_at, int length) {
  if (report_at.empty()) report_at.push_back(length);
  if (!std::is_sorted(report_at.begin(), report_at.end()) || report_at.front() < 1 || report_at.back() > length)
    throw std::invalid_argument("report_at: steps must ascend within 1 .. length");
  return report_at;
}

}  // namespace

const char* name(LegsStep step) { return step == LegsStep::euler ? "forward Euler" : "bilinear (t = k − ½)"; }

Operator legt(int N, double theta) {
  Operator op{Matrix(N, N), Vector(N)};
  for (int n = 0; n < N; ++n) {
    op.B[n] = std::sqrt(2.0 * n + 1) / theta;
    for (int k = 0; k < N; ++k) {
      const double sign = n >= k || (k - n) % 2 == 0 ? 1.0 : -1.0;
      op.A(n, k) = -std::sqrt((2.0 * n + 1) * (2.0 * k + 1)) / theta * sign;
    }
  }
  return op;
}

// [snippet:nplr]
NormalPlusLowRank legs_normal_plus_low_rank(int N) {
  Vector P(N);
  for (int n = 0; n < N; ++n) P[n] = std::sqrt(n + 0.5);
  // A + P Pᵀ: below the diagonal −√((2n+1)(2k+1)) + ½√((2n+1)(2k+1)) = −½√(...),
  // on it −(n + 1) + (n + ½) = −½, above it 0 + ½√(...): −½ I plus a skew-symmetric matrix.
  return {legs(N).A + P * P.transpose(), P};
}
// [/snippet:nplr]

Vector legs_projection(const std::function<double(double)>& f, double t, int N, int points) {
  return project([&](double x) { return f(t * (x + 1) / 2); }, N, points);
}

Vector legt_projection(const std::function<double(double)>& f, double t, double theta, int N, int points) {
  return project([&](double x) { return f(t + theta * (x - 1) / 2); }, N, points);
}

// [snippet:legs_online]
std::vector<Vector> legs_online(int N, std::span<const double> f, LegsStep step, std::vector<int> report_at) {
  const int length = static_cast<int>(f.size());
  report_at = steps_to_report(std::move(report_at), length);
  const Operator op = legs(N);
  const Matrix I = Matrix::Identity(N, N);
  Vector c = Vector::Zero(N);
  std::vector<Vector> states;
  auto next_report = report_at.begin();
  for (int k = 1; k <= length; ++k) {
    const double f_k = f[k - 1];
    if (step == LegsStep::euler) {
      c = c + (op.A * c + op.B * f_k) / k;
    } else {
      // A is lower triangular, so (I − A/(2k−1)) is too: one forward substitution per step.
      const double h = 1.0 / (2 * k - 1);
      const Vector rhs = c + h * (op.A * c) + 2 * h * op.B * f_k;
      const Matrix lhs = I - h * op.A;
      c = lhs.triangularView<Eigen::Lower>().solve(rhs);
    }
    if (next_report != report_at.end() && *next_report == k) {
      states.push_back(c);
      ++next_report;
    }
  }
  return states;
}
// [/snippet:legs_online]

Vector legs_projection_of_samples(int N, std::span<const double> f, int k) {
  // c_n = (1/k) Σ_j f_j ∫_{j−1}^{j} g_n(2s/k − 1) ds = ½ Σ_j f_j √(2n+1) ∫_{x_{j−1}}^{x_j} P_n dx.
  Vector c = Vector::Zero(N);
  std::vector<double> lower = legendre_integrals(N, -1.0);
  for (int j = 1; j <= k; ++j) {
    const std::vector<double> upper = legendre_integrals(N, 2.0 * j / k - 1);
    for (int n = 0; n < N; ++n) c[n] += 0.5 * f[j - 1] * std::sqrt(2.0 * n + 1) * (upper[n] - lower[n]);
    lower = upper;
  }
  return c;
}

Discrete bilinear(const Operator& op, double dt) {
  const int N = static_cast<int>(op.A.rows());
  const Matrix I = Matrix::Identity(N, N);
  const auto lu = (I - dt / 2 * op.A).partialPivLu();
  return {lu.solve(I + dt / 2 * op.A), lu.solve(dt * op.B)};
}

std::vector<Vector> legt_online(const Discrete& d, std::span<const double> f, std::vector<int> report_at) {
  const int length = static_cast<int>(f.size());
  report_at = steps_to_report(std::move(report_at), length);
  Vector c = Vector::Zero(d.B_bar.size());
  std::vector<Vector> states;
  auto next_report = report_at.begin();
  for (int k = 1; k <= length; ++k) {
    c = d.A_bar * c + d.B_bar * f[k - 1];
    if (next_report != report_at.end() && *next_report == k) {
      states.push_back(c);
      ++next_report;
    }
  }
  return states;
}

std::vector<double> legs_reconstruction(const Vector& c, int k) {
  std::vector<double> f(k);
  for (int j = 1; j <= k; ++j) f[j - 1] = legendre_reconstruct(std::span(c.data(), c.size()), (2 * j - 1.0) / k - 1);
  return f;
}

std::vector<double> legt_reconstruction(const Vector& c, double theta, int k) {
  const int window = std::min(k, static_cast<int>(theta));
  std::vector<double> f(window);
  for (int i = 0; i < window; ++i) {
    const double s = k - window + i + 0.5;  // middle of sample k − window + i + 1
    f[i] = legendre_reconstruct(std::span(c.data(), c.size()), 2 * (s - k) / theta + 1);
  }
  return f;
}

double relative_rms_error(std::span<const double> got, std::span<const double> expected) {
  if (got.size() != expected.size() || got.empty()) throw std::invalid_argument("relative_rms_error: sizes differ");
  double error = 0, norm = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    error += (got[i] - expected[i]) * (got[i] - expected[i]);
    norm += expected[i] * expected[i];
  }
  return std::sqrt(error / norm);
}

}  // namespace hippo
