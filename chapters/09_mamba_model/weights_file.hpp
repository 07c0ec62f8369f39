// A small binary file of trained weights, so that a reader trains once and runs inference later.
//
// Layout (little-endian):
//   "MAMBABK\0"            8 bytes, the magic
//   version                u32 (kWeightsFormatVersion)
//   vocab, d_model, layers, d_state, expand, conv_width, dt_rank (Mamba-2: head_dim), kind (0 selective,
//   1 LTI, 2 Mamba-2): i32 each
//   count                  u64, the number of floats
//   the floats             count × f32 (the flat array of model_config.hpp)
//   checksum               u64, FNV-1a 64 over every byte from the version to the last float
// Every way a file can be wrong is refused with one line naming the file and the problem.
#pragma once

#include "model_config.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ch09 {

constexpr std::uint32_t kWeightsFormatVersion = 1;

struct Weights {
  ModelConfig config;
  std::vector<float> parameters;
};

// Throws std::runtime_error when the parameters do not fit the config or the file cannot be written.
void save_weights(const std::string& path, const ModelConfig& config, const std::vector<float>& parameters);

// Throws std::runtime_error ("<path>: not a weights file", "... truncated", "... checksum
// mismatch", ...) on anything but a whole, intact file of this format.
Weights load_weights(const std::string& path);

// As load_weights, and also refuses a file whose config differs from `expected`.
std::vector<float> load_weights(const std::string& path, const ModelConfig& expected);

std::uint64_t fnv1a64(const unsigned char* data, std::size_t size);

}  // namespace ch09
