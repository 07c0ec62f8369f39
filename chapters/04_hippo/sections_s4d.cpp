// Chapter 04's sections on S4D: the eigenvalues of LegS, of its normal part and of the diagonal
// initializations, then each initialization's kernel K̄ as a Vandermonde product.
#include "hippo.hpp"
#include "s4d.hpp"
#include "sections.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace ch04 {

using common::Figure;

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

}  // namespace ch04
