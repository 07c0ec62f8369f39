// registers_forward<__nv_bfloat16, ...>: one input type of v4_registers_forward.cuh: compiled apart,
// so that the input types build in parallel.
#include "v4_registers_forward.cuh"

namespace selective_scan::detail {

template void registers_forward<__nv_bfloat16, false>(const ScanArgs&, cudaStream_t);
template void registers_forward<__nv_bfloat16, true>(const ScanArgs&, cudaStream_t);

}  // namespace selective_scan::detail
