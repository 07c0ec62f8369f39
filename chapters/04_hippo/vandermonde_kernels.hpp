// Chapter 04's GPU versions of the S4D kernel K̄ for many channels at once (the list is in
// vandermonde_kernels.cu's header comment, checked against kKernels by a test).
#pragma once

#include <cuda_runtime.h>

namespace s4d {

enum class Kernel : int { exp_per_element = 1, powers_in_chunk = 2, strided_powers = 3 };

struct KernelInfo {
  Kernel id;
  const char* name;
  const char* idea;
  int multiplications;  // products by a power of Ā after each exp (for the error bound)
};

// Kernels 2 and 3: each thread produces this many ℓ from one exp per mode.
inline constexpr int kPowersPerThread = 8;

inline constexpr KernelInfo kKernels[] = {
    {Kernel::exp_per_element, "vandermonde_exp_per_element",
     "one thread per (channel, l); every power is exp(l * dt * A)", 0},
    {Kernel::powers_in_chunk, "vandermonde_powers_in_chunk",
     "one thread per (channel, 8 consecutive l); one exp, then 7 products by A_bar", kPowersPerThread - 1},
    {Kernel::strided_powers, "vandermonde_strided_powers",
     "one thread per (channel, 8 l a block apart); products by A_bar^128; coalesced stores", kPowersPerThread - 1},
};
inline constexpr int kKernelCount = static_cast<int>(sizeof kKernels / sizeof kKernels[0]);

// Device pointers and sizes of one bank of channels (see s4d.hpp): W and z are
// channels × modes, K is channels × length, all row-major. z is stored as (Re z, Im z / π),
// the angle in half-turns (complex_float.cuh says why).
struct DeviceBank {
  int channels = 0;
  int modes = 0;
  int length = 0;
  float scale = 1;
  const float2* W = nullptr;
  const float2* z = nullptr;
  float* K = nullptr;
};

void run_gpu(Kernel kernel, const DeviceBank& bank, cudaStream_t stream = nullptr);

}  // namespace s4d
