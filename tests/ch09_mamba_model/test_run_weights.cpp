// --load DIR: the weights a run saves, read back and checked before any work. A directory that
// is not there, a damaged file, or a missing GPU pair where the GPU will run: one clear line.
#include "ch09_test_support.hpp"
#include "cpu_training.hpp"
#include "reference_model.hpp"
#include "run_weights.hpp"

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

// A fresh directory per process (CTest runs the cases as processes of their own, several at once).
struct ScratchDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("ch09_test_run_weights_" + std::to_string(getpid()));
  ScratchDir() { std::filesystem::create_directories(path); }
  ~ScratchDir() { std::filesystem::remove_all(path); }
  std::string str() const { return path.string(); }
};

std::string refusal(const std::string& dir, bool need_gpu_models) {
  try {
    ch09::load_run_weights(dir, need_gpu_models);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

// The CPU section's two tiny models after a few steps of training, saved as a run saves them.
std::vector<ch09::CpuTrainingResult> train_and_save(const std::string& dir) {
  std::vector<ch09::CpuTrainingResult> results;
  for (ch09::SsmKind kind : {ch09::SsmKind::selective, ch09::SsmKind::lti}) {
    ch09::CpuTrainingSettings s = ch09::tiny_cpu_training(kind);
    s.steps = 20;
    results.push_back(ch09::train_on_cpu(s));
    ch09::save_weights(ch09::weights_path(dir, kind, ch09::TrainedOn::cpu), s.model,
                       ch09::to_float(results.back().parameters));
  }
  return results;
}

}  // namespace

TEST_CASE("load_run_weights: a directory that is not there is refused, naming it") {
  const std::string message = refusal("/nonexistent/ch09 run", false);
  INFO(message);
  CHECK(message.find("'/nonexistent/ch09 run' is not a directory") != std::string::npos);
}

TEST_CASE("load_run_weights: a file of the run that is not a weights file is refused, naming it") {
  ScratchDir dir;
  train_and_save(dir.str());
  const std::string junk = ch09::weights_path(dir.str(), ch09::SsmKind::lti, ch09::TrainedOn::cpu);
  std::ofstream(junk, std::ios::binary | std::ios::trunc) << "random bytes, not weights";
  const std::string message = refusal(dir.str(), false);
  INFO(message);
  CHECK(message == junk + ": not a weights file (no MAMBABK magic)");
}

TEST_CASE("load_run_weights: a damaged GPU file is refused even on a run that will not use it") {
  ScratchDir dir;
  train_and_save(dir.str());
  const std::string junk = ch09::weights_path(dir.str(), ch09::SsmKind::selective, ch09::TrainedOn::gpu);
  std::ofstream(junk, std::ios::binary | std::ios::trunc) << "MAMBABK";
  CHECK(refusal(dir.str(), false).find(junk + ": ") == 0);
}

TEST_CASE("load_run_weights: the CPU pair is needed always, the GPU pair where the GPU will run") {
  ScratchDir dir;
  const std::string cpu_selective = ch09::weights_path(dir.str(), ch09::SsmKind::selective, ch09::TrainedOn::cpu);
  CHECK(refusal(dir.str(), false) == cpu_selective + ": missing (every run saves it)");
  train_and_save(dir.str());
  CHECK(refusal(dir.str(), false).empty());
  const std::string gpu_selective = ch09::weights_path(dir.str(), ch09::SsmKind::selective, ch09::TrainedOn::gpu);
  CHECK(refusal(dir.str(), true) == gpu_selective + ": missing (a run with a GPU saves it)");
}

TEST_CASE("load_run_weights: a model of another shape under a CPU model's name is refused") {
  ScratchDir dir;
  train_and_save(dir.str());
  const ch09::ModelConfig other = ch09_test::tiny_config(ch09::SsmKind::selective);
  const std::string path = ch09::weights_path(dir.str(), ch09::SsmKind::selective, ch09::TrainedOn::cpu);
  ch09::save_weights(path, other, ch09::initial_parameters(other, 1));
  const std::string message = refusal(dir.str(), false);
  INFO(message);
  CHECK(message.find(path + ": holds a different model") == 0);
}

TEST_CASE("load_run_weights: CPU-trained weights come back bit for bit and evaluate the same") {
  ScratchDir dir;
  const std::vector<ch09::CpuTrainingResult> trained = train_and_save(dir.str());
  const ch09::RunWeights loaded = ch09::load_run_weights(dir.str(), false);
  REQUIRE(loaded.cpu.size() == 2);
  CHECK(loaded.gpu.empty());
  for (std::size_t k = 0; k < 2; ++k) {
    const ch09::CpuTrainingSettings s = ch09::tiny_cpu_training(k == 0 ? ch09::SsmKind::selective : ch09::SsmKind::lti);
    CHECK(loaded.cpu[k].config.kind == s.model.kind);
    const std::vector<float> saved = ch09::to_float(trained[k].parameters);
    CHECK(loaded.cpu[k].parameters == saved);
    const ch09::Evaluation before = ch09::evaluate(s.model, ch09::to_double(saved), s.body_length, s.n_data, 32, 1);
    const ch09::Evaluation after =
        ch09::evaluate(loaded.cpu[k].config, ch09::to_double(loaded.cpu[k].parameters), s.body_length, s.n_data, 32, 1);
    CHECK(after.loss == before.loss);
    CHECK(after.accuracy.correct == before.accuracy.correct);
  }
}
