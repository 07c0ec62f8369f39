// The last pass of version 5 past 16 states (v5_sliced_steps.cuh): a block a channel, a thread a
// step at a time, so that its loads and stores are consecutive.
#include "check.hpp"
#include "sequence_access.cuh"
#include "v5_sliced_steps.cuh"

#include <algorithm>

namespace selective_scan::detail {
namespace {

constexpr int kThreads = 256;

template <class Input>
__global__ __launch_bounds__(kThreads) void sliced_steps_kernel(ScanArgs args, WorkspaceLayout workspace,
                                                                const float* step_sums) {
  __shared__ float scratch[2 * kThreads / 32];
  float* partials = static_cast<float*>(args.workspace);
  for (std::int64_t bd = blockIdx.x; bd < args.batch * args.dim; bd += gridDim.x) {
    const Channel<Input, false> ch(args, bd);
    const float* sum_Ahg = step_sums + (bd * 2) * args.seqlen;
    const float* sum_gB = sum_Ahg + args.seqlen;
    Input* du = ch.template sequence<Input>(args.du);
    Input* ddelta = ch.template sequence<Input>(args.ddelta);
    float dD = 0.f, ddelta_bias = 0.f;
    for (std::int64_t t = threadIdx.x; t < args.seqlen; t += kThreads) {
      const float delta = ch.delta_at(t), slope = ch.delta_slope_at(t);
      const float u = to_float(ch.u[t]);
      float dy = to_float(ch.dout[t]);
      if (ch.z) {  // dz = dout y silu'(z) with y the forward's pre-gate output; dy = dout silu(z)
        const float z = to_float(ch.z[t]);
        const float y = to_float(ch.template sequence<Input>(args.out)[t]);
        ch.template sequence<Input>(args.dz)[t] = from_float<Input>(dy * y * silu_derivative(z));
        dy *= silu(z);
      }
      const float step_ddelta = slope * (sum_Ahg[t] + u * sum_gB[t]);
      du[t] = from_float<Input>(ch.D * dy + delta * sum_gB[t]);
      ddelta[t] = from_float<Input>(step_ddelta);
      dD += dy * u;
      ddelta_bias += step_ddelta;
    }
    float per_channel[2] = {dD, ddelta_bias};
    block_sum_fixed_order<kThreads>(per_channel, scratch);
    if (threadIdx.x == 0) {
      partials[workspace.dD + bd] = per_channel[0];
      partials[workspace.ddelta_bias + bd] = per_channel[1];
    }
  }
}

template <class Input>
__global__ __launch_bounds__(kThreads) void sliced_outputs_kernel(ScanArgs args, const float* outputs) {
  for (std::int64_t bd = blockIdx.x; bd < args.batch * args.dim; bd += gridDim.x) {
    const Channel<Input, false> ch(args, bd);
    const float* summed = outputs + bd * args.seqlen;
    Input* out = ch.template sequence<Input>(args.out);
    Input* out_z = ch.z ? ch.template sequence<Input>(args.out_z) : nullptr;
    for (std::int64_t t = threadIdx.x; t < args.seqlen; t += kThreads) {
      const float value = summed[t] + ch.D * to_float(ch.u[t]);  // as the unsliced walk finishes a step
      out[t] = from_float<Input>(value);
      if (out_z) out_z[t] = from_float<Input>(value * silu_fast(to_float(ch.z[t])));
    }
  }
}

// A block a channel, up to 2^20 blocks (each then takes channels in turn).
unsigned channel_grid(const ScanArgs& args) { return unsigned(std::min<std::int64_t>(args.batch * args.dim, 1 << 20)); }

}  // namespace

template <class Input>
void finish_sliced_outputs(const ScanArgs& args, const float* outputs, cudaStream_t stream) {
  sliced_outputs_kernel<Input><<<channel_grid(args), kThreads, 0, stream>>>(args, outputs);
  SELECTIVE_SCAN_CHECK_LAUNCH();
}

template <class Input>
void finish_sliced_steps(const ScanArgs& args, const WorkspaceLayout& workspace, const float* step_sums,
                         cudaStream_t stream) {
  sliced_steps_kernel<Input><<<channel_grid(args), kThreads, 0, stream>>>(args, workspace, step_sums);
  SELECTIVE_SCAN_CHECK_LAUNCH();
}

template void finish_sliced_steps<float>(const ScanArgs&, const WorkspaceLayout&, const float*, cudaStream_t);
template void finish_sliced_steps<__half>(const ScanArgs&, const WorkspaceLayout&, const float*, cudaStream_t);
template void finish_sliced_steps<__nv_bfloat16>(const ScanArgs&, const WorkspaceLayout&, const float*, cudaStream_t);

template void finish_sliced_outputs<float>(const ScanArgs&, const float*, cudaStream_t);
template void finish_sliced_outputs<__half>(const ScanArgs&, const float*, cudaStream_t);
template void finish_sliced_outputs<__nv_bfloat16>(const ScanArgs&, const float*, cudaStream_t);

}  // namespace selective_scan::detail
