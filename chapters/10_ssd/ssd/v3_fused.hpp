// Version 3: the chunked SSD fused into one kernel on the tensor cores (v3_fused.cu says how).
// Forward only, fp16 and bf16 inputs, at most 256 states; its backward is version 1's.
#pragma once

#include "ssd.hpp"

#include <string>

namespace ssd::detail {

std::string fused_refuses(const ForwardParams& p);
void fused_forward(const ForwardParams& p, cudaStream_t stream);

}  // namespace ssd::detail
