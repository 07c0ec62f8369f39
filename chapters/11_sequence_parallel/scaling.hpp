// The time of one long sequence's forward, and forward + backward, on 1 GPU (chapter 08's library)
// and on several (sequence_parallel::forward and backward, one thread and one NCCL communicator a
// GPU), on data drawn on the GPUs (chapter 08's grid_fill.hpp): the chapter's scaling table.
#pragma once

#include "selective_scan.hpp"

#include <cstdint>

namespace ch11 {

struct ScalingShape {
  std::int64_t batch = 1, dim = 1536, seqlen = 1 << 20;
  int dstate = 16;
  selective_scan::DataType type = selective_scan::DataType::bfloat16;
  // How the sequence is cut: evenly (split), or rank 0 twice the others (split_for_forward: it
  // scans once in the forward, the others twice; in the backward it is the last rank that
  // scans once).
  bool balance_forward = false;
};

struct ScalingTime {
  int ranks = 1;
  double forward_ms = 0;           // the slowest rank's median: what a step waits for
  double forward_backward_ms = 0;  // the same for a forward and then a backward (dout drawn on the GPU);
                                   //   0 where the backward's buffers do not fit beside the forward's
  double gather_ms = 0;            // an all-gather of the summaries alone, median (0 on one GPU)
  double gpu_bytes = 0;            // what each rank allocates (the largest slice's)
};

// Medians of `repetitions` forwards, then of as many forwards + backwards, after a warm-up of each; every rank starts each together (a host
// barrier), timed with CUDA events on its own GPU. Throws (a CUDA error) where a slice does not
// fit in its GPU's memory, before any rank runs.
ScalingTime time_scaling(const ScalingShape& shape, int ranks, int repetitions);

}  // namespace ch11
