// The reverse pass of h_k = a_k h_{k−1} + b_k on the GPU, in numbered versions:
//   1  reverse_sequential  one thread per sequence walks it from the end; h read from memory
//   2  reverse_by_reversed_index  a forward block pair scan fed the steps in reversed order
//   3  reverse_block_scan  warp reverse scan with shuffle-down; raking across warps; carry from later chunks
//   4  reverse_recompute_h  version 3 recomputing h from chunk checkpoints instead of storing it
//
// Every version computes g_k = dy_k + a_{k+1} g_{k+1}, writes ∂L/∂b_k = g_k and
// ∂L/∂a_k = g_k h_{k−1}. Step k is the affine map g ↦ A_k g + B_k with (A_k, B_k) =
// (a_{k+1}, dy_k), and A_{L−1} = 0 because nothing lies past the end.
#include "block_scan.cuh"
#include "cuda_check.hpp"
#include "reverse_block_scan.cuh"
#include "reverse_kernels.hpp"

#include <climits>
#include <stdexcept>

namespace rscan {

namespace {

__global__ void forward_store_h_kernel(const float* a, const float* b, float* h, std::size_t length) {
  __shared__ Affine warp_totals[kWarps];
  const std::size_t first = blockIdx.x * length;
  float state = 0.0f;  // h just before the chunk
  for (std::size_t start = 0; start < length; start += kBlockThreads) {
    const std::size_t k = start + threadIdx.x;
    Affine total;
    const Affine x =
        block_forward_scan(k < length ? Affine{a[first + k], b[first + k]} : identity(), warp_totals, total);
    if (k < length) h[first + k] = x.a * state + x.b;
    state = total.a * state + total.b;
  }
}

// [snippet:reverse_sequential]
__global__ void reverse_sequential(DeviceProblem p) {
  const std::size_t s = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (s >= p.sequences) return;
  const std::size_t first = s * p.length;
  float g = 0.0f;       // g_{k+1}
  float a_next = 0.0f;  // a_{k+1}
  for (std::size_t k = p.length; k-- > 0;) {
    g = p.dy[first + k] + a_next * g;
    write_gradients(p, first, k, g, k > 0 ? p.h[first + k - 1] : 0.0f);
    a_next = p.a[first + k];
  }
}
// [/snippet:reverse_sequential]

// [snippet:reverse_by_reversed_index]
// Position j of the forward scan is step k = L − 1 − j of the sequence: the same forward
// pair scan that computes h computes g when it reads the steps from the end.
__global__ void reverse_by_reversed_index(DeviceProblem p) {
  __shared__ Affine warp_totals[kWarps];
  const std::size_t first = blockIdx.x * p.length;
  float g_later = 0.0f;  // g just past the chunk (in time)
  for (std::size_t start = 0; start < p.length; start += kBlockThreads) {
    const std::size_t j = start + threadIdx.x;
    const std::size_t k = p.length - 1 - j;  // meaningful only when j < length
    const Affine step = j < p.length ? reverse_step(p.a + first, p.dy + first, p.length, k) : identity();
    Affine total;
    const Affine x = block_forward_scan(step, warp_totals, total);
    if (j < p.length) write_gradients(p, first, k, x.a * g_later + x.b, k > 0 ? p.h[first + k - 1] : 0.0f);
    g_later = total.a * g_later + total.b;
  }
}
// [/snippet:reverse_by_reversed_index]

// Version 3, reverse_block_scan_kernel, lives in reverse_block_scan.cu: it is exercise 4.

// [snippet:reverse_recompute_h]
// Pass 1 runs the forward scan and keeps only the state entering each chunk; pass 2 walks the
// chunks from the end, recomputes the chunk's h from its checkpoint into shared memory, and
// runs version 3's reverse scan on it.
__global__ void reverse_recompute_h(DeviceProblem p) {
  __shared__ Affine warp_totals[kWarps];
  __shared__ float h_before[kBlockThreads + 1];  // h_{k−1} for the chunk's steps, then its last h
  const std::size_t first = blockIdx.x * p.length;
  const std::size_t chunks = chunk_count(p.length);
  float* checkpoints = p.checkpoints + blockIdx.x * chunks;

  float state = 0.0f;
  for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
    const std::size_t k = chunk * kBlockThreads + threadIdx.x;
    // Written before the scan, so that the scan's barriers publish it to the whole block.
    if (threadIdx.x == 0) checkpoints[chunk] = state;
    Affine total;
    block_forward_scan(k < p.length ? Affine{p.a[first + k], p.b[first + k]} : identity(), warp_totals, total);
    state = total.a * state + total.b;
  }

  float g_later = 0.0f;
  for (std::size_t chunk = chunks; chunk-- > 0;) {
    const std::size_t k = chunk * kBlockThreads + threadIdx.x;
    const float entering = checkpoints[chunk];
    Affine total;
    const Affine h =
        block_forward_scan(k < p.length ? Affine{p.a[first + k], p.b[first + k]} : identity(), warp_totals, total);
    if (threadIdx.x == 0) h_before[0] = entering;
    h_before[threadIdx.x + 1] = h.a * entering + h.b;
    // block_reverse_scan's first barrier orders these writes before the reads below.
    const Affine x = block_reverse_scan(reverse_step(p.a + first, p.dy + first, p.length, k), warp_totals, total);
    if (k < p.length) write_gradients(p, first, k, x.a * g_later + x.b, h_before[threadIdx.x]);
    g_later = total.a * g_later + total.b;
    __syncthreads();  // h_before is rewritten by the next chunk
  }
}
// [/snippet:reverse_recompute_h]

void require_grid(const DeviceProblem& p) {
  if (p.sequences > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("rscan: more sequences than a grid holds");
}

}  // namespace

void forward_store_h(const DeviceProblem& p, float* h, cudaStream_t stream) {
  require_grid(p);
  if (p.sequences == 0 || p.length == 0) return;
  forward_store_h_kernel<<<static_cast<unsigned>(p.sequences), kBlockThreads, 0, stream>>>(p.a, p.b, h, p.length);
  CUDA_CHECK_LAUNCH();
}

void run_backward(Kernel kernel, const DeviceProblem& p, cudaStream_t stream) {
  require_grid(p);
  if (p.sequences == 0 || p.length == 0) return;
  const unsigned blocks = static_cast<unsigned>(p.sequences);
  switch (kernel) {
    case Kernel::sequential: {
      constexpr unsigned threads = 128;
      reverse_sequential<<<static_cast<unsigned>((p.sequences + threads - 1) / threads), threads, 0, stream>>>(p);
      break;
    }
    case Kernel::reversed_index: reverse_by_reversed_index<<<blocks, kBlockThreads, 0, stream>>>(p); break;
    case Kernel::block_reverse: reverse_block_scan_kernel<<<blocks, kBlockThreads, 0, stream>>>(p); break;
    case Kernel::recompute_h: reverse_recompute_h<<<blocks, kBlockThreads, 0, stream>>>(p); break;
    default: throw std::invalid_argument("rscan: unknown kernel version");
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace rscan
