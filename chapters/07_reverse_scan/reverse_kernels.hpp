// Chapter 07's GPU versions of the reverse pass, each adding one idea (the list is in
// reverse_kernels.cu's header comment, checked against kKernels by a test).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace rscan {

enum class Kernel : int { sequential = 1, reversed_index = 2, block_reverse = 3, recompute_h = 4 };

struct KernelInfo {
  Kernel id;
  const char* name;
  const char* idea;
};

inline constexpr KernelInfo kKernels[] = {
    {Kernel::sequential, "reverse_sequential", "one thread per sequence walks it from the end; h read from memory"},
    {Kernel::reversed_index, "reverse_by_reversed_index", "a forward block pair scan fed the steps in reversed order"},
    {Kernel::block_reverse, "reverse_block_scan",
     "warp reverse scan with shuffle-down; raking across warps; carry from later chunks"},
    {Kernel::recompute_h, "reverse_recompute_h",
     "version 3 recomputing h from chunk checkpoints instead of storing it"},
};
inline constexpr int kKernelCount = static_cast<int>(sizeof kKernels / sizeof kKernels[0]);

// Versions 2-4 give one block to each sequence and walk it in chunks of this many steps.
inline constexpr int kBlockThreads = 256;

// Chunks per sequence, and the states version 4 keeps: one per chunk of every sequence.
inline std::size_t chunks_per_sequence(std::size_t length) { return (length + kBlockThreads - 1) / kBlockThreads; }

// Device pointers of one problem: `sequences` sequences of `length` steps, sequence s at
// [s·length, (s+1)·length) in every array.
struct DeviceProblem {
  std::size_t sequences = 0;
  std::size_t length = 0;
  const float* a = nullptr;
  const float* b = nullptr;   // read by version 4 only (the others read the stored h)
  const float* dy = nullptr;  // ∂L/∂h_k, the loss's local part
  const float* h = nullptr;   // the stored forward states, read by versions 1-3
  float* grad_a = nullptr;
  float* grad_b = nullptr;       // = g
  float* checkpoints = nullptr;  // sequences × chunks_per_sequence(length), version 4 only
};

// The forward pass that stores every h (what versions 1-3 need): one block per sequence.
void forward_store_h(const DeviceProblem& p, float* h, cudaStream_t stream = nullptr);

void run_backward(Kernel kernel, const DeviceProblem& p, cudaStream_t stream = nullptr);

}  // namespace rscan
