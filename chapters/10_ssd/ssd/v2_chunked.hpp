// Version 2: the chunked algorithm of ssd_chunked.hpp on the GPU, its products done by cuBLAS
// (v2_chunked.cu says how). Forward only: its backward is version 1's.
#pragma once

#include "ssd.hpp"

#include <string>

namespace ssd::detail {

std::string chunked_refuses(const ForwardParams& p);
void chunked_forward(const ForwardParams& p, cudaStream_t stream);

}  // namespace ssd::detail
