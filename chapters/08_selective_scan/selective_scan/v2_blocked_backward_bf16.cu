// blocked_backward<__nv_bfloat16, ...>: one input type of v2_blocked_backward.cuh: compiled apart,
// so that the input types build in parallel.
#include "v2_blocked_backward.cuh"

namespace selective_scan::detail {

template void blocked_backward<__nv_bfloat16, false>(const ScanArgs&, cudaStream_t);
template void blocked_backward<__nv_bfloat16, true>(const ScanArgs&, cudaStream_t);

}  // namespace selective_scan::detail
