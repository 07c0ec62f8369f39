// S4D: diagonal state space models, their initializations and their convolution kernels
// (fp64 references).
//
// A diagonal SSM h' = diag(A) h + B x, y = Re-part of C h, discretized by zero-order hold:
//   Ā_n = exp(Δ A_n),   B̄_n = (exp(Δ A_n) − 1) / A_n · B_n,
// has the convolution kernel  K̄_ℓ = Σ_n C_n B̄_n Ā_n^ℓ,  ℓ = 0 .. L−1: a Vandermonde product.
// The complex initializations keep one mode of each conjugate pair (the other gives the
// complex conjugate term), so their kernel is 2 Re Σ_n over N/2 modes.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

namespace s4d {

using complex = std::complex<double>;

enum class Init { lin, inv, real };
inline constexpr Init kInits[] = {Init::lin, Init::inv, Init::real};
const char* name(Init init);

// The diagonal of A for state size N (N even for the complex ones):
//   lin   A_n = −½ + iπn                       n = 0 .. N/2 − 1
//   inv   A_n = −½ + i (N/π) (N/(2n + 1) − 1)  n = 0 .. N/2 − 1
//   real  A_n = −(n + 1)                       n = 0 .. N − 1   (Mamba's A = −(1 .. N))
std::vector<complex> init_A(Init init, int N);
// Whether the modes stand for conjugate pairs (the kernel is then 2 Re Σ).
bool conjugate_pairs(Init init);

// One channel: its modes, its step Δ.
struct Channel {
  std::vector<complex> A, B, C;
  double dt = 0;
  bool conjugate_pairs = false;
};

struct Discretized {
  std::vector<complex> A_bar, B_bar;
};
Discretized zoh(const Channel& ch);

// K̄_ℓ for ℓ = 0 .. L−1 with Ā^ℓ = exp(ℓ Δ A) (the Vandermonde form)...
std::vector<double> kernel_vandermonde(const Channel& ch, int length);
// ...and by running the recurrence h_ℓ = Ā h_{ℓ−1} + B̄ x_ℓ on a unit impulse x = (1, 0, 0, ...).
std::vector<double> kernel_by_recurrence(const Channel& ch, int length);

// Many channels of one initialization, as the GPU sees them: per (channel c, mode n) the
// weight W = C_n B̄_n and the exponent z = Δ_c A_n, so that K̄[c, ℓ] = scale · Re Σ_n W e^{ℓ z}
// (scale 2 for conjugate pairs, else 1). Δ_c is log-uniform in [1e-3, 1e-1], B = 1 and C is
// standard normal (complex normal for the complex initializations), seeded.
struct Bank {
  int channels = 0;
  int modes = 0;
  int length = 0;
  double scale = 1;
  std::vector<complex> W, z;  // channels × modes, row-major
};
Bank make_bank(Init init, int channels, int state_size, int length, std::uint64_t seed);

// The fp64 kernels of the first `count` channels: count × length, row-major.
std::vector<double> bank_reference(const Bank& bank, int count);

// How far an fp32 kernel may be from the fp64 one, element by element, when every power is
// e^{ℓz} computed in fp32 (with up to `multiplications` further products by a power of Ā):
//   scale · u · Σ_n |W_n| e^{ℓ Re z_n} (8 + 7·multiplications + 3 ℓ|z_n| + modes),  u = 2⁻²⁴.
// The ℓ|z| term is the rounding of the exponent ℓz (README: "How accurate is fp32?").
std::vector<double> fp32_error_bound(const Bank& bank, int count, int multiplications);

}  // namespace s4d
