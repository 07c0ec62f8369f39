// gpu_adamw.cu: AdamW over every parameter of the model, with global-norm clipping.
//
// The parameters, their gradients and both moments are each one flat array (model_config.hpp),
// so the optimizer is one elementwise kernel with no knowledge of the model's shape: one thread
// per parameter. Clipping needs the norm of the whole gradient first: one block sums the squares
// (about 10^5 of them) in a fixed order and leaves the norm in device memory, where the update
// kernel reads it. The bias corrections depend only on the step: the host computes them.
#include "gpu_adamw.hpp"

#include "cuda_check.hpp"
#include "gpu_launch.cuh"

#include <cmath>

namespace ch09::gpu {

namespace {

__global__ void gradient_norm_kernel(const float* g, long long count, float* norm) {
  __shared__ float scratch[32];
  float sum = 0.0f;
  for (long long i = threadIdx.x; i < count; i += blockDim.x) sum += g[i] * g[i];
  sum = block_sum(sum, scratch);
  if (threadIdx.x == 0) *norm = sqrtf(sum);
}

// [snippet:adamw_kernel]
__global__ void adamw_kernel(float* p, const float* g, float* m, float* v, const float* decay, long long count,
                             float beta1, float beta2, float eps, float weight_decay, float lr, float correction1,
                             float correction2, float clip_norm, const float* norm) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const float clip = (clip_norm > 0.0f && *norm > clip_norm) ? clip_norm / *norm : 1.0f;
  const float grad = g[i] * clip;
  const float m_new = beta1 * m[i] + (1.0f - beta1) * grad;
  const float v_new = beta2 * v[i] + (1.0f - beta2) * grad * grad;
  m[i] = m_new;
  v[i] = v_new;
  const float update = (m_new / correction1) / (sqrtf(v_new / correction2) + eps);
  p[i] -= lr * (update + weight_decay * decay[i] * p[i]);
}
// [/snippet:adamw_kernel]

}  // namespace

void gradient_norm(const float* g, std::size_t count, float* norm, cudaStream_t stream) {
  gradient_norm_kernel<<<1, 1024, 0, stream>>>(g, static_cast<long long>(count), norm);
  CUDA_CHECK_LAUNCH();
}

void adamw_step(float* p, const float* g, float* m, float* v, const float* decay, std::size_t count,
                const AdamWSettings& settings, float lr, int step, const float* norm, cudaStream_t stream) {
  if (count == 0) return;
  const double correction1 = 1.0 - std::pow(settings.beta1, double(step));
  const double correction2 = 1.0 - std::pow(settings.beta2, double(step));
  adamw_kernel<<<blocks_for(static_cast<long long>(count)), kThreads, 0, stream>>>(
      p, g, m, v, decay, static_cast<long long>(count), float(settings.beta1), float(settings.beta2),
      float(settings.eps), float(settings.weight_decay), lr, float(correction1), float(correction2),
      float(settings.clip_norm), norm);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ch09::gpu
