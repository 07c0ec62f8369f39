// channel_blocks.hpp: how version 5's kernels deal a call's channels out to blocks. A block takes
// up to `width` neighbouring channels of one batch and one group, so that they all read the same
// rows of B and C; a group whose channel count is not a multiple of the width ends on a block
// with fewer (a group of 4 channels is one block of 4), whose idle lanes write nothing.
#pragma once

#include "scan_args.hpp"

#include <cstdint>

namespace selective_scan::detail {

// [snippet:channel_block]
struct ChannelBlock {
  std::int64_t b, group;
  std::int64_t d0;     // its first channel within the batch
  std::int64_t first;  // and counted over the batches: b * dim + d0
  int count;           // its channels: the width, or fewer in a group's last block
};

// Blocks a group's channels take, and all the call's.
__host__ __device__ inline std::int64_t blocks_per_group(const ScanArgs& a, int width) {
  return (a.dims_per_group + width - 1) / width;
}
__host__ __device__ inline std::int64_t channel_blocks(const ScanArgs& a, int width) {
  return a.batch * a.groups * blocks_per_group(a, width);
}

// Block i, numbered batch by batch, group by group. Where the width divides a group's channels
// this is the plain cut into runs of `width`: first = i * width.
__host__ __device__ inline ChannelBlock channel_block(const ScanArgs& a, std::int64_t i, int width) {
  const std::int64_t per_group = blocks_per_group(a, width);
  const std::int64_t run = i / per_group, part = i % per_group;  // run: (batch, group)
  ChannelBlock block;
  block.b = run / a.groups;
  block.group = run % a.groups;
  block.d0 = block.group * a.dims_per_group + part * width;
  block.first = block.b * a.dim + block.d0;
  const std::int64_t left = a.dims_per_group - part * width;
  block.count = int(left < width ? left : width);
  return block;
}
// [/snippet:channel_block]

}  // namespace selective_scan::detail
