// gpu_ssm_parameters.cu: two elementwise kernels on the (d_inner, N) matrix A, one thread each.
#include "gpu_ssm_parameters.hpp"

#include "cuda_check.hpp"
#include "gpu_launch.cuh"

namespace ch09::gpu {

namespace {

__global__ void decay_from_log_kernel(const float* A_log, float* A, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) A[i] = -expf(A_log[i]);
}

__global__ void decay_log_gradient_kernel(const float* dA, const float* A, float* dA_log, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) dA_log[i] = dA[i] * A[i];
}

}  // namespace

void decay_from_log(const float* A_log, float* A, int count, cudaStream_t stream) {
  if (count == 0) return;
  decay_from_log_kernel<<<blocks_for(count), kThreads, 0, stream>>>(A_log, A, count);
  CUDA_CHECK_LAUNCH();
}

void decay_log_gradient(const float* dA, const float* A, float* dA_log, int count, cudaStream_t stream) {
  if (count == 0) return;
  decay_log_gradient_kernel<<<blocks_for(count), kThreads, 0, stream>>>(dA, A, dA_log, count);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ch09::gpu
