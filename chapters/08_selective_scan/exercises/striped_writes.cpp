// Exercise 3: the striped hand-out of a chunk's dB and dC writes.
//
// Return the steps thread `thread` writes, in the order of the rounds: in round j (0 ≤ j <
// items) it writes step j·threads + thread, unless that step is not one of the chunk's `valid`
// steps. Every valid step must be written exactly once by the whole block, and no other.
// Test it with:  scripts/exercise ch08_selective_scan 3
#include "striped_writes.hpp"

namespace ch08 {

// [snippet:exercise]
std::vector<int> striped_steps(int thread, int threads, int items, int valid) {
  std::vector<int> steps;
  // TODO(exercise): fill steps.
  // [/snippet:exercise]
  (void)thread;
  (void)threads;
  (void)items;
  (void)valid;
  return steps;
}

}  // namespace ch08
