// v3_segments.cuh: how version 3's walks, forward and backward, launch rows cut into segments
// (row_segments, segment_model.hpp): the summaries of every segment but one first, into scratch
// of the call, then the walk that folds them in, launched as the summaries' dependant (sm_90,
// below).
#pragma once

#include "check.hpp"
#include "device_facts.hpp"
#include "launch.cuh"
#include "segment_model.hpp"
#include "v3_tiles.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace ssd::detail::v3 {

// Hopper's programmatic dependent launch: the walk is launched as the summaries' dependant, so
// that its blocks may start while the summaries still run, in the slots they leave (at batch 1
// the summaries fill 160 of an H200's 264), and its launch's latency is spent meanwhile. Each
// summary block lets the walk start at once (let_walk_start); a walk's block that folds
// summaries waits for the whole summary launch to finish and its writes to show
// (wait_for_summaries) before it reads them, and one that folds none never waits. Before sm_90
// both are nothing, and the walk is launched in the stream's order as any other kernel.
__device__ __forceinline__ void let_walk_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
__device__ __forceinline__ void wait_for_summaries() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// As many segments a row, whole chunks each, as row_segments (segment_model.hpp) chooses with the
// direction's `costs` for the blocks of `walk` a multiprocessor holds (asked of the driver once a
// device and kernel; chapter 08's device facts remember the answers); where there is more than
// one, `summary` first leaves each segment's state (or dh) and decay, which `walk` takes by the
// segments before (or after) its own. Args is FusedArgs or BackwardArgs: the sizes,
// channel_blocks and the segment fields. Where the kernels' calls differ in shared memory (the
// forward's split weighted x), `most_bytes` is the most any call of them takes: each kernel is
// allowed that and its occupancy asked at it, one size a kernel, since chapter 08's device facts
// remember an answer a size, and a smaller allowance asked after a larger one would stand.
template <class Args>
void launch_segments(Args args, const SegmentCosts& costs, void (*summary)(Args), std::size_t summary_bytes,
                     void (*walk)(Args), std::size_t walk_bytes, cudaStream_t stream, std::size_t most_bytes = 0) {
  const std::size_t walk_allowed = std::max(walk_bytes, most_bytes),
                    summary_allowed = std::max(summary_bytes, most_bytes);
  selective_scan::detail::allow_shared_memory(reinterpret_cast<const void*>(walk), int(walk_allowed));
  selective_scan::detail::allow_shared_memory(reinterpret_cast<const void*>(summary), int(summary_allowed));
  const Sizes& s = args.s;
  const std::int64_t units = s.batch * s.heads * args.channel_blocks, chunks = (s.seqlen + kQ - 1) / kQ;
  const int walks_a_multiprocessor = std::max(1, selective_scan::detail::blocks_per_multiprocessor(
                                                     reinterpret_cast<const void*>(walk), kThreads, int(walk_allowed)));
  const RowSegments cut =
      row_segments(units, chunks, selective_scan::detail::multiprocessors(), walks_a_multiprocessor, costs);
  args.segment_chunks = cut.chunks_each, args.segments = cut.count;
  const std::int64_t summaries = args.segments - 1;
  Scratch<float> states(std::size_t(summaries * s.batch * s.heads * s.head_dim * s.dstate), stream),
      decays(std::size_t(summaries * s.batch * s.heads), stream);
  args.segment_states = states.get(), args.segment_decays = decays.get();
  if (summaries > 0) {
    summary<<<unsigned(summaries * units), kThreads, summary_bytes, stream>>>(args);
    SSD_CHECK_LAUNCH();
  }
  cudaLaunchConfig_t walk_launch{};
  walk_launch.gridDim = dim3(unsigned(args.segments * units)), walk_launch.blockDim = dim3(kThreads);
  walk_launch.dynamicSmemBytes = walk_bytes, walk_launch.stream = stream;
  cudaLaunchAttribute dependent{};
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  const auto limits = selective_scan::detail::device_limits();
  if (summaries > 0 && limits && limits->major >= 9) walk_launch.attrs = &dependent, walk_launch.numAttrs = 1;
  SSD_CHECK(cudaLaunchKernelEx(&walk_launch, walk, args));
}

}  // namespace ssd::detail::v3
