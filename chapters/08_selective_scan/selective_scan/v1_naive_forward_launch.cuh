// Version 1's forward launch and its six instances, included at the end of the one file that
// defines naive_forward_kernel: the library's v1_naive_forward.cu, or in the book's exercises
// build the reader's exercises/v1_naive_forward.cu (v1_naive.cuh says why the launch must sit in
// the kernel's own file).
#pragma once

#include "check.hpp"
#include "v1_naive.cuh"

namespace selective_scan::detail {

template <class Input, bool kComplex>
void naive_forward(const ScanArgs& args, cudaStream_t stream) {
  const unsigned blocks = naive_blocks(args.batch * args.dim);
  const int threads = naive_threads(args.dstate);
  naive_forward_kernel<Input, kComplex><<<blocks, threads, naive_terms_bytes(args.dstate), stream>>>(args);
  SELECTIVE_SCAN_CHECK_LAUNCH();
}

template void naive_forward<float, false>(const ScanArgs&, cudaStream_t);
template void naive_forward<float, true>(const ScanArgs&, cudaStream_t);
template void naive_forward<__half, false>(const ScanArgs&, cudaStream_t);
template void naive_forward<__half, true>(const ScanArgs&, cudaStream_t);
template void naive_forward<__nv_bfloat16, false>(const ScanArgs&, cudaStream_t);
template void naive_forward<__nv_bfloat16, true>(const ScanArgs&, cudaStream_t);

}  // namespace selective_scan::detail
