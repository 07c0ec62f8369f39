// σ(x) = 1 / (1 + e^−x) in fp64: the slope of softplus and the factor of SiLU (x σ(x)) in this
// chapter's CPU models and their gradients.
#pragma once

#include <cmath>

namespace ch09 {

inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace ch09
