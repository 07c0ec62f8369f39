// The sizes of Mamba-2's block (mamba2_block.hpp): what model_config.hpp holds of it.
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

}  // namespace ch09
