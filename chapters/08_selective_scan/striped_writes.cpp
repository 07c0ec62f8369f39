// The striped hand-out of a chunk's dB and dC writes (exercise 3's solution).
#include "striped_writes.hpp"

namespace ch08 {

std::vector<int> striped_steps(int thread, int threads, int items, int valid) {
  std::vector<int> steps;
  for (int round = 0; round < items; ++round) {
    const int step = round * threads + thread;
    if (step >= valid) break;  // later rounds only go further past the end
    steps.push_back(step);
  }
  return steps;
}

}  // namespace ch08
