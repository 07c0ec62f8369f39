// The problem of chapter 02: a continuous state space model and its discrete versions.
//
//   continuous:  h'(t) = A h(t) + B x(t),   y(t) = C h(t) + D x(t)
//   discrete:    h_k = Ā h_{k-1} + B̄ x_k,  y_k = C h_k + D x_k,   h_{-1} = h(0) = 0
//
// The input x is one number per step and so is y (single input, single output: one channel
// of Mamba); the state h has n numbers. Step k covers the time [kΔ, (k+1)Δ): x_k is the
// input held over it and h_k approximates h((k+1)Δ), the state at its end.
#pragma once

#include <vector>

namespace zoh {

struct ContinuousSsm {
  int n = 0;              // state size
  std::vector<double> A;  // n × n, row-major
  std::vector<double> B;  // n
  std::vector<double> C;  // n
  double D = 0;           // the skip term: discretization leaves it as it is
};

struct DiscreteSsm {
  int n = 0;
  std::vector<double> Abar;  // n × n, row-major
  std::vector<double> Bbar;  // n
  std::vector<double> C;     // n
  double D = 0;
};

// The four ways of turning (A, B) into (Ā, B̄) that the chapter derives.
enum class Method { zoh, bilinear, euler, mamba };

inline constexpr Method kMethods[] = {Method::zoh, Method::bilinear, Method::euler, Method::mamba};

// "ZOH", "bilinear", "Euler", "Mamba (ZOH Ā, Euler B̄)"
const char* name(Method m);

// Runs the discrete recurrence over the inputs x_0 .. x_{L-1}; returns y_0 .. y_{L-1}.
std::vector<double> simulate(const DiscreteSsm& s, const std::vector<double>& x);

}  // namespace zoh
