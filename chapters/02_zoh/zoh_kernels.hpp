// Chapter 02's GPU versions of the discretization of a whole selective (Mamba-shaped)
// problem, each adding one idea (the list is in zoh_kernels.cu's header comment, checked
// against kKernels by a test).
//
// Shapes, all row-major, fp32:
//   Δ  (batch, L, D)      one step size per token and channel (input-dependent in Mamba)
//   A  (D, N)             a diagonal A per channel: a_dn, real
//   B  (batch, L, N)      input-dependent, shared by the channels
//   Ā, B̄ (batch, L, D, N)   ā = exp(Δ a),  b̄ = Δ φ₁(Δ a) b (ZOH) or Δ b (Mamba)
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace zoh {

// How the GPU kernels form B̄ (Ā = exp(ΔA) under both rules).
enum class Rule : int { zoh = 0, mamba = 1 };

inline const char* name(Rule r) { return r == Rule::zoh ? "ZOH B̄" : "Mamba B̄"; }

enum class Kernel : int { naive = 1, exp2 = 2, vectorized = 3 };

struct KernelInfo {
  Kernel id;
  const char* name;
  const char* idea;
};

inline constexpr KernelInfo kKernels[] = {
    {Kernel::naive, "discretize_naive", "one thread per output element; expf, and expm1f for ZOH"},
    {Kernel::exp2, "discretize_exp2", "exp2f with log2(e) folded into A on the host: one MUFU.EX2"},
    {Kernel::vectorized, "discretize_vectorized", "four consecutive elements per thread; float4 stores"},
};
inline constexpr int kKernelCount = static_cast<int>(sizeof kKernels / sizeof kKernels[0]);

// Device pointers and sizes of one problem.
struct DeviceProblem {
  int batch = 0;
  int length = 0;
  int channels = 0;                // D
  int state = 0;                   // N
  std::size_t count = 0;           // batch · L · D · N, the number of outputs of each kind
  const float* delta = nullptr;    // (batch, L, D)
  const float* A = nullptr;        // (D, N)
  const float* A_log2e = nullptr;  // (D, N): A · log2(e), rounded once to fp32 on the host
  const float* B = nullptr;        // (batch, L, N)
  float* Abar = nullptr;           // (batch, L, D, N)
  float* Bbar = nullptr;           // (batch, L, D, N)
};

// Throws std::invalid_argument for a bad shape or (version 3) misaligned outputs.
void run_gpu(Kernel kernel, Rule rule, const DeviceProblem& p, cudaStream_t stream = nullptr);

}  // namespace zoh
