// Chapter 03's sections on the kernel K̄ itself: convolution = recurrence and how K̄ decays,
// oscillating kernels of complex eigenvalues, and why an input-dependent Δ leaves no kernel.
#include "diagonal_ssm.hpp"
#include "sections.hpp"
#include "time_varying.hpp"
#include "toeplitz.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

namespace ch03 {

using common::Figure;
using conv::complex;

namespace {

// The first ℓ with |K̄_ℓ| < 1e-3 |K̄_0|.
int steps_to_thousandth(const std::vector<double>& K) {
  for (std::size_t l = 0; l < K.size(); ++l)
    if (std::abs(K[l]) < 1e-3 * std::abs(K[0])) return static_cast<int>(l);
  return static_cast<int>(K.size());
}

}  // namespace

void section_kernel(Notebook& nb, const Options&) {
  nb.section("The kernel K̄ of a diagonal SSM, and convolution = recurrence");
  nb.text(
      "h_t = Ā h_{t-1} + B̄ x_t, y_t = Re(C h_t) unrolls into y_t = Σ_ℓ K̄_ℓ x_{t-ℓ} with\n"
      "K̄_ℓ = Re Σ_n C_n Ā_n^ℓ B̄_n: for diagonal A, a Vandermonde matrix V_{n,ℓ} = Ā_n^ℓ times C ⊙ B̄.");
  const int L = 512;
  const auto ssm = conv::random_diagonal_ssm(16, 0.1, 5.0, 10.0, nb.options().seed);
  const auto d = conv::discretize_zoh(ssm, 0.05);
  const auto K = conv::ssm_kernel(d, L);
  nb.value("SSM", "N = 16 states in conjugate pairs, Δ = 0.05, L = 512");
  nb.value("K̄_0 .. K̄_4", fmt::format("{:.6f}, {:.6f}, {:.6f}, {:.6f}, {:.6f}", K[0], K[1], K[2], K[3], K[4]));
  nb.check("K̄ by the Vandermonde product = C Ā^ℓ B̄ by repeated multiplication",
           common::compare(K, conv::ssm_kernel_by_powers(d, L), {1e-14, 1e-10}));
  std::vector<double> by_convolution, by_recurrence;
  for (int s = 0; s < 8; ++s) {
    const auto x = conv::random_signal(L, nb.options().seed + 10 + s);
    const auto yc = conv::causal_toeplitz(K, x), yr = conv::run_recurrence(d, x);
    by_convolution.insert(by_convolution.end(), yc.begin(), yc.end());
    by_recurrence.insert(by_recurrence.end(), yr.begin(), yr.end());
  }
  nb.check("y = K̄ ∗ x equals the recurrence (8 sequences × 512 steps, fp64)",
           common::compare(by_convolution, by_recurrence, kFp64Tolerance),
           [&](std::size_t i) { return fmt::format("sequence {}, t = {}", i / L, i % L); });

  nb.text(
      "One real state: K̄_ℓ / K̄_0 = Ā^ℓ = exp(ΔA)^ℓ. The decay is set by |Ā|: near 0 the kernel\n"
      "dies at once (short memory), near 1 it lasts (long memory). The decay depends on Δ and A only\n"
      "through ΔA; B̄ = (Ā − 1) B / A depends on Δ as well.");
  Figure f{"kernel_decay",
           "K̄_ℓ / K̄_0 of one real state, for several A and Δ",
           "lag ℓ",
           "K̄_ℓ / K̄_0",
           false,
           true,
           {},
           {"set yrange [1e-6:1e3]", "set key inside right top"}};
  f.markup = true;  // K̄_ℓ: a subscript
  std::vector<std::vector<std::string>> rows;
  int wrong_predictions = 0;
  for (auto [a, delta] : {std::pair{-1.0, 1.0}, std::pair{-1.0, 0.2}, std::pair{-1.0, 0.05}, std::pair{-0.1, 0.2},
                          std::pair{-0.1, 0.05}}) {
    const auto one = conv::discretize_zoh({{a}, {1.0}, {1.0}}, delta);
    auto k = conv::ssm_kernel(one, 400);
    const double k0 = k[0];
    for (double& v : k) v /= k0;
    const double a_bar = one.A_bar[0].real();
    const int measured = steps_to_thousandth(k);
    const int predicted = static_cast<int>(std::floor(std::log(1e-3) / std::log(a_bar))) + 1;
    if (measured != predicted && measured < 400) ++wrong_predictions;
    f.series.push_back({fmt::format("A = {}, Δ = {} (Ā = {:.3f})", a, delta, a_bar), range(400), k});
    rows.push_back({fmt::format("{}", a), fmt::format("{}", delta), fmt::format("{:.4f}", a_bar),
                    fmt::format("{:.4f}", one.B_bar[0].real()), measured < 400 ? std::to_string(measured) : "> 400",
                    std::to_string(predicted)});
  }
  nb.table({"A", "Δ", "Ā = exp(ΔA)", "B̄", "steps to 1e-3", "⌊ln 1e-3 / ln Ā⌋ + 1"}, rows);
  nb.check("the steps to 1e-3 are the ones |Ā|^ℓ predicts", wrong_predictions == 0,
           fmt::format("{} of {} differ", wrong_predictions, rows.size()));
  nb.figure(f);
}

void section_oscillating(Notebook& nb, const Options&) {
  nb.section("Complex eigenvalues: oscillating kernels");
  nb.text(
      "A conjugate pair A = -α ± iω (with C and B conjugated alike) gives a real kernel,\n"
      "K̄_ℓ = 2 |C B̄| e^{-αΔℓ} cos(ωΔℓ + arg(C B̄)): |Ā| = e^{-αΔ} sets the decay, ωΔ the turn per step.");
  const double delta = 0.1;
  const int L = 200;
  Figure f{"kernel_oscillating",
           "K̄_ℓ of one conjugate pair A = -α ± iω (Δ = 0.1, C = 1)",
           "lag ℓ",
           "K̄_ℓ",
           false,
           false,
           {},
           {"set xzeroaxis", "set key inside right top", "set yrange [-0.2:0.35]"}};
  f.markup = true;  // K̄_ℓ
  double worst_imaginary = 0;
  std::vector<double> got, closed;
  for (auto [alpha, omega] : {std::pair{0.2, 1.0}, std::pair{0.2, 4.0}, std::pair{1.0, 4.0}, std::pair{0.05, 2.0}}) {
    const complex a(-alpha, omega);
    const conv::DiagonalSsm ssm{{a, std::conj(a)}, {1.0, 1.0}, {1.0, 1.0}};
    const auto d = conv::discretize_zoh(ssm, delta);
    const auto K = conv::ssm_kernel(d, L);
    const complex w = d.C[0] * d.B_bar[0];
    for (int l = 0; l < L; ++l) {
      complex sum = 0.0;  // the full complex sum, to see its imaginary part vanish
      for (int n = 0; n < 2; ++n) sum += d.C[n] * std::pow(d.A_bar[n], l) * d.B_bar[n];
      worst_imaginary = std::max(worst_imaginary, std::abs(sum.imag()));
      closed.push_back(2 * std::abs(w) * std::exp(-alpha * delta * l) * std::cos(omega * delta * l + std::arg(w)));
    }
    got.insert(got.end(), K.begin(), K.end());
    f.series.push_back(
        {fmt::format("α = {}, ω = {} (|Ā| = {:.3f})", alpha, omega, std::exp(-alpha * delta)), range(L), K});
  }
  nb.check("K̄ of a conjugate pair = the damped cosine", common::compare(got, closed, {1e-14, 1e-10}));
  nb.check("the imaginary parts cancel", worst_imaginary < 1e-15,
           fmt::format("max |Im Σ_n C_n Ā_n^ℓ B̄_n| = {:.1e} (bound 1e-15)", worst_imaginary));
  nb.figure(f);
}

void section_time_varying(Notebook& nb, const Options&) {
  nb.section("When Δ depends on the input, there is no kernel");
  nb.text(
      "With a step Δ_t per step, y = M x with M_{t,s} = Re Σ_n C_n exp(A_n (Δ_{s+1} + … + Δ_t)) B̄_{n,s}.\n"
      "M depends on s and t, not on t - s alone: it is not Toeplitz, so no K̄ exists to convolve with.");
  const int L = 120;
  // Real eigenvalues (ω = 0), so that the responses below show decay alone.
  const auto ssm = conv::random_diagonal_ssm(8, 0.5, 3.0, 0.0, nb.options().seed + 40);
  const auto x = conv::random_signal(L, nb.options().seed + 41);
  const std::vector<double> fixed(L, 0.1);
  std::vector<double> varying(L);  // as if computed from the input: large steps reset, small ones remember
  for (int t = 0; t < L; ++t) varying[t] = t % 40 < 20 ? 0.02 : 0.5;
  const auto M_fixed = conv::time_varying_matrix(ssm, fixed), M_varying = conv::time_varying_matrix(ssm, varying);
  for (const auto& [name, deltas, M] :
       {std::tuple{"fixed Δ", fixed, M_fixed}, std::tuple{"varying Δ_t", varying, M_varying}}) {
    std::vector<double> y(L, 0.0);
    for (int t = 0; t < L; ++t)
      for (int s = 0; s <= t; ++s) y[t] += M[std::size_t(t) * L + s] * x[s];
    nb.check(fmt::format("M x = the recurrence, {}", name),
             common::compare(y, conv::run_time_varying_recurrence(ssm, deltas, x), kFp64Tolerance));
  }
  const double fixed_deviation = conv::toeplitz_deviation(M_fixed, L);
  const double varying_deviation = conv::toeplitz_deviation(M_varying, L);
  nb.value("max |M_{t,s} - M_{t-s,0}|, fixed Δ", fmt::format("{:.1e}", fixed_deviation));
  nb.value("max |M_{t,s} - M_{t-s,0}|, varying Δ_t", fmt::format("{:.1e}", varying_deviation));
  nb.check("fixed Δ: M is Toeplitz (its columns are K̄ shifted)", fixed_deviation < 1e-14,
           fmt::format("{:.1e} < 1e-14", fixed_deviation));
  nb.check("varying Δ_t: M is not Toeplitz", varying_deviation > 1e-2, fmt::format("{:.1e} > 1e-2", varying_deviation));

  Figure f{"time_varying",
           "Impulse responses M_{t,s} / M_{s,s} under a varying Δ_t",
           "lag t - s",
           "M_{t,s} / M_{s,s}",
           false,
           false,
           {},
           {"set key inside right top"}};
  f.markup = true;  // M_{t,s}, Δ_t
  for (int s : {0, 10, 20, 30}) {
    std::vector<double> column;
    for (int t = s; t < s + 60; ++t)
      column.push_back(M_varying[std::size_t(t) * L + s] / M_varying[std::size_t(s) * L + s]);
    f.series.push_back(
        {fmt::format("impulse at s = {} (Δ_s = {})", s, varying[s]), range(60), column, "lines lw 2", true});
  }
  std::vector<double> k;
  for (int t = 0; t < 60; ++t) k.push_back(M_fixed[std::size_t(t) * L] / M_fixed[0]);
  f.series.push_back({"fixed Δ = 0.1 (K̄, any s)", range(60), k, "lines lw 3 dt 2 lc rgb 'black'"});
  nb.figure(f);
}

}  // namespace ch03
