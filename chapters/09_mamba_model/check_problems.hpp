// The small problems every check of chapter 09 runs on, the program's and the tests' alike: a
// two-layer model with every size small and different from the others (so that a swapped index
// shows), parameters moved off their round initial values (so that no gradient is zero by
// accident), and batches of random tokens and targets (so that every position matters).
#pragma once

#include "model_config.hpp"
#include "selective_copying.hpp"

#include <vector>

namespace ch09 {

ModelConfig tiny_config(SsmKind kind);

// Mamba's initialization plus N(0, 0.3) noise on every parameter, and dt_bias raised by 1.5 so
// that Δ is about 0.1-1 and the scan's state carries information across steps.
std::vector<double> tiny_parameters(const ModelConfig& config, unsigned seed);

// Random tokens in [0, vocab) and targets, a third of them unscored (-1).
Batch random_batch(int vocab, int batch, int seqlen, unsigned seed);

}  // namespace ch09
