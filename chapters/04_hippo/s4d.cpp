#include "s4d.hpp"

#include "phi1.hpp"
#include "vandermonde.hpp"

#include <cmath>
#include <numbers>
#include <random>
#include <span>
#include <stdexcept>

namespace s4d {

const char* name(Init init) {
  switch (init) {
    case Init::lin: return "S4D-Lin";
    case Init::inv: return "S4D-Inv";
    case Init::real: return "S4D-Real";
  }
  return "?";
}

bool conjugate_pairs(Init init) { return init != Init::real; }

// [snippet:inits]
std::vector<complex> init_A(Init init, int N) {
  using std::numbers::pi;
  if (N < 1 || (conjugate_pairs(init) && N % 2 != 0))
    throw std::invalid_argument("init_A: the state size must be positive, and even for S4D-Lin and S4D-Inv");
  std::vector<complex> A;
  if (init == Init::real) {
    for (int n = 0; n < N; ++n) A.push_back(-(n + 1.0));
  } else {
    for (int n = 0; n < N / 2; ++n)
      A.push_back(init == Init::lin ? complex(-0.5, pi * n) : complex(-0.5, N / pi * (N / (2.0 * n + 1) - 1)));
  }
  return A;
}
// [/snippet:inits]

// [snippet:zoh]
Discretized zoh(const Channel& ch) {
  Discretized d;
  for (std::size_t n = 0; n < ch.A.size(); ++n) {
    const complex dA = ch.dt * ch.A[n];
    d.A_bar.push_back(std::exp(dA));
    d.B_bar.push_back(ch.dt * common::phi1(dA) * ch.B[n]);  // (ΔA)⁻¹(e^{ΔA} − 1) ΔB
  }
  return d;
}
// [/snippet:zoh]

// [snippet:kernel_vandermonde]
std::vector<double> kernel_vandermonde(const Channel& ch, int length) {
  const Discretized d = zoh(ch);
  std::vector<complex> weights, exponents;  // W_n = C_n B̄_n, z_n = Δ A_n: Ā_n^ℓ = e^{ℓ z_n}
  for (std::size_t n = 0; n < ch.A.size(); ++n) {
    weights.push_back(ch.C[n] * d.B_bar[n]);
    exponents.push_back(ch.dt * ch.A[n]);
  }
  return common::vandermonde_kernel(weights, exponents, length, ch.conjugate_pairs ? 2 : 1);
}
// [/snippet:kernel_vandermonde]

std::vector<double> kernel_by_recurrence(const Channel& ch, int length) {
  const Discretized d = zoh(ch);
  const double scale = ch.conjugate_pairs ? 2 : 1;
  std::vector<complex> h(ch.A.size(), 0.0);
  std::vector<double> y(length);
  for (int l = 0; l < length; ++l) {
    const double x = l == 0 ? 1.0 : 0.0;
    complex out = 0;
    for (std::size_t n = 0; n < h.size(); ++n) {
      h[n] = d.A_bar[n] * h[n] + d.B_bar[n] * x;
      out += ch.C[n] * h[n];
    }
    y[l] = scale * out.real();
  }
  return y;
}

Bank make_bank(Init init, int channels, int state_size, int length, std::uint64_t seed) {
  const std::vector<complex> A = init_A(init, state_size);
  Bank bank{channels, static_cast<int>(A.size()), length, conjugate_pairs(init) ? 2.0 : 1.0, {}, {}};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> log_dt(std::log(1e-3), std::log(1e-1));
  std::normal_distribution<double> normal(0.0, 1.0);
  const double part = conjugate_pairs(init) ? std::sqrt(0.5) : 1.0;  // E|C|² = 1 either way
  for (int c = 0; c < channels; ++c) {
    Channel ch{A, std::vector<complex>(A.size(), 1.0), {}, std::exp(log_dt(rng)), conjugate_pairs(init)};
    for (std::size_t n = 0; n < A.size(); ++n)
      ch.C.push_back(conjugate_pairs(init) ? complex(part * normal(rng), part * normal(rng)) : complex(normal(rng)));
    const Discretized d = zoh(ch);
    for (std::size_t n = 0; n < A.size(); ++n) {
      bank.W.push_back(ch.C[n] * d.B_bar[n]);
      bank.z.push_back(ch.dt * A[n]);
    }
  }
  return bank;
}

std::vector<double> bank_reference(const Bank& bank, int count) {
  std::vector<double> K;
  K.reserve(std::size_t(count) * bank.length);
  for (int c = 0; c < count; ++c) {
    const std::size_t row = std::size_t(c) * bank.modes;
    const auto Kc = common::vandermonde_kernel(std::span(bank.W).subspan(row, bank.modes),
                                               std::span(bank.z).subspan(row, bank.modes), bank.length, bank.scale);
    K.insert(K.end(), Kc.begin(), Kc.end());
  }
  return K;
}

// [snippet:error_bound]
std::vector<double> fp32_error_bound(const Bank& bank, int count, int multiplications) {
  constexpr double u = 0x1p-24;  // fp32's unit roundoff
  std::vector<double> bound(std::size_t(count) * bank.length);
  for (int c = 0; c < count; ++c)
    for (int l = 0; l < bank.length; ++l) {
      double b = 0;
      for (int n = 0; n < bank.modes; ++n) {
        const complex z = bank.z[std::size_t(c) * bank.modes + n];
        const double term = std::abs(bank.W[std::size_t(c) * bank.modes + n]) * std::exp(l * z.real());
        b += term * (8 + 7.0 * multiplications + 3 * l * std::abs(z) + bank.modes);
      }
      // A floor below fp32's smallest normal number: terms that underflow are not errors.
      bound[std::size_t(c) * bank.length + l] = bank.scale * u * b + 1e-37;
    }
  return bound;
}
// [/snippet:error_bound]

}  // namespace s4d
