#include "reference.hpp"

#include "bptt.hpp"

#include <Eigen/Dense>

#include <cmath>
#include <random>
#include <stdexcept>

namespace rnn {
namespace {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

Matrix matrix_of(const std::vector<double>& row_major, int n) {
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(row_major.data(), n,
                                                                                                  n);
}

Vector vector_of(const std::vector<double>& v) { return Eigen::Map<const Vector>(v.data(), Eigen::Index(v.size())); }

std::vector<double> to_std(const Vector& v) { return {v.data(), v.data() + v.size()}; }

double activate(Activation f, double a) { return f == Activation::tanh ? std::tanh(a) : a; }

// f'(a) written through h = f(a): tanh' = 1 − h², identity' = 1.
Vector activation_slope(Activation f, const Vector& h) {
  return f == Activation::tanh ? Vector((1.0 - h.array().square()).matrix()) : Vector::Ones(h.size());
}

// One sequence, every hidden state: row t + 1 holds h_t.
std::vector<Vector> states(const Weights& w, const Sequences& s, int b, Activation f, const Vector& h_initial) {
  const Matrix W = matrix_of(w.W, w.hidden);
  const Vector u = vector_of(w.u);
  std::vector<Vector> h{h_initial};
  for (int t = 0; t < s.length; ++t) {
    Vector a = W * h.back() + u * s.x[at(t, b, s.batch)];
    h.push_back(a.unaryExpr([f](double v) { return activate(f, v); }));
  }
  return h;
}

Vector initial_or_zero(const Weights& w, const std::vector<double>& h_initial) {
  return h_initial.empty() ? Vector::Zero(w.hidden) : vector_of(h_initial);
}

// ∂h_t/∂x_0 for t = 0 .. L−1: first f'(a_0) ⊙ u, then each step multiplies by its
// Jacobian diag(f'(a_t)) W.
std::vector<Vector> influence_vectors(const Weights& w, const Sequences& s, int b, Activation f) {
  const Matrix W = matrix_of(w.W, w.hidden);
  const std::vector<Vector> h = states(w, s, b, f, Vector::Zero(w.hidden));
  std::vector<Vector> v{activation_slope(f, h[1]).cwiseProduct(vector_of(w.u))};
  for (int t = 1; t < s.length; ++t) v.push_back(activation_slope(f, h[t + 1]).cwiseProduct(W * v.back()));
  return v;
}

// ∂h_t/∂h_{-1} for t = 0 .. steps−1, by the chain rule: a product of step Jacobians.
std::vector<Matrix> step_jacobians(const Weights& w, const Sequences& s, int b, Activation f,
                                   const std::vector<double>& h_initial, int steps) {
  const Matrix W = matrix_of(w.W, w.hidden);
  const std::vector<Vector> h = states(w, s, b, f, initial_or_zero(w, h_initial));
  std::vector<Matrix> J;
  Matrix product = Matrix::Identity(w.hidden, w.hidden);
  for (int t = 0; t < steps; ++t) {
    product = activation_slope(f, h[t + 1]).asDiagonal() * W * product;
    J.push_back(product);
  }
  return J;
}

}  // namespace

const char* name(Activation f) { return f == Activation::tanh ? "tanh" : "linear"; }

double spectral_radius(const std::vector<double>& matrix, int n) {
  return matrix_of(matrix, n).eigenvalues().cwiseAbs().maxCoeff();
}

double spectral_norm(const std::vector<double>& matrix, int n) {
  return Eigen::JacobiSVD<Matrix>(matrix_of(matrix, n)).singularValues()(0);
}

Weights random_weights(int hidden, double radius, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  Weights w;
  w.hidden = hidden;
  w.W.resize(std::size_t(hidden) * hidden);
  for (double& v : w.W) v = normal(rng);
  const double scale = radius / spectral_radius(w.W, hidden);
  for (double& v : w.W) v *= scale;
  const double sigma = 1.0 / std::sqrt(double(hidden));
  w.u.resize(hidden);
  w.c.resize(hidden);
  for (double& v : w.u) v = sigma * normal(rng);
  for (double& v : w.c) v = sigma * normal(rng);
  return w;
}

Sequences random_sequences(int batch, int length, std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x5eed5eed5eed5eedULL);
  std::normal_distribution<double> normal(0.0, 1.0);
  Sequences s{batch, length, std::vector<double>(std::size_t(batch) * length)};
  for (double& v : s.x) v = normal(rng);
  return s;
}

// [snippet:run_cpu]
template <class Scalar>
Result run_cpu(const Weights& w, const Sequences& s, Activation f) {
  using M = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using V = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  const int H = w.hidden, B = s.batch;
  const M W = matrix_of(w.W, H).cast<Scalar>();
  const V u = vector_of(w.u).cast<Scalar>();
  const Eigen::Matrix<Scalar, 1, Eigen::Dynamic> c = vector_of(w.c).cast<Scalar>().transpose();
  M h = M::Zero(H, B);  // column b = the state of sequence b
  Result r{std::vector<double>(std::size_t(s.length) * B), {}};
  Eigen::Matrix<Scalar, 1, Eigen::Dynamic> x(B), y(B);
  for (int t = 0; t < s.length; ++t) {
    for (int b = 0; b < B; ++b) x[b] = static_cast<Scalar>(s.x[at(t, b, B)]);
    M a = W * h + u * x;  // the whole batch in one matrix product
    h = f == Activation::tanh ? M(a.array().tanh()) : a;
    y = c * h;
    for (int b = 0; b < B; ++b) r.y[at(t, b, B)] = static_cast<double>(y[b]);
  }
  r.h_final.resize(std::size_t(B) * H);
  for (int b = 0; b < B; ++b)
    for (int j = 0; j < H; ++j) r.h_final[std::size_t(b) * H + j] = static_cast<double>(h(j, b));
  return r;
}
// [/snippet:run_cpu]

template Result run_cpu<double>(const Weights&, const Sequences&, Activation);
template Result run_cpu<float>(const Weights&, const Sequences&, Activation);

Result run_reference_prefix(const Weights& w, const Sequences& s, Activation f, int count) {
  if (count > s.batch) throw std::invalid_argument("run_reference_prefix: count > batch");
  Sequences prefix{count, s.length, std::vector<double>(std::size_t(count) * s.length)};
  for (int t = 0; t < s.length; ++t)
    for (int b = 0; b < count; ++b) prefix.x[at(t, b, count)] = s.x[at(t, b, s.batch)];
  return run_cpu<double>(w, prefix, f);
}

std::vector<std::vector<double>> trajectory(const Weights& w, const Sequences& s, int b, Activation f,
                                            const std::vector<double>& h_initial) {
  std::vector<std::vector<double>> out;
  for (const Vector& h : states(w, s, b, f, initial_or_zero(w, h_initial))) out.push_back(to_std(h));
  return out;
}

std::vector<double> input_influence_vector(const Weights& w, const Sequences& s, int b, Activation f, int t) {
  return to_std(influence_vectors(w, s, b, f).at(t));
}

std::vector<double> input_influence(const Weights& w, const Sequences& s, int b, Activation f) {
  std::vector<double> norms;
  for (const Vector& v : influence_vectors(w, s, b, f)) norms.push_back(v.norm());
  return norms;
}

std::vector<double> input_influence_finite_differences(const Weights& w, const Sequences& s, int b, Activation f, int t,
                                                       double eps) {
  Sequences plus = s, minus = s;
  plus.x[at(0, b, s.batch)] += eps;
  minus.x[at(0, b, s.batch)] -= eps;
  const Vector hp = states(w, plus, b, f, Vector::Zero(w.hidden))[t + 1];
  const Vector hm = states(w, minus, b, f, Vector::Zero(w.hidden))[t + 1];
  return to_std((hp - hm) / (2 * eps));
}

std::vector<double> jacobian(const Weights& w, const Sequences& s, int b, Activation f,
                             const std::vector<double>& h_initial, int t) {
  const Matrix J = step_jacobians(w, s, b, f, h_initial, t + 1).back();
  std::vector<double> out(std::size_t(w.hidden) * w.hidden);
  Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(out.data(), w.hidden, w.hidden) =
      J;
  return out;
}

std::vector<double> jacobian_finite_differences(const Weights& w, const Sequences& s, int b, Activation f,
                                                const std::vector<double>& h_initial, int t, double eps) {
  const int H = w.hidden;
  const Vector h0 = initial_or_zero(w, h_initial);
  std::vector<double> out(std::size_t(H) * H);
  for (int k = 0; k < H; ++k) {
    Vector plus = h0, minus = h0;
    plus[k] += eps;
    minus[k] -= eps;
    const Vector column = (states(w, s, b, f, plus)[t + 1] - states(w, s, b, f, minus)[t + 1]) / (2 * eps);
    for (int j = 0; j < H; ++j) out[std::size_t(j) * H + k] = column[j];
  }
  return out;
}

std::vector<double> jacobian_norms(const Weights& w, const Sequences& s, int b, Activation f,
                                   const std::vector<double>& h_initial) {
  std::vector<double> norms;
  for (const Matrix& J : step_jacobians(w, s, b, f, h_initial, s.length))
    norms.push_back(Eigen::JacobiSVD<Matrix>(J).singularValues()(0));
  return norms;
}

double weighted_output_sum(const Weights& w, const std::vector<double>& x, const std::vector<double>& g,
                           const std::vector<double>& h_initial) {
  const int L = static_cast<int>(x.size());
  const auto h = trajectory(w, Sequences{1, L, x}, 0, Activation::tanh, h_initial);
  double loss = 0;
  for (int t = 0; t < L; ++t) loss += g[t] * vector_of(w.c).dot(vector_of(h[t + 1]));
  return loss;
}

}  // namespace rnn
