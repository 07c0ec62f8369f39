// Version 1: chapter 08's selective scan runs Mamba-2's SSD (v1_recurrence.cpp says how).
#pragma once

#include "ssd.hpp"

namespace ssd::detail {

// The line why version 1 cannot take a call (empty when it can).
std::string recurrence_refuses(const ForwardParams& p);
void recurrence_forward(const ForwardParams& p, cudaStream_t stream);
void recurrence_backward(const BackwardParams& p, cudaStream_t stream);

}  // namespace ssd::detail
