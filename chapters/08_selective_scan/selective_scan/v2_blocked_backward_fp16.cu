// blocked_backward<__half, ...>: one input type of v2_blocked_backward.cuh: compiled apart,
// so that the input types build in parallel.
#include "v2_blocked_backward.cuh"

namespace selective_scan::detail {

template void blocked_backward<__half, false>(const ScanArgs&, cudaStream_t);
template void blocked_backward<__half, true>(const ScanArgs&, cudaStream_t);

}  // namespace selective_scan::detail
