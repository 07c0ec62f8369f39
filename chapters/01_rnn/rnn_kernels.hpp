// Chapter 01's GPU versions of the RNN, each adding one idea (the list is in
// rnn_kernels.cu's header comment, checked against kKernels by a test).
#pragma once

#include "rnn.hpp"

#include <cuda_runtime.h>

namespace rnn {

enum class Kernel : int { step_per_launch = 1, thread_per_sequence = 2, warp_per_sequence = 3 };

struct KernelInfo {
  Kernel id;
  const char* name;
  const char* idea;
};

inline constexpr KernelInfo kKernels[] = {
    {Kernel::step_per_launch, "rnn_step_per_launch", "one thread per (sequence, unit); one launch per time step"},
    {Kernel::thread_per_sequence, "rnn_thread_per_sequence", "one thread runs a whole sequence; h in registers"},
    {Kernel::warp_per_sequence, "rnn_warp_per_sequence", "one warp per sequence; lane j owns unit j; shuffles"},
};
inline constexpr int kKernelCount = static_cast<int>(sizeof kKernels / sizeof kKernels[0]);

// Kernels 2 and 3 keep the state in registers, so H is a compile-time constant; each H
// is compiled separately (and fully unrolled), so the list stays short.
inline constexpr int kHiddenSizes[] = {16, 32};
bool hidden_size_supported(int hidden);

// Device pointers and sizes of one problem (see rnn.hpp for the layout).
struct DeviceProblem {
  int hidden = 0;
  int batch = 0;
  int length = 0;
  const float* W = nullptr;    // H × H
  const float* u = nullptr;    // H
  const float* c = nullptr;    // H
  const float* x = nullptr;    // L × batch
  float* y = nullptr;          // L × batch
  float* h_final = nullptr;    // batch × H
  float* h_scratch = nullptr;  // 2 × batch × H, used by kernel 1 only
};

void run_gpu(Kernel kernel, Activation f, const DeviceProblem& p, cudaStream_t stream = nullptr);

}  // namespace rnn
