// model_config.hpp: the shape of chapter 09's Mamba language model, and where each of its
// parameters lives in one flat array.
//
// One flat array holds every parameter, so that the optimizer is one loop (one kernel on the
// GPU), a weights file is one write, and the CPU reference and the GPU model index the same
// numbers the same way. Every matrix is row-major.
//
// Activations are channels-first, (batch, channels, seqlen) with time contiguous, the layout
// chapter 08's selective scan takes, so no tensor is ever transposed.
#pragma once

#include "mamba2_sizes.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace ch09 {

// Selective (Mamba's S6): the step size Δ and the projections B, C are computed from the input
// at every step. LTI (S4D-like): Δ, B and C are learned parameters, the same at every step, so
// the layer is a convolution with a fixed kernel (chapter 03's K̄). Mamba-2: the block of
// mamba2_block.hpp, whose SSD has one A per head and B, C shared by every head (chapter 10).
enum class SsmKind { selective, lti, mamba2 };

std::string to_string(SsmKind kind);

struct ModelConfig {
  int vocab = 16;
  int d_model = 64;
  int layers = 2;
  int d_state = 16;    // N
  int expand = 2;      // d_inner = expand * d_model
  int conv_width = 4;  // the causal depthwise convolution's taps
  int dt_rank = 4;     // Δ's low rank: ceil(d_model / 16) in Mamba
  int head_dim = 16;   // Mamba-2 only: the channels of a head
  SsmKind kind = SsmKind::selective;

  int d_inner() const { return expand * d_model; }
  // Mamba-2's block sizes (its kind only).
  Mamba2Sizes mamba2() const { return {d_model, d_inner(), head_dim, d_state, conv_width}; }
  // Rows of x_proj's output: Δ's low-rank part, then B, then C (selective only).
  int x_proj_rows() const { return dt_rank + 2 * d_state; }
  // "" when the sizes are usable, else one line naming the bad one.
  std::string validate() const;
};

// "selective: vocab 16, d_model 64, layers 2, N 16, expand 2, conv 4, dt_rank 4"
std::string to_string(const ModelConfig& config);

// Offsets (in floats) into the flat parameter array, and the shape of each block.
// An offset of a block the model kind does not have is kAbsent. Blocks lie in the order below
// (embedding, each layer's blocks, final_norm), each starting at a multiple of 4 floats
// (16 bytes); the few floats of padding between blocks are zero and stay zero.
constexpr std::size_t kAbsent = static_cast<std::size_t>(-1);

// Mamba-2's layer differs (mamba2_block.hpp): in_proj (2 d_inner + 2N + heads, d_model) gives z,
// x, B, C and dt; the convolution (d_inner + 2N channels) runs over x, B and C; dt_bias, A_log and
// D have one value a head; gate_norm (d_inner) is the norm after the gate; no x_proj, dt_proj, B, C.
struct LayerOffsets {
  std::size_t norm;         // (d_model)                   RMSNorm weight before the block
  std::size_t in_proj;      // (2 d_inner, d_model)        rows [0, d_inner) give x, the rest z
  std::size_t conv_weight;  // (d_inner, conv_width)       tap k multiplies x[t - (conv_width-1) + k]
  std::size_t conv_bias;    // (d_inner)
  std::size_t x_proj;       // (dt_rank + 2N, d_inner)     selective only
  std::size_t dt_proj;      // (d_inner, dt_rank)          selective only
  std::size_t dt_bias;      // (d_inner)                   the scan's delta_bias (softplus inside)
  std::size_t A_log;        // (d_inner, N)                A = -exp(A_log)
  std::size_t D;            // (d_inner)
  std::size_t B;            // (d_inner, N)                LTI only: the scan's constant B
  std::size_t C;            // (d_inner, N)                LTI only: the scan's constant C
  std::size_t gate_norm;    // (d_inner)                   Mamba-2 only
  std::size_t out_proj;     // (d_model, d_inner)
};

struct ParameterLayout {
  std::size_t embedding = 0;  // (vocab, d_model), also the LM head (tied)
  std::vector<LayerOffsets> layers;
  std::size_t final_norm = 0;  // (d_model)
  std::size_t total = 0;       // floats in all
};

ParameterLayout parameter_layout(const ModelConfig& config);

// A Mamba-2 layer's blocks in a flat array of parameters or of their gradients.
template <class T>
Mamba2Blocks<T> mamba2_blocks(T* flat, const LayerOffsets& o) {
  return {flat + o.in_proj, flat + o.conv_weight, flat + o.conv_bias, flat + o.dt_bias,
          flat + o.A_log,   flat + o.D,           flat + o.gate_norm, flat + o.out_proj};
}

// The same layout as a list, in memory order: each block the model kind has, with a name such
// as "layer 1 x_proj" (layer -1 for the embedding and the final norm). `decays` marks the
// blocks AdamW's weight decay applies to: the matrices (embedding, in_proj, conv_weight, x_proj,
// dt_proj, out_proj), not the norms, biases, D, or the SSM's A_log, B, C (Mamba exempts A_log and
// D too: decay would pull A towards -1 and D towards 0, which mean something).
struct ParameterBlock {
  std::string name;   // "embedding", "layer 0 in_proj", ..., "final_norm"
  std::string block;  // the field's name alone: "embedding", "in_proj", ..., "final_norm"
  int layer = -1;
  std::size_t offset = 0, count = 0;
  bool decays = false;
};
std::vector<ParameterBlock> parameter_blocks(const ModelConfig& config);

// Mamba's initialization (mamba_ssm's Mamba and MixerModel), from `seed`: embedding N(0, 0.02);
// linear layers U(-1/sqrt(fan_in), 1/sqrt(fan_in)), out_proj divided by sqrt(layers); conv
// U(-1/sqrt(conv_width), ..), its bias likewise; dt_proj U(-dt_rank^-1/2, dt_rank^-1/2); dt_bias
// the inverse softplus of dt drawn log-uniform in [1e-3, 1e-1]; A_log = log(1..N) (S4D-real);
// D = 1; norms 1. LTI B = 1 and C ~ N(0, 1) (S4D's choices).
std::vector<float> initial_parameters(const ModelConfig& config, unsigned seed);

}  // namespace ch09
