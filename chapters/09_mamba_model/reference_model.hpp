// The fp64 CPU reference of chapter 09's whole model: forward (loss, logits, every intermediate
// the GPU model is checked against, and the step sizes Δ for the figures) and backward (the
// gradient of the loss with respect to every parameter of the flat array). The selective scan
// itself is chapter 08's fp64 reference, called exactly as the GPU model calls the library.
//
// Per layer, with the residual stream r (batch, d_model, L):
//   n = RMSNorm(r)·w;  x, z = in_proj·n;  xs = silu(conv1d(x) + conv_bias)
//   selective: dt_low, B, C = x_proj·xs;  delta_raw = dt_proj·dt_low
//   LTI:       delta_raw = 0, B and C the layer's (d_inner, N) parameters
//   gated = scan(u = xs, delta_raw, A = -exp(A_log), B, C, D, z, delta_bias = dt_bias, softplus)
//   r += out_proj·gated
// then logits = E·(RMSNorm(r)·final_norm) with the embedding E as the head, and the loss is the
// mean cross-entropy over the scored positions.
#pragma once

#include "mamba2_block.hpp"
#include "model_config.hpp"
#include "reference.hpp"  // chapter 08's scan reference
#include "selective_copying.hpp"

#include <vector>

namespace ch09 {

// What one layer computed, kept for the backward and for the checks. Every tensor is
// channels-first, (batch, channels, L).
struct LayerTrace {
  std::vector<double> residual;  // r entering the layer (batch, d_model, L)
  std::vector<double> inv_rms;   // RMSNorm's 1/rms per position (batch, L)
  std::vector<double> normed;    // n (batch, d_model, L)
  std::vector<double> x, z;      // in_proj's two halves (batch, d_inner, L)
  std::vector<double> conv;      // conv1d(x) + conv_bias, before the SiLU
  std::vector<double> xs;        // silu(conv): the scan's input u
  std::vector<double> dbc;       // x_proj·xs (batch, dt_rank + 2N, L); empty for LTI
  std::vector<double> delta;     // Δ = softplus(delta_raw + dt_bias) (batch, d_inner, L)
  std::vector<double> gated;     // the scan's output y·silu(z) (batch, d_inner, L)
  ch08::Problem scan;            // the scan's inputs as passed to chapter 08's reference
  Mamba2Trace mamba2;            // a Mamba-2 layer's whole block (the fields above: residual, inv_rms, normed)
};

struct ModelForward {
  double loss = 0.0;  // mean cross-entropy over the scored positions (0 if none)
  Accuracy accuracy;
  std::vector<double> logits;  // (batch, vocab, L)
  std::vector<LayerTrace> layers;
  std::vector<double> final_residual, final_inv_rms, final_normed;
};

std::vector<double> to_double(const std::vector<float>& parameters);
std::vector<float> to_float(const std::vector<double>& parameters);

// Which fp64 scan runs step 5: chapter 08's reference (the default, the one every check trusts),
// or real_scan.hpp's plain real version of the same formulas (several times faster; the CPU
// training uses it, and the tests check the two agree to rounding).
enum class ScanPath { chapter08_reference, real_fp64 };

// `parameters` is the flat array of parameter_layout(config). Throws std::invalid_argument on
// sizes that do not fit or tokens outside the vocabulary.
ModelForward model_forward(const ModelConfig& config, const std::vector<double>& parameters, const Batch& batch,
                           ScanPath scan = ScanPath::chapter08_reference);

// The gradient of forward.loss with respect to every parameter (same layout; padding stays 0).
// `forward` must be model_forward's result for the same arguments.
std::vector<double> model_backward(const ModelConfig& config, const std::vector<double>& parameters, const Batch& batch,
                                   const ModelForward& forward, ScanPath scan = ScanPath::chapter08_reference);

}  // namespace ch09
