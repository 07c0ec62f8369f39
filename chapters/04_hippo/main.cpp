// ch04_hippo -- Chapter 04: HiPPO and S4D, memory as polynomial projection.
//
// A state that holds the Legendre coefficients of everything seen so far (HiPPO-LegS), or of
// a sliding window (LegT); the normal-plus-low-rank structure of LegS and the diagonal S4D
// initializations it leads to; their convolution kernels, on the GPU for many channels at
// once. Run with --help for the options; the chapter's text is README.md beside this file.
#include "bound_check.hpp"
#include "chapter_main.hpp"
#include "checked_timing.hpp"
#include "gpu.hpp"
#include "gpu_vandermonde.hpp"
#include "hippo.hpp"
#include "legendre.hpp"
#include "options.hpp"
#include "results_csv.hpp"
#include "s4d.hpp"
#include "timing.hpp"
#include "vandermonde_kernels.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace {

using common::Figure;
using common::Notebook;
using common::Series;
using hippo::LegsStep;
using hippo::Vector;

struct Options {
  int length = 10000;  // samples of the signal HiPPO memorizes
  int state = 64;      // S4D state size N
  int channels = 256;  // channels of the GPU benchmark
};

constexpr int kOrders[] = {2, 4, 8, 16, 32, 64};

std::vector<double> range(int n, double first = 0, double step = 1) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = first + i * step;
  return v;
}

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

void section_eigenvalues(Notebook& nb, const Options& o) {
  nb.section("Eigenvalues: LegS, its normal part, and the S4D initializations");
  const int N = o.state;
  const auto legs = hippo::legs(N);
  const auto nplr = hippo::legs_normal_plus_low_rank(N);
  nb.text(
      fmt::format("N = {}. LegS is lower triangular: its eigenvalues are its diagonal, −1 .. −N, all real.\n"
                  "Adding P Pᵀ (P_n = √(n + ½)) leaves −½ I plus a skew-symmetric matrix: a normal matrix whose\n"
                  "eigenvalues are −½ + iω. S4 diagonalizes that part stably; S4D keeps only its diagonal.",
                  N));
  const hippo::Matrix rebuilt = nplr.normal - nplr.P * nplr.P.transpose();
  nb.check("A_LegS = A_normal − P Pᵀ, every entry",
           common::compare(std::vector<double>(rebuilt.data(), rebuilt.data() + rebuilt.size()),
                           std::vector<double>(legs.A.data(), legs.A.data() + legs.A.size()), {1e-12, 1e-14}));
  const hippo::Matrix skew = nplr.normal + 0.5 * hippo::Matrix::Identity(N, N);
  const hippo::Matrix skew_sum = skew + skew.transpose();
  nb.check("A_normal + ½ I is skew-symmetric (S + Sᵀ = 0)",
           common::compare(std::vector<double>(skew_sum.data(), skew_sum.data() + skew_sum.size()),
                           std::vector<double>(skew_sum.size(), 0.0), {1e-12, 0}));

  // A triangular matrix's eigenvalues are its diagonal. A general eigensolver, which does not
  // know that, finds them only while N is small: LegS is so far from normal that rounding at
  // the level of 1e-16 moves its eigenvalues by O(1) at N = 64.
  std::vector<std::vector<std::string>> solver_rows;
  for (int n_small : {8, 16, 32, N}) {
    Eigen::EigenSolver<hippo::Matrix> solver(hippo::legs(n_small).A, false);
    std::vector<double> found, expected;
    for (int n = 0; n < n_small; ++n) {
      found.push_back(solver.eigenvalues()[n].real());
      expected.push_back(-(n + 1.0));
    }
    std::sort(found.begin(), found.end(), std::greater<>());
    const auto c = common::compare(found, expected, {1e-8, 0});
    solver_rows.push_back({std::to_string(n_small), fmt::format("{:.1e}", c.max_abs_error)});
    if (n_small == 8) nb.check("a general eigensolver finds −1 .. −8 for LegS at N = 8", c);
  }
  nb.table({"N", "general eigensolver on A_LegS: max |λ − (−(n+1))|"}, solver_rows);
  Eigen::EigenSolver<hippo::Matrix> normal_solver(nplr.normal, false);
  std::vector<double> legs_re, legs_im(N, 0.0), normal_re, normal_im;
  for (int n = 0; n < N; ++n) {
    legs_re.push_back(legs.A(n, n));
    normal_re.push_back(normal_solver.eigenvalues()[n].real());
    normal_im.push_back(normal_solver.eigenvalues()[n].imag());
  }
  nb.check("every eigenvalue of A_normal has real part −½",
           common::compare(normal_re, std::vector<double>(N, -0.5), {1e-10, 0}));

  // The imaginary parts of A_normal's eigenvalues (upper half, ascending) next to S4D-Inv's
  // and S4D-Lin's: the diagonal initializations are approximations of this spectrum.
  std::vector<double> omega;
  for (double w : normal_im)
    if (w > 0) omega.push_back(w);
  std::sort(omega.begin(), omega.end());
  const auto inv = s4d::init_A(s4d::Init::inv, N), lin = s4d::init_A(s4d::Init::lin, N);
  std::vector<double> inv_im;
  for (const auto& a : inv) inv_im.push_back(a.imag());
  std::sort(inv_im.begin(), inv_im.end());
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < omega.size(); i += std::max<std::size_t>(1, omega.size() / 8))
    rows.push_back({std::to_string(i), fmt::format("{:.3f}", omega[i]), fmt::format("{:.3f}", inv_im[i]),
                    fmt::format("{:.3f}", lin[i].imag())});
  rows.push_back({std::to_string(omega.size() - 1), fmt::format("{:.3f}", omega.back()),
                  fmt::format("{:.3f}", inv_im.back()), fmt::format("{:.3f}", lin.back().imag())});
  nb.table({"i", "ω_i of A_normal", "S4D-Inv (sorted)", "S4D-Lin"}, rows);

  Figure eig{"eigenvalues",
             fmt::format("Eigenvalues in the upper half-plane (N = {}; the top few, near 1300, are off the plot)", N),
             "real part",
             "imaginary part",
             false,
             false,
             {},
             {"set key outside right top", "set xrange [-70:5]", "set yrange [-5:200]"}};
  eig.series.push_back({"LegS (S4D-Real)", legs_re, legs_im, "points pt 7 ps 0.8"});
  eig.series.push_back({"normal part of LegS", normal_re, normal_im, "points pt 6 ps 1.2"});
  std::vector<double> re, im;
  for (const auto& a : inv) re.push_back(a.real()), im.push_back(a.imag());
  eig.series.push_back({"S4D-Inv", re, im, "points pt 4 ps 1"});
  re.clear(), im.clear();
  for (const auto& a : lin) re.push_back(a.real()), im.push_back(a.imag());
  eig.series.push_back({"S4D-Lin", re, im, "points pt 2 ps 1"});
  nb.figure(eig);
}

void section_s4d_kernels(Notebook& nb, const Options& o) {
  nb.section("S4D: each initialization's kernel K̄, a Vandermonde product");
  const int N = o.state, L = 1000;
  const double dt = 0.01;
  nb.text(
      fmt::format("Ā_n = exp(ΔA_n), B̄_n = (exp(ΔA_n) − 1)/A_n · B_n (ZOH), K̄_ℓ = Σ_n C_n B̄_n Ā_n^ℓ, times 2\n"
                  "and the real part for conjugate pairs. N = {}, Δ = {}, B = 1, C seeded standard normal.",
                  N, dt));
  Figure kernels{"s4d_kernels",
                 fmt::format("S4D kernels K̄ (N = {}, Δ = {})", N, dt),
                 "lag ℓ",
                 "K̄_ℓ",
                 false,
                 false,
                 {},
                 {"set key outside right top", "set xzeroaxis"}};
  kernels.markup = true;  // K̄_ℓ
  std::mt19937_64 rng(nb.options().seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (s4d::Init init : s4d::kInits) {
    const auto A = s4d::init_A(init, N);
    s4d::Channel ch{A, std::vector<s4d::complex>(A.size(), 1.0), {}, dt, s4d::conjugate_pairs(init)};
    for (std::size_t n = 0; n < A.size(); ++n)
      ch.C.push_back(ch.conjugate_pairs ? s4d::complex(normal(rng), normal(rng)) * std::sqrt(0.5) : normal(rng));
    const auto vandermonde = s4d::kernel_vandermonde(ch, L);
    nb.check(fmt::format("{}: K̄ by exp(ℓΔA) = K̄ by the recurrence on an impulse (fp64, L = {})", s4d::name(init), L),
             common::compare(vandermonde, s4d::kernel_by_recurrence(ch, L), {1e-12, 1e-9}));
    kernels.series.push_back({s4d::name(init), range(L), vandermonde});
  }
  nb.figure(kernels);

  // S4D-Lin's basis kernels: each mode alone is a damped cosine of frequency πn per unit time.
  Figure basis{"s4d_lin_basis",
               "S4D-Lin basis kernels 2 Re(B̄_n Ā_n^ℓ) (Δ = 0.01)",
               "lag ℓ",
               "value",
               false,
               false,
               {},
               {"set key outside right top", "set xzeroaxis"}};
  basis.markup = true;  // B̄_n Ā_n^ℓ
  for (int n : {0, 1, 2, 4}) {
    s4d::Channel ch{{s4d::complex(-0.5, std::numbers::pi * n)}, {1.0}, {1.0}, dt, true};
    basis.series.push_back({fmt::format("n = {}", n), range(L), s4d::kernel_vandermonde(ch, L)});
  }
  nb.figure(basis);
}

std::string channel_index(std::size_t i, int length) {
  return fmt::format("channel {}, ℓ = {}", i / length, i % length);
}

struct KernelCheck {
  bool ok;
  std::string detail;
};

// One kernel on one bank: poisoned output, run, the first `count` channels against fp64.
KernelCheck check_bank(const s4d::KernelInfo& info, const s4d::Bank& bank, int count) {
  s4d::GpuVandermonde gpu(bank);
  gpu.poison_output();
  gpu.run(info.id);
  const auto c = s4d::check_within_bound(gpu.K_prefix(count), s4d::bank_reference(bank, count),
                                         s4d::fp32_error_bound(bank, count, info.multiplications));
  return {c.ok, c.summary([&](std::size_t i) { return channel_index(i, bank.length); })};
}

void section_gpu(Notebook& nb, const Options& o) {
  nb.section("S4D kernels on the GPU: three versions, each checked against fp64");
  for (const auto& k : s4d::kKernels)
    nb.value(fmt::format("kernel {}", int(k.id)), fmt::format("{}: {}", k.name, k.idea));
  if (!nb.gpu()) return nb.gpu_skip("every GPU kernel and its checks");
  // (channels, state size N, length): one of everything; sizes one off a warp, a block and
  // a block's 1024 outputs; primes.
  struct Size {
    int channels, state, length;
  };
  const Size sizes[] = {{1, 2, 1}, {3, 2, 31}, {2, 64, 129}, {5, 62, 1023}, {7, 64, 1025}, {3, o.state, 4099}};
  for (const auto& info : s4d::kKernels) {
    if (!common::kernel_selected(nb.options(), int(info.id))) continue;
    for (s4d::Init init : s4d::kInits) {
      bool ok = true;
      std::string detail;
      for (const auto& s : sizes) {
        const auto bank = s4d::make_bank(init, s.channels, s.state, s.length, nb.options().seed);
        const auto r = check_bank(info, bank, s.channels);
        if (!r.ok || detail.empty()) detail = fmt::format("{} ({}×{}×{})", r.detail, s.channels, s.state, s.length);
        ok = ok && r.ok;
        if (!r.ok) break;
      }
      nb.check(fmt::format("kernel {}, {}, 6 awkward sizes", int(info.id), s4d::name(init)), ok, detail);
    }
  }
}

void section_benchmark(Notebook& nb, const Options& o) {
  nb.section("Timing: powers by exp against powers by products");
  const bool bench = nb.options().bench;
  const int channels = bench ? 1024 : o.channels;
  const std::vector<int> lengths = bench ? std::vector<int>{1024, 4096, 16384} : std::vector<int>{1024, 4096};
  constexpr int checked_channels = 4;
  nb.text(
      fmt::format("{} channels of S4D-Lin, N = {} ({} complex modes). Bytes moved: W and z read (16 B per\n"
                  "mode), K̄ written (4 B per ℓ). Each kernel is checked on the first {} channels before and\n"
                  "after timing.",
                  channels, o.state, o.state / 2, checked_channels));
  if (!nb.gpu()) return nb.gpu_skip("the GPU timings");
  const double copy_gbps = common::measure_copy_bandwidth(std::size_t(512) << 20);
  nb.value("device-to-device copy", fmt::format("{:.0f} GB/s (read + write)", copy_gbps));
  common::ResultsCsv csv(nb.out_dir() + "/bench.csv", common::gpu_status().device.name, nb.date(),
                         {"kernel", "channels", "modes", "length", "median_ms", "min_ms", "max_ms", "bytes", "gb_per_s",
                          "pct_of_copy", "powers_per_ns"});
  std::map<std::string, Series> series;
  std::vector<std::vector<std::string>> rows;
  common::CheckedTiming timing(nb, {2, bench ? 20 : 5, true});
  for (int length : lengths) {
    const auto bank = s4d::make_bank(s4d::Init::lin, channels, o.state, length, nb.options().seed + length);
    const auto reference = s4d::bank_reference(bank, checked_channels);
    s4d::GpuVandermonde gpu(bank);
    for (const auto& info : s4d::kKernels) {
      if (!common::kernel_selected(nb.options(), int(info.id))) continue;
      const auto bound = s4d::fp32_error_bound(bank, checked_channels, info.multiplications);
      const auto timed = timing.time(
          fmt::format("kernel {} at L = {}", int(info.id), length), [&] { gpu.poison_output(); },
          [&] { gpu.run(info.id); },
          [&] {
            const auto c = s4d::check_within_bound(gpu.K_prefix(checked_channels), reference, bound);
            return c.ok ? std::string() : c.summary();
          });
      if (!timed) continue;
      const common::TimingStats& t = *timed;
      const double bytes = static_cast<double>(gpu.bytes_moved());
      const double gbps = common::gigabytes_per_second(bytes, t.median_ms);
      const double powers_per_ns = double(channels) * bank.modes * length / (t.median_ms * 1e6);
      csv.row({info.name, std::to_string(channels), std::to_string(bank.modes), std::to_string(length),
               fmt::format("{:.5f}", t.median_ms), fmt::format("{:.5f}", t.min_ms), fmt::format("{:.5f}", t.max_ms),
               fmt::format("{:.0f}", bytes), fmt::format("{:.2f}", gbps), fmt::format("{:.3f}", 100 * gbps / copy_gbps),
               fmt::format("{:.1f}", powers_per_ns)});
      rows.push_back({std::to_string(length), std::to_string(int(info.id)), fmt::format("{:.4f}", t.median_ms),
                      fmt::format("{:.1f}", powers_per_ns), fmt::format("{:.1f}", gbps),
                      fmt::format("{:.2f}%", 100 * gbps / copy_gbps)});
      const std::string name = fmt::format("kernel {}", int(info.id));
      series.try_emplace(name, Series{name, {}, {}, "linespoints lw 2"});
      series[name].x.push_back(length);
      series[name].y.push_back(t.median_ms);
    }
  }
  nb.table({"L", "kernel", "median ms", "powers/ns", "GB/s", "% of copy"}, rows);
  nb.value("results", csv.path());
  timing.report("the timed kernels are within the fp32 bound before and after timing",
                fmt::format("first {} channels of each", checked_channels));
  Figure f{"bench_time", fmt::format("S4D-Lin kernels for {} channels, N = {}", channels, o.state),
           "length L",   "median time (ms)",
           true,         true,
           {},           {"set key inside right bottom"}};
  for (auto& [name, s] : series) f.series.push_back(s);
  nb.figure(f, false);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  return common::run_chapter(
      {"ch04_hippo", "Chapter 04 · HiPPO and S4D: memory as polynomial projection", s4d::kKernelCount}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--length", o.length, "Samples of the signal LegS and LegT memorize")
            ->check(common::integer_in(64, 100000))
            ->capture_default_str();
        app.add_option("--state", o.state, "S4D state size N (even)")
            ->check(CLI::IsMember({8, 16, 32, 64, 128, 256}))
            ->capture_default_str();
        app.add_option("--channels", o.channels, "Channels of the GPU timing (without --bench)")
            ->check(common::integer_in(4, 65535))
            ->capture_default_str()
            ->group(common::kGpuOptions);
      },
      [&](Notebook& nb) {
        section_matrices(nb);
        section_legs_online(nb, o);
        section_legt(nb, o);
        section_eigenvalues(nb, o);
        section_s4d_kernels(nb, o);
        section_gpu(nb, o);
        section_benchmark(nb, o);
      });
}
