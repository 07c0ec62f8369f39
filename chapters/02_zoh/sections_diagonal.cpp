// Chapter 02's sections on diagonal A: every rule element by element, φ₁ without 0/0, and how
// far Mamba's B̄ = ΔB is from ZOH's.
#include "diagonal.hpp"
#include "discretize.hpp"
#include "sections.hpp"
#include "ssm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace ch02 {

using common::Figure;
using common::Series;
using zoh::Method;

namespace {

// φ₁ in 80-bit long double, for checking the double versions.
double phi1_long_double(double z) { return z == 0 ? 1.0 : double(std::expm1(static_cast<long double>(z)) / z); }

// g(z) = (φ₁ − 1)/φ₁ in long double, with φ₁ − 1 = Σ_{k≥1} z^k/(k+1)! summed term by term for
// |z| ≤ 1 (so nothing cancels), and 1 − z/expm1(z) beyond.
double gap_long_double(double z) {
  const long double zl = z;
  if (std::abs(z) > 1) return double(1.0L - zl / std::expm1(zl));
  long double term = 1, phi1_minus_one = 0;
  for (int k = 1; k <= 30; ++k) phi1_minus_one += (term *= zl / (k + 1));
  return double(phi1_minus_one / (1 + phi1_minus_one));
}

}  // namespace

void section_diagonal(Notebook& nb) {
  nb.section("Diagonal A: element by element, and no 0/0");
  nb.text(
      "For A = diag(a), every rule acts on each a_i alone: ā = exp(z), b̄ = Δ φ₁(z) b with z = Δ a_i and\n"
      "φ₁(z) = (exp(z) − 1)/z (ZOH). Written with expm1, φ₁ survives a_i = 0 and a tiny Δ.");
  // S4D-Real's A = −(1 .. 16), and a zero (a channel that only integrates).
  std::vector<double> a{0.0}, b;
  for (int n = 1; n <= 16; ++n) a.push_back(-n);
  for (std::size_t i = 0; i < a.size(); ++i) b.push_back(std::cos(1.0 + double(i)));
  for (Method method : zoh::kMethods) {
    std::vector<double> dense, diagonal;
    for (double delta : {1e-9, 1e-3, 0.1, 1.0}) {
      const int n = int(a.size());
      zoh::ContinuousSsm s{n, std::vector<double>(std::size_t(n) * n, 0.0), b, std::vector<double>(n, 1.0), 0};
      for (int i = 0; i < n; ++i) s.A[std::size_t(i) * n + i] = a[i];
      const auto d = zoh::discretize(s, delta, method);
      const auto e = zoh::discretize_diagonal(a, b, delta, method);
      std::vector<double> as_matrix(std::size_t(n) * n, 0.0);
      for (int i = 0; i < n; ++i) as_matrix[std::size_t(i) * n + i] = e.abar[i];
      dense.insert(dense.end(), d.Abar.begin(), d.Abar.end());
      dense.insert(dense.end(), d.Bbar.begin(), d.Bbar.end());
      diagonal.insert(diagonal.end(), as_matrix.begin(), as_matrix.end());
      diagonal.insert(diagonal.end(), e.bbar.begin(), e.bbar.end());
    }
    nb.check(
        fmt::format("{}: dense (Eigen) = element-wise for A = diag(0, −1, …, −16), Δ = 1e-9 … 1", zoh::name(method)),
        common::compare(dense, diagonal, {1e-15, 1e-13}));
  }

  std::vector<std::vector<std::string>> rows;
  Figure f{"phi1_rounding",
           "Relative error of φ₁(z) = (e^z − 1)/z in double precision",
           "|z|  (z < 0)",
           "relative error",
           true,
           true,
           {},
           {"set key inside right top", "set yrange [1e-18:10]"}};
  f.markup = true;  // e^z
  Series naive{"(exp(z) − 1)/z as written", {}, {}, "linespoints lw 2"};
  Series stable{"expm1(z)/z", {}, {}, "linespoints lw 2"};
  std::vector<double> got, expected;
  for (int e = -16; e <= 0; ++e) {
    const double z = -std::pow(10.0, e);
    const double reference = phi1_long_double(z);
    const double naive_error = std::abs(zoh::phi1_naive(z) - reference) / reference;
    const double stable_error = std::abs(zoh::phi1(z) - reference) / reference;
    naive.x.push_back(-z), naive.y.push_back(std::max(naive_error, 1e-18));
    stable.x.push_back(-z), stable.y.push_back(std::max(stable_error, 1e-18));
    if (e % 4 == 0)
      rows.push_back({sci(z), fmt::format("{:.17g}", zoh::phi1_naive(z)), fmt::format("{:.17g}", zoh::phi1(z))});
  }
  f.series = {naive, stable};
  nb.table({"z", "(exp(z) − 1)/z", "expm1(z)/z"}, rows);
  nb.figure(f, false);

  for (double z : {0.0, 1e-300, -1e-300, 1e-12, -1e-8, -0.5, 2.0, -50.0, -800.0}) {
    got.push_back(zoh::phi1(z));
    expected.push_back(phi1_long_double(z));
  }
  nb.check("φ₁ = expm1(z)/z to full precision at z = 0, ±1e-300, 1e-12, −1e-8, −0.5, 2, −50, −800",
           common::compare(got, expected, {0, 4e-16}));
}

void section_gap(Notebook& nb) {
  nb.section("ZOH's B̄ against Mamba's ΔB");
  nb.text(
      "Mamba keeps ZOH's Ā = exp(ΔA) but takes Euler's B̄ = ΔB. Per element, relative to ZOH,\n"
      "  g(z) = (B̄_zoh − ΔB)/B̄_zoh = 1 − z/(e^z − 1) = z/2 − z²/12 + z⁴/720 − …,  z = Δa.\n"
      "For a stable a < 0, g < 0: ΔB is too large by −g ≈ Δ|a|/2. Mamba initialises Δ in [0.001, 0.1] and\n"
      "A = −(1 … 16) (N = 16), so |z| starts between 0.001 and 1.6.");
  std::vector<std::vector<std::string>> rows;
  for (double delta : {0.001, 0.01, 0.1, 1.0}) {
    for (double a : {-1.0, -4.0, -16.0}) {
      const double z = delta * a;
      rows.push_back({fmt::format("{}", delta), fmt::format("{}", a), fmt::format("{}", z),
                      fmt::format("{:.5f}", zoh::phi1(z)), fmt::format("{:+.3f}%", -100 * zoh::zoh_euler_gap(z))});
    }
  }
  nb.table({"Δ", "a", "z = Δa", "φ₁(z) = B̄_zoh/ΔB", "ΔB vs B̄_zoh"}, rows);

  Figure f{
      "bbar_gap",
      "How much larger Mamba's B̄ = ΔB is than ZOH's B̄",
      "Δ|a|",
      "ΔB / B̄(ZOH) − 1",
      true,
      true,
      {},
      {"set key inside right bottom", "set object 1 rect from 0.001, graph 0 to 1.6, graph 1 fc rgb '#eeeeee' behind",
       "set label 1 'Mamba at initialisation' at 0.0015, graph 0.93"}};
  Series exact{"z/(e^z − 1) − 1", {}, {}, "lines lw 2", true};  // e^z
  Series first_order{"Δ|a|/2 (first order)", {}, {}, "lines lw 2 dt 2"};
  for (double e = -4; e <= 1.0001; e += 0.05) {
    const double x = std::pow(10.0, e);
    exact.x.push_back(x), exact.y.push_back(-zoh::zoh_euler_gap(-x));
    first_order.x.push_back(x), first_order.y.push_back(x / 2);
  }
  f.series = {exact, first_order};
  nb.figure(f);

  Figure stability{"abar_vs_z",
                   "Ā for a real eigenvalue: where each rule sends z = Δa",
                   "z = Δa",
                   "Ā",
                   false,
                   false,
                   {},
                   {"set key inside left bottom", "set yrange [-2:1.2]", "set xzeroaxis",
                    "set arrow 1 from -10,-1 to 0,-1 nohead dt 3"}};
  const auto z = linspace(-10, 0, 201);
  for (Method method : {Method::zoh, Method::bilinear, Method::euler}) {
    Series s{method == Method::zoh ? "ZOH and Mamba: exp(z)" : zoh::name(method), z, {}, "lines lw 2"};
    for (double v : z) s.y.push_back(zoh::discretize_diagonal({v}, {1.0}, 1.0, method).abar[0]);
    stability.series.push_back(s);
  }
  nb.figure(stability, false);

  // The gap formula against a direct evaluation in long double, and its consequence: for a
  // constant input the scalar recurrence settles at b̄/(1 − ā), so Mamba's steady state is
  // ZOH's (the continuous one, −b/a) times 1/φ₁(z) = 1 − g(z): measured by running it.
  std::vector<double> got, expected, gain_ratio, gain_expected;
  for (double zv : {-1e-6, -1e-3, -0.009, -0.011, -0.1, -1.0, -1.6, -5.0, 0.5}) {
    got.push_back(zoh::zoh_euler_gap(zv));
    expected.push_back(gap_long_double(zv));
  }
  nb.check("g(z) = 1 − z/(e^z − 1), series and direct form, against long double",
           common::compare(got, expected, {0, 4e-14}));  // the direct form's cancellation: ≤ 2⁻⁵³/|g| ≈ 2e-14
  for (double delta : {0.01, 0.1, 0.5}) {
    const double a = -2.0;
    const zoh::ContinuousSsm scalar{1, {a}, {1.0}, {1.0}, 0};
    const std::vector<double> ones(20000, 1.0);
    const double zoh_final = zoh::simulate(zoh::discretize(scalar, delta, Method::zoh), ones).back();
    const double mamba_final = zoh::simulate(zoh::discretize(scalar, delta, Method::mamba), ones).back();
    gain_ratio.push_back(mamba_final / zoh_final);
    gain_expected.push_back(1.0 / zoh::phi1(delta * a));
  }
  nb.check("a constant input: Mamba's state settles at 1/φ₁(z) times ZOH's (a = −2, Δ = 0.01, 0.1, 0.5)",
           common::compare(gain_ratio, gain_expected, {0, 1e-12}));
}

}  // namespace ch02
