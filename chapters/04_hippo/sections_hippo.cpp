// Chapter 04's sections on HiPPO: the LegS and LegT matrices and the ODE they come from, LegS
// memorizing a signal online and reconstructing it, LegT's sliding window and basis kernels.
#include "hippo.hpp"
#include "legendre.hpp"
#include "sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace ch04 {

using common::Figure;
using hippo::LegsStep;
using hippo::Vector;

namespace {

constexpr int kOrders[] = {2, 4, 8, 16, 32, 64};

std::vector<double> std_of(const Vector& v) { return {v.data(), v.data() + v.size()}; }

// The test signal on [0, 1]: six sines of 1 to 12 cycles plus a square wave of 2.5 cycles
// (a jump every 0.2), random phases, seeded. The jumps are what a polynomial approximates
// worst: its error falls like N^(−1/2), so every N below shows it.
struct Signal {
  std::vector<double> amplitude, cycles, phase;
  double square_phase = 0;
  double square_amplitude = 0.4;
  double operator()(double t) const {
    const double two_pi = 2 * std::numbers::pi;
    double f = square_amplitude * (std::sin(two_pi * 2.5 * t + square_phase) >= 0 ? 1 : -1);
    for (std::size_t j = 0; j < cycles.size(); ++j) f += amplitude[j] * std::sin(two_pi * cycles[j] * t + phase[j]);
    return f;
  }
};

Signal make_signal(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> cycles(1.0, 12.0), phase(0.0, 2 * std::numbers::pi), amplitude(0.2, 0.6);
  Signal s;
  for (int j = 0; j < 6; ++j) {
    s.amplitude.push_back(amplitude(rng));
    s.cycles.push_back(cycles(rng));
    s.phase.push_back(phase(rng));
  }
  s.square_phase = phase(rng);
  return s;
}

// Sample k = 1 .. L holds the signal at the middle of ((k − 1)/L, k/L].
std::vector<double> samples(const Signal& f, int length) {
  std::vector<double> x(length);
  for (int k = 1; k <= length; ++k) x[k - 1] = f((k - 0.5) / length);
  return x;
}

std::string matrix_rows(const hippo::Matrix& A) {
  std::string s;
  for (int i = 0; i < A.rows(); ++i) {
    s += "\n      ";
    for (int j = 0; j < A.cols(); ++j) s += fmt::format("{:8.3f}", A(i, j));
  }
  return s;
}

}  // namespace

void section_matrices(Notebook& nb) {
  nb.section("The HiPPO matrices, and the ODE they come from");
  nb.text(
      "LegS keeps c_n(t) = (1/t) ∫_0^t f(s) g_n(2s/t − 1) ds with g_n = √(2n+1) P_n, and obeys\n"
      "dc/dt = (1/t)(A c + B f(t)). LegT keeps the same coefficients over the window [t − θ, t]\n"
      "and obeys dc/dt = A c + B f(t). Here for N = 4 (θ = 1):");
  const auto S = hippo::legs(4);
  const auto T = hippo::legt(4, 1.0);
  nb.value("LegS A", matrix_rows(S.A));
  nb.value("LegS B", fmt::format("{:.3f}", fmt::join(std_of(S.B), ", ")));
  nb.value("LegT A", matrix_rows(T.A));
  nb.value("LegT B", fmt::format("{:.3f}", fmt::join(std_of(T.B), ", ")));

  // The ODE, checked on the exact projections: differentiate c(t) by central differences
  // and compare with the right-hand side. LegS is exact for any f; LegT replaces the value
  // leaving the window by its reconstruction, so it is exact for polynomials of degree < N.
  const int N = 12;
  const double t = 0.8, h = 1e-4;
  auto f = [](double s) { return std::sin(3 * s) + 0.5 * std::cos(7 * s + 1); };
  const auto legs = hippo::legs(N);
  const Vector dc_legs = (hippo::legs_projection(f, t + h, N) - hippo::legs_projection(f, t - h, N)) / (2 * h);
  const Vector rhs_legs = (legs.A * hippo::legs_projection(f, t, N) + legs.B * f(t)) / t;
  nb.check(fmt::format("LegS: dc/dt (central differences of the projection) = (A c + B f)/t, N = {}, t = {}", N, t),
           common::compare(std_of(dc_legs), std_of(rhs_legs), {1e-7, 1e-7}));
  auto poly = [](double s) { return 1 - 2 * s + 3 * s * s * s - 0.5 * std::pow(s, 7); };  // degree 7 < N
  const double theta = 0.5;
  const auto legt = hippo::legt(N, theta);
  const Vector dc_legt =
      (hippo::legt_projection(poly, t + h, theta, N) - hippo::legt_projection(poly, t - h, theta, N)) / (2 * h);
  const Vector rhs_legt = legt.A * hippo::legt_projection(poly, t, theta, N) + legt.B * poly(t);
  nb.check(fmt::format("LegT: dc/dt = A c + B f for a polynomial of degree 7, N = {}, θ = {}", N, theta),
           common::compare(std_of(dc_legt), std_of(rhs_legt), {1e-7, 1e-7}));
}

void section_legs_online(Notebook& nb, const Options& o) {
  nb.section("LegS online: memorize a signal one sample at a time, then reconstruct it");
  const int L = o.length;
  const Signal signal = make_signal(nb.options().seed);
  const auto f = samples(signal, L);
  nb.text(
      fmt::format("{} samples of six sines and a square wave. After the last sample the state c_L\n"
                  "(N numbers) is all that is left; the reconstruction Σ c_n g_n(2s/L − 1) is compared with\n"
                  "the signal at every sample. 'exact' is the projection of the samples computed directly\n"
                  "(closed-form integrals of P_n); the recurrences should land on it. 'sines only': the\n"
                  "exact projection of the signal without its jumps.",
                  L));
  std::vector<std::vector<std::string>> rows;
  Signal smooth = signal;
  smooth.square_amplitude = 0;
  const auto f_smooth = samples(smooth, L);
  std::vector<double> orders, error_exact, error_bilinear, error_euler, error_smooth;
  bool bilinear_matches = true;
  double worst_state_error = 0;
  for (int N : kOrders) {
    const Vector exact = hippo::legs_projection_of_samples(N, f, L);
    const Vector bilinear = hippo::legs_online(N, f, LegsStep::bilinear).back();
    const Vector euler = hippo::legs_online(N, f, LegsStep::euler).back();
    const double scale = exact.norm();
    const double state_bilinear = (bilinear - exact).norm() / scale, state_euler = (euler - exact).norm() / scale;
    const double e_exact = hippo::relative_rms_error(hippo::legs_reconstruction(exact, L), f);
    const double e_bilinear = hippo::relative_rms_error(hippo::legs_reconstruction(bilinear, L), f);
    const double e_euler = hippo::relative_rms_error(hippo::legs_reconstruction(euler, L), f);
    error_smooth.push_back(hippo::relative_rms_error(
        hippo::legs_reconstruction(hippo::legs_projection_of_samples(N, f_smooth, L), L), f_smooth));
    orders.push_back(N);
    error_exact.push_back(e_exact);
    error_bilinear.push_back(e_bilinear);
    error_euler.push_back(std::isfinite(e_euler) ? e_euler : 1e300);
    worst_state_error = std::max(worst_state_error, state_bilinear);
    bilinear_matches = bilinear_matches && state_bilinear < 1e-3;
    rows.push_back({std::to_string(N), fmt::format("{:.2e}", state_bilinear), fmt::format("{:.2e}", state_euler),
                    fmt::format("{:.2e}", e_exact), fmt::format("{:.2e}", e_bilinear), fmt::format("{:.2e}", e_euler),
                    fmt::format("{:.2e}", error_smooth.back())});
  }
  nb.table({"N", "|c−exact| bilinear", "|c−exact| Euler", "rms err exact", "rms err bilinear", "rms err Euler",
            "sines only"},
           rows);
  nb.check("the bilinear state is the exact projection of the samples, every N (relative error < 1e-3)",
           bilinear_matches, fmt::format("largest relative state error {:.1e}", worst_state_error));
  bool falls = true;
  for (std::size_t i = 1; i < error_bilinear.size(); ++i) falls = falls && error_bilinear[i] < error_bilinear[i - 1];
  nb.check("the reconstruction error falls at every doubling of N (bilinear)", falls,
           fmt::format("rms error {:.1e} at N = {} down to {:.1e} at N = {}", error_bilinear.front(), kOrders[0],
                       error_bilinear.back(), kOrders[std::size(kOrders) - 1]));

  Figure error{"reconstruction_error",
               "Reconstruction error of the signal against the state size N",
               "state size N",
               "relative rms error",
               true,
               true,
               {},
               {"set key outside right top"}};
  error.series.push_back({"exact projection", orders, error_exact, "linespoints lw 2 pt 7"});
  error.series.push_back({"bilinear recurrence", orders, error_bilinear, "linespoints lw 2 pt 6 dt 2"});
  error.series.push_back({"Euler recurrence", orders, error_euler, "linespoints lw 2 pt 4"});
  error.series.push_back({"exact, sines alone", orders, error_smooth, "linespoints lw 2 pt 5"});
  nb.figure(error);

  // The figures keep every stride-th sample: enough points for the eye, small data files.
  const int stride = std::max(1, L / 2000);
  auto thin = [stride](const std::vector<double>& v) {
    std::vector<double> kept;
    for (std::size_t i = 0; i < v.size(); i += stride) kept.push_back(v[i]);
    return kept;
  };
  const auto time = thin(range(L, 0.5, 1.0));
  Figure rec{"legs_reconstruction",
             "The signal and its reconstruction from the final LegS state c_L",
             "sample s",
             "value",
             false,
             false,
             {},
             {"set key outside right top"}};
  rec.markup = true;  // c_L
  rec.series.push_back({"signal", time, thin(f), "lines lw 4 lc rgb '#bbbbbb'"});
  for (int N : {4, 16, 64})
    rec.series.push_back({fmt::format("N = {}", N), time,
                          thin(hippo::legs_reconstruction(hippo::legs_online(N, f, LegsStep::bilinear).back(), L))});
  nb.figure(rec);

  // The memory while it is being written: the same N = 32 state at three moments.
  const std::vector<int> moments{L / 4, L / 2, L};
  const auto states = hippo::legs_online(32, f, LegsStep::bilinear, moments);
  Figure online{"legs_online",
                "LegS (N = 32) reconstructs the whole history at every moment",
                "sample s",
                "value",
                false,
                false,
                {},
                {"set key outside right top"}};
  online.series.push_back({"signal", time, thin(f), "lines lw 4 lc rgb '#bbbbbb'"});
  for (std::size_t i = 0; i < moments.size(); ++i)
    online.series.push_back({fmt::format("from c at k = {}", moments[i]), thin(range(moments[i], 0.5, 1.0)),
                             thin(hippo::legs_reconstruction(states[i], moments[i]))});
  nb.figure(online);
}

void section_legt(Notebook& nb, const Options& o) {
  nb.section("LegT: a sliding window, and the basis kernels");
  const int L = o.length;
  const double theta = L / 4.0;
  const Signal signal = make_signal(nb.options().seed);
  const auto f = samples(signal, L);
  nb.text(
      fmt::format("LegT with a window of θ = {} samples, discretized once (bilinear, one sample per step:\n"
                  "LegT is time-invariant). The state at the end reconstructs only the last θ samples.",
                  theta));
  std::vector<std::vector<std::string>> rows;
  std::vector<double> errors;
  const auto window_start = f.end() - static_cast<int>(theta);
  const std::vector<double> window(window_start, f.end());
  for (int N : kOrders) {
    const auto c = hippo::legt_online(hippo::bilinear(hippo::legt(N, theta), 1.0), f, {}).back();
    errors.push_back(hippo::relative_rms_error(hippo::legt_reconstruction(c, theta, L), window));
    rows.push_back({std::to_string(N), fmt::format("{:.2e}", errors.back())});
  }
  nb.table({"N", "rms err over the window"}, rows);
  bool falls = true;
  for (std::size_t i = 1; i < errors.size(); ++i) falls = falls && errors[i] < errors[i - 1];
  nb.check("the LegT reconstruction error falls at every doubling of N", falls,
           fmt::format("rms error {:.1e} at N = {} down to {:.1e} at N = {}", errors.front(), kOrders[0], errors.back(),
                       kOrders[std::size(kOrders) - 1]));

  // Basis kernels: coordinate n of the state is Σ_j K_n[j] f_{k−j}. For LegT, K_n is the
  // impulse response e_nᵀ Ā^j B̄, which should be the Legendre polynomial g_n on the window
  // (scaled by 1/θ) and close to 0 beyond it. For LegS at time k the weights are g_n(2s/k − 1)/k.
  const int N = 16, lags = static_cast<int>(1.5 * theta);
  const auto d = hippo::bilinear(hippo::legt(N, theta), 1.0);
  Figure basis{"basis_kernels",
               fmt::format("LegT basis kernels (N = {}, θ = {}): impulse response of c_n, times θ", N, theta),
               "lag j (samples)",
               "θ · K_n[j]",
               false,
               false,
               {},
               {"set key outside right top", "set xzeroaxis"}};
  basis.markup = true;  // c_n, K_n
  Vector state = d.B_bar;
  std::vector<std::vector<double>> response(4);
  for (int j = 0; j < lags; ++j) {
    for (int n = 0; n < 4; ++n) response[n].push_back(theta * state[n]);
    state = d.A_bar * state;
  }
  for (int n = 0; n < 4; ++n) {
    basis.series.push_back({fmt::format("n = {} (recurrence)", n), range(lags), response[n]});
    std::vector<double> ideal;
    for (int j = 0; j < lags; ++j) {
      const double x = 1 - 2 * (j + 0.5) / theta;  // lag j ↔ s = k − j − ½
      ideal.push_back(j < theta ? std::sqrt(2.0 * n + 1) * hippo::legendre_values(n + 1, x)[n] : 0.0);
    }
    basis.series.push_back(
        {fmt::format("n = {}: g_n on the window", n), range(lags), ideal, "lines lw 1 dt 2 lc 'black'", true});
  }
  nb.figure(basis);
}

}  // namespace ch04
