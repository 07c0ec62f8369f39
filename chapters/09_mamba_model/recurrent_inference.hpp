// The trained model run as a recurrence, one token at a time: chapter 01's RNN again.
//
// The parallel forward sees the whole sequence; generation sees one token after another. Per
// sequence and layer, two small states carry everything the past contributes:
//   conv: the last conv_width-1 inputs x of the causal convolution (d_inner, conv_width-1)
//   ssm:  the scan's state h (d_inner, N)
// so the memory and the work per token stay the same however long the sequence grows, unlike a
// transformer's key-value cache. The logits equal the parallel forward's at every position.
#pragma once

#include "model_config.hpp"

#include <cstddef>
#include <vector>

namespace ch09 {

struct RecurrentState {
  std::vector<std::vector<double>> conv;  // per layer (d_inner, conv_width-1), oldest input first
  std::vector<std::vector<double>> ssm;   // per layer (d_inner, N)
};

// All zeros: the state before the first token (the parallel forward's zero padding and h_{-1} = 0).
RecurrentState initial_recurrent_state(const ModelConfig& config);

// Numbers per sequence in the state: layers · d_inner · (conv_width - 1 + N).
std::size_t recurrent_state_size(const ModelConfig& config);

// One token through every layer: updates `state` and returns the logits (vocab) for this
// position. When `delta` is given it receives the step sizes Δ (layers, d_inner) of this token.
std::vector<double> recurrent_step(const ModelConfig& config, const std::vector<double>& parameters,
                                   RecurrentState& state, int token, std::vector<double>* delta = nullptr);

// A whole sequence from the zero state: logits (vocab, L), laid out as one batch entry of
// model_forward's logits.
std::vector<double> recurrent_logits(const ModelConfig& config, const std::vector<double>& parameters,
                                     const std::vector<int>& tokens);

}  // namespace ch09
