// Exercise 1: one step of the Hillis–Steele scan.
//
// Return `out` with out[j] = in[j] + in[j − offset] for j ≥ offset, and out[j] = in[j] for
// j < offset. Read only `in`: every element must see the values from before this step (on
// the GPU that is why the kernel keeps two buffers). After the steps with offsets 1, 2, 4, ...
// element j holds x_0 + ... + x_j.
// Test it with:  scripts/exercise ch05_cumsum_scan 1
#include "scan_simulation.hpp"

namespace scan {

// [snippet:exercise]
std::vector<double> hillis_steele_step(std::span<const double> in, std::size_t offset) {
  std::vector<double> out(in.size(), 0.0);
  // TODO(exercise): fill out.
  // [/snippet:exercise]
  (void)offset;
  return out;
}

}  // namespace scan
