// tensor_maps.hpp: the tensor maps of version 5's backward (v5_checkpoints_backward.cu), made on the
// host once a call. A map tells the tensor copy engine an input's sizes and strides, so that one
// instruction of the kernel lands a whole box of it (kTile steps x kBoxRows rows) in shared memory.
#pragma once

#include "scan_args.hpp"
#include "tile.hpp"

#include <cuda.h>

namespace selective_scan::detail {

constexpr int kBoxRows = 16;  // rows a box: a block's channels of a sequence, or the states of B and C

// The per-channel inputs the backward reads, in the order of TensorMaps::rows (and of a ring
// slot's rows): delta, u, dout, z and the forward's pre-gate output y.
enum Row { kDelta, kU, kDout, kZ, kOut, kRows };
// The tensor maps of a call: one per input, each cutting out boxes of 32 steps x 16 rows.
struct TensorMaps {
  CUtensorMap rows[kRows];
  CUtensorMap B, C;
};

// The maps of a call's inputs, of type Input (float, __half or __nv_bfloat16). An input the call
// lacks (z, and y with it, without a gate; a constant B or C) keeps a map of zeros, never read.
template <class Input>
TensorMaps tensor_maps(const ScanArgs& args);

}  // namespace selective_scan::detail
