// gpu_mamba2_layer.hpp: one Mamba-2 layer of chapter 09's GPU model in fp32 (the block of
// mamba2_block.hpp), with its activations for up to max_batch × max_seqlen positions. Its SSD
// runs in chapter 10's library (ssd.hpp), whose tensors are time-major: the layer carries x, B, C
// and dt across to that layout and y back (gpu_mamba2_ops.hpp). Everything else is the chapter's
// own kernels and cuBLAS, as in the Mamba layer.
#pragma once

#include "device_buffer.hpp"
#include "gpu_linear.hpp"
#include "mamba2_block.hpp"

namespace ch09 {

class GpuMamba2Layer {
 public:
  GpuMamba2Layer(const Mamba2Sizes& sizes, int conv_width, int max_batch, int max_seqlen);
  // The device memory the layer's buffers take, and about what chapter 10's library takes for one
  // layer's call at a time (its scratch, taken and given back within the call).
  static double device_bytes(const Mamba2Sizes& sizes, int max_batch, int max_seqlen);
  static double ssd_scratch_bytes(const Mamba2Sizes& sizes, int max_batch, int max_seqlen);

  // From n (batch, d_model, seqlen), the normed residual: adds the block's output to r_out (which
  // holds the residual already), keeping what the backward needs.
  void forward(const gpu::Linear& linear, const Mamba2Blocks<const float>& w, const float* n, float* r_out, int batch,
               int seqlen);
  // From dout = ∂L/∂out (batch, d_model, seqlen): writes dn = ∂L/∂n and every parameter gradient of
  // the layer into g. `per_sequence` and `ones` as gpu::Linear::backward_weight takes them.
  void backward(const gpu::Linear& linear, const Mamba2Blocks<const float>& w, const Mamba2Blocks<float>& g,
                const float* n, const float* dout, float* dn, float* per_sequence, const float* ones, int batch,
                int seqlen);

  // Every activation to NaN (the tests' poison).
  void poison();

 private:
  Mamba2Sizes s_;
  int W_;
  template <class T>
  using Buffer = common::DeviceBuffer<T>;
  // Channels-first (batch, rows, seqlen): in_proj's output, the convolution before and after its
  // SiLU, y, the gate's output and the norm's (and its 1/rms). Time-major (batch, seqlen, rows):
  // x, B, C, dt and y as chapter 10 takes them.
  Buffer<float> zxbcdt_, xc_, xs_, y_, gated_, normed_, rstd_, x_t_, B_t_, C_t_, dt_t_, y_t_, A_;
  // The backward's scratch.
  Buffer<float> d_zxbcdt_, d_xc_, d_xs_, d_y_, d_gated_, d_normed_, dy_t_, dx_t_, ddt_t_, dB_t_, dC_t_, dA_;
};

}  // namespace ch09
