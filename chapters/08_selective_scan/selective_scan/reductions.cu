// The fixed-order sums that finish the parameter gradients (see reductions.cuh).
#include "check.hpp"
#include "reductions.cuh"

#include <algorithm>

namespace selective_scan::detail {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::int64_t n) { return unsigned(std::min<std::int64_t>((n + kThreads - 1) / kThreads, 1 << 20)); }

// [snippet:sum_over_batch]
// The arrays summed over the batch (dA, dD, ddelta_bias, constant dB and dC), all in one launch:
// a small problem pays for launches more than for sums.
struct BatchSums {
  static constexpr int kMaxArrays = 5;
  int arrays = 0;
  std::int64_t offset[kMaxArrays];  // where its partials start in the workspace, in floats
  std::int64_t count[kMaxArrays];   // its length
  float* out[kMaxArrays];
};

// For every array a and index i: out_a[i] = sum over b of partial_a[b * count_a + i], b in order.
__global__ void sum_over_batch(const float* partials, BatchSums sums, std::int64_t batch, std::int64_t total) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    int a = 0;
    std::int64_t k = i;
    while (k >= sums.count[a]) k -= sums.count[a++];
    const float* partial = partials + sums.offset[a];
    float sum = 0;
    for (std::int64_t b = 0; b < batch; ++b) sum += partial[b * sums.count[a] + k];
    sums.out[a][k] = sum;
  }
}
// [/snippet:sum_over_batch]

// out[(b, g, rest)] = sum over the channels d of group g of partial[(b, d, rest)], d in order.
__global__ void sum_over_group(const float* partial, float* out, std::int64_t batch, std::int64_t groups,
                               std::int64_t dims_per_group, std::int64_t rest) {
  const std::int64_t count = batch * groups * rest;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t inner = i % rest, bg = i / rest;                   // bg = b * groups + g
    const float* first = partial + (bg * dims_per_group) * rest + inner;  // channel d = g * dims_per_group
    float sum = 0;
    for (std::int64_t k = 0; k < dims_per_group; ++k) sum += first[k * rest];
    out[i] = sum;
  }
}

}  // namespace

WorkspaceLayout workspace_layout(const ScanArgs& args, bool is_complex) {
  const std::int64_t s = is_complex ? 2 : 1;
  const std::int64_t per_state = args.batch * args.dim * args.dstate * s;
  const std::int64_t per_step = per_state * args.seqlen;
  WorkspaceLayout w{};
  std::int64_t at = 0;
  const auto take = [&at](std::int64_t size) {
    const std::int64_t offset = at;
    at += size;
    return offset;
  };
  w.dA = take(per_state);
  w.dB_const = take(args.B.variable ? 0 : per_state);
  w.dC_const = take(args.C.variable ? 0 : per_state);
  w.dD = take(args.batch * args.dim);
  w.ddelta_bias = take(args.batch * args.dim);
  w.dB_var = take(args.B.variable && args.deterministic ? per_step : 0);
  w.dC_var = take(args.C.variable && args.deterministic ? per_step : 0);
  w.total = at;
  return w;
}

void prepare_time_gradients(const ScanArgs& args, const WorkspaceLayout&, bool is_complex, cudaStream_t stream) {
  if (args.deterministic) return;
  const std::size_t bytes =
      std::size_t(args.batch * args.groups * args.dstate * args.seqlen) * (is_complex ? 2 : 1) * sizeof(float);
  if (args.B.variable) SELECTIVE_SCAN_CHECK(cudaMemsetAsync(args.dB, 0, bytes, stream));
  if (args.C.variable) SELECTIVE_SCAN_CHECK(cudaMemsetAsync(args.dC, 0, bytes, stream));
}

void finish_parameter_gradients(const ScanArgs& args, const WorkspaceLayout& w, bool is_complex, cudaStream_t stream) {
  const float* partials = static_cast<const float*>(args.workspace);
  const std::int64_t s = is_complex ? 2 : 1;
  const std::int64_t per_channel_state = args.dim * args.dstate * s;
  BatchSums sums;
  std::int64_t total = 0;
  const auto over_batch = [&](std::int64_t offset, float* out, std::int64_t count) {
    sums.offset[sums.arrays] = offset, sums.out[sums.arrays] = out, sums.count[sums.arrays] = count;
    ++sums.arrays, total += count;
  };
  over_batch(w.dA, args.dA, per_channel_state);
  if (!args.B.variable) over_batch(w.dB_const, args.dB, per_channel_state);
  if (!args.C.variable) over_batch(w.dC_const, args.dC, per_channel_state);
  if (args.dD) over_batch(w.dD, args.dD, args.dim);
  if (args.ddelta_bias) over_batch(w.ddelta_bias, args.ddelta_bias, args.dim);
  sum_over_batch<<<blocks_for(total), kThreads, 0, stream>>>(partials, sums, args.batch, total);
  SELECTIVE_SCAN_CHECK_LAUNCH();
  if (!args.deterministic) return;
  const std::int64_t rest = args.dstate * args.seqlen * s;
  const auto over_group = [&](std::int64_t offset, float* out) {
    sum_over_group<<<blocks_for(args.batch * args.groups * rest), kThreads, 0, stream>>>(
        partials + offset, out, args.batch, args.groups, args.dims_per_group, rest);
    SELECTIVE_SCAN_CHECK_LAUNCH();
  };
  if (args.B.variable) over_group(w.dB_var, args.dB);
  if (args.C.variable) over_group(w.dC_var, args.dC);
}

std::size_t workspace_bytes(const ScanArgs& args, Kernel body, bool is_complex, const BackwardGrid& grid) {
  const std::size_t partial_sums = std::size_t(workspace_layout(args, is_complex).total) * sizeof(float);
  if (body == Kernel::ring) return partial_sums + checkpoints_backward_scratch_bytes(args, grid);
  if (body == Kernel::registers) return partial_sums + registers_backward_scratch_bytes(args);
  return partial_sums;
}

}  // namespace selective_scan::detail
