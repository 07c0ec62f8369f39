// HiPPO: a state that holds the Legendre coefficients of the input's history (fp64, Eigen).
//
// Both operators keep c(t) = the coefficients of the input f projected onto scaled and
// shifted Legendre polynomials g_n(x) = √(2n + 1) P_n(x), under a uniform measure:
//   LegS  over the whole history [0, t]:     dc/dt = (1/t) (A c + B f(t))
//   LegT  over a sliding window [t − θ, t]:  dc/dt = A c + B f(t)
// The signs follow S4: A is stable (its eigenvalues have negative real parts).
#pragma once

#include <Eigen/Dense>

#include <functional>
#include <span>
#include <vector>

namespace hippo {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

struct Operator {
  Matrix A;
  Vector B;
};

// A_nk = −√((2n+1)(2k+1)) (n > k), −(n + 1) (n = k), 0 (n < k);  B_n = √(2n + 1).
// Exercise 2 (exercises/hippo_legs.cpp).
Operator legs(int N);

// A_nk = −√((2n+1)(2k+1)) / θ · (1 if n ≥ k, (−1)^(n−k) if n < k);  B_n = √(2n + 1) / θ.
Operator legt(int N, double theta);

// LegS as a normal matrix minus a rank-one term, A = A_normal − P Pᵀ with P_n = √(n + ½):
// A_normal = −½ I + S, S skew-symmetric, so every eigenvalue of A_normal is −½ + iω.
struct NormalPlusLowRank {
  Matrix normal;
  Vector P;
};
NormalPlusLowRank legs_normal_plus_low_rank(int N);

// The coefficients themselves, by quadrature (Gauss–Legendre, exact for polynomials of
// degree < 2·points): LegS at time t, c_n = (1/t) ∫_0^t f(s) g_n(2s/t − 1) ds; LegT with
// window θ, c_n = (1/θ) ∫_{t−θ}^t f(s) g_n(2(s − t)/θ + 1) ds.
Vector legs_projection(const std::function<double(double)>& f, double t, int N, int points = 200);
Vector legt_projection(const std::function<double(double)>& f, double t, double theta, int N, int points = 200);

// Online LegS over samples f_1 .. f_L, where f_k is the input's value on ((k−1), k] in units
// of samples. Each step k applies one of (with A, B from legs(N), c_0 = 0):
//   euler     c_k = (I + A/k) c_{k−1} + (1/k) B f_k                        (the HiPPO paper's form)
//   bilinear  (I − A/(2k − 1)) c_k = (I + A/(2k − 1)) c_{k−1} + 2/(2k − 1) B f_k
//             (the trapezoidal rule with 1/t frozen at the middle of the step, t = k − ½)
enum class LegsStep { euler, bilinear };
const char* name(LegsStep step);
// The state after every step in `report_at` (1-based, ascending), or after the last.
std::vector<Vector> legs_online(int N, std::span<const double> f, LegsStep step, std::vector<int> report_at = {});

// What the online state should be: the exact LegS projection, at t = k, of the piecewise-
// constant signal f_1 .. f_k (each interval's integral of P_n in closed form).
Vector legs_projection_of_samples(int N, std::span<const double> f, int k);

// Online LegT: the bilinear discretization with one sample per step, θ in samples.
struct Discrete {
  Matrix A_bar;
  Vector B_bar;
};
Discrete bilinear(const Operator& op, double dt);
std::vector<Vector> legt_online(const Discrete& d, std::span<const double> f, std::vector<int> report_at);

// The signal a LegS state stands for, at the middles s = j − ½ of the samples j = 1 .. k:
// Σ_n c_n g_n(2s/k − 1).
std::vector<double> legs_reconstruction(const Vector& c, int k);
// The signal a LegT state at time k stands for, at the middles of the last ⌊θ⌋ samples.
std::vector<double> legt_reconstruction(const Vector& c, double theta, int k);

// Root-mean-square of (got − expected) divided by the rms of expected.
double relative_rms_error(std::span<const double> got, std::span<const double> expected);

}  // namespace hippo
