// gpu_adamw.cu: AdamW over every parameter of the model in one launch.
//
// The parameters, their gradients and both moments are each one flat array (model_config.hpp),
// so the optimizer is a single elementwise kernel with no knowledge of the model's shape: one
// thread per parameter. The bias corrections depend only on the step, so the host computes them
// once and passes them in.
#include "gpu_adamw.hpp"

#include "cuda_check.hpp"
#include "gpu_launch.cuh"

#include <cmath>

namespace ch09::gpu {

namespace {

// [snippet:adamw_kernel]
__global__ void adamw_kernel(float* p, const float* g, float* m, float* v, const unsigned char* decay,
                             long long count, float beta1, float beta2, float eps, float weight_decay, float lr,
                             float correction1, float correction2) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const float grad = g[i];
  const float m_new = beta1 * m[i] + (1.0f - beta1) * grad;
  const float v_new = beta2 * v[i] + (1.0f - beta2) * grad * grad;
  m[i] = m_new;
  v[i] = v_new;
  const float update = (m_new / correction1) / (sqrtf(v_new / correction2) + eps);
  const float decayed = decay[i] ? weight_decay * p[i] : 0.0f;
  p[i] -= lr * (update + decayed);
}
// [/snippet:adamw_kernel]

}  // namespace

void adamw_step(float* p, const float* g, float* m, float* v, const unsigned char* decay, std::size_t count,
                const AdamWSettings& settings, float lr, int step, cudaStream_t stream) {
  if (count == 0) return;
  const float correction1 = 1.0f - std::pow(settings.beta1, static_cast<float>(step));
  const float correction2 = 1.0f - std::pow(settings.beta2, static_cast<float>(step));
  adamw_kernel<<<blocks_for(static_cast<long long>(count)), kThreads, 0, stream>>>(
      p, g, m, v, decay, static_cast<long long>(count), settings.beta1, settings.beta2, settings.eps,
      settings.weight_decay, lr, correction1, correction2);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ch09::gpu
