#include "run_weights.hpp"

#include "cpu_training.hpp"

#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace ch09 {

std::string weights_path(const std::string& dir, SsmKind kind, TrainedOn where) {
  const char* kinds[] = {"selective", "lti", "mamba2"};
  const std::string name = std::string(where == TrainedOn::cpu ? "cpu_" : "") + kinds[int(kind)] + ".weights";
  return (std::filesystem::path(dir) / name).string();
}

RunWeights load_run_weights(const std::string& dir, bool need_gpu_models) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error))
    throw std::runtime_error("'" + dir + "' is not a directory (give the --out of an earlier run)");
  RunWeights run;
  for (TrainedOn where : {TrainedOn::cpu, TrainedOn::gpu})
    for (SsmKind kind : {SsmKind::selective, SsmKind::lti}) {
      const std::string path = weights_path(dir, kind, where);
      const bool required = where == TrainedOn::cpu || need_gpu_models;
      if (!std::filesystem::exists(path, error)) {
        if (!required) continue;
        throw std::runtime_error(path + ": missing (" +
                                 (where == TrainedOn::cpu ? "every run saves it" : "a run with a GPU saves it") + ")");
      }
      Weights w;
      if (where == TrainedOn::cpu) {
        w.config = tiny_cpu_training(kind).model;
        w.parameters = load_weights(path, w.config);
      } else {
        w = load_weights(path);
        if (w.config.kind != kind) throw std::runtime_error(path + ": holds a " + to_string(w.config.kind) + " model");
      }
      // A GPU pair checked on a run without a GPU is not kept: nothing would use it.
      if (where == TrainedOn::cpu)
        run.cpu.push_back(std::move(w));
      else if (need_gpu_models)
        run.gpu.push_back(std::move(w));
    }
  return run;
}

}  // namespace ch09
