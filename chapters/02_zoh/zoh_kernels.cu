// Chapter 02: discretizing a whole selective problem on the GPU, in one pass.
//
//   Ā[b,l,d,n] = exp(Δ[b,l,d] · A[d,n])
//   B̄[b,l,d,n] = Δ[b,l,d] · φ₁(Δ[b,l,d] · A[d,n]) · B[b,l,n]   (ZOH)   or   Δ · B  (Mamba)
//
// Each output element costs a handful of arithmetic instructions and 8 bytes of stores; the
// inputs are small and re-read from cache. So the kernel is bound by memory bandwidth, and
// the versions are judged against a device-to-device copy.
//
// Versions (ch02_zoh --kernel N runs version N alone):
//   1  discretize_naive       one thread per output element; expf, and expm1f for ZOH
//   2  discretize_exp2        exp2f with log2(e) folded into A on the host: one MUFU.EX2
//   3  discretize_vectorized  four consecutive elements per thread; float4 stores
#include "cuda_check.hpp"
#include "discretize_math.cuh"
#include "zoh_kernels.hpp"
#include "zoh_naive_kernel.cuh"

#include <climits>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace zoh {
namespace {

constexpr int kThreads = 256;
constexpr int kPerThread = 4;  // version 3: one float4 of each output

// [snippet:exp2]
__global__ void discretize_exp2(Rule rule, DeviceProblem p) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= p.count) return;
  const std::size_t n = i % p.state;
  const std::size_t row = i / p.state;
  const std::size_t d = row % p.channels;
  const std::size_t token = row / p.channels;
  const float delta = p.delta[row];
  const std::size_t dn = d * p.state + n;
  // exp(Δa) = 2^(Δ · a·log2 e). With a·log2 e precomputed, exp2f compiles to the special
  // function unit's ex2 (MUFU.EX2) and a few fix-ups for tiny results, where expf first
  // splits Δa·log2 e into two parts with extra FMAs to stay accurate for large |Δa|.
  p.Abar[i] = exp2f(delta * p.A_log2e[dn]);
  p.Bbar[i] = input_factor(rule, delta, p.A[dn], p.B[token * p.state + n]);
}
// [/snippet:exp2]

// [snippet:vectorized]
__global__ void discretize_vectorized(Rule rule, DeviceProblem p) {
  const std::size_t first = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) * kPerThread;
  if (first >= p.count) return;
  // Divide once for the first element, then walk: n + 1, carrying into d and the token.
  std::size_t n = first % p.state;
  std::size_t row = first / p.state;
  std::size_t d = row % p.channels;
  float abar[kPerThread], bbar[kPerThread];
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    if (first + k < p.count) {
      const float delta = p.delta[row];
      const std::size_t dn = d * p.state + n;
      abar[k] = exp2f(delta * p.A_log2e[dn]);
      bbar[k] = input_factor(rule, delta, p.A[dn], p.B[(row / p.channels) * p.state + n]);
    }
    if (++n == std::size_t(p.state)) {
      n = 0;
      ++row;
      if (++d == std::size_t(p.channels)) d = 0;
    }
  }
  if (first + kPerThread <= p.count) {
    // first is a multiple of 4 and the arrays start 16-byte aligned (checked on launch), so
    // each thread writes one aligned 16-byte vector per output: one store instruction
    // instead of four.
    reinterpret_cast<float4*>(p.Abar)[first / kPerThread] = make_float4(abar[0], abar[1], abar[2], abar[3]);
    reinterpret_cast<float4*>(p.Bbar)[first / kPerThread] = make_float4(bbar[0], bbar[1], bbar[2], bbar[3]);
  } else {
    // The last, partial group. Unrolled, so that abar[k] stays in registers: a loop that
    // stops at a run-time k would index the arrays dynamically and put them on the stack.
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      if (first + k < p.count) {
        p.Abar[first + k] = abar[k];
        p.Bbar[first + k] = bbar[k];
      }
    }
  }
}
// [/snippet:vectorized]

unsigned blocks_for(std::size_t threads_needed) {
  const std::size_t blocks = (threads_needed + kThreads - 1) / kThreads;
  if (blocks > std::size_t(INT_MAX)) throw std::invalid_argument("run_gpu: problem too large for one launch");
  return static_cast<unsigned>(blocks);
}

bool aligned16(const void* ptr) { return reinterpret_cast<std::uintptr_t>(ptr) % 16 == 0; }

}  // namespace

void run_gpu(Kernel kernel, Rule rule, const DeviceProblem& p, cudaStream_t stream) {
  if (p.batch < 1 || p.length < 1 || p.channels < 1 || p.state < 1 ||
      p.count != std::size_t(p.batch) * p.length * p.channels * p.state)
    throw std::invalid_argument("run_gpu: batch, L, D and N must be at least 1 and count their product");
  switch (kernel) {
    case Kernel::naive: discretize_naive<<<blocks_for(p.count), kThreads, 0, stream>>>(rule, p); break;
    case Kernel::exp2: discretize_exp2<<<blocks_for(p.count), kThreads, 0, stream>>>(rule, p); break;
    case Kernel::vectorized:
      if (!aligned16(p.Abar) || !aligned16(p.Bbar))
        throw std::invalid_argument("run_gpu: version 3 needs Ā and B̄ aligned to 16 bytes");
      discretize_vectorized<<<blocks_for((p.count + kPerThread - 1) / kPerThread), kThreads, 0, stream>>>(rule, p);
      break;
    default: throw std::invalid_argument("run_gpu: no kernel version " + std::to_string(int(kernel)));
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace zoh
