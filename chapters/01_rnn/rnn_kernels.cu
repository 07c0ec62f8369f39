// Chapter 01: the RNN recurrence on the GPU.
//
//   h_t = f(W h_{t-1} + u x_t),   y_t = c · h_t        (f = tanh, or identity: the linear RNN)
//
// Every version runs many independent sequences at once, and every version still takes L
// dependent steps: h_t needs h_{t-1}, whatever the hardware. What changes is how the work
// of one step is spread and where the state lives.
//
// Versions (ch01_rnn --kernel N runs version N alone):
//   1  rnn_step_per_launch      one thread per (sequence, unit); one launch per time step
//   2  rnn_thread_per_sequence  one thread runs a whole sequence; h in registers
//   3  rnn_warp_per_sequence    one warp per sequence; lane j owns unit j; shuffles
#include "activation.cuh"
#include "cuda_check.hpp"
#include "rnn_kernels.hpp"
#include "rnn_step_kernel.cuh"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace rnn {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// Version 1's second launch per step: y_t[b] = c · h_t[b], one thread per sequence.
__global__ void rnn_output_kernel(int hidden, int batch, const float* c, const float* h, float* y_t) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  float out = 0;
  for (int j = 0; j < hidden; ++j) out = fmaf(c[j], h[std::size_t(b) * hidden + j], out);
  y_t[b] = out;
}

void run_step_per_launch(Activation f, const DeviceProblem& p, cudaStream_t stream) {
  const std::size_t state = std::size_t(p.batch) * p.hidden;
  float* h_prev = p.h_scratch;
  float* h_next = p.h_scratch + state;
  CUDA_CHECK(cudaMemsetAsync(h_prev, 0, state * sizeof(float), stream));  // h_{-1} = 0
  constexpr int threads = 256;
  const unsigned step_blocks = static_cast<unsigned>((state + threads - 1) / threads);
  const unsigned output_blocks = static_cast<unsigned>((p.batch + threads - 1) / threads);
  // [snippet:step_loop]
  for (int t = 0; t < p.length; ++t) {
    const float* x_t = p.x + std::size_t(t) * p.batch;
    rnn_step_kernel<<<step_blocks, threads, 0, stream>>>(f, p.hidden, p.batch, p.W, p.u, x_t, h_prev, h_next);
    CUDA_CHECK_LAUNCH();
    rnn_output_kernel<<<output_blocks, threads, 0, stream>>>(p.hidden, p.batch, p.c, h_next,
                                                             p.y + std::size_t(t) * p.batch);
    CUDA_CHECK_LAUNCH();
    std::swap(h_prev, h_next);
  }
  // [/snippet:step_loop]
  CUDA_CHECK(cudaMemcpyAsync(p.h_final, h_prev, state * sizeof(float), cudaMemcpyDeviceToDevice, stream));
}

// [snippet:thread_per_sequence]
template <int H, Activation F>
__global__ void __launch_bounds__(128)
    rnn_thread_per_sequence(const float* W, const float* u, const float* c, const float* x, float* y, float* h_final,
                            int batch, int length) {
  // Every thread of the block reads the same weight at the same moment: a broadcast from
  // shared memory, no bank conflicts.
  // [snippet:shared_weights]
  __shared__ float sW[H * H], su[H], sc[H];
  for (int i = threadIdx.x; i < H * H; i += blockDim.x) sW[i] = W[i];
  for (int i = threadIdx.x; i < H; i += blockDim.x) su[i] = u[i], sc[i] = c[i];
  __syncthreads();
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;  // after the barrier, so that every thread helped to load
  // [/snippet:shared_weights]

  // The weights never change, so the compiler would hoist all H² of them out of the time
  // loop into registers -- far more than a thread has, and they would spill to slow local
  // memory (the resource report, -Xptxas -v, showed a 5.8 KB stack frame). Reading them
  // through a volatile pointer keeps them in shared memory, read once per use.
  const volatile float* weights = sW;
  float h[H] = {};  // the state lives in registers: every index below is a compile-time constant
  for (int t = 0; t < length; ++t) {
    const float x_t = x[std::size_t(t) * batch + b];  // neighbouring threads, neighbouring addresses
    float next[H];
#pragma unroll
    for (int j = 0; j < H; ++j) {
      float a = su[j] * x_t;
#pragma unroll
      for (int k = 0; k < H; ++k) a = fmaf(weights[j * H + k], h[k], a);
      next[j] = activate<F>(a);
    }
    float out = 0;
#pragma unroll
    for (int j = 0; j < H; ++j) {
      h[j] = next[j];
      out = fmaf(sc[j], h[j], out);
    }
    y[std::size_t(t) * batch + b] = out;
  }
#pragma unroll
  for (int j = 0; j < H; ++j) h_final[std::size_t(b) * H + j] = h[j];
}
// [/snippet:thread_per_sequence]

// [snippet:warp_per_sequence]
template <int H, Activation F>
__global__ void __launch_bounds__(128)
    rnn_warp_per_sequence(const float* W, const float* u, const float* c, const float* x, float* y, float* h_final,
                          int batch, int length) {
  constexpr int R = (H + 31) / 32;  // hidden units per lane: lane l owns units l, l + 32, ...
  const int lane = threadIdx.x % 32;
  const std::size_t b = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) / 32;
  if (b >= std::size_t(batch)) return;  // the whole warp leaves together

  // Each lane keeps its own rows of W in registers. Units past H get zero weights, so
  // their state stays f(0) = 0 and they add nothing to y.
  float w[R][H], uj[R], cj[R], h[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int j = lane + 32 * r;
#pragma unroll
    for (int k = 0; k < H; ++k) w[r][k] = j < H ? W[j * H + k] : 0.f;
    uj[r] = j < H ? u[j] : 0.f;
    cj[r] = j < H ? c[j] : 0.f;
    h[r] = 0.f;
  }

  for (int t0 = 0; t0 < length; t0 += 32) {
    // Fetch 32 steps of input at once, one per lane, so no global load sits on the
    // step-to-step chain; each step takes its x from a shuffle and leaves its y in lane i.
    const int t_lane = t0 + lane;
    const float x_chunk = t_lane < length ? x[std::size_t(t_lane) * batch + b] : 0.f;
    float y_chunk = 0.f;
    const int steps = min(32, length - t0);
    for (int i = 0; i < steps; ++i) {
      const float x_t = __shfl_sync(kFullMask, x_chunk, i);
      float a[R];
#pragma unroll
      for (int r = 0; r < R; ++r) a[r] = uj[r] * x_t;
#pragma unroll
      for (int k = 0; k < H; ++k) {
        // [snippet:shuffle_state]
        const float h_k = __shfl_sync(kFullMask, h[k / 32], k % 32);  // unit k, from the lane that owns it
                                                                      // [/snippet:shuffle_state]
#pragma unroll
        for (int r = 0; r < R; ++r) a[r] = fmaf(w[r][k], h_k, a[r]);
      }
      float partial = 0.f;
#pragma unroll
      for (int r = 0; r < R; ++r) {
        h[r] = activate<F>(a[r]);
        partial = fmaf(cj[r], h[r], partial);
      }
      // y_t = Σ_j c_j h_j: a butterfly leaves the sum in every lane.
#pragma unroll
      // [snippet:butterfly]
      for (int offset = 16; offset > 0; offset /= 2) partial += __shfl_xor_sync(kFullMask, partial, offset);
      // [/snippet:butterfly]
      if (lane == i) y_chunk = partial;
    }
    if (t_lane < length) y[std::size_t(t_lane) * batch + b] = y_chunk;
  }
#pragma unroll
  for (int r = 0; r < R; ++r)
    if (lane + 32 * r < H) h_final[b * H + lane + 32 * r] = h[r];
}
// [/snippet:warp_per_sequence]

template <int H, Activation F>
void launch_register_kernel(Kernel kernel, const DeviceProblem& p, cudaStream_t stream) {
  constexpr int threads = 128;
  if (kernel == Kernel::thread_per_sequence) {
    const unsigned blocks = static_cast<unsigned>((std::size_t(p.batch) + threads - 1) / threads);
    rnn_thread_per_sequence<H, F>
        <<<blocks, threads, 0, stream>>>(p.W, p.u, p.c, p.x, p.y, p.h_final, p.batch, p.length);
  } else {
    const std::size_t warps = threads / 32;
    const unsigned blocks = static_cast<unsigned>((std::size_t(p.batch) + warps - 1) / warps);
    rnn_warp_per_sequence<H, F><<<blocks, threads, 0, stream>>>(p.W, p.u, p.c, p.x, p.y, p.h_final, p.batch, p.length);
  }
  CUDA_CHECK_LAUNCH();
}

template <Activation F>
void dispatch_hidden(Kernel kernel, const DeviceProblem& p, cudaStream_t stream) {
  switch (p.hidden) {
    case 16: return launch_register_kernel<16, F>(kernel, p, stream);
    case 32: return launch_register_kernel<32, F>(kernel, p, stream);
    default: throw std::invalid_argument("hidden size " + std::to_string(p.hidden) + " is not 16 or 32");
  }
}

}  // namespace

bool hidden_size_supported(int hidden) {
  for (int h : kHiddenSizes)
    if (h == hidden) return true;
  return false;
}

void run_gpu(Kernel kernel, Activation f, const DeviceProblem& p, cudaStream_t stream) {
  if (!hidden_size_supported(p.hidden) || p.batch < 1 || p.length < 1)
    throw std::invalid_argument("run_gpu: hidden must be 16 or 32, and batch and length at least 1");
  if (kernel == Kernel::step_per_launch) return run_step_per_launch(f, p, stream);
  if (f == Activation::tanh) return dispatch_hidden<Activation::tanh>(kernel, p, stream);
  return dispatch_hidden<Activation::identity>(kernel, p, stream);
}

}  // namespace rnn
