// v3_segments.cuh: how version 3's walks, forward and backward, launch rows cut into segments
// (row_segments, launch.cuh): the summaries of every segment but one first, into scratch of the
// call, then the walk that folds them in.
#pragma once

#include "check.hpp"
#include "device_facts.hpp"
#include "launch.cuh"
#include "v3_tiles.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace ssd::detail::v3 {

// The blocks of `kernel` (kThreads threads, `bytes` of shared memory) the GPU holds at once: asked
// of the driver once a device and kernel (chapter 08's device facts remember the answers).
inline std::int64_t resident_blocks(const void* kernel, std::size_t bytes) {
  const int per_multiprocessor = selective_scan::detail::blocks_per_multiprocessor(kernel, kThreads, int(bytes));
  return std::max<std::int64_t>(1, std::int64_t(per_multiprocessor) * selective_scan::detail::multiprocessors());
}

// As many segments a row as fill the GPU once with `walk`'s blocks, whole chunks each; where there
// is more than one, `summary` first leaves each segment's state (or dh) and decay, which `walk`
// takes by the segments before (or after) its own. Args is FusedArgs or BackwardArgs: the sizes,
// channel_blocks and the segment fields. Where the kernels' calls differ in shared memory (the
// forward's split weighted x), `most_bytes` is the most any call of them takes: each kernel is
// allowed that and its occupancy asked at it, one size a kernel, since chapter 08's device facts
// remember an answer a size, and a smaller allowance asked after a larger one would stand.
template <class Args>
void launch_segments(Args args, void (*summary)(Args), std::size_t summary_bytes, void (*walk)(Args),
                     std::size_t walk_bytes, cudaStream_t stream, std::size_t most_bytes = 0) {
  const std::size_t walk_allowed = std::max(walk_bytes, most_bytes),
                    summary_allowed = std::max(summary_bytes, most_bytes);
  selective_scan::detail::allow_shared_memory(reinterpret_cast<const void*>(walk), int(walk_allowed));
  selective_scan::detail::allow_shared_memory(reinterpret_cast<const void*>(summary), int(summary_allowed));
  const Sizes& s = args.s;
  const std::int64_t units = s.batch * s.heads * args.channel_blocks, chunks = (s.seqlen + kQ - 1) / kQ;
  const RowSegments cut =
      row_segments(units, chunks, resident_blocks(reinterpret_cast<const void*>(walk), walk_allowed));
  args.segment_chunks = cut.chunks_each, args.segments = cut.count;
  const std::int64_t summaries = args.segments - 1;
  Scratch<float> states(std::size_t(summaries * s.batch * s.heads * s.head_dim * s.dstate), stream),
      decays(std::size_t(summaries * s.batch * s.heads), stream);
  args.segment_states = states.get(), args.segment_decays = decays.get();
  if (summaries > 0) {
    summary<<<unsigned(summaries * units), kThreads, summary_bytes, stream>>>(args);
    SSD_CHECK_LAUNCH();
  }
  walk<<<unsigned(args.segments * units), kThreads, walk_bytes, stream>>>(args);
  SSD_CHECK_LAUNCH();
}

}  // namespace ssd::detail::v3
