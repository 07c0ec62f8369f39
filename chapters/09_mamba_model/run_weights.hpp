// run_weights.hpp: the weights files a run of the chapter's program leaves in its output
// directory, and `--load DIR` reading them back.
//
//   cpu_selective.weights, cpu_lti.weights   the tiny models trained on the CPU (every run)
//   selective.weights, lti.weights           the models trained on the GPU (runs with a GPU)
//
// --load checks the directory before any work: every one of these files that is there must load
// and hold the model its name says; the CPU pair must be there, and the GPU pair too when the
// run will use the GPU. Anything else is one line naming the file and the problem.
#pragma once

#include "model_config.hpp"
#include "weights_file.hpp"

#include <string>
#include <vector>

namespace ch09 {

enum class TrainedOn { cpu, gpu };

std::string weights_path(const std::string& dir, SsmKind kind, TrainedOn where);

struct RunWeights {
  std::vector<Weights> cpu;  // selective, then LTI
  std::vector<Weights> gpu;  // selective, then LTI; empty unless `need_gpu_models`
};

// Throws std::runtime_error (one line) when `dir` is not a directory or a file is missing,
// damaged or holds another model. The CPU models must have tiny_cpu_training's shape.
RunWeights load_run_weights(const std::string& dir, bool need_gpu_models);

}  // namespace ch09
