// The sizes of Mamba-2's block (mamba2_block.hpp) and where its parameters are: what
// model_config.hpp holds of it.
#pragma once

#include <string>

namespace ch09 {

struct Mamba2Sizes {
  int d_model = 1, d_inner = 1, head_dim = 1, d_state = 1, conv_width = 1;
  int heads() const { return d_inner / head_dim; }
  int conv_channels() const { return d_inner + 2 * d_state; }               // x, B, C
  int in_proj_rows() const { return 2 * d_inner + 2 * d_state + heads(); }  // z, x, B, C, dt
  // "" when usable, else one line naming the bad size (head_dim must divide d_inner).
  std::string validate() const;
};

// The block's parameters (row-major), or their gradients: in_proj (in_proj_rows, d_model),
// conv_weight (conv_channels, conv_width), conv_bias (conv_channels), dt_bias, A_log and D (heads),
// norm (d_inner), out_proj (d_model, d_inner).
template <class T>
struct Mamba2Blocks {
  T *in_proj, *conv_weight, *conv_bias, *dt_bias, *A_log, *D, *norm, *out_proj;
};
using Mamba2Weights = Mamba2Blocks<const double>;
using Mamba2WeightGradients = Mamba2Blocks<double>;

}  // namespace ch09
