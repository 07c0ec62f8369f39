// Version 2's backward (v2_blocked_backward.cuh) for fp32 inputs; the other input types compile
// apart (v2_blocked_backward_fp16.cu, _bf16.cu), in parallel.
#include "v2_blocked_backward.cuh"

namespace selective_scan::detail {

template void blocked_backward<float, false>(const ScanArgs&, cudaStream_t);
template void blocked_backward<float, true>(const ScanArgs&, cudaStream_t);

}  // namespace selective_scan::detail
