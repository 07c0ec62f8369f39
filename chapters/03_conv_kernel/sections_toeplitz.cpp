// Chapter 03's sections on Toeplitz products, causal and non-causal: forward, as matrices built
// by the code, and backward, the gradients for t and x against finite differences.
#include "diagonal_ssm.hpp"
#include "finite_differences.hpp"
#include "sections.hpp"
#include "toeplitz.hpp"

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace ch03 {

using conv::finite_differences;

namespace {

// A row-major matrix whose entries are the stand-in values 1, 2, ... of named symbols (or
// zero), written back as the symbols.
std::vector<std::vector<std::string>> symbolic(const std::vector<double>& M, std::size_t columns,
                                               const std::function<std::string(int)>& name,
                                               const std::function<std::string(int)>& row_name) {
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < M.size() / columns; ++i) {
    std::vector<std::string> row{row_name(static_cast<int>(i))};
    for (std::size_t j = 0; j < columns; ++j) {
      const double v = M[i * columns + j];
      row.push_back(std::abs(v) < 0.5 ? "0" : name(static_cast<int>(std::lround(v))));
    }
    rows.push_back(row);
  }
  return rows;
}

std::vector<double> transpose(const std::vector<double>& M, std::size_t rows, std::size_t columns) {
  std::vector<double> T(M.size());
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < columns; ++j) T[j * rows + i] = M[i * columns + j];
  return T;
}

// The Jacobian ∂o/∂v (o: n outputs) as an n × |v| row-major matrix, by finite differences.
std::vector<double> jacobian(const std::vector<double>& v, std::size_t outputs,
                             const std::function<std::vector<double>(const std::vector<double>&)>& f) {
  std::vector<double> J(outputs * v.size());
  for (std::size_t i = 0; i < outputs; ++i) {
    const auto column = finite_differences(v, [&](const std::vector<double>& u) { return f(u)[i]; });
    for (std::size_t k = 0; k < v.size(); ++k) J[i * v.size() + k] = column[k];
  }
  return J;
}

}  // namespace

void section_toeplitz(Notebook& nb, const Options&) {
  nb.section("Toeplitz products, forward: causal and non-causal");
  nb.text(
      "T_{ij} = t_{i-j}. Causal: o_i = Σ_{j≤i} t_{i-j} x_j (n values of t). Non-causal:\n"
      "o_i = Σ_j t_{i-j} x_j, t indexed -(n-1) .. n-1 (2n-1 values). Both for n = 4, built by the code:");
  auto t_name = [](int v) { return fmt::format("t{}", v - 4); };               // t_k stored as k + 4
  std::vector<double> causal_t{4, 5, 6, 7}, noncausal_t{1, 2, 3, 4, 5, 6, 7};  // t_k ↦ k + 4
  auto header = [](const char* what) { return std::vector<std::string>{what, "j=0", "j=1", "j=2", "j=3"}; };
  auto o_row = [](int i) { return fmt::format("o{} =", i); };
  nb.table(header("causal T"), symbolic(conv::causal_toeplitz_matrix(causal_t), 4, t_name, o_row));
  nb.table(header("non-causal T"), symbolic(conv::noncausal_toeplitz_matrix(noncausal_t), 4, t_name, o_row));
  for (int n : {1, 2, 64}) {
    const auto x = conv::random_signal(n, nb.options().seed + 20);
    const auto tc = conv::random_signal(n, nb.options().seed + 21),
               tn = conv::random_signal(2 * n - 1, nb.options().seed + 22);
    const auto Tc = conv::causal_toeplitz_matrix(tc), Tn = conv::noncausal_toeplitz_matrix(tn);
    std::vector<double> got, expected;
    for (auto [T, o] : {std::pair{Tc, conv::causal_toeplitz(tc, x)}, std::pair{Tn, conv::noncausal_toeplitz(tn, x)}}) {
      for (int i = 0; i < n; ++i) {
        double sum = 0;
        for (int j = 0; j < n; ++j) sum += T[std::size_t(i) * n + j] * x[j];
        expected.push_back(sum);
      }
      got.insert(got.end(), o.begin(), o.end());
    }
    nb.check(fmt::format("causal and non-causal sums = T x with the matrix, n = {}", n),
             common::compare(got, expected, kFp64Tolerance));
  }
}

void section_backward(Notebook& nb, const Options&) {
  nb.section("Toeplitz products, backward: the gradients for t and x");
  nb.text(
      "For ℓ with g = ∂ℓ/∂o: ∂ℓ/∂x = Tᵀ g, and ∂ℓ/∂t_k = Σ_j g_{j+k} x_j. The transposed Jacobians,\n"
      "measured by finite differences of the code (x_j ↦ \"xj\", t_k ↦ \"tk\"), causal, n = 4:");
  auto x_name = [](int v) { return fmt::format("x{}", v - 1); };
  auto t_name = [](int v) { return fmt::format("t{}", v - 1); };
  const std::vector<double> x{1, 2, 3, 4}, t{1, 2, 3, 4};  // x_j ↦ j + 1, t_k ↦ k + 1
  const auto d_dt = jacobian(t, 4, [&](const auto& v) { return conv::causal_toeplitz(v, x); });
  const auto d_dx = jacobian(x, 4, [&](const auto& v) { return conv::causal_toeplitz(t, v); });
  auto row = [](const char* v, int offset) {
    return [v, offset](int i) { return fmt::format("∂ℓ/∂{}{} =", v, i + offset); };
  };
  nb.table({"(∂o/∂t)ᵀ g", "g0", "g1", "g2", "g3"}, symbolic(transpose(d_dt, 4, 4), 4, x_name, row("t", 0)));
  nb.table({"(∂o/∂x)ᵀ g", "g0", "g1", "g2", "g3"}, symbolic(transpose(d_dx, 4, 4), 4, t_name, row("x", 0)));
  nb.text(
      "so ∂ℓ/∂t_k = Σ_{j=0}^{n-1-k} x_j g_{j+k} and ∂ℓ/∂x_k = Σ_{j=0}^{n-1-k} t_j g_{j+k}: the last row\n"
      "of (∂o/∂x)ᵀ holds t0. Non-causal, n = 3 (t_k ↦ \"tk\", k = -2 .. 2):");
  const std::vector<double> x3{1, 2, 3}, t5{1, 2, 3, 4, 5};  // t_k ↦ k + 3
  const auto n_dt = jacobian(t5, 3, [&](const auto& v) { return conv::noncausal_toeplitz(v, x3); });
  const auto n_dx = jacobian(x3, 3, [&](const auto& v) { return conv::noncausal_toeplitz(t5, v); });
  nb.table({"(∂o/∂t)ᵀ g", "g0", "g1", "g2"}, symbolic(transpose(n_dt, 3, 5), 3, x_name, row("t", -2)));
  nb.table({"(∂o/∂x)ᵀ g", "g0", "g1", "g2"},
           symbolic(
               transpose(n_dx, 3, 3), 3, [](int v) { return fmt::format("t{}", v - 3); }, row("x", 0)));

  const common::Tolerance fd{1e-8, 1e-7};
  // ℓ = g · (T x) is linear in t and in x alone, so central differences have no truncation error,
  // only the rounding of ℓ over 2·step: a step of 1e-3 keeps that near 1e-11 at n = 50 (1e-6 let
  // it reach 2.5e-8, past the tolerance, for some seeds).
  constexpr double step = 1e-3;
  for (int n : {1, 2, 50}) {
    const auto xs = conv::random_signal(n, nb.options().seed + 30), g = conv::random_signal(n, nb.options().seed + 31);
    const auto tc = conv::random_signal(n, nb.options().seed + 32),
               tn = conv::random_signal(2 * n - 1, nb.options().seed + 33);
    const auto causal = conv::causal_toeplitz_backward(tc, xs, g);
    const auto noncausal = conv::noncausal_toeplitz_backward(tn, xs, g);
    auto loss = [&](auto product) {
      return [&g, product](const std::vector<double>& v) { return conv::weighted_sum(g, product(v)); };
    };
    nb.check(fmt::format("causal ∂ℓ/∂t = finite differences, n = {}", n),
             common::compare(
                 causal.dt,
                 finite_differences(tc, loss([&](const auto& v) { return conv::causal_toeplitz(v, xs); }), step), fd));
    nb.check(fmt::format("causal ∂ℓ/∂x = finite differences, n = {}", n),
             common::compare(
                 causal.dx,
                 finite_differences(xs, loss([&](const auto& v) { return conv::causal_toeplitz(tc, v); }), step), fd));
    nb.check(
        fmt::format("non-causal ∂ℓ/∂t = finite differences, n = {}", n),
        common::compare(
            noncausal.dt,
            finite_differences(tn, loss([&](const auto& v) { return conv::noncausal_toeplitz(v, xs); }), step), fd));
    nb.check(
        fmt::format("non-causal ∂ℓ/∂x = finite differences, n = {}", n),
        common::compare(
            noncausal.dx,
            finite_differences(xs, loss([&](const auto& v) { return conv::noncausal_toeplitz(tn, v); }), step), fd));
  }
}

}  // namespace ch03
