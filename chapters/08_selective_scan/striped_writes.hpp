// The striped hand-out of the blocked backward's dB and dC writes, on the CPU. In a chunk of
// threads × items steps, thread k computes the gradients of its own run of consecutive steps
// k·items, …, k·items + items − 1 and parks them in shared memory; then the block writes them out
// striped: in round j thread k writes step j·threads + k, so that the 32 threads of a warp hit
// 32 consecutive addresses. `valid` steps of the chunk exist (fewer than threads × items in the
// sequence's last chunk); a step past them is never written. selective_scan/v2_blocked_backward.cu
// does the same in its loop over rounds.
#pragma once

#include <vector>

namespace ch08 {

// Exercise 3 (striped_writes.cpp): the steps thread `thread` of `threads` writes, round by
// round, in a chunk of threads × items steps of which the first `valid` exist.
std::vector<int> striped_steps(int thread, int threads, int items, int valid);

}  // namespace ch08
