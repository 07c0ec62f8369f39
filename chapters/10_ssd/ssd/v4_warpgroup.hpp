// Version 4: version 3's forward walk with its products on Hopper's warpgroup instruction (wgmma),
// fp16 and bf16 inputs up to 256 states, on an sm_90 GPU from this build's sm_90a code.
// v4_warpgroup.cu says what changes and what it does not do yet.
#pragma once

#include "ssd.hpp"

#include <string>

namespace ssd::detail {

std::string warpgroup_refuses(const ForwardParams& p);
void warpgroup_forward(const ForwardParams& p, cudaStream_t stream);

}  // namespace ssd::detail
