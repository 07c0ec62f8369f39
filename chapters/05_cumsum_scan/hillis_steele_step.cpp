// Exercise 1's solution: one step of the Hillis–Steele scan (declared in scan_simulation.hpp).
#include "scan_simulation.hpp"

namespace scan {

// [snippet:hillis_steele_step]
std::vector<double> hillis_steele_step(std::span<const double> in, std::size_t offset) {
  std::vector<double> out(in.begin(), in.end());
  for (std::size_t j = offset; j < in.size(); ++j) out[j] = in[j] + in[j - offset];
  return out;
}
// [/snippet:hillis_steele_step]

}  // namespace scan
