// A test system whose exact solution is known in closed form, so that every discretization
// can be measured against something that owes nothing to a matrix exponential: the damped
// oscillator p'' + 2ζω p' + ω² p = ω² x, with state h = (p, p'), output y = p.
//
//   A = [[0, 1], [−ω², −2ζω]],  B = (0, ω²),  C = (1, 0),  D = 0,   eigenvalues −ζω ± iω_d,
//   ω_d = ω √(1 − ζ²). Under-damped (0 < ζ < 1) only.
#pragma once

#include "ssm.hpp"

#include <vector>

namespace zoh {

struct Oscillator {
  double omega = 2.0;  // natural frequency ω
  double zeta = 0.2;   // damping ratio ζ

  ContinuousSsm system() const;
  // y(t) for x = 1 from t = 0 on and h(0) = 0:  1 − e^{−ζωt} (cos ω_d t + ζω/ω_d · sin ω_d t).
  double step_response(double t) const;
  // y(t) for x = δ(t) (the derivative of the step response): C exp(tA) B = ω²/ω_d e^{−ζωt} sin ω_d t.
  double impulse_response(double t) const;
};

// A staircase input: level j held over [j·hold, (j+1)·hold). The exact output at time t is a
// sum of shifted step responses, Σ_j (level_j − level_{j−1}) s(t − j·hold).
double staircase_response(const Oscillator& o, const std::vector<double>& levels, double hold, double t);

// The same staircase sampled for steps of Δ = hold/m: x_k = levels[k / m], k = 0 .. m·levels − 1.
std::vector<double> staircase_samples(const std::vector<double>& levels, int m);

}  // namespace zoh
