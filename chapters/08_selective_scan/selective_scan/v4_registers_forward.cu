// Version 4's forward (v4_registers_forward.cuh) for fp32 inputs, and what the plans ask of it; the
// other input types compile apart (v4_registers_forward_fp16.cu, _bf16.cu), in parallel.
#include "v4_registers_forward.cuh"

namespace selective_scan::detail {

std::int64_t registers_forward_blocks(const ScanArgs& args) {
  const registers_forward_impl::Layout layout = registers_forward_impl::layout_for(args);
  const std::int64_t channels_per_block = registers_forward_impl::kWarps * (32 / layout.P);
  return (args.batch * args.dim + channels_per_block - 1) / channels_per_block;
}

template void registers_forward<float, false>(const ScanArgs&, cudaStream_t);
template void registers_forward<float, true>(const ScanArgs&, cudaStream_t);

}  // namespace selective_scan::detail
