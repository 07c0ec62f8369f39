// gpu_model.hpp: chapter 09's Mamba language model on the GPU in fp32: forward, backward, AdamW.
//
// The parameters, their gradients and AdamW's two moments are one device array each, in the flat
// layout of model_config.hpp, so the CPU reference, the weights file and the optimizer all index
// the same numbers. Activations are channels-first (batch, channels, seqlen); the forward keeps
// every one the backward needs. Matrix products go through cuBLAS (gpu_linear.hpp), the scan
// through chapter 08's library (version 4, `registers`, fp32), everything else through the small
// kernels of this chapter (gpu_*.cu).
//
// Nothing in forward(), backward() or adamw_step() waits for the GPU: a training step only
// enqueues work, and the loss and accuracy stay on the device until metrics() copies them back
// (one sync), which a training loop does every so many steps.
#pragma once

#include "compare.hpp"
#include "device_buffer.hpp"
#include "gpu_cross_entropy.hpp"
#include "gpu_mamba2_layer.hpp"
#include "model_config.hpp"
#include "selective_scan.hpp"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

namespace ch09 {

struct AdamWSettings;  // cpu_training.hpp: one optimizer for the CPU and the GPU

// How close the GPU model's logits and gradients come to the fp64 reference's. fp32 through two
// layers, cuBLAS and the scan: a few float epsilons times the values, summed over the products'
// lengths. Mamba-2's SSD forward may run chapter 10's version 3, which multiplies fp32 as bf16
// pairs (a product good to about 2^-16 of its size, not 2^-24): ten times wider there.
struct ReferenceTolerances {
  common::Tolerance logits, gradient;
};
ReferenceTolerances reference_tolerances(SsmKind kind);

class GpuModel {
 public:
  // Buffers are sized for at most max_batch sequences of at most max_seqlen tokens.
  GpuModel(const ModelConfig& config, int max_batch, int max_seqlen);
  // The device memory those buffers take (the Mamba layer's scan's small workspace aside; the
  // Mamba-2 layer's SSD scratch counted), to check before building one: the activations grow with
  // max_batch × max_seqlen.
  static double device_bytes(const ModelConfig& config, int max_batch, int max_seqlen);
  ~GpuModel();
  GpuModel(const GpuModel&) = delete;
  GpuModel& operator=(const GpuModel&) = delete;

  const ModelConfig& config() const { return config_; }
  const ParameterLayout& layout() const { return layout_; }
  int max_batch() const { return max_batch_; }
  int max_seqlen() const { return max_seqlen_; }

  // The flat parameters (layout().total floats). Loading also clears AdamW's moments.
  void load_parameters(const std::vector<float>& parameters);
  std::vector<float> download_parameters() const;
  std::vector<float> download_gradients() const;
  const float* device_parameters() const { return parameters_.data(); }

  // tokens and targets: device arrays of (batch, seqlen) ints, row-major; targets -1 = no loss.
  // They are copied (on the GPU), so the caller may reuse them once the call returns.
  void forward(const int* device_tokens, const int* device_targets, int batch, int seqlen);
  // The same from host arrays (a synchronous upload: for tests and evaluation, not a hot loop).
  void forward(const std::vector<int>& tokens, const std::vector<int>& targets, int batch, int seqlen);
  // Gradients of the last forward's loss with respect to every parameter (overwritten).
  void backward();
  // One AdamW step (cpu_training.hpp's, clipping included) from the gradients of the last
  // backward, with learning rate `lr` (settings.lr is not read); `step` counts from 1.
  void adamw_step(float lr, int step, const AdamWSettings& settings);
  void adamw_step(float lr, int step);  // with AdamWSettings' defaults
  // The global L2 norm of the gradient before clipping, as the last adamw_step saw it (waits).
  float gradient_norm() const;

  // The last forward's loss, correct predictions and target positions (waits for the GPU).
  gpu::LossMetrics metrics() const;
  // For the tests: every activation, the logits and every gradient block to NaN, so that a value
  // a kernel forgot to write fails its comparison.
  void poison_outputs();

  // The last forward's logits (batch, vocab, seqlen).
  std::vector<float> download_logits() const;
  const float* device_logits() const { return logits_.data(); }

  // For recurrent inference after a prefill (GpuInference::prefill). With keep_last_states on, a
  // forward also keeps each layer's scan state after the last token (chapter 08's last_state);
  // copy_last_states then writes, for sequence s and layer l, that state (d_inner, N) to
  // ssm + s * ssm_sequence_stride + l * d_inner * N and the convolution's last conv_width - 1
  // inputs (d_inner, conv_width - 1), oldest first, to conv + s * conv_sequence_stride +
  // l * d_inner * (conv_width - 1). Enqueued only. Throws std::logic_error unless the last forward
  // kept its states and had at least conv_width - 1 tokens.
  void keep_last_states(bool keep);
  void copy_last_states(float* ssm, long long ssm_sequence_stride, float* conv, long long conv_sequence_stride) const;
  // The last forward's step sizes Δ = softplus(delta_raw + dt_bias) of one layer, (batch, d_inner, seqlen).
  std::vector<float> download_delta(int layer) const;

 private:
  struct Pointers;  // where each activation of one layer lives
  Pointers pointers(int layer) const;
  // Chapter 08's scan of one layer for (batch, seqlen): the forward's parameters inside.
  selective_scan::BackwardParams scan_params(int layer, int batch, int seqlen) const;
  void check_size(int batch, int seqlen) const;
  void run_forward();

  ModelConfig config_;
  ParameterLayout layout_;
  int max_batch_, max_seqlen_;
  int batch_ = 0, seqlen_ = 0;
  bool keep_last_states_ = false, kept_last_states_ = false;
  cublasHandle_t cublas_ = nullptr;

  template <class T>
  using Buffer = common::DeviceBuffer<T>;
  Buffer<float> parameters_, gradients_, adam_m_, adam_v_;
  Buffer<float> decay_mask_, gradient_norm_;
  Buffer<int> tokens_, targets_;
  // Forward activations, one slot of capacity size per layer (residual_ has layers + 1).
  Buffer<float> residual_, normed_, rstd_, xz_, xc_, xs_, dbc_, delta_raw_, zero_delta_, A_, y_, out_z_, chunk_states_,
      final_normed_, logits_;
  Buffer<float> position_loss_, logsumexp_;
  Buffer<int> position_correct_;
  Buffer<gpu::LossMetrics> metrics_;
  // Backward scratch, reused by every layer.
  Buffer<float> dlogits_, d_model_scratch_, d_residual_, d_out_z_, d_xs_, d_delta_, d_xz_, d_xc_, d_dbc_, dB_, dC_, dA_,
      weight_scratch_, ones_;
  Buffer<unsigned char> scan_workspace_;
  Buffer<float> last_states_;  // (layers, batch, d_inner, N), with keep_last_states
  // A Mamba-2 model's layers, each with its own activations (the Mamba layer's buffers above stay empty).
  std::vector<std::unique_ptr<GpuMamba2Layer>> mamba2_layers_;
};

}  // namespace ch09
