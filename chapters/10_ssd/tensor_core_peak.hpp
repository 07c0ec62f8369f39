// The tensor cores' rate this GPU reaches in practice: a cuBLAS GEMM of bf16 matrices with fp32
// sums, the roof that chapter 10's kernels are held to as the copy bandwidth is the roof of their
// bytes (a listed peak is a clock times a count; a GEMM is what a kernel can actually get).
#pragma once

#include "timing.hpp"

namespace ch10 {

// TFLOP/s of C = A B, all three n × n bf16 (fp32 accumulation), timed by `timer`; n = 8192 is
// large enough for cuBLAS to reach its plateau on an A100 or H100 (2 n³ = 1.1 TFLOP a call).
double measure_bf16_gemm_tflops(common::GpuTimer& timer, int n = 8192);

}  // namespace ch10
